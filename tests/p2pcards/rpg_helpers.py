"""Builders of rpg-battle positions for the rules tests, through the public engine API only.

The tables below are copied from the rulebook (../shared/seeds/003_cfa394b9cdefb20c.txt),
not read from the engine, so the tests check the engine's card data against the book.
Chance nodes are answered by the test: `Deal(card)` decides exactly which card is drawn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from p2pcards import games
from p2pcards.engine import Action, State
from p2pcards.games.rpg_battle import RpgBattleState
from p2pcards.games.rpg_battle.actions import Discard, EndTurn, Pass, Pick, Play, React
from p2pcards.zones import Deal

GAME = games.load("rpg-battle")
HAND_SIZE = 5  # rulebook line 30: "draw back up to a 5-card hand"

# rulebook lines 13-22: name -> (HP, STR, MAG)
CHARACTERS: dict[str, tuple[int, int, int]] = {
    "vex": (13, 4, 4),
    "kalen": (17, 3, 3),
    "anya": (23, 2, 2),
    "sera": (30, 1, 1),
    "gideon": (17, 4, 2),
    "mystra": (17, 2, 4),
    "sybil": (23, 1, 3),
    "thorne": (23, 3, 1),
}
MAX_HP = {name: stats[0] for name, stats in CHARACTERS.items()}
STR = {name: stats[1] for name, stats in CHARACTERS.items()}
MAG = {name: stats[2] for name, stats in CHARACTERS.items()}

# rulebook lines 36-59: card -> quantity (100 in all, line 34)
QTY: dict[str, int] = {
    "attack": 13,
    "attack-ii": 10,
    "attack-iii": 8,
    "attack-all": 9,
    "attack-all-ii": 3,
    "heal": 5,
    "heal-ii": 3,
    "heal-iii": 2,
    "heal-all": 2,
    "heal-all-ii": 1,
    "absorb": 4,
    "absorb-ii": 3,
    "absorb-iii": 2,
    "revive": 7,
    "revive-ii": 3,
    "discard": 4,
    "discard-ii": 2,
    "draw": 4,
    "draw-ii": 2,
    "steal": 3,
    "dodge": 7,
    "counter": 3,
}
QUICK = ("dodge", "counter")  # rulebook lines 58-59, the Quick Actions of line 30

# Cards that pad hands: Revive is playable only with a KO'd friend, so it stays quiet; then
# attacks, which are plentiful. Never a Quick Action, so a reaction window offers only Pass.
FILLERS = ("revive", "revive-ii", "attack", "attack-ii", "attack-iii", "attack-all")


def draft_order(lineups: Sequence[Sequence[str]]) -> list[str]:
    """The picks that give each seat its lineup when seats draft in turn 0, 1, ..., 0, 1, ..."""
    return [lineup[i] for i in range(len(lineups[0])) for lineup in lineups]


def setup(
    lineups: Sequence[Sequence[str]],
    hands: Mapping[int, Sequence[str]] | None = None,
    round_cap: int | None = None,
) -> State:
    """A table right after the opening deal: seat i drafted lineups[i] (left to right) and holds
    hands[i], padded with filler cards up to five. Seat 0's first character is to act."""
    hands = hands or {}
    state = GAME.new_initial_state(len(lineups), round_cap=round_cap)
    apply(state, *(Pick(name) for name in draft_order(lineups)))
    spare = Counter(QTY)
    spare.subtract(card for cards in hands.values() for card in cards)
    for seat in range(len(lineups)):
        cards = list(hands.get(seat, ()))
        while len(cards) < HAND_SIZE:
            filler = next(card for card in FILLERS if spare[card] > 0)
            spare[filler] -= 1
            cards.append(filler)
        deal(state, cards)
        assert sorted(state.hand(seat)) == sorted(cards)
    assert not state.is_chance_node()
    return state


def apply(state: State, *actions: Action) -> None:
    """Apply actions in order."""
    for action in actions:
        state.apply_action(action)


def deal(state: State, cards: Iterable[str]) -> None:
    """Answer the next chance nodes with these cards."""
    for card in cards:
        assert state.is_chance_node(), f"expected a chance node to deal {card}"
        state.apply_action(Deal(card))


def fill(state: State) -> None:
    """Answer every pending draw with filler cards (any card once the fillers run out)."""
    while state.is_chance_node():
        offered = [outcome for outcome, _ in state.chance_outcomes()]
        fillers = [Deal(card) for card in FILLERS if Deal(card) in offered]
        state.apply_action((fillers or offered)[0])


def slot_of(state: State, card: str, seat: int | None = None) -> int:
    """The hand slot an action of `seat` (by default the one deciding) names for `card`, as
    the engine's menu does: the copy the most seats know, the first of those; the hand's
    first slot when it holds no `card` (so that the engine refuses the card, not the slot)."""
    assert isinstance(state, RpgBattleState)
    seat = state.current_player() if seat is None else seat
    slots, cards = state.hand_slots(seat), state.hand(seat)
    held = [slot for slot, held in zip(slots, cards, strict=True) if held == card]
    if not held:
        return slots[0] if slots else 0
    return max(held, key=lambda slot: (state.known_to(slot).bit_count(), -slots.index(slot)))


def play_of(
    state: State,
    card: str,
    target: str | None = None,
    seat: int | None = None,
    amount: int | None = None,
) -> Play:
    """The acting character's play of `card` from its hand (`slot_of`), at `target` or `seat`."""
    return Play(slot_of(state, card), card, target, seat, amount)


def react_of(state: State, card: str, seat: int | None = None) -> React:
    """`seat`'s (by default the deciding seat's) answer to an attack with `card`."""
    return React(slot_of(state, card, seat), card)


def discard_of(state: State, card: str) -> Discard:
    """The deciding seat's discard of `card` from its hand."""
    return Discard(slot_of(state, card), card)


def play(state: State, card: str, target: str | None = None, seat: int | None = None) -> None:
    """The acting character plays `card` (at a character `target`, or at a `seat`)."""
    state.apply_action(play_of(state, card, target, seat))


def attack(state: State, card: str, target: str) -> None:
    """The acting character attacks `target`, whose owner takes the hit (passes)."""
    play(state, card, target)
    take_hits(state)


def take_hits(state: State) -> None:
    """Every pending reaction window is answered with Pass: the attacked take the damage."""
    while state.decision().kind == "react":
        state.apply_action(Pass())


def pass_until(state: State, character: str) -> None:
    """The seat on turn passes with its characters until `character` is to act."""
    while state.decision().character != character:
        assert state.decision().kind == "play", f"{character} never got to act"
        state.apply_action(Pass())


def end_turn(state: State, refill: bool = False, draws: Iterable[str] = ()) -> None:
    """Remaining characters pass, the turn ends (draw up to 5 or 1), draws are dealt."""
    while state.decision().kind == "play":
        state.apply_action(Pass())
    state.apply_action(EndTurn(refill))
    deal(state, draws)
    fill(state)


def hp_map(state: State) -> dict[str, int]:
    """Every drafted character's HP."""
    return {c: state.hp(c) for seat in range(state.num_players) for c in state.characters(seat)}
