"""Terminal rendering of GETGEM: the table, prompts, help and the log's sentences."""

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cli.look import Seen
from cli.views import RESHUFFLED, Drew, HandLine, Told, reshuffled
from cli.wording import Seats, count, listed, sentence
from p2pcards.engine import Action
from p2pcards.games.getgem import GetGemState
from p2pcards.games.getgem.actions import (
    Barrier,
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
from p2pcards.history import Event
from p2pcards.zones import Deal

HELP = """\
GETGEM: hold fire, water and thunder (gem cards or element cards) to win.
Your turn: you draw 1, then use action cards (Peeping Draw once a turn), discard 3 gems to
take a random card from a player, or 2 gems of one element to take its element card
(from the middle or from whoever holds it). Ending the turn, you may declare victory by
laying 3 cards face up; at the end of each other seat's turn you take one back, and when
the last comes back your whole hand is shown: fire, water and thunder win (a Rainbow Gem
stands in for any one, unless you hold a Curse Gem). Barrier cancels a card that chose you.
A Curse Gem can never be discarded; the hand limit is 6 at the end of your turn.
`p2pcards rules getgem` has the whole rulebook and our choices."""

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


def _split(cards: str) -> list[str]:
    return cards.split(",")


def board(state: GetGemState, seats: Seats) -> RenderableType:
    """The whole table as one renderable: hands, elements, declarations, piles, your hand."""
    you = seats.you
    over = state.is_terminal()
    title = f"Turn {state.turns_played()}"
    if state.options.match:
        title += f", game {state.game_number()}"
    table = Table(title=title, expand=False)
    table.add_column("seat", no_wrap=True)
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
            Text(marker + seats.on_board(seat)),  # a name is text, never markup
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
    return Group(*parts)


EFFECTS = {  # our words for the rulebook's (lines 87-107; rules.md, "Action cards")
    "steal": "take a random card from a chosen player's hand",
    "full-exchange": "swap whole hands with a chosen player",
    "excavation-arm": (
        "take a card of your choice from the discard pile, then discard a card from your hand"
    ),
    "steal-push": (
        "take a random card from a chosen player, then give that player another card of yours"
    ),
    "peeping-draw": "look at a chosen player's whole hand, then draw 1 (once a turn)",
    "barrier": "when another player's action or character card chooses you, cancel its effect",
}


def _printed(state: GetGemState, card: str) -> list[str]:
    """A basic card: the gem it counts as, or its effects (one of two for a dual card)."""
    kind = state.card_type(card)
    if kind.gem is not None:
        if kind.gem == "rainbow":
            return ["gem: counts as any one of fire, water and thunder (not beside a Curse Gem)"]
        if kind.gem == "curse":
            return ["gem: never discarded; while you hold it, Rainbow Gems count as nothing"]
        return [f"gem: {kind.gem}"]
    either = "one of: " if len(kind.effects) > 1 else ""
    return [f"action card, {either}" + "; ".join(
        f"{effect_name(e)} — {EFFECTS.get(e, e)}" for e in kind.effects)]  # fmt: skip


def cards_seen(state: GetGemState, seats: Seats) -> list[Seen]:
    """What `i` may show: your hand, the cards laid face up, the element cards and who holds
    them, the characters, the discard pile."""
    out: list[Seen] = []
    if seats.you is not None:
        hand = [c for c in state.hand(seats.you) if c is not None]
        for card in dict.fromkeys(hand):
            copies = hand.count(card)
            where = "your hand" + (f" ({copies} copies)" if copies > 1 else "")
            out.append(Seen(card_name(state, card).plain, where, _printed(state, card)))
    for seat in range(state.num_players):
        for card in state.laid(seat):
            where = f"laid face up by {seats.label(seat)}"
            out.append(Seen(card_name(state, card).plain, where, _printed(state, card)))
        for gem in state.elements(seat):
            details = [f"element card: counts as a {gem} gem"]
            out.append(Seen(f"{gem.title()} Element", f"held by {seats.label(seat)}", details))
        character = state.character(seat) if state.options.characters else None
        if character:
            c = state.character_card(character)
            out.append(Seen(c.name, f"{seats.whose(seat)} character", [c.text]))
    for gem in ("fire", "water", "thunder"):
        if state.element_owner(gem) is None:
            details = [f"element card: counts as a {gem} gem"]
            out.append(Seen(f"{gem.title()} Element", "in the middle", details))
    for card in dict.fromkeys(state.discard_pile()):
        out.append(Seen(card_name(state, card).plain, "the discard pile", _printed(state, card)))
    return out


def prompt(state: GetGemState, seats: Seats) -> str:
    """The question the current decision asks, in words."""
    d = state.decision()
    if d.kind == "pick":
        return "Draft a character:"
    if d.kind == "window":
        chooser = seats.label(d.actor or 0)
        return (
            f"{sentence(chooser)} chose you for {effect_name(str(d.effect))}. "
            "Answer with a Barrier, or let it happen?"
        )
    if d.kind == "push":
        return f"Steal & Push: give {seats.label(d.target or 0)} one card of your hand:"
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
            f"({count(state.hand_size(victim), 'card')})"
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


def choice_path(state: GetGemState, action: Action) -> tuple[str, ...]:
    """A card as the card, then the seat or discarded card it takes; gems paid as what they
    buy, then from whom, then which gems; a declaration, then the cards laid."""
    if isinstance(action, Play):
        if action.seat is not None:
            return (_played(state, action), f"seat {action.seat} ({_cards(state, action.seat)})")
        if action.pick is not None:
            taken = f"take {card_name(state, action.pick).plain} from the discard pile"
            return (_played(state, action), taken)
    elif isinstance(action, GemTake | Pickpocket):
        n = len(_split(action.cards))
        how = "Pickpocket: discard" if isinstance(action, Pickpocket) else "discard"
        victim = f"from seat {action.seat} ({_cards(state, action.seat)})"
        return (
            f"{how} {n} gems → a random card",
            victim,
            f"paying {names(state, _split(action.cards))}",
        )
    elif isinstance(action, Element):
        owner = state.element_owner(action.element)
        source = "the middle" if owner is None else f"seat {owner}"
        paid = f"paying {names(state, _split(action.cards))}"
        return (
            "discard 2 gems → an element card",
            f"the {action.element} element (from {source})",
            paid,
        )
    elif isinstance(action, Declare):
        return ("end the turn declaring victory", f"laying {names(state, _split(action.cards))}")
    return (describe_choice(state, action),)


def _cards(state: GetGemState, seat: int) -> str:
    return count(state.hand_size(seat), "card")


def _played(state: GetGemState, action: Play) -> str:
    """'Steal', or 'Steal & Push (the Steal & Push / Barrier card)' for one half of a card."""
    return _play_head(state, action.card, action.effect)


def _play_head(state: GetGemState, card: str, effect: str) -> str:
    """A card's effect as its first line in the menus (_played)."""
    text = card_name(state, card).plain
    return text if effect == card else f"{effect_name(effect)} (the {text} card)"


def _why_not(state: GetGemState, effect: str) -> str:
    """Why an action card's effect may not be played now (line 40, 100); '' if not said."""
    you = state.current_player()
    if effect in ("steal", "steal-push"):
        others = [s for s in range(state.num_players) if s != you and state.hand_size(s)]
        return "" if others else "no one else holds a card"
    if effect == "peeping-draw" and state.peeping_draws():
        return "one a turn, played already"
    if effect == "excavation-arm" and not state.discard_pile():
        return "the discard pile is empty"
    return ""


def hand_lines(state: GetGemState) -> list[HandLine] | None:
    """In the action phase, each action card of the hand (a line an effect of a dual card,
    but its Barrier, an answer only) in the set's order, playable now or not; the gems are
    paid in the lines after them."""
    if state.decision().kind != "action":
        return None
    held = {c for c in state.hand(state.current_player()) if c is not None}
    kinds = sorted((state.card_type(c) for c in held), key=lambda kind: (kind.line, kind.name))
    return [
        HandLine(_play_head(state, kind.id, effect), _why_not(state, effect))
        for kind in kinds
        if kind.kind == "action"
        for effect in kind.effects
        if effect != "barrier"
    ]


def _describe_play(state: GetGemState, action: Play) -> str:
    """'Steal → seat 2 (4 cards)', 'Excavation Arm: take Fire Gem from the discard pile'."""
    text = _played(state, action)
    if action.seat is not None:
        text += f" → seat {action.seat} ({count(state.hand_size(action.seat), 'card')})"
    if action.pick is not None:
        text += f": take {card_name(state, action.pick).plain} from the discard pile"
    return text


def _listed(state: GetGemState, cards: Sequence[str | None]) -> str:
    """'Fire Gem, Water Gem and Curse Gem' (or 'no cards'): cards in a sentence."""
    return listed([card_name(state, c).plain for c in cards]) or "no cards"


def _log_play(state: GetGemState, action: Play, seats: Seats) -> str:
    """'Steal on seat 2', 'Excavation Arm, taking Fire Gem from the discard pile'."""
    text = _played(state, action)
    if action.seat is not None:
        text += f" on {seats.label(action.seat)}"
    if action.pick is not None:
        text += f", taking {card_name(state, action.pick).plain} from the discard pile"
    return text


def narrate(before: GetGemState, event: Event, after: GetGemState, seats: Seats) -> list[Told]:
    """A step in sentences, as `seats.you` may know it: the move and what it did (cards
    taken, pushed, looked at; the hand shown at a declaration's end and why it did or did
    not win), and the result at the end."""
    d, action, actor = before.decision(), event.action, event.actor
    says = seats.says
    told: list[Told] = []
    if isinstance(action, Pick):
        told.append(f"{says(actor, 'draft')} the {before.character_card(action.character).name}.")
    elif isinstance(action, Play):
        told.append(f"{says(actor, 'play')} {_log_play(before, action, seats)}.")
    elif isinstance(action, GemTake | Pickpocket):
        paid = _listed(before, _split(action.cards))
        take = "a random card"
        told.append(
            f"{says(actor, 'discard')} {paid} to take {take} from {seats.label(action.seat)}."
        )
    elif isinstance(action, Element):
        owner = before.element_owner(action.element)
        source = "the middle" if owner is None else seats.label(owner)
        paid = _listed(before, _split(action.cards))
        told.append(
            f"{says(actor, 'discard')} {paid} and {seats.verb(actor, 'take')} the "
            f"{action.element} element card from {source}."
        )
    elif isinstance(action, Declare):
        laid = _listed(before, _split(action.cards))
        told.append(f"{says(actor, 'declare')} victory, laying {laid} face up.")
    elif isinstance(action, Pass):
        told.extend(_pass(before, d.kind, actor, after, seats))
    elif isinstance(action, Barrier):
        told.append(f"{says(actor, 'cancel')} it with {card_name(before, action.card).plain}.")
    elif isinstance(action, Guard):
        told.append(f"{says(actor, 'cancel')} it (the Guardian's ability).")
    elif isinstance(action, Push):
        card = _pushed(before, action, d.target or 0, after, seats.you)
        told.append(f"{says(actor, 'push')} {card} to {seats.label(d.target or 0)}.")
    elif isinstance(action, Discard):
        told.append(f"{says(actor, 'discard')} {card_name(before, action.card).plain}.")
    elif isinstance(action, Trade):
        card = card_name(before, action.card).plain
        told.append(f"{says(actor, 'trade')} in {card} for a new card (the Merchant's ability).")
    elif isinstance(action, TakeBack):
        told.extend(_take_back(before, action, actor, after, seats))
    elif isinstance(action, Take):
        move = before.chance_move()
        thief, victim = move.to, move.source or 0
        if action.card is None:
            told.append(f"{says(thief, 'take')} a random card from {seats.label(victim)}.")
        else:
            card = card_name(before, action.card).plain
            told.append(f"{says(thief, 'take')} {seats.whose(victim)} {card}.")
    elif isinstance(action, Deal):
        to = event.to if event.to is not None else 0
        told.append(Drew(to, None if action.card is None else card_name(before, action.card).plain))
    if reshuffled(before, after) and after.game_number() == before.game_number():
        told.append(RESHUFFLED)
    if after.turns_played() > before.turns_played() and not after.is_terminal():
        told.append(seats.turn(after.turn_seat(), f"turn {after.turns_played()}"))
    if after.game_number() > before.game_number():
        told.append(
            f"Game {before.game_number()} goes to {seats.label(after.last_winner() or 0)}; "
            f"points: {_points(after, seats)}. Game {after.game_number()} is dealt."
        )
    if after.is_terminal() and not before.is_terminal():
        told.append(result(after, seats))
    return told


def _pushed(before: GetGemState, action: Push, to: int, after: GetGemState, you: int | None) -> str:
    """The pushed card's name if the viewer may know it (its giver, or its receiver, who
    finds it in hand), else 'a card'."""
    card = action.card
    if card is None and you == to:
        new = list(after.hand(to))
        for old in before.hand(to):
            new.remove(old)
        card = new[0] if len(new) == 1 else None
    return "a card" if card is None else card_name(before, card).plain


def _pass(
    before: GetGemState, kind: str, actor: int, after: GetGemState, seats: Seats
) -> list[str]:
    """Ending a turn, keeping cards, or letting an effect happen (and what it then does)."""
    if kind == "action":
        return [f"{seats.says(actor, 'end')} the turn."]
    if kind == "limit":
        return [f"{seats.says(actor, 'keep')} the rest (a Curse Gem cannot be discarded)."]
    if kind != "window":
        return []
    d = before.decision()
    chooser, effect = d.actor or 0, str(d.effect)
    told = [f"{seats.says(actor, 'let')} it happen."]
    if effect == "full-exchange":
        told.append(f"{sentence(seats.label(chooser))} and {seats.label(actor)} swap hands.")
        if seats.you in (chooser, actor):
            told.append(f"You now hold {_listed(after, after.hand(seats.you or 0))}.")
    elif effect == "peeping-draw":
        hand = after.hand(actor) if seats.you == chooser else []
        seen = f": {_listed(after, hand)}" if hand else ""
        told.append(f"{seats.says(chooser, 'look')} at {seats.whose(actor)} hand{seen}.")
    return told


def _take_back(
    before: GetGemState, action: TakeBack, actor: int, after: GetGemState, seats: Seats
) -> list[str]:
    """A laid card taken back; after the last, the hand shown and the victory check."""
    told = [f"{seats.says(actor, 'take')} back {card_name(before, action.card).plain}."]
    if before.decision().count != 1:
        return told
    if after.game_number() > before.game_number():  # won a game of a match: cards regathered
        hand = [*before.hand(actor), action.card]
        shows = f"{seats.says(actor, 'show')} {seats.its(actor)} hand"
        if None in hand:  # the engine regathered the shown cards in the same step
            return [*told, f"{shows}, which makes fire, water and thunder."]
        return [*told, f"{shows}: {_listed(before, hand)}."]
    hand = after.hand(actor)
    told.append(f"{seats.says(actor, 'show')} {seats.its(actor)} hand: {_listed(after, hand)}.")
    if after.is_terminal() and after.last_winner() == actor:
        return told  # the result line says it
    told.append(f"No victory: {why_not(after, actor, hand)}.")
    return told


def _missing(
    state: GetGemState, seat: int, hand: Sequence[str | None]
) -> tuple[list[str], list[str]]:
    """The element gems a shown hand and the seat's element cards lack, and the gems of the
    hand."""
    gems = [str(state.card_type(c).gem) for c in hand if c is not None]
    have = set(gems) | set(state.elements(seat))
    return [g for g in ("fire", "water", "thunder") if g not in have], gems


def why_not(state: GetGemState, seat: int, hand: Sequence[str | None]) -> str:
    """Why a shown hand (and the seat's element cards) does not make fire, water and thunder."""
    missing, gems = _missing(state, seat, hand)
    rainbows = gems.count("rainbow")
    character = state.character(seat)
    priest = character is not None and state.character_card(character).ability == "priest"
    text = f"no {' or '.join(missing)} gem"
    if rainbows and "curse" in gems and not priest:
        return text + "; the Curse Gem voids the Rainbow Gem"
    if rainbows:
        return text + f"; {count(rainbows, 'Rainbow Gem')} can stand in for only {rainbows}"
    return text


def _points(state: GetGemState, seats: Seats) -> str:
    return ", ".join(f"{seats.label(s)} {p}" for s, p in enumerate(state.scores()))


def result(state: GetGemState, seats: Seats) -> str:
    """Who won and why: fire, water and thunder shown, the match's points, or the turn cap."""
    winners = state.winners()
    if len(winners) == 1 and state.last_winner() == winners[0]:
        if state.options.match:
            return (
                f"Game over: {seats.says(winners[0], 'win')} the match ({_points(state, seats)})."
            )
        missing, _ = _missing(state, winners[0], state.hand(winners[0]))
        rainbow = f", a Rainbow Gem standing in for {listed(missing)}" if missing else ""
        return (
            f"Game over: {seats.says(winners[0], 'win')}, showing fire, water and thunder "
            f"at the end of a declaration{rainbow}."
        )
    shared = listed([seats.label(s) for s in winners])
    cap = f"the turn cap ({state.options.turn_cap} turns)"
    if state.options.match:
        return f"Game over at {cap}: the most points, {_points(state, seats)}; {shared} win."
    return f"Game over at {cap}: a draw between {shared}."


def is_reaction(state: GetGemState) -> bool:
    """Whether the decision answers another seat's card (asked with a countdown at a table)."""
    return state.decision().kind == "window"
