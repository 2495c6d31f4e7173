"""GETGEM at mental-poker tables: every hand-to-hand move goes through the cryptography.

Random takes, pushes, Full Exchange, Peeping Draw and victory checks open cards to some
seats only (`State.reveals`). `InProcessTable` checks after every step that each replica
holds exactly what its seat may know and agrees on the public digest, and audits every
shuffle and key at the end.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from ai.agents import make_agent
from p2pcards.engine import Action, State
from p2pcards.games.getgem import GetGemState
from p2pcards.games.getgem.actions import Push, TakeBack
from protocol.errors import RemoteProtocolError
from protocol.inprocess import InProcessTable
from protocol.mental import Announcement, Body


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_ai_tables_play_whole_games_in_step_with_a_clean_audit(seats: int) -> None:
    agents = [make_agent("expectimax:nodes=150:samples=2", seed) for seed in range(seats)]
    table = InProcessTable("getgem", agents)
    result = table.play()
    assert result.error is None
    assert table.reference.is_terminal()
    assert len(set(result.digests)) == 1 == len({table.reference.public_digest(), *result.digests})
    assert result.faults == [[] for _ in range(seats)]
    assert sum(result.returns) == pytest.approx(1.0)


class Recorder:
    """Random play that notes which hidden-hand moves the table made."""

    def __init__(self, seed: int, seen: Counter[str]) -> None:
        self.rng = random.Random(seed)
        self.seen = seen

    def act(self, observation: State) -> Action:
        assert isinstance(observation, GetGemState)
        action = self.rng.choice(observation.legal_actions())
        decision = observation.decision()
        if decision.kind == "window" and action.kind == "pass":
            self.seen[str(decision.effect)] += 1  # the effect goes ahead
        if isinstance(action, Push):
            self.seen["push"] += 1
        if isinstance(action, TakeBack) and decision.count == 1:
            self.seen["victory check"] += 1
        return action


def test_every_hidden_hand_move_goes_through_the_mental_layer() -> None:
    """Steals, pushes, Full Exchanges, Peeping Draws, victory checks and a reshuffled deck,
    all at tables whose replicas are checked against what each seat may know."""
    seen: Counter[str] = Counter()
    reshuffled = 0
    wanted = {"steal", "full-exchange", "steal-push", "peeping-draw", "push", "victory check"}
    for game in range(12):
        seats = 3 + game % 3
        table = InProcessTable("getgem", [Recorder(game * 10 + s, seen) for s in range(seats)])
        result = table.play()
        assert result.error is None and len(set(result.digests)) == 1
        assert result.faults == [[] for _ in range(seats)]
        reshuffled += table.reference.reshuffles()
        if wanted <= set(seen) and reshuffled:
            break
    assert wanted <= set(seen), f"only {dict(seen)}"
    assert reshuffled >= 1


def test_a_declaration_naming_other_cards_than_those_shown_is_named() -> None:
    """A seat that announces gems it does not lay is caught when the cards are opened."""
    cheated: list[int] = []

    def lie(seat: int, body: Body) -> Body:
        if isinstance(body, Announcement) and not cheated:
            action = body.payload.get("action", {})
            if action.get("kind") == "declare":
                cheated.append(seat)
                payload = {**body.payload, "action": {**action, "cards": "curse,curse,curse"}}
                return dataclasses.replace(body, payload=payload)
        return body

    for seed in range(6):
        agents = [make_agent("greedy", seed * 3 + s) for s in range(3)]
        result = InProcessTable("getgem", agents, cheat=lie).play()
        if cheated:
            break
    assert cheated, "no seat declared"
    assert isinstance(result.error, RemoteProtocolError)
    assert result.error.seat == cheated[0]
    # Caught as the cards are shown, or before, by a replica that knows better: three curses
    # cannot be in one hand, and a slot it saw holds another card.
    said = str(result.error)
    assert "the card it showed is" in said or "announced an illegal action" in said
