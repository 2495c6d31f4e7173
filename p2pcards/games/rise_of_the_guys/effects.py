"""The ability interpreter of Rise of the Guys: one reading of a card's data for move
generation, validation and application (docs/abilities.md, DESIGN.md §9).

Abilities that fire wait as `Frame`s in the state's `_frames`, first in first out, and
resolve one effect at a time (`step`). An effect whose targets a seat chooses, whose lane or
order a seat picks, or whose card a seat discards, asks (`state._ask`); the answer is an
action of that seat, listed by `ask_actions` and checked by `verify_answer` like any other.
A random target is a roll, a draw a draw: chance steps the dealer deals. Triggers an effect
sets off join the end of the queue, so the ability being resolved finishes first.

The functions read and write the state's lists directly: this module is the state's other
half, split off so that the rules of the turn and the rules of the cards read apart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from p2pcards.abilities import Ability, Condition, Effect, Selector, carried_targets
from p2pcards.engine import Action
from p2pcards.errors import IllegalActionError
from p2pcards.games.rise_of_the_guys.actions import (
    DECLINE,
    Decline,
    Discard,
    Lane,
    Order,
    Play,
    Target,
    TargetPlayer,
    orders,
)
from p2pcards.games.rise_of_the_guys.rules import KEYWORDS, LANES, LIFE, STINKY, UNHURTABLE
from p2pcards.slots import UNKNOWN
from p2pcards.zones import Step

if TYPE_CHECKING:
    from p2pcards.games.rise_of_the_guys.state import Ask, Frame, GuysState

Handler = Callable[["GuysState", "Frame"], bool]
HANDLERS: dict[str, Handler] = {}
"""Effects in code, by the name a card's `handler` effect gives (few: a test lists them)."""


