"""`p2pcards play`: a person at seat 0 of a local table, AI agents in the other seats."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from cli.look import look
from cli.menus import Choice, Plan, choice_tree, planned
from cli.narration import Narrator
from cli.wording import Seats

if TYPE_CHECKING:
    from ai.agents import Agent
    from cli.views import GameView, Picks
    from p2pcards.dealer import LocalDealer
    from p2pcards.engine import Action, State

KEYS = """\
Type the number of a choice and press Enter. A line ending in … opens a short
menu of its own (the card's lane, target or amount); 0 goes back one level.
In your turn each card of your hand has its line and number, playable or not (a
dimmed line says why not); the other actions come after the hand.
Where cards are numbered instead, type the numbers of those you pick, e.g. 2 4,
or 0 for none.
  ?         this help
  b         back one level, and the board and the choices again
  i         the cards you can see, numbered
  i N       card N of that list in full (text, stats, damage, statuses, what is
  i NAME    on it); or the card of that name
  l [N]     the whole game so far, a page at a time (l: next page; l N: page N)
  q         quit the game (also Ctrl-D)"""


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
    from ai.belief import show_decision  # the AI loads when a game starts, not for --help

    narrator = Narrator(view, Seats(you, local_names(agents, state.num_players)))
    seen = state.observation(you)
    pending: list[Action] = []  # the rest of a choice made ahead (a card, then its target)
    while not state.is_terminal():
        if state.is_chance_node():
            action = dealer.sample(state)
        elif state.current_player() == you:
            action = ask(seen, narrator, console, read_line, pending)
        else:
            seat = state.current_player()
            observation = state.observation(seat)
            action = agents[seat].act(observation)
            thought = explanation(agents[seat], observation, view) if explain else None
            if thought:  # told before the move it explains
                narrator.tell([f"  (seat {seat} {Text.from_markup(thought).plain})"])
        if not state.is_chance_node():  # agents that read their opponents watch each decision
            show_decision([agents.get(s) for s in range(state.num_players)], state, action)
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


class Menu:
    """What the person chooses from: a tree of short menus (`choice`), or (`picks`) some
    items of a list, typed as one line of their numbers."""

    def __init__(
        self, question: str, choice: Choice | None = None, picks: Picks | None = None
    ) -> None:
        self.question = question  # what the decision asks, shown above its first level
        self.choice = choice
        self.picks = picks

    def lines(self) -> int:
        """How many numbered lines the menu being asked has."""
        if self.picks is not None:
            return len(self.picks.items)
        assert self.choice is not None
        return len(self.choice.level.children)

    def show(self, console: Console) -> None:
        """The menu being asked, a numbered line each, below the question or where it is in
        the tree."""
        trail = "" if self.choice is None else self.choice.trail()
        if trail:
            console.print(f"[bold]{trail}[/] — choose (0 or b: back):")  # labels are markup
        else:
            console.print(f"[bold]{escape(self.question)}[/]")
        if self.picks is not None:
            for i, item in enumerate(self.picks.items, 1):
                console.print(f"  [cyan]{i:2}[/]  {escape(item)}")
            console.print(escape(self.picks.question))
            return
        assert self.choice is not None
        for i, node in enumerate(self.choice.level.children, 1):
            if node.why is not None:  # a card kept in its place, dimmed, with its reason
                console.print(f"  [cyan]{i:2}[/]  [dim]{node.label} — {node.why or 'not now'}[/]")
                continue
            more = " …" if node.plan is None else ""
            console.print(f"  [cyan]{i:2}[/]  {node.label}{more}")

    def prompt_line(self) -> str:
        """The input prompt."""
        if self.picks is not None:
            return f"numbers [0-{len(self.picks.items)}, ? help, i cards, l log, q quit]: "
        back = ", 0 back" if self.choice is not None and len(self.choice.stack) > 1 else ""
        return f"choice [1-{self.lines()}{back}, ? help, i cards, l log, q quit]: "

    def choose(self, answer: str) -> Plan | str | None:
        """The plan an answer picks, None when it entered or left a level (to show), or
        what is wrong with it."""
        if self.picks is None:
            assert self.choice is not None
            number = _number(answer)
            if number == 0 and self.choice.back():
                return None
            if number is not None and 1 <= number <= self.lines():
                return self.choice.pick(number)
            return f"Please type a number from 1 to {self.lines()} (or ? for help)."
        items = self.picks.items
        words = answer.replace(",", " ").split()
        numbers = [n for n in map(_number, words) if n is not None]
        if not words or len(numbers) != len(words) or len(set(numbers)) != len(numbers):
            return f"Please type different numbers from 1 to {len(items)}, or 0 (? for help)."
        if numbers == [0]:
            return (self.picks.action(frozenset()),)
        if not all(1 <= n <= len(items) for n in numbers):
            return f"Please type numbers from 1 to {len(items)}, or 0 alone (? for help)."
        return (self.picks.action(frozenset(n - 1 for n in numbers)),)


def _number(word: str) -> int | None:
    """A typed number, or None: '²' is a digit int() refuses, and a thousand digits one it
    takes too long over (isdecimal is what int() reads)."""
    return int(word) if word.isdecimal() and len(word) <= 6 else None


def show_choices(obs: State, narrator: Narrator, console: Console) -> Menu:
    """Tell what happened, draw the board, the question and the choices; the menu."""
    view = narrator.view
    show_news(narrator, console)
    console.print(view.board(obs, narrator.seats))
    menu = menu_for(view, obs, view.prompt(obs, narrator.seats))
    menu.show(console)
    return menu


def menu_for(view: GameView, obs: State, question: str = "") -> Menu:
    """The menu of the decision in `obs`: picks where the view asks it so, else a tree."""
    # A view may ask some decisions as picks: a mulligan of five different cards would be
    # a menu of 32 subsets (seen in tmux), where one line of card numbers says it.
    picks: Picks | None = getattr(view, "picks", lambda state: None)(obs)
    if picks is not None:
        return Menu(question, picks=picks)
    return Menu(question, Choice(choice_tree(view, obs)))


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
) -> Plan | None:
    """The plan a typed answer picks (an action, and any follow-up chosen with it), or None
    (after helping, or moving in the menu) to ask again; Quit on q."""
    answer = answer.strip().lower()
    if answer in ("q", "quit", "exit"):
        raise Quit
    if answer in ("?", "h", "help"):
        console.print(KEYS)
        console.print(Text(narrator.view.HELP))
    elif answer in ("b", "board", "back"):
        if menu.choice is not None:
            menu.choice.back()
        console.print(narrator.view.board(obs, narrator.seats))
        menu.show(console)
    elif answer == "l" or (answer.startswith("l ") and len(answer) > 2):
        show_history(narrator, console, answer)
    elif answer == "i" or answer.startswith("i "):
        console.print(Text(look(narrator.view, obs, narrator.seats, answer[1:])))
    else:
        chosen = menu.choose(answer)
        if chosen is None:
            menu.show(console)
        elif isinstance(chosen, str):
            console.print(f"[yellow]{escape(chosen)}[/]")
        else:
            return chosen
    return None


def ask(
    obs: State,
    narrator: Narrator,
    console: Console,
    read_line: Callable[[str], str],
    pending: list[Action],
) -> Action:
    """Tell the news, show the board and the menus; ask until the answer is one of the
    choices (Quit on q/EOF). A follow-up chosen ahead (`pending`) is taken without asking,
    and the rest of a new choice's plan is left there."""
    ahead = planned(pending, obs)
    if ahead is not None:
        return ahead
    if len(obs.legal_actions()) == 1:
        return obs.legal_actions()[0]  # nothing to choose (e.g. no playable card): no prompt
    menu = show_choices(obs, narrator, console)
    while True:
        try:
            answer = read_line(menu.prompt_line())
        except EOFError:
            raise Quit from None
        plan = answer_to(answer, menu, obs, narrator, console)
        if plan is not None:
            pending[:] = plan[1:]
            return plan[0]
