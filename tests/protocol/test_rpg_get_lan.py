"""RPG Get! at a real LAN table of four processes (issue 25): a host and three bots over TLS
on 127.0.0.1, each seat with its own 80-card deck through the mental layer (one of them the
JavaScript bot of the bot protocol), audited at the end; a seat's save audits and replays."""

import json
import subprocess
from pathlib import Path

from lan_helpers import ENV, P2PCARDS, bot, open_table, result

BOT_JS = Path(__file__).resolve().parents[2] / "scripts" / "examples" / "bot.js"


def test_four_seats_play_rpg_get_to_the_end_and_the_saves_check_out(tmp_path: Path) -> None:
    host, invite = open_table(
        tmp_path, 4, "--deck", "sky-pirates", "--round-cap", "6", game="rpg-get"
    )
    joined = [
        bot(tmp_path, invite, 1, "--deck", "sword-and-sorcery"),
        bot(tmp_path, invite, 2, "--deck", "sky-pirates"),
        bot(tmp_path, invite, 3, "--cmd", f"node {BOT_JS}"),
    ]
    reports = [result(p, timeout=600) for p in (host, *joined)]
    for code, report, err in reports:
        assert code == 0, err
        assert report["audit"] == "passed" and report["faults"] == []
    assert len({report["digest"] for _, report, _ in reports}) == 1
    saved = next((tmp_path / "bot2" / "tables").glob("*.p2pt"))
    audited = subprocess.run(
        [P2PCARDS, "audit", "--json", str(saved)], capture_output=True, text=True, env=ENV
    )
    verdict = json.loads(audited.stdout)
    assert audited.returncode == 0 and verdict["verdict"] == "passed", audited.stdout
    assert verdict["game"] == "rpg-get"
    replayed = subprocess.run(
        [P2PCARDS, "replay", str(saved)], capture_output=True, text=True, env=ENV
    )
    assert replayed.returncode == 0, replayed.stderr
    assert "Game over" in replayed.stdout  # the replay reaches the end
    assert "before its end" not in replayed.stdout and "ended early" not in replayed.stdout
    assert "mission" in replayed.stdout and "party" in replayed.stdout