def handler(name: str) -> Callable[[Handler], Handler]:
    """Register an effect in code under `name`."""

    def register(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn

    return register


def player(seat: int) -> int:
    """The target number of a player (slots are >= 0)."""
    return -1 - seat


# ---------------------------------------------------------------- what is in play


def in_play(st: GuysState) -> list[tuple[int, int]]:
    """Every face-up card in play as (slot, controller), in the order simultaneous triggers
    resolve: the Leading Player's side first, Guys lane by lane, the Vest, then Pins on Guys
    in the order they were pinned (docs/abilities.md)."""
    from p2pcards.games.rise_of_the_guys.state import SIDE_ZONES

    zones, known = st._zones, st._known
    out: list[tuple[int, int]] = []
    for seat in (st._leader, 1 - st._leader):
        for z in SIDE_ZONES[seat]:
            for s in zones[z]:
                if known[s] == 3:
                    out.append((s, seat))
    return out


def ability(st: GuysState, f: Frame) -> Ability:
    return st._rules_g.abilities[f.kind][f.ability]


# ---------------------------------------------------------------- firing


def _queue(st: GuysState, slot: int, k: int, index: int, controller: int, trigger: int) -> None:
    """Queue ability `index` of the card in `slot` (kind k) if its condition holds."""
    from p2pcards.games.rise_of_the_guys.state import Frame

    frame = Frame(slot, k, index, controller, trigger=trigger, lane=st.lane_of(slot))
    condition = st._rules_g.abilities[k][index].condition
    if condition is None or holds(st, condition, frame):
        st._frames.append(frame)


def fire_self(st: GuysState, slot: int, trigger: str, *, by_trigger: int = -1) -> None:
    """Queue the abilities of the card in `slot` that fire on `trigger`."""
    k = st._ident[slot]
    for i, a in enumerate(st._rules_g.abilities[k]):
        if a.trigger == trigger:
            _queue(st, slot, k, i, st.controller(slot), by_trigger)


def fire_all(st: GuysState, trigger: str) -> None:
    """Queue every ability in play that fires on `trigger` (start and end of turn)."""
    for slot, _ in in_play(st):
        fire_self(st, slot, trigger)


def _fire_others(st: GuysState, trigger: str, cause: int, seat: int) -> None:
    """Cards in play that watch for another card (played, token made) by `seat`."""
    abilities = st._rules_g.abilities
    for slot, controller in in_play(st):
        if slot == cause:
            continue
        k = st._ident[slot]
        for i, a in enumerate(abilities[k]):
            if a.trigger != trigger:
                continue
            if (a.by == "you" and seat != controller) or (
                a.by == "opponent" and seat == controller
            ):
                continue
            if a.filter is not None and not _matches_card(st, a.filter, cause):
                continue
            _queue(st, slot, k, i, controller, cause)


def fire_played(st: GuysState, slot: int, seat: int, *, enhanced: bool) -> None:
    """A card was played face up: its own When played (and Enhance) first, then cards that
    watch for plays."""
    fire_self(st, slot, "played")
    if enhanced:
        fire_self(st, slot, "enhanced")
    _fire_others(st, "card_played", slot, seat)


def fire_revealed(st: GuysState, slot: int, seat: int) -> None:
    """A face-down Guy was flipped: When revealed, then When played (line 217), then cards
    that watch for plays (it is played, for them, when it is shown)."""
    fire_self(st, slot, "revealed")
    fire_self(st, slot, "played")
    _fire_others(st, "card_played", slot, seat)


def _vengeful(st: GuysState, seat: int, before: int, after: int) -> None:
    """Vengeful X fires once when the damage this turn reaches X; plain Vengeful each time
    (line 211)."""
    for slot, controller in in_play(st):
        if controller != seat:
            continue
        k = st._ident[slot]
        for i, a in enumerate(st._rules_g.abilities[k]):
            if a.trigger == "vengeful" and (a.amount is None or before < a.amount <= after):
                _queue(st, slot, k, i, controller, -1)


# ---------------------------------------------------------------- selectors


def candidates(st: GuysState, sel: Selector, f: Frame, *, raw: bool = False) -> list[int]:
    """What a selector finds now: slots, and players as `player(seat)`. `raw`: stat filters
    read printed stats and modifiers only (a static ability's selector, which must not read
    the statics it is part of)."""
    c = f.controller
    ref = sel.ref
    if ref is not None:
        if ref == "this":
            return [f.source]
        if ref == "pinned":
            host = st._host[f.source]
            return [host] if host >= 0 else []
        if ref == "you":
            return [player(c)]
        if ref == "opponent":
            return [player(1 - c)]
        return [f.trigger] if f.trigger >= 0 else []
    seats = (c,) if sel.side == "own" else (1 - c,) if sel.side == "opponent" else (0, 1)
    what = sel.what
    if what == "player":
        return [player(s) for s in seats]
    from p2pcards.games.rise_of_the_guys.state import HAND, LANE0, PINS, VEST, zone_of

    zones = st._zones
    out: list[int] = []
    if what == "hand_card":
        for slot in zones[zone_of(c, HAND)]:
            if _matches_card(st, sel, slot):
                out.append(slot)
        return out
    if what == "pin":
        for seat in seats:
            for offset in (VEST, PINS):
                out.extend(s for s in zones[zone_of(seat, offset)] if _matches(st, sel, s, f, raw))
        return out
    for seat in seats:
        for lane in range(LANES):
            if not _lane_fits(sel.lane, lane, f.lane, seat, c):
                continue
            for slot in zones[zone_of(seat, LANE0 + lane)]:
                if _matches(st, sel, slot, f, raw):
                    out.append(slot)
    return out


def _lane_fits(rule: str | None, lane: int, source_lane: int, seat: int, controller: int) -> bool:
    if rule is None or rule == "any":
        return True
    if source_lane < 0:
        return rule == "other"
    if rule == "this":
        return lane == source_lane
    if rule == "opposing":
        return lane == source_lane and seat != controller
    if rule == "other":
        return lane != source_lane
    return abs(lane - source_lane) == 1  # adjacent


def _matches(st: GuysState, sel: Selector, slot: int, f: Frame, raw: bool) -> bool:
    """A card on the board against a selector. A face-down card is out of reach unless the
    selector says so (line 199), and shows nothing but that it is there."""
    down = st._known[slot] != 3
    face = sel.face or "up"
    if down:
        if face == "up":
            return False
        return (
            sel.tribe is None
            and sel.cls is None
            and sel.type is None
            and sel.token is None
            and sel.attack_at_least is None
            and sel.health_at_least is None
            and _self_fits(sel, slot, f)
        )
    if face == "down":
        return False
    if not _self_fits(sel, slot, f) or not _matches_card(st, sel, slot):
        return False
    if sel.attack_at_least is not None or sel.health_at_least is not None:
        atk, hp = raw_stats(st, slot) if raw else st.stats(slot)
        if sel.attack_at_least is not None and atk < sel.attack_at_least:
            return False
        if sel.health_at_least is not None and hp < sel.health_at_least:
            return False
    return True


def _self_fits(sel: Selector, slot: int, f: Frame) -> bool:
    if sel.self_ == "exclude":
        return slot != f.source
    if sel.self_ == "only":
        return slot == f.source
    return True


def _matches_card(st: GuysState, sel: Selector, slot: int) -> bool:
    """The card's printed identity against a selector's card filters (tribe, class, type,
    token, cost)."""
    k = st._ident[slot]
    if k == UNKNOWN:
        return False
    card = st._rules_g.cards[k]
    if sel.tribe is not None and sel.tribe not in card.tribes:
        return False
    if sel.cls is not None and sel.cls not in card.classes:
        return False
    if sel.type is not None and sel.type != card.type:
        return False
    if sel.token is not None and sel.token != card.token:
        return False
    return sel.cost_at_most is None or card.cost <= sel.cost_at_most


def holds(st: GuysState, cond: Condition, f: Frame) -> bool:
    """Whether every key of a condition holds now."""
    c = f.controller
    if cond.unopposed is not None or cond.opposed is not None:
        lane = st.lane_of(f.source)
        opposed = lane >= 0 and st.lane_guy(1 - c, lane) >= 0
        if (cond.unopposed and opposed) or (cond.opposed and not opposed):
            return False
    if cond.count is not None:
        n = len(candidates(st, cond.count, f, raw=True))
        if cond.at_least is not None and n < cond.at_least:
            return False
        if cond.at_most is not None and n > cond.at_most:
            return False
    if cond.life_at_most is not None and st._life[c] > cond.life_at_most:
        return False
    return cond.hand_at_most is None or st.hand_size(c) <= cond.hand_at_most


# ---------------------------------------------------------------- statics


def raw_stats(st: GuysState, slot: int) -> tuple[int, int]:
    """Printed attack and health plus modifiers, without static abilities."""
    card = st._rules_g.cards[st._ident[slot]]
    assert card.attack is not None and card.health is not None
    return (
        card.attack + st._atk[slot] + st._atk_t[slot],
        card.health + st._hp[slot] + st._hp_t[slot],
    )


class Bonus(NamedTuple):
    """What static abilities give one card now: attack, health, keyword bits."""

    attack: int
    health: int
    keywords: int


NO_BONUS = Bonus(0, 0, 0)


def static_bonuses(st: GuysState) -> dict[int, Bonus]:
    """What every static ability in force gives, by slot: computed once for all the cards a
    caller reads (a face-down card gets nothing: no static can see it)."""
    from p2pcards.games.rise_of_the_guys.state import Frame

    rules = st._rules_g
    out: dict[int, Bonus] = {}
    for slot, controller in in_play(st):
        k = st._ident[slot]
        for i in rules.statics[k]:
            a = rules.abilities[k][i]
            frame = Frame(slot, k, i, controller, lane=st.lane_of(slot))
            if a.condition is not None and not holds(st, a.condition, frame):
                continue
            for e in a.effects:
                if e.target is None:
                    continue
                bits = KEYWORDS[e.keyword] if e.do == "grant" and e.keyword is not None else 0
                da, dh = (e.attack or 0, e.health or 0) if e.do == "modify" else (0, 0)
                for t in candidates(st, e.target, frame, raw=True):
                    if t >= 0:
                        old = out.get(t, NO_BONUS)
                        out[t] = Bonus(old.attack + da, old.health + dh, old.keywords | bits)
    return out


# ---------------------------------------------------------------- damage and leaving play


def deal_damage(st: GuysState, target: int, amount: int, source: int) -> None:
    """Damage a Guy or a player. A Guy that can't be hurt takes none (line 163); a Stinky
    Guy's damage destroys the Guy it hurts (line 203)."""
    if amount <= 0:
        return
    if target < 0:
        seat = -1 - target
        before = st._hurt[seat]
        st._life[seat] -= amount
        st._hurt[seat] = before + amount
        _vengeful(st, seat, before, before + amount)
        return
    if st.has(target, UNHURTABLE):
        return
    st._damage[target] += amount
    if (
        source >= 0
        and st._known[source] == 3
        and st.has(source, STINKY)
        and st.lane_of(source) >= 0
    ):
        st._damage[target] = max(st._damage[target], st.health(target))


def _reset(st: GuysState, slot: int) -> None:
    for values in (st._damage, st._atk, st._hp, st._atk_t, st._hp_t, st._kw, st._kw_t):
        values[slot] = 0
    st._prepared[slot] = False
    st._host[slot] = -1


def discard_card(st: GuysState, slot: int) -> None:
    """A card leaves play for its owner's discard pile (a token ceases to exist)."""
    from p2pcards.games.rise_of_the_guys.state import DISCARD, GONE, zone_of

    home = st._home[slot]
    st._move(slot, GONE if home < 0 else zone_of(home, DISCARD))
    _reset(st, slot)


def destroy(st: GuysState, guy: int) -> None:
    """Destroy a Guy: its Pins go with it (line 52), its When destroyed abilities fire."""
    for pin in st.pins_on(guy):
        discard_card(st, pin)
    fire_self(st, guy, "destroyed")
    discard_card(st, guy)


def _return(st: GuysState, guy: int) -> None:
    """A Guy goes back to its owner's hand, its Pins destroyed; a token is gone."""
    from p2pcards.games.rise_of_the_guys.state import GONE, HAND, zone_of

    for pin in st.pins_on(guy):
        discard_card(st, pin)
    home = st._home[guy]
    st._move(guy, GONE if home < 0 else zone_of(home, HAND))
    _reset(st, guy)


def _empty_lanes(st: GuysState, seat: int) -> list[int]:
    return [lane for lane in range(LANES) if st.lane_guy(seat, lane) < 0]


def make_token(st: GuysState, card: str, seat: int, lane: int) -> None:
    """A token enters a lane (public from birth), and cards that watch for tokens fire."""
    from p2pcards.games.rise_of_the_guys.state import LANE0, zone_of

    slot = st._make_token(st._kind(card), zone_of(seat, LANE0 + lane))
    st._grow()
    _fire_others(st, "token_made", slot, seat)


# ---------------------------------------------------------------- resolution


def step(st: GuysState) -> None:
    """Resolve the first queued ability by one effect, or until it must ask or deal."""
    f = st._frames[0]
    a = ability(st, f)
    if f.effect >= len(a.effects):
        st._frames.pop(0)
        return
    e = a.effects[f.effect]
    # A play_free's selector filters the hand, which only its owner sees: it is asked as the
    # plays themselves (`_free_plays`), never as targets.
    if e.target is not None and not f.picked and e.do != "play_free":
        picked = _pick(st, f, e.target)
        if picked is None:
            return
        f = st._frames[0] = picked
    if _apply(st, f, e):
        carried = carried_targets(a, f.effect + 1, f.targets)
        st._frames[0] = f._replace(
            effect=f.effect + 1, targets=carried or (), picked=carried is not None, stage=0
        )


def _ask(st: GuysState, ask: Ask) -> None:
    st._ask = ask
    st._current = ask.seat


def _pick(st: GuysState, f: Frame, sel: Selector) -> Frame | None:
    """The effect's targets, once chosen: None while a seat chooses or chance picks."""
    found = candidates(st, sel, f)
    if sel.ref is not None or sel.pick == "all":
        return f._replace(targets=tuple(found), picked=True)
    left = [t for t in found if t not in f.targets]
    need = sel.count - len(f.targets)
    if need <= 0 or not left:
        return f._replace(picked=True)
    if sel.pick == "random":
        st._ask_chance(Step("roll", sides=len(left)))
        return None
    if len(left) <= need and not sel.optional:  # no choice to make: all of them (line 159)
        return f._replace(targets=f.targets + tuple(left), picked=True)
    from p2pcards.games.rise_of_the_guys.state import Ask

    _ask(st, Ask("target", f.controller, tuple(left), sel.optional))
    return None


def after_chance(st: GuysState, step_: Step, slot: int, value: int) -> None:
    """Go on with the ability that asked the dealer: a random target, a card drawn or looked
    at, a card picked at random to discard."""
    f = st._frames[0]
    if step_.kind == "roll":
        e = ability(st, f).effects[f.effect]
        assert e.target is not None
        left = [t for t in candidates(st, e.target, f) if t not in f.targets]
        st._frames[0] = f._replace(targets=(*f.targets, left[value]))
        return
    st._frames[0] = f._replace(stage=f.stage + 1)


def _seat_of(e: Effect, f: Frame) -> int:
    return 1 - f.controller if e.who == "opponent" else f.controller


def _apply(st: GuysState, f: Frame, e: Effect) -> bool:
    """Apply an effect to its targets; False while it waits for a seat or the dealer."""
    from p2pcards.games.rise_of_the_guys.state import DECK, DISCARD, HAND, Ask, Spend, zone_of

    do = e.do
    targets = f.targets
    if do == "damage":
        for t in targets:
            deal_damage(st, t, _int(e.amount), f.source)
    elif do == "heal":
        for t in targets:
            if t < 0:
                seat = -1 - t
                full = e.amount == "full"
                st._life[seat] = LIFE if full else min(LIFE, st._life[seat] + _int(e.amount))
            else:
                st._damage[t] = 0 if e.amount == "full" else max(0, st._damage[t] - _int(e.amount))
    elif do == "destroy":
        for t in targets:
            if t >= 0 and st._host[t] < 0 and st.lane_of(t) >= 0:
                destroy(st, t)
            elif t >= 0:
                discard_card(st, t)
    elif do in ("modify", "grant"):
        permanent = e.duration == "permanent"
        for t in targets:
            if t < 0:
                continue
            if do == "grant":
                assert e.keyword is not None
                kw = st._kw if permanent else st._kw_t
                kw[t] |= KEYWORDS[e.keyword]
            else:
                (st._atk if permanent else st._atk_t)[t] += e.attack or 0
                (st._hp if permanent else st._hp_t)[t] += e.health or 0
    elif do == "move":
        while f.stage < len(targets):
            guy = targets[f.stage]
            seat = st.controller(guy)
            lanes = _empty_lanes(st, seat)
            if st.lane_of(guy) < 0 or not lanes:
                f = st._frames[0] = f._replace(stage=f.stage + 1)
                continue
            if len(lanes) > 1:  # the Guy's controller picks the lane (rules §20)
                _ask(st, Ask("lane", seat, tuple(lanes)))
                return False
            _move_guy(st, guy, lanes[0])
            f = st._frames[0] = f._replace(stage=f.stage + 1)
    elif do == "return":
        for t in targets:
            if t >= 0 and st.lane_of(t) >= 0:
                _return(st, t)
    elif do == "loot":
        deck = zone_of(f.controller, DECK)
        n = min(_int(e.amount), len(st._zones[deck]))
        if f.stage < n:
            st._ask_chance(Step("look", deck, -1, 1 << f.controller, depth=f.stage))
            return False
        if f.stage == n and n >= 2:
            _ask(st, Ask("order", f.controller, (len(orders(n)),)))
            st._frames[0] = f._replace(stage=n + 1)
            return False
    elif do in ("draw", "draw_to"):
        seat = _seat_of(e, f)
        deck = zone_of(seat, DECK)
        more = f.stage < _int(e.amount) if do == "draw" else st.hand_size(seat) < _int(e.amount)
        if more and st._zones[deck]:  # drawing from an empty deck by an effect: ignored (§5)
            st._ask_chance(Step("draw", deck, zone_of(seat, HAND), 1 << seat))
            return False
    elif do == "discard":
        seat = _seat_of(e, f)
        hand = st._zones[zone_of(seat, HAND)]
        if f.stage < _int(e.amount) and hand:
            if e.how == "choose":
                _ask(st, Ask("discard", seat, tuple(hand)))
            else:
                st._ask_chance(Step("pick", zone_of(seat, HAND), zone_of(seat, DISCARD), 3))
            return False
    elif do == "token":
        seat = 1 - f.controller if e.side == "opponent" else f.controller
        assert e.card is not None
        count = e.count or 1
        if e.where == "this_lane":
            if f.lane >= 0 and st.lane_guy(seat, f.lane) < 0:
                make_token(st, e.card, seat, f.lane)
        elif e.where == "each_empty_lane":
            for lane in _empty_lanes(st, seat):
                make_token(st, e.card, seat, lane)
        else:
            while f.stage < count:
                lanes = _empty_lanes(st, seat)
                if not lanes:
                    break
                if len(lanes) > 1:
                    _ask(st, Ask("lane", f.controller, tuple(lanes)))
                    return False
                make_token(st, e.card, seat, lanes[0])
                f = st._frames[0] = f._replace(stage=f.stage + 1)
    elif do == "energy":
        st._energy[f.controller] += _int(e.amount)
        st._log[f.controller] += (Spend(-_int(e.amount)),)
    elif do == "play_free":
        # Asked whenever the hand holds a card, whether or not one fits: who acts next must
        # follow from public facts (DESIGN.md §3), and only the owner sees the hand.
        count = e.target.count if e.target is not None else 1
        if f.stage < count and st.hand_size(f.controller):
            optional = e.target is not None and e.target.optional
            _ask(st, Ask("free", f.controller, (), optional))
            return False
    elif do == "handler":
        assert e.name is not None
        return HANDLERS[e.name](st, f)
    else:
        raise AssertionError(do)
    return True


def _int(value: int | str | None) -> int:
    return value if isinstance(value, int) else 0


def _move_guy(st: GuysState, guy: int, lane: int) -> None:
    from p2pcards.games.rise_of_the_guys.state import LANE0, zone_of

    st._move(guy, zone_of(st.controller(guy), LANE0 + lane))


def _free_plays(st: GuysState, f: Frame, e: Effect) -> list[Play]:
    """The plays a play_free effect offers: hand cards its selector allows, at no cost."""
    if e.target is None:
        return []
    from p2pcards.games.rise_of_the_guys.state import HAND, zone_of

    hand = st._zones[zone_of(f.controller, HAND)]
    allowed = [s for s in hand if _matches_card(st, e.target, s)]
    return st._plays(f.controller, free=True, only=allowed) if allowed else []


def _may_decline(st: GuysState, ask: Ask) -> bool:
    """A free play may be declined when it is optional or nothing fits; a replica that
    cannot see the hand takes the owner's word (the cards are checked when shown)."""
    if ask.optional or (st.viewer is not None and st.viewer != ask.seat):
        return True
    f = st._frames[0]
    return not _free_plays(st, f, ability(st, f).effects[f.effect])


# ---------------------------------------------------------------- answers


def ask_actions(st: GuysState, ask: Ask) -> list[Action]:
    """The actions that answer a question inside an ability."""
    if ask.kind == "mulligan":
        from p2pcards.games.rise_of_the_guys.actions import Mulligan

        return [Mulligan(mask) for mask in _mulligans(st, ask.seat)]
    if ask.kind == "target":
        out: list[Action] = [Target(o) if o >= 0 else TargetPlayer(-1 - o) for o in ask.options]
        return [*out, DECLINE] if ask.optional else out
    if ask.kind == "lane":
        return [Lane(lane) for lane in ask.options]
    if ask.kind == "order":
        return [Order(i) for i in range(ask.options[0])]
    if ask.kind == "discard":
        ids = st._rules.card_ids
        return [Discard(s, ids[st._kind_at(s)]) for s in ask.options]
    f = st._frames[0]
    plays: list[Action] = list(_free_plays(st, f, ability(st, f).effects[f.effect]))
    return [*plays, DECLINE] if _may_decline(st, ask) else plays


def _mulligans(st: GuysState, seat: int) -> list[int]:
    """The hand positions a mulligan may put back, as masks, one per different choice: copies
    of a card are alike, so putting back k of them means the first k (the search and the
    menu would otherwise weigh the same choice twice)."""
    from p2pcards.games.rise_of_the_guys.state import HAND, zone_of

    kinds = [st._kind_at(s) for s in st._zones[zone_of(seat, HAND)]]
    out = []
    for mask in range(1 << len(kinds)):
        taken: dict[int, bool] = {}  # kind -> a copy was kept before (a later one may not go)
        canonical = True
        for i, k in enumerate(kinds):
            back = bool(mask >> i & 1)
            if back and taken.get(k):
                canonical = False
                break
            if not back:
                taken[k] = True
        if canonical:
            out.append(mask)
    return out


def verify_answer(st: GuysState, ask: Ask, action: Action) -> None:
    """The one check of an answer: listed, or, for a replica that cannot see the cards it
    names, the part it can check (the card itself is learnt from the action)."""
    if ask.kind == "discard" and isinstance(action, Discard):
        if action.slot not in ask.options:
            raise IllegalActionError(f"slot {action.slot} is not in the hand")
        st._check_learnable(action.slot, st._kind(action.card))
        return
    if ask.kind == "free" and isinstance(action, Decline):
        if not _may_decline(st, ask):
            raise IllegalActionError("a card fits: the free play must be made")
        return
    if ask.kind == "free" and isinstance(action, Play):
        st._check_slot(action.slot)
        k = st._ident[action.slot]
        if action.card is None and action.face_down and k != UNKNOWN:
            action = action.named(st._rules.card_ids[k])  # the player's own replica
        if action.card is None:  # face down, unseen here: checked when revealed
            legal = action.face_down and st.controller(action.slot) == ask.seat
        elif k == UNKNOWN:
            st._check_learnable(action.slot, st._kind(action.card))
            st._ident[action.slot] = st._kind(action.card)
            try:
                legal = action in ask_actions(st, ask)
            finally:
                st._ident[action.slot] = UNKNOWN
        else:
            legal = action in ask_actions(st, ask)
        if not legal:
            raise IllegalActionError(f"{action} is not a play this ability allows")
        return
    if ask.kind == "order" and isinstance(action, Order) and action.order is None:
        if st.viewer is None or st.viewer == ask.seat:
            raise IllegalActionError("the looting seat must say in which order")
        return
    if ask.kind == "order" and isinstance(action, Order) and action.order is None:
        if st.viewer is None or st.viewer == ask.seat:
            raise IllegalActionError("the looting seat must say in which order")
        return
    if ask.kind == "mulligan":
        from p2pcards.games.rise_of_the_guys.actions import Mulligan

        if not isinstance(action, Mulligan) or not 0 <= action.mask < 1 << st.hand_size(ask.seat):
            raise IllegalActionError("a mulligan names hand positions to put back")
        return
    if action not in ask_actions(st, ask):
        raise IllegalActionError(f"{action} does not answer the {ask.kind} asked")


def answer(st: GuysState, ask: Ask, action: Action) -> None:
    """Apply an answer to the ability being resolved."""
    f = st._frames[0]
    if isinstance(action, Decline):
        if ask.kind == "free":  # no more free plays from this effect
            st._frames[0] = f._replace(stage=99)
        else:
            st._frames[0] = f._replace(picked=True)
        return
    if isinstance(action, Target | TargetPlayer):
        chosen = action.slot if isinstance(action, Target) else player(action.seat)
        st._frames[0] = f._replace(targets=(*f.targets, chosen))
        return
    if isinstance(action, Lane):
        e = ability(st, f).effects[f.effect]
        if e.do == "move":
            _move_guy(st, f.targets[f.stage], action.lane)
        else:
            seat = 1 - f.controller if e.side == "opponent" else f.controller
            assert e.card is not None
            make_token(st, e.card, seat, action.lane)
        st._frames[0] = st._frames[0]._replace(stage=f.stage + 1)
        return
    if isinstance(action, Order):
        from p2pcards.games.rise_of_the_guys.state import DECK, zone_of

        n = f.stage - 1  # the loot asked for the order with stage n + 1
        order = None if action.order is None else orders(n)[action.order]
        st._reorder_top(zone_of(f.controller, DECK), n, order)
        return
    if isinstance(action, Discard):
        from p2pcards.games.rise_of_the_guys.state import DISCARD, zone_of

        st._show(action.slot, action.card, 3)
        st._move(action.slot, zone_of(ask.seat, DISCARD))
        st._frames[0] = f._replace(stage=f.stage + 1)
        return
    if isinstance(action, Play):
        st._frames[0] = f._replace(stage=f.stage + 1)
        st._play(ask.seat, action, free=True)
        return
    raise AssertionError(action)


# ---------------------------------------------------------------- effects in code


@handler("swap_lanes")
def _swap_lanes(st: GuysState, f: Frame) -> bool:
    """Trade Places: two Guys of one side swap lanes at once (`move` goes only to an empty
    lane, so the vocabulary cannot say it). The targets come from the effect's selector."""
    if len(f.targets) == 2 and all(t >= 0 for t in f.targets):
        a, b = f.targets
        lane_a, lane_b = st.lane_of(a), st.lane_of(b)
        if lane_a >= 0 and lane_b >= 0 and st.controller(a) == st.controller(b):
            _move_guy(st, a, lane_b)
            _move_guy(st, b, lane_a)
    return True
