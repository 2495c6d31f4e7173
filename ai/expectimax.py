"""Expectimax over determinizations: the AI that sees only what its seat may see.

From `observation(seat)` the agent samples complete states consistent with it
(`State.determinize`: the cards it has not seen, dealt from the cards it has not
seen), searches each to a depth counted in decisions, and averages each root
action's value over the samples.

In a search tree: the AI's seat maximises; other seats maximise their own
evaluation (max-n) or, with `paranoid`, minimise ours; chance nodes average
their outcomes by probability. A card draw has up to twenty-odd outcomes, and a
refill draws five cards in a row, so each chance node expands its
`chance_width` likeliest outcomes, their probabilities renormalised; past the
depth, pending chance steps are settled by one seeded sample before the
evaluation. Iterative deepening runs until a node budget (reproducible) or a
time budget is spent, ordering root moves by the previous iteration's values,
with a transposition table per sample.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from ai.evaluation import evaluator, terminal_value
from p2pcards.engine import Action, State


class _OutOfBudget(Exception):
    """The node or time budget ran out in the middle of an iteration."""


@dataclass
class SearchReport:
    """What the last search found: for `--explain` and for tests."""

    action: Action
    values: dict[Action, float]
    depth: int
    nodes: int
    seconds: float


@dataclass
class _Budget:
    nodes: int | None
    deadline: float | None
    spent: int = 0
    enforced: bool = False  # off for the first iteration: some answer must be complete

    def tick(self) -> None:
        self.spent += 1
        if not self.enforced:
            return
        if self.nodes is not None and self.spent > self.nodes:
            raise _OutOfBudget
        if self.deadline is not None and self.spent % 64 == 0 and time.monotonic() > self.deadline:
            raise _OutOfBudget


@dataclass
class _Search:
    seat: int
    num_players: int
    evaluate: Callable[[State, int], float]
    paranoid: bool
    chance_width: int
    budget: _Budget
    rng: random.Random
    table: dict[tuple[Hashable, int], list[float]] = field(default_factory=dict)

    def values(self, state: State, depth: int) -> list[float]:
        """Expected value of `state` for every seat, searching `depth` decisions ahead."""
        self.budget.tick()
        if state.is_terminal():
            return [terminal_value(state, s) for s in range(self.num_players)]
        if depth <= 0:
            return self._frontier(state)
        key = (state.search_key(), depth)
        cached = self.table.get(key)
        if cached is not None:
            return cached
        if state.is_chance_node():
            result = self._chance(state, depth)
        else:
            result = self._decision(state, depth)
        self.table[key] = result
        return result

    def _frontier(self, state: State) -> list[float]:
        settled = state
        while settled.is_chance_node():
            if settled is state:
                settled = state.clone()
            outcomes = settled.chance_outcomes()
            pick = self.rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            settled.apply_action(pick)
        if settled.is_terminal():
            return [terminal_value(settled, s) for s in range(self.num_players)]
        return [self.evaluate(settled, s) for s in range(self.num_players)]

    def _chance(self, state: State, depth: int) -> list[float]:
        outcomes = sorted(state.chance_outcomes(), key=lambda op: -op[1])[: self.chance_width]
        total = sum(p for _, p in outcomes)
        result = [0.0] * self.num_players
        for outcome, p in outcomes:
            child = state.clone()
            child.apply_action(outcome)
            for s, v in enumerate(self.values(child, depth)):  # chance steps take no depth
                result[s] += v * p / total
        return result

    def _decision(self, state: State, depth: int) -> list[float]:
        mover = state.current_player()
        best: list[float] | None = None
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            values = self.values(child, depth - 1)
            if best is None or self._prefers(mover, values, best):
                best = values
        assert best is not None
        return best

    def _prefers(self, mover: int, values: list[float], best: list[float]) -> bool:
        if mover == self.seat or not self.paranoid:
            return values[mover] > best[mover]
        return values[self.seat] < best[self.seat]  # paranoid: the others play against us


class ExpectimaxAgent:
    """Searches determinizations of its observation; deterministic under a node budget."""

    name = "expectimax"

    def __init__(
        self,
        seed: int | None = None,
        think_ms: float = 0.0,
        nodes: int = 0,
        samples: int = 6,
        paranoid: bool = False,
        chance_width: int = 3,
        max_depth: int = 8,
    ) -> None:
        """Budgets: `think_ms` per move, or `nodes` (reproducible); neither: 200 ms."""
        if not think_ms and not nodes:
            think_ms = 200.0
        self.seed = seed
        self.think_ms = think_ms or None
        self.nodes = nodes or None
        self.samples = samples
        self.paranoid = paranoid
        self.chance_width = chance_width
        self.max_depth = max_depth
        self.last: SearchReport | None = None

    def act(self, observation: State) -> Action:
        """The root action with the best value averaged over the samples."""
        started = time.monotonic()
        actions = observation.legal_actions()
        seat = observation.current_player()
        if len(actions) == 1:
            self.last = SearchReport(actions[0], {actions[0]: 0.0}, 0, 0, 0.0)
            return actions[0]
        # Seeded by the position, so the same seed in the same position searches the same
        # worlds however the game got there.
        rng = random.Random(f"{self.seed}/{seat}/{observation.public_digest()}")
        worlds = [observation.determinize(rng) for _ in range(self.samples)]
        deadline = None if self.think_ms is None else started + self.think_ms / 1000
        budget = _Budget(self.nodes, deadline)
        evaluate = evaluator(observation.game.name)
        searches = [
            _Search(
                seat,
                observation.num_players,
                evaluate,
                self.paranoid,
                self.chance_width,
                budget,
                random.Random(rng.random()),
            )
            for _ in worlds
        ]
        order = list(actions)
        values: dict[Action, float] = {a: 0.0 for a in actions}
        reached = 0
        try:
            for depth in range(1, self.max_depth + 1):
                totals = dict.fromkeys(order, 0.0)
                for world, search in zip(worlds, searches, strict=True):
                    for action in order:
                        child = world.clone()
                        child.apply_action(action)
                        totals[action] += search.values(child, depth - 1)[seat] / len(worlds)
                values, reached = totals, depth
                budget.enforced = True
                # Best first next time: the deeper iteration then meets the likely move early.
                order.sort(key=lambda a: -values[a])
        except _OutOfBudget:
            pass
        # Ties go to the action listed first, so the choice is deterministic.
        best = max(actions, key=lambda a: (values[a], -actions.index(a)))
        self.last = SearchReport(best, values, reached, budget.spent, time.monotonic() - started)
        return best
