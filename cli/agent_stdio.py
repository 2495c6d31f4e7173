"""`p2pcards agent-stdio`: local games in which one seat is played over stdin and stdout.

The seat speaks the bot protocol (docs/bot-protocol.md) as the harness does: `hello` first,
then for each game `newgame` and `isready`, an `observe` (with the events since the last
one) whenever the seat must act, and `result`. So a bot can be tried from a shell, by hand
or by a script (`--games 3` shows it the `newgame`s of one process playing many), before it
meets a tournament or a network table. A bot that answers only `observe` (version 1) works
too. A bad answer gets an error line and the question stands: nothing is lost to a typo.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, Any, TextIO

import typer

from ai.defaults import DEFAULT_ROUND_CAP
from cli.errors import FAILURE, INTERRUPTED, err, fail
from cli.options import (
    GameArg,
    GameOptionsOpt,
    SeedOpt,
    agent_specs,
    agents_option,
    check_range,
    chosen_round_cap,
    chosen_seed,
    game_named,
    game_options,
    joined_agents,
    round_cap_option,
    seat_count,
)

if TYPE_CHECKING:
    from ai.agents import Agent
    from p2pcards.engine import Game


def agent_stdio(
    game: GameArg,
    seats: Annotated[int | None, typer.Option(help="Seats at the table.")] = None,
    seat: Annotated[int, typer.Option(help="The seat played over stdin/stdout.")] = 0,
    agents: Annotated[
        list[str] | None,
        agents_option(
            "Agents for the other seats, comma-separated (or --agents repeated), round the "
            "table; default greedy."
        ),
    ] = None,
    seed: SeedOpt = None,
    round_cap: Annotated[
        int, round_cap_option(DEFAULT_ROUND_CAP, "headless games")
    ] = DEFAULT_ROUND_CAP,
    num_games: Annotated[
        int, typer.Option("--games", help="Games in a row, each opened by newgame.")
    ] = 1,
    option: GameOptionsOpt = None,
) -> None:
    """Play one seat of local games in JSON lines on stdin/stdout (the bot protocol)."""
    from ai.bots import hello_message

    g = game_named(game)
    n = seat_count(g, seats)
    if not 0 <= seat < n:
        raise fail(f"--seat is 0 to {n - 1} at a table of {n}")
    check_range("--games", num_games, 1, 1_000_000)
    cap = chosen_round_cap(round_cap)
    options = game_options(g, n, option, round_cap=cap)
    specs = agent_specs(joined_agents(agents) or "greedy")
    seed = chosen_seed(seed)
    err.print(f"{g.name}: seat {seat} of {n}, {num_games} game(s), seed {seed}")
    reader = _Reader()
    try:
        _send(sys.stdout, hello_message())
        for number in range(num_games):
            _play(g, n, seat, specs, seed + number, {"round_cap": cap, **options}, reader)
    except KeyboardInterrupt:
        raise typer.Exit(INTERRUPTED) from None
    except BrokenPipeError:  # the other end stopped reading: it left before the end
        raise fail("stdout closed before the games ended", FAILURE) from None


def _play(
    g: Game, n: int, seat: int, specs: list[str], seed: int, options: dict[str, Any],
    reader: _Reader,
) -> None:  # fmt: skip
    """One game, `seat` over stdin/stdout and the agents round the rest of the table."""
    from ai.agents import make_agent
    from ai.bots import newgame_message, observe_message, result_message
    from ai.match import seating
    from p2pcards.dealer import LocalDealer
    from p2pcards.history import Witness, witnessed

    others = [s for s in range(n) if s != seat]
    bots: dict[int, Agent] = {
        s: make_agent(spec, seed * 1000 + s)
        for s, spec in zip(others, seating(specs, n - 1, 0), strict=True)
    }
    state = g.new_initial_state(n, **options)
    dealer = LocalDealer(seed)
    witness = Witness(seat)
    # The other seats' bots that are told each step too (a cmd: bot's events).
    watchers = [(s, b.witness) for s, b in bots.items() if hasattr(b, "witness")]
    started = False
    while not state.is_terminal():
        if state.is_chance_node():
            action = dealer.sample(state)
        elif state.current_player() == seat:
            observation = state.observation(seat)
            if not started:
                started = True
                _send(sys.stdout, newgame_message(observation, seed))
                _send(sys.stdout, {"type": "isready"})
                reader.readies += 1
            message = observe_message(observation, witness.take())
            _send(sys.stdout, message)
            action = observation.legal_actions()[reader.answer(message["actions"])]
        else:
            mover = state.current_player()
            action = bots[mover].act(state.observation(mover))
        witness.saw(state, action)
        for other, tell in watchers:
            tell(witnessed(state, action, other))
        state.apply_action(action)
    _send(sys.stdout, result_message(state, seat, witness.take()))
    for bot in bots.values():
        close = getattr(bot, "close", None)
        if close is not None:
            close(state)


class _Reader:
    """The seat's answers on stdin: a version-2 bot's hello and readyoks, then acts."""

    def __init__(self) -> None:
        self.greeted = False
        self.readies = 0  # isready sent, readyok not yet read (a v1 bot never sends one)

    def answer(self, actions: list[dict[str, Any]]) -> int:
        """Read lines until one is a valid act message; say what is wrong with any other."""
        from ai.bots import act_index, parse_hello, parse_line
        from ai.errors import AgentIllegalAction

        # Bytes, not text: a line that is not UTF-8 is the bot's mistake, which parse_line
        # explains, not a decoding error in our own reading.
        for line in sys.stdin.buffer:
            if not line.strip():
                continue
            try:
                message = parse_line(line)
                if message["type"] == "hello" and not self.greeted:
                    info = parse_hello(message)
                    self.greeted = True
                    err.print(f"bot: {info.name} {info.version} by {info.author or '?'}".strip())
                elif message["type"] == "readyok" and self.readies:
                    self.readies -= 1
                else:
                    index = act_index(message, actions)
                    self.readies = 0  # a v1 bot, or one past the handshake: nothing owed
                    return index
            except AgentIllegalAction as exc:
                _send(sys.stdout, {"type": "error", "message": str(exc)})
        raise fail("stdin closed before the game ended", FAILURE)


def _send(stream: TextIO, message: dict[str, Any]) -> None:
    stream.write(json.dumps(message, separators=(",", ":")) + "\n")
    stream.flush()


def register(app: typer.Typer) -> None:
    """Add the agent-stdio command."""
    app.command("agent-stdio")(agent_stdio)
