"""TablePeer, one seat's whole game, with messages delivered in any order across seats."""

import dataclasses
import random
import secrets

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from ai.agents import make_agent
from p2pcards import games
from protocol.table_peer import DesyncError, TableKeys, TablePeer

GAME = games.load("rpg-battle")


def table(seats: int) -> list[TablePeer]:
    signing = [Ed25519PrivateKey.generate() for _ in range(seats)]
    sealing = [X25519PrivateKey.generate() for _ in range(seats)]
    verify = [k.public_key() for k in signing]
    seal = [k.public_key() for k in sealing]
    table_id = secrets.token_bytes(16)
    return [
        TablePeer(
            GAME, {"round_cap": 40}, table_id, s, TableKeys(signing[s], sealing[s], verify, seal)
        )
        for s in range(seats)
    ]


def run(peers: list[TablePeer], seed: int) -> None:
    """Deliver every envelope to every other seat, in per-sender order but with the seats'
    streams interleaved at random, as a mesh does."""
    rng = random.Random(seed)
    agents = [make_agent("greedy", s) for s in range(len(peers))]
    inboxes: list[list] = [[] for _ in peers]
    for peer in peers:
        peer.start()
    while not all(peer.finished for peer in peers):
        for peer in peers:
            if peer.wants_action():
                peer.act(agents[peer.seat].act(peer.replica.clone()))
            out, peer.outbox = peer.outbox, []
            for envelope in out:
                for other in peers:
                    if other is not peer:
                        inboxes[other.seat].append(envelope)
        if not any(inboxes):
            raise AssertionError("the table stalled")
        for peer in peers:
            inbox = inboxes[peer.seat]
            while inbox:
                sender = rng.choice(sorted({e.seat for e in inbox}))
                peer.receive(inbox.pop(next(i for i, e in enumerate(inbox) if e.seat == sender)))


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_seats_agree_whatever_order_messages_arrive_in(seats: int, seed: int) -> None:
    peers = table(seats)
    run(peers, seed)
    outcomes = [peer.outcome for peer in peers]
    assert all(o is not None and o.faults == [] for o in outcomes)
    assert len({o.digest for o in outcomes if o is not None}) == 1
    assert len({len(peer.steps) for peer in peers}) == 1


def test_a_replica_that_drifts_is_caught_at_once_with_a_report() -> None:
    peers = table(2)
    drifting = peers[1]
    honest_digests = drifting.replica.section_digests

    def drifted() -> dict[str, str]:
        digests = honest_digests()
        if len(drifting.steps) >= 10:
            digests["board"] = "0" * 64  # seat 1's replica now believes another board
        return digests

    drifting.replica.section_digests = drifted  # type: ignore[method-assign]
    with pytest.raises(DesyncError) as caught:
        run(peers, 5)
    error = caught.value
    assert error.step == 10 and error.sections == ["board"]
    assert {error.seat} <= {0, 1}
    reporter = peers[1 - error.seat]
    report = reporter.desync_report(error)
    assert report["step"] == 10 and report["sections_that_differ"] == ["board"]
    assert (
        len(report["steps"]) >= 11
        and report["their_digests"]["board"] != report["our_digests"]["board"]
    )


def test_a_seat_rebuilt_from_its_transcript_and_secrets_is_the_same_seat() -> None:
    peers = table(3)
    run(peers, 7)
    original = peers[1]
    rebuilt = TablePeer.restore(
        GAME, {"round_cap": 40}, original.table_id, 1, original.keys,
        dict(original.mental.secret_log), original.transcript,
    )  # fmt: skip
    assert rebuilt.sent == original.sent  # every message ours again, signature for signature
    assert rebuilt.finished and rebuilt.outcome == original.outcome
    assert [s.digests for s in rebuilt.steps] == [s.digests for s in original.steps]


def test_a_resent_message_is_dropped_but_another_under_its_number_is_refused() -> None:
    from protocol.errors import RemoteProtocolError

    peers = table(2)
    run(peers, 11)
    seat0, seat1 = peers
    first = seat1.transcript[0] if seat1.transcript[0].seat == 0 else seat0.sent[0]
    before = len(seat1.transcript)
    seat1.receive(first)  # a resend: the very message it holds
    assert len(seat1.transcript) == before
    other = seat0.sent[1]
    replayed = dataclasses.replace(other, seq=first.seq, prev=first.prev)
    with pytest.raises(RemoteProtocolError, match="replayed or forged"):
        seat1.receive(replayed)
