"""The Rise of the Guys evaluation (ai/guys_eval.py): sane on complete states and on
replicas, and what it prefers is what the rules reward."""

from __future__ import annotations

from eval_helpers import assert_replicas_valued_in_bounds
from guys_helpers import Table

from ai.evaluation import evaluation
from p2pcards.games.rise_of_the_guys.actions import PASS

EVAL = evaluation("rise-of-the-guys")


def test_values_stay_inside_the_bounds_on_replicas_of_random_games() -> None:
    """Never a hidden card read: every seat's replica can be valued at every step."""
    for seed in range(4):
        assert_replicas_valued_in_bounds(EVAL, Table(round_cap=10).state, seed)


def test_a_guy_on_the_board_and_life_are_worth_something() -> None:
    t = Table(["robutt"])
    before = EVAL.values(t.state)[0]
    t.play("robutt", 0)
    assert EVAL.values(t.state)[0] > before  # a Guy for a card in hand
    t.act(PASS)
    t.act(PASS)
    t.act(PASS)  # combat: the unopposed Robutt hits for 1
    assert t.state.life(1) == 19
    assert EVAL.values(t.state)[0] > 0
