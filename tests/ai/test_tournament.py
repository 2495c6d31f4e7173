"""Tournaments as a library: the schedule, worker-count independence, failing bots recorded."""

import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from ai.agents import AGENTS
from ai.match import MatchResult, play_match
from ai.ratings import Sprt
from ai.results_db import ResultsDatabase, ResultsDatabaseError, StoredGame
from ai.tournament import (
    GameSpec,
    Keeping,
    SprtTracker,
    TournamentConfig,
    TournamentError,
    local_executor,
    play,
    standings,
)

FAST = ("greedy", "random", "expectimax:nodes=60:samples=2")


def test_round_robin_plays_every_pair_with_seats_rotated_and_deals_paired() -> None:
    config = TournamentConfig("rpg-battle", FAST, seats=2, games=4)
    schedule = config.schedule()
    assert len(schedule) == 3 * 4 and [s.number for s in schedule] == list(range(12))
    assert Counter(s.pairing for s in schedule) == {0: 4, 1: 4, 2: 4}
    for pairing in range(3):
        games = [s for s in schedule if s.pairing == pairing]
        # Every agent of the pair sits in every seat equally often...
        assert len(Counter((s.agents[seat], seat) for s in games for seat in (0, 1))) == 4
        assert set(Counter((s.agents[0], 0) for s in games).values()) == {2}
        # ...and games 2k, 2k+1 are the same deal with the seats turned round.
        assert games[0].seed == games[1].seed != games[2].seed == games[3].seed
        assert games[0].agents == games[1].agents[::-1]


def test_gauntlet_plays_everyone_against_the_first_and_three_seats_rotate_too() -> None:
    config = TournamentConfig("rpg-battle", ("a", "b", "c"), seats=3, games=2, format="gauntlet")
    assert config.pairings() == [("a", "b"), ("a", "c")]
    first = [s.agents for s in config.schedule() if s.pairing == 0]
    assert first == [("a", "b", "a"), ("b", "a", "b")]  # each agent in each seat once


@pytest.mark.parametrize(
    ("agents", "options", "message"),
    [
        (("greedy",), {}, "at least two different agents"),
        (("greedy", "greedy"), {}, "at least two different agents"),
        (("greedy", "random"), {"format": "swiss"}, "round-robin or gauntlet"),
    ],
)
def test_impossible_tournaments_are_refused(
    agents: tuple[str, ...], options: dict[str, str], message: str
) -> None:
    with pytest.raises(TournamentError, match=message):
        TournamentConfig("rpg-battle", agents, **options)  # type: ignore[arg-type]


def run(tmp: Path, name: str, config: TournamentConfig, jobs: int) -> list[StoredGame]:
    database = ResultsDatabase(tmp / f"{name}.sqlite")
    database.begin(config.stored(), resume=False)
    with local_executor(jobs) as executor:
        play(config, database, executor, jobs)
    games = database.games()
    database.close()
    return games


def same_results(games: list[StoredGame]) -> list[tuple[object, ...]]:
    """Everything but the time taken."""
    return [(g.number, g.agents, g.seed, g.returns, g.status, g.steps) for g in games]


def test_one_or_two_worker_processes_give_identical_results(tmp_path: Path) -> None:
    config = TournamentConfig("rpg-battle", FAST, games=2, seed=11)
    one = run(tmp_path, "one", config, jobs=1)
    two = run(tmp_path, "two", config, jobs=2)
    assert len(one) == 6 and all(g.status == "ok" for g in one)
    assert same_results(one) == same_results(two)


BOTS = {
    "crash": "import sys\nsys.stdin.readline()\nprint('boom', file=sys.stderr)\nsys.exit(3)\n",
    "garbage": "import sys\nsys.stdin.readline()\nprint('hello', flush=True)\nsys.stdin.read()\n",
    "wrong-index": (
        "import sys\nsys.stdin.readline()\n"
        'print(\'{"type": "act", "action": 999}\', flush=True)\nsys.stdin.read()\n'
    ),
    "silent": "import sys\nsys.stdin.read()\n",
}


def test_failing_bots_lose_their_games_with_the_reason_stored_and_the_run_goes_on(
    tmp_path: Path,
) -> None:
    specs = {}
    for name, source in BOTS.items():
        path = tmp_path / f"{name}.py"
        path.write_text(source)
        specs[name] = f"cmd:{sys.executable} {path}"
    config = TournamentConfig(
        "rpg-battle", ("random", *specs.values()), games=2, format="gauntlet", move_timeout=1.0
    )
    games = run(tmp_path, "bots", config, jobs=2)
    assert len(games) == 2 * len(BOTS)  # every game was played and stored
    expected = {
        "crash": "crash",
        "garbage": "illegal",
        "wrong-index": "illegal",
        "silent": "timeout",
    }
    for game in games:
        bot = next(name for name, spec in specs.items() if spec in game.agents)
        assert game.status == expected[bot], game.error
        assert game.faulty_seat is not None and game.agents[game.faulty_seat] == specs[bot]
        assert game.returns[game.faulty_seat] == 0.0 and sum(game.returns) == 1.0
    crashed = next(g for g in games if g.status == "crash")
    assert "exited with code 3" in crashed.error and "boom" in crashed.error
    assert any("999" in g.error for g in games)
    table = standings(config, games)
    assert table.agents["random"].score.wins == len(games)
    assert table.failures[specs["silent"]] == {"timeout": 2}


