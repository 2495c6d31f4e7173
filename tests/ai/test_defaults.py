"""The light registry of built-in agents (`ai.defaults.AGENTS`): every name is an agent."""

import pytest

from ai.agents import make_agent
from ai.defaults import AGENTS


@pytest.mark.parametrize("name", list(AGENTS))
def test_every_built_in_name_makes_the_agent_of_that_name(name: str) -> None:
    assert make_agent(name, seed=1).name == name


def test_the_help_lists_the_built_in_agents_in_order() -> None:
    assert list(AGENTS) == ["random", "greedy", "expectimax", "openspiel:ismcts", "openspiel:mcts"]
