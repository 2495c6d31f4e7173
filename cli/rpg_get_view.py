"""Terminal rendering of RPG Get! CCG: each seat's party (characters with HP and ailments,
who is on the mission and in which rank, who is unconscious), inventory, bank (its size; its
cards for its owner alone), score pile, VP and reward counters; the mission attempt in progress as a
board of the active party against the enemies, with the attack waiting in its window; the
hand; prompts, help and the log's sentences.

A card this seat may not know (another's hand or bank) is never named: everything here reads
the viewer's replica through `card_at`, which is None for such a card. What a step did
beyond the action (damage, characters knocked out, enemies defeated, VP and reward counters)
is told by cli/happenings.py from this view's scenes (`scene`); ailments, windows and the
attempt's end by `closing`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import replace

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cli.happenings import Gauge, Scene, zone_scene
from cli.look import Seen
from cli.views import Drew, HandLine, Told, piles_and_hand, sorted_hand
from cli.wording import Seats, count, listed, sentence
from p2pcards.engine import Action
from p2pcards.games.rpg_get import GAME
from p2pcards.games.rpg_get.actions import (
    Act,
    Attempt,
    Bank,
    Defend,
    Discard,
    Enlist,
    Equip,
    MakeRoom,
    Mulligan,
    Oppose,
    Pass,
    Recruit,
    Redraw,
    Reshuffle,
    Start,
    parse_slots,
)
from p2pcards.games.rpg_get.cards import STATUSES, Card, CombatAction
from p2pcards.games.rpg_get.state import (
    ACTIVE,
    BANK,
    HAND_SIZE,
    INVENTORY,
    PARTY,
    SCORE,
    UNCONSCIOUS,
    VICTORY,
    Attack,
    RpgGetState,
)
from p2pcards.history import Event
from p2pcards.zones import Deal, Roll

HELP = f"""\
RPG Get! CCG: be the first to {VICTORY} victory points (VP), scored by completing missions.
Each turn: Redraw (discard and draw, up to 2 cards), Play (Characters into your party; Rewards
into your bank face down for free, or into your inventory for their RP in reward counters),
Status (ailments cured, poison deals 1), Mission (attempt one Mission from your hand: send
characters within its PP; every other seat then plays Enemies and Roadblocks within its EP;
your party attacks, the enemies strike back; defeat them all to score it and gain its RP),
Reconcile (draw or discard to exactly {HAND_SIZE}). Attacks read X(Y): X damage to up to Y
targets; a target's side may Defend in the window the attack opens. A player with no
character left in the party is out. `p2pcards rules rpg-get` has our reading of the rules."""

PHASES = {
    "first": "the roll for the first player",
    "deal": "the opening deal",
    "opening": "the opening hands",
    "redraw": "the Redraw phase",
    "play": "the Play phase",
    "mission": "the Mission phase",
    "party": "the Party step",
    "enemies": "the Enemy step",
    "party-attack": "the Party Attack step",
    "enemy-attack": "the Enemy Attack step",
    "reconcile": "the Reconcile phase",
    "decking": "an empty deck",
    "over": "the end",
}

AILMENTS = {
    "poison": "poisoned",
    "paralysis": "paralysed",
    "block": "blocked",
    "sleep": "asleep",
    "confusion": "confused",
    "stun": "stunned",
}
"""Each status ailment as a word after 'is' (line 168-175)."""

TYPE_ORDER = ("character", "reward", "mission", "enemy", "roadblock")
"""The hand's order: what is played in the Play phase first, then the rest."""

_CARDS = GAME.db.by_id


def card_of(card_id: str) -> Card:
    """A card of the set by id."""
    return _CARDS[card_id]


def name_of(card_id: str | None) -> str:
    """A card's printed name, or 'a card' when unknown."""
    return "a card" if card_id is None else card_of(card_id).name


def slot_name(state: RpgGetState, slot: int) -> str:
    """The card in a slot by name, as this state knows it."""
    return name_of(state.card_at(slot))


def hand_key(card_id: str) -> tuple[int, str]:
    """Where a card stands in the hand as shown and in the menus: by type, then name."""
    card = card_of(card_id)
    rank = TYPE_ORDER.index(card.type) if card.type in TYPE_ORDER else len(TYPE_ORDER)
    return (rank, card.name)


def action_text(action: CombatAction) -> str:
    """A combat action as printed: 'Attack 3(2) magic, combo 1, poison'."""
    return sentence(str(action))


