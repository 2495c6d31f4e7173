"""`p2pcards agent-stdio`: a local game in which one seat is played over stdin and stdout.

The seat speaks the bot protocol (docs/bot-protocol.md), so a bot can be tried from a
shell, by hand or by a script, before it meets a tournament or a network table. A bad
answer gets an error line and the question stands: nothing is lost to a typo.
"""

import json
import sys
from typing import Annotated, Any, TextIO

import typer

from ai.defaults import DEFAULT_ROUND_CAP
from cli.errors import FAILURE, fail
from cli.options import agent_specs, game_named, seat_count


def agent_stdio(
    game: Annotated[str, typer.Argument(help="Game name (see `p2pcards games`).")],
    seats: Annotated[int | None, typer.Option(help="Seats at the table.")] = None,
    seat: Annotated[int, typer.Option(help="The seat played over stdin/stdout.")] = 0,
    agents: Annotated[
        str, typer.Option(help="Agents for the other seats, comma-separated, round the table.")
    ] = "greedy",
    seed: Annotated[int, typer.Option(help="Seed for the deal and the agents.")] = 0,
    round_cap: Annotated[
        int, typer.Option(min=1, help="Rounds before the tie-break decides the game.")
    ] = DEFAULT_ROUND_CAP,
) -> None:
    """Play one seat of a local game in JSON lines on stdin/stdout (the bot protocol)."""
    from ai.agents import make_agent
    from ai.bots import observe_message, result_message
    from ai.match import seating
    from p2pcards.dealer import LocalDealer

    g = game_named(game)
    n = seat_count(g, seats)
    if not 0 <= seat < n:
        raise fail(f"--seat is 0 to {n - 1} at a table of {n}")
    specs = seating(agent_specs(agents), n - 1, 0)
    others = [s for s in range(n) if s != seat]
    bots = {s: make_agent(spec, seed * 1000 + s) for s, spec in zip(others, specs, strict=True)}
    state = g.new_initial_state(n, round_cap=round_cap)
    dealer = LocalDealer(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(dealer.sample(state))
        elif state.current_player() == seat:
            observation = state.observation(seat)
            message = observe_message(observation)
            _send(sys.stdout, message)
            index = _answer(message["actions"])
            state.apply_action(observation.legal_actions()[index])
        else:
            mover = state.current_player()
            state.apply_action(bots[mover].act(state.observation(mover)))
    _send(sys.stdout, result_message(state, seat))


def _answer(actions: list[dict[str, Any]]) -> int:
    """Read lines until one is a valid act message."""
    from ai.bots import parse_act
    from ai.errors import AgentIllegalAction

    # Bytes, not text: a line that is not UTF-8 is the bot's mistake, which parse_act
    # explains, not a decoding error in our own reading.
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        try:
            return parse_act(line, actions)
        except AgentIllegalAction as exc:
            _send(sys.stdout, {"type": "error", "message": str(exc)})
    raise fail("stdin closed before the game ended", FAILURE)


def _send(stream: TextIO, message: dict[str, Any]) -> None:
    stream.write(json.dumps(message, separators=(",", ":")) + "\n")
    stream.flush()


def register(app: typer.Typer) -> None:
    """Add the agent-stdio command."""
    app.command("agent-stdio")(agent_stdio)
