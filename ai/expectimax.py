"""Expectimax over determinizations: the AI that sees only what its seat may see.

From `observation(seat)` the agent samples complete states consistent with it
(`State.determinize`: the cards it has not seen, dealt from the cards it has not
seen), searches each to a depth counted in decisions, and averages each root
action's value over the samples.

In a search tree the AI's seat maximises and chance nodes average their outcomes
by probability. Other seats either maximise their own evaluation (max-n) or
minimise ours. With two seats of a zero-sum game (`GameInfo.zero_sum` in the
registry) the two are the same, since the evaluation is zero-sum too; with
`paranoid` they are the same by definition. Such two-sided trees
are searched with alpha-beta at decision nodes and Star1 at chance nodes (a
chance node is cut off once its searched outcomes, with the rest at the
evaluation's bounds, cannot reach the window), which is what lets the search go
a decision or two deeper in the same time. Star2 (`probe`: one move of each
child searched first, to bound the chance node before Star1) is there too, off by
default since it does not pay here. Max-n trees (three or more seats, or two seats
of a game that is not zero-sum) are searched without pruning.

Chance steps are sampled, not enumerated: a card draw has twenty-odd outcomes and a
refill draws five in a row. By default (`chance_width=1`) each chance step follows
one seeded sample, so a world fixes the order of its deck as well as the hands, and
the samples average over both. Sampling is seeded by the step's luck key (for a
deal, the deck's next card), so every line in a world draws the same cards: two
moves are compared on the same luck, which cost no more and measured better than
branching. With `chance_width=k` the first chance step of a run branches on k
sampled outcomes (equal ones grouped and weighted by how often they came up; all of
them when there are no more than k) and the rest of the run follows one sample.

In the collectible games a turn is many decisions (a card, its lane, a target, an attack,
the pass), so a depth in decisions rarely reaches the opponent's answer. With a `turn_beam`
(the game's registration, `GameInfo.turn_beam`) the search plans whole turns instead: only
the first decision of a turn (a seat deciding after another seat did) takes depth; the
mover's next decisions search just the `turn_beam` moves its evaluation likes best
(the greedy agent's choice, with `turn_beam=1`), and past the horizon a turn under way is
played out greedily before the position is evaluated. Depth 1 is then our move with the
rest of our turn; depth 2 adds the opponent's whole answer, and the chance before it.

Iterative deepening runs until a node budget is spent: `nodes`, or `think_ms` turned
into nodes at this game's calibrated rate (its registration's `search_rates`), so that
the same seed in the same position gives the same move on any machine, at any load, in any
process; only `clock=true` (or an agent made without a seed) stops at the wall clock
instead, which no replay can repeat. A node's cost differs from board to board (a pass
that runs a whole combat costs fifty plays), so a `think_ms` search also stops at
`CPU_CEILING` times its budget in CPU time, which keeps a move within its budget at the
price of replaying to the node only when the ceiling did not cut it: `exact=true` drops
the ceiling for replays. Under a time control (`--tc`) a move takes its share of the clock
by the wall clock. Each iteration tries first the moves the previous one liked
best, at every node the transposition table (one per sample) remembers. Each iteration
costs several times the last, so one cut short by the budget would waste most of it:
instead, once the next iteration looks too big for what is left, the agent searches
more samples at the depth reached and spends the rest deepening samples one by one.
Nothing else in the search depends on the clock or on the process: worlds and chance
samples are drawn from generators seeded by the seed and the position, and the keys
whose hashes seed them are ints and tuples, whose hashes `PYTHONHASHSEED` leaves alone.
"""

from __future__ import annotations

import contextlib
import gc
import math
import random
import statistics
import time
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from ai.belief import SHARE, Belief, Worlds
from ai.clock import Clock
from ai.errors import AgentSpecError
from ai.evaluation import LOSS, WIN, Evaluation, evaluation
from p2pcards import games
from p2pcards.engine import Action, State
from p2pcards.errors import UnknownGameError

TURN_DECISIONS = 40
"""Decisions of one seat in a row that a search takes for one turn; past them each counts
again, so that a game's loop of moves (a mode switched back and forth) cannot hang it."""


class _OutOfBudget(Exception):
    """The node or time budget ran out in the middle of an iteration."""


@dataclass
class SearchReport:
    """What the last search found: for `--explain` and for tests."""

    action: Action
    values: dict[Action, float]  # averaged over the samples, for the AI's seat
    depth: int  # the deepest iteration completed, in decisions
    nodes: int
    seconds: float
    samples: int
    capped: bool = False  # the CPU ceiling ended the search before its node budget

    def ranked(self) -> list[tuple[Action, float]]:
        """The root actions, best first (ties in legal-action order)."""
        order = list(self.values)
        return sorted(self.values.items(), key=lambda av: (-av[1], order.index(av[0])))

    def explain(self, describe: Callable[[Action], str], top: int = 3) -> str:
        """The `top` actions with their values, and how deep and wide the search went."""
        lines = [
            f"depth {self.depth}, {self.samples} samples, {self.nodes} nodes, "
            f"{self.seconds * 1000:.0f} ms:"
        ]
        for action, value in self.ranked()[:top]:
            mark = "  <- chosen" if action == self.action else ""
            lines.append(f"  {value:+8.1f}  {describe(action)}{mark}")
        return "\n".join(lines)


