"""Choices asked as people make them in card game clients: first the card or the action, then
its target, lane or amount, each level a short menu, `0` or `b` one level back.

The engine's legal actions stay the choices: the tree only groups them by the labels a view
gives each level (`choice_path`), so every leaf is one legal action and every legal action is
a leaf. Where a view says the decision after an action belongs to it (`follows_up`: a Prank's
target, asked by the engine once the Prank is played), that decision is worked out on a copy
of the state and asked with the action, so the person can still go back from the target to
the card; the leaf is then a plan, the action and its follow-up, taken one after the other.

Where the view says what the hand is (`hand_lines`), the first menu of the turn lists every
card of the hand in the hand's order, playable or not, then the other actions: a card's
number moves only when a card above it leaves or joins the hand, never because it or another
became (un)affordable. A card that cannot be played now is a line with no choice under it,
only the reason (`why`); the legal actions stay the engine's. A view may say which actions
are alike (`alike(state, action)`, a key: the copies of a card in a hand, which a game may
list slot by slot): the first of them is the one line for them all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from rich.text import Text

from p2pcards.errors import P2PCardsError

if TYPE_CHECKING:
    from cli.views import GameView, HandLine
    from p2pcards.engine import Action, State

Plan = tuple["Action", ...]  # a leaf: an action now, then the follow-ups as they are asked
FOLLOW_UPS = 2  # decisions looked ahead after an action (a card, its target, a lane)
ARROW = " → "


class Entry(NamedTuple):
    """One leaf before grouping: its labels level by level, and what it takes."""

    path: tuple[str, ...]
    plan: Plan


@dataclass
class Node:
    """A line of a menu: a leaf (its `plan`), a group of lines asked one level down, or a
    card of the hand that cannot be played now (`why`, no plan, no lines)."""

    label: str
    plan: Plan | None = None
    children: list[Node] = field(default_factory=list)
    why: str | None = None  # '' when the view cannot say it cheaply


def _path(view: GameView, state: State, action: Action) -> tuple[str, ...]:
    """The labels of an action level by level (a view without `choice_path`: one level)."""
    path: Callable[[State, Action], tuple[str, ...]] | None = getattr(view, "choice_path", None)
    return path(state, action) if path is not None else (view.describe_choice(state, action),)


def _ordered(view: GameView, state: State) -> list[Action]:
    """The legal actions in the view's stable order (`choice_order`: e.g. by the card's place
    in the hand as shown), ties in the engine's order; where the view says which actions are
    alike (`alike`: copies of a card in a hand, which a game may list slot by slot), the
    first of them stands for the others."""
    actions = state.legal_actions()
    alike: Callable[[State, Action], object] | None = getattr(view, "alike", None)
    if alike is not None:
        firsts: dict[object, Action] = {}
        for action in actions:
            firsts.setdefault(alike(state, action), action)
        actions = list(firsts.values())
    order: Callable[[State, Action], tuple[int | str, ...]] | None = getattr(
        view, "choice_order", None
    )
    if order is None:
        return actions
    return sorted(actions, key=lambda action: order(state, action))


def _follow_ups(view: GameView, state: State, action: Action, depth: int) -> list[Entry]:
    """The decisions the same seat is asked right after `action` that the view counts as part
    of it, worked out on a copy; none when something unknown comes first (a draw, another
    seat) or the copy cannot tell."""
    follows: Callable[[State, State], bool] | None = getattr(view, "follows_up", None)
    if follows is None or depth >= FOLLOW_UPS:
        return []
    after = state.clone()
    try:
        after.apply_action(action)
        if after.is_terminal() or after.is_chance_node():
            return []
        if after.current_player() != state.current_player() or not follows(state, after):
            return []
        return _entries(view, after, depth + 1)
    except P2PCardsError:  # a copy of what a seat knows may not work out every effect
        return []


def _entries(view: GameView, state: State, depth: int = 0) -> list[Entry]:
    """Every leaf of the decision, in order."""
    out: list[Entry] = []
    for action in _ordered(view, state):
        path = _path(view, state, action)
        later = _follow_ups(view, state, action, depth)
        if later:
            out += [Entry(path + e.path, (action, *e.plan)) for e in later]
        else:
            out.append(Entry(path, (action,)))
    return out


def _grow(entries: list[Entry], level: int) -> list[Node]:
    """The lines of one level: entries grouped by their label there, in order of first
    appearance; a group of one is a leaf naming the rest of its path."""
    groups: dict[str, list[Entry]] = {}
    for entry in entries:
        groups.setdefault(entry.path[min(level, len(entry.path) - 1)], []).append(entry)
    nodes: list[Node] = []
    for label, group in groups.items():
        deeper = [e for e in group if len(e.path) > level + 1]
        nodes += [Node(label, e.plan) for e in group if len(e.path) <= level + 1]
        if len(deeper) == 1:
            nodes.append(Node(ARROW.join(deeper[0].path[level:]), deeper[0].plan))
        elif deeper:
            node = Node(label, children=_grow(deeper, level + 1))
            while len(node.children) == 1 and node.children[0].plan is None:
                child = node.children[0]  # one way on: asked as one line, not a menu of one
                node = Node(node.label + ARROW + child.label, children=child.children)
            nodes.append(node)
    return nodes


def _with_hand(hand: list[HandLine], entries: list[Entry]) -> list[Node]:
    """The first menu as a line a card of the hand, in its order (the card's plays grouped
    under it, or why there are none), then the other actions."""
    heads = {line.label for line in hand}
    nodes: list[Node] = []
    for line in hand:
        grown = _grow([e for e in entries if e.path[0] == line.label], 0)
        if not grown:
            nodes.append(Node(line.label, why=line.why))
        elif len(grown) == 1:
            nodes += grown
        else:  # e.g. a card played as printed or enhanced, neither with more to ask
            nodes.append(Node(line.label, children=grown))
    return nodes + _grow([e for e in entries if e.path[0] not in heads], 0)


def choice_tree(view: GameView, state: State) -> Node:
    """The decision as a tree of menus (the root's label is empty)."""
    hand_lines: Callable[[State], list[HandLine] | None] | None = getattr(view, "hand_lines", None)
    hand = hand_lines(state) if hand_lines is not None else None
    entries = _entries(view, state)
    root = Node("", children=_grow(entries, 0) if hand is None else _with_hand(hand, entries))
    while len(root.children) == 1 and root.children[0].children:
        root = root.children[0]  # a first level of one group: start inside it
    return root


class Choice:
    """Where the person is in the tree of a decision: the levels entered so far."""

    def __init__(self, root: Node) -> None:
        self.stack = [root]

    @property
    def level(self) -> Node:
        """The menu being asked."""
        return self.stack[-1]

    def trail(self) -> str:
        """What was chosen on the way down ('' at the top)."""
        return ARROW.join(node.label for node in self.stack[1:] if node.label)

    def back(self) -> bool:
        """One level up; False at the top."""
        if len(self.stack) == 1:
            return False
        self.stack.pop()
        return True

    def pick(self, number: int) -> Plan | str | None:
        """Line `number` (from 1) of this level: its plan, None having entered its group, or
        why a card shown there cannot be played now."""
        node = self.level.children[number - 1]
        if node.plan is not None:
            return node.plan
        if node.why is not None:
            because = f": {node.why}" if node.why else ""
            return f"{Text.from_markup(node.label).plain} cannot be played now{because}."
        self.stack.append(node)
        return None


def planned(pending: list[Action], state: State) -> Action | None:
    """The next step of a choice made ahead (a target chosen with its card) if it is still
    legal now; otherwise the plan is dropped and None says to ask."""
    if pending and pending[0] in state.legal_actions():
        return pending.pop(0)
    pending.clear()
    return None
