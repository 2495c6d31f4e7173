"""The zones model (p2pcards/zones.py, DESIGN.md §9) on a toy game of two own decks: every
movement says who learns what, replicas never hold another seat's decklist, slot ids stay
alike on every replica, and `determinize` fills what a seat has not seen from a deck model."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Sequence
from typing import Any

import pytest

from p2pcards.deckmodel import CardTraits, KnownDecksModel
from p2pcards.digest import Canonical
from p2pcards.engine import CHANCE, Action, Game, State
from p2pcards.errors import HiddenInformationError, IllegalActionError
from p2pcards.zones import Deal, Pick, Roll, Step, Zone, ZoneRules, ZoneState


class Kind:
    def __init__(self, id: str) -> None:
        self.id = id
        self.name = id.title()
        self.qty = 0


KINDS = [Kind(k) for k in ("ant", "bee", "cat", "dog")]
TRAITS = [
    CardTraits(frozenset({"red"}), False),
    CardTraits(frozenset({"red"}), False),
    CardTraits(frozenset({"blue"}), False),
    CardTraits(frozenset({"blue"}), True),  # a token: never in a deck
]
DECKS = [[3, 2, 1, 0], [0, 1, 5, 0]]  # ant ant ant bee bee cat | bee cat×5


class ToyGame(Game):
    name = "toy"
    title = "Toy"
    min_players = 2
    max_players = 2
    action_types = (Deal, Pick, Roll)

    def new_initial_state(self, num_players: int, **options: Any) -> State:
        return ToyState(RULES)

    def physical_cards(self) -> list[str]:
        return []


MODEL = KnownDecksModel(TRAITS, DECKS, size=6, max_copies=5, max_classes=1)
RULES = ZoneRules(ToyGame(), KINDS, MODEL)
LAYOUT = [
    Zone("deck:0", 0, "nobody"),
    Zone("hand:0", 0, "owner"),
    Zone("deck:1", 1, "nobody"),
    Zone("hand:1", 1, "owner"),
    Zone("board", None, "everyone"),
]
DECK0, HAND0, DECK1, HAND1, BOARD = range(5)


class ToyState(ZoneState):
    """No rules: the test asks for chance steps and moves cards itself."""

    __slots__ = ()

    def __init__(self, rules: ZoneRules) -> None:
        super().__init__(
            rules, 2, LAYOUT, [("deck:0", DECKS[0]), ("deck:1", DECKS[1])], private_decks=True
        )
        self._current = 0

    def _after_chance(self, step: Step, slot: int, value: int) -> None:
        self._current = 0

    def _decisions(self, cur: int) -> list[Action]:
        return []

    def _verify_decision(self, cur: int, action: Action) -> None:
        raise IllegalActionError("the toy has no decisions")

    def _apply(self, action: Action) -> None:
        self._apply_outcome(action)

    def returns(self) -> list[float]:
        return [0.0, 0.0]

    def public_sections(self) -> dict[str, Canonical]:
        return {"zones": self.zones_public()}

    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        return self.zones_json(seat)

    def clone(self) -> ToyState:
        return self._clone_zones()

    def search_key(self) -> Hashable:
        return tuple(self._ident)


def draw(states: Sequence[ToyState], seat: int, card: str) -> None:
    """Seat draws `card` on every state: the owner's and the complete state learn it."""
    for st in states:
        deck, hand = (DECK0, HAND0) if seat == 0 else (DECK1, HAND1)
        st._ask_chance(Step("draw", deck, hand, 1 << seat))
        entitled = st.viewer is None or st.viewer == seat
        st.apply_action(Deal(card) if entitled else Deal(None))


def fresh() -> list[ToyState]:
    full = ToyState(RULES)
    return [full, full.observation(0), full.observation(1)]


def test_a_replica_never_holds_the_other_seats_decklist() -> None:
    full, mine, theirs = fresh()
    assert full.unseen_cards() == {"ant": 3, "bee": 3, "cat": 6}
    assert mine.unseen_cards() == {"ant": 3, "bee": 2, "cat": 1}
    assert theirs.unseen_cards() == {"bee": 1, "cat": 5}
    mine._ask_chance(Step("draw", DECK1, HAND1, 1 << 1))
    assert mine.chance_outcomes() == [(Deal(None), 1.0)]
    mine._chance = None
    # Its own draw is weighted by its own deck alone.
    mine._ask_chance(Step("draw", DECK0, HAND0, 1))
    assert mine.chance_outcomes() == [
        (Deal("ant"), 0.5),
        (Deal("bee"), 2 / 6),
        (Deal("cat"), 1 / 6),
    ]
    with pytest.raises(IllegalActionError, match="cannot be there"):
        mine.apply_action(Deal("dog"))


def test_draws_show_the_card_to_its_owner_only_and_digests_agree() -> None:
    states = fresh()
    draw(states, 0, "cat")
    draw(states, 1, "bee")
    full, mine, theirs = states
    assert mine.hand(0) == ["cat"] and theirs.hand(0) == [None]
    assert theirs.hand(1) == ["bee"] and mine.hand(1) == [None]
    assert full.public_digest() == mine.public_digest() == theirs.public_digest()
    assert list(full.observation(1).slots()) == list(theirs.slots())
    with pytest.raises(IllegalActionError, match="may not learn"):
        states[2]._ask_chance(Step("draw", DECK0, HAND0, 1))
        states[2].apply_action(Deal("ant"))


