"""Headless games among agents: one game (`play_match`) and a series (`simulate`).

An agent spec may carry a label, `name=LABEL` among its options
(`expectimax:think_ms=50:name=fast`, read by `ai.agents.split_label`): the label names the
agent in tables and records. Without one the label is the whole spec, never shortened, so
two settings of one agent stay apart.
"""

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ai.agents import Agent, make_agent, split_label
from ai.belief import show_decision
from ai.clock import AgentLostOnTime, Clock, TimeControl
from ai.defaults import DEFAULT_ROUND_CAP as DEFAULT_ROUND_CAP  # scripts import it here
from ai.errors import (
    AgentCrashed,
    AgentFailure,
    AgentIllegalAction,
    AgentSpecError,
    AgentTimedOut,
)
from ai.records import GameRecord, event_of
from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.engine import Action, State, forfeit_returns
from p2pcards.errors import IllegalActionError
from p2pcards.history import Event, witnessed

# Called after each agent's move with the game's number, the seat, its observation, the
# action and the agent (whose `last` report `--explain` prints).
MoveHook = Callable[[int, int, State, Action, Agent], None]


def labels(specs: list[str]) -> list[str]:
    """The label of each spec; AgentSpecError if two different specs share one."""
    seen: dict[str, str] = {}
    out = []
    for spec in specs:
        label, _ = split_label(spec)
        if seen.setdefault(label, spec) != spec:
            raise AgentSpecError(f"two agents are labelled {label!r}: {seen[label]} and {spec}")
        out.append(label)
    return out


@dataclass(frozen=True)
class MatchResult:
    """One finished game: who sat where, who won, how long it took, and what went wrong.

    A game whose agent crashed, timed out or played an illegal action ends there: `status`
    says which, `faulty_seat` whose agent, and that seat forfeits (returns 0, the other
    seats share the win).
    """

    seed: int
    agents: tuple[str, ...]  # specs by seat, as given (labels included)
    returns: tuple[float, ...]  # by seat
    winners: tuple[int, ...]
    steps: int
    status: str = "ok"  # ok, crash, timeout or illegal
    faulty_seat: int | None = None
    error: str = ""
    seconds: float = field(default=0.0, compare=False)
    actions: tuple[Event, ...] = ()  # every step in full, when asked to record them


