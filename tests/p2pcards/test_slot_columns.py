"""Per-card state declared once (issue 24, item 4): every zones game's per-card columns come
from its `SlotColumns` table, and its search key and digest cover the same fields.

The check is by change, not by reading code: in a position of a random game, each field of
the state (every per-card column at a card in play, every per-seat list, every counter) is
changed in a clone, and the search key must change exactly when the public digest does,
except for a column the table declares left out of the key, with its reason. A field one of
them forgot (as Rise of the Guys' key once forgot the masks, the Spend log and `_free`) fails.
"""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.zones import SlotColumn, ZoneState

FIXED = {"_n", "viewer"}
"""The table's size and whose replica it is: not positions of play."""


def _column_games() -> list[str]:
    """The registered games whose states declare per-card columns."""
    found = []
    for name in games.names():
        state = games.load(name).new_initial_state(games.info(name).min_players)
        if isinstance(state, ZoneState) and state.slot_columns.columns:
            found.append(name)
    return found


COLUMN_GAMES = _column_games()


def test_both_collectible_games_declare_their_per_card_columns() -> None:
    assert {"rise-of-the-guys", "gammasphere"} <= set(COLUMN_GAMES)


def _position(name: str, seed: int) -> ZoneState:
    """A state of a random game with cards in play, on a decision, not over."""
    game = games.load(name)
    state = game.new_initial_state(games.info(name).min_players)
    dealer, rng = LocalDealer(seed), random.Random(seed)
    for step in range(2000):
        assert isinstance(state, ZoneState)
        if step > 40 and state.slot_rows() and not state.is_chance_node():
            return state
        assert not state.is_terminal(), f"{name} seed {seed} ended with nothing in play"
        if state.is_chance_node():
            state.apply_action(dealer.sample(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError(f"{name} seed {seed}: no position with cards in play")


def _fields(state: ZoneState) -> list[str]:
    """Every attribute a state of this class keeps (all its classes' __slots__)."""
    names: list[str] = []
    for cls in type(state).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if name not in names and name not in FIXED:
                names.append(name)
    return names


def _changed(value: int) -> int:
    """Another value of the same kind (a card kind stays a card kind)."""
    return value - 1 if value > 0 else value + 1


def _other_word(state: ZoneState, field: str, word: str) -> str:
    """Another word the field could hold: a state numbers a field's words in its search key
    by its module's table named after it (`_phase`: PHASE_CODES), and a word outside that
    table is no position at all."""
    table = getattr(sys.modules[type(state).__module__], f"{field.strip('_').upper()}_CODES", None)
    if isinstance(table, dict) and word in table:
        return next(other for other in table if other != word)
    return word + "'"


def _perturbed(state: ZoneState, field: str, slot: int) -> ZoneState | None:
    """A clone with `field` changed: a number or a word; a list of numbers by slot at `slot`,
    another at its first entry; zones one card fewer; a list of anything else (the Spend log)
    one entry shorter. None for a field this cannot change (empty, None, a record)."""
    value: Any = getattr(state, field)
    other = state.clone()
    if isinstance(value, int) and not isinstance(value, bool):
        setattr(other, field, _changed(value))
    elif isinstance(value, str):
        setattr(other, field, _other_word(state, field, value))
    elif isinstance(value, list) and value and isinstance(value[0], int):
        at = slot if len(value) == state.slot_count() else 0
        copied = list(value)
        copied[at] = _changed(int(copied[at]))
        setattr(other, field, copied)
    elif isinstance(value, list) and value and isinstance(value[0], list):
        # Zones: the last card of the last zone holding one leaves it (the table keeps its
        # shape, so a layout that grows with the seats still indexes).
        copied = [list(inner) for inner in value]
        last = max((z for z, inner in enumerate(copied) if inner), default=None)
        if last is None:
            return None
        copied[last].pop()
        setattr(other, field, copied)
    elif isinstance(value, list) and value:
        setattr(other, field, value[:-1])
    else:
        return None
    return other


@pytest.mark.parametrize("name", COLUMN_GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_the_search_key_and_the_digest_cover_the_same_fields(name: str, seed: int) -> None:
    state = _position(name, seed)
    slot = state.slot_rows()[0][0]
    columns = {c.name: c for c in state.slot_columns.columns}
    key, digest = state.search_key(), state.public_digest()
    checked = 0
    for field in _fields(state):
        other = _perturbed(state, field, slot)
        if other is None:
            continue
        checked += 1
        in_key = other.search_key() != key
        in_digest = other.public_digest() != digest
        column = columns.get(field)
        if column is None:
            assert in_key == in_digest, (
                f"{name}: {field} is in the "
                f"{'search key but not the digest' if in_key else 'digest but not the search key'}"
            )
        else:
            assert in_digest == column.public, f"{name}: column {field} public={column.public}"
            assert in_key == (column.unkeyed_because is None), (
                f"{name}: column {field} in the key: {in_key}, declared: {column}"
            )
    assert checked >= len(columns) + 5, f"{name}: only {checked} fields could be changed"


@pytest.mark.parametrize("name", COLUMN_GAMES)
def test_a_column_left_out_of_the_search_key_says_why(name: str) -> None:
    state = games.load(name).new_initial_state(2)
    assert isinstance(state, ZoneState)
    for column in state.slot_columns.columns:
        if column.unkeyed_because is not None:
            assert len(column.unkeyed_because.split()) >= 4, column


def _column_values(state: ZoneState, column: SlotColumn) -> list[int]:
    values: list[int] = getattr(state, column.name)
    return values


def _changeable(state: ZoneState, column: SlotColumn) -> list[int]:
    """A column to change in place, as the game does: a copy-on-write one claimed first."""
    return state._claim(column.name) if column.copy_on_write else _column_values(state, column)


@pytest.mark.parametrize("name", COLUMN_GAMES)
def test_clone_reset_growth_and_the_end_of_turn_follow_the_table(name: str) -> None:
    state = _position(name, 7)
    slot = state.slot_rows()[0][0]
    clone = state.clone()
    for column in state.slot_columns.columns:
        shared = _column_values(clone, column) is _column_values(state, column)
        assert shared == column.copy_on_write, f"{column.name} shared: {shared}"
        values = _changeable(clone, column)
        assert len(values) == state.slot_count()
        values[slot] = _changed(int(values[slot]))
        assert _column_values(state, column)[slot] != values[slot], f"{column.name} shared"
        # The state cloned claims its own copy too: the clone keeps its change.
        _changeable(state, column)[slot] = _changed(values[slot])
        assert _column_values(clone, column)[slot] == values[slot], f"{column.name} shared"
    clone._reset_slot(slot)
    assert [_column_values(clone, c)[slot] for c in state.slot_columns.columns] == list(
        state.slot_columns.defaults
    )
    grown = state.clone()
    in_play = next(z for z, cards in enumerate(grown._zones) if slot in cards)
    token = grown._make_token(0, in_play)
    for column in state.slot_columns.columns:
        assert len(_column_values(grown, column)) == token + 1
        assert _column_values(grown, column)[token] == column.default
    ended = state.clone()
    for column in state.slot_columns.columns:
        _changeable(ended, column)[slot] = _changed(column.default)
    ended._end_turn_columns()
    for column in state.slot_columns.columns:
        ends = _column_values(ended, column)[slot] == column.default
        assert ends == column.this_turn, f"{column.name}: this_turn={column.this_turn}"


def test_gammasphere_shares_its_modifiers_with_a_clone_until_an_ability_changes_them() -> None:
    """Copy on write (`SlotColumn.copy_on_write`): an ability's modifier lands on the state
    it resolves in alone, whichever of a state and its clone resolves it, and the reset of
    a card leaving play too."""
    state = _position("gammasphere", 7)
    slot = state.slot_rows()[0][0]
    for changes_clone in (True, False):
        clone = state.clone()
        before = (list(state._atk_p), list(state._atk_t), list(state._kw_p))
        changed, kept = (clone, state) if changes_clone else (state, clone)
        for permanent in (True, False):
            changed.modifiers(permanent).attack[slot] += 300
        changed.modifiers(True).keywords[slot] |= 1
        assert (list(kept._atk_p), list(kept._atk_t), list(kept._kw_p)) == before
        assert changed._atk_p[slot] == before[0][slot] + 300
        assert changed._atk_t[slot] == before[1][slot] + 300
        state = changed if changes_clone else state
    left = state.clone()
    left._reset_slot(slot)
    assert left._atk_p[slot] == 0 and state._atk_p[slot] != 0


def test_gammasphere_shares_its_pools_with_a_clone_until_one_draws() -> None:
    """Copy on write (`ZoneState.share_pools`): the unseen cards a draw takes out of a pool
    leave it on the side that drew alone, whichever side that is."""
    state = _position("gammasphere", 7)
    dealer, rng = LocalDealer(7), random.Random(7)
    while not state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    for clone_draws in (True, False):
        clone = state.clone()
        assert clone._pools is state._pools
        before = [list(pool or ()) for pool in state._pools]
        drawer, kept = (clone, state) if clone_draws else (state, clone)
        drawer.apply_action(dealer.sample(drawer))
        assert [list(pool or ()) for pool in kept._pools] == before
        assert [list(pool or ()) for pool in drawer._pools] != before
        state = kept if clone_draws else clone  # the one that has not drawn, to draw again


def test_a_roll_draws_its_luck_from_every_column_in_full() -> None:
    # A search key leaves out a column every card of which holds its default (a cheaper
    # key to hash); the luck key of a chance step other than a draw, which seeds the search's
    # sampling, keeps every column in full as before, so that a seeded search draws the
    # same luck. A Rise of the Guys roll (a random target) is such a step.
    state = games.load("rise-of-the-guys").new_initial_state(2)
    dealer, rng = LocalDealer(3), random.Random(0)
    while not (state.is_chance_node() and state.chance_move().kind == "roll"):
        assert not state.is_terminal()
        if state.is_chance_node():
            state.apply_action(dealer.sample(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert isinstance(state, ZoneState)
    keyed = state.slot_columns.get_keyed(state)
    cards = 3 + len(keyed)
    search = state.search_key()
    assert isinstance(search, tuple)
    assert () in search[3:cards]  # some column at its defaults, left out of the search key
    whole = (*search[:3], *map(tuple, keyed), *search[cards:])
    assert state.luck_key() == whole
