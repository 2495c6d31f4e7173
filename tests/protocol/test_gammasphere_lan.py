"""Gammasphere at a real LAN table (issue 17): separate processes over TLS on 127.0.0.1, each
seat with its own starter deck through the mental layer, searches and all, audited at the end."""

import json
import subprocess
from pathlib import Path

from lan_helpers import ENV, P2PCARDS, bot, open_table, result


def test_two_ai_seats_play_gammasphere_to_the_end_and_the_save_checks_out(tmp_path: Path) -> None:
    host, invite = open_table(tmp_path, 2, "--deck", "saiyan-power-level", game="gammasphere")
    joined = bot(tmp_path, invite, 1, "--deck", "protoss-pylon-rush")
    reports = [result(p, timeout=240) for p in (host, joined)]
    for code, report, err in reports:
        assert code == 0, err
        assert report["audit"] == "passed" and report["faults"] == []
    assert reports[0][1]["digest"] == reports[1][1]["digest"]
    saved = next((tmp_path / "bot1" / "tables").glob("*.p2pt"))
    audited = subprocess.run(
        [P2PCARDS, "audit", "--json", str(saved)], capture_output=True, text=True, env=ENV
    )
    verdict = json.loads(audited.stdout)
    assert audited.returncode == 0 and verdict["verdict"] == "passed", audited.stdout
    replayed = subprocess.run(
        [P2PCARDS, "replay", str(saved)], capture_output=True, text=True, env=ENV
    )
    assert replayed.returncode == 0, replayed.stderr
    assert "Game over" in replayed.stdout and "Winner:" in replayed.stdout  # to its end
    assert "before its end" not in replayed.stdout and "ended early" not in replayed.stdout
