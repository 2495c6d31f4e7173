"""The conformance suite: one set of checks over every registered game (OpenSpiel's simulation
test), so that a new game registers once and is held to the engine's contract at once.

For each game the cases come from its registration (`games.info`): the fewest, a middling and
the most seats, and each on/off option turned on, every one under a round cap (the cap every
game takes) or none. The toy own-deck game kept for the tests (`toygame`, not registered for
players) is held to the same contract at every seat count it takes, 2 to 6: it is the proof that
nothing in the core assumes two seats; RPG Get!, not offered to players until it has a view and
an evaluation, is held to it at 2 to 5. Each case plays a few whole games, a seeded `LocalDealer`
at chance nodes and uniformly random legal actions elsewhere, and checks at every step: the game
ends; every physical card is in exactly one place and none is made or lost; no observation names
a card its seat may not know; replicas driven as a table drives them keep the complete state's
public digests and equal `observation(seat)`; every action survives JSON and msgpack through
`game.action_from_json`; a clone is independent of its original; replaying the actions gives the
same digests; a determinization keeps what its seat knows; `to_json` is plain JSON.

Rules that belong to one game stay in its own tests (test_<game>_rules.py, _properties.py).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest
from replica_helpers import step_replicas
from toygame import GAME as TOY
from toygame import INFO as TOY_INFO

from p2pcards import CHANCE, TERMINAL, games
from p2pcards.dealer import LocalDealer
from p2pcards.engine import Action, ChanceOutcome, Game, State
from p2pcards.errors import GameOptionError, UnknownGameError
from p2pcards.games import GameInfo
from p2pcards.slots import SlotState
from p2pcards.zones import ZoneState

CardState = ZoneState
"""Every game's cards are in zones (`ZoneState`): one shared deck (`SlotState`, its cards
the game's `physical_cards()`), or each seat's own deck. All list their cards as `slots()`:
(slot id, place, card or None, mask of seats that know it)."""

ROUND_CAPS = (None, 3, 12)  # no cap, a short one, a long one: each table gets each in turn
# Games played per table: one under each round cap (the cap turns with the seed), and both
# halves of the observation test's every-other-step check. Two more seeds only replayed a
# table and cap already played, with other draws, and cost a sixth of the suite's time
# (RPG Get! at 5 seats).
SEEDS = range(len(ROUND_CAPS))


UNREGISTERED = {TOY_INFO.name: (TOY_INFO, TOY)}
"""Games held to the contract that players are not offered: their registration and game."""


def registration(name: str) -> GameInfo:
    """A game's registration, the toy's included."""
    return UNREGISTERED[name][0] if name in UNREGISTERED else games.info(name)


def load_game(name: str) -> Game:
    """A game, the toy included."""
    return UNREGISTERED[name][1] if name in UNREGISTERED else games.load(name)


def _cases() -> Iterator[Any]:
    """(game, seats, options, round cap, seed) for every registered game, and the toy at
    every seat count."""
    for name in [*games.names(), *UNREGISTERED]:
        game = registration(name)
        middle = (game.min_players + game.max_players) // 2
        counts = {game.min_players, middle, game.max_players}
        if name in UNREGISTERED:
            counts = set(range(game.min_players, game.max_players + 1))
        tables: list[tuple[int, dict[str, Any]]] = [(n, {}) for n in sorted(counts)]
        tables += [  # each on/off option on, at a table one seat more than the fewest
            (min(game.min_players + 1, game.max_players), {option.name: True})
            for option in game.options
            if option.default is False
        ]
        for i, (seats, options) in enumerate(tables):
            label = "-".join([name, f"{seats}seats", *options])
            for seed in SEEDS:
                cap = ROUND_CAPS[(i + seed) % len(ROUND_CAPS)]
                yield pytest.param(
                    name, seats, options, cap, seed, id=f"{label}-cap{cap or 'none'}-seed{seed}"
                )


CASES = list(_cases())


def new_state(name: str, seats: int, options: dict[str, Any], round_cap: int | None) -> CardState:
    state = load_game(name).new_initial_state(seats, round_cap=round_cap, **options)
    # The checks read cards through `slots()`, which the zones model gives.
    assert isinstance(state, ZoneState)
    if not isinstance(state, SlotState):
        # A zones game's cards are its decks' (each composition known to the complete state
        # alone), plus the tokens made as it goes.
        DECKS[id(state.game)] = [
            Counter(state.deck_composition(home)) for home in range(state.num_players)
        ]
    return state


DECKS: dict[int, list[Counter[str]]] = {}
"""A zones game's decks as the test's first complete state held them."""


def max_steps(name: str, seats: int) -> int:
    """Far more steps than a game should take: a game past this is taken not to end."""
    return 40 * registration(name).typical_length * seats


def choose(state: State, dealer: LocalDealer, rng: random.Random) -> Action:
    """The dealer's outcome at a chance node, else a uniformly random legal action."""
    if state.is_chance_node():
        return dealer.sample(state)
    return rng.choice(state.legal_actions())


