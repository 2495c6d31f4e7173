"""Terminal rendering of Gammasphere: both fields (characters with mode, tapped, level,
attack and defense, and their weapons; buildings), Pylons, gas and Power Levels, the hand
with costs, prompts, help and the log's sentences.

What a step did beyond the action (gas paid, levels and stats changed, entities destroyed,
Power Level lost) is told by cli/happenings.py from this view's scenes (`scene`), in the
order it happened.
"""

from __future__ import annotations

import re

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cli.happenings import Gauge, InPlay, Scene, zone_scene
from cli.look import Seen
from cli.views import Drew, HandLine, Told, piles_and_hand, sorted_hand
from cli.wording import Seats, count, sentence
from p2pcards.engine import Action
from p2pcards.games.gammasphere.actions import (
    DIRECT,
    Activate,
    Attack,
    Concede,
    Discard,
    End,
    Play,
    Switch,
    Take,
    Target,
)
from p2pcards.games.gammasphere.cards import Card
from p2pcards.games.gammasphere.state import DEFENSE_MODE, GammaState
from p2pcards.history import Event
from p2pcards.zones import Deal

HELP = """\
Gammasphere: bring your opponent's Power Level from 9000 to 0. Each turn: untap, draw (not
the first player's first turn), gain 300 gas (+300 per Refinery). Then play what you can
afford: Pylons cost 100 gas and each pays 1 Jiggawatt a turn (tapped); characters enter in
Attack or Defense Mode; weapons go on your entities. Attack with an untapped character in
Attack Mode: a character, else a building, else the player. Against Defense Mode a stronger
defender costs you the difference; between two in Attack Mode the weaker falls and its
player loses the difference. Activated abilities are menu lines of their own (each once a
turn). `p2pcards rules gammasphere` has the rules, our choices and the card list."""

PHASES = {
    "deal": "the deal",
    "draw": "the draw",
    "main": "the main phase",
    "discard": "the hand limit",
    "over": "the end",
}


def card_of(state: GammaState, card: str) -> Card:
    """A card of the set by id."""
    return state.kind(card)


def name_of(state: GammaState, card: str | None) -> str:
    """A card's printed name, or 'a card' when unknown."""
    return "a card" if card is None else card_of(state, card).name


def slot_name(state: GammaState, slot: int) -> str:
    """The card in a slot by name."""
    return name_of(state, state.card_at(slot))


def _cost(card: Card) -> str:
    parts = [f"{card.gas} gas"] if card.gas else []
    if card.jw:
        parts.append(f"{card.jw} JW")
    return ", ".join(parts) or "free"


def _entity_cell(state: GammaState, slot: int) -> Text:
    """A character or building in play: name, level, attack/defense, mode, tapped, weapon."""
    card = state.card(slot)
    text = Text(card.name, style="bold")
    if card.type == "character":
        text += Text(f" Lv {state.level(slot)} {state.attack(slot)}/{state.defense(slot)}")
        marks = ["Defense Mode" if state.mode(slot) == DEFENSE_MODE else "Attack Mode"]
    else:
        text += Text(f" defense {state.defense(slot)}")
        marks = ["building"]
    if state.tapped(slot):
        marks.append("tapped")
    weapon = state.weapon_of(slot)
    if weapon >= 0:
        marks.append(f"wields {slot_name(state, weapon)}")
    text += Text(f"\n{', '.join(marks)}", style="dim")
    return text


def hand_key(state: GammaState, card_id: str) -> tuple[int, int, str]:
    """Where a card stands in the hand as shown and in the menus: by gas, Jiggawatts, name."""
    card = card_of(state, card_id)
    return (card.gas, card.jw, card.name)


def _card_line(state: GammaState, card_id: str) -> str:
    card = card_of(state, card_id)
    if card.type == "character":
        stats = f" Lv {card.level} {card.attack}/{card.defense}"
    elif card.type == "weapon":
        stats = f" +{card.attack}/+{card.defense}"
    elif card.type == "building":
        stats = f" defense {card.defense}"
    else:
        stats = ""
    text = f" — {card.text}" if card.text else ""
    return f"{card.name} ({_cost(card)}){stats}{text}"


def _printed(card: Card) -> list[str]:
    """A card as printed: type, cost, stats, text."""
    kinds = "/".join(card.types)
    head = card.type + (f" ({kinds})" if kinds else "") + (", unique" if card.unique else "")
    lines = [f"{head}; cost {_cost(card)}"]
    if card.type == "character":
        lines.append(f"level {card.level}, attack {card.attack}, defense {card.defense}")
    elif card.type == "weapon":
        goes = f", goes on: {', '.join(card.attach)}" if card.attach else ""
        lines.append(f"+{card.attack} attack, +{card.defense} defense{goes}")
    elif card.type == "building":
        lines.append(f"defense {card.defense}")
    return [*lines, card.text] if card.text else lines


