"""RPG Get! at mental-poker tables of 3 and 4 seats (issue 25): each seat's own 80-card deck
through the cryptography, the bank kept face down (its owner alone knows a banked card until
it comes out to the inventory, where the card is proved), attacks answered in response
windows, rolls from the table's beacon, and cheaters named (a bank card shown that is not the card
banked, a steered roll or bank destroy, a Recruit of a card not in the deck, a response out
of turn).

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
from p2pcards.answers import Decline, Take, Target
from p2pcards.engine import Action, State
from p2pcards.games.rpg_get import RpgGetState
from p2pcards.games.rpg_get.actions import Act, Bank, Defend, Equip, Pass, PlayEvent
from p2pcards.games.rpg_get.state import BANK, DESTROYED
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
    moves = ("bank", "bank card shown", "window pass", "defense")
    # Two games at least, more until every move these tables are for has come up: the
    # greedy seats' choices among equal moves vary from one process to the next.
    for game in range(6):
        if game >= 2 and all(seen[what] for what in moves):
            break
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
    for what in moves:
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
    # Seeded deals where the cheater equips from a bank still face down (at some, its bank was
    # turned up first, and the other seats see the lie without a proof).
    mesh = mesh_of(seats, seed={3: 1, 4: 3}[seats])
    mesh.agents[CHEATER] = FromTheBank(CHEATER)
    peer = mesh.peers[CHEATER]

    def another_reward(body: dict[str, Any]) -> dict[str, Any] | None:
        action = body["payload"]["action"]  # signed before the cheater applies it
        banked = peer.replica.pile(CHEATER, BANK)  # type: ignore[attr-defined]
        if action.get("kind") != "equip" or action["slot"] not in banked:
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
    fired = cheat_on(mesh.peers[CHEATER], "beacon-reveal", 0, lambda b: {**b, "value": bytes(32)})
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


# ------------------------------------------------- a Recruit of a card not in the deck


def recruits(card_id: str) -> bool:
    """Whether a card Recruits (line 154)."""
    card = GAME.db.by_id[card_id]  # type: ignore[attr-defined]
    return any(e.do == "recruit" for a in card.abilities for e in a.effects)


RAPPIES = [
    c.id
    for c in GAME.db.cards  # type: ignore[attr-defined]
    if c.type == "enemy" and c.tribe == "rappy"
]


def eighty(deck: dict[str, int], filler: str) -> dict[str, int]:
    """`deck` made exactly 80 cards (line 162) by the count of `filler`: the starter decks
    it starts from are retuned now and then."""
    count = deck[filler] + 80 - sum(deck.values())
    assert count >= 0, f"{filler} cannot make this deck 80 cards"
    return {**deck, filler: count}


RECRUITER_DECK = eighty({
    **GAME.deck("ragol-hunters"),  # type: ignore[attr-defined]
    "booma": 0, "saber": 0, "rappy-call": 17, "rag-rappy": 1, "love-rappy": 4,
}, "monomate")  # fmt: skip
"""Ragol Hunters with Rappy Calls for its Boomas and Sabers: Recruits come early (line 154);
one Rag Rappy, taken by the first Recruit, so that a later one may claim it although it is
used."""


class Recruiter:
    """Greedy play that plays a Rappy Call whenever its deck holds a Rappy and the EP has
    room for one (a search shuffles the deck through the mental layer: none in vain), and
    takes the first Rappy."""

    def __init__(self, seed: int) -> None:
        self.greedy = make_agent("greedy", seed)

    def act(self, observation: State) -> Action:
        assert isinstance(observation, RpgGetState)
        unseen = observation.unseen_cards()
        for action in observation.legal_actions():
            if isinstance(action, PlayEvent) and recruits(action.card):
                ep_used = observation.points_used()[1]
                mission = observation.card(observation.zone_slots("mission")[0])
                if mission.ep > ep_used and any(unseen.get(r) for r in RAPPIES):
                    return action
            if isinstance(action, Take) and action.card is not None:
                return action
        return self.greedy.act(observation)


def seated_with(decks: dict[int, dict[str, int]]) -> type[TablePeer]:
    """`TablePeer`s that bring these decks (by seat; the others the default ones)."""

    class Seated(TablePeer):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            seat = args[3]
            super().__init__(*args, deck=decks.get(seat), **kwargs)

    return Seated


def not_in_the_deck(peer: TablePeer, real: str) -> str | None:
    """A Rappy the cheater's committed decklist does not hold at all."""
    return next(r for r in RAPPIES if r not in RECRUITER_DECK)


def already_used(peer: TablePeer, real: str) -> str | None:
    """A Rappy of the cheater's decklist none of whose copies is left in its deck."""
    unseen = peer.replica.unseen_cards()
    gone = [r for r in RAPPIES if RECRUITER_DECK.get(r) and not unseen.get(r) and r != real]
    return gone[0] if gone else None


def off_the_criteria(peer: TablePeer, real: str) -> str | None:
    """An enemy of the deck that the Rappy Call's criteria do not take (a Savage Wolf)."""
    return "savage-wolf"


