"""A seat resumed from its save file shows an agent's watch the game so far (a reading
agent weighs its worlds by the decisions it saw, a bot keeps its events), and a person's log
only what comes after (it showed the rest the first time). Real `Node`s over TLS on
127.0.0.1, as in test_table_identity."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from test_table_identity import formed, together

from ai.agents import make_agent
from p2pcards.engine import Action, State
from protocol.identity import Identity
from protocol.net import LocalSeat, Node
from protocol.savefile import load


@pytest.mark.parametrize("agent", [True, False])
def test_a_resumed_seat_shows_the_game_so_far_to_an_agents_watch_only(
    tmp_path: Path, agent: bool
) -> None:
    homes = [tmp_path / "a", tmp_path / "b"]
    saved_at = tmp_path / "seat1.save"

    async def played() -> int:
        nodes = await formed(homes, round_cap=3)
        try:
            with saved_at.open("wb") as save:
                async with asyncio.timeout(120):
                    await together(
                        nodes[0].play(silent=10, leave_after=10),
                        nodes[1].play(save=save, silent=10, leave_after=10),
                    )
            table = nodes[1].table
            assert table is not None
            return len(table.steps)
        finally:
            for node in nodes:
                await node.close()

    steps = asyncio.run(played())
    seen: list[Action] = []
    greedy = make_agent("greedy", 1)

    async def decide(observation: State) -> Action:
        return greedy.act(observation)

    seat = LocalSeat(
        Identity.load_or_create(homes[1]), "seat1", decide, homes[1],
        watch=lambda replica, action: seen.append(action), watch_replayed=agent,
    )  # fmt: skip
    resumed = Node(seat, "127.0.0.1", 0).resume_from(load(saved_at))
    assert steps > 10 and len(resumed.steps) == steps
    assert seen == ([step.action for step in resumed.steps] if agent else [])
