"""Reading the opponents: determinized worlds weighed by how likely each is to have produced
the decisions the other seats were seen to take (issue 28).

`State.determinize` fills in the cards a seat cannot see uniformly from the cards it has not
seen. But a seat's decisions tell something of its cards: one that holds a heal and has a
hurt character heals, one that lets an attack through holds nothing to answer it with. A
`Belief` keeps, for one seat, the other seats' decisions it watched: its own observation just
before each, and the action in the form its seat was told (`watch`, which harnesses call; an
agent never sees more than its seat may). For its move it draws more candidate worlds than the
search needs and weighs each by the probability that a model of the opponents' play takes
those decisions in it (importance weights), and the search draws its worlds by weight.

The model is greedy's (`GreedyAgent.scores`): in the mover's view of the position, rebuilt
from the seat's observation then with the cards the candidate world holds in the slots the
mover knew, the action takes its share of the best-scored actions, and a floor (`FLOOR`)
spread over every legal action, so that no world is ruled out by a decision the model would
not have taken. A world whose cards could not have been there then is weighed as the floor.
The same slots hold the same cards in the world as at the decision, since a slot is one
physical card until its zone is shuffled: decisions from before the last shuffle are dropped.
Own-deck games weigh the decklist with the hands, since the world's hands and deck come from
one decklist drawn by the game's deck model.

Cost: each decision weighed in a world costs a view (three copies of the state) and a one-step
evaluation of each legal action, each counted as one search node; a move's reading stops
between decisions once it has spent its share of the move's node budget (`SHARE`), newest
decisions first, and the search gets what is left. A decision all of whose hidden cards the
seat has seen since weighs every world alike, so it costs nothing. Deterministic: the
candidates come from the search's seeded generator, and the model's own chance steps from
generators seeded by the decision and the cards.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ai.agents import GreedyAgent, best_scored
from p2pcards.engine import Action, State
from p2pcards.errors import IllegalActionError
from p2pcards.history import witnessed
from p2pcards.zones import ZoneState

FLOOR = 0.1
"""The share of a decision the model spreads over every legal action, best or not."""

SHARE = 0.25
"""The most of a move's node budget its reading may spend."""

CANDIDATES = 4
"""Candidate worlds drawn per world the search asks for."""

MOST_DECISIONS = 24
"""Decisions weighed at most (the newest): older ones say less about the cards held now."""


@dataclass(frozen=True)
class Watched:
    """Another seat's decision as this seat saw it: its observation just before, the action as
    it was told, and the slots whose cards the mover knew and this seat did not."""

    number: int  # the how-manyth decision this seat watched, from 0: names it in caches
    before: ZoneState
    mover: int
    action: Action
    secrets: tuple[int, ...]


@dataclass
class Worlds:
    """Candidate worlds with their weights (summing to 1), and the nodes weighing them cost."""

    states: list[State]
    weights: list[float]
    cost: int
    decisions: int  # how many watched decisions weighed them

    def draw(self, rng: random.Random) -> State:
        """A world drawn by weight (a copy: the search is free to keep it)."""
        return rng.choices(self.states, self.weights)[0].clone()


