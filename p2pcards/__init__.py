"""p2pcards: the rules of every game, as pure deterministic state machines.

Nothing here does I/O, keeps a clock or owns a random generator; the same
initial state and the same actions give the same states on every replica.
"""

from p2pcards.engine import CHANCE, TERMINAL, Action, Game, State

__all__ = ["CHANCE", "TERMINAL", "Action", "Game", "State"]
