"""A table is one history: every seat's fresh nonce makes its session id, so nothing signed
at one table verifies at another, even with the same host, the same people and the same
table id the host chose (issue 26, finding 4).

The tables here are real: `Node`s over TLS on 127.0.0.1 in one event loop, each seat with
its own identity and home, as `p2pcards host` and `join` form them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest

from ai.agents import make_agent
from p2pcards.engine import Action, State
from protocol.errors import RemoteProtocolError
from protocol.identity import Identity
from protocol.net import HostedTable, LocalSeat, Node
from protocol.roster import Member, Roster
from protocol.savefile import SaveFileError, load, rebuild
from protocol.table_messages import Abort
from protocol.table_peer import TableOutcome, TablePeer
from protocol.transcript import Envelope, Receiver
from protocol.wire import WireError

TABLE_ID = b"\x42" * 16  # the host picks the same table id every time
VICTIM = 1


def seat_of(home: Path, seat: int) -> LocalSeat:
    agent = make_agent("greedy", seat)

    async def decide(observation: State) -> Action:
        return agent.act(observation)

    return LocalSeat(Identity.load_or_create(home), f"seat{seat}", decide, home)


async def together(*coroutines: Coroutine[Any, Any, Any]) -> list[Any]:
    async with asyncio.TaskGroup() as group:
        tasks = [group.create_task(c) for c in coroutines]
    return [task.result() for task in tasks]


async def formed(homes: list[Path], round_cap: int) -> list[Node]:
    """A table of these seats (same homes: same identities), hosted under TABLE_ID."""
    nodes = [Node(seat_of(home, seat), "127.0.0.1", 0) for seat, home in enumerate(homes)]
    for node in nodes:
        node.say = lambda line: None
        await node.listen()
    table = HostedTable("rpg-battle", len(homes), {"round_cap": round_cap}, table_id=TABLE_ID)
    invite = nodes[0].host(table, "127.0.0.1")
    await together(nodes[0].wait_for_seats(), *(node.join(invite) for node in nodes[1:]))
    for node in nodes:
        node.prepare()
    await together(*(node.connect_mesh() for node in nodes))
    return nodes


async def play(nodes: list[Node]) -> list[TableOutcome]:
    try:
        async with asyncio.timeout(120):
            outcomes: list[TableOutcome] = await together(
                *(node.play(silent=10, leave_after=10) for node in nodes)
            )
        return outcomes
    finally:
        for node in nodes:
            await node.close()


def abort_with(peer: TablePeer, evidence: Envelope, after: int) -> list[bool]:
    """`peer` stops the table after `after` messages of its own, accusing the evidence's seat
    of equivocation with `evidence` (the flag says whether it did)."""
    send = peer._send_body
    fired = [False]

    def send_then_frame(body: dict[str, Any]) -> None:
        send(body)
        if len(peer.sent) >= after and not fired[0]:
            fired[0] = True
            reason = f"signed two different messages numbered {evidence.seq}"
            send(Abort(evidence.seat, "equivocation", reason, (evidence.packed,)).to_wire())

    peer._send_body = send_then_frame  # type: ignore[method-assign]
    return fired


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_message_signed_at_an_earlier_table_of_the_same_people_does_not_verify(
    tmp_path: Path, seats: int
) -> None:
    """Same host, same people, same table id the host chose: still another table."""
    homes = [tmp_path / f"seat{s}" for s in range(seats)]

    async def two_tables() -> tuple[list[Node], list[Node]]:
        first = await formed(homes, round_cap=1)
        await play(first)
        second = await formed(homes, round_cap=1)
        await play(second)
        return first, second

    first, second = asyncio.run(two_tables())
    old, new = first[0].table, second[0].table
    assert old is not None and new is not None
    assert old.table_id != new.table_id
    for seat in range(seats):
        receiver = Receiver(new.table_id, list(new.keys.verify))
        for envelope in (e for e in old.transcript if e.seat == seat):
            with pytest.raises(RemoteProtocolError, match="bad signature"):
                receiver.verify(envelope)


@pytest.mark.parametrize("seats", [3, 4])
def test_an_old_tables_message_passed_on_as_evidence_frames_nobody(
    tmp_path: Path, seats: int
) -> None:
    """The last seat passes on the victim's first message from their earlier table as proof
    that the victim signed two different messages: it used to verify, and every honest
    seat named the victim; now the seat that passed it on is named, and only it."""
    homes = [tmp_path / f"seat{s}" for s in range(seats)]
    cheater = seats - 1

    async def framing() -> tuple[list[TableOutcome], list[bool]]:
        earlier = await formed(homes, round_cap=1)
        await play(earlier)
        assert earlier[VICTIM].table is not None
        old_message = earlier[VICTIM].table.sent[0]
        nodes = await formed(homes, round_cap=30)
        table = nodes[cheater].table
        assert table is not None
        fired = abort_with(table, old_message, after=6)
        return await play(nodes), fired

    outcomes, fired = asyncio.run(framing())
    assert fired[0]
    for seat, outcome in enumerate(outcomes):
        if seat == cheater:
            continue
        faults = [str(f) for f in outcome.faults]
        assert outcome.cheaters == [cheater], (seat, faults, outcome.notes, outcome.ended)
        assert not any(f.seat == seat for f in outcome.faults), faults


def test_a_joiner_refuses_a_roster_without_its_own_fresh_nonce(tmp_path: Path) -> None:
    """A host that leaves out (or replaces) a joiner's nonce could make the table an old
    one again; the joiner does not sit down."""
    homes = [tmp_path / "host", tmp_path / "joiner"]

    async def forged_roster() -> str:
        host = Node(seat_of(homes[0], 0), "127.0.0.1", 0)
        joiner = Node(seat_of(homes[1], 1), "127.0.0.1", 0)
        for node in (host, joiner):
            await node.listen()
        invite = host.host(HostedTable("rpg-battle", 2, {}, table_id=TABLE_ID), "127.0.0.1")
        original = Roster.to_wire

        def without_nonces(roster: Roster) -> dict[str, Any]:
            stale = [Member(**{**vars(m), "nonce": b""}) for m in roster.members]
            return original(Roster(roster.table_id, roster.game, roster.options, stale,
                                   roster.rules))  # fmt: skip

        Roster.to_wire = without_nonces  # type: ignore[method-assign]
        try:
            results = await asyncio.gather(
                asyncio.wait_for(host.wait_for_seats(), 5), joiner.join(invite),
                return_exceptions=True,
            )  # fmt: skip
        finally:
            Roster.to_wire = original  # type: ignore[method-assign]
            await host.close()
            await joiner.close()
        return str(results[1])

    assert "leaves out our fresh nonce" in asyncio.run(forged_roster())


def test_a_table_saved_before_the_nonces_still_reads_as_it_was_signed() -> None:
    """Saved by the p2pcards of before (a two-seat rpg-battle, one round, one AI seat): its
    signatures are bound to the host's table id alone, and are read so, not misread. (Its
    moves, of before rpg-battle's actions named slots, are no longer played through:
    test_savefile.)"""
    saved = load(Path(__file__).with_name("saves") / "before-nonces-seat0.p2pt")
    assert not saved.roster.fresh and saved.table_id == saved.roster.table_id
    assert saved.verdict is not None and saved.verdict["faults"] == []
    with pytest.raises(SaveFileError, match="this save is format 2, written by an older"):
        rebuild(saved)


def test_a_roster_gives_every_seat_a_nonce_or_none() -> None:
    saved = load(Path(__file__).with_name("saves") / "before-nonces-seat0.p2pt")
    wire = saved.roster.to_wire()
    wire["members"][0]["nonce"] = b"\x01" * 16
    with pytest.raises(WireError, match="some seats a nonce"):
        Roster.from_wire(wire)
    for member in wire["members"]:
        member["nonce"] = b"\x01" * 16
    fresh = Roster.from_wire(wire)
    assert fresh.fresh and fresh.session_id not in (fresh.table_id, saved.roster.session_id)
    wire["members"][1]["host"] = "192.0.2.7"  # a seat back from another address: same table
    assert Roster.from_wire(wire).session_id == fresh.session_id
    wire["members"][1]["nonce"] = b"\x02" * 16  # one seat's nonce is another table
    assert Roster.from_wire(wire).session_id != fresh.session_id