@dataclass
class Belief:
    """One seat's record of the other seats' decisions, and the worlds it makes likely."""

    watched: list[Watched] = field(default_factory=list)
    seen: int = 0  # decisions watched so far
    # The probability of decision i in a view where its secret slots hold these cards.
    _cache: dict[tuple[int, tuple[str, ...]], float] = field(default_factory=dict)
    _model: GreedyAgent = field(default_factory=lambda: GreedyAgent(0))

    def watch(self, before: State, action: Action) -> None:
        """Another seat's decision: `before` is this seat's observation just before it, and
        `action` the form this seat was told."""
        mover = before.current_player()
        if not isinstance(before, ZoneState) or before.viewer in (None, mover):
            return  # nothing hidden to read, or the seat's own decision
        secrets = tuple(
            slot for slot, _, card, mask in before.slots() if card is None and mask >> mover & 1
        )
        if secrets:  # a copy: a table shows its live replica, which the step then changes
            self.watched.append(Watched(self.seen, before.clone(), mover, action, secrets))
        self.seen += 1

    def worlds(
        self, observation: State, rng: random.Random, count: int, nodes: int
    ) -> Worlds | None:
        """`count` times `CANDIDATES` worlds of `observation` weighed by the watched decisions,
        spending about `nodes` at most; None when no decision tells one world from another
        (the search then determinizes as it would without reading)."""
        if not isinstance(observation, ZoneState):
            return None
        reshuffles = observation.reshuffles()
        if any(w.before.reshuffles() != reshuffles for w in self.watched):
            self.watched = [w for w in self.watched if w.before.reshuffles() == reshuffles]
            self._cache.clear()
        hidden = [w for w in self.watched if any(observation.card_at(s) is None for s in w.secrets)]
        telling = hidden[-MOST_DECISIONS:]
        if not telling or nodes <= 0:
            return None
        states: list[State] = [observation.determinize(rng) for _ in range(count * CANDIDATES)]
        logs = [0.0] * len(states)
        spent, weighed = 0, 0
        for watched in reversed(telling):
            if spent >= nodes:
                break
            for j, world in enumerate(states):
                p, cost = self._probability(watched, world)
                logs[j] += math.log(p)
                spent += cost
            weighed += 1
        top = max(logs)
        weights = [math.exp(v - top) for v in logs]
        total = sum(weights)
        return Worlds(states, [w / total for w in weights], spent, weighed)

    def _probability(self, watched: Watched, world: State) -> tuple[float, int]:
        """The model's probability of the watched decision where its secret slots hold what
        they hold in `world`, and the nodes that took to find (none when known)."""
        assert isinstance(world, ZoneState)
        cards = tuple(world.card_at(s) or "" for s in watched.secrets)
        key = (watched.number, cards)
        known = self._cache.get(key)
        if known is not None:
            return known, 0
        if "" in cards:  # a slot the world does not know (back in a deck): it cannot tell
            return 1.0, 0
        try:
            seen = watched.before.knowing(dict(zip(watched.secrets, cards, strict=True)))
        except IllegalActionError:  # those cards could not have been there
            self._cache[key] = FLOOR
            return FLOOR, 1
        rng = random.Random(f"{watched.number}/{'/'.join(cards)}")
        view = seen.determinize(rng).observation(watched.mover)
        scored = self._model.scores(view)
        p = decision_probability(scored, watched.action)
        self._cache[key] = p
        return p, 3 + len(scored)


def decision_probability(scored: list[tuple[Action, float]], seen: Action) -> float:
    """The model's probability of the decision seen (in its public form) given each legal
    action's score: its share of the best ones, plus the floor's share of every action."""
    if len(scored) < 2:
        return 1.0
    best = best_scored(scored)
    matching = sum(1 for action, _ in scored if action.public() == seen)
    if not matching:  # not even legal in this view: as unlikely as any action the model shuns
        return FLOOR / len(scored)
    best_matching = sum(1 for action in best if action.public() == seen)
    return FLOOR * matching / len(scored) + (1 - FLOOR) * best_matching / len(best)


def show_decision(agents: Sequence[object], state: State, action: Action) -> None:
    """Before `action` is applied to `state` (a complete state at a decision), tell every
    other seat's agent that watches (`watch(before, action)`) its seat's view and the action
    as that seat is told it."""
    mover = state.current_player()
    for seat, agent in enumerate(agents):
        watch = getattr(agent, "watch", None)
        if seat != mover and watch is not None:
            show_step(watch, state.observation(seat), action)


def show_step(watch: Callable[[State, Action], None], before: State, action: Action) -> None:
    """Show a watching agent (its `watch`) one step of its table: `before` is its seat's view
    just before `action`; a chance step or the seat's own decision is not shown (what a
    networked table calls at every step, `show_decision` at every decision)."""
    if before.is_chance_node() or before.current_player() == before.viewer:
        return
    watch(before, witnessed(before, action, before.viewer).action)
