"""The Gammasphere evaluation (ai/gammasphere_eval.py): sane on replicas, and its features
read what the rules say attackers can do next (rules.md, choices 11 and 13)."""

from __future__ import annotations

from eval_helpers import assert_replicas_valued_in_bounds
from gamma_helpers import Table

from ai.evaluation import evaluation
from ai.gammasphere_eval import GAMMA_FEATURES, gamma_features
from p2pcards.games.gammasphere.state import GammaState
from p2pcards.interpreter import player

EVAL = evaluation("gammasphere")


def feature(state: GammaState, seat: int, name: str) -> float:
    """One feature of one seat."""
    return gamma_features(state, seat)[GAMMA_FEATURES.index(name)]


def test_values_stay_inside_the_bounds_on_replicas_of_random_games() -> None:
    """Never a hidden card read: every seat's replica can be valued at every step."""
    for seed in range(2):
        assert_replicas_valued_in_bounds(EVAL, Table(round_cap=6).state, seed)


def test_an_attacker_facing_an_empty_field_threatens_its_attack_and_lethal_only_if_enough() -> None:
    """Choice 13: with nothing in play to guard, the opponent loses the attacker's attack."""
    t = Table(["saiyan-elite", "pylon"])
    t.pylons(2)
    elite = t.play("saiyan-elite")
    st = t.state
    assert feature(st, 0, "direct") == st.attack(elite) / 1000 > 0
    assert feature(st, 0, "lethal") == 0.0  # 1550 of the opponent's 9000
    assert feature(st, 1, "direct") == feature(st, 1, "lethal") == 0.0
    assert feature(st, 0, "tempo") == 1.0 and feature(st, 1, "tempo") == 0.0
    st.hurt(player(1), 9000 - st.attack(elite), elite)  # as a damage ability would
    assert st.power(1) == st.attack(elite)
    assert feature(st, 0, "lethal") == 1.0


def test_pressure_is_what_our_strongest_takes_off_through_their_weakest_attacker() -> None:
    """Choice 11: against Attack Mode the weaker falls and its player loses the difference;
    against Defense Mode no damage, so a defender gives no pressure."""
    t = Table(["saiyan-elite", "pylon", "pylon", "pylon"], ["zealot", "pylon", "pylon", "pylon"])
    t.end()
    t.pylons(3)
    zealot = t.play("zealot")
    t.end()
    t.pylons(3)
    elite = t.play("saiyan-elite")
    st = t.state
    gap = st.attack(elite) - st.attack(zealot)
    assert gap > 0
    assert feature(st, 0, "pressure") == gap / 1000
    assert feature(st, 0, "direct") == 0.0  # the Zealot guards
    assert feature(st, 1, "pressure") == 0.0  # the weaker side presses nothing
    t = Table(["saiyan-elite", "pylon", "pylon", "pylon"], ["zealot", "pylon", "pylon", "pylon"])
    t.end()
    t.pylons(3)
    t.play("zealot", defense=True)
    t.end()
    t.pylons(3)
    t.play("saiyan-elite")
    assert feature(t.state, 0, "pressure") == 0.0