def test_a_card_put_on_the_bottom_stays_known_to_its_owner_and_is_drawn_for_sure() -> None:
    states = fresh()
    for _ in range(6):
        draw(states, 0, "ant" if _ < 3 else "bee" if _ < 5 else "cat")
    full, mine, theirs = states
    slot = full.hand_slots(0)[5]  # the cat
    for st in states:
        st._move(slot, DECK0, bottom=True)
    assert mine.zone_cards("deck:0") == ["cat"] and theirs.zone_cards("deck:0") == [None]
    mine._ask_chance(Step("draw", DECK0, HAND0, 1))
    assert mine.chance_outcomes() == [(Deal("cat"), 1.0)]  # no luck left in it


def test_a_look_shows_one_seat_a_card_in_place_and_a_reorder_moves_identities_not_slots() -> None:
    states = fresh()
    full, mine, theirs = states
    slots_before = full.zone_slots("deck:0")
    for depth, card in enumerate(("bee", "ant")):
        for st in states:
            st._ask_chance(Step("look", DECK0, -1, 1, depth=depth))
            st.apply_action(Deal(card) if st.viewer in (None, 0) else Deal(None))
    assert mine.zone_cards("deck:0")[-2:] == ["ant", "bee"]
    assert theirs.zone_cards("deck:0")[-2:] == [None, None]
    for st in states:
        st._reorder_top(DECK0, 2, (1, 0))  # the card second from the top goes on top
    assert full.zone_slots("deck:0") == slots_before == theirs.zone_slots("deck:0")
    assert mine.zone_cards("deck:0")[-2:] == ["bee", "ant"]
    assert full.public_digest() == mine.public_digest() == theirs.public_digest()


def test_a_shuffle_forgets_in_place_and_returns_the_cards_to_the_pool() -> None:
    states = fresh()
    draw(states, 0, "cat")
    full, mine, _ = states
    slot = full.hand_slots(0)[0]
    for st in states:
        st._move(slot, DECK0)
        st._shuffle_into(HAND0, DECK0)
    assert full.zone_cards("deck:0") == [None] * 6
    assert mine.unseen_cards() == {"ant": 3, "bee": 2, "cat": 1}
    assert full.reshuffles() == 1


def test_a_search_takes_the_top_slot_of_the_shuffled_deck_on_every_replica() -> None:
    states = fresh()
    taken = {st._search(DECK0, HAND0, 2 if st.viewer in (None, 0) else None, 1) for st in states}
    assert len(taken) == 1  # the same slot everywhere
    assert states[1].hand(0) == ["cat"] and states[2].hand(0) == [None]


def test_a_random_pick_names_its_position_publicly_and_a_roll_is_public() -> None:
    states = fresh()
    for card in ("ant", "cat"):
        draw(states, 0, card)
    full, _, theirs = states
    full._ask_chance(Step("pick", HAND0, BOARD, 3))
    assert full.chance_outcomes() == [(Pick(0, "ant"), 0.5), (Pick(1, "cat"), 0.5)]
    theirs._ask_chance(Step("pick", HAND0, BOARD, 2))  # only seat 1 learns it
    # Seat 1 may learn the card but holds no list of seat 0's deck to weigh it by: only a
    # determinized world (its deck guessed) can.
    with pytest.raises(HiddenInformationError, match="does not know the deck"):
        theirs.chance_outcomes()
    assert theirs.determinize(random.Random(0)).chance_outcomes()
    full._chance = None
    full._ask_chance(Step("roll", sides=3))
    assert full.current_player() == CHANCE
    assert full.chance_outcomes() == [(Roll(i), 1 / 3) for i in range(3)]
    with pytest.raises(IllegalActionError, match="below 3"):
        full.apply_action(Roll(3))


def test_a_token_is_public_from_birth_and_counts_in_no_pool() -> None:
    states = fresh()
    slots = {st._make_token(3, BOARD) for st in states}
    assert len(slots) == 1
    slot = slots.pop()
    assert all(st.card_at(slot) == "dog" and st.is_public(slot) for st in states)
    assert states[0].unseen_cards() == {"ant": 3, "bee": 3, "cat": 6}


def test_determinize_guesses_the_other_deck_from_the_cards_it_has_seen() -> None:
    states = fresh()
    for _ in range(3):
        draw(states, 1, "cat")
    full, mine, _ = states
    for slot in full.hand_slots(1)[:2]:
        for st in states:
            st._move(slot, BOARD)  # played face up: now seen by seat 0
            st._learn(slot, 2)
    rng = random.Random(1)
    for _ in range(20):
        world = mine.determinize(rng)
        assert world.viewer is None
        cards = Counter(c for _, z, c, _ in world.slots() if c is not None and z != "deck:0")
        # Seat 1's hand card is filled from a deck holding the two cats seen: the only known
        # deck that fits is seat 1's own (bee, cat×5), not seat 0's (one cat).
        assert world.hand(1).count(None) == 0
        assert set(world.hand(1)) <= {"bee", "cat"}
        assert cards["cat"] >= 2
        assert sum(world.unseen_cards().values()) == 12 - 3


def test_the_deck_model_builds_a_legal_deck_when_no_known_deck_fits() -> None:
    seen = [0, 0, 0, 0]
    seen[0] = 5  # five ants: no known deck holds them
    deck = MODEL.decklist(1, seen, random.Random(3))
    assert sum(deck) == 6 and deck[0] == 5
    assert deck[3] == 0  # never a token
    assert deck[2] == 0  # one class only: red, the class the ants show