@dataclass(slots=True)
class _Budget:
    nodes: int | None
    deadline: float | None
    started: float
    ceiling: float | None = None  # a CPU time (`time.process_time`) the search stops at
    spent: int = 0
    enforced: bool = False  # off for the first iteration: some answer must be complete
    armed: bool = False  # the ceiling's: on once one sample's first iteration is complete
    capped: bool = False  # the CPU ceiling, not the node budget, ended the search

    def affords(self, cost: float) -> bool:
        """Whether `cost` more nodes are likely to fit: under a time budget, at the node rate
        so far."""
        if self.nodes is not None and self.spent + cost > self.nodes:
            return False
        if self.deadline is not None and self.spent:
            now = time.monotonic()
            rate = self.spent / max(now - self.started, 1e-9)
            return now + cost / rate <= self.deadline
        return True

    def tick(self) -> None:
        self.spent += 1
        # A node may run a whole combat: the CPU time is read often.
        ceiling = self.ceiling
        if (
            self.armed
            and ceiling is not None
            and self.spent % 8 == 0
            and time.process_time() > ceiling
        ):
            self.capped = True
            raise _OutOfBudget
        if not self.enforced:
            return
        if self.nodes is not None and self.spent > self.nodes:
            raise _OutOfBudget
        if self.deadline is not None and self.spent % 64 == 0 and time.monotonic() > self.deadline:
            raise _OutOfBudget


class _Bound(Enum):
    EXACT = 0
    LOWER = 1  # the true value is at least this (a cut-off above the window)
    UPPER = 2  # at most this (every move fell below the window)


@dataclass(slots=True)
class _Entry:
    depth: int
    value: float
    bound: _Bound
    best: int | None  # index into legal_actions(), for move ordering
    beam: list[int] | None = None  # a turn under way: its actions by the mover's liking


def _draw(rng: random.Random, outcomes: list[tuple[Action, float]], k: int) -> list[Action]:
    """`k` outcomes drawn by probability, with replacement."""
    return rng.choices([o for o, _ in outcomes], [p for _, p in outcomes], k=k)


class _Luck:
    """The random numbers of one luck key: `Random(seed)`'s stream, drawn once and read again
    from its start by every node with the key. Seeding a generator (a Mersenne Twister's 624
    words) cost several times the one or two draws a node makes from it."""

    __slots__ = ("_numbers", "_source")

    def __init__(self, seed: int) -> None:
        self._source = random.Random(seed)
        self._numbers: list[float] = []

    def number(self, i: int) -> float:
        """The stream's `i`th number (from 0)."""
        numbers = self._numbers
        while len(numbers) <= i:
            numbers.append(self._source.random())
        return numbers[i]


class _Replay(random.Random):
    """A generator replaying a `_Luck`'s stream from its start, so that it draws what a new
    `Random(seed)` would (`random()`, which is all `choices` reads). One per search,
    restarted by each node that samples, which draws from it before any other node does."""

    def __init__(self) -> None:
        super().__init__(0)
        self._luck = _Luck(0)
        self._read = 0

    def restart(self, luck: _Luck) -> _Replay:
        """This generator, replaying `luck` from its start."""
        self._luck, self._read = luck, 0
        return self

    def random(self) -> float:
        """The next number of the stream replayed."""
        i = self._read
        self._read = i + 1
        return self._luck.number(i)


def _moved(state: State, action: Action) -> State:
    """`state` itself, `action` applied: for a state no one reads again."""
    state.apply_legal(action)
    return state


def _expected(children: list[tuple[State, float]], values: list[float]) -> float:
    """The probability-weighted sum of one value per chance child."""
    return sum(p * v for (_, p), v in zip(children, values, strict=True))


def _cost(actions: list[Action]) -> int:
    """The depth a decision takes: none when forced (a seat with nothing to answer an attack
    with, say), so the horizon counts only real choices."""
    return 1 if len(actions) > 1 else 0