def _in_play(state: GammaState, slot: int) -> list[str]:
    """An entity in play: as printed, then as it stands (level, attack and defense now,
    mode, tapped, its weapon)."""
    card = state.card(slot)
    if card.type == "character":
        mode = "Defense Mode" if state.mode(slot) == DEFENSE_MODE else "Attack Mode"
        now = f"now level {state.level(slot)}, {state.attack(slot)}/{state.defense(slot)}, {mode}"
    elif card.type == "building":
        now = f"now defense {state.defense(slot)}"
    else:
        now = "in play"
    if state.tapped(slot):
        now += ", tapped"
    weapon = state.weapon_of(slot)
    if weapon >= 0:
        now += f"; wields {slot_name(state, weapon)}"
    return [*_printed(card), now]


def cards_seen(state: GammaState, seats: Seats) -> list[Seen]:
    """What `i` may show: your hand, both fields with the weapons on them, the Pylons, and
    both discard piles (all public but the hand)."""
    you = seats.you
    out: list[Seen] = []
    if you is not None:
        for card, copies in sorted_hand(state, you, lambda c: hand_key(state, c)):
            where = "your hand" + (f" ({copies} copies)" if copies > 1 else "")
            out.append(Seen(name_of(state, card), where, _printed(card_of(state, card))))
    bottom = you if you is not None else 0
    for seat in (bottom, 1 - bottom):
        for slot in state.field(seat):
            out.append(
                Seen(slot_name(state, slot), f"{seats.whose(seat)} field", _in_play(state, slot))
            )
            weapon = state.weapon_of(slot)
            if weapon >= 0:
                where = f"on {seats.whose(seat)} {slot_name(state, slot)}"
                out.append(Seen(slot_name(state, weapon), where, _printed(state.card(weapon))))
        pylons = state.pylons(seat)
        if pylons:
            untapped = sum(1 for p in pylons if not state.tapped(p))
            where = f"{seats.whose(seat)} Pylons ({untapped} untapped of {len(pylons)})"
            out.append(Seen(slot_name(state, pylons[0]), where, _printed(state.card(pylons[0]))))
    for seat in (bottom, 1 - bottom):
        for card in dict.fromkeys(c for c in state.zone_cards(f"discard:{seat}") if c):
            where = f"{seats.whose(seat)} discard pile"
            out.append(Seen(name_of(state, card), where, _printed(card_of(state, card))))
    return out


def board(state: GammaState, seats: Seats) -> RenderableType:
    """The table: both fields, Pylons, gas and Power Levels, and your hand."""
    you = seats.you
    bottom = you if you is not None else 0
    top = 1 - bottom
    title = f"Turn {state.turn()} — {PHASES[state.phase()]}"
    table = Table(title=title, expand=False, show_lines=True)
    table.add_column("")
    table.add_column("in play", min_width=40)
    for seat in (top, bottom):
        cells = [_entity_cell(state, s) for s in state.field(seat)]
        field = Text("\n").join(cells) if cells else Text("·", style="dim")
        table.add_row(Text(seats.on_board(seat), style="bold"), field)

    def lead(seat: int) -> str:
        return (
            f"Power Level {state.power(seat)}, gas {state.gas(seat)}, "
            f"Pylons {state.jiggawatts(seat)} untapped of {len(state.pylons(seat))}"
        )

    below = piles_and_hand(
        state, seats, (top, bottom), lead,
        lambda card: _card_line(state, card), lambda card: hand_key(state, card),
    )  # fmt: skip
    return Group(table, *below)


def prompt(state: GammaState, seats: Seats) -> str:
    """The question the current decision asks, in words."""
    ask = state.ask()
    if ask is not None:
        return {
            "target": "Choose a target:",
            "discard": "Discard a card:",
            "search": "Search your deck: take a card:",
        }[ask.kind]
    if state.phase() == "discard":
        return "Over the hand limit of 10: discard a card:"
    seat = state.current_player()
    jiggawatts = count(state.jiggawatts(seat), "Jiggawatt")
    return f"Your turn: {state.gas(seat)} gas, {jiggawatts} (untapped Pylons):"


def _whose(state: GammaState, slot: int, you: int | None) -> str:
    return "yours" if state.controller(slot) == you else "theirs"


