"""The menus a person chooses from (issue 27, findings 1 and 2): first the card or the action,
then its target, lane or amount, each a short menu, `0` or `b` one level back; the order of
the cards stable from one decision to the next. The engine's legal actions stay the
choices: every leaf is one legal action (with the follow-ups chosen with it) and every
legal action is a leaf."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from replica_helpers import random_decisions
from rich.console import Console
from rich.text import Text

from cli.menus import Node, choice_tree
from cli.narration import Narrator
from cli.play import answer_to, menu_for
from cli.views import view_for
from cli.wording import Seats
from p2pcards.engine import State

GAMES = ("rpg-battle", "getgem", "rise-of-the-guys", "gammasphere")
P2PCARDS = str(Path(sys.executable).with_name("p2pcards"))


def decisions(game: str, seed: int, decks: list[str] | None = None) -> Iterator[State]:
    """Seat 0's decisions (as it sees them) in a game where every seat chooses at random."""
    return (state.observation(0) for state in random_decisions(game, seed, 0, decks))


def leaves(node: Node) -> Iterator[Node]:
    """Every leaf under a node."""
    for child in node.children:
        if child.plan is not None:
            yield child
        yield from leaves(child)


def levels(node: Node) -> Iterator[Node]:
    """Every menu of the tree (a node with lines)."""
    if node.children:
        yield node
    for child in node.children:
        yield from levels(child)


@pytest.mark.parametrize("game", GAMES)
def test_every_leaf_is_legal_and_every_legal_action_is_a_leaf(game: str) -> None:
    """Over whole random games, each menu tree offers exactly the legal actions, and a plan
    chosen ahead (a card with its target) is legal step by step on the real state."""
    view = view_for(game)
    follow_ups = 0
    for seed in range(3):
        for seen in decisions(game, seed):
            tree = choice_tree(view, seen)
            plans = [leaf.plan for leaf in leaves(tree) if leaf.plan is not None]
            firsts = {plan[0] for plan in plans}
            assert firsts == set(seen.legal_actions()), seen
            for plan in plans:
                if len(plan) == 1:
                    continue
                follow_ups += 1
                after = seen.clone()
                for action in plan:
                    assert action in after.legal_actions(), plan
                    after.apply_action(action)
            for menu in levels(tree):
                labels = [child.label for child in menu.children]
                assert all(labels), menu  # no empty line
    if game in ("rise-of-the-guys", "gammasphere"):
        assert follow_ups > 0  # a card's target was asked with the card somewhere


def test_a_card_is_chosen_before_its_lane_not_every_card_by_lane() -> None:
    """Rise of the Guys listed every card × 4 lanes (21 lines): now a card is one line at the
    top and its lanes a menu of their own."""
    view = view_for("rise-of-the-guys")
    nested = 0
    for seen in decisions("rise-of-the-guys", 3):
        if menu_for(view, seen).picks is not None:
            continue  # the mulligan: card numbers on one line (test_guys_view)
        tree = choice_tree(view, seen)
        tops = [child.label for child in tree.children]
        cards = [m.group() for label in tops if (m := re.match(r"Play .*?\(\d+\)", label))]
        assert len(cards) == len(set(cards)), tops  # one line a card (and cost)
        nested += sum(1 for child in tree.children if child.children)
        assert len(tree.children) <= seen.hand_size(0) + 3  # type: ignore[attr-defined]
    assert nested > 0


def test_an_absorb_asks_the_character_then_the_amount() -> None:
    """rpg-battle's Absorb was every amount × target in one menu (19 lines): now the card,
    then whose damage, then how much."""
    view = view_for("rpg-battle")
    deep = 0
    for seed in range(6):
        for seen in decisions("rpg-battle", seed):
            tree = choice_tree(view, seen)
            for top in tree.children:
                if top.label == "Absorb" and any(child.children for child in top.children):
                    deep += 1
                    amounts = [c for child in top.children for c in child.children]
                    assert all("moves" in c.label and c.plan for c in amounts)
            assert len({c.label for c in tree.children}) == len(tree.children)
    assert deep > 0