def _stats(card: Card) -> str:
    """A card's numbers in a few words, by type."""
    if card.type == "character":
        return f"HP {card.hp}, cost {card.cost} PP, {'/'.join(sorted(card.classes))}"
    if card.type == "mission":
        return f"{card.vp} VP, PP {card.pp}, EP {card.ep}, {card.rp} RP"
    if card.type == "enemy":
        return f"HP {card.hp}, size {card.size}" + (", Boss" if card.boss else "")
    if card.type == "roadblock":
        return f"size {card.size}"
    if card.type == "reward":
        who = f", for {'/'.join(sorted(card.classes))}" if card.classes else ""
        return f"{card.rp} RP{who}, after use to the {card.after_use}"
    return ""


def _card_line(card_id: str) -> str:
    """A card of the hand in a line: name, type, numbers, actions."""
    card = card_of(card_id)
    actions = "; ".join(action_text(a) for a in card.actions)
    return f"{card.name} ({card.type}; {_stats(card)})" + (f" — {actions}" if actions else "")


def _printed(card: Card) -> list[str]:
    """A card as printed: type and numbers, each combat action, its text."""
    lines = [f"{card.type}; {_stats(card)}"]
    if card.keywords:
        lines.append("keywords: " + ", ".join(sorted(card.keywords)))
    lines += [action_text(a) for a in card.actions]
    return [*lines, card.text] if card.text else lines


def ailments(state: RpgGetState, slot: int) -> list[str]:
    """A character's or enemy's status ailments, as words ('poisoned', 'asleep')."""
    return [AILMENTS.get(s, s) for s in STATUSES if state.has_status(slot, s)]


def rank_words(state: RpgGetState, slot: int) -> str:
    """A card's rank in the attempt, as the board shows it: 'Front rank' (line 135-140)."""
    return f"{state.rank(slot).capitalize()} rank"


def _fighting(state: RpgGetState, slot: int) -> bool:
    """Whether a card is in the attempt (an active member or an enemy): ranks are the
    attempt's (line 136)."""
    return state.attempter >= 0 and state.zone_of(slot).startswith(("active", "enemies"))


def _fighter(state: RpgGetState, slot: int, ranked: bool = True) -> str:
    """A character or enemy as it stands: 'Ryudo 4/6 HP, poisoned'; in the attempt with its
    rank (unless not `ranked`: the party column, beside the attempt's board, leaves it out):
    'Ryudo 4/6 HP, Front rank, poisoned'."""
    card = state.card(slot)
    marks = ailments(state, slot)
    if ranked and _fighting(state, slot):
        marks = [rank_words(state, slot), *marks]
    return f"{card.name} {state.hp_left(slot)}/{card.hp} HP" + (
        f", {', '.join(marks)}" if marks else ""
    )


def _in_play(state: RpgGetState, slot: int) -> list[str]:
    """A character or enemy in play: as printed, then as it stands."""
    marks = ailments(state, slot)
    if _fighting(state, slot):
        marks = [rank_words(state, slot), *marks]
    now = f"now {state.hp_left(slot)} of {state.card(slot).hp} HP" + (
        f", {', '.join(marks)}" if marks else ""
    )
    return [*_printed(state.card(slot)), now]


def _seat_order(state: RpgGetState, you: int | None) -> list[int]:
    """The seats as the board lists them: from the viewer's left round to the viewer last."""
    bottom = 0 if you is None else you
    n = state.num_players
    return [(bottom + i) % n for i in range(1, n + 1)]


def _known(state: RpgGetState, slots: list[int]) -> list[str]:
    """The names of the cards this state knows among `slots` (a bank: its owner's, or the
    face-up ones)."""
    return [name_of(c) for s in slots if (c := state.card_at(s)) is not None]


def _bank(state: RpgGetState, seat: int) -> str:
    """A bank as its viewer may see it: its size, and the cards it knows."""
    slots = state.pile(seat, BANK)
    known = Counter(_known(state, slots))
    hidden = len(slots) - known.total()
    parts = [f"{n} × {name}" if n > 1 else name for name, n in sorted(known.items())]
    parts += [f"{count(hidden, 'card')} face down"] if hidden else []
    return f"bank {len(slots)}" + (f" ({', '.join(parts)})" if known else "")


def _party_cell(state: RpgGetState, seat: int) -> Text:
    """A seat's characters: the party (those on the mission marked), then the unconscious."""
    lines = [Text(_fighter(state, s), style="bold") for s in state.pile(seat, PARTY)]
    lines += [Text(f"{_fighter(state, s, ranked=False)} — on the mission", style="bold") for s in
              state.pile(seat, ACTIVE)]  # fmt: skip
    lines += [Text(f"{slot_name(state, s)} — unconscious", style="dim") for s in
              state.pile(seat, UNCONSCIOUS)]  # fmt: skip
    return Text("\n").join(lines) if lines else Text("·", style="dim")


