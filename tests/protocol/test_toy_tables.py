"""The own-deck test game (tests/p2pcards/toygame) at mental-poker tables of 3 and 4 seats
(issue 24): the core's own-deck dealing, response windows and seats leaving the game are not
two-seat machinery.

`InProcessTable` checks after every step that each replica is on the table's digest and holds
exactly what its seat may know; at the end every seat discloses its secrets and the audit
re-derives every shuffle and key and judges each committed decklist by the deck rules.
"""

from __future__ import annotations

import random
from collections import Counter

import msgpack
import pytest
from toygame import GAME
from toygame.actions import Pass, Respond
from toygame.state import ToyState

from p2pcards.engine import Action, State
from protocol.inprocess import InProcessTable, TableMesh


class Recorder:
    """Random play that counts what happened in the windows it answered."""

    def __init__(self, seed: int, seen: Counter[str]) -> None:
        self.rng = random.Random(seed)
        self.seen = seen

    def act(self, observation: State) -> Action:
        assert isinstance(observation, ToyState)
        action = self.rng.choice(observation.legal_actions())
        if observation.windows:
            self.seen["window pass" if isinstance(action, Pass) else "response"] += 1
            if isinstance(action, Respond) and len(observation.windows) > 1:
                self.seen["response to a response"] += 1
        if len(observation.in_game()) < observation.num_players:
            self.seen["decision with a seat out"] += 1
        return action


@pytest.mark.parametrize("seats", [3, 4])
def test_random_seats_play_whole_games_with_a_clean_audit(seats: int) -> None:
    """Whole games through the cryptography, each seat with its default deck (the shipped
    decks in turn, cycled by the engine), every replica checked at every step."""
    seen: Counter[str] = Counter()
    for game in range(3):
        agents = [Recorder(game * 10 + seat, seen) for seat in range(seats)]
        table = InProcessTable(GAME, agents)
        result = table.play()
        assert result.error is None
        assert table.reference.is_terminal()
        assert len({table.reference.public_digest(), *result.digests}) == 1
        assert result.faults == [[]] * seats
        assert sorted(result.returns) == [0.0] * (seats - 1) + [1.0]
        for seat, replica in enumerate(table.seats):
            wanted = GAME.deck(GAME.default_deck(seat))
            assert replica.replica.deck_composition(seat) == wanted  # type: ignore[attr-defined]
    # The games went through what they are here to prove.
    for what in ("window pass", "response", "response to a response", "decision with a seat out"):
        assert seen[what], f"no {what} in these games: {dict(seen)}"


def test_table_peers_play_the_toy_at_four_seats_and_a_pass_is_one_message() -> None:
    """The code a LAN table runs (`TablePeer`: signed envelopes, syncs, the verdict), on
    in-memory links: the game ends clean on every seat, and a seat's pass in a window is one
    signed message, its announcement, which every replica waits for."""
    agents = [Recorder(seat, Counter()) for seat in range(4)]
    mesh = TableMesh(GAME, agents, seed=4)
    passes: list[int] = []  # the steps where a window asked and the seat passed

    def note(replica: State, action: Action) -> None:
        assert isinstance(replica, ToyState)
        if replica.windows and replica.current_player() >= 0 and isinstance(action, Pass):
            passes.append(len(mesh.peers[0].steps))

    mesh.peers[0].on_step = note
    mesh.run()
    outcomes = [peer.outcome for peer in mesh.peers]
    assert all(o is not None and not o.faults for o in outcomes)
    assert len({peer.replica.public_digest() for peer in mesh.peers}) == 1
    assert passes, "no seat passed in a window"
    # Each envelope carries the steps its sender had applied: the step it was sent for.
    sent_for = Counter(msgpack.unpackb(e.body)["sync"][0] for e in mesh.peers[0].transcript)
    assert [sent_for[step] for step in passes] == [1] * len(passes)
