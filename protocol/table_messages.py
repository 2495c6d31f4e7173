"""What a seat says about the table itself, as opposed to the cards: sync, leave, abort.

Every envelope's body carries a `Sync`: how far the sender's replica has got
(engine steps applied, and a short digest of each public section after them)
and how many messages of every seat it holds, with the hash ending each chain.
A receiver compares both with its own at once, so

- a replica that drifts is caught with the first message its seat sends after
  the step where it drifted, before anything that seat says is acted upon (a
  separate digest message per step used to be two thirds of all traffic);
- a seat that told two seats two different things under one number is caught
  with the first message of a third seat that holds the other one: the two
  signed messages are the proof (equivocation).

`Leave` says a seat is going (it may come back with `join --resume`). `Abort`
says a seat stopped the table, naming who it holds responsible and carrying
the signed messages that show it, or that a seat is gone for good. `Judged`
closes a seat's say: every accusation it makes comes before it, so every seat
judges the same accusations.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Any, Literal

from protocol.errors import RemoteProtocolError
from protocol.transcript import MAX_SEQ

DIGEST_BYTES = 8  # of each section's SHA-256: enough to tell replicas apart
MAX_SECTIONS = 16
MAX_EVIDENCE = 4  # signed messages one abort may carry
MAX_REASON = 300  # characters of a reason


@dataclass(frozen=True, slots=True)
class Sync:
    """A seat's view when it sent a message: its replica's progress and what it holds."""

    steps: int  # engine steps its replica has applied
    state: bytes  # DIGEST_BYTES of each section digest after them, in section-name order
    acks: tuple[tuple[int, bytes], ...]  # per seat: messages held, hash ending that chain

    def to_wire(self) -> list[Any]:
        """As carried in a body."""
        return [self.steps, self.state, [list(a) for a in self.acks]]

    @staticmethod
    def from_wire(value: Any, num_seats: int, sender: int) -> Sync:
        """From a body's `sync` field, every part checked; the sender is named otherwise.

        Exact type checks (`type(x) is int` also refuses a bool): this runs on every
        message a seat takes.
        """
        problem = _sync_problem(value, num_seats)
        if problem is not None:
            raise RemoteProtocolError(sender, f"malformed sync: {problem}")
        steps, state, acks = value
        return Sync(steps, state, tuple((count, chain) for count, chain in acks))


def _sync_problem(value: Any, num_seats: int) -> str | None:
    if type(value) is not list or len(value) != 3:
        return "sync must be [steps, state, acks]"
    steps, state, acks = value
    if type(steps) is not int or not 0 <= steps <= MAX_SEQ:
        return "steps must be a non-negative integer"
    if type(state) is not bytes or len(state) > DIGEST_BYTES * MAX_SECTIONS:
        return "state must be a short byte string"
    if len(state) % DIGEST_BYTES:
        return f"state must be {DIGEST_BYTES} bytes per section"
    if type(acks) is not list or len(acks) != num_seats:
        return f"acks must list {num_seats} seats"
    for ack in acks:
        if type(ack) is not list or len(ack) != 2:
            return "an ack is [count, hash]"
        count, chain = ack
        if type(count) is not int or not 0 <= count <= MAX_SEQ:
            return "an ack's count must be a non-negative integer"
        if type(chain) is not bytes or len(chain) != 32:
            return "an ack's hash must be 32 bytes"
    return None


def compact_state(sections: dict[str, str]) -> bytes:
    """The `Sync.state` of a replica with these section digests (hex)."""
    return b"".join(bytes.fromhex(sections[name])[:DIGEST_BYTES] for name in sorted(sections))


def differing_sections(ours: dict[str, str], theirs: bytes) -> list[str]:
    """The sections (by our names) whose short digests differ from `theirs`."""
    names = sorted(ours)
    if len(theirs) != DIGEST_BYTES * len(names):
        return names
    mine = compact_state(ours)
    return [
        name
        for i, name in enumerate(names)
        if mine[i * DIGEST_BYTES : (i + 1) * DIGEST_BYTES]
        != theirs[i * DIGEST_BYTES : (i + 1) * DIGEST_BYTES]
    ]


Cause = Literal["message", "state", "ack", "equivocation", "unmask", "link", "gone"]
CAUSES: tuple[Cause, ...] = typing.get_args(Cause)
"""Why a seat stopped the table, which says how the others can check it:

- message: the evidence is a signed message of `seat` that breaks the rules;
- state: `seat`'s signed sync says its replica differs from the accuser's;
- ack: two seats hold different messages under one number of a third (who is to
  blame shows when one of them shows a second signed message);
- equivocation: two different messages `seat` signed under one number;
- unmask: a card that unmasks to no card (the audit of the disclosed secrets names who);
- link: something only the accuser's link saw (a bad signature, a gap, bad bytes);
- gone: `seat` left or fell silent for good.
"""


@dataclass(frozen=True, slots=True)
class Abort:
    """A seat stopped the table: `seat` is whom it holds responsible (None: not known yet,
    the audit will tell), `cause` what kind of fault, `evidence` the signed messages
    (packed envelopes) that show it."""

    seat: int | None
    cause: Cause
    reason: str
    evidence: tuple[bytes, ...] = ()

    def to_wire(self) -> dict[str, Any]:
        """As a message body (without its sync)."""
        return {
            "kind": "abort",
            "seat": -1 if self.seat is None else self.seat,
            "cause": self.cause,
            "reason": self.reason[:MAX_REASON],
            "evidence": list(self.evidence),
        }

    @staticmethod
    def from_wire(message: dict[str, Any], num_seats: int, sender: int) -> Abort:
        """From a body, every field checked; the sender is named otherwise."""
        seat, cause = message.get("seat"), message.get("cause")
        reason, evidence = message.get("reason"), message.get("evidence")
        problem = None
        if not isinstance(seat, int) or isinstance(seat, bool) or not -1 <= seat < num_seats:
            problem = "the seat it names does not exist"
        elif cause not in CAUSES:
            problem = "an unknown cause"
        elif not isinstance(reason, str) or len(reason) > MAX_REASON:
            problem = f"the reason must be text of at most {MAX_REASON} characters"
        elif (
            not isinstance(evidence, list)
            or len(evidence) > MAX_EVIDENCE
            or not all(isinstance(e, bytes) for e in evidence)
        ):
            problem = f"evidence must be at most {MAX_EVIDENCE} signed messages"
        if problem is not None:
            raise RemoteProtocolError(sender, f"malformed abort: {problem}")
        assert isinstance(seat, int) and isinstance(reason, str) and isinstance(evidence, list)
        return Abort(None if seat < 0 else seat, cause, reason, tuple(evidence))  # type: ignore[arg-type]


def judged_body() -> dict[str, Any]:
    """A `judged` message body (without its sync): the sender holds every disclosure and
    has made every accusation it will; the others judge once every seat has said so."""
    return {"kind": "judged"}


def leave_body(reason: str) -> dict[str, Any]:
    """A `leave` message body (without its sync)."""
    return {"kind": "leave", "reason": reason[:MAX_REASON]}


def leave_reason(message: dict[str, Any], sender: int) -> str:
    """The reason a `leave` gives, checked."""
    reason = message.get("reason")
    if not isinstance(reason, str) or len(reason) > MAX_REASON:
        raise RemoteProtocolError(sender, "malformed leave: the reason must be short text")
    return reason
