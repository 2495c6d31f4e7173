"""The Rise of the Guys evaluation (ai/guys_eval.py): sane on complete states and on
replicas, and what it prefers is what the rules reward."""

from __future__ import annotations

import random

from eval_helpers import assert_replicas_valued_in_bounds
from guys_helpers import Table

from ai.evaluation import evaluation
from p2pcards.dealer import LocalDealer
from p2pcards.games.rise_of_the_guys.actions import PASS
from p2pcards.games.rise_of_the_guys.state import LANES, BoardSums, GuysState

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


def board_read_guy_by_guy(state: GuysState, seat: int) -> BoardSums:
    """A seat's BoardSums from each Guy's own stats (`attack`, `health`, ...)."""
    attack = health = hidden = pressure = kills = 0.0
    for lane in range(LANES):
        guy, foe = state.lane_guy(seat, lane), state.lane_guy(1 - seat, lane)
        if guy < 0:
            continue
        if state.face_down(guy) and state.card_at(guy) is None:
            hidden += 1
            continue
        attack += state.attack(guy)
        health += max(0, state.health(guy) - state.damage(guy))
        if state.prepared(guy):
            continue
        if foe < 0:
            pressure += state.attack(guy)
        elif not state.face_down(foe) and state.attack(guy) >= (
            state.health(foe) - state.damage(foe)
        ):
            kills += 1
    vest = state.vest(seat) >= 0
    life, hand, deck = state.life(seat), state.hand_size(seat), state.deck_size(seat)
    return BoardSums(attack, health, hidden, pressure, kills, life, hand, deck, vest)


def test_the_board_an_evaluation_reads_is_each_guys_stats_summed() -> None:
    """GuysState.board_sums, read in one pass at every leaf of a search, agrees with the
    Guys' stats read one by one, on both seats' replicas at every step of random games."""
    boards = 0
    for seed in range(3):
        state, dealer, rng = Table(round_cap=10).state, LocalDealer(seed), random.Random(seed)
        while not state.is_terminal():
            for viewer in (0, 1):
                seen = state.observation(viewer)
                expected = tuple(board_read_guy_by_guy(seen, seat) for seat in (0, 1))
                assert seen.board_sums(seen.bonuses()) == expected
                boards += sum(1 for board in expected if board.attack or board.hidden)
            state.apply_action(
                dealer.sample(state)
                if state.is_chance_node()
                else rng.choice(state.legal_actions())
            )
    assert boards > 50  # boards with Guys on them, not empty ones alone