def describe_choice(state: GammaState, action: Action) -> str:
    """A menu line for one of the person's legal actions."""
    you = state.current_player()
    if isinstance(action, Play):
        card = card_of(state, action.card)
        text = f"Play {card.name} ({_cost(card)})"
        if card.type == "character":
            text += " in Defense Mode" if action.defense else " in Attack Mode"
        if action.host is not None:
            text += f" on {slot_name(state, action.host)}"
        return text
    if isinstance(action, Attack):
        who = f"{slot_name(state, action.attacker)} ({state.attack(action.attacker)})"
        return f"Attack {_attacked(state, action)} with {who}"
    if isinstance(action, Switch):
        to = "Attack" if state.mode(action.slot) == DEFENSE_MODE else "Defense"
        return f"Switch {slot_name(state, action.slot)} to {to} Mode"
    if isinstance(action, End):
        return "End the turn"
    if isinstance(action, Discard):
        return f"Discard {name_of(state, action.card)}"
    if isinstance(action, Activate):
        return f"Use {slot_name(state, action.slot)}: {_ability_text(state, action)}"
    if isinstance(action, Target):
        return f"{slot_name(state, action.slot)} ({_whose(state, action.slot, you)})"
    if isinstance(action, Take):
        return "find nothing" if action.card is None else f"take {name_of(state, action.card)}"
    return str(action)


def _attacked(state: GammaState, action: Attack) -> str:
    """'the player', or 'Tinkerer (300, theirs)': an attack's target and what guards it."""
    target = action.target
    if target == DIRECT:
        return "the player"
    guard = (
        state.attack(target)
        if state.card(target).type == "character" and state.mode(target) != DEFENSE_MODE
        else state.defense(target)
    )
    return f"{slot_name(state, target)} ({guard}, {_whose(state, target, state.current_player())})"


def choice_order(state: GammaState, action: Action) -> tuple[int | str, ...]:
    """Cards in the order the hand shows them, then the rest in the engine's order."""
    if isinstance(action, Play):
        return (0, *hand_key(state, action.card))
    return (1,)


def choice_path(state: GammaState, action: Action) -> tuple[str, ...]:
    """A play as the card, then its mode or the entity it goes on; an attack as the
    attacker, then its target. Any other decision is one line."""
    if isinstance(action, Play):
        card = card_of(state, action.card)
        head = _play_head(card)
        if card.type == "character":
            return (head, "in Defense Mode" if action.defense else "in Attack Mode")
        if action.host is not None:
            host = action.host
            return (
                head,
                f"on {slot_name(state, host)} ({_whose(state, host, state.current_player())})",
            )
        return (head,)
    if isinstance(action, Attack):
        who = f"Attack with {slot_name(state, action.attacker)} ({state.attack(action.attacker)})"
        return (who, _attacked(state, action))
    return (describe_choice(state, action),)


def _play_head(card: Card) -> str:
    """A card's first line in the menus: 'Play Pylon (100 gas)'."""
    return f"Play {card.name} ({_cost(card)})"


def _why_not(state: GammaState, card: Card) -> str:
    """Why a card of the hand may not be played now, as far as the view can cheaply say:
    its cost (line 29), a unique card in play (line 9), a weapon or an event with nothing
    to go on; '' otherwise."""
    seat = state.current_player()
    short = [f"{card.gas} gas"] if card.gas > state.gas(seat) else []
    if card.jw > state.jiggawatts(seat):
        short.append(f"{card.jw} JW")
    if short:
        return "needs " + " and ".join(short)
    in_play = [s for p in (0, 1) for f in state.field(p) for s in (f, state.weapon_of(f)) if s >= 0]
    if card.unique and any(state.card(s).id == card.id for s in in_play):
        return "unique, and one is in play"
    return {"weapon": "nothing of yours can wield it", "event": "nothing to target"}.get(
        card.type, ""
    )


def hand_lines(state: GammaState) -> list[HandLine] | None:
    """In the main phase, each card of the hand in its order, playable now or not."""
    if state.ask() is not None or state.phase() != "main":
        return None
    hand = sorted_hand(state, state.current_player(), lambda c: hand_key(state, c))
    return [
        HandLine(_play_head(card_of(state, c)), _why_not(state, card_of(state, c))) for c, _ in hand
    ]


def follows_up(before: GammaState, after: GammaState) -> bool:
    """A card's or an ability's target is chosen with it."""
    ask = after.ask()
    return ask is not None and ask.kind == "target"


def _ability_text(state: GammaState, action: Activate) -> str:
    """The printed text of an activated ability: its sentence of the card's text."""
    card = state.card(action.slot)
    sentences = re.split(r"(?<=\.)\s+", card.text)
    activated = [s.rstrip(".") for s in sentences if s.startswith("Activated")]
    n = sum(1 for a in card.abilities[: action.ability] if a.trigger == "activated")
    return activated[n] if n < len(activated) else "its ability"


