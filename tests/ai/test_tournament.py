"""Tournaments as a library: the schedule, worker-count independence, failing bots recorded."""

import sys
from collections import Counter
from pathlib import Path

import pytest

from ai.agents import AGENTS
from ai.match import play_match
from ai.results_db import ResultsDatabase, ResultsDatabaseError, StoredGame
from ai.tournament import TournamentConfig, TournamentError, local_executor, play, standings

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