def _score_cell(state: RpgGetState, seat: int) -> Text:
    missions = _known(state, state.pile(seat, SCORE))
    text = Text(f"{state.victory_points(seat)} VP, {state.counters(seat)} reward counters")
    if missions:
        text += Text("\n" + ", ".join(missions), style="dim")
    return text


def _seat_label(state: RpgGetState, seat: int, seats: Seats) -> Text:
    label = Text(seats.on_board(seat), style="bold")
    if seat not in state.in_game():
        label += Text("\nout of the game", style="dim")
    elif seat == state.turn_seat:
        label += Text("\nits turn" if seat != seats.you else "\nyour turn", style="dim")
    return label


def _attempt(state: RpgGetState, seats: Seats) -> list[RenderableType]:
    """The mission attempt in progress: the mission, the points used, the active party against
    the enemies, and the attack waiting in its window."""
    seat = state.attempter
    missions = state.zone_slots("mission")
    if seat < 0 or not missions:
        return []
    mission = state.card(missions[0])
    pp, ep = state.points_used()
    title = (
        f"{sentence(seats.whose(seat))} mission: {mission.name} ({mission.vp} VP, {mission.rp} RP)"
    )
    table = Table(title=title, expand=False, show_lines=True)
    table.add_column(f"active party (PP {pp} of {mission.pp})", min_width=30)
    table.add_column(f"enemies (EP {ep} of {mission.ep})", min_width=30)
    active = [Text(_fighter(state, s)) for s in state.pile(seat, ACTIVE)]
    enemies = [Text(_target_label(state, s, seats, _fighter(state, s))) for s in
               state.zone_slots("enemies")]  # fmt: skip
    table.add_row(
        Text("\n").join(active) if active else Text("nobody", style="dim"),
        Text("\n").join(enemies) if enemies else Text("none", style="dim"),
    )
    parts: list[RenderableType] = [table]
    attack = state.attack
    if attack is not None:
        parts.append(Text(_attack_line(state, attack, seats)))
    return parts


def _user_phrase(state: RpgGetState, source: int, user: int, seats: Seats) -> str:
    """'seat 1's Ryudo' or 'seat 1's Ryudo with Broadsword': who uses an action."""
    who = f"{seats.whose(state.home(user))} {slot_name(state, user)}"
    return who if source == user else f"{who} with {slot_name(state, source)}"


def _attack_line(state: RpgGetState, attack: Attack, seats: Seats) -> str:
    """The attack waiting in its window, and who may Defend."""
    combat = state.card(attack.source).actions[attack.which]
    aimed = listed([_target(state, t, seats) for t in attack.targets]) or "no target"
    extra = f", inflicting {combat.inflicts}" if combat.inflicts else ""
    who = _user_phrase(state, attack.source, attack.user, seats)
    return f"Attack: {who} deals {attack.amount} to {aimed}{extra} — the targets' side may Defend."


def _target(state: RpgGetState, slot: int, seats: Seats) -> str:
    return f"{seats.whose(state.home(slot))} {slot_name(state, slot)}"


def board(state: RpgGetState, seats: Seats) -> RenderableType:
    """The table: each seat's party, inventory, bank and score; the attempt; your hand."""
    you = seats.you
    title = f"Round {state.round + 1} — {PHASES[state.phase]}"
    table = Table(title=title, expand=False, show_lines=True)
    table.add_column("")
    table.add_column("party", min_width=26)
    table.add_column("inventory", min_width=14)
    table.add_column("score", min_width=14)
    order = _seat_order(state, you)
    for seat in order:
        inventory = _known(state, state.pile(seat, INVENTORY))
        table.add_row(
            _seat_label(state, seat, seats),
            _party_cell(state, seat),
            Text(", ".join(inventory) if inventory else "·"),
            _score_cell(state, seat),
        )

    below = piles_and_hand(state, seats, order, lambda s: _bank(state, s), _card_line, hand_key)
    return Group(table, *_attempt(state, seats), *below)


