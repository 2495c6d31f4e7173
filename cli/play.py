"""`p2pcards play`: a person at seat 0 of a local table, AI agents in the other seats."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.console import Console

if TYPE_CHECKING:
    from ai.agents import Agent
    from cli.views import GameView
    from p2pcards.dealer import LocalDealer
    from p2pcards.engine import Action, State

HELP = """\
Type the number of a choice and press Enter.
  ?   this help
  b   show the board again
  q   quit the game (also Ctrl-D)
Your characters act left to right; each may play one card or pass.
Dodge and Counter are Quick Actions: you are asked about them when attacked."""


class Quit(Exception):
    """The person asked to leave the table."""


def run_local_game(
    state: State,
    view: GameView,
    agents: dict[int, Agent],
    dealer: LocalDealer,
    console: Console,
    read_line: Callable[[str], str],
    you: int = 0,
    explain: bool = False,
) -> State:
    """Play to the end: agents for their seats, the person (via `read_line`) for seat `you`.

    With `explain`, each searching agent's move is followed by what its search thought.
    """
    log: deque[str] = deque(maxlen=8)
    while not state.is_terminal():
        if state.is_chance_node():
            action = dealer.sample(state)
        elif state.current_player() == you:
            action = ask(state.observation(you), view, console, read_line, log, you)
        else:
            seat = state.current_player()
            observation = state.observation(seat)
            action = agents[seat].act(observation)
            thought = explanation(agents[seat], observation, view) if explain else None
            if thought:
                console.print(f"[dim]seat {seat} {thought}[/]")
        line = view.describe_move(state, action, you)
        state.apply_action(action)
        if line:
            log.append(line)
    console.print(view.board(state.observation(you), you, log))
    return state


def explanation(agent: Agent, observation: State, view: GameView) -> str | None:
    """What the agent's search made of its last move, if it searched (and had a choice)."""
    report = getattr(agent, "last", None)
    if report is None:
        return None
    from ai.expectimax import SearchReport  # an agent has a report once it searched

    if not isinstance(report, SearchReport) or len(report.values) < 2:
        return None
    return report.explain(lambda action: view.describe_choice(observation, action))


def show_choices(
    obs: State, view: GameView, console: Console, log: deque[str], you: int
) -> list[Action]:
    """Draw the board, the question and the numbered choices; the choices."""
    actions = obs.legal_actions()
    console.print(view.board(obs, you, log))
    console.print(f"[bold]{view.prompt(obs)}[/]")
    for i, action in enumerate(actions, 1):
        console.print(f"  [cyan]{i:2}[/]  {view.describe_choice(obs, action)}")
    return actions


def answer_to(
    answer: str, actions: list[Action], obs: State, view: GameView, console: Console,
    log: deque[str], you: int,
) -> Action | None:  # fmt: skip
    """The action a typed answer picks, or None (after helping) to ask again; Quit on q."""
    answer = answer.strip().lower()
    if answer in ("q", "quit", "exit"):
        raise Quit
    if answer in ("?", "h", "help"):
        console.print(HELP)
    elif answer in ("b", "board"):
        console.print(view.board(obs, you, log))
    elif answer.isdigit() and 1 <= int(answer) <= len(actions):
        return actions[int(answer) - 1]
    else:
        console.print(f"[yellow]Please type a number from 1 to {len(actions)} (or ? for help).[/]")
    return None


def prompt_line(actions: list[Action]) -> str:
    """The input prompt for a menu of `actions`."""
    return f"choice [1-{len(actions)}, ? help, q quit]: "


def ask(
    obs: State,
    view: GameView,
    console: Console,
    read_line: Callable[[str], str],
    log: deque[str],
    you: int,
) -> Action:
    """Show the board and numbered choices; ask until the answer is one of them (Quit on q/EOF)."""
    if len(obs.legal_actions()) == 1:
        return obs.legal_actions()[0]  # nothing to choose (e.g. no playable card): no prompt
    actions = show_choices(obs, view, console, log, you)
    while True:
        try:
            answer = read_line(prompt_line(actions))
        except EOFError:
            raise Quit from None
        action = answer_to(answer, actions, obs, view, console, log, you)
        if action is not None:
            return action