@dataclass
class _World:
    """One determinized world's search: what max-n and alpha-beta share."""

    seat: int
    num_players: int
    evaluation: Evaluation
    chance_width: int
    budget: _Budget
    salt: int  # seeds each chance node's sampling, with the node's search key
    turn_beam: int  # 0: every decision counts; k: the rest of a turn is searched k wide
    # A beam's chosen children with their values, by id (each held, so no id is reused), for
    # the search to go on from: the line past the horizon is played out on the very child
    # the beam made and valued, neither made nor valued again (a tenth of the search).
    ranked: dict[int, tuple[State, list[float]]] = field(default_factory=dict)
    lucks: dict[int, _Luck] = field(default_factory=dict)  # by seed: `_rng_at`'s streams
    replay: _Replay = field(default_factory=_Replay)

    def _continues(self, state: State, last: int, streak: int) -> bool:
        """Whether `state` goes on the turn of `last`, the seat of the decision before it
        on this line: a chance step inside the turn, or that seat deciding again."""
        if not self.turn_beam or last < 0 or streak >= TURN_DECISIONS:
            return False
        return state.is_chance_node() or state.current_player() == last

    def _beam(
        self, state: State, actions: list[Action], width: int, ranking: list[int] | None
    ) -> tuple[list[int], dict[int, State], list[int]]:
        """The `width` actions whose results the mover's evaluation likes best, best first
        (as the greedy agent ranks them); when they are ranked just now (no `ranking` of an
        earlier iteration given), their children (untouched, their values in `ranked`), by
        action; and the ranking, for the caller to keep for deeper iterations. A beam ranked
        now may use `state` up (its last move made on it): the caller reads no more of it
        than those children."""
        if ranking is not None:
            return ranking[:width], {}, ranking
        mover = state.current_player()
        scores: list[float] = []
        made: list[tuple[State | None, list[float]]] = []
        last = len(actions) - 1
        remade = False  # some child must be made again if chosen, from `state`
        tick, liking = self.budget.tick, self._liking
        for i, action in enumerate(actions):
            tick()
            kept: State | None
            if i == last and not remade:  # one copy saved per beam
                state.apply_legal(action)
                child = kept = state
                values = self._settled_values(child.clone() if child.is_chance_node() else child)
            else:
                child = state.clone()  # `_child`, inlined: once for every move a beam ranks
                child.apply_legal(action)
                # A child at a chance step is valued where it stands, its draws sampled on
                # it (not on a copy), and made again if chosen: a copy saved for every child
                # the beam leaves out (a pass, which deals the next turn, is a fifth).
                kept = None if child.is_chance_node() else child
                remade = remade or kept is None
                values = self._settled_values(child)
            made.append((kept, values))
            scores.append(liking(values, mover))
        # Best first, ties in the actions' order (a reversed sort keeps its ties in order):
        # keyed in C, not by a Python function called once per action.
        order = sorted(range(len(actions)), key=scores.__getitem__, reverse=True)
        chosen = order[:width]
        children = {}
        for i in chosen:
            kept, values = made[i]
            child = self._child(state, actions[i]) if kept is None else kept
            self.ranked[id(child)] = (child, values)
            children[i] = child
        return chosen, children, order

    def _known_values(self, state: State) -> list[float] | None:
        """The values a beam found for `state` (then taken out), if it made `state`: read
        as the search enters a child, before anything could change it."""
        found = self.ranked.pop(id(state), None)
        return found[1] if found is not None and found[0] is state else None

    def _made_or_new(
        self, made: dict[int, State], state: State, actions: list[Action], i: int
    ) -> State:
        """The child of `state` by `actions[i]`: the beam's, if it made one, else a new one."""
        child = made.pop(i, None)
        return self._child(state, actions[i]) if child is None else child

    def _forget(self, made: dict[int, State]) -> None:
        """Drop the values of a beam's children the search did not enter (a cut-off)."""
        for child in made.values():
            self.ranked.pop(id(child), None)

    def _liking(self, values: list[float], mover: int) -> float:
        """How much `mover` likes a position of these values, by this search's rule."""
        return values[mover]

    def _settled_values(self, state: State) -> list[float]:
        """Every seat's evaluation once pending chance steps are sampled: on `state` itself,
        which the caller reads no more."""
        if state.is_chance_node():
            state = self._settle(state)
        return self.evaluation.values(state)

    def _settle(self, state: State) -> State:
        """`state` itself once its pending chance steps are sampled (one generator for the
        run): for a state the caller reads no more."""
        if state.is_chance_node():
            rng = self._rng_at(state)
            while state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_legal(_draw(rng, outcomes, 1)[0])
        return state

    def _rng_at(self, state: State) -> random.Random:
        # Sampling is a function of the node, not of the order nodes are visited in: the same
        # node draws the same outcomes in every iteration, pruned or not, so the
        # transposition table stays consistent and pruning changes no value. Nodes with the
        # same luck key (the deck's next card, in every line) draw the same random numbers,
        # so that lines are compared on the same luck, not on luck. The generator is
        # `Random(seed)` replayed (`_Replay`): read it before sampling at another node.
        seed = hash((self.salt, state.luck_key()))
        luck = self.lucks.get(seed)
        if luck is None:
            luck = self.lucks[seed] = _Luck(seed)
        return self.replay.restart(luck)

    def _width(self, depth: int) -> int:
        """The beam inside a turn: `turn_beam` within the horizon, the greedy line past it."""
        return self.turn_beam if depth > 0 else 1

    def _outcomes(self, state: State, first_of_run: bool) -> list[tuple[State, float]]:
        """The chance children to search and their weights, which sum to 1.

        Few outcomes (a coin, a steal from a short hand) are all searched, by probability.
        More are sampled `chance_width` times and equal draws grouped, each weighted by how
        often it came up: an unbiased estimate, where the likeliest few alone would be, for
        a card draw, always an attack. Later steps of a run follow one sample.
        """
        outcomes = state.chance_outcomes()
        width = self.chance_width if first_of_run else 1
        if len(outcomes) > width:
            drawn = _draw(self._rng_at(state), outcomes, width)
            outcomes = [(o, drawn.count(o) / width) for o in dict.fromkeys(drawn)]
        children = []
        for outcome, p in outcomes:
            child = state.clone()
            child.apply_legal(outcome)
            children.append((child, p))
        return children

    @staticmethod
    def _child(state: State, action: Action) -> State:
        child = state.clone()
        child.apply_legal(action)
        return child


