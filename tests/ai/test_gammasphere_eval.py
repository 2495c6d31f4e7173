"""The Gammasphere evaluation (ai/gammasphere_eval.py): sane on replicas, and its features
read what the rules say attackers can do next (rules.md, choices 11 and 13)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from eval_helpers import assert_replicas_valued_in_bounds
from gamma_helpers import Table

from ai.evaluation import evaluation, relative, weighted
from ai.gammasphere_eval import (
    BASIC,
    GAMMA_FEATURES,
    TUNING,
    GammaEvaluation,
    GammaWeights,
    attacks_made,
    basic_features,
    both_features,
    gamma_features,
)
from p2pcards.dealer import LocalDealer
from p2pcards.games.gammasphere.cards import KEYWORD_BITS, UNATTACKABLE
from p2pcards.games.gammasphere.state import ATTACK_MODE, AttackDefense, GammaState, SeatTotals
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


def threatened() -> GammaEvaluation:
    """The search's evaluation: positions valued once the mover attacked."""
    searching = evaluation("gammasphere", search=True)
    assert isinstance(searching, GammaEvaluation)
    return searching


def made(state: GammaState) -> tuple[SeatTotals, SeatTotals]:
    """Both seats' totals once the seat to move made its attacks (shipped weights)."""
    stats: dict[int, AttackDefense] = {}
    keywords: dict[int, int] = {}
    totals = state.seat_totals(stats, keywords)
    return attacks_made(state, stats, keywords, totals, EVAL.weights.vector)


def test_the_mover_hits_an_empty_field_and_the_value_counts_it_but_not_on_turn_one() -> None:
    """Choice 13: with nothing in play to guard, the player loses the attacker's attack;
    choice 3: nothing attacks on the game's first turn."""
    t = Table(["saiyan-elite"])
    t.pylons(2)
    elite = t.play("saiyan-elite")
    assert made(t.state) == t.state.seat_totals()  # turn 1
    t.to_turn(3)
    st = t.state
    before = st.seat_totals()
    after = made(st)
    assert after[1] == before[1]._replace(power=9000 - st.attack(elite))
    assert after[0] == before[0]
    weights = EVAL.weights.vector[:BASIC]
    scores = [weighted(weights, basic_features(totals)) for totals in after]
    assert threatened().values(st) == relative(scores, EVAL.weights.scale)
    assert threatened().values(st)[0] > EVAL.values(st)[0]
    # With every feature weighed, the seat's own ones are read after the attacks too.
    every = GammaEvaluation(GammaWeights((0.1,) * len(GAMMA_FEATURES), 100.0), threat=True)
    extras = both_features(st, st.field_stats())
    scores = [
        weighted(every.weights.vector, basic_features(totals) + rest[BASIC:])
        for totals, rest in zip(after, extras, strict=True)
    ]
    assert every.values(st) == relative(scores, 100.0)


def test_the_weakest_attacker_that_beats_a_guard_takes_it_and_the_rest_hit_the_player() -> None:
    """Choice 11: a defender in Defense Mode weaker than the attack falls, its player
    unhurt; choice 13: with it gone, the next attacker hits the player."""
    t = Table(["saiyan-elite", "zealot"], ["zealot"])
    t.pylons(3)
    elite = t.play("saiyan-elite")
    zealot = t.play("zealot")
    t.end()
    t.pylons(1)
    guard = t.play("zealot", defense=True)
    t.end()
    st = t.state
    assert st.attack(zealot) < st.attack(elite) and st.defense(guard) < st.attack(zealot)
    before, after = st.seat_totals(), made(st)
    assert after[1] == before[1]._replace(
        power=9000 - st.attack(elite), defense=before[1].defense - st.defense(guard)
    )


def test_a_guard_no_attacker_beats_stops_every_attack() -> None:
    """Choice 11: an attack below the defense would cost the attacker's player, so none is
    made, and the guard keeps the player out of reach (choice 13)."""
    t = Table(["saiyan-elite"], ["overlard"])
    t.pylons(2)
    elite = t.play("saiyan-elite")
    t.end()
    wall = t.play("overlard", defense=True)
    t.end()
    st = t.state
    assert st.defense(wall) > st.attack(elite)
    assert made(st) == st.seat_totals()
    assert threatened().values(st) == EVAL.values(st)


def keywords_read(state: GammaState) -> dict[int, int]:
    """The keyword bits `seat_totals` reads for each card on the field."""
    keywords: dict[int, int] = {}
    state.seat_totals(keywords=keywords)
    return keywords


def assert_keywords_read_as_has_reads_them(state: GammaState) -> None:
    """Every card on the field has, in `seat_totals`' reading, the keywords `has` finds."""
    read = keywords_read(state)
    assert set(read) == set(state.field(0) + state.field(1))
    for slot, bits in read.items():
        for keyword in KEYWORD_BITS.values():
            assert bool(bits & keyword) == state.has(slot, keyword)


def test_the_leafs_keywords_are_those_has_finds_static_abilities_and_all() -> None:
    """Shady Templar (cards.toml: "if you control another character, this can't be
    attacked"), granted by a static ability beside a character and not alone; then every
    step of a random game."""
    t = Table(["saiyan-elite"], ["shady-templar", "saiyan-pod-baby"])
    st = t.state
    t.pylons(2)
    t.play("saiyan-elite")
    t.end()
    t.pylons(2)
    shady = t.play("shady-templar")
    t.end()
    t.end()
    assert not keywords_read(st)[shady] & UNATTACKABLE
    t.play("saiyan-pod-baby", defense=True)
    assert keywords_read(st)[shady] & UNATTACKABLE
    assert_keywords_read_as_has_reads_them(st)
    state, dealer, rng = Table(round_cap=8).state, LocalDealer(5), random.Random(5)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(dealer.sample(state))
            continue
        assert_keywords_read_as_has_reads_them(state)
        state.apply_action(rng.choice(state.legal_actions()))


def test_a_fitted_weights_file_loads_with_the_position_valued_as_it_stands(tmp_path: Path) -> None:
    """What scripts/tune_weights.py writes after the weights (`TUNING.settings`) is all the
    evaluation asks beside them."""
    lines = [f"{name} = 0.5" for name in TUNING.features]
    lines += [f"{name} = {value}" for name, value in TUNING.settings(0.0).items()]
    path = tmp_path / "gammasphere.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    loaded = GammaWeights.load(path)
    assert loaded.vector == (0.5,) * len(GAMMA_FEATURES)


@pytest.mark.parametrize("game", ["rpg-battle", "getgem", "rise-of-the-guys", "rpg-get"])
def test_a_game_naming_no_search_evaluation_searches_on_the_one_greedy_reads(game: str) -> None:
    """`GameInfo.search_evaluation` is Gammasphere's alone: elsewhere the search's leaves and
    greedy read one evaluation, and the registration is what decides it."""
    assert evaluation(game, search=True) is evaluation(game)
    assert evaluation("gammasphere", search=True) is not evaluation("gammasphere")
