"""Terminal rendering of rpg-battle: the board, prompts, help and the log's sentences."""

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cli.look import Seen
from cli.menus import ARROW
from cli.views import RESHUFFLED, Drew, Told, reshuffled
from cli.wording import Seats, count, listed, sentence
from p2pcards.engine import Action
from p2pcards.games.rpg_battle import RpgBattleState
from p2pcards.games.rpg_battle.actions import Discard, EndTurn, Pass, Pick, Play, React, Take
from p2pcards.games.rpg_battle.cards import CardType
from p2pcards.history import Event
from p2pcards.zones import Deal

HELP = """\
Your characters act left to right; each may play one card or pass.
Attacks deal STR x the card's power; heals give MAG x its power (never above max HP;
a knocked-out character comes back only with Revive). Dodge and Counter are Quick
Actions: you are asked about them when one of your characters is attacked (Dodge: no
damage; Counter: the attacker takes the damage instead). When every character of a
seat is knocked out, that seat is out; the last with a character standing wins.
At the end of your turn, draw 1 card, or draw back up to 5 if you hold 3 or fewer.
`p2pcards rules rpg-battle` has the whole rulebook and our choices."""


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


def _held(state: RpgBattleState, seat: int) -> list[str | None]:
    """A hand in the order of the menus (the card list's), not the order drawn."""
    return sorted(state.hand(seat), key=lambda c: state.card_type(c).line if c else 0)


def board(state: RpgBattleState, seats: Seats) -> RenderableType:
    """The whole table as one renderable: seats and their characters, piles, your hand."""
    you = seats.you
    decision = state.decision()
    table = Table(title=f"Round {state.round()}", expand=False, show_lines=False)
    table.add_column("seat", no_wrap=True)
    table.add_column("character", no_wrap=True)
    table.add_column("HP", justify="right")
    table.add_column("", no_wrap=True)
    table.add_column("STR", justify="right")
    table.add_column("MAG", justify="right")
    table.add_column("hand", justify="right")
    for seat in range(state.num_players):
        marker = "▶ " if seat == state.turn_seat() and decision.kind != "over" else "  "
        label = Text(marker + seats.on_board(seat))  # a name is text, never markup
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
                table.add_row(row_label, name, "KO", Text("knocked out", style="red"),
                              str(card.str), str(card.mag), cards)  # fmt: skip
            else:
                table.add_row(row_label, name, f"{hp}/{card.hp}", hp_bar(hp, card.hp),
                              str(card.str), str(card.mag), cards)  # fmt: skip
    piles = Text(f"deck {state.deck_size()}   discard {len(state.discard_pile())}")
    if state.discard_pile():
        piles += Text(f" (top: {_card(state, state.discard_pile()[-1])})", style="dim")
    parts: list[RenderableType] = [table, piles]
    if you is not None:
        hand = [_card(state, c) for c in _held(state, you)]
        parts.append(Text("your hand: ", style="bold") + Text(", ".join(hand) or "(empty)"))
    return Group(*parts)


def _printed(card: CardType) -> list[str]:
    """An action card as printed: its effect and power, and its text."""
    quick = "Quick Action, " if card.quick else ""
    return [f"{quick}{card.effect.replace('-', ' ')}, power {card.power}", card.text]


def cards_seen(state: RpgBattleState, seats: Seats) -> list[Seen]:
    """What `i` may show: every character at the table (all are face up), your hand, the
    discard pile."""
    out: list[Seen] = []
    for seat in range(state.num_players):
        for character in state.characters(seat):
            c = state.stats(character)
            hp = state.hp(character)
            now = "knocked out" if hp == 0 else f"now {hp}/{c.hp} HP"
            details = [f"character: HP {c.hp}, STR {c.str}, MAG {c.mag}", now]
            out.append(Seen(c.name, f"{seats.whose(seat)} character", details))
    if seats.you is not None:
        for card in dict.fromkeys(c for c in _held(state, seats.you) if c is not None):
            copies = sum(1 for c in state.hand(seats.you) if c == card)
            where = "your hand" + (f" ({copies} copies)" if copies > 1 else "")
            out.append(Seen(_card(state, card), where, _printed(state.card_type(card))))
    for card in dict.fromkeys(state.discard_pile()):
        out.append(Seen(_card(state, card), "the discard pile", _printed(state.card_type(card))))
    return out


