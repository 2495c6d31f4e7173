"""Positions of RPG Get! built through the real rules: decks padded around the cards a test
needs, the dealer told which card each draw gives, and every decision found among the legal
actions, so a test reaches its position as a game does and nothing is poked into the state."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from p2pcards.engine import Action
from p2pcards.games.rpg_get import GAME, RpgGetState
from p2pcards.games.rpg_get.actions import (
    PASS,
    Act,
    Attempt,
    Bank,
    Enlist,
    Equip,
    Oppose,
    Recruit,
    Start,
    slot_list,
)  # fmt: skip
from p2pcards.games.rpg_get.state import ACTIVE, BANK, BANK_LIMIT, DECK_SIZE, HAND, PARTY, Reason

DB = GAME.db
FILLER = "rockslide"
"""What the padding of a test deck is, and what a draw the test did not choose gives."""


def deck(*cards: str) -> dict[str, int]:
    """An 80-card deck holding `cards` (repeats counted), padded with the filler."""
    counts = Counter(cards)
    counts[FILLER] += DECK_SIZE - counts.total()
    assert counts[FILLER] >= 0, "a test deck holds at most 80 cards"
    return dict(counts)


class Table:
    """A game whose opening hands, draws and rolls the test chooses; every seat starts with
    the first card of its hand (a Character) and keeps the rest."""

    def __init__(
        self,
        hands: Sequence[Sequence[str]],
        *,
        more: Sequence[Sequence[str]] = (),
        first: int = 0,
        round_cap: int | None = None,
    ) -> None:
        seats = len(hands)
        extra = [list(m) for m in more] + [[] for _ in range(seats - len(more))]
        decks = [deck(*hands[s], *extra[s]) for s in range(seats)]
        self.state: RpgGetState = GAME.new_initial_state(seats, decks=decks, round_cap=round_cap)
        self.upcoming = [list(hand) for hand in hands]
        self.numbers = [first]
        self.settle()
        for _ in range(seats):
            seat = self.state.current_player()
            starter = hands[seat][0]
            self.act(self.find(lambda a, c=starter: isinstance(a, Start) and a.card == c))

    def draws(self, seat: int, *cards: str) -> None:
        """The next cards `seat` draws are these, in order."""
        self.upcoming[seat].extend(cards)

    def settle(self) -> None:
        """Deal every pending chance step: the card or number the test asked for, else the
        filler (or 0)."""
        st = self.state
        while st.is_chance_node():
            step, _ = st.chance_step()
            if step.kind == "roll":
                st.apply_action(
                    st.chance_outcome_for(None, self.numbers.pop(0) if self.numbers else 0)
                )
                continue
            seat = st.zone_owner(st._layout[step.source].name)
            assert seat is not None
            wanted = self.upcoming[seat].pop(0) if self.upcoming[seat] else FILLER
            st.apply_action(st.chance_outcome_for(wanted))

    events_window = False
    """Whether the test answers the window that opens the Party Attack step for Events
    (rules.md, choice 35) itself; by default every seat it asks passes."""

    def act(self, action: Action) -> None:
        """Apply a decision (checked), then deal what follows (and pass the Events window
        unless the test asks for it)."""
        self.state.apply_action(action)
        self.settle()
        st = self.state
        while not self.events_window and st.windows and st.windows.top.reason == Reason.EVENTS:
            st.apply_action(PASS)
            self.settle()

    def find(self, match: Callable[[Action], bool]) -> Action:
        """The one legal action of the seat to act that `match` picks (the first, if several)."""
        for action in self.state.legal_actions():
            if match(action):
                return action
        raise AssertionError(f"no legal action matches; legal: {self.state.legal_actions()}")

    def do(self, kind: type[Action], **fields: object) -> Action:
        """Take the first legal action of `kind` whose fields hold these values."""
        action = self.find(
            lambda a: isinstance(a, kind) and all(getattr(a, k) == v for k, v in fields.items())
        )
        self.act(action)
        return action

    def pass_until(self, phase: str) -> None:
        """Pass until the game reaches `phase`."""
        for _ in range(50):
            if self.state.phase == phase:
                return
            self.act(PASS)
        raise AssertionError(f"never reached {phase}; at {self.state.phase}")

    def pass_windows(self) -> None:
        """Every seat a window asks passes, until none is open."""
        while self.state.windows:
            self.act(PASS)

    def slots(self, seat: int, offset: int, card: str | None = None) -> list[int]:
        """A seat's slots in one of its zones, of one card if named."""
        return [
            s
            for s in self.state.pile(seat, offset)
            if card is None or self.state.card_at(s) == card
        ]