@dataclass
class _MaxN(_World):
    """Every seat maximises its own evaluation (or, `paranoid`, minimises the AI seat's);
    values are vectors, one per seat. No pruning."""

    paranoid: bool = False
    table: dict[Hashable, list[float]] = field(default_factory=dict)
    beams: dict[Hashable, list[int]] = field(default_factory=dict)  # `_beam`'s rankings

    def root_value(self, state: State, depth: int) -> float:
        """The AI seat's value of `state` (after its move), searched `depth` decisions ahead."""
        return self.values(state, depth, False, self.seat, 1)[self.seat]

    def _liking(self, values: list[float], mover: int) -> float:
        if self.paranoid and mover != self.seat:
            return -values[self.seat]
        return values[mover]

    def values(
        self, state: State, depth: int, in_run: bool, last: int = -1, streak: int = 0
    ) -> list[float]:
        """Expected value of `state` for every seat; `last` made the decision before it on
        this line, the `streak`th of its turn."""
        self.budget.tick()
        known = self._known_values(state)
        if state.is_terminal():
            return self._settled_values(state) if known is None else known
        continues = self._continues(state, last, streak)
        if depth <= 0 and not continues:
            return self._settled_values(state) if known is None else known
        if depth <= 0 and state.is_chance_node():  # a turn played out past the horizon
            return self.values(self._settle(state), depth, True, last, streak)
        position = state.search_key()
        key = (position, depth, continues) if self.turn_beam else (position, depth)
        cached = self.table.get(key)
        if cached is not None:
            return cached
        if state.is_chance_node():
            result = [0.0] * self.num_players
            for child, p in self._outcomes(state, not in_run and depth > 0):
                # chance takes no depth
                for s, v in enumerate(self.values(child, depth, True, last, streak)):
                    result[s] += v * p
        else:
            mover = state.current_player()
            actions = state.legal_actions()
            made: dict[int, State] = {}
            if continues:
                ranking = self.beams.get(position)
                chosen, made, ranked = self._beam(state, actions, self._width(depth), ranking)
                if ranking is None:
                    self.beams[position] = ranked
                after, streak = depth, streak + 1
            else:
                chosen, after, streak = list(range(len(actions))), depth - _cost(actions), 1
            children = (
                self.values(self._made_or_new(made, state, actions, i), after, False, mover, streak)
                for i in chosen
            )
            if self.paranoid and mover != self.seat:
                result = min(children, key=lambda values: values[self.seat])
            else:
                result = max(children, key=lambda values: values[mover])
        self.table[key] = result
        return result