def prompt(state: RpgGetState, seats: Seats) -> str:
    """The question the current decision asks, in words."""
    seat = state.current_player()
    if state.room_for >= 0:
        back = slot_name(state, state.room_for)
        return f"{back} comes back to your full bank: discard one of the others to make room:"
    attack = state.attack
    if state.windows and attack is not None:
        who = _user_phrase(state, attack.source, attack.user, seats)
        return f"{sentence(who)} attacks for {attack.amount}: Defend, or pass:"
    phase = state.phase
    if phase == "opening":
        return "Keep this hand by starting with a Character, or redraw it:"
    if phase == "redraw":
        return "Redraw phase: discard a card and draw one, or pass:"
    if phase == "play":
        return f"Play phase ({state.counters(seat)} reward counters): play a card, or pass:"
    if phase == "mission":
        return "Mission phase: attempt a mission, or pass (no mission this turn):"
    if phase in ("party", "enemies"):
        missions = state.zone_slots("mission")
        mission = state.card(missions[0])
        pp, ep = state.points_used()
        if phase == "party":
            return f"Party step: send a character on the mission ({mission.pp - pp} PP left):"
        whose = seats.whose(state.attempter)
        return (
            f"Enemy step: oppose {whose} {mission.name} with an Enemy or Roadblock "
            f"({mission.ep - ep} EP left), or pass:"
        )
    if phase == "party-attack":
        return "Party Attack step: act with your active party, or pass:"
    if phase == "enemy-attack":
        return "Enemy Attack step: act with your enemies, or pass:"
    if phase == "reconcile":
        return f"Reconcile: discard down to {HAND_SIZE} cards:"
    if phase == "decking":
        return "Your deck is empty: pay 2 VP of missions to reshuffle, or pass and lose:"
    return "Choose:"


def _pass_text(state: RpgGetState) -> str:
    """What passing means now."""
    if state.windows:
        return f"Pass ({_window_pass(state)})"
    return {
        "redraw": "Pass (keep the hand as it is)",
        "play": "Pass (end the Play phase)",
        "mission": "Pass (no mission this turn)",
        "party": "Pass (send no one else)",
        "enemies": "Pass (oppose with nothing more)",
        "party-attack": "Pass (end the Party Attack step)",
        "enemy-attack": "Pass (end your enemies' attacks)",
        "decking": "Pass (and lose the game)",
    }.get(state.phase, "Pass")


def _window_pass(state: RpgGetState) -> str:
    """What a pass in the open window declines: a Defense of an attack, or the Events and
    Recoveries of the window opening the Party Attack step (rules.md, choice 35)."""
    return "no Defense" if state.attack is not None else "no Event or Recovery"


def _targets(state: RpgGetState, targets: str, seats: Seats) -> str:
    slots = parse_slots(targets)
    return listed([_target_label(state, t, seats) for t in slots]) or "no target"


def _target_label(state: RpgGetState, slot: int, seats: Seats, shown: str = "") -> str:
    """A target in a menu: 'Rag Rappy (2 HP, seat 2's)'; with `shown`, that and whose:
    'Booma 4/4 HP (yours)'."""
    home = state.home(slot)
    whose = "yours" if home == seats.you else seats.whose(home)
    if shown:
        return f"{shown} ({whose})"
    return f"{slot_name(state, slot)} ({state.hp_left(slot)} HP, {whose})"


def _act_head(state: RpgGetState, action: Act) -> str:
    """An Act's first level: who uses which action."""
    combat = state.card(action.source).actions[action.index]
    user = slot_name(state, action.user)
    using = (
        user if action.source == action.user else f"{user} with {slot_name(state, action.source)}"
    )
    return f"{using}: {action_text(combat)}"


def describe_choice(state: RpgGetState, action: Action) -> str:
    """A menu line for one of the person's legal actions."""
    return " ".join(choice_path(state, action))


def choice_order(state: RpgGetState, action: Action) -> tuple[int | str, ...]:
    """Cards in the order the hand shows them, then the rest in the engine's order."""
    card = getattr(action, "card", None)
    slot = getattr(action, "slot", None)
    if (
        isinstance(card, str)
        and isinstance(slot, int)
        and slot in state.hand_slots(state.current_player())
    ):
        return (0, *hand_key(card))
    return (1,)


def alike(state: RpgGetState, action: Action) -> Hashable:
    """An action with a card of a hidden pile (hand, bank) is alike for every copy of that
    card there: the rules list one per slot, the menus one per card (cli/menus.py)."""
    slot, card = getattr(action, "slot", None), getattr(action, "card", None)
    if not isinstance(slot, int) or not isinstance(card, str):
        return action
    copy = replace(action, slot=-1)  # type: ignore[call-arg]
    if isinstance(copy, Bank) and copy.drop >= 0:
        copy = replace(copy, drop=-1)
    return (state.zone_of(slot), copy)


def _head(card_id: str) -> str:
    """A card of the hand's first line in the menus: 'Ryudo (character; HP 6, cost 2 PP)'."""
    card = card_of(card_id)
    return f"{card.name} ({card.type}; {_stats(card)})"


