"""Headless games among agents: one game (`play_match`) and a series (`simulate`)."""

from collections.abc import Callable
from dataclasses import dataclass, field

from ai.agents import Agent, make_agent
from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.engine import Action, State

# Called after each agent's move with the game's seed, the seat, its observation, the
# action and the agent (whose `last` report `--explain` prints).
MoveHook = Callable[[int, int, State, Action, Agent], None]

DEFAULT_ROUND_CAP = 100


@dataclass(frozen=True)
class MatchResult:
    """One finished game: who sat where, who won, how long it took."""

    seed: int
    agents: tuple[str, ...]  # by seat
    returns: tuple[float, ...]  # by seat
    winners: tuple[int, ...]
    steps: int


def play_match(
    game_name: str,
    agent_specs: list[str],
    seed: int,
    round_cap: int | None = DEFAULT_ROUND_CAP,
    on_move: MoveHook | None = None,
) -> MatchResult:
    """Play one game, agent_specs[i] in seat i, everything seeded from `seed`."""
    game = games.load(game_name)
    state = game.new_initial_state(len(agent_specs), round_cap=round_cap)
    dealer = LocalDealer(seed)
    agents = [make_agent(spec, seed * 1000 + seat) for seat, spec in enumerate(agent_specs)]
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = dealer.sample(state)
        else:
            seat = state.current_player()
            observation = state.observation(seat)
            action = agents[seat].act(observation)
            if on_move is not None:
                on_move(seed, seat, observation, action, agents[seat])
        state.apply_action(action)
        steps += 1
    returns = tuple(state.returns())
    winners = tuple(s for s, r in enumerate(returns) if r > 0)
    return MatchResult(seed, tuple(agent_specs), returns, winners, steps)


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
) -> Tally:
    """Play `num_games` games with seats rotated; game i uses seed + i."""
    tally = Tally()
    for i in range(num_games):
        specs = seating(agent_specs, seats, i)
        tally.add(play_match(game_name, specs, seed + i, round_cap, on_move))
    return tally
