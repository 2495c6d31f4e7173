"""Builders of GETGEM positions for the rules tests, through the public engine API only.

The rulebook (../shared/seeds/001_8f4b08e2e7b8d5ce.txt) names the card kinds but not their
quantities, which are ours (rules.md, "Composition"): QTY is read straight from cards.toml,
not through the engine's parser. Chance nodes are answered by the test: `Deal(card)` decides
exactly which card is drawn, `Take(position, card)` which card a random take pulls.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from typing import Any, TypeVar

from p2pcards import games
from p2pcards.engine import Action
from p2pcards.games.getgem import GetGemState
from p2pcards.games.getgem.actions import Pass, Take
from p2pcards.zones import Deal

A = TypeVar("A", bound=Action)

GAME = games.load("getgem")
_TOML = tomllib.loads(
    resources.files("p2pcards.games.getgem").joinpath("cards.toml").read_text("utf-8")
)
QTY: dict[str, int] = {c["id"]: c["qty"] for c in _TOML["card"]}
NUMBERS: dict[str, int] = _TOML["rules"]
DEAL = 4  # rulebook line 26: "4枚ずつ配ります"
HAND_LIMIT = 6  # rulebook line 57: "6枚以下"

# Cards that pad hands and draws: action cards whose plays a test never makes by accident
# (it always names its action); gems would change what a hand can declare.
FILLERS = ("full-exchange", "excavation-arm", "steal", "push-peep", "push-barrier")


def new_state(seats: int = 2, **options: Any) -> GetGemState:
    state = GAME.new_initial_state(seats, **options)
    assert isinstance(state, GetGemState)
    return state


def filler(state: GetGemState) -> str:
    """A card still in the deck (the complete state's unseen cards), fillers first."""
    unseen = state.unseen_cards()
    for card in (*FILLERS, *QTY):
        if unseen.get(card, 0) > 0:
            return card
    raise AssertionError("no card left to deal")


def setup(
    hands: Mapping[int, Sequence[str]] | None = None,
    seats: int = 2,
    draw: str | None = None,
    **options: Any,
) -> GetGemState:
    """A table after the opening deal and the first player's draw: seat i holds hands[i]
    (padded with fillers up to 4) plus, for the first player, `draw`. The first player is to
    act in its action phase."""
    hands = hands or {}
    state = new_state(seats, **options)
    first = state.first_player()
    wanted = {s: list(hands.get(s, ())) for s in range(seats)}
    spare = Counter(QTY)
    spare.subtract(c for cards in wanted.values() for c in cards)
    spare.subtract([draw] if draw else [])
    assert all(n >= 0 for n in spare.values()), f"more cards than cards.toml has: {spare}"
    for s in range(seats):
        while len(wanted[s]) < DEAL:
            card = next(c for c in (*FILLERS, *QTY) if spare[c] > 0)
            spare[card] -= 1
            wanted[s].append(card)
    for round_ in range(DEAL):
        for i in range(seats):
            seat = (first + i) % seats
            assert state.decision().receiver == seat
            state.apply_action(Deal(wanted[seat][round_]))
    deal(state, [draw or filler(state)])
    assert state.decision().kind == "action" and state.current_player() == first
    return state


def apply(state: GetGemState, *actions: Action) -> None:
    """Apply actions in order."""
    for action in actions:
        state.apply_action(action)


def deal(state: GetGemState, cards: Iterable[str]) -> None:
    """Answer the next chance nodes (draws) with these cards."""
    for card in cards:
        assert state.decision().kind == "deal", f"expected a draw to deal {card}"
        state.apply_action(Deal(card))


def take(state: GetGemState, position: int) -> str:
    """Answer a random take: the card at `position` of the victim's hand is pulled."""
    decision = state.decision()
    assert decision.kind == "take" and decision.target is not None
    card = state.hand(decision.target)[position]
    assert card is not None
    state.apply_action(Take(position, card))
    return card


def end_turn(state: GetGemState, draw: str | None = None) -> None:
    """The seat on turn ends its action phase (no declaration); the end phase runs with every
    declarer taking back its first card and the hand limit discarding the first choice; the
    next seat draws `draw` (or a filler)."""
    assert state.decision().kind == "action"
    state.apply_action(Pass())
    while state.decision().kind in ("take-back", "limit"):
        state.apply_action(state.legal_actions()[0])
    if state.decision().kind == "deal":
        deal(state, [draw or filler(state)])


def accept(state: GetGemState) -> None:
    """The chosen seat answers a Barrier window with a pass: the effect goes ahead."""
    assert state.decision().kind == "window"
    state.apply_action(Pass())


def slots_for(
    state: GetGemState, cards: Sequence[str | None], seat: int | None = None
) -> list[int]:
    """The hand slots an action of `seat` (by default the deciding seat) names for these cards,
    as the engine's menu does: each card's copies the most seats know first, then hand order;
    the hand's first unused slot for a card it holds no (more) copy of, so that the engine
    refuses the card, not the slot."""
    seat = state.current_player() if seat is None else seat
    slots, held = state.hand_slots(seat), state.hand(seat)
    order = sorted(range(len(slots)), key=lambda i: -state.known_to(slots[i]).bit_count())
    chosen: list[int] = []
    for card in cards:
        free = [slots[i] for i in order if slots[i] not in chosen]
        match = [slot for slot in free if card is None or held[slots.index(slot)] == card]
        chosen.append((match or free or [0])[0])
    return chosen


def named(state: GetGemState, cls: type[A], *values: Any, seat: int | None = None) -> A:
    """The action `cls` with `values` for its fields but its slots, in order, naming the slots
    the engine's menu would: the menu's own action when it lists one equal in every other
    field, else the slots `slots_for` gives (for an action the engine should refuse)."""
    fields = [f for f in dataclasses.fields(cls) if f.name not in ("slot", "slots")]
    given = {f.name: v for f, v in zip(fields, values, strict=False)}
    for f in fields[len(values) :]:
        given[f.name] = f.default
    wanted = {"kind": cls.kind, **given}
    if seat is None and not state.is_chance_node() and not state.is_terminal():
        for action in state.legal_actions():
            shape = {k: v for k, v in action.to_json().items() if k not in ("slot", "slots")}
            if isinstance(action, cls) and shape == wanted:
                return action
    if "cards" in given:
        cards = given["cards"].split(",") if given["cards"] else []
        slots = slots_for(state, cards, seat)
        return cls(**given, slots=",".join(map(str, slots)))  # type: ignore[call-arg]
    slot = slots_for(state, [given["card"]], seat)[0]
    return cls(slot=slot, **given)  # type: ignore[call-arg]
