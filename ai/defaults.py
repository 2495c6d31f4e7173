"""What the command line shows of the AI before it loads any of it: the default round cap
and the names of the built-in agents.

Kept free of imports so that `p2pcards --help` can print them without importing a search
or a game; the agents themselves are imported by `ai.agents.make_agent` when asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ai.agents import AgentFactory

DEFAULT_ROUND_CAP = 100  # rounds before the tie-break decides a headless game

# The built-in agents, in the order the help lists them: name -> the factory, or where it
# lives ("module:attribute", imported on first use, as the game registry does).
AGENTS: dict[str, AgentFactory | str] = {
    "random": "ai.agents:RandomAgent",
    "greedy": "ai.agents:GreedyAgent",
    "expectimax": "ai.expectimax:ExpectimaxAgent",
    # OpenSpiel's searches, with the `openspiel` extra (docs/adapters.md).
    "openspiel:ismcts": "ai.openspiel_agents:ISMCTSAgent",
    "openspiel:mcts": "ai.openspiel_agents:MCTSAgent",
}
EXTRAS = {"openspiel:ismcts": "openspiel", "openspiel:mcts": "openspiel"}
"""The optional extra a built-in agent needs, for the error when it is not installed."""