def play(state: State, name: str, seed: int) -> Iterator[Action]:
    """Play `state` out from `seed`, yielding each action after it is applied; fail if the game
    does not end."""
    dealer, rng = LocalDealer(seed), random.Random(seed)
    for _ in range(max_steps(name, state.num_players)):
        if state.is_terminal():
            return
        action = choose(state, dealer, rng)
        state.apply_action(action)
        yield action
    assert state.is_terminal(), (
        f"{name} did not end within {max_steps(name, state.num_players)} steps"
    )


def physical(state: State) -> Counter[str]:
    return Counter(state.game.physical_cards())


def known_cards(state: CardState) -> Counter[str]:
    return Counter(card for _, _, card, _ in state.slots() if card is not None)


def assert_conserved(state: CardState, seen_by: int | None = None) -> None:
    """Every card is in one place, and the known cards with the ones this state has not seen
    are exactly the game's cards: none made (but tokens), none lost, none known twice."""
    slots = list(state.slots())
    assert sorted(slot for slot, _, _, _ in slots) == list(range(len(slots)))
    for slot, place, _, _ in slots:
        assert state.zone_of(slot) == place, f"slot {slot} is in {place}"
    for seat in range(state.num_players):
        assert [s for s, p, _, _ in slots if p == f"hand:{seat}"] == state.hand_slots(seat)
    assert [s for s, p, _, _ in slots if p == "deck"] == state.deck_slots()
    if not isinstance(state, SlotState):
        assert_decks_conserved(state, slots, seen_by)
        return
    cards = physical(state)
    assert len(slots) == cards.total()
    over = known_cards(state) - cards
    assert not over, f"more copies known than the game has: {dict(over)}"
    assert known_cards(state) + Counter(state.unseen_cards()) == cards


def assert_decks_conserved(
    state: ZoneState, slots: list[tuple[int, str, str | None, int]], seen_by: int | None
) -> None:
    """Each deck's cards, wherever they are, are its list where this state may know it (in a
    world determinized from seat `seen_by`'s view, the other decks are guesses of the right
    size); a token is public and its own."""
    decks = DECKS[id(state.game)]
    for home, deck in enumerate(decks):
        held = state.deck_composition(home)
        if seen_by is not None and home != seen_by:
            assert held is not None and Counter(held).total() == deck.total()
        elif state.viewer is None or state.viewer == home:
            assert held is not None and Counter(held) == deck, f"deck {home} changed"
        else:
            assert held is None, f"seat {state.viewer} holds seat {home}'s decklist"
    assert sum(1 for s, _, _, _ in slots if state.home(s) >= 0) == sum(d.total() for d in decks)
    for slot, _, card, mask in slots:
        if state.home(slot) < 0:
            assert card is not None and mask == (1 << state.num_players) - 1, "a hidden token"


# ------------------------------------------------------------------------------ tests