@pytest.mark.parametrize(
    ("game", "decks"),
    [("gammasphere", ["saiyan-power-level", "protoss-pylon-rush"]), ("rise-of-the-guys", None)],
)
def test_cards_keep_their_order_from_one_decision_to_the_next(
    game: str, decks: list[str] | None
) -> None:
    """Two cards offered at the top of the menu come in the same order at every decision of a
    game, whatever was played or drawn (Gammasphere's "1 Play Pylon" became "1 Play
    Refinery" once a Pylon was played: the order was the order drawn)."""
    view = view_for(game)
    for seed in (8, 9, 10):
        met: set[tuple[str, str]] = set()  # (a, b): a was offered above b
        for seen in decisions(game, seed, decks):
            tops = [c.label.split(" → ")[0] for c in choice_tree(view, seen).children]
            cards = [label for label in tops if label.startswith("Play ")]
            for i, above in enumerate(cards):
                for below in cards[i + 1 :]:
                    assert (below, above) not in met, (above, below, seed)
                    met.add((above, below))


class HandGame(NamedTuple):
    """What the test needs to know of a game whose cards are played from a hand."""

    decks: list[str] | None
    from_hand: Callable[[Any], bool]  # the decision is the turn's own, cards played from hand
    cards: Callable[[Any], list[str]]  # the names of seat 0's cards that may be played
    line: str  # a menu line playing the card named {0}, as a regular expression
    turn: Callable[[Any], int]  # which turn the decision is in


PLAY_LINE = r"Play {0}( \(|$| →)"
HAND_GAMES = {
    "gammasphere": HandGame(
        ["saiyan-power-level", "protoss-pylon-rush"],
        lambda s: s.ask() is None and s.phase() == "main",
        lambda s: [s.kind(c).name for c in s.hand(0)],
        PLAY_LINE,
        lambda s: s.turn(),
    ),
    "rise-of-the-guys": HandGame(
        None,
        lambda s: s.ask() is None and s.phase() in ("lead", "react", "counter"),
        lambda s: [s.rules.cards[s.rules.card_index[c]].name for c in s.hand(0)],
        PLAY_LINE,
        lambda s: s.turn(),
    ),
    "getgem": HandGame(
        None,
        lambda s: s.decision().kind == "action",
        lambda s: [s.card_type(c).name for c in s.hand(0) if s.card_type(c).kind == "action"],
        r"({0}|.* \(the {0} card\))( →|$)",  # a dual card: a line each half
        lambda s: s.turns_played(),
    ),
}


def hand_numbers(game: HandGame, seen: State, tops: list[Node]) -> dict[str, int]:
    """Each card of seat 0's hand (by name) and the number of its first line, the hand's
    lines being the first ones of the menu."""
    plain = [Text.from_markup(c.label).plain for c in tops]
    numbers: dict[str, int] = {}
    lines: set[int] = set()
    for name in dict.fromkeys(game.cards(seen)):
        head = re.compile(game.line.format(re.escape(name)))
        at = [i for i, label in enumerate(plain, 1) if head.match(label)]
        assert at, (name, plain)  # every card of the hand has its line, playable or not
        numbers[name] = at[0]
        lines.update(at)
    assert lines == set(range(1, len(lines) + 1)), plain  # the hand first, then the rest
    assert all(c.why is None for c in tops[len(lines) :])
    return numbers


@pytest.mark.parametrize("name", list(HAND_GAMES))
def test_a_card_keeps_its_number_through_a_turn_playable_or_not(name: str) -> None:
    """Every card of the hand has its line in the turn's first menu, playable now or not
    (dimmed, with why), the other actions after the hand; so from one decision to the next of
    a turn a card keeps its number unless a card above it left or joined the hand. In
    Gammasphere a 0-gas, 2-Jiggawatt card becoming affordable went above Pylon; in GETGEM an
    Excavation Arm appeared once the discard pile had a card."""
    game, view = HAND_GAMES[name], view_for(name)
    toggled = 0  # pairs of decisions where a card still in hand became (un)playable
    for seed in (8, 9, 10):
        last: tuple[int, dict[str, int], list[Node]] | None = None
        for seen in decisions(name, seed, game.decks):
            if not game.from_hand(seen):
                last = None
                continue
            tops = choice_tree(view, seen).children
            numbers = hand_numbers(game, seen, tops)
            turn = game.turn(seen)
            if last is not None and last[0] == turn:
                _, then, then_tops = last
                for card in set(then) & set(numbers):
                    above_then = {c for c, n in then.items() if n < then[card]}
                    if above_then != {c for c, n in numbers.items() if n < numbers[card]}:
                        continue  # a card above it left or joined the hand
                    assert then[card] == numbers[card], (card, seed)
                    was, now = then_tops[then[card] - 1], tops[numbers[card] - 1]
                    toggled += (was.why is None) != (now.why is None)
            last = (turn, numbers, tops)
    assert toggled > 0


