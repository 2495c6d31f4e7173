"""`p2pcards play`: a person at seat 0 of a local table, AI agents in the other seats."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from cli.narration import Narrator
from cli.wording import Seats

if TYPE_CHECKING:
    from ai.agents import Agent
    from cli.views import GameView, Picks
    from p2pcards.dealer import LocalDealer
    from p2pcards.engine import Action, State

KEYS = """\
Type the number of a choice and press Enter (where cards are numbered instead, the numbers
of those you pick, e.g. 2 4, or 0 for none).
  ?       this help
  b       the board again
  l [N]   the whole game so far, a page at a time (l again: the next page; l N: page N)
  q       quit the game (also Ctrl-D)"""


class Quit(Exception):
    """The person asked to leave the table."""


def local_names(agents: dict[int, Agent], num_players: int) -> list[str]:
    """Each seat's agent name ('expectimax'), '' for the person's."""
    return [agents[s].name if s in agents else "" for s in range(num_players)]


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
    Before each of the person's decisions, everything since the last one is told; at the
    end, the rest, the final board and the result.

    With `explain`, each searching agent's move is preceded by what its search thought.
    """
    narrator = Narrator(view, Seats(you, local_names(agents, state.num_players)))
    seen = state.observation(you)
    while not state.is_terminal():
        if state.is_chance_node():
            action = dealer.sample(state)
        elif state.current_player() == you:
            action = ask(seen, narrator, console, read_line)
        else:
            seat = state.current_player()
            observation = state.observation(seat)
            action = agents[seat].act(observation)
            thought = explanation(agents[seat], observation, view) if explain else None
            if thought:  # told before the move it explains
                narrator.tell([f"  (seat {seat} {Text.from_markup(thought).plain})"])
        state.apply_action(action)
        now = state.observation(you)
        narrator.saw(seen, action, now)
        seen = now
    finish(seen, narrator, console)
    return state


def finish(final: State, narrator: Narrator, console: Console) -> None:
    """The end of a game: what happened since the person's last decision, the final board,
    and the result (the last line told) if the game reached its end."""
    show_news(narrator, console)
    console.print(narrator.view.board(final, narrator.seats))
    if narrator.history and final.is_terminal():
        console.print(f"[bold]{escape(narrator.history[-1])}[/]")


def explanation(agent: Agent, observation: State, view: GameView) -> str | None:
    """What the agent's search made of its last move, if it searched (and had a choice)."""
    report = getattr(agent, "last", None)
    if report is None:
        return None
    from ai.expectimax import SearchReport  # an agent has a report once it searched

    if not isinstance(report, SearchReport) or len(report.values) < 2:
        return None
    return report.explain(lambda action: view.describe_choice(observation, action))


def show_news(narrator: Narrator, console: Console) -> None:
    """Everything told since the person's last decision."""
    news = narrator.news()
    if news:
        console.print(Text("\n".join(news)))


@dataclass(frozen=True)
class Menu:
    """What the person chooses from: the numbered actions, or (`picks`) some items of a list,
    typed as one line of their numbers."""

    actions: list[Action]
    picks: Picks | None = None

    def prompt_line(self) -> str:
        """The input prompt."""
        if self.picks is not None:
            return f"numbers [0-{len(self.picks.items)}, ? help, l log, q quit]: "
        return f"choice [1-{len(self.actions)}, ? help, l log, q quit]: "

    def choose(self, answer: str) -> Action | str:
        """The action an answer picks, or what is wrong with it."""
        if self.picks is None:
            number = _number(answer)
            if number is not None and 1 <= number <= len(self.actions):
                return self.actions[number - 1]
            return f"Please type a number from 1 to {len(self.actions)} (or ? for help)."
        items = self.picks.items
        words = answer.replace(",", " ").split()
        numbers = [n for n in map(_number, words) if n is not None]
        if not words or len(numbers) != len(words) or len(set(numbers)) != len(numbers):
            return f"Please type different numbers from 1 to {len(items)}, or 0 (? for help)."
        if numbers == [0]:
            return self.picks.action(frozenset())
        if not all(1 <= n <= len(items) for n in numbers):
            return f"Please type numbers from 1 to {len(items)}, or 0 alone (? for help)."
        return self.picks.action(frozenset(n - 1 for n in numbers))


