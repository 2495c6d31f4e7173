"""Recorded games replay to the same digests: the guard of engine refactors (issue 15).

Every trace in tests/p2pcards/traces/ (made by scripts/record_traces.py; format in the README
there) is replayed through the current engine, the complete state and every seat's replica
advanced together as a table would (replica_helpers.step_replicas). At every step the acting
seat's menu must hold the action at its recorded place, and the complete state's digest, its
section digests and every replica's digest must equal the recorded ones; at the checkpoints the
whole section digests of every state too; at the end, the returns. A failure names the game,
the trace, the step, the seat and the sections that differ.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from replica_helpers import step_replicas

from p2pcards import games
from p2pcards.decks import OwnDecksBase
from p2pcards.engine import State

TRACES = Path(__file__).parent / "traces"
FORMAT = "p2pcards-traces"
VERSION = 2


def _load() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(header, trace) for every trace of every corpus file."""
    found = []
    for path in sorted(TRACES.glob("*.jsonl.gz")):
        header, *records = gzip.decompress(path.read_bytes()).decode().splitlines()
        head = json.loads(header)
        assert (head["format"], head["version"]) == (FORMAT, VERSION), f"{path.name}: {head}"
        found.extend((head, json.loads(record)) for record in records)
    return found


CORPUS = _load()


def _differing(actual: dict[str, str], recorded: dict[str, str], chars: int) -> list[str]:
    names = sorted(set(actual) | set(recorded))
    return [n for n in names if actual.get(n, "")[:chars] != recorded.get(n, "")[:chars]]


def test_corpus_covers_every_game_and_its_options() -> None:
    seen = {(t["game"], t["seats"], tuple(sorted(t["options"]))) for _, t in CORPUS}
    for seats in (2, 3, 4, 8):
        assert ("rpg-battle", seats, ("round_cap",)) in seen
    for seats in (2, 3, 5):
        assert ("getgem", seats, ("round_cap",)) in seen
    assert any(t["options"].get("match") for _, t in CORPUS if t["game"] == "getgem")
    assert any(t["options"].get("characters") for _, t in CORPUS if t["game"] == "getgem")
    for game_name in ("rise-of-the-guys", "gammasphere"):
        traces = [t for _, t in CORPUS if t["game"] == game_name]
        game = games.load(game_name)
        assert isinstance(game, OwnDecksBase)
        shipped = {tuple(sorted(game.deck(name).items())): name for name in game.decks}
        pairs = {
            tuple(shipped.get(tuple(sorted(d.items())), "other") for d in t["options"]["decks"])
            for t in traces
            if "decks" in t["options"]
        }
        for a in game.decks:  # every pairing of shipped decks, either way round
            for b in game.decks:
                assert (a, b) in pairs or (b, a) in pairs, (game_name, a, b)
        assert ("other", "other") in pairs  # random legal decks
        assert any("decks" not in t["options"] for t in traces)  # the default decks
        assert len({agent.partition(":")[0] for t in traces for agent in t["agents"]}) >= 3
    chances = Counter(
        (t["game"], step["a"]["kind"]) for _, t in CORPUS for step in t["steps"] if "p" in step
    )
    # random targets (rolls) and random discards (picks), each more than once
    assert chances["rise-of-the-guys", "roll"] >= 20 and chances["rise-of-the-guys", "pick"] >= 5
    assert chances["gammasphere", "pick"] >= 5


@pytest.mark.parametrize(("header", "trace"), CORPUS, ids=[trace["trace"] for _, trace in CORPUS])
def test_trace_replays_to_the_recorded_digests(
    header: dict[str, Any], trace: dict[str, Any]
) -> None:
    chars: int = header["digest_chars"]
    game = games.load(trace["game"])
    seats: int = trace["seats"]
    state = game.new_initial_state(seats, **trace["options"])
    replicas = {seat: state.observation(seat) for seat in range(seats)}
    name = trace["trace"]

    def check_checkpoint(n: int) -> None:
        point = trace["checkpoints"].get(str(n))
        if point is None:
            return
        states: list[tuple[str, State, dict[str, str]]] = [
            ("the complete state", state, point["complete"])
        ]
        states += [
            (f"seat {seat}'s replica", replicas[seat], point["replicas"][seat])
            for seat in range(seats)
        ]
        for who, s, recorded in states:
            differ = _differing(s.section_digests(), recorded, 64)
            assert not differ, f"{name} after step {n}: {who} differs in sections {differ}"

    check_checkpoint(0)
    for n, step in enumerate(trace["steps"], start=1):
        where = f"{name} step {n} ({step['a']})"
        assert not state.is_terminal(), f"{where}: the game is over already"
        try:
            action = game.action_from_json(step["a"])
        except Exception as error:
            raise AssertionError(f"{where}: the engine cannot read it: {error!r}") from error
        if "l" in step:
            assert not state.is_chance_node(), f"{where}: a chance node, recorded a decision"
            seat = state.current_player()
            menu = replicas[seat].legal_actions()
            place = [menu.index(action) if action in menu else None, len(menu)]
            missing = " (not in the menu)" if place[0] is None else ""
            assert place == step["l"], (
                f"{where}: seat {seat}'s menu has it at [place, size] {place}{missing}, "
                f"recorded {step['l']}"
            )
        else:
            assert state.is_chance_node(), f"{where}: a decision, recorded a chance outcome"
            odds = sum(p for outcome, p in state.chance_outcomes() if outcome == action)
            assert odds == pytest.approx(step["p"], rel=0, abs=1e-9), (
                f"{where}: the chance of it is {odds}, recorded {step['p']}"
            )
        try:
            step_replicas(state, replicas, action)
        except Exception as error:
            raise AssertionError(f"{where}: the engine refuses it: {error!r}") from error

        parts = state.section_digests()
        differ = _differing(parts, step["s"], chars)
        assert not differ, f"{where}: the complete state differs in sections {differ}"
        assert state.public_digest()[:chars] == step["d"], f"{where}: complete digest differs"
        views = step.get("r", [step["d"]] * seats)
        for seat in range(seats):
            digest = replicas[seat].public_digest()[:chars]
            if digest != views[seat]:
                # recorded equal to the complete state: its sections name the difference
                differ = (
                    []
                    if "r" in step
                    else _differing(replicas[seat].section_digests(), step["s"], chars)
                )
                raise AssertionError(
                    f"{where}: seat {seat}'s replica digest {digest}, recorded {views[seat]}"
                    + (f"; it differs in sections {differ}" if differ else "")
                )
        check_checkpoint(n)

    assert state.is_terminal(), f"{name}: not over after its {len(trace['steps'])} steps"
    assert state.returns() == trace["returns"], f"{name}: returns {state.returns()}"