def choice_path(state: RpgGetState, action: Action) -> tuple[str, ...]:
    """An action's labels level by level: a card of the hand, then what to do with it; an
    action of a character or enemy, then its targets."""
    seats = Seats(you=state.current_player())
    if isinstance(action, Start):
        return (_head(action.card), "keep this hand and start with it")
    if isinstance(action, Mulligan):
        return (f"Redraw the whole hand ({HAND_SIZE} new cards)",)
    if isinstance(action, Redraw):
        return (_head(action.card), "discard it and draw a card")
    if isinstance(action, Recruit):
        return (_head(action.card), "play it into your party" + _replacing(state, action.card))
    if isinstance(action, Bank):
        dropped = "" if action.drop < 0 else f", discarding {name_of(action.drop_card)} from it"
        return (_head(action.card or ""), f"put it in your bank face down (free){dropped}")
    if isinstance(action, Equip):
        card = card_of(action.card)
        if action.slot in state.pile(state.current_player(), BANK):
            return (f"Equip {card.name} from your bank ({card.rp} RP)",)
        return (_head(action.card), f"equip it: into your inventory for {card.rp} RP")
    if isinstance(action, Attempt):
        return (_head(action.card), "attempt this mission")
    if isinstance(action, Enlist):
        card = state.card(action.slot)
        return (f"Send {_fighter(state, action.slot)} on the mission (cost {card.cost} PP)",)
    if isinstance(action, Oppose):
        card = card_of(action.card)
        if card.type == "roadblock":
            return (
                _head(action.card),
                f"play it, hitting {_targets(state, action.targets, seats)}",
            )
        return (_head(action.card), "play it against the mission")
    if isinstance(action, Act):
        head = _act_head(state, action)
        if not action.targets:
            return (head,)
        return (head, f"on {_targets(state, action.targets, seats)}")
    if isinstance(action, Defend):
        combat = state.card(action.source).actions[action.index]
        using = "" if action.source == action.target else f" with {slot_name(state, action.source)}"
        return (f"Defend {slot_name(state, action.target)}{using}: {action_text(combat)}",)
    if isinstance(action, Discard):
        return (_head(action.card), "discard it")
    if isinstance(action, Reshuffle):
        paid = listed([slot_name(state, s) for s in parse_slots(action.missions)])
        return (f"Pay {paid} out of your score pile to shuffle your discard pile into a deck",)
    if isinstance(action, MakeRoom):
        return (f"Discard {name_of(action.card)} from your bank to make room",)
    if isinstance(action, Pass):
        return (_pass_text(state),)
    return _other_path(state, action)


def _other_path(state: RpgGetState, action: Action) -> tuple[str, ...]:
    """The decisions the rules add as they grow (read by kind, so that the view stands while
    the set does): an Event played, a bank card turned face up, an Ability used; else the
    action's own words."""
    slot, card = getattr(action, "slot", None), getattr(action, "card", None)
    if action.kind == "event" and isinstance(card, str):
        return (_head(card), "play it")
    if action.kind == "flip" and isinstance(card, str):
        return (f"Turn {name_of(card)} face up in your bank (the table sees it)",)
    if action.kind == "activate" and isinstance(slot, int):
        user = getattr(action, "user", slot)
        using = slot_name(state, slot)
        if isinstance(user, int) and user != slot:
            using = f"{slot_name(state, user)} with {using}"
        text = state.card(slot).text
        return (f"{using}: use its Ability" + (f" ({text})" if text else ""),)
    return (sentence(str(action)),)


def _replacing(state: RpgGetState, card_id: str) -> str:
    """', replacing your Ryudo (6/6 HP)' where a character of the same name is in play: the
    new one takes its place and the old one is discarded (line 39-40, 73)."""
    seat = state.current_player()
    person = card_of(card_id).person
    for slot in [*state.party(seat), *state.pile(seat, UNCONSCIOUS)]:
        if state.card(slot).person == person:
            return f", replacing your {_fighter(state, slot)}"
    return ""


def _why_not(state: RpgGetState, card: Card) -> str:
    """Why a card of the hand may not be played in the Play phase."""
    if card.type == "mission":
        return "a mission is attempted in the Mission phase"
    if card.type in ("enemy", "roadblock"):
        return "played against another player's mission"
    kind: str = card.type  # the set grows: Events come with the rules that play them
    return "an Event is played when its text says" if kind == "event" else ""


def hand_lines(state: RpgGetState) -> list[HandLine] | None:
    """In the Play phase, each card of the hand in its order, playable now or not."""
    if state.phase != "play" or state.windows:
        return None
    hand = sorted_hand(state, state.current_player(), hand_key)
    return [HandLine(_head(c), _why_not(state, card_of(c))) for c, _ in hand]


