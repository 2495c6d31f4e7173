"""Seeds that replay (issue 14): the same seed and the same answers give the same game.

A seeded expectimax agent searches a node budget, `think_ms` turned into nodes at the
game's calibrated rate; with `exact=true` nothing it does depends on the clock, the
machine's load or the process: two processes with different `PYTHONHASHSEED`s play the same
games to the node, and `p2pcards play` with the same seed and the same typed answers prints
the same game. Without it a search whose nodes run dear also stops at `CPU_CEILING` times
its budget in CPU time; `clock=true` stops at the wall clock.
"""

import itertools
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from positions import wounded_vex

import ai.match
from ai.agents import Agent, make_agent
from ai.clock import Clock, TimeControl
from ai.expectimax import DEFAULT_NODES_PER_MS, MOVES_AHEAD, ExpectimaxAgent, node_budget
from ai.match import play_match
from p2pcards import games

P2PCARDS = str(Path(sys.executable).with_name("p2pcards"))

# Games played in a child process: every move of every seat, with the searching agents'
# depth, nodes and root values, as JSON.
GAMES = """
import json, sys
from ai.match import play_match

moves = []

def hook(number, seat, observation, action, agent):
    last = getattr(agent, "last", None)
    values = None if last is None else sorted(map(repr, last.values.items()))
    search = None if last is None else [last.depth, last.nodes, values]
    moves.append([number, seat, repr(action), search])

for number, (game, specs, seed) in enumerate(json.loads(sys.argv[1])):
    result = play_match(game, specs, seed, round_cap=12, on_move=hook, number=number)
    moves.append([number, list(result.returns), result.steps])
print(json.dumps(moves))
"""

EXACT_5, EXACT_10 = "expectimax:think_ms=5:exact=true", "expectimax:think_ms=10:exact=true"
MATCHES = [
    ("rpg-battle", [EXACT_10, "greedy"], 11),
    ("rpg-battle", [EXACT_5, "random", f"{EXACT_5}:paranoid=true"], 4),
    ("getgem", [EXACT_10, f"{EXACT_10}:samples=3", "greedy"], 11),
]


def in_child(hash_seed: str, matches: list[tuple[str, list[str], int]]) -> list[list[Any]]:
    result = subprocess.run(
        [sys.executable, "-c", GAMES, json.dumps(matches)],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONHASHSEED": hash_seed},
        check=True,
    )
    moves: list[list[Any]] = json.loads(result.stdout)
    return moves


def test_the_same_seed_plays_the_same_games_in_processes_with_different_hash_seeds() -> None:
    first, second = in_child("1", MATCHES), in_child("2", MATCHES)
    assert first == second
    searches = [move[3] for move in first if len(move) == 4 and move[3] is not None]
    assert len(searches) > 20  # the searching seats did search
    assert any(depth >= 2 for depth, _, _ in searches)


# The collectible games' search keys hold names of phases and questions; as strings they
# hashed differently in each process, and so did the search's sampling (`_rng_at`).
COLLECTIBLE = [
    ("rise-of-the-guys", ["expectimax:nodes=200:samples=2", "greedy"], 60),
    ("gammasphere", ["greedy", "expectimax:nodes=200:samples=2"], 60),
]


def test_a_collectible_game_replays_in_processes_with_different_hash_seeds() -> None:
    first, second = in_child("1", COLLECTIBLE), in_child("2", COLLECTIBLE)
    assert first == second
    assert sum(1 for move in first if len(move) == 4 and move[3] is not None) > 20


def test_another_seed_plays_another_game() -> None:
    # Same deals (the dealer's seed), other agents' seeds: only the searches differ.
    game, specs, seed = MATCHES[0]
    same = in_child("0", [(game, specs, seed)])
    other = in_child("0", [(game, specs, seed + 1)])
    assert same != other


def test_a_seeded_search_never_reads_the_clock_to_decide() -> None:
    # A clock that jumps a second at every reading (a machine loaded to a crawl) changes
    # nothing: not the move, not the depth, not a node.
    state = wounded_vex("attack-iii", mystra_hit=False)
    calm = ExpectimaxAgent(3, think_ms=20, exact=True)
    calm.act(state.observation(0))
    ticks = itertools.count()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(time, "monotonic", lambda: float(next(ticks)))
        loaded = ExpectimaxAgent(3, think_ms=20, exact=True)
        loaded.act(state.observation(0))
    assert calm.last is not None and loaded.last is not None
    assert (calm.last.action, calm.last.depth, calm.last.nodes, calm.last.values) == (
        loaded.last.action,
        loaded.last.depth,
        loaded.last.nodes,
        loaded.last.values,
    )
    assert calm.last.nodes >= node_budget("rpg-battle", 2, 20)


