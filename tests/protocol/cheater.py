"""A seat that cheats over the real network, for tests: `python cheater.py MODE INVITE HOME`.

It joins like `p2pcards bot`, plays greedy, and at one moment misbehaves:
- forge: one of its envelopes leaves with a corrupted signature;
- out-of-turn: it announces an action while another seat is to act;
- illegal: on its turn it announces an action the rules do not allow;
- equivocate: one of its moves goes to the last seat as another move, signed too.
"""

import asyncio
import dataclasses
import sys
from pathlib import Path

from ai.agents import make_agent
from p2pcards import CHANCE, TERMINAL
from p2pcards.engine import State
from p2pcards.games.rpg_battle.actions import EndTurn
from protocol.identity import Identity
from protocol.invite import Invite
from protocol.net import LocalSeat, Node
from protocol.table_peer import TablePeer
from protocol.transcript import Envelope, pack_body


def sabotage(table: TablePeer, mode: str) -> None:
    """Make `table` misbehave once, in the way `mode` names."""
    send = table._send_body
    count = [0]

    def cheating_send(body: dict[str, object]) -> None:
        send(body)  # type: ignore[arg-type]
        count[0] += 1
        if count[0] == 12 and mode == "forge":
            table.sent[-1] = dataclasses.replace(table.sent[-1], signature=bytes(64))

    table._send_body = cheating_send  # type: ignore[assignment]
    receive = table.receive

    def receive_then_speak_out_of_turn(envelope: object) -> None:
        receive(envelope)  # type: ignore[arg-type]
        # Once another seat is to act (its announcement is the open operation), speak
        # in its place, once.
        others_turn = table.replica.current_player() not in (table.seat, CHANCE, TERMINAL)
        waiting = table._waiting
        if 12 <= count[0] < 10**6 and others_turn and isinstance(waiting, int):
            send({"kind": "announce", "step": waiting, "payload": {"action": {"kind": "pass"}}})
            count[0] = 10**6

    if mode == "out-of-turn":
        table.receive = receive_then_speak_out_of_turn  # type: ignore[method-assign]
    if mode == "illegal":
        verify = table.replica.verify_action

        def lenient(action: object) -> None:
            if isinstance(action, EndTurn):
                return  # let our own illegal announcement through (and apply it)
            verify(action)  # type: ignore[arg-type]

        table.replica.verify_action = lenient  # type: ignore[method-assign]


def equivocate(node: Node) -> None:
    """From its third move on, the first move that is not a pass goes to the highest other
    seat as a pass instead, under the same number and signed: two messages, one number."""
    assert node.roster is not None
    last = max(s for s in range(len(node.roster.members)) if s != node.seat)
    moves = [0]
    twins: dict[int, Envelope] = {}

    def twin_of(peer: TablePeer, envelope: Envelope) -> Envelope:
        message = envelope.message
        if message["kind"] != "announce" or (twins and envelope.seq not in twins):
            return envelope
        if envelope.seq not in twins:
            moves[0] += 1
            if moves[0] < 3 or message["payload"]["action"] == {"kind": "pass"}:
                return envelope
            body = {**message, "payload": {"action": {"kind": "pass"}}}
            unsigned = Envelope(envelope.seat, envelope.seq, envelope.prev, pack_body(body), b"")
            key = peer.keys.signing
            assert key is not None
            signature = key.sign(unsigned.signed_bytes(peer.table_id))
            twins[envelope.seq] = dataclasses.replace(unsigned, signature=signature)
        return twins[envelope.seq]

    def send_with_a_twin(peer: TablePeer) -> None:
        peer.outbox.clear()
        for seat, conn in list(node.links.items()):
            start = node._link_sent.get(seat, 0)
            if start >= len(peer.sent) or conn.closed:
                continue
            node._link_sent[seat] = len(peer.sent)
            sent = peer.sent[start:]
            if seat == last:
                sent = [twin_of(peer, e) for e in sent]
            conn.post([e.frame for e in sent])

    node._send_outbox = send_with_a_twin  # type: ignore[method-assign]


async def main(mode: str, code: str, home: Path) -> None:
    agent = make_agent("greedy", 1)
    fired = [False]

    async def decide(observation: State) -> object:
        if mode == "illegal" and not fired[0] and observation.decision().kind == "play":  # type: ignore[attr-defined]
            fired[0] = True
            return EndTurn(True)  # ending the turn while a character is still to act
        return agent.act(observation)

    seat = LocalSeat(Identity.load_or_create(home), "cheater", decide, home)  # type: ignore[arg-type]
    node = Node(seat, "0.0.0.0", 0)  # the roster gives the address the host saw us at
    await node.listen()
    await node.join(Invite.parse(code))
    sabotage(node.prepare(), mode)
    if mode == "equivocate":
        equivocate(node)
    await node.connect_mesh()
    try:
        await node.play(silent=10, leave_after=10)
    finally:
        await node.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], Path(sys.argv[3])))
