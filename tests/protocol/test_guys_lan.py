"""Rise of the Guys at real LAN tables (issue 16): separate processes over TLS on 127.0.0.1,
each seat bringing its own deck with --deck, kept secret through the mental layer."""

import json
import subprocess
import time
from pathlib import Path

from lan_helpers import ENV, P2PCARDS, bot, open_table, result, start

DECK_FILE = """name = "Gadgets"
game = "rise-of-the-guys"
[cards]
robutt = 4
manapult = 4
circuiteer = 4
spinrev = 4
toaster-bot = 4
battery-buddy = 4
tinkerer = 4
overclocker = 4
holo-shield-9000 = 4
shrink-ray = 4
"""


def test_two_ai_seats_with_their_own_decks_play_to_the_end_and_the_saves_check_out(
    tmp_path: Path,
) -> None:
    """Each seat's deck stays its own (a shipped deck at the host, a deck file at the bot);
    both audits pass, on the same digest, and the bot's save audits and replays."""
    deck = tmp_path / "gadgets.toml"
    deck.write_text(DECK_FILE)
    host, invite = open_table(tmp_path, 2, "--deck", "control", game="rise-of-the-guys")
    joined = bot(tmp_path, invite, 1, "--deck", str(deck))
    reports = [result(p) for p in (host, joined)]
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
    assert verdict["game"] == "rise-of-the-guys"
    replayed = subprocess.run(
        [P2PCARDS, "replay", str(saved)], capture_output=True, text=True, env=ENV
    )
    assert replayed.returncode == 0, replayed.stderr
    assert "Winner: seat" in replayed.stdout  # the game ended: its replay reaches the end
    assert "before its end" not in replayed.stdout and "ended early" not in replayed.stdout
    assert "Robutt" in replayed.stdout or "Manapult" in replayed.stdout  # its own cards, named


def test_a_person_plays_rise_of_the_guys_through_stdin(tmp_path: Path) -> None:
    """The terminal view at a LAN table: a person (trying the lines 1 to 9 in turn, a card
    that cannot be played now being no choice) against the host's AI."""
    host, invite = open_table(tmp_path, 2, game="rise-of-the-guys")
    person = start(
        "join", invite, "--home", str(tmp_path / "person"), "--deck", "sneaky-stinky", stdin=True
    )
    answers = "".join(f"{n}\n" for n in range(1, 10)) * 700
    out, err = person.communicate(answers, timeout=160)
    assert person.returncode == 0, err
    assert "Game over" in out and "Audit passed" in out
    assert "lane 1" in out and "your hand" in out.lower()
    code, report, _ = result(host)
    assert code == 0 and report["audit"] == "passed"


def test_a_broken_deck_file_is_a_usage_error_before_joining(tmp_path: Path) -> None:
    """Bad input gets a clear message and exit 2, never a traceback (and no connection)."""
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "x"\n[cards]\nrobutt = "many"\n')
    done = subprocess.run(
        [P2PCARDS, "join", "127.0.0.1:9/AAAA-BBBB-CCCC-DDDD/EEEE-FFFF", "--deck", str(broken),
         "--home", str(tmp_path / "j")],
        capture_output=True, text=True, env=ENV, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--deck" in done.stderr and "broken.toml" in done.stderr
    hosted = subprocess.run(
        [P2PCARDS, "host", "rpg-battle", "--deck", "control", "--home", str(tmp_path / "h")],
        capture_output=True, text=True, env=ENV, timeout=60,
    )  # fmt: skip
    assert hosted.returncode == 2 and "shared deck" in hosted.stderr


def _seeded_table(tmp: Path, kill: bool) -> list[tuple[int, dict[str, object], str]]:
    """A 2-seat AI table of own decks with reproducible shuffles; with `kill`, the bot is
    SIGKILLed mid-game and takes its seat again with --resume (no --deck: the save has it)."""
    env = {**ENV, "P2PCARDS_INSECURE_TEST_SEED": "4242"}
    deck = tmp / "gadgets.toml"
    tmp.mkdir(parents=True, exist_ok=True)
    deck.write_text(DECK_FILE)
    host, invite = open_table(tmp, 2, "--deck", "control", env=env, game="rise-of-the-guys")
    trace = tmp / "victim.trace"
    victim = bot(tmp, invite, 1, "--trace", str(trace), "--deck", str(deck), env=env)
    if not kill:
        return [result(p) for p in (host, victim)]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # wait until the game is well under way
        if trace.exists() and trace.read_text().count('"applied"') >= 40:
            break
        time.sleep(0.01)
    victim.kill()
    victim.wait()
    assert victim.returncode == -9
    saved = next((tmp / "bot1" / "tables").glob("*-seat*.p2pt"))
    back = start("bot", "--resume", str(saved), "--home", str(tmp / "bot1"), "--json", env=env)
    return [result(p) for p in (host, back)]


def test_a_killed_seat_resumes_with_its_own_deck_and_the_game_ends_as_if_nothing_happened(
    tmp_path: Path,
) -> None:
    """Issue 16: rejoin after a kill works mid-game."""
    uninterrupted = _seeded_table(tmp_path / "once", kill=False)
    resumed = _seeded_table(tmp_path / "twice", kill=True)
    for code, report, err in uninterrupted + resumed:
        assert code == 0, err
        assert report["audit"] == "passed"
    assert len({report["digest"] for _, report, _ in uninterrupted + resumed}) == 1
