"""Terminal rendering of Rise of the Guys: the four lanes, lives, energy, Vests and Pins,
the hand with costs, prompts, help and the log's sentences.

A face-down card shows as such to whoever may not know it; the log names a card only where
the viewer knows it. What a step did beyond the action itself (damage, Guys destroyed, tokens
made, each lane's combat) is told by cli/happenings.py from this view's scenes (`scene`,
`strikes`), in the order it happened.
"""

from __future__ import annotations

from collections import Counter

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cli.happenings import Gauge, InPlay, Scene, zone_scene
from cli.look import Seen
from cli.views import Drew, HandLine, Picks, Told, piles_and_hand, sorted_hand
from cli.wording import Seats, count, listed, sentence
from p2pcards.engine import Action
from p2pcards.games.rise_of_the_guys.actions import (
    Concede,
    Decline,
    Discard,
    Lane,
    Mulligan,
    Order,
    Pass,
    Play,
    Prepare,
    Reveal,
    Target,
    TargetPlayer,
    orders,
)
from p2pcards.games.rise_of_the_guys.cards import Card
from p2pcards.games.rise_of_the_guys.rules import LANES, OVERARCH, STINKY, UNHURTABLE
from p2pcards.games.rise_of_the_guys.state import GuysState
from p2pcards.history import Event
from p2pcards.zones import Deal

HELP = """\
Rise of the Guys: bring your opponent from 20 life to 0. Each turn both players draw (not
on turn 1) and get energy equal to the turn number. The Leading Player plays first, then the
Reacting Player, then the Leader again (no Guys then); each phase ends when its player
passes. Guys go in one of your four lanes; face-down Sneaky Guys flip before combat. In
combat each lane strikes at once: a Guy hits the Guy opposite, or the player if unopposed.
Pranks act once; Pins stay on a Guy or in your Vest. `p2pcards rules rise-of-the-guys`
has the whole rulebook, our choices and the card list."""

PHASES = {
    "setup": "the deal",
    "mulligan": "the mulligan",
    "start": "the start of the turn",
    "lead": "the Leading Phase",
    "react": "the Reacting Phase",
    "counter": "the Counter-reacting Phase",
    "reveal": "the reveals",
    "combat": "combat",
    "end": "the end of the turn",
    "over": "the end",
}


def name_of(state: GuysState, card: str | None) -> str:
    """A card's printed name, or 'a face-down card' when unknown."""
    if card is None:
        return "a face-down card"
    return state.rules.cards[state.rules.card_index[card]].name


def slot_name(state: GuysState, slot: int) -> str:
    """The card in a slot by name, or 'a face-down card'."""
    return name_of(state, state.card_at(slot))


def _statuses(state: GuysState, slot: int) -> list[str]:
    """A Guy's keywords and statuses as it stands: Overarch, Stinky, can't be hurt, prepared."""
    marks = [
        word
        for bit, word in ((OVERARCH, "Overarch"), (STINKY, "Stinky"), (UNHURTABLE, "can't be hurt"))
        if state.has(slot, bit)
    ]
    return [*marks, "prepared"] if state.prepared(slot) else marks


def _guy_cell(state: GuysState, slot: int, viewer: int | None) -> Text:
    """A Guy in its lane: name, attack/health (damage), keywords, pins."""
    if slot < 0:
        return Text("·", style="dim")
    card = state.card_at(slot)
    if state.face_down(slot):
        if card is None or state.controller(slot) != viewer:  # only its owner sees it
            return Text("face-down card", style="dim italic")
        return Text(f"face down ({name_of(state, card)})", style="italic")
    atk, hp = state.stats(slot)
    text = Text(name_of(state, card), style="bold")
    left = hp - state.damage(slot)
    text += Text(f" {atk}/{left}" + (f" of {hp}" if state.damage(slot) else ""))
    marks = _statuses(state, slot)
    for pin in state.pins_on(slot):
        marks.append(f"pin: {slot_name(state, pin)}")
    if marks:
        text += Text(f"\n{', '.join(marks)}", style="dim")
    return text