def prompt(state: RpgBattleState, seats: Seats) -> str:
    """The question the current decision asks, in words."""
    d = state.decision()
    if d.kind == "pick":
        return "Draft a character:"
    if d.kind == "play":
        return f"{sentence(_who(state, d.character or '', seats))} acts. Play a card or pass:"
    if d.kind == "react":
        attacker = sentence(_who(state, d.attacker or "", seats))
        target = _who(state, d.character or "", seats)
        return f"{attacker} attacks {target} for {d.damage} damage. Answer with a Quick Action?"
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


def _moved(action: Play) -> int | None:
    """An Absorb's amount (rules.md §10; None before the rules name one)."""
    amount: int | None = getattr(action, "amount", None)
    return amount


def _describe_play(state: RpgBattleState, action: Play) -> str:
    """'Attack III → Vex (seat 1, 13/13): 9 damage' and the like."""
    return ARROW.join(choice_path(state, action)).replace(f"{ARROW}[dim]", ": [dim]")


def choice_path(state: RpgBattleState, action: Action) -> tuple[str, ...]:
    """A play as the card, then its target, then (an Absorb) the damage it moves; any other
    decision is one line."""
    if not isinstance(action, Play):
        return (describe_choice(state, action),)
    card = state.card_type(action.card)
    actor = state.stats(state.decision().character or "")
    if action.target is not None:
        t = state.stats(action.target)
        owner = state.owner(action.target)
        whose = "yours" if owner == state.decision().seat else f"seat {owner}"
        aim = f"{t.name} ({whose}, {state.hp(action.target)}/{t.hp})"
    elif action.seat is not None:
        aim = f"seat {action.seat} ({state.hand_size(action.seat)} cards)"
    elif card.effect in AIMED:
        # Offered once when nothing fits (rules.md §10): say so, not what the card could do.
        return (
            f"{card.name}: [dim]nothing to act on; played to no effect, it leaves your hand[/]",
        )
    else:
        aim = ""
    power = card.power
    moved = _moved(action)
    effect = {
        "attack": f"{actor.str * power} damage",
        "absorb": f"moves {moved} damage to {actor.name}" if moved else card.text,
        "attack-all": f"{actor.str * power} damage to each opposing character",
        "heal": f"heals up to {actor.mag * power}",
        "heal-all": f"heals each of yours up to {actor.mag * power}",
        "revive": f"back with {actor.mag * power} HP at most",
    }.get(card.effect, card.text)
    if not aim:
        return (f"{card.name}: [dim]{effect}[/]",)
    if moved:  # an amount of its own: chosen after the character it comes from
        return (card.name, aim, f"[dim]{effect}[/]")
    return (card.name, f"{aim}: [dim]{effect}[/]")


def _who(state: RpgBattleState, character: str, seats: Seats) -> str:
    """'your Kalen', "seat 2's Vex": a character by its owner."""
    owner = state.owner(character)
    return f"{seats.whose(owner)} {_name(state, character)}" if owner is not None else "?"


NO_EFFECT_IF_NO_CHANGE = ("heal", "heal-all", "absorb", "revive")
AIMED = ("attack", "heal", "absorb", "revive", "discard", "steal")  # played at someone


def narrate(
    before: RpgBattleState, event: Event, after: RpgBattleState, seats: Seats
) -> list[Told]:
    """A step in sentences, as `seats.you` may know it: the move, then what it did to every
    character's HP (hits, Counters, heals, KOs), who is out, and the result at the end."""
    d, action, actor = before.decision(), event.action, event.actor
    told: list[Told] = []
    changes = _hp_changes(before, after, seats)
    if isinstance(action, Pick):
        told.append(f"{seats.says(actor, 'draft')} {_name(before, action.character)}.")
    elif isinstance(action, Play):
        line = _play_sentence(before, action, seats)
        quiet = not changes and not line.endswith("does nothing.")
        if quiet and before.card_type(action.card).effect in NO_EFFECT_IF_NO_CHANGE:
            line += " It has no effect."
        told.append(line)
    elif isinstance(action, React):
        target, attacker = _who(before, d.character or "", seats), _name(before, d.attacker)
        card = _card(before, action.card)
        if before.card_type(action.card).effect == "counter":
            told.append(
                f"{target} counters with {card}: the {d.damage} damage goes back to {attacker}."
            )
        else:
            told.append(f"{target} dodges {attacker}'s attack with {card}: no damage.")
    elif isinstance(action, Pass) and d.kind == "play":  # (taking a hit: the HP line says it)
        told.append(f"{_who(before, d.character or '', seats)} passes.")
    elif isinstance(action, Discard):
        told.append(f"{seats.says(actor, 'discard')} {_card(before, action.card)}.")
    elif isinstance(action, EndTurn):
        told.append(f"{seats.says(actor, 'end')} the turn.")
    elif isinstance(action, Deal):
        told.append(Drew(event.to if event.to is not None else d.seat, _known(before, action.card)))
    elif isinstance(action, Take):
        told.append(_take_sentence(before, action, event, seats))
    told.extend(changes)
    told.extend(
        f"{seats.says(seat, 'be')} out of the game: every character knocked out."
        for seat in range(before.num_players)
        if seat in before.active_seats() and seat not in after.active_seats()
        and before.characters(seat) and not after.is_terminal()
    )  # fmt: skip
    if reshuffled(before, after):
        told.append(RESHUFFLED)
    if after.is_terminal() and not before.is_terminal():
        told.append(result(after, seats))
    elif _turn_begins(before, after):
        told.append(seats.turn(after.turn_seat(), f"round {after.round()}"))
    return told


