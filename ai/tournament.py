"""Tournaments: a schedule of seeded games, run in worker processes or on a Dask cluster.

The schedule is a pure function of the configuration: every pairing (round-robin) or
every agent against the first (gauntlet), `games` games each. Games come in pairs on
the same deal with the seats turned round, so luck of the deal cancels out, and over
each pair every agent holds every seat equally often. Each game's seed derives from
`--seed`, the pairing and the game's index, so with deterministic agents (node budgets)
the results do not depend on how many workers ran them, or in what order.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass
from typing import Any

from ai.match import MatchResult, play_match
from ai.ratings import Rating, Sprt
from ai.results_db import ResultsDatabase, StoredGame

FORMATS = ("round-robin", "gauntlet")


class TournamentError(ValueError):
    """A tournament that cannot be played as asked."""


@dataclass(frozen=True)
class TournamentConfig:
    """Everything that decides a tournament's games (and must match to resume it)."""

    game: str
    agents: tuple[str, ...]
    seats: int = 2
    games: int = 10  # per pairing
    format: str = "round-robin"
    seed: int = 0
    round_cap: int | None = 100
    move_timeout: float | None = None
    options: tuple[tuple[str, Any], ...] = ()  # the game's own options, as (key, value) pairs

    def __post_init__(self) -> None:
        if len(set(self.agents)) < 2 or len(set(self.agents)) != len(self.agents):
            raise TournamentError("a tournament needs at least two different agents")
        if self.format not in FORMATS:
            raise TournamentError(f"--format is round-robin or gauntlet, not {self.format!r}")
        if self.games < 1:
            raise TournamentError("--games must be at least 1")

    def pairings(self) -> list[tuple[str, str]]:
        """Who plays whom: every pair, or (gauntlet) every agent against the first."""
        if self.format == "gauntlet":
            return [(self.agents[0], other) for other in self.agents[1:]]
        return list(itertools.combinations(self.agents, 2))

    def schedule(self) -> list[GameSpec]:
        """Every game of the tournament, numbered from 0."""
        specs: list[GameSpec] = []
        for p, pair in enumerate(self.pairings()):
            for i in range(self.games):
                # Games 2k and 2k+1 share a deal; the pair round the table turns one seat.
                seats = tuple(pair[(seat + i) % 2] for seat in range(self.seats))
                specs.append(GameSpec(len(specs), p, seats, game_seed(self.seed, p, i // 2)))
        return specs

    def stored(self) -> dict[str, Any]:
        """The configuration as JSON data, for the database."""
        data = asdict(self)
        data["agents"] = list(self.agents)
        del data["options"]
        if self.options:  # left out when empty, so tournaments stored before them resume
            data["options"] = dict(self.options)
        return data


@dataclass(frozen=True)
class GameSpec:
    """One scheduled game."""

    number: int
    pairing: int
    agents: tuple[str, ...]  # by seat
    seed: int


def game_seed(base: int, pairing: int, deal: int) -> int:
    """A game's seed from the tournament seed, the pairing and the deal's index."""
    digest = hashlib.sha256(f"p2pcards/{base}/{pairing}/{deal}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def run_games(config: TournamentConfig, specs: tuple[GameSpec, ...]) -> list[MatchResult]:
    """Play scheduled games one after another (in a worker)."""
    return [
        play_match(
            config.game,
            list(spec.agents),
            spec.seed,
            config.round_cap,
            move_timeout=config.move_timeout,
            options=dict(config.options),
        )
        for spec in specs
    ]


def stored_game(spec: GameSpec, result: MatchResult) -> StoredGame:
    """A finished game as the database keeps it."""
    return StoredGame(
        spec.number, spec.pairing, spec.agents, spec.seed, result.returns, result.status,
        result.faulty_seat, result.error, result.steps, result.seconds,
    )  # fmt: skip


def local_executor(jobs: int | None = None) -> Executor:
    """Worker processes, one per core by default."""
    return ProcessPoolExecutor(jobs or os.cpu_count() or 1)


def play(
    config: TournamentConfig,
    database: ResultsDatabase,
    executor: Executor,
    workers: int,
    on_game: Callable[[StoredGame], None] = lambda game: None,
    stop: Callable[[list[StoredGame]], bool] | None = None,
    batched: bool = False,
    interrupted: threading.Event | None = None,
) -> int:
    """Play the games not yet in the database, storing each as it comes back.

    Tasks go to the executor two per worker at a time: enough to keep every worker busy,
    few enough that stopping (Ctrl-C, or `stop` saying so) wastes little. A task is one
    game, so each game is stored the moment it ends, unless `batched`: then, with many
    more games than workers, a few games share a task, so that a cluster's cost per task
    does not outweigh short games (they are stored when their task returns; a run killed
    meanwhile plays them again on --resume, to the same results). Setting `interrupted`
    (from a signal handler, say) stops the run within a fifth of a second, after storing
    what has come back. Returns how many games were played.
    """
    done = {game.number for game in database.games()}
    todo = [spec for spec in config.schedule() if spec.number not in done]
    size = max(1, min(32, len(todo) // (6 * workers))) if batched else 1
    batches = iter([tuple(todo[i : i + size]) for i in range(0, len(todo), size)])
    running: dict[Future[list[MatchResult]], tuple[GameSpec, ...]] = {}
    played = 0
    try:
        for batch in itertools.islice(batches, 2 * workers):
            running[executor.submit(run_games, config, batch)] = batch
        while running:
            finished, _ = wait(running, timeout=0.2, return_when=FIRST_COMPLETED)
            if interrupted is not None and interrupted.is_set():
                break
            for future in finished:
                batch = running.pop(future)
                for spec, result in zip(batch, future.result(), strict=True):
                    game = stored_game(spec, result)
                    database.add(game)
                    played += 1
                    on_game(game)
            if stop is not None and stop(database.games()):
                break
            for batch in itertools.islice(batches, len(finished)):
                running[executor.submit(run_games, config, batch)] = batch
    finally:
        for future in running:
            future.cancel()
    return played


def points_by_agent(game: StoredGame) -> dict[str, float]:
    """Each agent's points in a game: the returns of the seats it held."""
    points: dict[str, float] = {}
    for agent, value in zip(game.agents, game.returns, strict=True):
        points[agent] = points.get(agent, 0.0) + value
    return points


@dataclass(frozen=True)
class Standings:
    """Ratings per agent (against the field) and per pairing (first agent against second)."""

    agents: dict[str, Rating]
    pairings: dict[tuple[str, str], Rating]
    failures: dict[str, dict[str, int]]  # agent -> status -> games lost that way


def standings(config: TournamentConfig, games: list[StoredGame]) -> Standings:
    """The statistics of the stored games."""
    by_agent: dict[str, list[float]] = {agent: [] for agent in config.agents}
    pairs = config.pairings()
    by_pair: dict[tuple[str, str], list[float]] = {pair: [] for pair in pairs}
    failures: dict[str, dict[str, int]] = {agent: {} for agent in config.agents}
    for game in games:
        points = points_by_agent(game)
        for agent, value in points.items():
            by_agent[agent].append(value)
        pair = pairs[game.pairing]
        by_pair[pair].append(points[pair[0]])
        if game.faulty_seat is not None:
            culprit = failures[game.agents[game.faulty_seat]]
            culprit[game.status] = culprit.get(game.status, 0) + 1
    return Standings(
        {agent: Rating.of(values) for agent, values in by_agent.items() if values},
        {pair: Rating.of(values) for pair, values in by_pair.items() if values},
        failures,
    )


def sprt_stop(config: TournamentConfig, sprt: Sprt) -> Callable[[list[StoredGame]], bool]:
    """A stop rule for two agents: decided on the games numbered 0..k-1 with none missing,
    so the decision does not depend on which worker finished first."""
    if len(config.agents) != 2:
        raise TournamentError("--sprt compares exactly two agents")

    def stop(games: list[StoredGame]) -> bool:
        return sprt_decision(config, sprt, games) is not None

    return stop


def sprt_decision(config: TournamentConfig, sprt: Sprt, games: list[StoredGame]) -> str | None:
    """H0, H1 or None, on the unbroken run of games from number 0."""
    prefix = []
    for expected, game in enumerate(games):
        if game.number != expected:
            break
        prefix.append(points_by_agent(game)[config.agents[0]])
    return sprt.decision(prefix)
