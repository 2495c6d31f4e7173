"""Headless games among agents: one game (`play_match`) and a series (`simulate`)."""

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ai.agents import Agent, make_agent
from ai.defaults import DEFAULT_ROUND_CAP as DEFAULT_ROUND_CAP  # scripts import it here
from ai.errors import AgentCrashed, AgentFailure, AgentIllegalAction, AgentTimedOut
from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.engine import Action, State, forfeit_returns
from p2pcards.errors import IllegalActionError

# Called after each agent's move with the game's seed, the seat, its observation, the
# action and the agent (whose `last` report `--explain` prints).
MoveHook = Callable[[int, int, State, Action, Agent], None]


@dataclass(frozen=True)
class MatchResult:
    """One finished game: who sat where, who won, how long it took, and what went wrong.

    A game whose agent crashed, timed out or played an illegal action ends there: `status`
    says which, `faulty_seat` whose agent, and that seat forfeits (returns 0, the other
    seats share the win).
    """

    seed: int
    agents: tuple[str, ...]  # by seat
    returns: tuple[float, ...]  # by seat
    winners: tuple[int, ...]
    steps: int
    status: str = "ok"  # ok, crash, timeout or illegal
    faulty_seat: int | None = None
    error: str = ""
    seconds: float = field(default=0.0, compare=False)


def play_match(
    game_name: str,
    agent_specs: list[str],
    seed: int,
    round_cap: int | None = DEFAULT_ROUND_CAP,
    on_move: MoveHook | None = None,
    move_timeout: float | None = None,
    options: Mapping[str, Any] | None = None,
) -> MatchResult:
    """Play one game, agent_specs[i] in seat i, everything seeded from `seed`; `options` are
    the game's own (getgem's match=True, say)."""
    started = time.monotonic()
    game = games.load(game_name)
    state = game.new_initial_state(len(agent_specs), round_cap=round_cap, **(options or {}))
    dealer = LocalDealer(seed)
    agents = [
        make_agent(spec, seed * 1000 + seat, move_timeout) for seat, spec in enumerate(agent_specs)
    ]
    steps = 0
    seat = 0
    try:
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(dealer.sample(state))
            else:
                seat = state.current_player()
                observation = state.observation(seat)
                action = _timed_act(agents[seat], observation, move_timeout)
                if on_move is not None:
                    on_move(seed, seat, observation, action, agents[seat])
                _apply_agent_action(state, action)
            steps += 1
    except AgentFailure as failure:
        n = len(agent_specs)
        returns = tuple(forfeit_returns(n, [seat]))
        winners = tuple(s for s in range(n) if s != seat)
        seconds = time.monotonic() - started
        return MatchResult(
            seed, tuple(agent_specs), returns, winners, steps, failure.status, seat,
            str(failure), seconds,
        )  # fmt: skip
    finally:
        for agent in agents:
            close = getattr(agent, "close", None)
            if close is not None:
                close(state)
    returns = tuple(state.returns())
    winners = tuple(s for s, r in enumerate(returns) if r > 0)
    seconds = time.monotonic() - started
    return MatchResult(seed, tuple(agent_specs), returns, winners, steps, seconds=seconds)


def _timed_act(agent: Agent, observation: State, move_timeout: float | None) -> Action:
    """The agent's action; AgentTimedOut if it took longer than the timeout."""
    started = time.monotonic()
    try:
        action = agent.act(observation)
    except AgentFailure:
        raise
    except Exception as exc:  # a plugin's bug is that agent's loss, not the harness's
        raise AgentCrashed(f"act() raised {type(exc).__name__}: {exc}") from None
    took = time.monotonic() - started
    if move_timeout is not None and took > move_timeout:
        raise AgentTimedOut(f"took {took:.2f} s for a move; the limit is {move_timeout:g} s")
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
    """Wins (a shared win counts as a fraction) per agent and per seat."""

    games: int = 0
    wins_by_agent: dict[str, float] = field(default_factory=dict)
    games_by_agent: dict[str, int] = field(default_factory=dict)
    wins_by_seat: dict[int, float] = field(default_factory=dict)
    wins_by_agent_seat: dict[str, dict[int, float]] = field(default_factory=dict)
    steps: int = 0

    def add(self, result: MatchResult) -> None:
        """Count one game."""
        self.games += 1
        self.steps += result.steps
        for seat, (spec, value) in enumerate(zip(result.agents, result.returns, strict=True)):
            self.games_by_agent[spec] = self.games_by_agent.get(spec, 0) + 1
            self.wins_by_agent[spec] = self.wins_by_agent.get(spec, 0.0) + value
            self.wins_by_seat[seat] = self.wins_by_seat.get(seat, 0.0) + value
            by_seat = self.wins_by_agent_seat.setdefault(spec, {})
            by_seat[seat] = by_seat.get(seat, 0.0) + value


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
) -> Tally:
    """Play `num_games` games with seats rotated; game i uses seed + i."""
    tally = Tally()
    for i in range(num_games):
        specs = seating(agent_specs, seats, i)
        tally.add(play_match(game_name, specs, seed + i, round_cap, on_move, options=options))
    return tally
