"""The RPG Get! evaluation (ai/rpg_get_eval.py): sane on every seat's replica at 2 to 5
seats, and what it prefers is what the rules reward."""

from __future__ import annotations

import random

import pytest
from rpg_get_helpers import Table

from ai.evaluation import LOSS, WIN, evaluation
from ai.rpg_get_eval import RPG_GET_FEATURES, rpg_get_features
from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.games.rpg_get import RpgGetState
from p2pcards.games.rpg_get.actions import Act, Attempt, Enlist, Recruit

EVAL = evaluation("rpg-get")


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_values_stay_inside_the_bounds_on_replicas_of_random_games(seats: int) -> None:
    """Never a hidden card read: every seat's replica can be valued at every step (a bank or
    hand card of another seat would raise or misread)."""
    state = games.load("rpg-get").new_initial_state(seats, round_cap=4)
    assert isinstance(state, RpgGetState)
    dealer, rng = LocalDealer(seats), random.Random(seats)
    while not state.is_terminal():
        for seat in range(seats):
            seen = state.observation(seat)
            values = EVAL.values(seen)
            assert len(values) == seats and all(LOSS < v < WIN for v in values)
            assert rpg_get_features(seen, seat) == rpg_get_features(state, seat)
            assert len(rpg_get_features(seen, seat)) == len(RPG_GET_FEATURES)
        state.apply_action(
            dealer.sample(state) if state.is_chance_node() else rng.choice(state.legal_actions())
        )
    values = EVAL.values(state)
    # Valued by the returns (a round cap may leave several leaders sharing the win).
    assert values == [LOSS + (WIN - LOSS) * share for share in state.returns()]
    assert max(values) > LOSS


def test_a_character_an_attempt_and_a_defeated_enemy_are_worth_something() -> None:
    """Line 39: a character in the party; line 47-65: a mission attempted, an enemy against it
    hurt, the mission scored."""
    t = Table([["ryudo", "vyse", "clear-the-forest"], ["aika", "rag-rappy"]])
    st = t.state
    t.pass_until("play")
    before = EVAL.values(st)[0]
    t.act(t.find(lambda a: isinstance(a, Recruit)))
    assert EVAL.values(st)[0] > before  # Vyse joins the party
    t.pass_until("mission")
    before = EVAL.values(st)[0]
    t.act(t.find(lambda a: isinstance(a, Attempt)))
    assert EVAL.values(st)[0] > before  # a mission under way
    t.act(t.find(lambda a: isinstance(a, Enlist)))
    t.act(t.find(lambda a: isinstance(a, Enlist)))
    t.act(t.find(lambda a: a.kind == "oppose" and a.card == "rag-rappy"))
    t.pass_until("party-attack")
    before = EVAL.values(st)[0]
    t.act(t.find(lambda a: isinstance(a, Act) and a.targets))  # the Rag Rappy falls: scored
    assert st.victory_points(0) == 1
    assert EVAL.values(st)[0] > before


def test_unmatched_counts_enemy_hp_beyond_the_active_partys_attacks() -> None:
    """Line 47-59: the enemies played against an attempt and the active party's Attacks
    (X times Y, line 122). `unmatched` is the enemy HP one round of those Attacks cannot
    fell; it is 0 for the other seat and outside an attempt."""
    t = Table([["ryudo", "clear-the-forest"], ["aika", "hildebear"]])
    st = t.state
    at = RPG_GET_FEATURES.index("unmatched")
    t.pass_until("mission")
    assert rpg_get_features(st, 0)[at] == 0
    t.act(t.find(lambda a: isinstance(a, Attempt)))
    t.act(t.find(lambda a: isinstance(a, Enlist)))
    t.act(t.find(lambda a: a.kind == "oppose" and a.card == "hildebear"))
    t.pass_until("party-attack")
    # Ryudo's Attack 3(1) against the Hildebear's 7 HP.
    assert rpg_get_features(st, 0)[at] == 7 - 3
    assert rpg_get_features(st, 1)[at] == 0