def test_clock_true_stops_at_the_wall_clock() -> None:
    state = wounded_vex("attack-iii", mystra_hit=False)
    ticks = itertools.count()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(time, "monotonic", lambda: float(next(ticks)))
        hurried = ExpectimaxAgent(3, think_ms=20, clock=True)
        hurried.act(state.observation(0))
    assert hurried.last is not None
    assert hurried.last.depth == 1  # one whole iteration, then out of time
    assert hurried.budget("rpg-battle", 2) == (None, 0.02)
    assert ExpectimaxAgent(None, think_ms=20).budget("rpg-battle", 2) == (None, 0.02)


def test_a_search_whose_nodes_run_dear_stops_at_its_cpu_ceiling() -> None:
    # CPU time that jumps a second at every reading: past the first iteration (some answer
    # must be whole) the ceiling ends the search, long before the node budget; exact=true
    # searches the whole budget whatever the CPU time says.
    state = wounded_vex("attack-iii", mystra_hit=False)
    ticks = itertools.count()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(time, "process_time", lambda: float(next(ticks)))
        capped = ExpectimaxAgent(3, think_ms=20)
        capped.act(state.observation(0))
        exact = ExpectimaxAgent(3, think_ms=20, exact=True)
        exact.act(state.observation(0))
    assert capped.last is not None and exact.last is not None
    assert capped.last.capped and capped.last.depth == 1
    assert capped.last.nodes < node_budget("rpg-battle", 2, 20)
    assert not exact.last.capped and exact.last.nodes >= node_budget("rpg-battle", 2, 20)


def test_a_time_control_gives_each_move_its_share_of_the_clock() -> None:
    # 8 s for 40 moves: 0.2 s a move and the increment, by the wall clock; an explicit
    # think_ms that is less still bounds it. Told before one move only.
    clock = Clock(TimeControl(40, 8.0, 0.05))
    agent = ExpectimaxAgent(3)
    agent.on_clock(clock)
    assert agent.budget("rpg-battle", 2) == (None, pytest.approx(0.25))
    quick = ExpectimaxAgent(3, think_ms=100)
    quick.on_clock(clock)
    assert quick.budget("rpg-battle", 2) == (None, pytest.approx(0.1))
    sudden = Clock(TimeControl(None, 1.0))  # one period: the moves ahead are guessed
    agent.on_clock(sudden)
    assert agent.budget("rpg-battle", 2) == (None, pytest.approx(1.0 / MOVES_AHEAD))
    agent.act(wounded_vex("attack-iii", mystra_hit=False).observation(0))
    assert agent.budget("rpg-battle", 2) == (node_budget("rpg-battle", 2, 200), None)


def test_an_expectimax_seat_under_a_time_control_is_told_its_clock() -> None:
    told: list[float] = []

    class Listening(ExpectimaxAgent):
        def on_clock(self, clock: Clock) -> None:
            told.append(clock.left)
            super().on_clock(clock)

    def make(spec: str, seed: int | None = None, move_timeout: float | None = None) -> Agent:
        return Listening(seed, nodes=30) if spec == "listening" else make_agent(spec, seed)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ai.match, "make_agent", make)
        result = play_match("rpg-battle", ["listening", "greedy"], 3, round_cap=2,
                            time_control=TimeControl(None, 60.0))  # fmt: skip
    assert result.status == "ok", result.error
    assert told and told[0] == 60.0


def _rates(game: str) -> dict[int, int]:
    """The registered search rates of a game, by seat count."""
    return {rate.seats: rate.nodes_per_ms for rate in games.info(game).search_rates}