@pytest.mark.parametrize(
    ("claim", "seats", "words"),
    [
        (not_in_the_deck, 3, ("but the card it showed",)),
        (not_in_the_deck, 4, ("but the card it showed",)),
        (already_used, 3, ("but the card it showed",)),
        (already_used, 4, ("but the card it showed",)),
        # Every replica checks the criteria alike, whatever the seats: one table is enough.
        (off_the_criteria, 3, ("not an enemy this Recruit may",)),
    ],
)
def test_a_recruit_of_a_card_not_in_the_deck_is_named(
    claim: Any, seats: int, words: tuple[str, ...]
) -> None:
    """Line 154: a Recruit searches the seat's own deck, face down to the others; the enemy
    it names must match the card's criteria (every replica checks) and is shown from the
    deck, proved against the committed deck: a card the deck never held, or whose copies
    have left it, or one off the criteria, names the recruiter, never an honest seat."""
    mesh = TableMesh(
        "rpg-get", [make_agent("greedy", s) for s in range(seats)], {"round_cap": 6},
        seed=0, shuffle_seed=0, peer_class=seated_with({CHEATER: RECRUITER_DECK}),
    )  # fmt: skip
    mesh.agents[CHEATER] = Recruiter(CHEATER)
    peer = mesh.peers[CHEATER]

    def claim_another(body: dict[str, Any]) -> dict[str, Any] | None:
        action = body["payload"].get("action", {})
        if action.get("kind") != "take" or action["card"] is None:
            return None
        other = claim(peer, action["card"])
        if other is None:
            return None
        return {**body, "payload": {**body["payload"], "action": {**action, "card": other}}}

    fired = cheat_on(peer, "announce", 0, claim_another)
    mesh.run()
    assert fired[0]  # the deals are seeded: the cheater recruits
    assert_named(mesh, *words)


# ------------------------------------------------------ a random bank destroy steered

RAIDER, BANKER = 0, CHEATER
RAIDER_DECK = eighty(
    {**GAME.deck("sky-pirates"), "monomate": 0, "sky-pirate-raid": 8},  # type: ignore[attr-defined]
    "valuan-soldier",
)
"""Sky Pirates with Sky Pirate Raids (line 144: a random card of each opponent's bank)."""


class Raider:
    """Greedy play that raids the banks whenever one of them holds a card."""

    def __init__(self, seed: int) -> None:
        self.greedy = make_agent("greedy", seed)

    def act(self, observation: State) -> Action:
        assert isinstance(observation, RpgGetState)
        banked = any(observation.pile(s, BANK) for s in range(observation.num_players))
        for action in observation.legal_actions():
            if banked and isinstance(action, PlayEvent) and action.card == "sky-pirate-raid":
                return action
        return self.greedy.act(observation)


class Banker:
    """Greedy play that banks every Reward it may, and equips from its bank once a raid has
    taken one of its cards."""

    def __init__(self, seed: int) -> None:
        self.greedy = make_agent("greedy", seed)

    def act(self, observation: State) -> Action:
        assert isinstance(observation, RpgGetState)
        seat = observation.current_player()
        raided = bool(observation.pile(seat, DESTROYED))
        bank = observation.pile(seat, BANK)
        for action in observation.legal_actions():
            if isinstance(action, Bank) or (
                raided and isinstance(action, Equip) and action.slot in bank
            ):
                return action
        return self.greedy.act(observation)


def raid_mesh(seats: int, seed: int) -> TableMesh:
    """The raider and the banker at a seeded table (seeds chosen for an early raid)."""
    agents: list[Any] = [make_agent("greedy", s) for s in range(seats)]
    agents[RAIDER], agents[BANKER] = Raider(RAIDER), Banker(BANKER)
    return TableMesh(
        "rpg-get", agents, {"round_cap": 6}, seed=seed, shuffle_seed=seed,
        peer_class=seated_with({RAIDER: RAIDER_DECK}),
    )  # fmt: skip


@pytest.mark.parametrize(("seats", "seed"), [(3, 0), (4, 10)])
def test_a_steered_bank_destroy_is_named(seats: int, seed: int) -> None:
    """Line 144, rules choice 39: the card a bank loses is picked by the table's beacon, and
    nobody chooses it; a seat (here the bank's owner) that reveals another share of the
    beacon than it committed, to steer the pick, is named."""
    mesh = raid_mesh(seats, seed)
    peer = mesh.peers[BANKER]

    def steer(body: dict[str, Any]) -> dict[str, Any] | None:
        replica = peer.replica
        if not replica.is_chance_node() or replica.chance_step()[0].kind != "pick":
            return None  # the pick of a bank destroy: the only pick of this game
        return {**body, "value": bytes(32)}

    fired = cheat_on(peer, "beacon-reveal", 0, steer)
    mesh.run()
    assert fired[0]  # the deals are seeded: the raider raids the cheater's bank
    assert_named(mesh, "does not match its commitment")


@pytest.mark.parametrize(("seats", "seed"), [(3, 0), (4, 7)])
def test_a_bank_owner_who_claims_the_destroy_took_another_card_is_named(
    seats: int, seed: int
) -> None:
    """Line 144, 38: the raided owner alone sees which card its bank lost; showing that card
    later as still in its bank (claiming the beacon picked another) names the owner."""
    mesh = raid_mesh(seats, seed)
    peer = mesh.peers[BANKER]

    def show_the_destroyed(body: dict[str, Any]) -> dict[str, Any] | None:
        action = body["payload"].get("action", {})
        replica = peer.replica
        assert isinstance(replica, RpgGetState)
        gone = [replica.card_at(s) for s in replica.pile(BANKER, DESTROYED)]
        lost = next((c for c in gone if c is not None and c != action.get("card")), None)
        if action.get("kind") != "equip" or lost is None:
            return None
        if action["slot"] not in replica.pile(BANKER, BANK):
            return None
        if GAME.db.by_id[lost].rp > replica.counters(BANKER):  # type: ignore[attr-defined]
            return None  # the others would refuse it as too dear, not as a lie
        return {**body, "payload": {**body["payload"], "action": {**action, "card": lost}}}

    fired = cheat_on(peer, "announce", 0, show_the_destroyed)
    mesh.run()
    assert fired[0]
    assert_named(mesh, "but the card it showed", "showed")
