"""Record the trace corpus that tests/p2pcards/test_traces.py replays.

Plays a fixed set of seeded games (local dealer; random, greedy and node-budgeted expectimax
agents acting on their own seat's replica) and writes, for every step, the action's full JSON,
a chance outcome's odds, and the digests after it: the complete state's `public_digest()` and
every seat's replica's. Section digests are kept
at a few checkpoints, so a mismatch names the section. One gzip JSON-lines file per game in
tests/p2pcards/traces/; see the README there for the format.

Regenerate only when the rules change on purpose (the corpus is what guards a refactor from
changing play):

    .venv/bin/python scripts/record_traces.py
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "p2pcards")]

from replica_helpers import step_replicas  # noqa: E402

from ai.agents import make_agent  # noqa: E402
from p2pcards import games  # noqa: E402
from p2pcards.dealer import LocalDealer  # noqa: E402
from p2pcards.deckmodel import KnownDecksModel  # noqa: E402
from p2pcards.decks import OwnDecksGame  # noqa: E402
from p2pcards.engine import Action, Game, State  # noqa: E402

FORMAT = "p2pcards-traces"
VERSION = 2  # 2: the chance of each chance outcome (`p`); own-deck games' decks in options
PROBABILITY_DIGITS = 12
DIGEST_CHARS = 16  # per-step digests keep a 64-bit prefix; checkpoints keep whole sections
CHECKPOINTS = 8  # section digests at about this many evenly spaced steps, and the last
OUT = ROOT / "tests" / "p2pcards" / "traces"
REGENERATE = "only when the rules change on purpose: .venv/bin/python scripts/record_traces.py"


class Config(NamedTuple):
    """Seeded games of one kind: their label, seats, options to `new_initial_state`, the
    agent spec of each seat, the seeds, and for own-deck games each seat's deck (a shipped
    deck's name, or a random legal deck, built per seed, around the cards named after
    `random:`; None: the game's default decks)."""

    label: str
    seats: int
    options: dict[str, Any]
    agents: tuple[str, ...]
    seeds: tuple[int, ...]
    decks: tuple[str, ...] | None = None


# Expectimax with a node budget and no clock: the same seed searches the same tree, so the
# game it plays is reproducible (the trace replays its actions whatever the agent does).
SEARCH = "expectimax:nodes=60:samples=2"
# Every Rise of the Guys card that picks at random (a roll for a target, a pick to discard):
# Madlad and Doodad cards, so one legal deck holds them all.
GUYS_RANDOM = "random:laser-tag,pickpocket,tantrum-toddler,toaster-bot,pinball-wizard"
GUYS_DECKS = ("aggro-historical", "control", "sneaky-stinky", "tempo-machine")
GAMMA_DECKS = ("protoss-pylon-rush", "saiyan-power-level")
AGENT_PAIRS = (
    ("random", "greedy"),
    ("greedy", "random"),
    ("greedy", "greedy"),
    ("random", "random"),
)

CONFIGS: dict[str, list[Config]] = {
    "rpg-battle": [
        Config("2p", 2, {"round_cap": 30}, ("random", "greedy"), (1, 2, 3)),
        Config("2p-greedy", 2, {"round_cap": 30}, ("greedy", "greedy"), (4, 5)),
        Config("3p", 3, {"round_cap": 20}, ("greedy", "random", "greedy"), (6, 7, 8)),
        Config("4p", 4, {"round_cap": 12}, ("random", "greedy", "random", "greedy"), (9, 10, 11)),
        Config("8p", 8, {"round_cap": 6}, ("random", "greedy") * 4, (12, 13, 14)),
    ],
    "getgem": [
        Config("2p", 2, {"round_cap": 30}, ("random", "greedy"), (21, 22, 23)),
        Config("3p", 3, {"round_cap": 20}, ("greedy", "random", "greedy"), (24, 25, 26)),
        Config(
            "5p",
            5,
            {"round_cap": 10},
            ("random", "greedy", "random", "greedy", "random"),
            (27, 28, 29),
        ),
        Config("2p-match", 2, {"round_cap": 40, "match": True}, ("greedy", "random"), (30, 31, 32)),
        Config(
            "3p-characters",
            3,
            {"round_cap": 20, "characters": True},
            ("random", "greedy", "random"),
            (33, 34, 35),
        ),
        Config(
            "2p-match-characters",
            2,
            {"round_cap": 40, "match": True, "characters": True},
            ("greedy", "greedy"),
            (36, 37),
        ),
        Config(
            "4p-characters",
            4,
            {"round_cap": 12, "characters": True},
            ("greedy", "random", "greedy", "random"),
            (38, 39),
        ),
    ],
    "rise-of-the-guys": [
        # every pairing of the shipped decks, each seat's deck in turn first
        *(
            Config(
                f"{a}-vs-{b}",
                2,
                {"round_cap": 24},
                AGENT_PAIRS[n % len(AGENT_PAIRS)],
                (41 + n,),
                (a, b),
            )
            for n, (a, b) in enumerate(
                (a, b) for i, a in enumerate(GUYS_DECKS) for b in GUYS_DECKS[i:]
            )
        ),
        Config("default-decks", 2, {"round_cap": 24}, ("greedy", "random"), (51,)),
        Config(
            "random-decks",
            2,
            {"round_cap": 24},
            ("random", "greedy"),
            (52, 53, 54),
            ("random", "random"),
        ),
        Config(
            "random-targets",
            2,
            {"round_cap": 24},
            ("greedy", "random"),
            (55, 56, 57),
            (GUYS_RANDOM, GUYS_RANDOM),
        ),
        Config(
            "random-targets-greedy",
            2,
            {"round_cap": 24},
            ("greedy", "greedy"),
            (58, 59),
            (GUYS_RANDOM, "random"),
        ),
        Config(
            "random-targets-random",
            2,
            {"round_cap": 24},
            ("random", "random"),
            (61, 62, 63),
            ("sneaky-stinky", GUYS_RANDOM),
        ),
        Config(
            "search",
            2,
            {"round_cap": 12},
            (SEARCH, "greedy"),
            (60,),
            (GUYS_RANDOM, "sneaky-stinky"),
        ),
        Config(
            "search-random",
            2,
            {"round_cap": 12},
            ("random", SEARCH),
            (64,),
            ("tempo-machine", GUYS_RANDOM),
        ),
    ],
    "gammasphere": [
        *(
            Config(
                f"{a}-vs-{b}",
                2,
                {"round_cap": 20},
                AGENT_PAIRS[n % len(AGENT_PAIRS)],
                (71 + n,),
                (a, b),
            )
            for n, (a, b) in enumerate((a, b) for a in GAMMA_DECKS for b in GAMMA_DECKS)
        ),
        Config("default-decks", 2, {"round_cap": 20}, ("random", "greedy"), (75,)),
        Config(
            "random-decks",
            2,
            {"round_cap": 20},
            ("greedy", "random"),
            (76, 77, 78),
            ("random", "random"),
        ),
        # Rickroller is Gammasphere's one random card (a random discard)
        Config(
            "random-discards",
            2,
            {"round_cap": 20},
            ("random", "greedy"),
            (79, 80, 81),
            ("random:rickroller", "random:rickroller"),
        ),
        Config(
            "random-discards-random",
            2,
            {"round_cap": 20},
            ("random", "random"),
            (83, 84, 85),
            ("random:rickroller", "random"),
        ),
        Config(
            "search",
            2,
            {"round_cap": 10},
            ("greedy", SEARCH),
            (82,),
            ("random:rickroller", "saiyan-power-level"),
        ),
    ],
}


