"""Agents: anything that, given one seat's observation, returns one of its legal actions.

An agent never sees the complete state: the harness hands it
`state.observation(seat)`, so it cannot read a card its seat may not know.
"""

import inspect
import random
from collections.abc import Callable
from typing import Protocol

from ai.evaluation import evaluation
from ai.expectimax import ExpectimaxAgent
from p2pcards.engine import Action, State


class Agent(Protocol):
    """Chooses actions for one seat."""

    name: str

    def act(self, observation: State) -> Action:
        """One of `observation.legal_actions()`."""
        ...


class AgentSpecError(ValueError):
    """An agent name or option that does not exist."""


class RandomAgent:
    """Uniformly random among the legal actions."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: State) -> Action:
        """A uniformly random legal action."""
        return self.rng.choice(observation.legal_actions())


class GreedyAgent:
    """The action whose immediate result the game's evaluation likes best.

    After the action, chance nodes are sampled (so a Draw card is worth the card
    it brings) until someone must decide; pending attacks count as landing.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def act(self, observation: State) -> Action:
        """The best legal action by one-step evaluation; ties broken by the seeded generator.

        The generator is drawn afresh from the seed and the position, so the same seed in
        the same position always picks the same move, however the agent got there (a seat
        resumed after a crash plays on exactly as it would have).
        """
        if self.seed is not None:
            self.rng = random.Random(f"{self.seed}/{observation.public_digest()}")
        seat = observation.current_player()
        evaluate = evaluation(observation.game.name)
        actions = observation.legal_actions()
        if len(actions) == 1:
            return actions[0]
        best: list[Action] = []
        best_value = float("-inf")
        for action in actions:
            after = observation.clone()
            after.apply_action(action)
            self._settle(after)
            value = evaluate.values(after)[seat]
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def _settle(self, state: State) -> None:
        """Sample chance nodes until a decision (or the end) comes up."""
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            picks = self.rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])
            state.apply_action(picks[0])


AgentFactory = Callable[..., Agent]
AGENTS: dict[str, AgentFactory] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "expectimax": ExpectimaxAgent,
}


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """An agent from its spec: a name and options, e.g. "expectimax:nodes=2000:paranoid=true".

    AgentSpecError lists the known names, or the options an agent takes.
    """
    name, *options = spec.strip().split(":")
    factory = AGENTS.get(name)
    if factory is None:
        raise AgentSpecError(f"unknown agent {name!r}; known agents: {', '.join(sorted(AGENTS))}")
    known = {p.name: p for p in inspect.signature(factory).parameters.values() if p.name != "seed"}
    kwargs: dict[str, object] = {}
    for option in options:
        key, _, text = option.partition("=")
        if key not in known or not text:
            takes = ", ".join(sorted(known)) or "no options"
            raise AgentSpecError(f"{name} takes {takes}; not {option!r}")
        kwargs[key] = _option_value(name, key, text, known[key].default)
    return factory(seed, **kwargs)


def _option_value(agent: str, key: str, text: str, default: object) -> object:
    """`text` as the type of the option's default (int, float or bool)."""
    try:
        if isinstance(default, bool):
            if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(text)
            return text.lower() in ("true", "1", "yes")
        if isinstance(default, int):
            return int(text)
        return float(text)
    except ValueError:
        raise AgentSpecError(
            f"{agent} option {key} needs a number or true/false, not {text!r}"
        ) from None