def hand_key(state: GuysState, card: str) -> tuple[int, str]:
    """Where a card stands in the hand as shown and in the menus: by cost, then name."""
    kind = state.rules.cards[state.rules.card_index[card]]
    return (kind.cost, kind.name)


def _card_line(state: GuysState, card: str) -> str:
    kind = state.rules.cards[state.rules.card_index[card]]
    stats = f" {kind.attack}/{kind.health}" if kind.type == "guy" else ""
    return f"{kind.name} ({kind.cost}){stats} — {kind.text}"


def _printed(card: Card) -> list[str]:
    """A card as printed: type, classes and tribes, cost, stats, keywords, text."""
    kind = card.type + (" token" if card.token else f", {card.rarity}")
    if card.pin_to:
        kind += f" (goes on a {card.pin_to})"
    lines = [f"{kind}; classes: {', '.join(card.classes) or 'none'}"]
    if card.tribes:
        lines[0] += f"; tribes: {', '.join(card.tribes)}"
    cost = f"cost {card.cost}" + (f", Enhance {card.enhance}" if card.enhance is not None else "")
    stats = f"; {card.attack}/{card.health}" if card.type == "guy" else ""
    lines.append(cost + stats)
    if card.keywords:
        lines.append("keywords: " + ", ".join(sorted(card.keywords)))
    return [*lines, card.text] if card.text else lines


def cards_seen(state: GuysState, seats: Seats) -> list[Seen]:
    """What `i` may show: your hand, every Guy in the lanes you may know (a face-down one
    only to its owner), the Pins on them and in Vests, and both discard piles."""
    you = seats.you
    cards = state.rules.cards
    index = state.rules.card_index
    out: list[Seen] = []
    if you is not None:
        for card, copies in sorted_hand(state, you, lambda c: hand_key(state, c)):
            where = "your hand" + (f" ({copies} copies)" if copies > 1 else "")
            out.append(Seen(cards[index[card]].name, where, _printed(cards[index[card]])))
    bottom = you if you is not None else 0
    for seat in (bottom, 1 - bottom):
        for lane in range(LANES):
            slot = state.lane_guy(seat, lane)
            guy = state.card_at(slot) if slot >= 0 else None
            hidden = slot >= 0 and state.face_down(slot) and seat != you
            if guy is None or hidden:
                continue  # an empty lane, or a face-down Guy only its owner may read
            where = f"{seats.whose(seat)} lane {lane + 1}"
            out.append(Seen(name_of(state, guy), where, _in_play(state, slot)))
            for pin in state.pins_on(slot):
                name = slot_name(state, pin)
                printed = _printed(cards[index[state.card_at(pin) or ""]])
                out.append(Seen(name, f"on {seats.whose(seat)} {name_of(state, guy)}", printed))
        vest = state.vest(seat)
        if vest >= 0 and state.card_at(vest) is not None:
            printed = _printed(cards[index[state.card_at(vest) or ""]])
            out.append(Seen(slot_name(state, vest), f"{seats.whose(seat)} Vest", printed))
    for seat in (bottom, 1 - bottom):
        for card in dict.fromkeys(c for c in state.zone_cards(f"discard:{seat}") if c):
            where = f"{seats.whose(seat)} discard pile"
            out.append(Seen(name_of(state, card), where, _printed(cards[index[card]])))
    return out


def _in_play(state: GuysState, slot: int) -> list[str]:
    """A Guy in a lane: as printed, then as it stands (stats, damage, statuses, Pins)."""
    card = state.rules.cards[state.rules.card_index[state.card_at(slot) or ""]]
    atk, hp = state.stats(slot)
    now = f"now {atk}/{hp - state.damage(slot)}"
    if state.damage(slot):
        now += f" ({state.damage(slot)} damage taken)"
    if state.face_down(slot):
        now += ", face down"
    marks = _statuses(state, slot)
    if marks:
        now += "; " + ", ".join(marks)
    pins = [slot_name(state, pin) for pin in state.pins_on(slot)]
    if pins:
        now += "; Pins: " + ", ".join(pins)
    return [*_printed(card), now]