@dataclass
class _TwoSided(_World):
    """The AI seat maximises, everyone else minimises: alpha-beta with Star1."""

    probe: bool = False  # Star2 probing before the Star1 search of a chance node
    table: dict[Hashable, _Entry] = field(default_factory=dict)

    def root_value(self, state: State, depth: int) -> float:
        """The AI seat's exact value of `state` (after its move), searched `depth` decisions
        ahead."""
        return self.value(state, depth, LOSS, WIN, False, self.seat, 1)

    def _liking(self, values: list[float], mover: int) -> float:
        return values[self.seat] if mover == self.seat else -values[self.seat]

    def value(
        self,
        state: State,
        depth: int,
        alpha: float,
        beta: float,
        in_run: bool,
        last: int = -1,
        streak: int = 0,
    ) -> float:
        """The AI seat's value if inside (alpha, beta); else a bound on the side it fell.
        `last` made the decision before `state` on this line, the `streak`th of its turn.
        `state` is used up (its last move is made on it, not on a copy): pass a state that
        nothing reads afterwards."""
        self.budget.tick()
        found = self.ranked.pop(id(state), None)  # `_known_values`, inlined: every node
        known = found[1] if found is not None and found[0] is state else None
        if state.is_terminal():
            return (self._settled_values(state) if known is None else known)[self.seat]
        continues = self._continues(state, last, streak)
        if depth <= 0 and not continues:
            return (self._settled_values(state) if known is None else known)[self.seat]
        if depth <= 0 and state.is_chance_node():  # a turn played out past the horizon
            return self.value(self._settle(state), depth, alpha, beta, True, last, streak)
        # One hash of the key for the look-up and the store: a new position gets an empty
        # entry (depth -1, no best move: as good as none) that its result then fills in.
        # Hashing the key is a tenth of a node's cost in the collectible games.
        key = (state.search_key(), continues) if self.turn_beam else state.search_key()
        entry = self.table.setdefault(key, _Entry(-1, 0.0, _Bound.EXACT, None))
        # Only an entry of the same depth answers: a deeper one would make the value depend
        # on the order of the search. Any entry's best move still goes first (below).
        if entry.depth == depth:
            if entry.bound is _Bound.EXACT:
                return entry.value
            if entry.bound is _Bound.LOWER and entry.value >= beta:
                return entry.value
            if entry.bound is _Bound.UPPER and entry.value <= alpha:
                return entry.value
        best: int | None = None
        if state.is_chance_node():
            result = self._chance(state, depth, alpha, beta, in_run, last, streak)
        elif continues:
            result, best = self._decision(state, depth, alpha, beta, entry, streak + 1)
        else:
            result, best = self._decision(state, depth, alpha, beta, entry)
        if result <= alpha:
            bound = _Bound.UPPER
        elif result >= beta:
            bound = _Bound.LOWER
        else:
            bound = _Bound.EXACT
        entry.depth, entry.value, entry.bound, entry.best = depth, result, bound, best
        return result

    def _chance(
        self,
        state: State,
        depth: int,
        alpha: float,
        beta: float,
        in_run: bool,
        last: int,
        streak: int,
    ) -> float:
        # Star1: after searching outcomes 1..i, the node's value lies between what they
        # gave plus the rest at their lower bounds, and the same at their upper bounds. Each
        # child's window is the range of its value that could still put the node inside
        # (alpha, beta). Star2 first tightens the rest's bounds by probing: one move of a
        # child where the AI decides bounds that child from below (it will do at least as
        # well), one move of an opponent's child bounds it from above. The probes' results
        # stay in the transposition table for the full search. (A probe would search a move
        # outside a turn's beam, which the full search might not: not with `turn_beam`.)
        children = self._outcomes(state, not in_run and depth > 0)
        lows = [LOSS] * len(children)
        highs = [WIN] * len(children)
        if self.probe and not self.turn_beam:
            verdict = self._probe(children, depth, alpha, beta, lows, highs)
            if verdict is not None:
                return verdict
        searched = 0.0
        rest_low, rest_high = _expected(children, lows), _expected(children, highs)
        for (child, p), low, high in zip(children, lows, highs, strict=True):
            rest_low -= p * low
            rest_high -= p * high
            child_alpha = (alpha - searched - rest_high) / p
            child_beta = (beta - searched - rest_low) / p
            # The window kept inside (LOSS, WIN), by comparisons: max() and min() are calls
            # that cost more than the comparisons, at every chance child searched.
            low = LOSS if child_alpha < LOSS else child_alpha
            high = WIN if child_beta > WIN else child_beta
            v = self.value(child, depth, low, high, True, last, streak)
            searched += p * v
            if v <= child_alpha:
                return searched + rest_high  # fails low whatever the rest gives
            if v >= child_beta:
                return searched + rest_low  # fails high whatever the rest gives
        return searched

    def _probe(
        self,
        children: list[tuple[State, float]],
        depth: int,
        alpha: float,
        beta: float,
        lows: list[float],
        highs: list[float],
    ) -> float | None:
        """Star2's probing phase: bound each decision child by one move; a bound on the
        whole node outside (alpha, beta) if the bounds alone settle it."""
        for i, (child, _) in enumerate(children):
            if child.is_chance_node() or child.is_terminal():
                continue
            actions = child.legal_actions()
            if len(actions) < 2:
                continue
            entry = self.table.get(child.search_key())
            first = entry.best if entry is not None and entry.best is not None else 0
            after = depth - _cost(actions)
            move = actions[first] if first < len(actions) else actions[0]
            p = children[i][1]
            # The probe is exact below the value that would settle the node on its own and
            # a lower bound above it (above it, an upper bound for an opponent's child):
            # either way a bound on the child, found in a narrower window.
            if child.current_player() == self.seat:
                others = _expected(children, lows) - p * lows[i]
                top = min((beta - others) / p, WIN)
                lows[i] = self.value(self._child(child, move), after, LOSS, top, False)
            else:
                others = _expected(children, highs) - p * highs[i]
                bottom = max((alpha - others) / p, LOSS)
                highs[i] = self.value(self._child(child, move), after, bottom, WIN, False)
        low, high = _expected(children, lows), _expected(children, highs)
        if low >= beta:
            return low
        if high <= alpha:
            return high
        return None

    def _decision(
        self,
        state: State,
        depth: int,
        alpha: float,
        beta: float,
        entry: _Entry,
        streak: int = 0,
    ) -> tuple[float, int | None]:
        """The best value of the mover's actions, the best move of `entry` (the node's, in
        the transposition table) first; with a `streak`, the decision goes on a turn: only
        the turn's beam is searched (its ranking kept in `entry`), and it takes no depth."""
        hint = entry.best
        mover = state.current_player()
        maximising = mover == self.seat
        actions = state.legal_actions()
        made: dict[int, State] = {}
        if streak:
            order, made, entry.beam = self._beam(state, actions, self._width(depth), entry.beam)
            after = depth
        else:
            order = list(range(len(actions)))
            after = depth - _cost(actions)
            streak = 1
        if hint is not None and hint in order:
            order.remove(hint)
            order.insert(0, hint)  # the best move of a shallower search usually still is
        best_value = LOSS - 1.0 if maximising else WIN + 1.0
        best: int | None = None
        final = order[-1]
        for i in order:
            # The last move may take the node's own state, which nothing reads after it
            # (its key is stored, its children are copies): one copy saved per node.
            if i in made or i != final:
                child = self._made_or_new(made, state, actions, i)
            else:
                child = _moved(state, actions[i])
            v = self.value(child, after, alpha, beta, False, mover, streak)
            if maximising and v > best_value:
                best_value, best = v, i
                if v > alpha:  # max(alpha, v), without the call
                    alpha = v
            elif not maximising and v < best_value:
                best_value, best = v, i
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        self._forget(made)
        return best_value, best