def seat_decks(game: Game, specs: tuple[str, ...], seed: int) -> list[dict[str, int]]:
    """Each seat's deck as card counts: a shipped deck by name, or a random legal deck built
    by the game's deck model (seeded) around the cards a `random:` spec names."""
    assert isinstance(game, OwnDecksGame)
    rng = random.Random(seed)
    decks = []
    for spec in specs:
        kind, _, wanted = spec.partition(":")
        if kind != "random":
            decks.append(game.deck(spec))
            continue
        model = game.rules.deck_model
        assert isinstance(model, KnownDecksModel)
        ids = [card.id for card in game.db.cards]
        seen = [0] * len(ids)
        for card in filter(None, wanted.split(",")):
            seen[ids.index(card)] = rng.randint(2, 3)
        if "pylon" in ids:  # Gammasphere: a deck builds its Pylons (rules: 10 to 16 is usual)
            seen[ids.index("pylon")] = rng.randint(10, 16)
        counts = model.build(seen, rng)
        decks.append(game.deck({ids[k]: n for k, n in enumerate(counts) if n}))  # legal?
    return decks


def short(digest: str) -> str:
    return digest[:DIGEST_CHARS]


def replica_sections(replicas: dict[int, State]) -> list[dict[str, str]]:
    return [replicas[seat].section_digests() for seat in sorted(replicas)]


def outcome_probability(state: State, outcome: Action) -> float:
    """The chance of `outcome` at the chance node `state` is at (summed over the list's
    entries equal to it, so the list's form does not matter, only the odds)."""
    return sum(p for o, p in state.chance_outcomes() if o == outcome)


def play(game_name: str, config: Config, seed: int) -> dict[str, Any]:
    """One seeded game as a trace record."""
    game = games.load(game_name)
    seats = config.seats
    options = dict(config.options)
    if config.decks is not None:
        options["decks"] = seat_decks(game, config.decks, seed)
    state = game.new_initial_state(seats, **options)
    replicas = {seat: state.observation(seat) for seat in range(seats)}
    agents = [make_agent(spec, seed=seed * 100 + seat) for seat, spec in enumerate(config.agents)]
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
            step["p"] = round(outcome_probability(state, action), PROBABILITY_DIGITS)
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
        "trace": f"{game_name}/{config.label}/seed{seed}",
        "game": game_name,
        "seats": seats,
        "options": options,
        "agents": list(config.agents),
        "seed": seed,
        "steps": steps,
        "checkpoints": checkpoints,
        "returns": state.returns(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="Record the trace corpus (traces/README.md).")
    parser.add_argument(
        "--game",
        action="append",
        choices=sorted(CONFIGS),
        help="record only this game's file (again for more; default: all)",
    )
    chosen = parser.parse_args().game or list(CONFIGS)
    OUT.mkdir(parents=True, exist_ok=True)
    for game_name, configs in CONFIGS.items():
        if game_name not in chosen:
            continue
        header = {
            "format": FORMAT,
            "version": VERSION,
            "game": game_name,
            "digest_chars": DIGEST_CHARS,
            "regenerate": REGENERATE,
        }
        lines = [json.dumps(header, sort_keys=True)]
        for config in configs:
            for seed in config.seeds:
                record = play(game_name, config, seed)
                print(f"{record['trace']}: {len(record['steps'])} steps", file=sys.stderr)
                lines.append(json.dumps(record, sort_keys=True, separators=(",", ":")))
        path = OUT / f"{game_name}.jsonl.gz"
        # mtime=0: the same games give byte-identical files
        with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
            out.write(("\n".join(lines) + "\n").encode())
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
