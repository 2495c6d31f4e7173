"""Gammasphere at mental-poker tables (issue 17): own decks through the mental layer, searches
of a deck (revealed to its owner, the card taken shown, the rest dealt afresh), discard piles
shuffled back, random discards and random targets, every replica checked after every step
against what its seat may know, and a clean audit at the end."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from p2pcards.engine import Action, State
from p2pcards.games.gammasphere.actions import Activate, Take
from protocol.inprocess import InProcessTable


class Eager:
    """Random play that leans on abilities, and counts what it did."""

    def __init__(self, seed: int, seen: Counter[str]) -> None:
        self.rng = random.Random(seed)
        self.seen = seen

    def act(self, observation: State) -> Action:
        actions = observation.legal_actions()
        abilities = [a for a in actions if isinstance(a, Activate | Take)]
        if abilities and self.rng.random() < 0.5:
            action = self.rng.choice(abilities)
        else:
            action = self.rng.choice(actions)
        self.seen[type(action).__name__] += 1
        return action


@pytest.mark.parametrize("seed", range(3))
def test_starter_decks_play_whole_games_at_mental_tables(seed: int) -> None:
    seen: Counter[str] = Counter()
    agents = [Eager(seed, seen), Eager(seed + 50, seen)]
    table = InProcessTable("gammasphere", agents, {"round_cap": 15})
    result = table.play()
    assert result.error is None
    assert table.reference.is_terminal()
    assert len({table.reference.public_digest(), *result.digests}) == 1
    assert result.faults == [[], []]
    assert seen["Activate"] and seen["Attack"]


def test_searches_happen_at_these_tables() -> None:
    seen: Counter[str] = Counter()
    for seed in range(4):
        table = InProcessTable("gammasphere", [Eager(seed, seen), Eager(seed + 9, seen)])
        assert table.play().faults == [[], []]
    assert seen["Take"]  # a deck searched through the mental layer


def test_a_seat_that_searched_is_rebuilt_from_its_transcript_and_secrets() -> None:
    """A search's position is announced by the dealer, not chosen: a seat rebuilt from its
    saved record (rejoin, audit, replay) makes it again by itself, byte for byte."""
    from p2pcards import games
    from protocol.inprocess import TableMesh
    from protocol.table_peer import TablePeer

    seen: Counter[str] = Counter()
    for seed in range(6):
        table = TableMesh("gammasphere", [Eager(seed, seen), Eager(seed + 1, seen)], seed=seed)
        table.run()
        searched = [p for p in table.peers if any(isinstance(a, Take) for a in p.decisions)]
        if searched:
            break
    assert searched, "no seat searched its deck"
    original = searched[0]
    rebuilt = TablePeer.restore(
        games.load("gammasphere"), original.options, original.table_id, original.seat,
        original.keys, dict(original.mental.secret_log),
        [t.envelope for t in original.record], original.decisions,
    )  # fmt: skip
    assert rebuilt.sent == original.sent
    assert rebuilt.finished and rebuilt.outcome == original.outcome
