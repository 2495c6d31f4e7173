"""The Rise of the Guys evaluation (ai/guys_eval.py): sane on complete states and on
replicas, and what it prefers is what the rules reward."""

from __future__ import annotations

import random

from guys_helpers import Table

from ai.evaluation import LOSS, WIN, evaluation
from p2pcards.dealer import LocalDealer
from p2pcards.games.rise_of_the_guys.actions import PASS

EVAL = evaluation("rise-of-the-guys")


def test_values_stay_inside_the_bounds_on_replicas_of_random_games() -> None:
    """Never a hidden card read: every seat's replica can be valued at every step."""
    for seed in range(4):
        t = Table(round_cap=10)
        dealer, rng = LocalDealer(seed), random.Random(seed)
        st = t.state
        while not st.is_terminal():
            for seat in (0, 1):
                values = EVAL.values(st.observation(seat))
                assert len(values) == 2 and all(LOSS < v < WIN for v in values)
                assert values[0] == -values[1]
            st.apply_action(
                dealer.sample(st) if st.is_chance_node() else rng.choice(st.legal_actions())
            )
        values = EVAL.values(st)
        assert values in ([WIN, LOSS], [LOSS, WIN], [0.0, 0.0])


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