_FIRST_GROWTH = 4  # the second iteration's cost over the first's, before it is measured


@dataclass
class _Sample:
    """One determinized world, its search, and the root values of its deepest complete
    iteration (each root action searched with a full window, so the values are exact)."""

    world: State
    search: _TwoSided | _MaxN
    values: dict[Action, float] = field(default_factory=dict)
    depth: int = 0
    costs: list[int] = field(default_factory=list)  # nodes each iteration took

    def deepen(self, actions: list[Action], budget: _Budget) -> None:
        """Search every root action one decision deeper than last time."""
        started = budget.spent
        values = {}
        for action in actions:
            child = self.world.clone()
            child.apply_legal(action)
            values[action] = self.search.root_value(child, self.depth)
        self.values = values
        self.depth += 1
        self.costs.append(budget.spent - started)

    def next_cost(self) -> float:
        """The nodes the next iteration should take: as many times the last as the last
        took the one before (a tree's branching, as far as the search has seen it)."""
        if len(self.costs) < 2:
            return float(self.costs[-1] * _FIRST_GROWTH)
        last, before = self.costs[-1], max(self.costs[-2], 1)
        return last * max(last / before, 1.0)


DEFAULT_NODES_PER_MS = 30  # a game not calibrated yet (its registration has no search_rates)
DEFAULT_THINK_MS = 200.0
CPU_CEILING = 1.0
"""A seeded search's CPU time over `think_ms` at which it stops whatever nodes are left: a
node's cost differs from board to board (a pass that runs a whole combat, static abilities
read on a full board) by more than any count of nodes can follow, and issue 28 allows a
move 20% over its budget at p99. Checked every 8 nodes, from the end of the first world's
first iteration; what follows the cut (letting go of the search's tables) takes a few
hundredths of the budget more."""
MOVES_AHEAD = 40
"""The decisions a seat is assumed still to make when its time control does not say
(`Clock.moves_to_go`: one period for the whole game)."""


def clock_share(clock: Clock) -> float:
    """The wall-clock seconds a move may take under a time control: the time left spread
    over the moves to its next period (or `MOVES_AHEAD`), the increment added, and never
    more than half of what is left."""
    ahead = clock.moves_to_go() or MOVES_AHEAD
    share = clock.left / ahead + clock.control.increment
    return max(0.0, min(share, clock.left / 2))


def node_budget(game: str, num_players: int, think_ms: float) -> int:
    """The nodes that stand for `think_ms` of search in `game` at `num_players` seats (at
    least one): the registry's rate for the nearest seat count calibrated (`GameInfo.
    search_rates`)."""
    try:
        rates = games.info(game).search_rates
    except UnknownGameError:
        rates = ()
    if not rates:
        return max(1, round(think_ms * DEFAULT_NODES_PER_MS))
    nearest = min(rates, key=lambda r: (abs(r.seats - num_players), r.seats))
    return max(1, round(think_ms * nearest.nodes_per_ms))


# Widths the first iteration pays in full whatever the budget (every sample is searched
# once, and a chance step draws `chance_width` outcomes at once): kept to what a move can
# afford, so that a typo cannot hang the game.
MOST_SAMPLES = 1000
MOST_CHANCE_WIDTH = 1000
MOST_TURN_BEAM = 1000


