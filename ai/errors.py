"""What can go wrong with an agent: a bad spec, or a bot that crashes, stalls or cheats.

A failing bot is the bot's fault, not the harness's: tournaments record it against the
seat and go on, so these carry the seat and a short reason.
"""

from p2pcards.errors import P2PCardsError


class AgentSpecError(P2PCardsError, ValueError):
    """An agent name or option that does not exist, or a bot file that cannot be loaded."""


class AgentFailure(P2PCardsError):
    """An agent failed during a game; `status` names how, for the results database."""

    status = "error"

    def __init__(self, message: str, seat: int | None = None) -> None:
        super().__init__(message)
        self.seat = seat


class AgentCrashed(AgentFailure):
    """The agent raised, exited, or closed its output."""

    status = "crash"


class AgentTimedOut(AgentFailure):
    """The agent took longer than the move timeout."""

    status = "timeout"


class AgentIllegalAction(AgentFailure):
    """The agent answered with something that is not one of the legal actions."""

    status = "illegal"