def _turn_begins(before: RpgBattleState, after: RpgBattleState) -> bool:
    """Whether a seat's turn began with this step (the draft's picks are no turns)."""
    turn = (after.turn_seat(), after.round())
    return turn != (before.turn_seat(), before.round()) and after.decision().kind != "pick"


def _known(state: RpgBattleState, card: str | None) -> str | None:
    return None if card is None else _card(state, card)


def _play_sentence(before: RpgBattleState, action: Play, seats: Seats) -> str:
    """ "seat 1's Vex plays Attack III on your Kalen (12 damage)."'"""
    d = before.decision()
    card = before.card_type(action.card)
    actor = before.stats(d.character or "")
    text = f"{_who(before, d.character or '', seats)} plays {card.name}"
    aimed = action.target is not None or action.seat is not None
    if not aimed and card.effect in AIMED:
        return text + " at no one: it does nothing."
    if action.target == d.character:
        text += " on itself"
    elif action.target is not None:
        text += f" on {_who(before, action.target, seats)}"
    if action.seat is not None:
        text += f" against {seats.label(action.seat)}"
    if card.effect == "attack":
        text += f" ({actor.str * card.power} damage)"
    elif card.effect == "attack-all":
        text += f" ({actor.str * card.power} damage to each opposing character)"
    elif card.effect == "absorb" and _moved(action):
        text += f", moving {_moved(action)} damage to {actor.name}"
    elif card.effect == "discard" and action.seat is not None:
        text += f": {seats.label(action.seat)} must discard {count(card.power, 'card')}"
    return text + "."


def _take_sentence(before: RpgBattleState, action: Take, event: Event, seats: Seats) -> str:
    """'seat 1 takes a card from seat 2', 'you take seat 2's Dodge', 'seat 1 takes your Heal'."""
    thief, victim = event.to, before.chance_move().source
    assert thief is not None and victim is not None
    if action.card is None:
        return f"{seats.says(thief, 'take')} a card from {seats.label(victim)}."
    return f"{seats.says(thief, 'take')} {seats.whose(victim)} {_card(before, action.card)}."


def _hp_changes(before: RpgBattleState, after: RpgBattleState, seats: Seats) -> list[Told]:
    """What a step did to each character's HP, in seat order."""
    told: list[Told] = []
    for seat in range(before.num_players):
        for c in before.characters(seat):
            was, now = before.hp(c), after.hp(c)
            who = _who(before, c, seats)
            if now == 0 < was:
                told.append(f"{who} is knocked out ({was} → 0 HP).")
            elif now < was:
                told.append(f"{who} takes {was - now} damage ({was} → {now} HP).")
            elif was == 0 < now:
                told.append(f"{who} is revived with {now} HP.")
            elif now > was:
                told.append(f"{who} heals {now - was} ({was} → {now} HP).")
    return told


def result(state: RpgBattleState, seats: Seats) -> str:
    """Who won and why: the last with a character standing, or the round cap's tie-break."""
    winners = state.winners()
    wins = (
        seats.says(winners[0], "win")
        if len(winners) == 1
        else f"{listed([seats.label(s) for s in winners])} share the win"
    )
    if len(state.active_seats()) > 1:
        return (
            f"Game over at the round cap ({state.options.round_cap} rounds): {wins} on the "
            "tie-break, most characters standing, then most HP."
        )
    return f"Game over: {wins}, the last with a character standing."


def is_reaction(state: RpgBattleState) -> bool:
    """Whether the decision is an answer to an attack (asked with a countdown at a table)."""
    return state.decision().kind == "react"
