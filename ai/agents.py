"""Agents: anything that, given one seat's observation, returns one of its legal actions.

An agent never sees the complete state: the harness hands it
`state.observation(seat)`, so it cannot read a card its seat may not know.
"""

import importlib
import inspect
import random
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any, Protocol

# The built-in agents: name -> factory, or "module:attribute" until first used (the search
# is imported only when an expectimax agent is made).
from ai.defaults import AGENTS as AGENTS
from ai.errors import AgentSpecError
from ai.evaluation import evaluation
from p2pcards.engine import Action, State

PLUGIN_GROUP = "p2pcards.agents"


class Agent(Protocol):
    """Chooses actions for one seat."""

    name: str

    def act(self, observation: State) -> Action:
        """One of `observation.legal_actions()`."""
        ...


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


def _builtin(name: str) -> AgentFactory | None:
    """The factory of a built-in agent (imported now if it was not), or None."""
    factory = AGENTS.get(name)
    if isinstance(factory, str):
        module, _, attribute = factory.partition(":")
        found: AgentFactory = getattr(importlib.import_module(module), attribute)
        return found
    return factory


def plugins() -> dict[str, Callable[[], AgentFactory]]:
    """Agents that installed packages offer through the `p2pcards.agents` entry points:
    name -> a loader of the factory (loaded only when asked for)."""
    return {ep.name: ep.load for ep in entry_points(group=PLUGIN_GROUP)}


def known_agents() -> list[str]:
    """Every agent name make_agent accepts, plugins included (not cmd: and script:)."""
    return sorted({*AGENTS, *plugins()})


def split_specs(text: str) -> list[str]:
    """Agent specs from a comma-separated list; commas inside quotes belong to a spec."""
    specs, current, quote = [], "", ""
    for ch in text:
        if ch == quote:
            quote = ""
        elif not quote and ch in "\"'":
            quote = ch
        if ch == "," and not quote:
            specs.append(current)
            current = ""
        else:
            current += ch
    specs.append(current)
    return [spec.strip() for spec in specs if spec.strip()]


def make_agent(spec: str, seed: int | None = None, move_timeout: float | None = None) -> Agent:
    """An agent from its spec: a name and options, e.g. "expectimax:nodes=2000:paranoid=true";
    `cmd:PROGRAM` (a bot speaking the bot protocol); `script:FILE.py`; or a plugin's name.

    AgentSpecError lists the known names, or the options an agent takes. `move_timeout`
    bounds an external program's answer (in-process agents are timed by their caller).
    """
    kind, _, rest = spec.strip().partition(":")
    if kind == "cmd":
        from ai.bots import CommandBot

        return CommandBot.from_spec(rest, seed, move_timeout)
    if kind == "script":
        from ai.bots import ScriptAgent

        return ScriptAgent(_unquote(rest), seed)
    name, *options = spec.strip().split(":")
    factory = _builtin(name)
    if factory is None:
        loader = plugins().get(name)
        if loader is None:
            raise AgentSpecError(
                f"unknown agent {name!r}; known agents: {', '.join(known_agents())}, "
                'or cmd:"PROGRAM" or script:FILE.py'
            )
        try:
            factory = loader()
        except Exception as exc:  # a broken plugin must not take the harness down
            raise AgentSpecError(f"plugin agent {name!r} failed to load: {exc}") from None
    known = {p.name: p for p in inspect.signature(factory).parameters.values() if p.name != "seed"}
    kwargs: dict[str, object] = {}
    for option in options:
        key, _, text = option.partition("=")
        if key not in known or not text:
            takes = ", ".join(sorted(known)) or "no options"
            raise AgentSpecError(f"{name} takes {takes}; not {option!r}")
        kwargs[key] = _option_value(name, key, text, known[key].default)
    return factory(seed, **kwargs)


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def _option_value(agent: str, key: str, text: str, default: Any) -> object:
    """`text` as the type of the option's default (int, float or bool)."""
    try:
        if isinstance(default, bool):
            if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(text)
            return text.lower() in ("true", "1", "yes")
        if isinstance(default, int):
            return int(text)
        if isinstance(default, str):
            return text
        return float(text)
    except ValueError:
        raise AgentSpecError(
            f"{agent} option {key} needs a number or true/false, not {text!r}"
        ) from None
