"""The one ability interpreter (p2pcards/interpreter.py, DESIGN.md §10): seats are a number,
never a pair, and every word a game declares is carried by the interpreter or by the game's
own code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from p2pcards import interpreter
from p2pcards.abilities import Words
from p2pcards.games.gammasphere import cards as gamma_cards
from p2pcards.games.gammasphere import state as gamma_state
from p2pcards.games.rise_of_the_guys import cards as guys_cards
from p2pcards.games.rise_of_the_guys import state as guys_state


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_seat_relations_hold_at_any_number_of_seats(n: int) -> None:
    """each_opponent, every_seat and left_of read for n seats: the opponents in turn order
    from your left, every seat once, the next seat."""
    for you in range(n):
        others = interpreter._relation(n, "table", "each_opponent", you)
        assert sorted(others) == [s for s in range(n) if s != you]
        assert others[0] == (you + 1) % n
        assert interpreter._relation(n, "table", "left_of", you) == ((you + 1) % n,)
        assert interpreter._relation(n, "table", "you", you) == (you,)
        assert interpreter._relation(n, "table", "every_seat", you) == tuple(range(n))
        first = interpreter._relation(n, "controller_first", "every_seat", you)
        assert first[0] == you and sorted(first) == list(range(n))


@pytest.mark.parametrize(
    ("words", "own"),
    [(guys_cards.WORDS, guys_state.OWN_VERBS), (gamma_cards.WORDS, gamma_state.OWN_VERBS)],
    ids=["rise-of-the-guys", "gammasphere"],
)
def test_every_declared_verb_is_carried_once(words: Words, own: frozenset[str]) -> None:
    """A verb a game declares is written once: in the interpreter for every game, or in the
    game's own code when only its board carries it, never both."""
    assert words.verbs <= interpreter.CORE_VERBS | own
    assert not interpreter.CORE_VERBS & own


def test_the_docs_say_which_game_supports_which_word() -> None:
    """docs/abilities.md's table of words is the games' declarations, word for word."""
    doc = (Path(__file__).parents[2] / "docs" / "abilities.md").read_text()
    rows = {}
    for line in doc.split("## One interpreter", 1)[1].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("kind", "---"):
            rows[cells[0]] = [set(re.findall(r"`([a-z_]+)`", c)) for c in cells[1:]]
    kinds = {"trigger": "triggers", "verb": "verbs", "value": "values"}
    for kind, (both, guys_only, gamma_only) in rows.items():
        if kind in kinds:
            guys, gamma = (getattr(w, kinds[kind]) for w in (guys_cards.WORDS, gamma_cards.WORDS))
        else:
            table = kind.removesuffix(" field")
            guys, gamma = guys_cards.WORDS.fields[table], gamma_cards.WORDS.fields[table]
        assert (both, guys_only, gamma_only) == (guys & gamma, guys - gamma, gamma - guys), kind
    assert len(rows) == 8
