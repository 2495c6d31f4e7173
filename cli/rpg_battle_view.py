"""Terminal rendering of rpg-battle: the board, prompts and a public log of moves."""

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cli.wording import says, seat_label
from p2pcards.engine import Action
from p2pcards.games.rpg_battle import RpgBattleState
from p2pcards.games.rpg_battle.actions import Deal, Discard, EndTurn, Pass, Pick, Play, React, Take


def _name(state: RpgBattleState, character: str | None) -> str:
    return state.stats(character).name if character else "?"


def _card(state: RpgBattleState, card: str | None) -> str:
    if card is None:
        return "a hidden card"
    return state.card_type(card).name


def hp_bar(hp: int, max_hp: int, width: int = 12) -> Text:
    """A coloured bar of remaining HP."""
    filled = round(width * hp / max_hp)
    colour = "green" if hp * 2 > max_hp else "yellow" if hp * 4 > max_hp else "red"
    return Text("█" * filled, style=colour) + Text("░" * (width - filled), style="dim")


def board(state: RpgBattleState, you: int | None, log: Sequence[str]) -> RenderableType:
    """The whole table as one renderable: characters, hands, piles, last moves."""
    decision = state.decision()
    table = Table(title=f"Round {state.round()}", expand=False, show_lines=False)
    table.add_column("seat")
    table.add_column("character")
    table.add_column("HP", justify="right")
    table.add_column("", no_wrap=True)
    table.add_column("STR", justify="right")
    table.add_column("MAG", justify="right")
    table.add_column("cards", justify="right")
    for seat in range(state.num_players):
        marker = "▶ " if seat == state.turn_seat() and decision.kind != "over" else "  "
        label = marker + seat_label(seat, you)
        chars: list[str | None] = [*state.characters(seat)] or [None]
        for i, c in enumerate(chars):
            row_label = label if i == 0 else ""
            cards = str(state.hand_size(seat)) if i == 0 else ""
            if c is None:
                table.add_row(row_label, "(drafting)", "", "", "", "", cards)
                continue
            card = state.stats(c)
            hp = state.hp(c)
            acting = decision.kind == "play" and decision.character == c
            name = Text(("→ " if acting else "") + card.name, style="bold" if acting else "")
            if hp == 0:
                table.add_row(row_label, name, "KO", Text("✗ knocked out", style="red"),
                              str(card.str), str(card.mag), cards)  # fmt: skip
            else:
                table.add_row(row_label, name, f"{hp}/{card.hp}", hp_bar(hp, card.hp),
                              str(card.str), str(card.mag), cards)  # fmt: skip
    piles = Text(f"deck {state.deck_size()}   discard {len(state.discard_pile())}")
    if state.discard_pile():
        piles += Text(f" (top: {_card(state, state.discard_pile()[-1])})", style="dim")
    parts: list[RenderableType] = [table, piles]
    if you is not None:
        hand = [_card(state, c) for c in state.hand(you)]
        parts.append(Text("your hand: ", style="bold") + Text(", ".join(hand) or "(empty)"))
    if log:
        parts.append(Panel("\n".join(log), title="last moves", expand=False))
    return Group(*parts)


def prompt(state: RpgBattleState) -> str:
    """The question the current decision asks, in words."""
    d = state.decision()
    if d.kind == "pick":
        return "Draft a character:"
    if d.kind == "play":
        return f"{_name(state, d.character)} acts. Play a card or pass:"
    if d.kind == "react":
        return (
            f"{_name(state, d.attacker)} attacks {_name(state, d.character)} for {d.damage} damage."
            " Answer with a Quick Action?"
        )
    if d.kind == "discard":
        left = "s" if d.count > 1 else ""
        return f"An opponent makes you discard {d.count} card{left}. Choose one:"
    return "End your turn:"


def describe_choice(state: RpgBattleState, action: Action) -> str:
    """A menu line for one of the person's legal actions."""
    if isinstance(action, Pick):
        c = state.stats(action.character)
        return f"{c.name:7} HP {c.hp:2}  STR {c.str}  MAG {c.mag}"
    if isinstance(action, Play):
        return _describe_play(state, action)
    if isinstance(action, React):
        return f"{_card(state, action.card)}"
    if isinstance(action, Discard):
        return f"discard {_card(state, action.card)}"
    if isinstance(action, EndTurn):
        return "draw back up to 5 cards" if action.refill else "draw 1 card"
    if isinstance(action, Pass):
        return "take the hit" if state.decision().kind == "react" else "pass"
    return str(action)


def _describe_play(state: RpgBattleState, action: Play) -> str:
    """'Attack III → Vex (seat 1, 13/13): 9 damage' and the like."""
    card = state.card_type(action.card)
    actor = state.stats(state.decision().character or "")
    power = card.power
    text = card.name
    if action.target is not None:
        t = state.stats(action.target)
        owner = state.owner(action.target)
        whose = "yours" if owner == state.decision().seat else f"seat {owner}"
        text += f" → {t.name} ({whose}, "
        text += f"{state.hp(action.target)}/{t.hp})"
    elif action.seat is not None:
        text += f" → seat {action.seat} ({state.hand_size(action.seat)} cards)"
    effect = {
        "attack": f"{actor.str * power} damage",
        "attack-all": f"{actor.str * power} damage to each opposing character",
        "heal": f"heals up to {actor.mag * power}",
        "heal-all": f"heals each of yours up to {actor.mag * power}",
        "revive": f"back with {actor.mag * power} HP at most",
    }.get(card.effect, card.text)
    return f"{text}: [dim]{effect}[/]"


def describe_move(before: RpgBattleState, action: Action, you: int | None) -> str | None:
    """A log line for a move, as the person at seat `you` may see it (None: not worth a line)."""
    d = before.decision()
    who = seat_label(d.seat, you) if d.seat >= 0 else ""
    if isinstance(action, Pick):
        return f"{says(d.seat, you, 'draft')} {_name(before, action.character)}"
    if isinstance(action, Play):
        text = f"{_name(before, d.character)} ({who}) plays {_card(before, action.card)}"
        if action.target is not None:
            text += f" on {_name(before, action.target)}"
        if action.seat is not None:
            text += f" against {seat_label(action.seat, you)}"
        return text
    if isinstance(action, Pass):
        if d.kind == "react":
            return f"{_name(before, d.character)} takes {d.damage} damage"
        return f"{_name(before, d.character)} ({who}) passes" if d.kind == "play" else None
    if isinstance(action, React):
        return f"{_name(before, d.character)} ({who}) answers with {_card(before, action.card)}"
    if isinstance(action, Discard):
        return f"{says(d.seat, you, 'discard')} {_card(before, action.card)}"
    if isinstance(action, EndTurn):
        amount = "up to 5" if action.refill else "1"
        draw = "draw" if d.seat == you else "draws"
        return f"{says(d.seat, you, 'end')} the turn and {draw} {amount}"
    if isinstance(action, Take):
        thief, victim = d.receiver, d.victim
        assert thief is not None and victim is not None
        seen = action.card if you in (thief, victim) else None
        text = f"{says(thief, you, 'steal')} a card from {seat_label(victim, you)}"
        return text + (f": {_card(before, seen)}" if seen else "")
    if isinstance(action, Deal):
        return None  # draws are summarised by the end-of-turn line and hand sizes
    return str(action)


def is_reaction(state: RpgBattleState) -> bool:
    """Whether the decision is an answer to an attack (asked with a countdown at a table)."""
    return state.decision().kind == "react"