@pytest.mark.parametrize("name", games.names())
def test_registration_agrees_with_the_game(name: str) -> None:
    """The registry says what the game says; every option it lists is accepted at its default,
    an option it does not list is refused; its view, evaluation and weight fitting are where
    it says, its search rates and benchmark tables fit its seat range."""
    info = games.info(name)
    game = games.load(name)
    assert (game.name, game.title) == (info.name, info.title)
    assert (game.min_players, game.max_players) == (info.min_players, info.max_players)
    assert type(game).__module__ == info.module
    assert info.own_decks == (info.deck_rules is not None)
    assert "round_cap" in {o.name for o in info.options}, "every game can be made to end"
    for option in info.options:  # one at a time: some exclude others (turn_cap, round_cap)
        game.new_initial_state(info.min_players, **{option.name: option.default})
    state = game.new_initial_state(info.min_players)
    with pytest.raises(GameOptionError):
        game.new_initial_state(info.min_players, no_such_option=1)
    view = games.resolve(info.view)
    for attribute in ("HELP", "board", "prompt", "describe_choice", "narrate", "result"):
        assert hasattr(view, attribute), f"{info.view} lacks {attribute}"
    from ai.evaluation import LOSS, WIN, evaluation

    values = evaluation(name).values(state)
    assert len(values) == info.min_players and all(LOSS <= v <= WIN for v in values)
    # What the AI and the scripts read of it: its search speed, its weight fitting, its
    # benchmark's cap and tables.
    seat_range = range(info.min_players, info.max_players + 1)
    assert all(r.seats in seat_range and r.nodes_per_ms > 0 for r in info.search_rates)
    if info.tuning is not None:
        from ai.tuning import Tuning

        tuning = games.resolve(info.tuning)
        assert isinstance(tuning, Tuning), f"{info.tuning} is not a Tuning"
    assert info.bench.cap in {o.name for o in info.options}
    assert info.bench.seats and all(n in seat_range for n in info.bench.seats)


@pytest.mark.parametrize(("name", "seats", "options", "round_cap", "seed"), CASES)
def test_playouts_end_with_every_card_conserved(
    name: str, seats: int, options: dict[str, Any], round_cap: int | None, seed: int
) -> None:
    """The game ends; at every step its cards are conserved, the seat to act is a seat, chance
    or the end, legal actions are distinct and accepted, and a deal from the deck is weighted
    by the cards not yet seen. Returns give each seat a share; a zero-sum game's sum to 1."""
    state = new_state(name, seats, options, round_cap)
    rng = random.Random(seed)
    assert_conserved(state)
    for _ in play(state, name, seed):
        assert_conserved(state)
        for slot, place, card, mask in state.slots():  # the complete state knows what anyone does
            assert (card is None) == (mask == 0), f"slot {slot} in {place}: {card}"
        player = state.current_player()
        assert player in (CHANCE, TERMINAL) or 0 <= player < seats
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            if state.chance_move().kind == "deal" and state.chance_move().pile == "deck":
                rest = physical(state) - known_cards(state)
                assert rest.total() == len(state.deck_slots())
                want = {state.chance_outcome_for(c): n / rest.total() for c, n in rest.items()}
                assert dict(outcomes) == pytest.approx(want)
        elif not state.is_terminal():
            actions = state.legal_actions()
            assert actions and len(set(actions)) == len(actions)
            assert actions == state.legal_actions()
            for action in rng.sample(actions, min(3, len(actions))):
                assert state.can_apply(action), action
    assert state.current_player() == TERMINAL and state.legal_actions() == []
    returns = state.returns()
    assert len(returns) == seats and all(0.0 <= r <= 1.0 for r in returns)
    if registration(name).zero_sum:
        assert sum(returns) == pytest.approx(1.0)