def test_a_database_holding_another_tournament_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    first = TournamentConfig("rpg-battle", ("greedy", "random"), games=2)
    run(tmp_path, "t", first, jobs=1)
    database = ResultsDatabase(path)
    with pytest.raises(ResultsDatabaseError, match="already holds a tournament"):
        database.begin(first.stored(), resume=False)
    database.begin(first.stored(), resume=True)  # the same one carries on
    other = TournamentConfig("rpg-battle", ("greedy", "random"), games=4)
    with pytest.raises(ResultsDatabaseError, match="games=2"):
        database.begin(other.stored(), resume=True)
    (tmp_path / "junk.sqlite").write_bytes(b"not a database, just bytes" * 100)
    with pytest.raises(ResultsDatabaseError, match="not a tournament database"):
        ResultsDatabase(tmp_path / "junk.sqlite")


class Raiser:
    """A plugin-style agent with a bug."""

    name = "raiser"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, observation: object) -> object:
        raise ZeroDivisionError("oops")


def test_an_in_process_agent_that_raises_loses_the_game_instead_of_stopping_the_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(AGENTS, "raiser", Raiser)
    result = play_match("rpg-battle", ["greedy", "raiser"], seed=1)
    assert (result.status, result.faulty_seat, result.returns) == ("crash", 1, (1.0, 0.0))
    assert "ZeroDivisionError: oops" in result.error


def test_a_deal_book_gives_every_pairing_the_same_deals_in_order() -> None:
    config = TournamentConfig("rpg-battle", FAST, games=6, deals=(5, 6))
    for pairing in range(3):
        seeds = [s.seed for s in config.schedule() if s.pairing == pairing]
        assert seeds == [5, 5, 6, 6, 5, 5]
    assert config.stored()["deals"] == [5, 6]
    assert "deals" not in TournamentConfig("rpg-battle", FAST).stored()  # old databases resume


def test_two_agents_may_not_share_a_label() -> None:
    with pytest.raises(TournamentError, match="two agents are labelled 'x'"):
        TournamentConfig("rpg-battle", ("greedy:name=x", "random:name=x"))
    config = TournamentConfig("rpg-battle", ("greedy:name=g", "random"))
    assert config.labels() == {"greedy:name=g": "g", "random": "random"}


def made_up(config: TournamentConfig, points: list[float]) -> list[StoredGame]:
    """Stored games of a two-agent tournament in which the first agent scored `points`."""
    games = []
    for spec, p in zip(config.schedule(), points, strict=False):
        first = spec.agents.index(config.agents[0])
        returns = tuple(p if seat == first else 1 - p for seat in range(2))
        games.append(StoredGame(spec.number, spec.pairing, spec.agents, spec.seed, returns,
                                "ok", None, "", 10, 0.1))  # fmt: skip
    return games


def test_pentanomial_counts_and_los_of_paired_deals() -> None:
    config = TournamentConfig("rpg-battle", ("greedy", "random"), games=10)
    # Deals: 2 points, 1 (a win and a loss), 1.5 (a win and a draw), 0, and half a pair.
    games = made_up(config, [1, 1, 1, 0, 1, 0.5, 0, 0, 1])
    table = standings(config, games)
    stats = table.paired[("greedy", "random")]
    assert stats.pentanomial == (1, 0, 1, 1, 1)
    assert 0.5 < stats.los < 1.0
    assert table.pairings[("greedy", "random")].score.games == 9  # every game still rated


def test_the_sprt_sees_the_unbroken_run_of_whole_pairs_whatever_the_order() -> None:
    config = TournamentConfig("rpg-battle", ("greedy", "random"), games=400)
    games = made_up(config, [1, 1, 1, 0] * 50)
    sprt = Sprt(elo0=0, elo1=100)
    in_order = SprtTracker(config, sprt, games)
    shuffled = SprtTracker(config, sprt, [])
    for game in random.Random(4).sample(games, len(games)):
        shuffled.add(game)
    assert in_order.status() == shuffled.status()
    status = in_order.status()
    assert status.paired and status.games == 200 and status.counts == (0, 0, 50, 0, 50)
    assert status.decision == "H1" and status.llr >= status.upper
    assert "LLR" in status.line() and "H1 accepted" in status.line()
    # A missing game stops the run there: later games wait for it.
    gap = SprtTracker(config, sprt, [g for g in games if g.number != 5])
    assert gap.status().games == 4
    with pytest.raises(TournamentError, match="exactly two agents"):
        SprtTracker(TournamentConfig("rpg-battle", FAST), sprt, [])


def test_a_run_hands_back_every_action_and_keeps_each_bots_stderr(tmp_path: Path) -> None:
    bot = tmp_path / "chatty.py"
    bot.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if message['type'] == 'observe':\n"
        "        print('thinking about', len(message['actions']), file=sys.stderr, flush=True)\n"
        "        print(json.dumps({'type': 'act', 'action': 0}), flush=True)\n"
    )
    spec = f"cmd:{sys.executable} {bot}:name=chatty"
    config = TournamentConfig("getgem", (spec, "random"), games=2, round_cap=10)
    database = ResultsDatabase(tmp_path / "t.sqlite")
    database.begin(config.stored(), resume=False)
    logs = tmp_path / "logs"
    logs.mkdir()
    results: dict[int, MatchResult] = {}

    def on_result(spec: GameSpec, result: MatchResult) -> None:
        results[spec.number] = result

    with local_executor(1) as executor:
        play(config, database, executor, 1, keeping=Keeping(True, str(logs)), on_result=on_result)
    database.close()
    assert sorted(results) == [0, 1] and all(r.actions for r in results.values())
    # The logs count games as people do, from 1 (the database's numbers are from 0).
    assert sorted(p.name for p in logs.iterdir()) == ["game-1-seat-0.log", "game-2-seat-1.log"]
    assert "thinking about" in (logs / "game-1-seat-0.log").read_text()
