"""An rpg-battle bot in Python with `ai.botkit`: the protocol's loop is done for it.

    p2pcards tournament rpg-battle \
        --agents 'cmd:".venv/bin/python scripts/examples/botkit_bot.py":aggression=2',random

It attacks the weakest opposing character with the strongest attack it holds (weighted by
its `aggression` option), dodges what it can, and plays its first action in other games.
"""

from typing import Any

from ai.botkit import Bot, Option, Question, run

POWER = {"attack": 1, "attack-ii": 2, "attack-iii": 3, "attack-all": 1, "attack-all-ii": 2}


class Striker(Bot):
    """Hit the weakest, hardest."""

    name, author, version = "striker", "p2pcards", "1.0"
    options = (Option("aggression", 1.0, min=0.0, max=10.0),)

    def choose(self, question: Question) -> int:
        """The best-scoring action (ties to the first)."""
        if question.game != "rpg-battle":
            return 0
        hp = {c["id"]: c["hp"] for c in question.state["characters"]}

        def score(action: dict[str, Any]) -> float:
            if action["kind"] == "react":
                return 100.0
            if action["kind"] == "end-turn":
                return 2.0 if action["refill"] else 1.0
            if action["kind"] == "play" and action["card"] in POWER:
                weakest = 30 - hp[action["target"]] if action.get("target") else 5
                return self.settings["aggression"] * (10.0 * POWER[action["card"]] + weakest)
            return 0.0

        return max(range(len(question.actions)), key=lambda i: score(question.actions[i]))


if __name__ == "__main__":
    run(Striker())
