"""Positions of Gammasphere built through the real rules: legal decks of the cards a test
needs padded with Pylons, the dealer told which card each draw gives, and plays found among
the legal actions, so that a test reaches its position the way a game does."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from chance_helpers import numbered

from p2pcards import games
from p2pcards.engine import Action, State
from p2pcards.games.gammasphere import GAME, GammaState
from p2pcards.games.gammasphere.actions import END, Attack, Play

assert games.load("gammasphere") is GAME  # the registered game is this one
DB = GAME.db


def deck(*cards: str) -> dict[str, int]:
    """A legal 40-card deck holding `cards` (repeats counted), the rest Pylons."""
    counts = Counter(cards)
    counts["pylon"] += 40 - sum(counts.values())
    return dict(counts)


class Table:
    """A game between two seats whose hands and draws the test chooses."""

    def __init__(
        self,
        hand0: Iterable[str] = (),
        hand1: Iterable[str] = (),
        *,
        more0: Iterable[str] = (),
        more1: Iterable[str] = (),
        round_cap: int | None = None,
    ) -> None:
        """Opening hands of up to seven chosen cards each (Pylons fill the rest);
        `more0`/`more1` are cards the decks also hold, to be drawn later (`draws`)."""
        hands = [list(hand0), list(hand1)]
        extra = [list(more0), list(more1)]
        self.state: GammaState = GAME.new_initial_state(
            2, decks=[deck(*hands[s], *extra[s]) for s in (0, 1)], round_cap=round_cap
        )
        self.upcoming: list[list[str]] = [h + ["pylon"] * (7 - len(h)) for h in hands]
        self.numbers: list[int] = []
        self.hold = False
        self.steps: list[tuple[State, Action]] | None = None  # set to a list to keep them
        self.settle()

    def draws(self, seat: int, *cards: str) -> None:
        """The next cards `seat` draws are these, in order."""
        self.upcoming[seat].extend(cards)

    def chance(self, *numbers: int) -> None:
        """The next rolls (a random target) and random picks (a position in a hand) give
        these numbers, in order."""
        self.numbers.extend(numbers)

    def settle(self) -> None:
        """Deal every pending chance step: a card the test asked for, else a Pylon if the
        deck has one, else the first the dealer may give; rolls and random picks the numbers
        the test asked for, else 0 (or, with `hold` set, they wait for the test)."""
        st = self.state
        while st.is_chance_node():
            move = st.chance_move()
            if move.kind in ("roll", "take"):  # no draw: the queues of cards stay as they are
                if not self.numbers and self.hold:
                    return
                self.apply(numbered(st, self.numbers.pop(0) if self.numbers else 0))
                continue
            seat = move.to
            queue = self.upcoming[seat]
            card = queue.pop(0) if queue else "pylon"
            outcomes = [o for o, _ in st.chance_outcomes()]
            wanted = st.chance_outcome_for(card)
            self.apply(wanted if wanted in outcomes else outcomes[0])

    def act(self, action: Action) -> None:
        """Apply a decision through the one validation path, then deal what follows."""
        self.apply(action)
        self.settle()

    def apply(self, action: Action) -> None:
        """Apply one step, kept (with the state before it) in `steps` if it is a list."""
        if self.steps is not None:
            self.steps.append((self.state.clone(), action))
        self.state.apply_action(action)

    def slot(self, card: str, zone: str) -> int:
        """The slot of the first copy of `card` in `zone`."""
        for slot, place, name, _ in self.state.slots():
            if name == card and place == zone:
                return slot
        raise AssertionError(f"no {card} in {zone}")

    def play(self, card: str, *, defense: bool = False, host: int | None = None) -> int:
        """The current seat plays `card` from its hand; the slot it played."""
        seat = self.state.current_player()
        slot = self.slot(card, f"hand:{seat}")
        action = Play(slot, card, defense, host)
        assert action in self.state.legal_actions(), f"{action} is not legal now"
        self.act(action)
        return slot

    def pylons(self, n: int) -> None:
        """The current seat constructs `n` Pylons from its hand."""
        for _ in range(n):
            self.play("pylon")

    def attack(self, attacker: int, target: int) -> None:
        """The current seat attacks."""
        self.act(Attack(attacker, target))

    def end(self) -> None:
        """The current seat ends its turn."""
        self.act(END)

    def to_turn(self, turn: int) -> None:
        """End turns until turn `turn` begins."""
        while self.state.turn() < turn and not self.state.is_terminal():
            self.end()
