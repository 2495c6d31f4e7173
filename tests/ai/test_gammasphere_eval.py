"""The Gammasphere evaluation (ai/gammasphere_eval.py): sane on replicas, and its features
read what the rules say attackers can do next (rules.md, choices 11 and 13)."""

from __future__ import annotations

import random

from eval_helpers import assert_replicas_valued_in_bounds
from gamma_helpers import Table

from ai.evaluation import evaluation, relative, weighted
from ai.gammasphere_eval import GAMMA_FEATURES, GammaEvaluation, both_features, gamma_features
from p2pcards.dealer import LocalDealer
from p2pcards.games.gammasphere.state import ATTACK_MODE, GammaState
from p2pcards.interpreter import player

EVAL = evaluation("gammasphere")


def feature(state: GammaState, seat: int, name: str) -> float:
    """One feature of one seat."""
    return gamma_features(state, seat)[GAMMA_FEATURES.index(name)]


def test_values_stay_inside_the_bounds_on_replicas_of_random_games() -> None:
    """Never a hidden card read: every seat's replica can be valued at every step."""
    for seed in range(2):
        assert_replicas_valued_in_bounds(EVAL, Table(round_cap=6).state, seed)


def test_the_search_values_leave_out_only_features_of_weight_0() -> None:
    """The evaluation a search runs reads the first features alone while the rest weigh 0:
    its values are those of every feature weighted, at every step of a random game; the
    totals it reads them from are the cards' own stats summed."""
    assert isinstance(EVAL, GammaEvaluation) and not any(EVAL.weights.vector[9:])
    state, dealer, rng = Table(round_cap=8).state, LocalDealer(3), random.Random(3)
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(dealer.sample(state))
            continue
        for seat, totals in enumerate(state.seat_totals()):
            characters, buildings = state.field_kinds(seat)
            attacking = [s for s in characters if state.mode(s) == ATTACK_MODE]
            assert totals.attack == sum(state.attack(s) for s in attacking)
            assert totals.defense == sum(state.defense(s) for s in characters)
            assert totals.walls == sum(state.defense(s) for s in buildings)
            assert totals[:5] == (
                state.power(seat), state.gas(seat), state.pylon_count(seat),
                state.hand_size(seat), state.deck_size(seat),
            )  # fmt: skip
        features = both_features(state, state.field_stats())
        scores = [weighted(EVAL.weights.vector, f) for f in features]
        assert EVAL.values(state) == relative(scores, EVAL.weights.scale)
        checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 20


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
