"""An rpg-battle bot as a Python script: p2pcards calls `choose(state, actions)`.

    p2pcards tournament rpg-battle --agents script:scripts/examples/bot_script.py,random

`state` and `actions` are the JSON data of the bot protocol (docs/bot-protocol.md): the
seat's observation and its legal actions. Return an action's index (or the action).
This one attacks the weakest opposing character with the strongest attack it holds.
"""

POWER = {"attack": 1, "attack-ii": 2, "attack-iii": 3, "attack-all": 1, "attack-all-ii": 2}


def choose(state: dict, actions: list[dict]) -> int:
    """The index of the action to play."""
    hp = {c["id"]: c["hp"] for c in state["characters"]}

    def score(action: dict) -> float:
        if action["kind"] == "react":
            return 100.0
        if action["kind"] == "end-turn":
            return 2.0 if action["refill"] else 1.0
        if action["kind"] == "play" and action["card"] in POWER:
            weakest = 30 - hp[action["target"]] if action.get("target") else 5
            return 10.0 * POWER[action["card"]] + weakest
        return 0.0

    return max(range(len(actions)), key=lambda i: score(actions[i]))