@contextlib.contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """The cyclic garbage collector paused for a search: a search makes a few hundred
    thousand short-lived lists and states, none of them in a cycle (reference counting frees
    every one), and the collector's passes over them were a fifth to a quarter of its CPU
    time (issue 28). Left as it was found, so that nested or concurrent searches cannot turn
    it on under one another for good."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _in_range(name: str, value: float | None, least: float, most: float | None = None) -> None:
    if value is None:
        return
    if math.isfinite(value) and value >= least and (most is None or value <= most):
        return
    wanted = f"{least:g} or more" if most is None else f"{least:g} to {most:g}"
    raise AgentSpecError(f"expectimax {name} must be {wanted}, not {value:g}")


class ExpectimaxAgent:
    """Searches determinizations of its observation; deterministic given a seed."""

    name = "expectimax"

    def __init__(
        self,
        seed: int | None = None,
        think_ms: float | None = None,
        nodes: int | None = None,
        samples: int = 6,
        paranoid: bool = False,
        chance_width: int = 1,
        max_depth: int = 12,
        prune: bool = True,
        probe: bool = False,
        clock: bool = False,
        turn_beam: int | None = None,
        weights: str | None = None,
        read: bool = False,
        exact: bool = False,
    ) -> None:
        """Budgets: `think_ms` per move, or `nodes`, or both (whichever is less); neither:
        200 ms. Given a seed, `think_ms` is a node budget (`node_budget`), so that the seed
        replays the game; `clock=true`, or no seed, times it by the wall clock instead.

        AgentSpecError, in one line, for a value out of range: `think_ms` more than 0,
        `nodes` and `max_depth` at least 1, `samples` and `chance_width` 1 to 1000,
        `clock` only with `think_ms` to time. `prune=False` searches two-sided trees
        without alpha-beta, Star1 or Star2 (for checks). `probe=True` adds Star2's probing
        to Star1: off by default, since in rpg-battle's trees the probes cost about as many
        nodes as they save (-4% to +4% at depths 3-4 over twelve middle-game positions).
        `turn_beam` (0 to 1000; default the game's registration, `GameInfo.turn_beam`): 0
        counts every decision in the depth; k searches the rest of a turn as one step, the
        k moves the mover's evaluation likes best at each of its decisions after the first
        (the best one alone past the horizon), so that the depth counts turns. `weights`: a
        weights file for the game's evaluation instead of the shipped one (ai/weights/), to
        play two fits against each other.
        `read=True` draws the worlds by how likely each makes the other seats' decisions
        watched so far (ai/belief.py), spending up to a quarter of the node budget on it.
        A seeded `think_ms` search also stops at `CPU_CEILING` times `think_ms` of CPU time,
        should its nodes run dearer than the game's rate (a board full of static abilities);
        `exact=True` drops that ceiling, so that the node budget alone decides (replays to
        the node). Under a time control (`on_clock`, `--tc`) a move takes its share of the
        clock instead, by the wall clock, whatever `think_ms` says if that is less.
        """
        if think_ms is not None and not (math.isfinite(think_ms) and think_ms > 0):
            raise AgentSpecError(f"expectimax think_ms must be more than 0, not {think_ms:g}")
        _in_range("nodes", nodes, 1)
        _in_range("samples", samples, 1, MOST_SAMPLES)
        _in_range("chance_width", chance_width, 1, MOST_CHANCE_WIDTH)
        _in_range("max_depth", max_depth, 1)
        _in_range("turn_beam", turn_beam, 0, MOST_TURN_BEAM)
        if clock and think_ms is None and nodes is not None:
            raise AgentSpecError("expectimax clock=true times think_ms; give think_ms too")
        self._think_given = think_ms is not None  # else a time control's share rules alone
        if think_ms is None and nodes is None:
            think_ms = DEFAULT_THINK_MS
        self.seed = seed
        self.think_ms = think_ms
        self.nodes = nodes
        self.samples = samples
        self.paranoid = paranoid
        self.chance_width = chance_width
        self.max_depth = max_depth
        self.prune = prune
        self.probe = probe
        self.clock = clock or seed is None
        self.turn_beam = turn_beam
        self.weights = None if weights is None else Path(weights)
        self.last: SearchReport | None = None
        self.belief = Belief() if read else None
        self._worlds: Worlds | None = None  # this move's weighed worlds, when reading
        self.exact = exact
        self._allotted: float | None = None  # seconds the time control gives the next move

    def on_clock(self, clock: Clock) -> None:
        """The seat's clock under a time control, before a move: the move may take its
        share (`clock_share`) of the time left, by the wall clock."""
        self._allotted = clock_share(clock)

    def watch(self, before: State, action: Action) -> None:
        """Another seat's decision as this seat saw it (its observation just before, the
        action as told): what reading weighs worlds by; harnesses call it."""
        if self.belief is not None:
            self.belief.watch(before, action)

    def budget(self, game: str, num_players: int) -> tuple[int | None, float | None]:
        """The node budget and the wall-clock seconds a move may take in `game` at
        `num_players` seats (None: no limit of that kind); only `clock` agents have the
        second."""
        if self._allotted is not None:  # a time control's share, by the wall clock
            seconds = self._allotted
            if self._think_given and self.think_ms is not None:
                seconds = min(seconds, self.think_ms / 1000)
            return self.nodes, seconds
        if self.think_ms is None:
            return self.nodes, None
        if self.clock:
            return self.nodes, self.think_ms / 1000
        nodes = node_budget(game, num_players, self.think_ms)
        return (nodes if self.nodes is None else min(nodes, self.nodes)), None

    def act(self, observation: State) -> Action:
        """The root action with the best value averaged over the samples."""
        with _no_cycle_collection():
            return self._search(observation)

    def _search(self, observation: State) -> Action:
        """`act`'s search, the garbage collector paused."""
        started, cpu_started = time.monotonic(), time.process_time()
        actions = observation.legal_actions()
        seat = observation.current_player()
        if len(actions) == 1:
            self.last = SearchReport(actions[0], {actions[0]: 0.0}, 0, 0, 0.0, 0)
            return actions[0]
        # Seeded by the position, so the same seed in the same position searches the same
        # worlds however the game got there.
        rng = random.Random(f"{self.seed}/{seat}/{observation.public_digest()}")
        nodes, seconds = self.budget(observation.game.name, observation.num_players)
        self._allotted = None  # a time control tells its share before every move
        budget = _Budget(nodes, None if seconds is None else started + seconds, started)
        if seconds is None and self.think_ms is not None and not self.exact:
            budget.ceiling = cpu_started + CPU_CEILING * self.think_ms / 1000
        if self.belief is not None:
            game, n = observation.game.name, observation.num_players
            limit = nodes or node_budget(game, n, self.think_ms or DEFAULT_THINK_MS)
            self._worlds = self.belief.worlds(observation, rng, self.samples, round(SHARE * limit))
            budget.spent += 0 if self._worlds is None else self._worlds.cost
        samples = [self._sample(observation, rng, budget) for _ in range(self.samples)]
        with contextlib.suppress(_OutOfBudget):  # the budget ends every search
            self._deepen_then_widen(samples, observation, rng, actions, budget)
        # Every first sample reached the depth of the last whole iteration (unless the CPU
        # ceiling cut the first, leaving some with none); a sample counts if it reached that
        # too (a partial deepening past it still counts, a partial widening not).
        depth = min(s.depth for s in samples[: self.samples] if s.depth)
        counted = [s for s in samples if s.depth >= depth]
        values = {a: statistics.fmean(s.values[a] for s in counted) for a in actions}
        report = SearchReport(
            actions[0], values, depth, budget.spent, 0.0, len(counted), budget.capped
        )
        best = report.ranked()[0][0]
        report.action, report.seconds = best, time.monotonic() - started
        self.last = report
        return best

    def _sample(self, observation: State, rng: random.Random, budget: _Budget) -> _Sample:
        """A new determinized world of `observation` with its own search."""
        world = observation.determinize(rng) if self._worlds is None else self._worlds.draw(rng)
        seat, n = observation.current_player(), observation.num_players
        evaluate = evaluation(observation.game.name, self.weights, search=True)
        salt = rng.getrandbits(64)
        two_sided = self.paranoid or (n == 2 and games.info(observation.game.name).zero_sum)
        turn_beam = self.turn_beam
        if turn_beam is None:
            turn_beam = games.info(observation.game.name).turn_beam
        common = (seat, n, evaluate, self.chance_width, budget, salt, turn_beam)
        if self.prune and two_sided:
            search: _TwoSided | _MaxN = _TwoSided(*common, probe=self.probe)
        else:
            search = _MaxN(*common, paranoid=self.paranoid)
        return _Sample(world, search)

    def _deepen_then_widen(
        self,
        samples: list[_Sample],
        observation: State,
        rng: random.Random,
        actions: list[Action],
        budget: _Budget,
    ) -> None:
        """Iterative deepening while the next whole iteration looks affordable; then, rather
        than start one the budget would cut short, more samples at the depth reached, and
        with what is left deeper samples one at a time, until the budget runs out.

        An iteration cut short is otherwise thrown away: that was three fifths of a 200 ms
        budget in rpg-battle, since each iteration costs several times the last.
        """
        for _ in range(self.max_depth):
            if samples[0].depth and not budget.affords(sum(s.next_cost() for s in samples)):
                break
            for sample in samples:
                sample.deepen(actions, budget)
                budget.armed = True  # one world's answer is complete: the ceiling may cut
            budget.enforced = True  # some answer is complete
        else:
            return
        depth = samples[0].depth
        while budget.affords(statistics.fmean(sum(s.costs) for s in samples)):
            sample = self._sample(observation, rng, budget)
            samples.append(sample)
            while sample.depth < depth:
                sample.deepen(actions, budget)
        for sample in samples:
            sample.deepen(actions, budget)