def fight(
    hands: list[list[str]],
    enemies: list[str],
    mission: str = "rag-rappy-den",
    *,
    more: Sequence[Sequence[str]] = (),
    events_window: bool = False,
) -> Table:
    """Seat 0 plays its Characters and equips its Rewards, attempts `mission` with as much
    of its party as fits; seat 1 plays `enemies`; the Party Attack step begins (at its
    window for Events if `events_window`)."""
    t = Table(hands, more=more)
    t.pass_until("play")
    for card in hands[0][1:]:
        if DB.by_id[card].type == "character":
            t.do(Recruit, card=card)
        elif DB.by_id[card].type == "reward":
            t.do(Equip, card=card)
    t.pass_until("mission")
    t.do(Attempt, card=mission)
    while t.state.phase == "party":
        enlist = [a for a in t.state.legal_actions() if isinstance(a, Enlist)]
        t.act(enlist[0] if enlist else PASS)
    for card in enemies:
        t.do(Oppose, card=card)
    t.events_window = events_window
    while t.state.phase == "enemies":
        t.act(PASS)
    assert t.state.phase == "party-attack"
    return t


KNOCKOUT = ["booma", "booma", "rag-rappy"]
"""Seat 1's enemies that knock out a 5-HP character sent alone (2 + 2 + 1)."""


def knock_out_alone(t: Table, member: str) -> int:
    """From seat 0's Mission phase: it attempts The Rag Rappy Den with `member` alone, seat
    1 plays KNOCKOUT and each attacks it; the member's slot (unconscious if 5 HP or less)."""
    st = t.state
    t.pass_until("mission")
    t.do(Attempt, card="rag-rappy-den")
    slot = t.slots(0, PARTY, member)[0]
    t.do(Enlist, slot=slot)
    t.act(PASS)
    for card in KNOCKOUT:
        t.do(Oppose, card=card)
    t.act(PASS)  # the member does not attack
    for enemy in st.zone_slots("enemies"):
        t.act(Act(enemy, enemy, 0, slot_list([slot])))
    return slot


def saber_back_to_a_full_bank() -> tuple[Table, int]:
    """Seat 0 fills its bank with 20 Bucklers over its turns, equips a Saber and attacks a
    Booma with it on a mission: the Saber comes back to the full bank (line 130). The table,
    at the question which bank card to discard, and the Saber's slot."""
    t = Table([["ryudo", "saber", "rag-rappy-den", *["buckler"] * 6], ["vyse", "booma"]],
              more=[["buckler"] * 20])  # fmt: skip
    t.draws(0, *["buckler"] * 20)
    st = t.state
    while len(t.slots(0, BANK)) < BANK_LIMIT:
        while not (st.phase == "play" and st.turn_seat == 0):
            t.act(PASS)
        while len(t.slots(0, BANK)) < BANK_LIMIT and t.slots(0, HAND, "buckler"):
            t.do(Bank, card="buckler", drop=-1)
        t.act(PASS)
    while not (st.phase == "play" and st.turn_seat == 0):
        t.act(PASS)
    (saber,) = t.slots(0, HAND, "saber")
    t.do(Equip, card="saber")
    t.pass_until("mission")
    t.do(Attempt, card="rag-rappy-den")
    t.do(Enlist)
    t.pass_until("enemies")
    t.do(Oppose, card="booma")
    t.pass_until("party-attack")
    (ryudo,) = t.slots(0, ACTIVE)
    t.act(t.find(lambda a: isinstance(a, Act) and a.source == saber and a.user == ryudo))
    return t, saber