def board(state: GuysState, seats: Seats) -> RenderableType:
    """The table: both sides' lanes, lives, energy, Vests, piles, and your hand."""
    you = seats.you
    bottom = you if you is not None else 0
    top = 1 - bottom
    title = f"Turn {state.turn()} — {PHASES[state.phase()]}"
    if state.turn():
        title += f", {seats.label(state.leader())} leading"
    table = Table(title=title, expand=False, show_lines=True)
    table.add_column("")
    for lane in range(LANES):
        table.add_column(f"lane {lane + 1}", min_width=12)  # five fit 80 columns
    for seat in (top, bottom):
        cells = [_guy_cell(state, state.lane_guy(seat, lane), you) for lane in range(LANES)]
        table.add_row(Text(seats.on_board(seat), style="bold"), *cells)

    def vest(seat: int) -> str:
        slot = state.vest(seat)
        return f", Vest: {slot_name(state, slot) if slot >= 0 else 'empty'}"

    below = piles_and_hand(
        state, seats, (top, bottom),
        lambda seat: f"life {state.life(seat)}, energy {state.energy(seat)}",
        lambda card: _card_line(state, card), lambda card: hand_key(state, card), vest,
    )  # fmt: skip
    return Group(table, *below)


def prompt(state: GuysState, seats: Seats) -> str:
    """The question the current decision asks, in words."""
    ask = state.ask()
    if ask is not None:
        return {
            "mulligan": "Mulligan: put any cards on the bottom of your deck, then draw back to 5:",
            "target": "Choose a target:",
            "lane": "Choose a lane:",
            "order": "Loot: put the cards back on your deck in this order (top first):",
            "discard": "Discard a card:",
            "free": "Play a card for free:",
        }[ask.kind]
    if state.phase() == "reveal":
        return "Before combat: reveal your face-down Guy:"
    energy = state.energy(state.current_player())
    return f"{sentence(PHASES[state.phase()])}: you have {energy} energy:"


def picks(state: GuysState) -> Picks | None:
    """The mulligan as picks: the hand's cards by number, the ones typed go back."""
    ask = state.ask()
    if ask is None or ask.kind != "mulligan":
        return None
    hand = state.hand(state.current_player())
    names = [name_of(state, card) for card in hand]

    def put_back(chosen: frozenset[int]) -> Action:
        # The legal mulligans are one per distinct set of cards (two copies of a card are
        # one choice), so find the one putting back the same cards.
        wanted = Counter(names[i] for i in chosen)
        for action in state.legal_actions():
            mask = action.mask if isinstance(action, Mulligan) else -1
            if Counter(n for i, n in enumerate(names) if mask >> i & 1) == wanted:
                return action
        raise AssertionError(f"no legal mulligan puts back {sorted(wanted)}")

    question = "Type the numbers of the cards to put back (e.g. 1 3), or 0 to keep them all."
    return Picks(names, question, put_back)


def _where(state: GuysState, slot: int, you: int | None) -> str:
    """'(lane 2, yours)' or '(lane 2, theirs)'."""
    lane = state.lane_of(slot)
    side = "yours" if state.controller(slot) == you else "theirs"
    return f"(lane {lane + 1}, {side})" if lane >= 0 else f"({side})"