def play_match(
    game_name: str,
    agent_specs: list[str],
    seed: int,
    round_cap: int | None = DEFAULT_ROUND_CAP,
    on_move: MoveHook | None = None,
    move_timeout: float | None = None,
    options: Mapping[str, Any] | None = None,
    number: int = 1,
    record: bool = False,
    log_dir: Path | None = None,
    time_control: TimeControl | None = None,
) -> MatchResult:
    """Play one game, agent_specs[i] in seat i, everything seeded from `seed`; `options` are
    the game's own (getgem's match=True, say).

    `number` is the game's number in its run, from 1 (for `on_move` and log names);
    `record` keeps every action in the result; `log_dir` receives each bot program's
    stderr, in game-NUMBER-seat-S.log. With a `time_control` each seat has a chess clock, and
    a seat whose clock runs out loses on time.
    """
    started = time.monotonic()
    game = games.load(game_name)
    state = game.new_initial_state(len(agent_specs), round_cap=round_cap, **(options or {}))
    dealer = LocalDealer(seed)
    agents = []
    for seat, spec in enumerate(agent_specs):
        agent = make_agent(spec, seed * 1000 + seat, move_timeout)
        if log_dir is not None and hasattr(agent, "stderr_path"):
            agent.stderr_path = log_dir / f"game-{number}-seat-{seat}.log"
        agents.append(agent)
    events: list[Event] = []
    # Agents that are told every step as their seat saw it (a bot's events since its last
    # question): the optional `witness(event)` hook.
    witnesses = [(s, a.witness) for s, a in enumerate(agents) if hasattr(a, "witness")]
    # Agents that read their opponents (`watch`) are shown each other seat's decision from
    # their own seat's view (ai/belief.py).
    watching = any(hasattr(a, "watch") for a in agents)
    clocks = {s: Clock(time_control) for s in range(len(agents))} if time_control else {}
    steps = 0
    seat = 0
    try:
        while not state.is_terminal():
            if state.is_chance_node():
                action = dealer.sample(state)
            else:
                seat = state.current_player()
                observation = state.observation(seat)
                action = _timed_act(agents[seat], observation, move_timeout, clocks.get(seat))
                if on_move is not None:
                    on_move(number, seat, observation, action, agents[seat])
                if watching and isinstance(action, Action) and state.can_apply(action):
                    show_decision(agents, state, action)
            # Read before the action changes the state; kept once the action is applied.
            event = event_of(state, action) if record and isinstance(action, Action) else None
            told = [(w, witnessed(state, action, s)) for s, w in witnesses] if isinstance(
                action, Action) else []  # fmt: skip
            _apply_agent_action(state, action)
            if event is not None:
                events.append(event)
            for witness, seen in told:
                witness(seen)
            steps += 1
    except AgentFailure as failure:
        n = len(agent_specs)
        returns = tuple(forfeit_returns(n, [seat]))
        winners = tuple(s for s in range(n) if s != seat)
        seconds = time.monotonic() - started
        return MatchResult(
            seed, tuple(agent_specs), returns, winners, steps, failure.status, seat,
            str(failure), seconds, tuple(events),
        )  # fmt: skip
    finally:
        for agent in agents:
            close = getattr(agent, "close", None)
            if close is not None:
                close(state)
    returns = tuple(state.returns())
    winners = tuple(s for s, r in enumerate(returns) if r > 0)
    seconds = time.monotonic() - started
    return MatchResult(
        seed, tuple(agent_specs), returns, winners, steps, seconds=seconds, actions=tuple(events)
    )


def _timed_act(
    agent: Agent, observation: State, move_timeout: float | None, clock: Clock | None = None
) -> Action:
    """The agent's action; AgentTimedOut if it took longer than the timeout, AgentLostOnTime
    if its clock ran out."""
    # A bot program keeps the time itself: its clock starts when it says it is ready.
    keeps_time = getattr(agent, "keeps_time", False)
    limit = move_timeout
    if clock is not None:
        limit = clock.left if limit is None else min(limit, clock.left)
        if keeps_time:  # told its clock with the question, and stopped at its limit
            agent.move_timeout = limit  # type: ignore[attr-defined]
            agent.clock = clock  # type: ignore[attr-defined]
        on_clock = getattr(agent, "on_clock", None)
        if on_clock is not None:  # an in-process agent that budgets its move by the clock
            on_clock(clock)
    started = time.monotonic()
    try:
        action = agent.act(observation)
    except AgentTimedOut as exc:
        if clock is not None and limit == clock.left:  # the clock's limit, not the move's
            raise AgentLostOnTime(
                f"lost on time: {exc} (its clock had {clock.left:.2f} s, --tc {clock.control})"
            ) from None
        raise
    except AgentFailure:
        raise
    except Exception as exc:  # a plugin's bug is that agent's loss, not the harness's
        raise AgentCrashed(f"act() raised {type(exc).__name__}: {exc}") from None
    took = time.monotonic() - started
    if move_timeout is not None and took > move_timeout and not keeps_time:
        raise AgentTimedOut(f"took {took:.2f} s for a move; the limit is {move_timeout:g} s")
    if clock is not None:  # a bot answered within its limit, the handshake aside
        clock.spend(min(took, clock.left) if keeps_time else took)
    return action


def _apply_agent_action(state: State, action: object) -> None:
    """Apply an agent's answer, which a plugin could get wrong in any way."""
    if not isinstance(action, Action):
        raise AgentIllegalAction(f"returned {type(action).__name__}, not an action")
    try:
        state.apply_action(action)
    except IllegalActionError as exc:
        raise AgentIllegalAction(f"played an illegal action: {exc}") from None