def follows_up(before: RpgGetState, after: RpgGetState) -> bool:
    """Targets are chosen with their action: nothing is asked after."""
    return False


def narrate(before: RpgGetState, event: Event, after: RpgGetState, seats: Seats) -> list[Told]:
    """A step in sentences, as `seats.you` may know it: the action; what it did follows."""
    action, actor = event.action, event.actor
    says = seats.says
    told: list[Told] = []
    if isinstance(action, Deal):
        to = event.to if event.to is not None else before.chance_move().to
        told.append(Drew(to, None if action.card is None else name_of(action.card)))
    elif isinstance(action, Roll):
        told += _rolled(before, action.value, after, seats)
    elif isinstance(action, Start):
        told.append(f"{says(actor, 'keep')} {seats.its(actor)} hand and "
                    f"{seats.verb(actor, 'start')} with {name_of(action.card)}.")  # fmt: skip
    elif isinstance(action, Mulligan):
        told.append(f"{says(actor, 'shuffle')} {seats.its(actor)} hand back and "
                    f"{seats.verb(actor, 'draw')} {HAND_SIZE} new cards.")  # fmt: skip
    elif isinstance(action, Redraw):
        told.append(f"{says(actor, 'discard')} {name_of(action.card)} to draw again.")
    elif isinstance(action, Recruit):
        told.append(f"{says(actor, 'play')} {name_of(action.card)} into {seats.its(actor)} party.")
    elif isinstance(action, Bank):
        dropped = ""
        if action.drop >= 0:
            dropped = f", discarding {name_of(action.drop_card)} from it"
        banked = name_of(action.card) if action.card is not None else "a card face down"
        told.append(f"{says(actor, 'bank')} {banked}{dropped}.")
    elif isinstance(action, Equip):
        told.append(f"{says(actor, 'equip')} {name_of(action.card)}.")
    elif isinstance(action, Attempt):
        card = card_of(action.card)
        told.append(
            f"{says(actor, 'attempt')} {card.name} ({card.vp} VP; PP {card.pp}, EP {card.ep})."
        )
    elif isinstance(action, Enlist):
        told.append(f"{says(actor, 'send')} {slot_name(before, action.slot)} on the mission.")
    elif isinstance(action, Oppose):
        card = card_of(action.card)
        if card.type == "roadblock":
            aim = _targets(before, action.targets, seats)
            told.append(f"{says(actor, 'throw')} {card.name} in the way, hitting {aim}.")
        else:
            told.append(f"{says(actor, 'play')} {card.name} against the mission.")
    elif isinstance(action, Act):
        told.append(_acted(before, action, seats))
    elif isinstance(action, Defend):
        combat = before.card(action.source).actions[action.index]
        using = (
            "" if action.source == action.target else f" with {slot_name(before, action.source)}"
        )
        target = _target(before, action.target, seats)
        told.append(f"{sentence(target)} defends{using} ({action_text(combat)}).")
    elif isinstance(action, Discard):
        told.append(f"{says(actor, 'discard')} {name_of(action.card)}.")
    elif isinstance(action, Reshuffle):
        paid = listed([slot_name(before, s) for s in parse_slots(action.missions)])
        told.append(f"{says(actor, 'pay')} {paid} to shuffle {seats.its(actor)} discard pile "
                    "into a new deck.")  # fmt: skip
    elif isinstance(action, Pass):
        told.append(_passed(before, actor, seats))
    elif isinstance(action, MakeRoom):
        back = slot_name(before, before.room_for)
        told.append(f"{says(actor, 'discard')} {name_of(action.card)} from {seats.its(actor)} "
                    f"full bank to make room for {back}.")  # fmt: skip
    else:
        told += _other_told(before, action, actor, seats)
    return [t if isinstance(t, Drew) else sentence(t) for t in told]


def _other_told(state: RpgGetState, action: Action, actor: int, seats: Seats) -> list[Told]:
    """The decisions the rules add as they grow, told by kind (see `_other_path`)."""
    slot, card = getattr(action, "slot", None), getattr(action, "card", None)
    says = seats.says
    if action.kind == "event" and isinstance(card, str):
        return [f"{says(actor, 'play')} the Event {name_of(card)}."]
    if action.kind == "flip" and isinstance(card, str):
        return [f"{says(actor, 'turn')} {name_of(card)} face up in {seats.its(actor)} bank."]
    if action.kind == "activate" and isinstance(slot, int):
        return [f"{sentence(seats.whose(actor))} {slot_name(state, slot)} uses its Ability."]
    if actor >= 0:
        return [f"{says(actor, 'choose')}: {action}."]
    return []