@pytest.mark.parametrize(("name", "seats", "options", "round_cap", "seed"), CASES)
def test_observations_leak_nothing(
    name: str, seats: int, options: dict[str, Any], round_cap: int | None, seed: int
) -> None:
    """Each seat's observation has the public digest, its own hand, and a card exactly where the
    seat knows the slot; `to_json(seat)` is the observation's own (which cannot name what it
    does not hold) and plain JSON."""
    state = new_state(name, seats, options, round_cap)
    for step, _ in enumerate(play(state, name, seed)):
        if (step + seed) % 2:  # every other step, the other half in the next seed's game
            continue
        truth = {slot: (place, card, mask) for slot, place, card, mask in state.slots()}
        full = state.to_json()
        assert json.loads(json.dumps(full)) == full
        for seat in range(seats):
            view = state.observation(seat)
            assert view.viewer == seat
            assert view.public_digest() == state.public_digest()
            assert view.hand(seat) == state.hand(seat)
            assert_conserved(view)
            for slot, place, card, mask in view.slots():
                true_place, true_card, true_mask = truth[slot]
                assert (place, mask) == (true_place, true_mask), f"slot {slot}, seat {seat}"
                if mask >> seat & 1:
                    assert card == true_card, f"seat {seat} sees slot {slot} wrongly"
                else:
                    assert card is None, f"seat {seat} sees slot {slot} in {place}"
            seen = state.to_json(seat)
            assert seen == view.to_json()
            assert json.loads(json.dumps(seen)) == seen


@pytest.mark.parametrize(("name", "seats", "options", "round_cap", "seed"), CASES)
def test_replicas_keep_the_public_digests(
    name: str, seats: int, options: dict[str, Any], round_cap: int | None, seed: int
) -> None:
    """As a table drives them (replica_helpers: cards laid open taught with `learn`, actions
    applied in their public form, chance outcomes hidden from who may not learn them), every
    replica keeps the complete state's section digests and holds exactly `observation(seat)`
    (its decision too, which `to_json` holds). The complete state, driven the same way, ends
    exactly as one that is told nothing."""
    state = new_state(name, seats, options, round_cap)
    plain = state.clone()
    replicas = {seat: state.observation(seat) for seat in range(seats)}
    dealer, rng = LocalDealer(seed), random.Random(seed)
    for _ in range(max_steps(name, seats)):
        if state.is_terminal():
            break
        action = choose(state, dealer, rng)
        plain.apply_action(action)
        step_replicas(state, replicas, action)
        assert list(plain.slots()) == list(state.slots())
        assert plain.to_json() == state.to_json()
        digests = state.section_digests()
        for seat, replica in replicas.items():
            assert replica.section_digests() == digests, f"seat {seat}'s replica"
            observed = state.observation(seat)
            assert list(replica.slots()) == list(observed.slots())
            assert replica.unseen_cards() == observed.unseen_cards()
            assert replica.to_json() == state.to_json(seat)
            assert replica.current_player() == state.current_player()
            if state.current_player() == seat:
                assert replica.legal_actions() == state.legal_actions()
    assert state.is_terminal()


@pytest.mark.parametrize(("name", "seats", "options", "round_cap", "seed"), CASES)
def test_actions_round_trip_through_json_and_msgpack(
    name: str, seats: int, options: dict[str, Any], round_cap: int | None, seed: int
) -> None:
    """Every legal action and chance outcome, its public form and its hidden form survive JSON
    and msgpack through `game.action_from_json`, and read back as what they were."""
    state = new_state(name, seats, options, round_cap)
    game = state.game
    checked: set[Action] = set()

    def check(action: Action) -> None:
        if action in checked:
            return
        checked.add(action)
        wire = action.to_json()
        assert game.action_from_json(wire) == action
        assert type(action).from_json(wire) == action
        assert game.action_from_json(json.loads(json.dumps(wire))) == action
        assert game.action_from_json(msgpack.unpackb(msgpack.packb(wire))) == action
        assert str(action)
        check(action.public())
        if isinstance(action, ChanceOutcome):
            check(action.hidden())

    for action in play(state, name, seed):
        check(action)
        if state.is_chance_node():
            for outcome, _ in state.chance_outcomes():
                check(outcome)
        else:
            for legal in state.legal_actions():
                check(legal)


