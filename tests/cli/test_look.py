"""The `i` key (issue 27, finding 4): any card the viewer can see read in full, on the board,
in the hand, in a public pile, in `play`, at a table and in `replay`; never a card the
viewer may not know."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from replica_helpers import random_decisions, unseen_cards
from rich.console import Console

from cli.look import cards_seen, look
from cli.narration import Narrator
from cli.play import answer_to, menu_for
from cli.views import view_for
from cli.wording import Seats
from p2pcards.engine import State
from p2pcards.zones import ZoneState

GAMES = ("rpg-battle", "getgem", "rise-of-the-guys", "gammasphere")
P2PCARDS = str(Path(sys.executable).with_name("p2pcards"))


def names_unseen(state: State, viewer: int) -> set[str]:
    """The names of cards `viewer` may not know and knows no copy of anywhere."""
    view = view_for(state.game.name)
    name = getattr(view, "name_of", None) or getattr(view, "_card", None) or view.card_name

    def named(card: str) -> str:
        return str(getattr(name(state, card), "plain", name(state, card)))  # getgem's is Text

    if isinstance(state, ZoneState):
        return {named(card) for card in unseen_cards(state, viewer)}
    known = {c for c in state.hand(viewer) if c is not None} | set(state.discard_pile())
    hidden = {c for s in range(state.num_players) if s != viewer for c in state.hand(s)}
    return {named(c) for c in hidden - known if c}


@pytest.mark.parametrize("game", GAMES)
def test_i_never_shows_a_card_the_seat_may_not_see(game: str) -> None:
    """At every decision of whole games, no card `i` lists or shows to seat 0 is one of the
    other hand, a deck or a face-down card that seat 0 knows no copy of: neither from its
    own observation nor even when the view is handed the whole state (so the view itself
    picks only what the seat may see, not just the state it is given)."""
    view = view_for(game)
    checked = 0
    seats = Seats(0)
    for seed in range(3):
        for state in random_decisions(game, seed):
            hidden = names_unseen(state, 0)
            for given in (state.observation(0), state):
                cards = cards_seen(view, given, seats)
                # (a card's text may name another card: "comes back only with Revive")
                assert not hidden & {card.name for card in cards}, hidden
                shown = [look(view, given, seats, card.name) for card in cards]
                assert not [n for n in hidden for text in shown if text.startswith(n + " — ")]
            checked += len(hidden)
    assert checked > 0  # hidden cards there were, and none was named


@pytest.mark.parametrize("game", GAMES)
def test_i_reads_hand_board_and_piles(game: str) -> None:
    """Each visible card has a place and something to read; `i N` shows card N and `i NAME`
    finds it by name, in any case; a wrong number or name is one line that says what to
    type."""
    view = view_for(game)
    wheres: set[str] = set()
    for state in random_decisions(game, 1):
        seen = state.observation(0)
        cards = cards_seen(view, seen, Seats(0))
        for number, card in enumerate(cards, 1):
            assert card.details and all(isinstance(line, str) for line in card.details)
            shown = look(view, seen, Seats(0), str(number))
            assert shown.startswith(f"{card.name} — {card.where}")
            assert card.name in look(view, seen, Seats(0), card.name.upper())
            wheres.add(card.where.split(" (")[0])
        assert "i 1 to i" in look(view, seen, Seats(0), str(len(cards) + 1)) or not cards
    assert "No card you can see" in look(view, seen, Seats(0), "no such card")
    assert "your hand" in wheres
    assert any("discard pile" in where for where in wheres)
    board = {"rpg-battle": "character", "getgem": "held by", "rise-of-the-guys": "lane",
             "gammasphere": "field"}[game]  # fmt: skip
    assert any(board in where for where in wheres), wheres


def test_the_rise_of_the_guys_board_shows_stats_statuses_and_pins() -> None:
    """A Guy in a lane reads as printed and as it stands now; its Pins are named on it."""
    view = view_for("rise-of-the-guys")
    pinned = 0
    for state in random_decisions("rise-of-the-guys", 2):
        seen = state.observation(0)
        for card in cards_seen(view, seen, Seats(0)):
            if " lane " in card.where:
                assert card.details[-1].startswith("now ")
                pinned += "Pins:" in card.details[-1]
    assert pinned > 0


def test_i_at_the_prompt_prints_the_card() -> None:
    """`i` is a key of the prompt like `b` or `l`: answered, the menu is asked again."""
    view = view_for("gammasphere")
    state = next(random_decisions("gammasphere", 0))
    seen = state.observation(0)
    out = Console(file=io.StringIO(), width=80, record=True, color_system=None)
    narrator = Narrator(view, Seats(0))
    menu = menu_for(view, seen)
    assert answer_to("i", menu, seen, narrator, out) is None
    assert answer_to("i 1", menu, seen, narrator, out) is None
    text = out.export_text()
    first = cards_seen(view, seen, Seats(0))[0]
    assert "The cards you can see" in text and f"{first.name} — your hand" in text
    assert first.details[0] in text


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1"}
    return subprocess.run(
        [P2PCARDS, *args], input=stdin, capture_output=True, text=True, timeout=120, env=env
    )


def test_i_in_play_and_in_replay(tmp_path: Path) -> None:
    """`i NAME` through stdin in `play`; `replay --look` at the end of a recorded game."""
    played = run("play", "rpg-battle", "--seed", "2", "--agents", "random",
                 stdin="1\n1\n1\ni\ni attack\nq\n")  # fmt: skip
    assert "The cards you can see" in played.stdout and "STR" in played.stdout
    records = tmp_path / "games.jsonl"
    made = run("simulate", "rise-of-the-guys", "--games", "1", "--seed", "4",
               "--agents", "random,random", "--records", str(records))  # fmt: skip
    assert made.returncode == 0, made.stderr
    replayed = run("replay", str(records), "--look", "list", "--look", "1", "-i", "nobody")
    assert replayed.returncode == 0, replayed.stderr
    out = replayed.stdout
    assert "The cards you can see" in out and " 1  " in out
    assert "No card you can see is called 'nobody'" in out