def _rolled(before: RpgGetState, value: int, after: RpgGetState, seats: Seats) -> list[Told]:
    """A roll: the first player (line 11), or a confused card's target (line 174)."""
    if before.phase == "first":
        return [f"{sentence(seats.says(after.turn_seat, 'go'))} first (the table's roll)."]
    return [f"The roll picks a target for the confused card (roll {value + 1})."]


def _acted(state: RpgGetState, action: Act, seats: Seats) -> str:
    combat = state.card(action.source).actions[action.index]
    who = sentence(_user_phrase(state, action.source, action.user, seats))
    aim = _targets(state, action.targets, seats) if action.targets else ""
    if state.has_status(action.user, "confusion") and combat.kind != "support":
        aim = "targets the table rolls (confused)"
    if combat.kind == "attack":
        return f"{who} attacks {aim or 'nobody'} ({action_text(combat)})."
    if combat.kind == "recovery":
        return f"{who} heals {aim or 'nobody'} ({action_text(combat)})."
    if combat.kind == "support":
        return f"{who} supports the next attack ({action_text(combat)})."
    return f"{who} uses {action_text(combat)}."


def _passed(state: RpgGetState, seat: int, seats: Seats) -> str:
    if state.windows:
        return f"{seats.says(seat, 'pass')} ({_window_pass(state)})."
    return f"{seats.says(seat, 'pass')}: {PHASES[state.phase]} ends for {seats.label(seat)}."


def opening(before: RpgGetState, after: RpgGetState, seats: Seats) -> list[Told]:
    """Before what a step moved and scored: what befell the fighters (an enemy is defeated
    before the mission it guarded is scored and its RP gained)."""
    return [*_fighter_changes(before, after, seats)]


def closing(before: RpgGetState, after: RpgGetState, seats: Seats) -> list[Told]:
    """After what a step did: a Defense that took all the damage, a window opened, the
    attempt's end, a seat out, a new turn, or the result."""
    told: list[Told] = []
    resolved = before.attack
    if resolved is not None and after.attack is None and resolved.amount > 0:
        for target in resolved.targets:  # a Defense took it all (line 116: never below 0)
            if target in _fighters(after) and after.hp_left(target) == before.hp_left(target):
                told.append(f"{sentence(_target(after, target, seats))} takes no damage.")
    if after.attack is not None and after.attack != before.attack:
        told.append(_attack_line(after, after.attack, seats))
    if before.attempter >= 0 and after.attempter < 0:
        told.append(_attempt_end(before, after, seats))
    for seat in before.in_game():
        if seat not in after.in_game():
            told.append(f"{sentence(seats.says(seat, 'be'))} out of the game.")
    if after.turn_seat != before.turn_seat and not after.is_terminal() and before.phase != "first":
        told.append(seats.turn(after.turn_seat, f"round {after.round + 1}"))
    if after.is_terminal() and not before.is_terminal():
        told.append(result(after, seats))
    return told


def _fighter_changes(before: RpgGetState, after: RpgGetState, seats: Seats) -> list[str]:
    """What befell each character and enemy in play: damage and healing (line 116), knocked
    out (line 118) or defeated (line 119), replaced by a namesake (line 39), ailments gained
    and cured (line 168-175)."""
    out = []
    still = set(_fighters(after))
    for slot in _fighters(before):
        who = sentence(_target(before, slot, seats))
        if slot in still:
            was, now = before.hp_left(slot), after.hp_left(slot)
            if now < was:
                out.append(f"{who} takes {was - now} damage ({now} HP left).")
            elif now > was:
                out.append(f"{who} heals {now - was} ({now} HP left).")
            if after.attempter >= 0 and after.rank(slot) != before.rank(slot):  # line 136
                out.append(f"{who} moves to the {after.rank(slot).capitalize()} rank.")
            gained = set(ailments(after, slot)) - set(ailments(before, slot))
            cured = set(ailments(before, slot)) - set(ailments(after, slot))
            out += [f"{who} is now {a}." for a in sorted(gained)]
            out += [f"{who} is no longer {a}." for a in sorted(cured)]
        elif after.zone_of(slot).startswith("unconscious"):
            out.append(f"{who} is knocked out.")
        elif before.card(slot).type == "enemy":
            out.append(f"{who} {_enemy_gone(before, after, slot)}.")
        else:
            out.append(f"{who} already in play is replaced and discarded.")
    return out