def test_think_ms_becomes_nodes_at_the_games_rate() -> None:
    rates = {name: _rates(name) for name in ("rpg-battle", "getgem")}
    assert rates["rpg-battle"] and rates["getgem"]  # both calibrated
    agent = ExpectimaxAgent(1, think_ms=20)
    assert agent.budget("rpg-battle", 2) == (20 * rates["rpg-battle"][2], None)
    assert agent.budget("getgem", 3) == (20 * rates["getgem"][3], None)
    assert agent.budget("no-such-game", 2) == (20 * DEFAULT_NODES_PER_MS, None)
    # Seat counts not measured take the nearest measured one's rate.
    top = max(rates["getgem"])
    assert node_budget("getgem", top + 3, 20) == 20 * rates["getgem"][top]
    # With both budgets, the smaller one.
    assert ExpectimaxAgent(1, think_ms=20, nodes=50).budget("rpg-battle", 2) == (50, None)
    assert ExpectimaxAgent(1).budget("rpg-battle", 2) == (200 * rates["rpg-battle"][2], None)
    assert ExpectimaxAgent(1, nodes=700).budget("getgem", 2) == (700, None)
    assert node_budget("getgem", 2, 0.001) == 1


def test_the_same_seed_in_the_same_position_moves_the_same_whatever_came_before() -> None:
    first = wounded_vex("attack-iii", mystra_hit=False)
    second = wounded_vex("attack", mystra_hit=True)
    fresh, used = (ExpectimaxAgent(8, think_ms=10, exact=True) for _ in range(2))
    used.act(second.observation(0))
    fresh.act(first.observation(0))
    used.act(first.observation(0))
    assert fresh.last is not None and used.last is not None
    assert (fresh.last.action, fresh.last.nodes, fresh.last.values) == (
        used.last.action,
        used.last.nodes,
        used.last.values,
    )


def play(seed: int, answers: str, hash_seed: str) -> subprocess.CompletedProcess[str]:
    """`p2pcards play getgem --seats 3 --seed SEED`, the answers typed in on stdin."""
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "PYTHONHASHSEED": hash_seed}
    return subprocess.run(
        [P2PCARDS, "play", "getgem", "--seats", "3", "--seed", str(seed), "--agents",
         "expectimax:think_ms=15:exact=true"],
        input=answers, capture_output=True, text=True, timeout=600, env=env,
    )  # fmt: skip


def test_play_with_the_same_seed_and_answers_prints_the_same_game() -> None:
    # Issue 14: "the same `play getgem --seats 3 --seed 11` with the same answers differs
    # from turn 2". Always the first choice, forty times, then the end of input (which
    # leaves the table, exit 130, if the game is not over by then).
    answers = "1\n" * 40
    first, again = play(11, answers, "1"), play(11, answers, "2")
    assert first.returncode in (0, 130), first.stderr
    assert first.stdout == again.stdout
    assert first.stdout.count("\n") > 30
    other = play(12, answers, "1")
    assert other.stdout != first.stdout


def records(command: str, tmp: Path, hash_seed: str, *args: str) -> list[dict[str, Any]]:
    """The game records `p2pcards COMMAND ... --records` writes, by game number, without
    their `seconds` (wall-clock time, the one thing a replay cannot repeat)."""
    out = tmp / f"{command}-{hash_seed}.jsonl"
    if command == "tournament":
        args = (*args, "--db", str(tmp / f"{hash_seed}.db"))
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "PYTHONHASHSEED": hash_seed}
    subprocess.run(
        [P2PCARDS, command, *args, "--seed", "5", "--records", str(out)],
        capture_output=True, text=True, timeout=600, env=env, check=True,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    games = [json.loads(line) for line in out.read_text().splitlines()]
    for game in games:
        game.pop("seconds", None)
    return sorted(games, key=lambda game: json.dumps(game, sort_keys=True))


@pytest.mark.parametrize(
    ("command", "args"),
    [
        ("simulate", ["rpg-battle", "--agents", f"{EXACT_5},greedy", "--games", "2"]),
        (
            "tournament",
            ["getgem", "--seats", "3", "--games", "2", "--jobs", "2", "--agents",
             f"{EXACT_5},{EXACT_5}:samples=2:name=few,greedy"],
        ),
    ],
)  # fmt: skip
def test_simulate_and_tournament_with_the_same_seed_write_the_same_records(
    command: str, args: list[str], tmp_path: Path
) -> None:
    first = records(command, tmp_path, "1", *args)
    assert first and all(game["actions"] for game in first)
    assert records(command, tmp_path, "2", *args) == first
