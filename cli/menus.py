"""Choices asked as people make them in card game clients: first the card or the action, then
its target, lane or amount, each level a short menu, `0` or `b` one level back.

The engine's legal actions stay the choices: the tree only groups them by the labels a view
gives each level (`choice_path`), so every leaf is one legal action and every legal action is
a leaf. Where a view says the decision after an action belongs to it (`follows_up`: a Prank's
target, asked by the engine once the Prank is played), that decision is worked out on a copy
of the state and asked with the action, so the person can still go back from the target to
the card; the leaf is then a plan, the action and its follow-up, taken one after the other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from p2pcards.errors import P2PCardsError

if TYPE_CHECKING:
    from cli.views import GameView
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
    """A line of a menu: a leaf (its `plan`) or a group of lines asked one level down."""

    label: str
    plan: Plan | None = None
    children: list[Node] = field(default_factory=list)


def _path(view: GameView, state: State, action: Action) -> tuple[str, ...]:
    """The labels of an action level by level (a view without `choice_path`: one level)."""
    path: Callable[[State, Action], tuple[str, ...]] | None = getattr(view, "choice_path", None)
    return path(state, action) if path is not None else (view.describe_choice(state, action),)


def _ordered(view: GameView, state: State) -> list[Action]:
    """The legal actions in the view's stable order (`choice_order`: e.g. by the card's place
    in the hand as shown), ties in the engine's order."""
    actions = state.legal_actions()
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


def choice_tree(view: GameView, state: State) -> Node:
    """The decision as a tree of menus (the root's label is empty)."""
    root = Node("", children=_grow(_entries(view, state), 0))
    while len(root.children) == 1 and root.children[0].plan is None:
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

    def pick(self, number: int) -> Plan | None:
        """Line `number` (from 1) of this level: its plan, or None having entered its group."""
        node = self.level.children[number - 1]
        if node.plan is not None:
            return node.plan
        self.stack.append(node)
        return None


def planned(pending: list[Action], state: State) -> Action | None:
    """The next step of a choice made ahead (a target chosen with its card) if it is still
    legal now; otherwise the plan is dropped and None says to ask."""
    if pending and pending[0] in state.legal_actions():
        return pending.pop(0)
    pending.clear()
    return None
