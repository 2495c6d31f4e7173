"""Terminal rendering of GETGEM: the table, prompts and a public log of moves."""

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cli.wording import says, seat_label
from p2pcards.engine import Action
from p2pcards.games.getgem import GetGemState
from p2pcards.games.getgem.actions import (
    Barrier,
    Deal,
    Declare,
    Discard,
    Element,
    GemTake,
    Guard,
    Pass,
    Pick,
    Pickpocket,
    Play,
    Push,
    Take,
    TakeBack,
    Trade,
)

GEM_STYLE = {"fire": "red", "water": "blue", "thunder": "yellow", "rainbow": "magenta"}
EFFECT_NAMES = {"steal-push": "Steal & Push"}


def card_name(state: GetGemState, card: str | None) -> Text:
    """A card's English name, gems in their colour; 'a hidden card' when unknown."""
    if card is None:
        return Text("a hidden card", style="dim")
    kind = state.card_type(card)
    return Text(kind.name, style=GEM_STYLE.get(kind.gem or "", "bold" if kind.gem else ""))


def names(state: GetGemState, cards: Sequence[str | None]) -> str:
    """Cards by name, comma-separated, as plain text."""
    return ", ".join(card_name(state, c).plain for c in cards) or "none"


def effect_name(effect: str) -> str:
    """'Steal & Push', 'Peeping Draw': an effect as the card prints it."""
    return EFFECT_NAMES.get(effect, effect.replace("-", " ").title())


def count(n: int) -> str:
    """'1 card', '4 cards'."""
    return f"{n} card" + ("" if n == 1 else "s")


def _split(cards: str) -> list[str]:
    return cards.split(",")


def board(state: GetGemState, you: int | None, log: Sequence[str]) -> RenderableType:
    """The whole table as one renderable: hands, elements, declarations, piles, last moves."""
    over = state.is_terminal()
    title = f"Turn {state.turns_played()}"
    if state.options.match:
        title += f", game {state.game_number()}"
    table = Table(title=title, expand=False)
    table.add_column("seat")
    table.add_column("cards", justify="right")
    table.add_column("elements")
    table.add_column("declared (laid face up)")
    if state.options.characters:
        table.add_column("character")
    if state.options.match:
        table.add_column("points", justify="right")
    for seat in range(state.num_players):
        marker = "▶ " if seat == state.turn_seat() and not over else "  "
        elements = Text(" ".join(state.elements(seat)) or "-")
        laid = state.laid(seat)
        row: list[RenderableType] = [
            marker + seat_label(seat, you),
            str(state.hand_size(seat)),
            elements,
            names(state, laid) if laid else "-",
        ]
        if state.options.characters:
            character = state.character(seat)
            row.append(state.character_card(character).name if character else "-")
        if state.options.match:
            row.append(str(state.scores()[seat]))
        table.add_row(*row)
    middle = [g for g in ("fire", "water", "thunder") if state.element_owner(g) is None]
    piles = Text(f"deck {state.deck_size()}   discard {len(state.discard_pile())}")
    if state.discard_pile():
        piles += Text(" (top: ") + card_name(state, state.discard_pile()[-1]) + Text(")")
    piles += Text(f"   elements in the middle: {' '.join(middle) or 'none'}")
    parts: list[RenderableType] = [table, piles]
    if you is not None:
        hand = Text("your hand: ", style="bold")
        for i, card in enumerate(state.hand(you)):
            hand += (Text(", ") if i else Text("")) + card_name(state, card)
        parts.append(hand if state.hand_size(you) else Text("your hand: (empty)", style="bold"))
    if log:
        parts.append(Panel("\n".join(log), title="last moves", expand=False))
    return Group(*parts)


def prompt(state: GetGemState) -> str:
    """The question the current decision asks, in words."""
    d = state.decision()
    if d.kind == "pick":
        return "Draft a character:"
    if d.kind == "window":
        return (
            f"Seat {d.actor} chose you for {effect_name(str(d.effect))}. "
            "Answer with a Barrier, or let it happen?"
        )
    if d.kind == "push":
        return f"Steal & Push: give seat {d.target} one card of your hand:"
    if d.kind == "dig":
        return "Excavation Arm: discard one card of your hand:"
    if d.kind == "take-back":
        return f"Your declaration: take one laid card back into your hand ({d.count} left):"
    if d.kind == "limit":
        return f"End of your turn: discard down to 6 ({d.count} over; never the Curse Gem):"
    return "Your action phase: use cards and gems, then end the turn (declaring if you can):"