def describe_choice(state: GuysState, action: Action) -> str:
    """A menu line for one of the person's legal actions."""
    you = state.current_player()
    if isinstance(action, Play):
        card = state.rules.cards[state.rules.card_index[action.card or ""]] if action.card else None
        name = card.name if card else "a card"
        cost = (
            0
            if state.ask() is not None
            else (card.enhance if action.enhanced else card.cost)
            if card
            else 0
        )
        text = f"Play {name} ({cost})"
        if action.face_down:
            text += " face down"
        if action.lane is not None:
            text += f" in lane {action.lane + 1}"
        if action.host is not None:
            text += f" on {slot_name(state, action.host)} {_where(state, action.host, you)}"
        if action.enhanced:
            text += " — enhanced"
        return text
    if isinstance(action, Prepare):
        return f"Prepare {slot_name(state, action.slot)} {_where(state, action.slot, you)}"
    if isinstance(action, Pass):
        return f"Pass (end {PHASES[state.phase()]})"
    if isinstance(action, Target):
        where = state.zone_of(action.slot)
        if where.startswith("hand"):
            return f"{slot_name(state, action.slot)} from your hand"
        return f"{slot_name(state, action.slot)} {_where(state, action.slot, you)}"
    if isinstance(action, TargetPlayer):
        return "yourself (the player)" if action.seat == you else "your opponent (the player)"
    if isinstance(action, Lane):
        return f"lane {action.lane + 1}"
    if isinstance(action, Order):
        if action.order is None:  # another seat's: its order stays its own
            return "put the cards back in an order of their own"
        deck = state.zone_cards(f"deck:{you}")
        top = [deck[-1 - i] for i in range(min(len(deck), _looted(state)))]
        order = orders(len(top))[action.order] if top else ()
        return "top first: " + ", ".join(name_of(state, top[j]) for j in order)
    if isinstance(action, Discard):
        return f"discard {name_of(state, action.card)}"
    if isinstance(action, Mulligan):
        hand = state.hand(you)
        back = Counter(name_of(state, hand[i]) for i in range(len(hand)) if action.mask >> i & 1)
        named = [name if n == 1 else f"{n} × {name}" for name, n in back.items()]
        return "keep the hand" if not back else f"put back {listed(named)}"
    if isinstance(action, Reveal):
        return f"reveal {name_of(state, action.card)}"
    if isinstance(action, Decline):
        return "decline"
    return str(action)


def choice_order(state: GuysState, action: Action) -> tuple[int | str, ...]:
    """Cards in the order the hand shows them, then preparing, then passing."""
    if isinstance(action, Play) and action.card is not None:
        return (0, *hand_key(state, action.card))
    return (1 if isinstance(action, Prepare) else 2 if isinstance(action, Pass) else 0,)


def choice_path(state: GuysState, action: Action) -> tuple[str, ...]:
    """A play as the card, then how (its cost, face down) and where (lane, host); preparing
    as 'Prepare a Guy', then which. Any other decision is one line."""
    you = state.current_player()
    if isinstance(action, Prepare):
        return (
            "Prepare a Guy",
            f"{slot_name(state, action.slot)} {_where(state, action.slot, you)}",
        )
    if not isinstance(action, Play) or action.card is None:
        return (describe_choice(state, action),)
    card = state.rules.cards[state.rules.card_index[action.card]]
    head = _play_head(card, free=state.ask() is not None)
    how = []
    if action.enhanced:
        how.append(f"enhanced ({card.enhance})")
    if action.face_down:
        how.append("face down")
    if action.lane is not None:
        how.append(f"in lane {action.lane + 1} {_facing(state, you, action.lane)}")
    if action.host is not None:
        how.append(f"on {slot_name(state, action.host)} {_where(state, action.host, you)}")
    return (head, " ".join(how)) if how else (head,)


def _play_head(card: Card, free: bool = False) -> str:
    """A card's first line in the menus: 'Play Chicken (1)', without a cost when free."""
    return f"Play {card.name}" + ("" if free else f" ({card.cost})")


def _why_not(state: GuysState, card: Card) -> str:
    """Why a card of the hand may not be played now, as far as the view can cheaply say:
    energy, the phase, no empty lane or no Guy to go on; '' otherwise."""
    seat = state.current_player()
    cheapest = min(c for c in (card.cost, card.enhance) if c is not None)
    phase = state.phase()
    if cheapest > state.energy(seat):
        return f"needs {cheapest} energy"
    if "patient" in card.keywords and phase == "lead":
        return f"Patient: not in {PHASES[phase]}"
    if card.type == "guy" and phase == "counter":
        return f"no Guy is played in {PHASES[phase]}"
    if card.type == "guy" and all(state.lane_guy(seat, lane) >= 0 for lane in range(LANES)):
        return "no empty lane of yours"
    if card.type == "pin" and card.pin_to == "guy":
        return "no Guy face up to go on"
    return ""


