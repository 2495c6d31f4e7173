"""`p2pcards deck sealed` (issue 15; Rise of the Guys' rules.md, "Sealed"; rulebook line 237),
run as a real subprocess: the packs and the deck it prints, the deck file it writes (which
`deck validate` and `--deck` take), and its errors, each one line and a non-zero exit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

P2PCARDS = str(Path(sys.executable).with_name("p2pcards"))


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1"}
    return subprocess.run(
        [P2PCARDS, *args], capture_output=True, text=True, timeout=300, env=env, cwd=cwd
    )


def test_sealed_prints_the_packs_and_the_deck_and_writes_a_legal_deck_file(
    tmp_path: Path,
) -> None:
    """Ten boosters by default (line 237: "about 10 packs"); the file passes `deck validate`
    and seats a simulated game with `--deck`."""
    out = tmp_path / "mine.toml"
    result = run("deck", "sealed", "--seed", "11", "--out", str(out))
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "rise-of-the-guys: 10 boosters, seed 11" in text
    assert "pack 10" in text and "pack 11" not in text
    assert text.count("  common: ") == 10 and text.count("  any: ") == 10
    assert "40 cards of the 100 opened" in text and f"wrote {out}" in text
    validate = run("deck", "validate", str(out), "--json")
    assert validate.returncode == 0, validate.stdout
    assert json.loads(validate.stdout)["legal"] is True
    game = run(
        "simulate", "rise-of-the-guys", "--agents", "random", "--games", "1", "--seed", "1",
        "--round-cap", "10", "--deck", str(out), "--json",
    )  # fmt: skip
    assert game.returncode == 0, game.stderr


def test_sealed_json_is_the_same_for_a_seed_and_the_deck_stays_within_the_pool(
    tmp_path: Path,
) -> None:
    """Issue 15: seeded; 5 commons, 3 rares, 1 epic, 1 any a pack; no card used more often
    than it was opened."""
    first = run("deck", "sealed", "--seed", "5", "--boosters", "8", "--json",
                "--out", str(tmp_path / "a.toml"))  # fmt: skip
    again = run("deck", "sealed", "--seed", "5", "--boosters", "8", "--json",
                "--out", str(tmp_path / "b.toml"))  # fmt: skip
    other = run("deck", "sealed", "--seed", "6", "--boosters", "8", "--json",
                "--out", str(tmp_path / "c.toml"))  # fmt: skip
    assert first.returncode == again.returncode == other.returncode == 0, first.stderr
    report = json.loads(first.stdout)
    again_report = json.loads(again.stdout)
    assert report["packs"] == again_report["packs"] and report["deck"] == again_report["deck"]
    assert (tmp_path / "a.toml").read_text() == (tmp_path / "b.toml").read_text()
    assert json.loads(other.stdout)["packs"] != report["packs"]
    assert report["seed"] == 5 and report["boosters"] == 8 and len(report["packs"]) == 8
    for pack in report["packs"]:
        assert [c["slot"] for c in pack] == ["common"] * 5 + ["rare"] * 3 + ["epic", "any"]
        assert all(c["rarity"] == c["slot"] for c in pack[:9])
    opened = Counter(c["card"] for pack in report["packs"] for c in pack)
    counts = report["deck"]["counts"]
    assert sum(counts.values()) == report["deck"]["cards"] == 40
    assert all(n <= opened[card] for card, n in counts.items())
    assert len(report["deck"]["classes"]) in (1, 2)


def test_without_out_the_deck_is_written_as_sealed_seed_toml(tmp_path: Path) -> None:
    result = run("deck", "sealed", "--seed", "3", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "sealed-3.toml").read_text().startswith('name = "Sealed 3"\n')


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--boosters", "0"], 2, "--boosters must be between 1 and 100, not 0"),
        (["--boosters", "101"], 2, "--boosters must be between 1 and 100, not 101"),
        (["--boosters", "1", "--seed", "3"], 2, "the 10 cards opened make no legal deck"),
        (["--seed", "-1"], 2, "--seed must be between 0"),
        (["--out", "{tmp}/missing/deck.toml"], 1, "cannot write --out"),
        (["--out", "{tmp}"], 1, "cannot write --out"),
        (["getgem"], 2, "getgem is played with one shared deck"),
    ],
)
def test_bad_input_is_one_line_and_a_non_zero_exit(
    tmp_path: Path, args: list[str], code: int, message: str
) -> None:
    result = run("deck", "sealed", *[a.format(tmp=tmp_path) for a in args], cwd=tmp_path)
    assert result.returncode == code, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.glob("*.toml"))  # nothing written on an error