def describe_choice(state: GetGemState, action: Action) -> str:
    """A menu line for one of the person's legal actions."""
    if isinstance(action, Pick):
        character = state.character_card(action.character)
        return f"{character.name}: [dim]{character.text}[/]"
    if isinstance(action, Play):
        return _describe_play(state, action)
    if isinstance(action, GemTake | Pickpocket):
        victim = action.seat
        return (
            f"discard {names(state, _split(action.cards))} → a random card from seat {victim} "
            f"({count(state.hand_size(victim))})"
        )
    if isinstance(action, Element):
        owner = state.element_owner(action.element)
        source = "the middle" if owner is None else f"seat {owner}"
        paid = names(state, _split(action.cards))
        return f"discard {paid} → the {action.element} element (from {source})"
    if isinstance(action, Declare):
        return f"end the turn declaring victory, laying {names(state, _split(action.cards))}"
    if isinstance(action, Pass):
        kind = state.decision().kind
        if kind == "window":
            return "let it happen"
        if kind == "action":
            return "end the turn without declaring"
        return "keep the rest (a Curse Gem cannot be discarded)"
    if isinstance(action, Barrier):
        return f"cancel it with {card_name(state, action.card).plain}"
    if isinstance(action, Guard):
        return "cancel it (Guardian)"
    if isinstance(action, Push | Discard | TakeBack | Trade):
        verb = {"push": "give", "discard": "discard", "take-back": "take back", "trade": "trade"}
        return f"{verb[action.kind]} {card_name(state, action.card).plain}"
    return str(action)


def _describe_play(state: GetGemState, action: Play) -> str:
    """'Steal → seat 2 (4 cards)', 'Excavation Arm: take Fire Gem from the discard pile'."""
    text = card_name(state, action.card).plain
    if action.effect != action.card:
        text = f"{effect_name(action.effect)} (the {text} card)"
    if action.seat is not None:
        text += f" → seat {action.seat} ({count(state.hand_size(action.seat))})"
    if action.pick is not None:
        text += f": take {card_name(state, action.pick).plain} from the discard pile"
    return text


def describe_move(before: GetGemState, action: Action, you: int | None) -> str | None:
    """A log line for a move, as the person at seat `you` may see it (None: not worth a line)."""
    d = before.decision()
    seat = d.seat
    if isinstance(action, Pick):
        return f"{says(seat, you, 'draft')} the {before.character_card(action.character).name}"
    if isinstance(action, Play):
        return f"{says(seat, you, 'play')} {_describe_play(before, action)}"
    if isinstance(action, GemTake | Pickpocket):
        paid = names(before, _split(action.cards))
        return f"{says(seat, you, 'discard')} {paid} to take from {seat_label(action.seat, you)}"
    if isinstance(action, Element):
        paid = names(before, _split(action.cards))
        return f"{says(seat, you, 'discard')} {paid} for the {action.element} element"
    if isinstance(action, Declare):
        laid = names(before, _split(action.cards))
        return f"{says(seat, you, 'declare')} victory, laying {laid}"
    if isinstance(action, Pass):
        if d.kind == "action":
            return f"{says(seat, you, 'end')} the turn"
        if d.kind == "window":
            return f"{seat_label(seat, you)}: no Barrier"
        return None
    if isinstance(action, Barrier):
        return f"{says(seat, you, 'cancel')} it with a Barrier"
    if isinstance(action, Guard):
        return f"{says(seat, you, 'cancel')} it (Guardian)"
    if isinstance(action, Push):
        seen = action.card if you in (seat, d.target) else None
        shown = f": {card_name(before, seen).plain}" if seen else ""
        return f"{says(seat, you, 'push')} a card to {seat_label(d.target or 0, you)}{shown}"
    if isinstance(action, Discard | Trade):
        return f"{says(seat, you, action.kind)} {card_name(before, action.card).plain}"
    if isinstance(action, TakeBack):
        text = f"{says(seat, you, 'take')} back {card_name(before, action.card).plain}"
        return text + (" and shows the hand" if d.count == 1 else "")
    if isinstance(action, Take):
        thief, victim = d.receiver, d.target
        assert thief is not None and victim is not None
        seen = action.card if you in (thief, victim) else None
        text = f"{says(thief, you, 'take')} a random card from {seat_label(victim, you)}"
        return text + (f": {card_name(before, seen).plain}" if seen else "")
    if isinstance(action, Deal):
        return None  # draws show in the hand sizes
    return str(action)


def is_reaction(state: GetGemState) -> bool:
    """Whether the decision answers another seat's card (asked with a countdown at a table)."""
    return state.decision().kind == "window"