def narrate(before: GammaState, event: Event, after: GammaState, seats: Seats) -> list[Told]:
    """A step in sentences, as `seats.you` may know it: the action, then what it did."""
    action, actor = event.action, event.actor
    says = seats.says
    told: list[Told] = []
    if isinstance(action, Deal):
        to = event.to if event.to is not None else before.chance_move().to
        told.append(Drew(to, None if action.card is None else name_of(before, action.card)))
    elif isinstance(action, Play):
        card = card_of(before, action.card)
        mode = " in Defense Mode" if action.defense else ""
        on = f" on {slot_name(before, action.host)}" if action.host is not None else ""
        told.append(f"{says(actor, 'play')} {card.name}{mode}{on}.")
    elif isinstance(action, Attack):
        who = f"{seats.whose(actor)} {slot_name(before, action.attacker)}"
        if action.target == DIRECT:
            told.append(f"{sentence(who)} attacks {seats.label(1 - actor)} directly.")
        else:
            target = f"{seats.whose(1 - actor)} {slot_name(before, action.target)}"
            told.append(f"{sentence(who)} attacks {target}.")
    elif isinstance(action, Switch):
        mode = "Attack" if before.mode(action.slot) == DEFENSE_MODE else "Defense"
        told.append(f"{says(actor, 'switch')} {slot_name(before, action.slot)} to {mode} Mode.")
    elif isinstance(action, End):
        told.append(f"{says(actor, 'end')} {seats.its(actor)} turn.")
    elif isinstance(action, Discard):
        told.append(f"{says(actor, 'discard')} {name_of(before, action.card)}.")
    elif isinstance(action, Concede):
        told.append(f"{says(actor, 'concede')}.")
    elif isinstance(action, Activate):
        told.append(f"{says(actor, 'use')} {slot_name(before, action.slot)}.")
    elif isinstance(action, Target):
        told.append(f"{says(actor, 'target')} {slot_name(before, action.slot)}.")
    elif isinstance(action, Take):
        found = "nothing" if action.card is None else name_of(before, action.card)
        takes = seats.verb(actor, "take")
        told.append(f"{says(actor, 'search')} {seats.its(actor)} deck and {takes} {found}.")
    return told


def closing(before: GammaState, after: GammaState, seats: Seats) -> list[Told]:
    """After what a step did: a new turn, or the result."""
    told: list[Told] = []
    if after.turn() > before.turn() and not after.is_terminal():
        told.append(seats.turn(after.turn_seat(), f"turn {after.turn()}"))
    if after.is_terminal() and not before.is_terminal():
        told.append(result(after, seats))
    return told


def scene(state: GammaState, seats: Seats) -> Scene:
    """The board as `state` knows it, for telling what a step changed (cli/happenings.py)."""
    gauges = tuple(
        (
            Gauge(state.power(seat), "lose {n} Power Level", "gain {n} Power Level", "Power Level"),
            Gauge(state.gas(seat), "pay {n} gas", "gain {n} gas", "gas", refills=True),
        )
        for seat in (0, 1)
    )
    in_play: dict[int, InPlay] = {}
    for seat in (0, 1):
        for slot in state.field(seat):
            card = state.card(slot)
            numbers: tuple[tuple[str, int], ...] = (("defense", state.defense(slot)),)
            marks = {"tapped"} if state.tapped(slot) else set()
            if card.type == "character":
                numbers = (("level", state.level(slot)), ("attack", state.attack(slot)), *numbers)
                marks.add(
                    "in Defense Mode" if state.mode(slot) == DEFENSE_MODE else "in Attack Mode"
                )
            in_play[slot] = InPlay(card.name, seat, "", numbers, frozenset(marks))
            weapon = state.weapon_of(slot)
            if weapon >= 0:
                in_play[weapon] = InPlay(slot_name(state, weapon), seat, f"on {card.name}", ())
    known = state.card_at
    elsewhere = zone_scene(
        state.slot_count(), state.zone_of, lambda s: known(s) and slot_name(state, s), in_play
    )
    return Scene(state.turn(), gauges, in_play, elsewhere)


def result(state: GammaState, seats: Seats) -> str:
    """Who won and why: a Power Level at 0, a deck run out, a concession, or the round cap."""
    winners = state.winners() or ()
    if len(winners) != 1:
        return f"Game over: a draw (Power Level {state.power(0)} to {state.power(1)})."
    winner = winners[0]
    loser = 1 - winner
    cap = state.options.round_cap
    if state.power(loser) <= 0:
        why = f"{seats.label(loser)} at Power Level {state.power(loser)}"
    elif cap is not None and state.turn() >= 2 * cap:
        levels = f"{state.power(winner)} to {state.power(loser)}"
        why = f"the higher Power Level at the round cap ({levels})"
    elif not state.zone_slots(f"deck:{loser}"):
        why = f"{seats.label(loser)} could not draw"
    else:
        why = f"{seats.label(loser)} conceded"
    return f"Game over: {seats.says(winner, 'win')} — {why}."


def is_reaction(state: GammaState) -> bool:
    """No windows: a turn is its player's alone."""
    return False
