"""The Gammasphere card interpreter: the set's abilities (cards.toml, in the shared vocabulary
of docs/abilities.md) read once for the menu, the checks and the application alike.

Abilities fire (played, destroyed, start and end of turn, activated by their controller) onto a
queue of frames, resolved in order, each effect in the order printed; a choice of target is a
decision of the controller (`Target`), a random one a roll of the dealer, a draw or a random
discard a chance step, and a search a decision of the searching seat (`Take`). Static abilities
("While in play") are read when a stat or a keyword is: derived, never stored.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Literal, NamedTuple

from p2pcards.abilities import Ability, Condition, Effect, Selector, carried_targets
from p2pcards.engine import Action
from p2pcards.errors import IllegalActionError
from p2pcards.games.gammasphere.actions import Activate, Discard, Take, Target
from p2pcards.games.gammasphere.cards import KEYWORDS
from p2pcards.games.gammasphere.rules import POWER
from p2pcards.zones import Step

if TYPE_CHECKING:
    from p2pcards.games.gammasphere.state import GammaState

UNATTACKABLE, CANNOT_ATTACK, BATTLE_PROOF = (1 << i for i in range(len(KEYWORDS)))
KEYWORD_BITS = dict(zip(KEYWORDS, (UNATTACKABLE, CANNOT_ATTACK, BATTLE_PROOF), strict=True))
PLAYER = -1  # a target that is a player: PLAYER - seat

AskKind = Literal["target", "discard", "search"]


class Ask(NamedTuple):
    """A choice inside an ability, in public terms: the seat to choose and the slots it may
    choose among (a search lists none: the deck is its owner's secret)."""

    kind: AskKind
    seat: int
    options: tuple[int, ...] = ()


class Frame(NamedTuple):
    """An ability being resolved: its source slot and card kind, which ability, its
    controller; the effect it is at, the targets chosen for it, and how far it got."""

    source: int
    kind: int
    ability: int
    controller: int
    effect: int = 0
    targets: tuple[int, ...] = ()
    chosen: bool = False
    stage: int = 0


def ability(st: GammaState, f: Frame) -> Ability:
    """The ability a frame resolves."""
    return st.rules.cards[f.kind].abilities[f.ability]


# ------------------------------------------------------------------ firing


def fire(st: GammaState, slot: int, trigger: str, seat: int) -> None:
    """Queue the abilities of the card in `slot` with this trigger, controlled by `seat`."""
    k = st._ident[slot]
    for i, ab in enumerate(st.rules.cards[k].abilities):
        if ab.trigger == trigger:
            st._frames.append(Frame(slot, k, i, seat))


def fire_turn(st: GammaState, seat: int, trigger: str) -> None:
    """A seat's cards in play with this trigger (start or end of its turn), field then gear."""
    for slot in st.in_play(seat):
        fire(st, slot, trigger, seat)


def activations(st: GammaState, seat: int) -> list[Activate]:
    """The activated abilities `seat` can use now: each once a turn, its cost payable."""
    out = []
    for slot in st.in_play(seat):
        for i, ab in enumerate(st.rules.cards[st._ident[slot]].abilities):
            if (
                ab.trigger == "activated"
                and not st._used[slot] >> i & 1
                and _payable(st, slot, ab)
                and has_target(st, slot, seat, ab)
            ):
                out.append(Activate(slot, i))
    return out


def has_target(st: GammaState, source: int, seat: int, ab: Ability) -> bool:
    """Whether an ability that targets could be used now (rules.md, choice 24): its first
    effect that has its controller choose a target finds one (a "you may" need not)."""
    for e in ab.effects:
        sel = e.target
        if sel is not None and sel.ref is None and sel.pick == "choose":
            return sel.optional or bool(select(st, source, seat, sel))
    return True


def _payable(st: GammaState, slot: int, ab: Ability) -> bool:
    cost = ab.cost
    assert cost is not None
    seat = st.controller(slot)
    if cost.tap and st._tapped[slot]:
        return False
    if cost.holder_tap:
        holder = st._holder[slot]
        if holder < 0 or st._tapped[holder]:
            return False
    return cost.resource <= st._gas[seat] and cost.jiggawatts <= st.jiggawatts(seat)


def activate(st: GammaState, action: Activate) -> None:
    """Pay an activated ability's cost and queue it."""
    slot = action.slot
    ab = st.rules.cards[st._ident[slot]].abilities[action.ability]
    cost = ab.cost
    assert cost is not None
    seat = st.controller(slot)
    if cost.tap:
        st._tapped[slot] = True
    if cost.holder_tap:
        st._tapped[st._holder[slot]] = True
    st._gas[seat] -= cost.resource
    st._tap_pylons(seat, cost.jiggawatts)
    st._used[slot] |= 1 << action.ability
    st._frames.append(Frame(slot, st._ident[slot], action.ability, seat))


# ---------------------------------------------------------------- selectors


def select(st: GammaState, source: int, seat: int, sel: Selector) -> list[int]:
    """What a selector finds, as slots (players as PLAYER - seat), in a fixed order."""
    if sel.ref is not None:
        if sel.ref == "this":
            return [source]
        if sel.ref == "holder":
            holder = st._holder[source]
            return [holder] if holder >= 0 else []
        if sel.ref == "you":
            return [PLAYER - seat]
        if sel.ref == "opponent":
            return [PLAYER - (1 - seat)]
        return []
    sides = {"own": (seat,), "opponent": (1 - seat,), "any": (seat, 1 - seat)}[sel.side]
    if sel.what == "player":
        return [PLAYER - s for s in sides]
    out = []
    for side in sides:
        pool = st.pylons(side) if sel.what == "pylon" else st.in_play(side)
        for slot in pool:
            card = st.rules.cards[st._ident[slot]]
            if sel.what == "entity":
                if card.type not in ("character", "building"):
                    continue
            elif sel.what != card.type:
                continue
            if (sel.self_ == "exclude" and slot == source) or (
                sel.self_ == "only" and slot != source
            ):
                continue
            if sel.tribe is not None and card.types[:1] != (sel.tribe,):
                continue
            if sel.attack_at_least is not None and st.attack(slot) < sel.attack_at_least:
                continue
            out.append(slot)
    return out


def reaches(st: GammaState, source: int, seat: int, sel: Selector, slot: int) -> bool:
    """Whether a selector finds `slot`; "this" and "holder" without building the list."""
    if sel.ref == "this":
        return slot == source
    if sel.ref == "holder":
        return st._holder[source] == slot
    return slot in select(st, source, seat, sel)


def holds(
    st: GammaState, source: int, seat: int, cond: Condition | None, *, static: bool = False
) -> bool:
    """Whether an ability's condition holds now. A static ability's is read with the stats
    the static abilities leave alone, so that no stat depends on itself."""
    if cond is None:
        return True
    if cond.count is not None:
        n = len(select(st, source, seat, cond.count))
        if cond.at_least is not None and n < cond.at_least:
            return False
        if cond.at_most is not None and n > cond.at_most:
            return False
    if cond.life_at_most is not None and st._power[seat] > cond.life_at_most:
        return False
    if cond.hand_at_most is not None and st.hand_size(seat) > cond.hand_at_most:
        return False
    if cond.mode is not None and st._mode[source] != (0 if cond.mode == "attack" else 1):
        return False
    holder = st._holder[source]
    if cond.holder_tribe is not None and (
        holder < 0 or st.rules.cards[st._ident[holder]].types[:1] != (cond.holder_tribe,)
    ):
        return False
    return cond.holder_attack_at_least is None or (
        holder >= 0 and st.attack(holder, statics=not static) >= cond.holder_attack_at_least
    )


class Bonus(NamedTuple):
    """What the static abilities in play give one card."""

    attack: int = 0
    defense: int = 0
    keywords: int = 0

    def plus(self, e: Effect) -> Bonus:
        """This bonus with one more static effect's."""
        if e.do == "modify":
            return Bonus(
                self.attack + (e.attack or 0), self.defense + (e.defense or 0), self.keywords
            )
        if e.do == "grant" and e.keyword is not None:
            return self._replace(keywords=self.keywords | KEYWORD_BITS[e.keyword])
        return self


NO_BONUS = Bonus()


def static_bonus(st: GammaState, slot: int) -> Bonus:
    """The sum of every static ability in play that reaches `slot` now."""
    bonus = NO_BONUS
    for _, e in _static_effects(st, slot):
        bonus = bonus.plus(e)
    return bonus


def static_bonuses(st: GammaState) -> dict[int, Bonus]:
    """Every card's `static_bonus` (cards no static ability reaches left out), read in one
    pass over the static abilities in play rather than one pass per card."""
    bonuses: dict[int, Bonus] = {}
    for slot, e in _static_effects(st, None):
        bonuses[slot] = bonuses.get(slot, NO_BONUS).plus(e)
    return bonuses


def _static_effects(st: GammaState, only: int | None) -> Iterator[tuple[int, Effect]]:
    """(a card reached, the effect reaching it) for every static effect in play whose
    ability's condition holds; with `only`, just those reaching that card."""
    statics = st.rules.statics
    for seat in (0, 1):
        for source in st.in_play(seat):
            for ab in statics[st._ident[source]]:
                # Whom an effect reaches is cheaper to read than the condition (a count of
                # Pylons, say), and most reads of one card's stats find nothing reaching it.
                reached = [
                    (slot, e)
                    for e in ab.effects
                    if e.target is not None
                    for slot in (
                        select(st, source, seat, e.target)
                        if only is None
                        else [only]
                        if reaches(st, source, seat, e.target, only)
                        else []
                    )
                ]
                if reached and holds(st, source, seat, ab.condition, static=True):
                    yield from reached


# ---------------------------------------------------------------- resolving


def resolve(st: GammaState) -> None:
    """Resolve queued abilities until one asks a seat, needs the dealer, or all are done;
    then the turn goes on."""
    while st._frames and not st.is_terminal():
        if st._ask is not None or st._chance is not None:
            return
        f = st._frames[0]
        ab = ability(st, f)
        starting = f.effect == 0 and not f.chosen and f.stage == 0
        if f.effect >= len(ab.effects) or (
            starting and not holds(st, f.source, f.controller, ab.condition)
        ):
            st._frames.pop(0)
            continue
        if not _step(st, f, ab.effects[f.effect]):
            return
        st._frames[0] = _next_effect(ab, f)
        if st._check_power():
            return
    if not st.is_terminal() and st._ask is None and st._chance is None:
        st._go_on()


def _next_effect(ab: Ability, f: Frame) -> Frame:
    """The frame at the ability's next effect: targets chosen afresh, or carried ("same")."""
    carried = carried_targets(ab, f.effect + 1, f.targets)
    return f._replace(
        effect=f.effect + 1, targets=carried or (), chosen=carried is not None, stage=0
    )


def _targets(st: GammaState, f: Frame, e: Effect) -> tuple[int, ...] | None:
    """The effect's targets, or None while a seat or the dealer must choose them."""
    if f.chosen or e.target is None:
        return f.targets
    sel = e.target
    found = select(st, f.source, f.controller, sel)
    if sel.ref is not None or sel.pick == "all" or len(found) <= 1:
        targets = tuple(found)  # a lone candidate is taken without asking; none: no effect
    elif sel.pick == "random":
        st._ask_chance(Step("roll", sides=len(found)))
        return None
    else:
        st._ask = Ask("target", f.controller, tuple(found))
        st._current = f.controller
        return None
    st._frames[0] = f._replace(targets=targets, chosen=True)
    return targets


def _step(st: GammaState, f: Frame, e: Effect) -> bool:
    """Do one effect (or its next part); whether it is done."""
    do = e.do
    if do in ("draw", "discard"):
        return _cards(st, f, e)
    if do == "search":
        return _search(st, f, e)
    targets = _targets(st, f, e)
    if targets is None:
        return False
    amount = e.amount if isinstance(e.amount, int) else 0
    seat = f.controller
    if do == "energy":
        st._gas[seat] += amount
    elif do == "recycle":
        st._shuffle_into(st.zone(f"discard:{seat}"), st.zone(f"deck:{seat}"))
    for t in targets:
        if t < 0:
            player = PLAYER - t
            if do == "damage":
                st._power[player] -= amount
            elif do == "heal":
                st._power[player] = min(POWER, st._power[player] + amount)
            continue
        if not st.is_in_play(t):
            continue  # gone since it was chosen
        if do == "destroy":
            st._destroy(t)
        elif do == "return":
            st._return(t)
        elif do == "modify":
            permanent = e.duration == "permanent"
            (st._atk_p if permanent else st._atk_t)[t] += e.attack or 0
            (st._def_p if permanent else st._def_t)[t] += e.defense or 0
        elif do == "grant" and e.keyword is not None:
            (st._kw_p if e.duration == "permanent" else st._kw_t)[t] |= KEYWORD_BITS[e.keyword]
        elif do == "level" and st.card(t).type == "character":
            st._change_level(t, amount)
        elif do == "mode" and st.card(t).type == "character":
            st._mode[t] ^= 1
        elif do == "tap":
            st._tapped[t] = True
        elif do == "untap":
            st._tapped[t] = False
    return True


def _cards(st: GammaState, f: Frame, e: Effect) -> bool:
    """Draw or discard, one card a stage: a draw from the deck (an empty one loses, as at
    the start of a turn), a discard chosen by the hand's owner or picked at random."""
    seat = f.controller if e.who in (None, "you") else 1 - f.controller
    amount = e.amount if isinstance(e.amount, int) else 0
    if f.stage >= amount:
        return True
    st._frames[0] = f._replace(stage=f.stage + 1)
    hand = st.zone(f"hand:{seat}")
    if e.do == "draw":
        deck = st.zone(f"deck:{seat}")
        if not st._zones[deck]:
            st._end((1 - seat,))
            return False
        st._ask_chance(Step("draw", deck, hand, 1 << seat))
        return False
    if not st._zones[hand]:
        return True
    if e.how == "random":
        st._ask_chance(Step("pick", hand, st.zone(f"discard:{seat}"), 3))
    else:
        st._ask = Ask("discard", seat)
        st._current = seat
    return False


def _search(st: GammaState, f: Frame, e: Effect) -> bool:
    """The searching seat takes a matching card of its deck (shown to all), or finds none."""
    if f.stage:
        return True
    st._frames[0] = f._replace(stage=1)
    st._ask = Ask("search", f.controller)
    st._current = f.controller
    return False


def matches(st: GammaState, e: Effect, k: int) -> bool:
    """Whether card kind k is what a search looks for."""
    card = st.rules.cards[k]
    if e.card is not None:
        return card.id == e.card
    if e.what == "entity":
        ok = card.type in ("character", "building")
    else:
        ok = e.what is None or card.type == e.what
    return ok and (e.tribe is None or card.types[:1] == (e.tribe,))


def current_effect(st: GammaState) -> Effect:
    """The effect being resolved (an ask is inside one)."""
    f = st._frames[0]
    return ability(st, f).effects[f.effect]


# ------------------------------------------------------------------ answers


def ask_actions(st: GammaState, ask: Ask) -> list[Action]:
    """The actions that answer a question inside an ability."""
    if ask.kind == "target":
        return [Target(s) for s in ask.options]
    if ask.kind == "discard":
        hand = st._zones[st.zone(f"hand:{ask.seat}")]
        return [Discard(s, st.card(s).id) for s in hand]
    e = current_effect(st)
    pool = st._pools[ask.seat] or []
    found: list[Action] = [
        Take(st.rules.card_ids[k]) for k, n in enumerate(pool) if n and matches(st, e, k)
    ]
    return found or [Take(None)]


def verify_answer(st: GammaState, ask: Ask, action: Action) -> None:
    """The one check of an answer; a replica that cannot see the searching seat's deck
    checks what it can (the card taken fits the search and can be there)."""
    if ask.kind == "target":
        if not isinstance(action, Target) or action.slot not in ask.options:
            raise IllegalActionError(f"{action} is not a target this ability allows")
        return
    if ask.kind == "discard":
        if not isinstance(action, Discard):
            raise IllegalActionError("a card of the hand must be discarded")
        if st._where[action.slot] != st.zone(f"hand:{ask.seat}"):
            raise IllegalActionError(f"slot {action.slot} is not in the hand")
        st._check_learnable(action.slot, st._kind(action.card))
        return
    if not isinstance(action, Take):
        raise IllegalActionError("the search must take a card, or find none")
    if st._pools[ask.seat] is not None and action not in ask_actions(st, ask):
        raise IllegalActionError(f"{action} is not a card this search may take")
    if action.card is not None and not matches(st, current_effect(st), st._kind(action.card)):
        raise IllegalActionError(f"{action.card} is not what this search looks for")
    if action.card is not None and not st._zones[st.zone(f"deck:{ask.seat}")]:
        raise IllegalActionError("the deck is empty")


def answer(st: GammaState, ask: Ask, action: Action) -> None:
    """Apply an answer to the ability being resolved."""
    f = st._frames[0]
    if isinstance(action, Target):
        st._frames[0] = f._replace(targets=(action.slot,), chosen=True)
    elif isinstance(action, Discard):
        st._show(action.slot, action.card, 3)
        st._move(action.slot, st.zone(f"discard:{ask.seat}"))
    elif isinstance(action, Take):
        deck = st.zone(f"deck:{ask.seat}")
        if action.card is None:
            st._shuffle(deck)
        else:
            show = (1 << st.num_players) - 1
            st._search(deck, st.zone(f"hand:{ask.seat}"), st._kind(action.card), show)


def rolled(st: GammaState, value: int) -> None:
    """A random target, picked by the dealer among the effect's candidates."""
    f = st._frames[0]
    e = current_effect(st)
    assert e.target is not None
    found = select(st, f.source, f.controller, e.target)
    st._frames[0] = f._replace(targets=(found[value],), chosen=True)


def frames_public(frames: Sequence[Frame]) -> list[list[int]]:
    """Frames for digests."""
    return [
        [f.source, f.kind, f.ability, f.controller, f.effect, int(f.chosen), f.stage, *f.targets]
        for f in frames
    ]