def test_choosing_a_card_that_cannot_be_played_says_why_and_asks_again() -> None:
    """A dimmed card is no choice: typing its number says why in one line, nothing is
    played, and the same menu is still asked."""
    view = view_for("gammasphere")
    decks = ["saiyan-power-level", "protoss-pylon-rush"]
    seen = next(
        s
        for s in decisions("gammasphere", 8, decks)
        if any(c.why for c in choice_tree(view, s).children)
    )
    menu = menu_for(view, seen, "Your turn:")
    assert menu.choice is not None
    number, line = next((i, c) for i, c in enumerate(menu.choice.level.children, 1) if c.why)
    out = console()
    menu.show(out)
    shown = out.export_text(clear=True)
    assert f"{number:2}  {Text.from_markup(line.label).plain} — {line.why}" in shown
    narrator = Narrator(view, Seats(0))
    assert answer_to(str(number), menu, seen, narrator, out) is None
    said = out.export_text(clear=True).strip()
    assert said.endswith(f"cannot be played now: {line.why}.") and "\n" not in said
    assert len(menu.choice.stack) == 1


def console() -> Console:
    return Console(file=io.StringIO(), width=100, record=True, color_system=None)


def test_0_and_b_go_back_one_level_and_b_redraws_the_board_and_choices() -> None:
    """After choosing a card, `0` goes back to the cards; `b` too, with the board and the
    choices drawn again; from the lanes, a number picks the play; `0` at the top is no
    choice."""
    view = view_for("rise-of-the-guys")
    seen = next(s for s in decisions("rise-of-the-guys", 3) if any(
        c.children for c in choice_tree(view, s).children))  # fmt: skip
    narrator = Narrator(view, Seats(0))
    menu = menu_for(view, seen, "Your move:")
    assert menu.choice is not None
    number = next(i for i, c in enumerate(menu.choice.level.children, 1) if c.children)
    out = console()
    assert answer_to(str(number), menu, seen, narrator, out) is None
    assert "choose (0 or b: back)" in out.export_text(clear=True)
    assert answer_to("0", menu, seen, narrator, out) is None
    back = out.export_text(clear=True)
    assert "Your move:" in back and "your hand:" not in back and len(menu.choice.stack) == 1
    assert answer_to(str(number), menu, seen, narrator, out) is None
    out.export_text(clear=True)
    assert answer_to("b", menu, seen, narrator, out) is None
    redrawn = out.export_text(clear=True)
    assert "your hand:" in redrawn and "Your move:" in redrawn and len(menu.choice.stack) == 1
    assert answer_to("0", menu, seen, narrator, out) is None
    assert "Please type a number from 1" in out.export_text(clear=True)
    assert answer_to(str(number), menu, seen, narrator, out) is None
    plan = None
    for _ in range(3):  # a lane, then maybe the target of the Guy's ability
        plan = plan or answer_to("1", menu, seen, narrator, out)
    assert plan is not None and plan[0] in seen.legal_actions()


def run(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1"}
    return subprocess.run(
        [P2PCARDS, *args], input=stdin, capture_output=True, text=True, timeout=120, env=env
    )


def test_a_person_goes_into_a_card_and_back_out_through_stdin() -> None:
    """`play` through stdin: a Guy's lanes are a menu of their own, left with 0; the game
    goes on with a card played into a lane chosen at the second level."""
    result = run(
        "play", "rise-of-the-guys", "--seed", "3", "--agents", "random",
        stdin="1\n" * 7 + "1\n0\n1\n2\nq\n",
    )  # fmt: skip
    out = result.stdout
    assert result.returncode == 130, result.stderr[-800:]
    assert "— choose (0 or b: back):" in out and "in lane 2" in out
    assert "choice [1-4, 0 back" in out
    assert "Traceback" not in result.stderr