@dataclass
class Tally:
    """Wins (a shared win counts as a fraction) per agent and per seat, and failures per
    agent; agents are counted under their labels."""

    games: int = 0
    wins_by_agent: dict[str, float] = field(default_factory=dict)
    games_by_agent: dict[str, int] = field(default_factory=dict)
    wins_by_seat: dict[int, float] = field(default_factory=dict)
    wins_by_agent_seat: dict[str, dict[int, float]] = field(default_factory=dict)
    steps: int = 0
    failures: dict[str, dict[str, int]] = field(default_factory=dict)  # label -> status -> games
    specs: dict[str, str] = field(default_factory=dict)  # label -> spec

    def add(self, result: MatchResult) -> None:
        """Count one game."""
        self.games += 1
        self.steps += result.steps
        names = labels(list(result.agents))
        for seat, (spec, label, value) in enumerate(
            zip(result.agents, names, result.returns, strict=True)
        ):
            self.specs[label] = spec
            self.failures.setdefault(label, {})
            self.games_by_agent[label] = self.games_by_agent.get(label, 0) + 1
            self.wins_by_agent[label] = self.wins_by_agent.get(label, 0.0) + value
            self.wins_by_seat[seat] = self.wins_by_seat.get(seat, 0.0) + value
            by_seat = self.wins_by_agent_seat.setdefault(label, {})
            by_seat[seat] = by_seat.get(seat, 0.0) + value
        if result.faulty_seat is not None:
            culprit = self.failures[names[result.faulty_seat]]
            culprit[result.status] = culprit.get(result.status, 0) + 1

    @property
    def failed_games(self) -> int:
        """Games that ended with an agent's failure."""
        return sum(sum(by_status.values()) for by_status in self.failures.values())


def seating(agent_specs: list[str], seats: int, game_index: int) -> list[str]:
    """Agents by seat for game `game_index`: the list round the table, rotated one seat a game."""
    return [agent_specs[(seat + game_index) % len(agent_specs)] for seat in range(seats)]


def simulate(
    game_name: str,
    agent_specs: list[str],
    seats: int,
    num_games: int,
    seed: int,
    round_cap: int | None = DEFAULT_ROUND_CAP,
    on_move: MoveHook | None = None,
    options: Mapping[str, Any] | None = None,
    move_timeout: float | None = None,
    deals: Sequence[int] = (),
    on_game: Callable[[int, MatchResult], None] | None = None,
    record: bool = False,
    log_dir: Path | None = None,
    time_control: TimeControl | None = None,
) -> Tally:
    """Play `num_games` games with seats rotated; game i (from 1) uses seed + i - 1, or with a
    deal book `deals`, its seeds in order (cycling). `on_game` hears of each game, by its
    number, as it ends."""
    tally = Tally()
    for i in range(num_games):
        specs = seating(agent_specs, seats, i)
        game_seed = deals[i % len(deals)] if deals else seed + i
        number = i + 1  # as people count: game 1 has the seed `seed`
        result = play_match(
            game_name, specs, game_seed, round_cap, on_move, move_timeout, options, number,
            record, log_dir, time_control,
        )  # fmt: skip
        tally.add(result)
        if on_game is not None:
            on_game(number, result)
    return tally


def game_record(
    result: MatchResult,
    number: int,
    game_name: str,
    options: Mapping[str, Any],
    round_cap: int | None,
) -> GameRecord:
    """A played game (with its actions recorded) as a records file keeps it."""
    return GameRecord(
        number, game_name, len(result.agents), dict(options), round_cap, result.seed,
        tuple(labels(list(result.agents))), result.agents, result.actions, result.returns,
        result.status, result.faulty_seat, result.error, result.seconds,
    )  # fmt: skip
