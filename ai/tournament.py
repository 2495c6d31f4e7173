"""Tournaments: a schedule of seeded games, run in worker processes or on a Dask cluster.

The schedule is a pure function of the configuration: every pairing (round-robin) or
every agent against the first (gauntlet), `games` games each. Games come in pairs on
the same deal with the seats turned round, so luck of the deal cancels out, and over
each pair every agent holds every seat equally often. Each game's seed derives from
`--seed`, the pairing and the game's index (or comes from a deal book, one seed per deal,
every pairing playing the same deals), so with deterministic agents the results do not
depend on how many workers ran them, or in what order.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ai.clock import TimeControl
from ai.errors import AgentSpecError
from ai.match import MatchResult, labels, play_match
from ai.ratings import PENTANOMIAL, TRINOMIAL, Rating, Sprt, los, pentanomial, trinomial
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
    deals: tuple[int, ...] = ()  # a deal book's seeds, used in order instead of derived ones
    deck_agent: str | None = None
    """A tournament between decks: `agents` are then the decks' names, and this agent plays
    every one of them (`deck_lists` holds each deck's cards)."""
    deck_lists: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    time_control: str | None = None  # as cutechess writes it: 40/60+0.5

    def __post_init__(self) -> None:
        if len(set(self.agents)) < 2 or len(set(self.agents)) != len(self.agents):
            raise TournamentError("a tournament needs at least two different agents")
        try:
            labels(list(self.agents))
        except AgentSpecError as exc:
            raise TournamentError(str(exc)) from None
        if self.format not in FORMATS:
            raise TournamentError(f"--format is round-robin or gauntlet, not {self.format!r}")
        if self.games < 1:
            raise TournamentError("--games must be at least 1")
        if self.time_control is not None:
            try:
                TimeControl.parse(self.time_control)
            except ValueError as exc:
                raise TournamentError(str(exc)) from None

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
                specs.append(GameSpec(len(specs), p, seats, self.deal_seed(p, i // 2)))
        return specs

    def deal_seed(self, pairing: int, deal: int) -> int:
        """The seed of a pairing's deal: the deal book's, in order and cycling, or derived."""
        if self.deals:
            return self.deals[deal % len(self.deals)]
        return game_seed(self.seed, pairing, deal)

    def seat_agents(self, spec: GameSpec) -> list[str]:
        """The agent spec at each seat of a game (in a deck tournament, the one agent)."""
        if self.deck_agent is not None:
            return [self.deck_agent] * len(spec.agents)
        return list(spec.agents)

    def game_options(self, spec: GameSpec) -> dict[str, Any]:
        """One game's options: the tournament's, with each seat's deck in a deck tournament."""
        options = dict(self.options)
        if self.deck_agent is not None:
            lists = dict(self.deck_lists)
            options["decks"] = [dict(lists[entry]) for entry in spec.agents]
        return options

    def labels(self) -> dict[str, str]:
        """Each agent's label (its `name=`, or the whole spec)."""
        return dict(zip(self.agents, labels(list(self.agents)), strict=True))

    def pair_of(self, game: StoredGame) -> tuple[int, int]:
        """The pairing and deal a game belongs to: games 2k and 2k+1 of a pairing share one."""
        return game.pairing, (game.number - game.pairing * self.games) // 2

    def stored(self) -> dict[str, Any]:
        """The configuration as JSON data, for the database."""
        data = asdict(self)
        data["agents"] = list(self.agents)
        del data["options"], data["deals"], data["deck_agent"], data["deck_lists"]
        if self.time_control is None:  # tournaments stored before time controls resume
            del data["time_control"]
        if self.deck_agent is not None:
            data["deck_agent"] = self.deck_agent
            data["deck_lists"] = {name: dict(cards) for name, cards in self.deck_lists}
        # Left out when empty, so tournaments stored before they existed resume.
        if self.options:
            data["options"] = dict(self.options)
        if self.deals:
            data["deals"] = list(self.deals)
        return data


@dataclass(frozen=True)
class GameSpec:
    """One scheduled game."""

    number: int  # from 0, as stored in the database
    pairing: int
    agents: tuple[str, ...]  # by seat
    seed: int

    @property
    def shown(self) -> int:
        """The game's number as people count, from 1: in logs, records and --csv."""
        return self.number + 1


def game_seed(base: int, pairing: int, deal: int) -> int:
    """A game's seed from the tournament seed, the pairing and the deal's index."""
    digest = hashlib.sha256(f"p2pcards/{base}/{pairing}/{deal}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


@dataclass(frozen=True)
class Keeping:
    """What a run keeps of each game besides its result: every action (for a records file),
    and each bot's stderr in a folder (on the machine that plays the game)."""

    records: bool = False
    log_dir: str | None = None


def run_games(
    config: TournamentConfig, specs: tuple[GameSpec, ...], keeping: Keeping = Keeping()
) -> list[MatchResult]:
    """Play scheduled games one after another (in a worker)."""
    log_dir = Path(keeping.log_dir) if keeping.log_dir is not None else None
    control = None if config.time_control is None else TimeControl.parse(config.time_control)
    return [
        play_match(
            config.game,
            config.seat_agents(spec),
            spec.seed,
            config.round_cap,
            move_timeout=config.move_timeout,
            options=config.game_options(spec),
            number=spec.shown,
            record=keeping.records,
            log_dir=log_dir,
            time_control=control,
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
    stop: Callable[[], bool] | None = None,
    batched: bool = False,
    interrupted: threading.Event | None = None,
    keeping: Keeping = Keeping(),
    on_result: Callable[[GameSpec, MatchResult], None] | None = None,
) -> int:
    """Play the games not yet in the database, storing each as it comes back.

    Tasks go to the executor two per worker at a time: enough to keep every worker busy,
    few enough that stopping (Ctrl-C, or `stop` saying so) wastes little. A task is one
    game, so each game is stored the moment it ends, unless `batched`: then, with many
    more games than workers, a few games share a task, so that a cluster's cost per task
    does not outweigh short games (they are stored when their task returns; a run killed
    meanwhile plays them again on --resume, to the same results). Setting `interrupted`
    (from a signal handler, say) stops the run within a fifth of a second, after storing
    what has come back. `on_result` gets each game's full result (its actions, when
    `keeping` asks for them) before `on_game` gets the stored game; `stop` is asked after
    each batch of results. Returns how many games were played.
    """
    done = {game.number for game in database.games()}
    todo = [spec for spec in config.schedule() if spec.number not in done]
    size = max(1, min(32, len(todo) // (6 * workers))) if batched else 1
    batches = iter([tuple(todo[i : i + size]) for i in range(0, len(todo), size)])
    running: dict[Future[list[MatchResult]], tuple[GameSpec, ...]] = {}
    played = 0
    try:
        for batch in itertools.islice(batches, 2 * workers):
            running[executor.submit(run_games, config, batch, keeping)] = batch
        while running:
            finished, _ = wait(running, timeout=0.2, return_when=FIRST_COMPLETED)
            if interrupted is not None and interrupted.is_set():
                break
            for future in finished:
                batch = running.pop(future)
                for spec, result in zip(batch, future.result(), strict=True):
                    game = stored_game(spec, result)
                    if on_result is not None:
                        on_result(spec, result)
                    database.add(game)
                    played += 1
                    on_game(game)
            if stop is not None and stop():
                break
            for batch in itertools.islice(batches, len(finished)):
                running[executor.submit(run_games, config, batch, keeping)] = batch
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
class PairingStats:
    """A pairing's statistics beyond its rating: the first agent's paired-deal counts, and
    its likelihood of superiority (over paired deals when there are any, else games)."""

    pentanomial: tuple[int, int, int, int, int]  # deals scoring 0, 0.5, 1, 1.5, 2 points
    los: float


@dataclass(frozen=True)
class Standings:
    """Ratings per agent (against the field) and per pairing (first agent against second)."""

    agents: dict[str, Rating]
    pairings: dict[tuple[str, str], Rating]
    failures: dict[str, dict[str, int]]  # agent -> status -> games lost that way
    paired: dict[tuple[str, str], PairingStats] = field(default_factory=dict)


def paired_points(config: TournamentConfig, games: list[StoredGame]) -> dict[int, list[float]]:
    """Per pairing, the first agent's points over each deal both of whose games are stored."""
    pairs = config.pairings()
    halves: dict[tuple[int, int], list[float]] = {}
    for game in games:
        first = pairs[game.pairing][0]
        halves.setdefault(config.pair_of(game), []).append(points_by_agent(game)[first])
    out: dict[int, list[float]] = {p: [] for p in range(len(pairs))}
    for (pairing, _), points in sorted(halves.items()):
        if len(points) == 2:
            out[pairing].append(sum(points))
    return out


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
    paired: dict[tuple[str, str], PairingStats] = {}
    for pairing, deals in paired_points(config, games).items():
        pair = pairs[pairing]
        if not by_pair[pair]:
            continue
        counts = pentanomial(deals)
        chance = los(counts, PENTANOMIAL) if deals else los(trinomial(by_pair[pair]), TRINOMIAL)
        paired[pair] = PairingStats(counts, chance)
    return Standings(
        {agent: Rating.of(values) for agent, values in by_agent.items() if values},
        {pair: Rating.of(values) for pair, values in by_pair.items() if values},
        failures,
        paired,
    )


@dataclass(frozen=True)
class SprtStatus:
    """Where the SPRT stands: its log-likelihood ratio, bounds and decision, on the counts
    of the unbroken run of games from number 0 (paired deals when the games come in pairs)."""

    llr: float
    lower: float
    upper: float
    decision: str | None  # H0, H1, or None: play on
    games: int  # games the test has used
    counts: tuple[int, ...]  # pentanomial (paired) or losses, draws, wins
    paired: bool

    def line(self) -> str:
        """ "LLR 1.23 [-2.94, 2.94]", with the decision once there is one."""
        text = f"LLR {self.llr:.2f} [{self.lower:.2f}, {self.upper:.2f}]"
        return text + (f" {self.decision} accepted" if self.decision else "")


class SprtTracker:
    """The SPRT of a two-agent tournament, fed games as they are stored (in any order).

    The test sees only the games numbered 0..k-1 with none missing, so its decision does
    not depend on which worker finished first; with paired deals (games 2k and 2k+1), only
    whole pairs of that run.
    """

    def __init__(self, config: TournamentConfig, sprt: Sprt, games: list[StoredGame]) -> None:
        """Start from the games already stored."""
        if len(config.agents) != 2:
            raise TournamentError("--sprt compares exactly two agents")
        self.config, self.sprt = config, sprt
        self.paired = config.games >= 2
        self._waiting: dict[int, float] = {}
        self._next = 0  # the first game number not yet in the run
        self._points: list[float] = []
        self._counts = [0, 0, 0, 0, 0] if self.paired else [0, 0, 0]
        for game in games:
            self.add(game)

    def add(self, game: StoredGame) -> None:
        """Count one stored game."""
        self._waiting[game.number] = points_by_agent(game)[self.config.agents[0]]
        while self._next in self._waiting:
            self._points.append(self._waiting.pop(self._next))
            self._next += 1
            if not self.paired:
                self._counts[min(2, max(0, round(2 * self._points[-1])))] += 1
            elif self._next % 2 == 0:
                pair = self._points[-2] + self._points[-1]
                self._counts[min(4, max(0, round(2 * pair)))] += 1

    def status(self) -> SprtStatus:
        """The test on the games counted so far."""
        scores = PENTANOMIAL if self.paired else TRINOMIAL
        llr = self.sprt.llr(self._counts, scores)
        lower, upper = self.sprt.bounds
        used = 2 * sum(self._counts) if self.paired else sum(self._counts)
        return SprtStatus(
            llr, lower, upper, self.sprt.decide(llr), used, tuple(self._counts), self.paired
        )

    def decided(self) -> bool:
        """Whether the test has accepted either hypothesis (a stop rule for `play`)."""
        return self.status().decision is not None
