"""Record the trace corpus that tests/p2pcards/test_traces.py replays.

Plays a fixed set of seeded games (local dealer, random and greedy agents acting on their own
seat's replica) and writes, for every step, the action's full JSON and the digests after it:
the complete state's `public_digest()` and every seat's replica's. Section digests are kept
at a few checkpoints, so a mismatch names the section. One gzip JSON-lines file per game in
tests/p2pcards/traces/; see the README there for the format.

Regenerate only when the rules change on purpose (the corpus is what guards a refactor from
changing play):

    .venv/bin/python scripts/record_traces.py
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "p2pcards")]

from replica_helpers import step_replicas  # noqa: E402

from ai.agents import make_agent  # noqa: E402
from p2pcards import games  # noqa: E402
from p2pcards.dealer import LocalDealer  # noqa: E402
from p2pcards.engine import State  # noqa: E402

FORMAT = "p2pcards-traces"
VERSION = 1
DIGEST_CHARS = 16  # per-step digests keep a 64-bit prefix; checkpoints keep whole sections
CHECKPOINTS = 8  # section digests at about this many evenly spaced steps, and the last
OUT = ROOT / "tests" / "p2pcards" / "traces"
REGENERATE = "only when the rules change on purpose: .venv/bin/python scripts/record_traces.py"

# (label, seats, options, agents by seat, seeds)
Config = tuple[str, int, dict[str, Any], tuple[str, ...], tuple[int, ...]]
CONFIGS: dict[str, list[Config]] = {
    "rpg-battle": [
        ("2p", 2, {"round_cap": 30}, ("random", "greedy"), (1, 2, 3)),
        ("2p-greedy", 2, {"round_cap": 30}, ("greedy", "greedy"), (4, 5)),
        ("3p", 3, {"round_cap": 20}, ("greedy", "random", "greedy"), (6, 7, 8)),
        ("4p", 4, {"round_cap": 12}, ("random", "greedy", "random", "greedy"), (9, 10, 11)),
        ("8p", 8, {"round_cap": 6}, ("random", "greedy") * 4, (12, 13, 14)),
    ],
    "getgem": [
        ("2p", 2, {"round_cap": 30}, ("random", "greedy"), (21, 22, 23)),
        ("3p", 3, {"round_cap": 20}, ("greedy", "random", "greedy"), (24, 25, 26)),
        (
            "5p",
            5,
            {"round_cap": 10},
            ("random", "greedy", "random", "greedy", "random"),
            (27, 28, 29),
        ),
        ("2p-match", 2, {"round_cap": 40, "match": True}, ("greedy", "random"), (30, 31, 32)),
        (
            "3p-characters",
            3,
            {"round_cap": 20, "characters": True},
            ("random", "greedy", "random"),
            (33, 34, 35),
        ),
        (
            "2p-match-characters",
            2,
            {"round_cap": 40, "match": True, "characters": True},
            ("greedy", "greedy"),
            (36, 37),
        ),
        (
            "4p-characters",
            4,
            {"round_cap": 12, "characters": True},
            ("greedy", "random", "greedy", "random"),
            (38, 39),
        ),
    ],
}


def short(digest: str) -> str:
    return digest[:DIGEST_CHARS]


def replica_sections(replicas: dict[int, State]) -> list[dict[str, str]]:
    return [replicas[seat].section_digests() for seat in sorted(replicas)]


def play(
    game_name: str,
    label: str,
    seats: int,
    options: dict[str, Any],
    agent_specs: tuple[str, ...],
    seed: int,
) -> dict[str, Any]:
    """One seeded game as a trace record."""
    game = games.load(game_name)
    state = game.new_initial_state(seats, **options)
    replicas = {seat: state.observation(seat) for seat in range(seats)}
    agents = [make_agent(spec, seed=seed * 100 + seat) for seat, spec in enumerate(agent_specs)]
    dealer = LocalDealer(seed)
    steps: list[dict[str, Any]] = []
    sections: list[tuple[int, dict[str, str], list[dict[str, str]]]] = [
        (0, state.section_digests(), replica_sections(replicas))
    ]
    while not state.is_terminal():
        player = state.current_player()
        step: dict[str, Any] = {}
        if state.is_chance_node():
            action = dealer.sample(state)
        else:
            # the agent sees only its replica; the menu's order is part of play (bots answer
            # with an index), so the step keeps the action's place in it
            menu = replicas[player].legal_actions()
            action = agents[player].act(replicas[player].clone())
            step["l"] = [menu.index(action), len(menu)]
        step_replicas(state, replicas, action)
        complete = state.public_digest()
        views = [replicas[seat].public_digest() for seat in range(seats)]
        step["a"] = action.to_json()
        step["d"] = short(complete)
        step["s"] = {name: short(d) for name, d in state.section_digests().items()}
        if any(v != complete for v in views):  # only where a replica's digest differs
            step["r"] = [short(v) for v in views]
        steps.append(step)
        sections.append((len(steps), state.section_digests(), replica_sections(replicas)))
    every = max(1, len(steps) // CHECKPOINTS)
    checkpoints = {
        str(n): {"complete": full, "replicas": views}
        for n, full, views in sections
        if n % every == 0 or n == len(steps)
    }
    return {
        "trace": f"{game_name}/{label}/seed{seed}",
        "game": game_name,
        "seats": seats,
        "options": options,
        "agents": list(agent_specs),
        "seed": seed,
        "steps": steps,
        "checkpoints": checkpoints,
        "returns": state.returns(),
    }


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for game_name, configs in CONFIGS.items():
        header = {
            "format": FORMAT,
            "version": VERSION,
            "game": game_name,
            "digest_chars": DIGEST_CHARS,
            "regenerate": REGENERATE,
        }
        lines = [json.dumps(header, sort_keys=True)]
        for label, seats, options, agent_specs, seeds in configs:
            for seed in seeds:
                record = play(game_name, label, seats, options, agent_specs, seed)
                print(f"{record['trace']}: {len(record['steps'])} steps", file=sys.stderr)
                lines.append(json.dumps(record, sort_keys=True, separators=(",", ":")))
        path = OUT / f"{game_name}.jsonl.gz"
        # mtime=0: the same games give byte-identical files
        with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
            out.write(("\n".join(lines) + "\n").encode())
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
