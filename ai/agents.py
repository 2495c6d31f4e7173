"""Agents: anything that, given one seat's observation, returns one of its legal actions.

An agent never sees the complete state: the harness hands it
`state.observation(seat)`, so it cannot read a card its seat may not know.
"""

import importlib
import inspect
import random
import typing
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Protocol

# The built-in agents: name -> factory, or "module:attribute" until first used (the search
# is imported only when an expectimax agent is made).
from ai.defaults import AGENTS as AGENTS
from ai.defaults import EXTRAS
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

    def __init__(self, seed: int | None = None, weights: str | None = None) -> None:
        """`weights`: a weights file for the game's evaluation instead of the shipped one
        (ai/weights/), to play two fits against each other (as expectimax's `weights`)."""
        self.seed = seed
        self.rng = random.Random(seed)
        self.weights = None if weights is None else Path(weights)

    def act(self, observation: State) -> Action:
        """The best legal action by one-step evaluation; ties broken by the seeded generator.

        The generator is drawn afresh from the seed and the position, so the same seed in
        the same position always picks the same move, however the agent got there (a seat
        resumed after a crash plays on exactly as it would have).
        """
        actions = observation.legal_actions()
        if len(actions) == 1:
            return actions[0]
        best = best_scored(self.scores(observation))
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def scores(self, observation: State) -> list[tuple[Action, float]]:
        """Each legal action with the value the game's evaluation gives its immediate result,
        for the seat to act (what `act` picks the best of; a model of this agent's play)."""
        if self.seed is not None:
            self.rng = random.Random(f"{self.seed}/{observation.public_digest()}")
        seat = observation.current_player()
        evaluate = evaluation(observation.game.name, self.weights)
        scored = []
        for action in observation.legal_actions():
            after = observation.clone()
            after.apply_action(action)
            self._settle(after)
            scored.append((action, evaluate.values(after)[seat]))
        return scored

    def _settle(self, state: State) -> None:
        """Sample chance nodes until a decision (or the end) comes up."""
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            picks = self.rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])
            state.apply_action(picks[0])


def best_scored(scored: list[tuple[Action, float]]) -> list[Action]:
    """The actions of the highest score, in their order."""
    top = max(value for _, value in scored)
    return [action for action, value in scored if value == top]


AgentFactory = Callable[..., Agent]


def _builtin(name: str) -> AgentFactory | None:
    """The factory of a built-in agent (imported now if it was not), or None."""
    factory = AGENTS.get(name)
    if isinstance(factory, str):
        module, _, attribute = factory.partition(":")
        try:
            found: AgentFactory = getattr(importlib.import_module(module), attribute)
        except ImportError as exc:
            if name not in EXTRAS:
                raise
            raise AgentSpecError(
                f"{name} needs the {EXTRAS[name]} extra "
                f"(pip install 'p2pcards[{EXTRAS[name]}]'): {exc}"
            ) from None
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
    return [spec.strip() for spec in _split_outside_quotes(text, ",") if spec.strip()]


def split_label(spec: str) -> tuple[str, str]:
    """The spec's label and the spec without it: `expectimax:think_ms=50:name=fast` is
    labelled "fast"; a spec without `name=` is its own label, never shortened, so two
    settings of one agent stay apart.

    The options are the spec's `:`-separated parts after its kind, quotes respected (a
    `cmd:"..."` program may hold colons). AgentSpecError, in one line, for an empty label,
    one with a comma (it could not be given in --agents) or two `name=` in one spec.
    """
    parts = _split_outside_quotes(spec.strip(), ":")
    kept, label = parts[:1], None
    for part in parts[1:]:
        if part.startswith("name="):
            text = part[len("name=") :].strip()
            if not text or "," in text:
                raise AgentSpecError(f"name= needs a label without commas, not {part!r}")
            if label is not None:
                raise AgentSpecError(f"{spec.strip()}: name= given twice")
            label = text
        else:
            kept.append(part)
    return (label or spec.strip()), ":".join(kept)


def spec_label(spec: str) -> str:
    """The label reports show for a spec: its `name=`, or else the whole spec."""
    return split_label(spec)[0]


def _split_outside_quotes(text: str, separator: str) -> list[str]:
    """`text` cut at each `separator` that is not inside quotes (the quotes are kept)."""
    parts, current, quote = [], "", ""
    for ch in text:
        if ch == quote:
            quote = ""
        elif not quote and ch in "\"'":
            quote = ch
        if ch == separator and not quote:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return parts


def make_agent(spec: str, seed: int | None = None, move_timeout: float | None = None) -> Agent:
    """An agent from its spec: a name and options, e.g. "expectimax:nodes=2000:paranoid=true";
    `cmd:PROGRAM` (a bot speaking the bot protocol); `script:FILE.py`; or a plugin's name.
    Any spec may carry `name=LABEL`, a label for reports (`spec_label`), which makes no
    difference to the agent.

    AgentSpecError, in one line, lists the known names, or the options an agent takes, or
    says which option is given twice or out of range (the factory checks the ranges).
    `move_timeout` bounds an external program's answer (in-process agents are timed by
    their caller).
    """
    spec = split_label(spec)[1]
    kind, _, rest = spec.strip().partition(":")
    if kind == "cmd":
        from ai.bots import CommandBot

        return CommandBot.from_spec(rest, seed, move_timeout)
    if kind == "script":
        from ai.bots import ScriptAgent

        return ScriptAgent(_unquote(rest), seed)
    name, *options = spec.strip().split(":")
    if options and f"{name}:{options[0]}" in AGENTS:  # a two-part name: openspiel:ismcts
        name = f"{name}:{options.pop(0)}"
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
    kinds = _option_types(factory)
    kwargs: dict[str, object] = {}
    for option in options:
        key, _, text = option.partition("=")
        if key not in known or not text:
            takes = ", ".join(sorted(known)) or "no options"
            raise AgentSpecError(f"{name} takes {takes}; not {option!r}")
        if key in kwargs:
            raise AgentSpecError(f"{name} option {key} given twice")
        kwargs[key] = _option_value(name, key, text, kinds.get(key, type(known[key].default)))
    return factory(seed, **kwargs)


def _option_types(factory: AgentFactory) -> dict[str, type]:
    """Each option's type, from the factory's annotations (`float | None` is float); an
    option without one is typed by its default (see `_option_value`)."""
    try:
        hints = typing.get_type_hints(factory.__init__ if inspect.isclass(factory) else factory)
    except Exception:  # a plugin's annotations that do not resolve: go by the defaults
        return {}
    types = {}
    for key, hint in hints.items():
        choices = [t for t in typing.get_args(hint) if t is not type(None)] or [hint]
        if len(choices) == 1 and choices[0] in (bool, int, float, str):
            types[key] = choices[0]
    return types


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def _option_value(agent: str, key: str, text: str, kind: type) -> object:
    """`text` as an option of type `kind`: bool (true/false, 1/0, yes/no), int, str, or
    anything else as a float."""
    text = text.strip()
    try:
        if kind is bool:
            if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(text)
            return text.lower() in ("true", "1", "yes")
        if kind is int:
            return int(text)
        if kind is str:
            return text
        return float(text)
    except ValueError:
        wanted = {bool: "true or false", int: "a whole number"}.get(kind, "a number")
        raise AgentSpecError(f"{agent} option {key} needs {wanted}, not {text!r}") from None
