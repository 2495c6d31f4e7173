"""Positions of Rise of the Guys built through the real rules: legal decks padded around the
cards a test needs, the dealer told which card each draw gives (`chance_outcome_for`), and
plays found among the legal actions, so that a test reaches its position the way a game
does and nothing is poked into the state."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from chance_helpers import numbered

from p2pcards import games
from p2pcards.engine import Action, State
from p2pcards.games.rise_of_the_guys import GuysGame, GuysState
from p2pcards.games.rise_of_the_guys.actions import PASS, Mulligan, Play, Reveal

GAME = games.load("rise-of-the-guys")
assert isinstance(GAME, GuysGame)
DB = GAME.db


def deck(*cards: str) -> dict[str, int]:
    """A legal 40-card deck holding `cards` (repeats counted), padded with cards of the same
    classes (at most two), in database order."""
    counts = Counter(cards)
    classes = sorted({c for card in counts for c in DB.by_id[card].classes})
    assert len(classes) <= 2, f"a deck has at most two classes: {classes}"
    if len(classes) < 2:
        classes = sorted({*classes, "madlad"} if "madlad" not in classes else {*classes, "comrade"})
    for card in DB.deck_cards:
        if sum(counts.values()) >= 40:
            break
        if set(card.classes) <= set(classes):
            counts[card.id] += max(0, min(4 - counts[card.id], 40 - sum(counts.values())))
    assert sum(counts.values()) == 40
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
        """Hands of up to five cards each (the rest of the first five is whatever the deck
        gives first); `more0`/`more1` are cards the decks also hold, to be drawn later."""
        hands = [list(hand0), list(hand1)]
        extra = [list(more0), list(more1)]
        self.state: GuysState = GAME.new_initial_state(
            2, decks=[deck(*hands[s], *extra[s]) for s in (0, 1)], round_cap=round_cap
        )
        self.upcoming: list[list[str]] = hands
        self.numbers: list[int] = []
        self.hold = False
        self.steps: list[tuple[State, Action]] | None = None  # set to a list to keep them
        self.settle()
        for _ in (0, 1):  # both keep their hands
            self.act(Mulligan(0))

    def draws(self, seat: int, *cards: str) -> None:
        """The next cards `seat` draws (or looks at) are these, in order."""
        self.upcoming[seat].extend(cards)

    def chance(self, *numbers: int) -> None:
        """The next rolls (a random target) and random picks (a position in a hand) give
        these numbers, in order."""
        self.numbers.extend(numbers)

    def settle(self) -> None:
        """Deal every pending chance step: a card the test asked for, else the first the
        dealer may give; rolls and random picks the numbers the test asked for, else 0 (or,
        with `hold` set, they wait for the test)."""
        st = self.state
        while st.is_chance_node():
            move = st.chance_move()
            queue = self.upcoming[move.to] if move.to in (0, 1) else []
            if move.kind in ("deal", "look") and queue:
                self.apply(st.chance_outcome_for(queue.pop(0)))
            elif move.kind in ("roll", "take") and self.numbers:
                self.apply(numbered(st, self.numbers.pop(0)))
            elif move.kind in ("roll", "take") and self.hold:
                return
            else:
                self.apply(st.chance_outcomes()[0][0])

    def act(self, action: Action) -> None:
        """Apply a decision through the one validation path, then deal what follows."""
        self.apply(action)
        self.settle()

    def apply(self, action: Action) -> None:
        """Apply one step, kept (with the state before it) in `steps` if it is a list."""
        if self.steps is not None:
            self.steps.append((self.state.clone(), action))
        self.state.apply_action(action)

    def slot(self, card: str, zone: str | None = None) -> int:
        """The slot of a card (the first copy), in `zone` if given, else on the board."""
        for slot, place, name, _ in self.state.slots():
            if name == card and (place == zone if zone else place.startswith("lane:")):
                return slot
        raise AssertionError(f"no {card} in {zone or 'play'}")

    def answer(self, action: Action) -> None:
        """Answer the ability's question, if it asks one (a lone candidate is taken without
        asking: line 159, an action that can be performed must be)."""
        if self.state.ask() is not None:
            self.act(action)

    def play(
        self, card: str, lane: int | None = None, host: str | None = None, *, enhanced: bool = False
    ) -> Play:
        """The current seat plays `card` from hand (to `lane`, on the Guy `host`)."""
        seat = self.state.current_player()
        slot = self.slot(card, f"hand:{seat}")
        host_slot = None if host is None else self.slot(host)
        for action in self.state.legal_actions():
            if (
                isinstance(action, Play)
                and action.card == card
                and action.lane == lane
                and action.host == host_slot
                and action.enhanced == enhanced
            ):
                played = Play(slot, card, lane, host_slot, enhanced, action.face_down)
                self.act(played)
                return played
        raise AssertionError(f"{card} cannot be played like that: {self.state.legal_actions()}")

    def pass_phase(self) -> None:
        """The current seat passes (and any face-down card is revealed, as it must be)."""
        self.act(PASS)
        self.reveal_all()

    def reveal_all(self) -> None:
        st = self.state
        while st.phase() == "reveal" and not st.is_terminal() and st.ask() is None:
            (action,) = st.legal_actions()
            assert isinstance(action, Reveal)
            self.act(action)

    def to_combat(self) -> None:
        """Pass the rest of this turn's play phases: reveals, combat and the end of turn run."""
        turn = self.state.turn()
        while self.state.turn() == turn and not self.state.is_terminal():
            assert self.state.ask() is None, f"a choice is pending: {self.state.ask()}"
            self.pass_phase()

    def to_turn(self, turn: int) -> None:
        """Pass every phase until turn `turn` begins (its Leading Phase)."""
        while self.state.turn() < turn and not self.state.is_terminal():
            self.pass_phase()

    def guy(self, seat: int, lane: int) -> str | None:
        """The card in a seat's lane (None if empty)."""
        slot = self.state.lane_guy(seat, lane)
        return None if slot < 0 else self.state.card_at(slot)


def react_to(t: Table, turn: int, *plays: tuple[str, int]) -> None:
    """Reach `turn`, whose Leading Player plays `plays` (card, lane) and passes."""
    t.to_turn(turn)
    for card, lane in plays:
        t.play(card, lane)
    t.act(PASS)


def first_lane_decides() -> Table:
    """Turn 5 at its last pass before combat, both players at 2 life: seat 0's Mr. Doctor
    (attack 3) unopposed in lane 1, seat 1's Mr. Doctor and Robutt (attack 1) unopposed in
    lanes 2 and 3. Lane 1 fights first (line 91) and brings seat 1 to 0 or less."""
    t = Table(["mr-doctor"], ["mr-doctor", "robutt"])
    t.to_turn(5)  # seat 0 leads
    t.play("mr-doctor", 0)
    t.act(PASS)
    t.play("mr-doctor", 1)
    t.play("robutt", 2)
    t.act(PASS)
    t.state._life[:] = [2, 2]  # the life two players have after a long game, set at once
    return t
