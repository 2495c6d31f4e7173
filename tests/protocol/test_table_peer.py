"""TablePeer, one seat's whole game, with messages delivered in any order across seats."""

import dataclasses

import pytest

from ai.agents import make_agent
from p2pcards import games
from p2pcards.engine import Action, State
from protocol.inprocess import TableMesh
from protocol.table_peer import TablePeer
from protocol.transcript import Envelope

GAME = games.load("rpg-battle")
OPTIONS = {"round_cap": 40}


def mesh(seats: int, seed: int, **kwargs: object) -> TableMesh:
    agents = [make_agent("greedy", s) for s in range(seats)]
    return TableMesh("rpg-battle", agents, OPTIONS, seed=seed, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_seats_agree_whatever_order_messages_arrive_in(seats: int, seed: int) -> None:
    table = mesh(seats, seed)
    table.run()
    outcomes = [peer.outcome for peer in table.peers]
    assert all(o is not None and o.ended == "finished" and o.faults == [] for o in outcomes)
    assert len({o.digest for o in outcomes if o is not None}) == 1
    assert len({len(peer.steps) for peer in table.peers}) == 1


def test_no_message_is_a_digest_alone() -> None:
    """The replica's digest rides on the messages a seat sends anyway: every envelope is a
    move, a share, a disclosure (formerly two thirds of them were digests)."""
    table = mesh(4, 5)
    table.run()
    kinds = {e.message["kind"] for e in table.peers[0].transcript}
    assert "digest" not in kinds
    assert all("sync" in e.message for e in table.peers[0].transcript)


def test_a_replica_that_drifts_is_named_by_every_other_seat_with_a_report() -> None:
    table = mesh(3, 5)
    drifting = table.peers[1]
    honest_digests = drifting.replica.section_digests

    def drifted() -> dict[str, str]:
        digests = honest_digests()
        if len(drifting.steps) >= 9:
            digests["board"] = "0" * 64  # seat 1's replica now believes another board
        return digests

    drifting.replica.section_digests = drifted  # type: ignore[method-assign]
    table.run()
    for honest in (table.peers[0], table.peers[2]):
        outcome = honest.outcome
        assert outcome is not None and outcome.ended == "aborted"
        assert outcome.cheaters == [1], outcome.faults
        assert outcome.desync is not None and outcome.desync.sections == ["board"]
        assert outcome.desync.step == 10
        report = honest.desync_report()
        assert report["other_seat"] == 1 and report["sections_that_differ"] == ["board"]
        assert len(report["steps"]) >= 10


@pytest.mark.parametrize("with_key", [True, False])
def test_a_seat_rebuilt_from_its_transcript_and_secrets_is_the_same_seat(with_key: bool) -> None:
    """With its signing key it could play on; without, it is the audit's re-check."""
    table = mesh(3, 7)
    table.run()
    original = table.peers[1]
    keys = original.keys if with_key else dataclasses.replace(original.keys, signing=None)
    rebuilt = TablePeer.restore(
        GAME, OPTIONS, original.table_id, 1, keys, dict(original.mental.secret_log),
        [t.envelope for t in original.record], original.decisions,
    )  # fmt: skip
    assert rebuilt.sent == original.sent  # every message ours again, byte for byte
    assert rebuilt.finished and rebuilt.outcome == original.outcome
    assert [s.digests for s in rebuilt.steps] == [s.digests for s in original.steps]


def test_a_rebuilt_seat_shows_its_watch_every_step_played_through_again() -> None:
    """A resumed agent learns the game so far (a reading agent's worlds, a bot's events)."""
    table = mesh(3, 7)
    table.run()
    original = table.peers[2]
    seen: list[tuple[int | None, Action]] = []

    def watch(replica: State, action: Action) -> None:
        seen.append((replica.viewer, action))  # the seat's own replica, before the step

    rebuilt = TablePeer.restore(
        GAME, OPTIONS, original.table_id, 2, original.keys, dict(original.mental.secret_log),
        [t.envelope for t in original.record], original.decisions, on_step=watch,
    )  # fmt: skip
    assert [action for _, action in seen] == [step.action for step in original.steps]
    assert {viewer for viewer, _ in seen} == {2} and len(seen) > 10
    assert rebuilt.on_step is watch  # and on, as the seat plays on


def test_a_transcript_that_does_not_give_back_our_own_messages_is_refused() -> None:
    from protocol.errors import ProtocolError

    table = mesh(2, 8)
    table.run()
    original = table.peers[0]
    other_choices = list(reversed(original.decisions))  # other decisions: other messages
    with pytest.raises(ProtocolError, match=r"differently on replay|do not replay"):
        TablePeer.restore(
            GAME, OPTIONS, original.table_id, 0,
            dataclasses.replace(original.keys, signing=None), dict(original.mental.secret_log),
            [t.envelope for t in original.record], other_choices,
        )  # fmt: skip


def test_a_resent_message_is_dropped_but_another_under_its_number_is_proof() -> None:
    """Two messages a seat signed under one number are equivocation, named with both."""
    table = mesh(2, 11)
    table.run(max_deliveries=12)  # part of the way: both seats still playing
    seat0, seat1 = table.peers
    assert seat1.expects(0) >= 3 and seat1.phase == "playing"
    first = seat0.sent[1]
    before = len(seat1.transcript)
    seat1.receive(first)  # a resend: the very message it holds
    assert len(seat1.transcript) == before and seat1.phase == "playing"
    signing = seat0.keys.signing
    assert signing is not None
    body = seat0.sent[2].body
    unsigned = Envelope(0, first.seq, first.prev, body, b"")
    twin = Envelope(
        0, first.seq, first.prev, body, signing.sign(unsigned.signed_bytes(seat0.table_id))
    )
    seat1.receive(twin)
    accusation = seat1.accusations[-1]
    assert (accusation.seat, accusation.cause) == (0, "equivocation")
    assert set(accusation.evidence) == {first, twin}
    assert seat1.phase != "playing"