def hand_lines(state: GuysState) -> list[HandLine] | None:
    """In a phase where cards are played, each card of the hand in its order, playable now
    or not."""
    if state.ask() is not None or state.phase() not in ("lead", "react", "counter"):
        return None
    hand = sorted_hand(state, state.current_player(), lambda c: hand_key(state, c))
    cards = [state.rules.cards[state.rules.card_index[c]] for c, _ in hand]
    return [HandLine(_play_head(card), _why_not(state, card)) for card in cards]


def _facing(state: GuysState, you: int, lane: int) -> str:
    """'(opposite Chicken)' or '(unopposed)': what a Guy played in a lane would face."""
    other = state.lane_guy(1 - you, lane)
    return f"(opposite {slot_name(state, other)})" if other >= 0 else "(unopposed)"


def follows_up(before: GuysState, after: GuysState) -> bool:
    """A card's target or lane, or a card it lets you play, is chosen with the card."""
    ask = after.ask()
    return ask is not None and ask.kind in ("target", "lane", "free")


def _looted(state: GuysState) -> int:
    """How many cards the Loot being ordered looked at."""
    ask = state.ask()
    if ask is None or ask.kind != "order":
        return 0
    n = 1
    while len(orders(n)) < ask.options[0]:
        n += 1
    return n


def narrate(before: GuysState, event: Event, after: GuysState, seats: Seats) -> list[Told]:
    """A step in sentences, as `seats.you` may know it: the action, then what it did."""
    action, actor = event.action, event.actor
    says = seats.says
    told: list[Told] = []
    if isinstance(action, Deal):
        move = before.chance_move()
        if move.kind == "look":
            card = name_of(before, action.card) if action.card else "a card"
            told.append(f"{says(move.to, 'look')} at {card} on top of {seats.its(move.to)} deck.")
        else:
            to = event.to if event.to is not None else move.to
            told.append(Drew(to, None if action.card is None else name_of(before, action.card)))
    elif isinstance(action, Mulligan):
        n = bin(action.mask).count("1")
        if n:
            again = seats.verb(actor, "draw")
            told.append(f"{says(actor, 'put')} {count(n, 'card')} on the bottom and {again} again.")
        else:
            told.append(f"{says(actor, 'keep')} {seats.its(actor)} hand.")
    elif isinstance(action, Play):
        card = name_of(before, action.card) if action.card else "a card"
        if action.face_down:
            where = f" in lane {(action.lane or 0) + 1}"
            shown = card if actor == seats.you and action.card else "a card"
            told.append(f"{says(actor, 'play')} {shown} face down{where}.")
        else:
            where = f" in lane {action.lane + 1}" if action.lane is not None else ""
            on = f" on {slot_name(before, action.host)}" if action.host is not None else ""
            enhanced = " for its Enhance cost" if action.enhanced else ""
            told.append(f"{says(actor, 'play')} {card}{where}{on}{enhanced}.")
    elif isinstance(action, Prepare):
        told.append(f"{says(actor, 'prepare')} {slot_name(before, action.slot)}.")
    elif isinstance(action, Pass):
        told.append(f"{says(actor, 'pass')}: {PHASES[before.phase()]} ends.")
    elif isinstance(action, Target):
        told.append(f"{says(actor, 'target')} {slot_name(before, action.slot)}.")
    elif isinstance(action, TargetPlayer):
        told.append(f"{says(actor, 'target')} {seats.label(action.seat)}.")
    elif isinstance(action, Lane):
        told.append(f"{says(actor, 'choose')} lane {action.lane + 1}.")
    elif isinstance(action, Order):
        told.append(f"{says(actor, 'put')} the cards back on top of {seats.its(actor)} deck.")
    elif isinstance(action, Discard):
        told.append(f"{says(actor, 'discard')} {name_of(before, action.card)}.")
    elif isinstance(action, Reveal):
        lane = before.lane_of(action.slot) + 1
        told.append(f"{says(actor, 'reveal')} {name_of(before, action.card)} in lane {lane}.")
    elif isinstance(action, Decline):
        told.append(f"{says(actor, 'decline')}.")
    elif isinstance(action, Concede):
        told.append(f"{says(actor, 'concede')}.")
    return told


