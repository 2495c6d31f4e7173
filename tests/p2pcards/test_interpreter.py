"""The one ability interpreter (p2pcards/interpreter.py, DESIGN.md §10): seats are a number,
never a pair, and every word a game declares is carried by the interpreter or by the game's
own code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from p2pcards import interpreter
from p2pcards.abilities import Ability, Effect, Selector, Words
from p2pcards.answers import TargetPlayer
from p2pcards.games.gammasphere import cards as gamma_cards
from p2pcards.games.gammasphere import state as gamma_state
from p2pcards.games.rise_of_the_guys import cards as guys_cards
from p2pcards.games.rise_of_the_guys import state as guys_state
from p2pcards.zones import Step


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_seat_relations_hold_at_any_number_of_seats(n: int) -> None:
    """each_opponent, every_seat and left_of read for n seats: the opponents in turn order
    from your left, every seat once, the next seat."""
    for you in range(n):
        others = interpreter._relation(n, "table", "each_opponent", you)
        assert sorted(others) == [s for s in range(n) if s != you]
        assert others[0] == (you + 1) % n
        assert interpreter._relation(n, "table", "left_of", you) == ((you + 1) % n,)
        assert interpreter._relation(n, "table", "you", you) == (you,)
        assert interpreter._relation(n, "table", "every_seat", you) == tuple(range(n))
        first = interpreter._relation(n, "controller_first", "every_seat", you)
        assert first[0] == you and sorted(first) == list(range(n))


@pytest.mark.parametrize(
    ("words", "own"),
    [(guys_cards.WORDS, guys_state.OWN_VERBS), (gamma_cards.WORDS, gamma_state.OWN_VERBS)],
    ids=["rise-of-the-guys", "gammasphere"],
)
def test_every_declared_verb_is_carried_once(words: Words, own: frozenset[str]) -> None:
    """A verb a game declares is written once: in the interpreter for every game, or in the
    game's own code when only its board carries it, never both."""
    assert words.verbs <= interpreter.CORE_VERBS | own
    assert not interpreter.CORE_VERBS & own


def test_the_docs_say_which_game_supports_which_word() -> None:
    """docs/abilities.md's table of words is the games' declarations, word for word."""
    doc = (Path(__file__).parents[2] / "docs" / "abilities.md").read_text()
    rows = {}
    for line in doc.split("## One interpreter", 1)[1].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("kind", "---"):
            rows[cells[0]] = [set(re.findall(r"`([a-z_]+)`", c)) for c in cells[1:]]
    kinds = {"trigger": "triggers", "verb": "verbs", "value": "values"}
    for kind, (both, guys_only, gamma_only) in rows.items():
        if kind in kinds:
            guys, gamma = (getattr(w, kinds[kind]) for w in (guys_cards.WORDS, gamma_cards.WORDS))
        else:
            table = kind.removesuffix(" field")
            guys, gamma = guys_cards.WORDS.fields[table], gamma_cards.WORDS.fields[table]
        assert (both, guys_only, gamma_only) == (guys & gamma, guys - gamma, gamma - guys), kind
    assert len(rows) == 8


class Board:
    """A bare table for the interpreter at any number of seats: per seat a deck, a hand and
    a field (cards in play), cards of one kind each; chance steps and damage are recorded,
    not dealt. It implements what the paths tested here read of `interpreter.Table`."""

    def __init__(self, seats: int, abilities: list[tuple[Ability, ...]]) -> None:
        self.num_players = self._n = seats  # the interpreter reads `_n` (Table)
        facts = [interpreter.Facts(f"card-{k}", "guy") for k in range(len(abilities))]
        self._book = interpreter.CardBook.of(
            abilities, facts, {}, seat_order="table", hidden_in_play=False
        )
        self._frames: list[interpreter.Frame] = []
        self._listener = None  # nobody listens to its steps
        self._ask: interpreter.Ask | None = None
        self._current = 0
        self._ident: list[int] = []
        self._names = [f"{kind}:{s}" for s in range(seats) for kind in ("deck", "hand", "field")]
        self._zones: list[list[int]] = [[] for _ in self._names]
        self.steps: list[Step] = []
        self.hurt_players: list[int] = []

    def add(self, kind: int, zone: str) -> int:
        slot = len(self._ident)
        self._ident.append(kind)
        self._zones[self.zone(zone)].append(slot)
        return slot

    def zone(self, name: str) -> int:
        return self._names.index(name)

    def in_play(self, seat: int | None = None) -> list[tuple[int, list[int]]]:
        sides = range(self.num_players) if seat is None else (seat,)
        return [(s, self._zones[self.zone(f"field:{s}")]) for s in sides]

    def pool(self, seat: int, what: str) -> list[int]:
        return self._zones[self.zone(f"field:{seat}")]

    def controller(self, slot: int) -> int:
        return next(
            int(n.split(":")[1]) for n, z in zip(self._names, self._zones, strict=True) if slot in z
        )

    def face_down(self, slot: int) -> bool:
        return False

    def lane_of(self, slot: int) -> int:
        return -1

    def hurt(self, target: int, amount: int, source: int) -> None:
        self.hurt_players.append(interpreter.player(target))

    def _ask_chance(self, step: Step) -> None:
        self.steps.append(step)

    @property
    def _everyone(self) -> int:
        return (1 << self.num_players) - 1


def _played(effect: Effect) -> Ability:
    return Ability("played", (effect,))


def test_each_opponent_draws_in_turn_order_at_three_seats() -> None:
    """docs/abilities.md, "Seats": a draw for `each_opponent` is each opponent's, from the
    left of the controller, at any number of seats (no "other seat")."""
    board = Board(3, [(_played(Effect("draw", amount=1, who="each_opponent")),)])
    source = board.add(0, "field:1")
    for seat in range(3):
        board.add(0, f"deck:{seat}")
    interpreter.fire_played(board, source, 1)
    drawn = []
    while board._frames:
        interpreter.step(board)
        if board.steps:
            step = board.steps.pop()
            drawn.append(board._names[step.dest])
            interpreter.after_chance(board, step, 0)
    assert drawn == ["hand:2", "hand:0"]


def test_a_chosen_opponent_is_one_of_each_opponent_at_four_seats() -> None:
    """A `choose` among `player`s on the `each_opponent` side asks for one of the three other
    players (in turn order from the left), and the damage lands on the one chosen."""
    target = Selector(what="player", side="each_opponent")
    board = Board(4, [(_played(Effect("damage", amount=2, target=target)),)])
    source = board.add(0, "field:1")
    interpreter.fire_played(board, source, 1)
    interpreter.step(board)
    ask = board._ask
    assert ask is not None and ask.seat == 1
    menu = interpreter.ask_actions(board, ask)
    assert menu == [TargetPlayer(2), TargetPlayer(3), TargetPlayer(0)]
    interpreter.answer(board, ask, TargetPlayer(3))
    board._ask = None
    while board._frames:
        interpreter.step(board)
    assert board.hurt_players == [3]


def test_a_card_played_by_each_opponent_fires_a_watcher_at_three_seats() -> None:
    """`by = each_opponent`: a card played by any seat but the watcher's controller."""
    watcher = Ability("card_played", (Effect("damage", amount=1, target=Selector(ref="you")),),
                      by="each_opponent")  # fmt: skip
    board = Board(3, [(), (watcher,)])
    board.add(1, "field:0")
    for seat, fires in ((1, True), (2, True), (0, False)):
        played = board.add(0, f"field:{seat}")
        interpreter.fire_played(board, played, seat)
        assert len(board._frames) == fires, seat
        board._frames.clear()