@pytest.mark.parametrize(("name", "seats", "options", "round_cap", "seed"), CASES)
def test_clones_are_independent(
    name: str, seats: int, options: dict[str, Any], round_cap: int | None, seed: int
) -> None:
    """Playing on a clone leaves the original as it was, and the original moving on leaves a
    clone taken before as it was."""

    def snapshot(state: CardState) -> tuple[str, dict[str, Any], list[Any]]:
        return state.public_digest(), state.to_json(), list(state.slots())

    state = new_state(name, seats, options, round_cap)
    mutator = LocalDealer(seed + 1), random.Random(seed + 1)
    frozen = state.clone(), snapshot(state)
    for step, _ in enumerate(play(state, name, seed)):
        assert snapshot(frozen[0]) == frozen[1], "the original moving on changed a clone"
        if step % 2:
            continue
        before = snapshot(state)
        twin = state.clone()
        assert snapshot(twin) == before
        for _ in range(6):
            if twin.is_terminal():
                break
            twin.apply_action(choose(twin, *mutator))
        assert snapshot(state) == before, "playing a clone changed the original"
        frozen = state.clone(), before


@pytest.mark.parametrize(("name", "seats", "options", "round_cap", "seed"), CASES)
def test_replays_give_the_same_digests(
    name: str, seats: int, options: dict[str, Any], round_cap: int | None, seed: int
) -> None:
    """The same initial state and actions give the same section digests at every step."""
    first = new_state(name, seats, options, round_cap)
    actions, digests = [], []
    for action in play(first, name, seed):
        actions.append(action)
        digests.append(first.section_digests())
    replay = new_state(name, seats, options, round_cap)
    for action, expected in zip(actions, digests, strict=True):
        replay.apply_action(action)
        assert replay.section_digests() == expected
    assert replay.to_json() == first.to_json()
    assert replay.search_key() == first.search_key()
    assert list(replay.slots()) == list(first.slots())


def non_int_parts(key: object, path: str = "key") -> list[str]:
    """Where a search key holds anything but ints (bools among them) and tuples."""
    if isinstance(key, int):
        return []
    if isinstance(key, tuple):
        return [bad for i, part in enumerate(key) for bad in non_int_parts(part, f"{path}[{i}]")]
    return [f"{path}: {type(key).__name__} {key!r:.40}"]


@pytest.mark.parametrize(("name", "seats", "options", "round_cap", "seed"), CASES)
def test_search_keys_hold_only_ints_and_tuples(
    name: str, seats: int, options: dict[str, Any], round_cap: int | None, seed: int
) -> None:
    """`search_key()` and `luck_key()` are built of ints and tuples (State.search_key): a
    string's hash differs from process to process and None's is its address, so a seeded
    search that hashes the key would not replay the same game in another process."""
    state = new_state(name, seats, options, round_cap)
    for _ in play(state, name, seed):
        assert non_int_parts(state.search_key()) == []
        assert non_int_parts(state.luck_key()) == []


@pytest.mark.parametrize(("name", "seats", "options", "round_cap", "seed"), CASES)
def test_determinized_worlds_agree_with_the_observation(
    name: str, seats: int, options: dict[str, Any], round_cap: int | None, seed: int
) -> None:
    """A determinization of a seat's observation is a complete state with the same public
    digest, conserves the cards, and keeps every card that seat knows."""
    state = new_state(name, seats, options, round_cap)
    rng = random.Random(seed)
    for step, _ in enumerate(play(state, name, seed)):
        if step % 5:
            continue
        # Every fifth step, the seats in turn (step % seats would be seat 0 alone at 5 seats).
        seat = step // 5 % seats
        view = state.observation(seat)
        world = view.determinize(rng)
        assert world.viewer is None and world.public_digest() == state.public_digest()
        assert_conserved(world, seen_by=seat)
        for (slot, _, card, mask), (_, _, seen, _) in zip(world.slots(), view.slots(), strict=True):
            assert seen is None or card == seen, f"slot {slot} changed"
            assert (card is None) == (mask == 0)


def test_an_unknown_game_is_refused_with_the_known_ones() -> None:
    """The registry names the games it knows when asked for one it does not."""
    for ask in (games.info, games.load):
        with pytest.raises(UnknownGameError, match="known games: " + ", ".join(games.names())):
            ask("no-such-game")
