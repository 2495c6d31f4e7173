"""What fitting a game's evaluation weights needs (scripts/tune_weights.py does the fit).

Each game's evaluation module describes its fit as a `Tuning` (`TUNING`), and the game's
registration names it (`GameInfo.tuning`), so the script knows no game. The games of own
decks share one description, `OwnDecks`: the shipped decks paired in turn, features of the
replica of the seat to move, no hyperparameter.

A Tuning may hold each weight to the sense its feature has (`signs`): a plain fit weights
what comes with winning, and in RPG Get! what comes with attempting missions (lost HP,
ailments, spent counters) is what winners have more of, so the plain fit paid the greedy
player for ailments and played worse (ai/weights/rpg-get.toml says how).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, Literal, Protocol, TypeVar

from ai.defaults import DEFAULT_ROUND_CAP
from p2pcards import games
from p2pcards.decks import shipped_decks
from p2pcards.engine import State

SCALE = 100.0
"""Fitted weights are written times this: an evaluation unit is 1/SCALE of a log-odds step."""

Sign = Literal["nonnegative", "nonpositive", "free"]
"""What a fit may make of a feature's weight: at least 0, at most 0, or anything."""


@dataclass(frozen=True)
class Outcome:
    """What a fit found, for the weights file's header."""

    games: int
    epsilon: float
    command: str  # how the script was run
    loss: float  # held-out log-loss of the chosen weights
    current_loss: float | None  # of the weights the file held, on the same held-out games
    agent: str = "greedy"  # the agent spec that played both seats
    held: tuple[str, ...] = ()  # the features whose weight the signs held at 0
    pull: float = 0.0  # the L2 pull toward the weights the file held

    def replaced(self) -> str:
        """The replaced weights' held-out log-loss, as a header says it ("" when unknown)."""
        if self.current_loss is None:
            return ""
        return f" (the weights it replaced: {self.current_loss:.4f})"

    def players(self) -> str:
        """Who played the games, for the file's header."""
        return (
            f"{self.agent}-vs-{self.agent}" if ":" not in self.agent else f"{self.agent} self-play"
        )


@dataclass(frozen=True)
class Tuning:
    """What fitting one game's evaluation needs; the rest of the fit is the same for all."""

    features: tuple[str, ...]
    hyper: str  # the hyperparameter's name in the weights file, "" for none
    candidates: tuple[float, ...]  # its values to try (one, 0.0, when there is none)
    start: Callable[[int], State]  # game number -> its initial state
    sampled: Callable[[State], bool]  # whether a decision is a position to learn from
    difference: Callable[[State, float], list[float]]  # seat 0's features minus seat 1's
    current: Callable[[Path], tuple[float, list[float]]]  # a file's hyperparameter, log-odds
    settings: Callable[[float], dict[str, float]]  # what follows the weights in the file
    header: Callable[[Outcome], list[str]]
    notes: dict[str, str]  # a comment after a weight, if any
    signs: dict[str, Sign] = field(default_factory=dict)  # a feature not named is free

    def __post_init__(self) -> None:
        unknown = set(self.signs) - set(self.features)
        if unknown:  # a misspelt feature would be left free without a word
            raise ValueError(f"signs for no feature of the fit: {', '.join(sorted(unknown))}")

    def sign_list(self) -> list[Sign]:
        """Each feature's sign, in the order of `features`."""
        return [self.signs.get(name, "free") for name in self.features]


class Weights(Protocol):
    """What a weights file of an own-deck game's evaluation holds."""

    @property
    def vector(self) -> tuple[float, ...]: ...

    @property
    def scale(self) -> float: ...


S = TypeVar("S", bound=State)


@dataclass(frozen=True)
class OwnDecks(Generic[S]):
    """What fitting a game of own decks needs besides the common part."""

    game: str
    title: str
    module: str  # the evaluation's module, for the file's comment
    state_type: type[S]
    features: Callable[[S, int], Sequence[float]]
    weights: Callable[[Path], Weights]  # loads a weights file
    sampled: Callable[[State], bool]  # whether a decision is a position to learn from

    @functools.cached_property
    def pairings(self) -> tuple[tuple[str, str], ...]:
        """Every shipped deck against every one (mirrors too) from each seat; with every
        fifth game held out, the held-out games cover them all alike."""
        decks = sorted(d.id for d in shipped_decks(type(games.load(self.game)).__module__))
        return tuple(itertools.product(decks, decks))

    def start(self, number: int) -> State:
        """A game of the number's pairing of shipped decks."""
        decks = list(self.pairings[number % len(self.pairings)])
        return games.load(self.game).new_initial_state(2, decks=decks, round_cap=DEFAULT_ROUND_CAP)

    def difference(self, state: State, _: float) -> list[float]:
        """Seat 0's features minus seat 1's, as the seat to move's replica sees them."""
        seen = state.observation(state.current_player())
        assert isinstance(seen, self.state_type)
        mine, theirs = self.features(seen, 0), self.features(seen, 1)
        return [a - b for a, b in zip(mine, theirs, strict=True)]

    def current(self, path: Path) -> tuple[float, list[float]]:
        """The file's weights in log-odds (no hyperparameter)."""
        weights = self.weights(path)
        return 0.0, [v * weights.scale / SCALE for v in weights.vector]

    def header(self, outcome: Outcome) -> list[str]:
        """The weights file's comment."""
        return [
            f"# Weights of the {self.title} evaluation ({self.module}), in log-odds of winning",
            "# per unit of each feature, times `scale`. Fitted by scripts/tune_weights.py",
            f"#     {outcome.command}",
            f"# to {outcome.games} {outcome.players()} games (epsilon {outcome.epsilon}), each "
            f"pairing of the {len(self.pairings) ** 0.5:.0f} shipped",
            "# decks from each seat in turn, positions as the seat to move's replica sees them;",
            f"# held-out log-loss {outcome.loss:.4f}{outcome.replaced()}.",
            *constraints(outcome),
        ]

    def tuning(
        self, names: tuple[str, ...], notes: dict[str, str], signs: dict[str, Sign] | None = None
    ) -> Tuning:
        """The game's Tuning."""
        return Tuning(
            features=names,
            hyper="",
            candidates=(0.0,),
            start=self.start,
            sampled=self.sampled,
            difference=self.difference,
            current=self.current,
            settings=lambda _: {"scale": SCALE},
            header=self.header,
            notes=notes,
            signs=signs or {},
        )


def constraints(outcome: Outcome) -> list[str]:
    """The header's lines on what held the fit: the signs that bound, the pull."""
    lines = []
    if outcome.held:
        lines.append(f"# Held at 0 by its sign: {', '.join(outcome.held)}.")
    if outcome.pull:
        lines.append(
            f"# Pulled toward the weights it replaced (best scaled) as by {outcome.pull:g} "
            "positions (L2)."
        )
    return lines
