"""Errors of the protocol layer: what a remote peer did wrong, apart from our own mistakes."""


class ProtocolError(Exception):
    """Base class of every protocol error."""


class LocalProtocolError(ProtocolError):
    """We were asked to do something the protocol state does not allow (a bug or misuse here)."""


class RemoteProtocolError(ProtocolError):
    """A peer sent something wrong: a bad point, a bad signature, a cheat. Names the seat."""

    def __init__(self, seat: int | None, reason: str, step: int | None = None) -> None:
        where = f" at step {step}" if step is not None else ""
        who = f"seat {seat}" if seat is not None else "a peer"
        super().__init__(f"{who}{where}: {reason}")
        self.seat = seat
        self.reason = reason
        self.step = step


class BadPointError(ProtocolError, ValueError):
    """Bytes that are not a valid point or mask."""


class PeerTimeoutError(RemoteProtocolError):
    """A seat did not send its share in time."""