def _number(word: str) -> int | None:
    """A typed number, or None: '²' is a digit int() refuses, and a thousand digits one it
    takes too long over (isdecimal is what int() reads)."""
    return int(word) if word.isdecimal() and len(word) <= 6 else None


def show_choices(obs: State, narrator: Narrator, console: Console) -> Menu:
    """Tell what happened, draw the board, the question and the choices; the menu."""
    view = narrator.view
    show_news(narrator, console)
    console.print(view.board(obs, narrator.seats))
    console.print(f"[bold]{escape(view.prompt(obs, narrator.seats))}[/]")
    # A view may ask some decisions as picks: a mulligan of five different cards would be
    # a menu of 32 subsets (seen in tmux), where one line of card numbers says it.
    picks: Picks | None = getattr(view, "picks", lambda state: None)(obs)
    if picks is not None:
        for i, item in enumerate(picks.items, 1):
            console.print(f"  [cyan]{i:2}[/]  {escape(item)}")
        console.print(escape(picks.question))
        return Menu(obs.legal_actions(), picks)
    actions = obs.legal_actions()
    for i, action in enumerate(actions, 1):
        console.print(f"  [cyan]{i:2}[/]  {view.describe_choice(obs, action)}")
    return Menu(actions)


def show_history(narrator: Narrator, console: Console, asked: str) -> None:
    """A page of the whole history: `asked` is 'l' (the next page) or 'l N'."""
    pages = narrator.pages()
    number = asked[1:].strip()
    wanted = _number(number)
    if wanted is not None and 1 <= wanted <= pages:
        page = wanted
    elif number:
        console.print(f"[yellow]There are {pages} pages: type l 1 to l {pages}.[/]")
        return
    elif narrator.reading >= pages:  # no page after the last: never back to page 1 unasked
        console.print(f"[yellow]That was the last page ({pages}); l 1 goes back to the first.[/]")
        return
    else:
        page = narrator.reading + 1
    narrator.reading = page
    more = "(l: next page)" if page < pages else "(the last page)"
    console.print(f"[bold]The game so far, page {page} of {pages}[/] {more}")
    console.print(Text("\n".join(narrator.page(page)) or "(nothing yet)"))


def answer_to(
    answer: str, menu: Menu, obs: State, narrator: Narrator, console: Console
) -> Action | None:
    """The action a typed answer picks, or None (after helping) to ask again; Quit on q."""
    answer = answer.strip().lower()
    if answer in ("q", "quit", "exit"):
        raise Quit
    if answer in ("?", "h", "help"):
        console.print(KEYS)
        console.print(Text(narrator.view.HELP))
    elif answer in ("b", "board"):
        console.print(narrator.view.board(obs, narrator.seats))
    elif answer == "l" or (answer.startswith("l ") and len(answer) > 2):
        show_history(narrator, console, answer)
    else:
        chosen = menu.choose(answer)
        if not isinstance(chosen, str):
            return chosen
        console.print(f"[yellow]{escape(chosen)}[/]")
    return None


def ask(
    obs: State, narrator: Narrator, console: Console, read_line: Callable[[str], str]
) -> Action:
    """Tell the news, show the board and numbered choices; ask until the answer is one of
    them (Quit on q/EOF)."""
    if len(obs.legal_actions()) == 1:
        return obs.legal_actions()[0]  # nothing to choose (e.g. no playable card): no prompt
    menu = show_choices(obs, narrator, console)
    while True:
        try:
            answer = read_line(menu.prompt_line())
        except EOFError:
            raise Quit from None
        action = answer_to(answer, menu, obs, narrator, console)
        if action is not None:
            return action