def _enemy_gone(before: RpgGetState, after: RpgGetState, slot: int) -> str:
    """How an enemy left play: defeated while the attempt goes on or as it succeeds, else
    discarded with the attempt (line 65-68: sleepers left alone, or a failed attempt)."""
    seat = before.attempter
    scored = any(m in after.pile(seat, SCORE) for m in before.zone_slots("mission"))
    if after.attempter == seat or (scored and not before.has_status(slot, "sleep")):
        return "is defeated"
    return "is discarded as the attempt ends"


def _fighters(state: RpgGetState) -> list[int]:
    """Every character in a party and every enemy in play."""
    return [*(s for seat in range(state.num_players) for s in state.party(seat)),
            *state.zone_slots("enemies")]  # fmt: skip


def _attempt_end(before: RpgGetState, after: RpgGetState, seats: Seats) -> str:
    """The attempt's resolution (line 63-66): scored or failed."""
    seat = before.attempter
    mission = before.zone_slots("mission")[0]
    name = slot_name(before, mission)
    if mission in after.pile(seat, SCORE):
        return (
            f"{sentence(seats.says(seat, 'complete'))} {name} and {seats.verb(seat, 'score')} it."
        )
    return f"{sentence(seats.whose(seat))} attempt at {name} fails: the mission is discarded."


def scene(state: RpgGetState, seats: Seats) -> Scene:
    """The seats' VP and reward counters and where the cards lie, for cli/happenings.py to
    tell; the characters and enemies are told by `closing` (knocked out, defeated, replaced
    are this game's words, not a card game's 'destroyed')."""
    gauges = tuple(
        (
            Gauge(state.victory_points(seat), None, "score {n} VP", "VP"),
            Gauge(state.counters(seat), "spend {n} RP", "gain {n} RP", "RP"),
        )
        for seat in range(state.num_players)
    )
    known = state.card_at
    elsewhere = zone_scene(
        state.slot_count(), state.zone_of, lambda s: known(s) and slot_name(state, s), {}
    )
    return Scene(state.round, gauges, {}, elsewhere)


def cards_seen(state: RpgGetState, seats: Seats) -> list[Seen]:
    """What `i` may show: your hand and bank, every party, inventory and score pile, the
    mission and its enemies, and the discard piles (all public but your hand and bank)."""
    you = seats.you
    out: list[Seen] = []
    if you is not None:
        for card, copies in sorted_hand(state, you, hand_key):
            where = "your hand" + (f" ({copies} copies)" if copies > 1 else "")
            out.append(Seen(name_of(card), where, _printed(card_of(card))))
    for seat in _seat_order(state, you):
        whose = seats.whose(seat)
        for slot in [*state.party(seat), *state.pile(seat, UNCONSCIOUS)]:
            out.append(Seen(slot_name(state, slot), f"{whose} party", _in_play(state, slot)))
        for pile, where in ((INVENTORY, "inventory"), (BANK, "bank"), (SCORE, "score pile")):
            for card in dict.fromkeys(c for s in state.pile(seat, pile) if (c := state.card_at(s))):
                out.append(Seen(name_of(card), f"{whose} {where}", _printed(card_of(card))))
    for slot in state.zone_slots("mission"):
        out.append(
            Seen(slot_name(state, slot), "the mission attempted", _printed(state.card(slot)))
        )
    for slot in state.zone_slots("enemies"):
        home = state.home(slot)
        where = f"against the mission ({'yours' if home == you else seats.whose(home)})"
        out.append(Seen(slot_name(state, slot), where, _in_play(state, slot)))
    for seat in _seat_order(state, you):
        for card in dict.fromkeys(c for c in state.zone_cards(f"discard:{seat}") if c):
            where = f"{seats.whose(seat)} discard pile"
            out.append(Seen(name_of(card), where, _printed(card_of(card))))
    return out


def result(state: RpgGetState, seats: Seats) -> str:
    """Who won and why: 10 VP, the last seat in, or the most VP at the round cap."""
    winners = [s for s, share in enumerate(state.returns()) if share > 0]
    points = ", ".join(
        f"{seats.label(s)} {state.victory_points(s)}" for s in range(state.num_players)
    )
    if len(winners) != 1:
        shared = listed([seats.label(s) for s in winners])
        return f"Game over: {shared} share the win at the round cap (VP: {points})."
    winner = winners[0]
    if state.victory_points(winner) >= VICTORY:
        why = f"{VICTORY} VP reached"
    elif len(state.in_game()) == 1:
        why = "the last player with a party"
    else:
        why = "the most VP at the round cap"
    return f"Game over: {seats.says(winner, 'win')} — {why} (VP: {points})."


def is_reaction(state: RpgGetState) -> bool:
    """A window: a seat answers another's attack."""
    return bool(state.windows)