def closing(before: GuysState, after: GuysState, seats: Seats) -> list[Told]:
    """After what a step did: a new turn, or the result."""
    told: list[Told] = []
    if after.turn() > before.turn() and not after.is_terminal():
        told.append(f"— turn {after.turn()}: {seats.says(after.leader(), 'lead')} —")
    if after.is_terminal() and not before.is_terminal():
        told.append(result(after, seats))
    return told


def strikes(state: GuysState, lane: int, seats: Seats) -> list[str]:
    """A lane's combat as it starts (cli/happenings.py): who hits whom, for how much."""
    guys = [state.lane_guy(seat, lane) for seat in (0, 1)]
    hits = []
    for seat, guy in enumerate(guys):
        if guy < 0 or state.prepared(guy) or state.face_down(guy) or state.attack(guy) <= 0:
            continue
        other = guys[1 - seat]
        if other >= 0 and not state.has(guy, OVERARCH):
            victim = f"{seats.whose(1 - seat)} {slot_name(state, other)}"
        else:
            victim = seats.label(1 - seat)
        who = f"{seats.whose(seat)} {slot_name(state, guy)}"
        hits.append(f"{who} hits {victim} for {state.attack(guy)}")
    return [f"Combat in lane {lane + 1}: {'; '.join(hits)}."] if hits else []


def scene(state: GuysState, seats: Seats) -> Scene:
    """The board as `state` knows it, for telling what a step changed (cli/happenings.py)."""
    counters = tuple(
        (
            Gauge(state.life(seat), "take {n} damage", "heal {n}", "life"),
            Gauge(state.energy(seat), None, "gain {n} energy", "energy", refills=True),
        )
        for seat in (0, 1)
    )
    in_play: dict[int, InPlay] = {}
    for seat in (0, 1):
        for lane in range(LANES):
            guy = state.lane_guy(seat, lane)
            if guy < 0:
                continue
            card = state.card_at(guy)
            place = f"lane {lane + 1}"
            if card is None or state.face_down(guy):  # its damage is public, its stats are not
                name = None if card is None else name_of(state, card)
                in_play[guy] = InPlay(name, seat, place, (("damage", state.damage(guy)),))
                continue
            attack, health = state.stats(guy)
            numbers = (("damage", state.damage(guy)), ("attack", attack), ("health", health))
            marks = frozenset(
                "safe from damage" if word == "can't be hurt" else word  # "is now …"
                for word in _statuses(state, guy)
            )
            in_play[guy] = InPlay(slot_name(state, guy), seat, place, numbers, marks)
            for pin in state.pins_on(guy):
                in_play[pin] = InPlay(
                    slot_name(state, pin), seat, f"on {slot_name(state, guy)}", ()
                )
        vest = state.vest(seat)
        if vest >= 0:
            in_play[vest] = InPlay(slot_name(state, vest), seat, "in the Vest", ())
    known = state.card_at
    elsewhere = zone_scene(
        state.slot_count(), state.zone_of, lambda s: known(s) and slot_name(state, s), in_play
    )
    return Scene(state.turn(), counters, in_play, elsewhere)


def says_of(seats: Seats, seat: int, verb: str) -> str:
    """'You take' or 'Seat 1 takes', capitalised for a sentence's start."""
    return sentence(seats.says(seat, verb))


def result(state: GuysState, seats: Seats) -> str:
    """Who won and why: life at 0, a deck run out, a concession, or the turn cap."""
    winners = state.winners() or ()
    if len(winners) != 1:
        return f"Game over: a draw (life {state.life(0)} to {state.life(1)})."
    winner = winners[0]
    loser = 1 - winner
    if state.life(loser) <= 0:
        why = f"{seats.label(loser)} at {state.life(loser)} life"
    elif state.options.round_cap is not None and state.turn() >= state.options.round_cap:
        why = f"more life at the turn cap ({state.life(winner)} to {state.life(loser)})"
    elif not state.zone_slots(f"deck:{loser}"):
        why = f"{seats.label(loser)} could not draw"
    else:
        why = f"{seats.label(loser)} conceded"
    return f"Game over: {seats.says(winner, 'win')} — {why}."


def is_reaction(state: GuysState) -> bool:
    """Nothing here answers another seat's card in a window: every phase waits for a pass."""
    return False
