"""The exceptions the rules engine raises; each says what a person can do about it."""


class P2PCardsError(Exception):
    """Base class of every error the engine raises."""


class UnknownGameError(P2PCardsError, ValueError):
    """No game has that name."""

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(f"unknown game {name!r}; known games: {', '.join(known)}")
        self.name = name
        self.known = known


class GameOptionError(P2PCardsError, ValueError):
    """A game was asked for with a seat count or option it does not support."""


class IllegalActionError(P2PCardsError, ValueError):
    """An action that the rules do not allow in this state."""


class ActionFormatError(P2PCardsError, ValueError):
    """An action's JSON form is malformed (wrong kind, missing or mistyped field)."""


class HiddenInformationError(P2PCardsError):
    """Something asked a replica for an identity its seat may not know."""


class CardDataError(P2PCardsError, ValueError):
    """A card database file is missing, malformed or inconsistent."""
