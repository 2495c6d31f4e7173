"""RPG Get! at mental-poker tables of 3 and 4 seats (issue 25): each seat's own 80-card deck
through the cryptography, the bank kept face down (its owner alone knows a banked card until
it comes out to the inventory, where the card is proved), attacks answered in response
windows, rolls from the table's beacon, and cheaters named.

`InProcessTable` checks after every step that each replica is on the table's digest and holds
exactly what its seat may know (a bank card of another seat included); at the end every seat
discloses its secrets, and the audit re-derives every shuffle and key and judges each
committed decklist by the deck rules. The hostile tables are whole `TablePeer`s on in-memory
links (`TableMesh`), each cheat one a seated peer can really send.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgpack
import pytest
from test_hostile_tables import assert_named, cheat_on

from ai.agents import make_agent
from p2pcards import CHANCE, TERMINAL, games
from p2pcards.answers import Decline, Target
from p2pcards.engine import Action, State
from p2pcards.games.rpg_get import RpgGetState
from p2pcards.games.rpg_get.actions import Act, Bank, Defend, Equip, Pass, PlayEvent
from p2pcards.games.rpg_get.state import BANK
from protocol.inprocess import InProcessTable, TableMesh
from protocol.table_peer import TablePeer

GAME = games.load("rpg-get")
REWARDS = [c for c in GAME.db.cards if c.type == "reward"]  # type: ignore[attr-defined]


class Recorder:
    """Greedy play, random now and then and in windows, that counts the moves these tables
    are here for."""

    def __init__(self, seed: int, seen: Counter[str]) -> None:
        self.greedy = make_agent("greedy", seed)
        self.rng = random.Random(seed)
        self.seen = seen

    def act(self, observation: State) -> Action:
        assert isinstance(observation, RpgGetState)
        actions = observation.legal_actions()
        if observation.windows or self.rng.random() < 0.2:  # a window: defend or not
            action = self.rng.choice(actions)
        else:
            action = self.greedy.act(observation)
        seat = observation.current_player()
        if isinstance(action, Bank):
            self.seen["bank"] += 1
        if isinstance(action, Equip) and action.slot in observation.pile(seat, BANK):
            self.seen["bank card shown"] += 1
        if observation.windows:  # a window: pass, defend, recover, play an Event, answer it
            if isinstance(action, Pass | Defend):
                self.seen["window pass" if isinstance(action, Pass) else "defense"] += 1
            assert isinstance(action, Pass | Defend | Act | PlayEvent | Target | Decline)
        return action


@pytest.mark.parametrize("seats", [3, 4])
def test_seats_play_whole_games_with_a_clean_audit(seats: int) -> None:
    """Whole games through the cryptography with the default decks (the shipped decks in
    turn), every replica checked at every step, every decklist audited."""
    seen: Counter[str] = Counter()
    for game in range(2):
        agents = [Recorder(game * 10 + seat, seen) for seat in range(seats)]
        table = InProcessTable("rpg-get", agents, {"round_cap": 5})
        result = table.play()
        assert result.error is None
        assert table.reference.is_terminal()
        assert len({table.reference.public_digest(), *result.digests}) == 1
        assert result.faults == [[]] * seats
        for seat, replica in enumerate(table.seats):
            wanted = GAME.deck(GAME.default_deck(seat))  # type: ignore[attr-defined]
            assert replica.replica.deck_composition(seat) == wanted  # type: ignore[attr-defined]
    for what in ("bank", "bank card shown", "window pass", "defense"):
        assert seen[what], f"no {what} at these tables: {dict(seen)}"


def test_table_peers_play_four_seats_and_a_window_pass_is_one_message() -> None:
    """The code a LAN table runs (`TablePeer`), on in-memory links: the game ends clean on
    every seat, and a seat's pass in an attack's window is one signed message."""
    agents = [Recorder(seat, Counter()) for seat in range(4)]
    mesh = TableMesh("rpg-get", agents, {"round_cap": 4}, seed=4)
    passes: list[int] = []

    def note(replica: State, action: Action) -> None:
        assert isinstance(replica, RpgGetState)
        if replica.windows and replica.current_player() >= 0 and isinstance(action, Pass):
            passes.append(len(mesh.peers[0].steps))

    mesh.peers[0].on_step = note
    mesh.run()
    outcomes = [peer.outcome for peer in mesh.peers]
    assert all(o is not None and not o.faults for o in outcomes)
    assert len({peer.replica.public_digest() for peer in mesh.peers}) == 1
    assert passes, "no seat passed in a window"
    sent_for = Counter(msgpack.unpackb(e.body)["sync"][0] for e in mesh.peers[0].transcript)
    assert [sent_for[step] for step in passes] == [1] * len(passes)


# ------------------------------------------------------------------ cheaters

CHEATER = 1
SEATS = pytest.mark.parametrize("seats", [3, 4])


class FromTheBank:
    """Greedy play that equips a Reward from its bank whenever it can (line 38)."""

    def __init__(self, seed: int) -> None:
        self.greedy = make_agent("greedy", seed)

    def act(self, observation: State) -> Action:
        assert isinstance(observation, RpgGetState)
        bank = observation.pile(observation.current_player(), BANK)
        for action in observation.legal_actions():
            if isinstance(action, Equip) and action.slot in bank:
                return action
        return self.greedy.act(observation)


def mesh_of(seats: int, seed: int = 1) -> TableMesh:
    agents = [make_agent("greedy", s) for s in range(seats)]
    return TableMesh("rpg-get", agents, {"round_cap": 6}, seed=seed, shuffle_seed=seed)


@SEATS
def test_a_bank_card_shown_that_is_not_the_card_banked_is_named(seats: int) -> None:
    """Line 36, 38: a banked card is face down; equipping it from the bank names it, and the
    card is proved against the one committed. The cheater names another Reward."""
    mesh = mesh_of(seats)
    mesh.agents[CHEATER] = FromTheBank(CHEATER)
    peer = mesh.peers[CHEATER]

    def another_reward(body: dict[str, Any]) -> dict[str, Any] | None:
        action = body["payload"]["action"]  # signed before the cheater applies it
        if action.get("kind") != "equip" or action["slot"] not in peer.replica.pile(
            CHEATER, BANK  # type: ignore[attr-defined]
        ):
            return None
        real = GAME.db.by_id[action["card"]]  # type: ignore[attr-defined]
        other = next(r for r in REWARDS if r.id != real.id and r.rp <= real.rp)
        return {**body, "payload": {**body["payload"], "action": {**action, "card": other.id}}}

    fired = cheat_on(peer, "announce", 0, another_reward)
    mesh.run()
    assert fired[0]  # the deals are seeded: the cheater equips from its bank
    assert_named(mesh, "but the card it showed", "bad hand positions", "showed")


@SEATS
def test_a_steered_roll_is_named(seats: int) -> None:
    """Rule choice 5, 28, 29: every roll (the first seat, a coin flip, a confused card's
    target) comes from the table's beacon; a seat that reveals another value than the one it
    committed, to steer the roll, is named."""
    mesh = mesh_of(seats, seed=2)
    fired = cheat_on(
        mesh.peers[CHEATER], "beacon-reveal", 0, lambda b: {**b, "value": bytes(32)}
    )
    mesh.run()
    assert fired[0]
    assert_named(mesh, "does not match its commitment")


def speak_out_of_turn(peer: TablePeer) -> list[bool]:
    """`peer` answers an attack's window in another seat's place, once: a signed Pass for the
    step where the window asks someone else."""
    receive = peer.receive
    spoken = [False]

    def receive_then_answer(envelope: Any) -> None:
        receive(envelope)
        replica = peer.replica
        assert isinstance(replica, RpgGetState)
        asked = replica.current_player()
        waiting = peer._waiting
        if spoken[0] or not replica.windows or asked in (peer.seat, CHANCE, TERMINAL):
            return
        if isinstance(waiting, int):
            spoken[0] = True
            body = {"kind": "announce", "step": waiting, "payload": {"action": {"kind": "pass"}}}
            peer._send_body(body)

    peer.receive = receive_then_answer  # type: ignore[method-assign]
    return spoken


@SEATS
def test_a_response_out_of_turn_is_named(seats: int) -> None:
    """Line 111, rules choice 12: a window asks its seats one at a time; a seat that answers
    for another is named, never the seat asked."""
    mesh = mesh_of(seats, seed=2)
    spoken = speak_out_of_turn(mesh.peers[CHEATER])
    mesh.run()
    assert spoken[0]  # the deals are seeded: a window asked another seat
    assert_named(
        mesh, "when another seat was to announce", "unexpected Announcement", "was to decide"
    )
