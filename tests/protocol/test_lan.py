"""Real tables: peers as separate processes over TLS on 127.0.0.1."""

import contextlib
import json
import os
import select
import shutil
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

import msgpack
import pytest
from lan_helpers import ENV, P2PCARDS, bot, open_table, result, start

from protocol.invite import Invite


@pytest.mark.parametrize("seats", [2, 3, 4, 8])
def test_ai_peers_play_a_whole_game_in_separate_processes(tmp_path: Path, seats: int) -> None:
    host, invite = open_table(tmp_path, seats)
    bots = [bot(tmp_path, invite, i) for i in range(1, seats)]
    results = [result(p) for p in [host, *bots]]
    for code, report, err in results:
        assert code == 0, err
        assert report["audit"] == "passed"
    assert len({report["digest"] for _, report, _ in results}) == 1
    assert sorted(report["seat"] for _, report, _ in results) == list(range(seats))


def test_the_host_fills_seats_with_ai_processes(tmp_path: Path) -> None:
    host, _ = open_table(tmp_path, 3, "--ai-seats", "2")
    code, report, err = result(host)
    assert code == 0, err
    assert report["audit"] == "passed" and len(report["returns"]) == 3


def test_ai_seats_run_the_hosts_code_whatever_directory_the_host_stands_in(
    tmp_path: Path,
) -> None:
    """A player's working directory with a `cli` package of its own (another checkout, an
    unrelated project): the AI seats' processes must not run it."""
    decoy = tmp_path / "cli"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("")
    (decoy / "__main__.py").write_text("raise SystemExit('the decoy ran')\n")
    host, _ = open_table(tmp_path, 3, "--ai-seats", "2", cwd=tmp_path)
    code, report, err = result(host)
    assert code == 0, err
    assert report["audit"] == "passed" and len(report["returns"]) == 3


def test_a_person_plays_a_seat_through_stdin(tmp_path: Path) -> None:
    host, invite = open_table(tmp_path, 2)
    person = start("join", invite, "--home", str(tmp_path / "person"), stdin=True)
    out, err = person.communicate("2\n1\n" * 3000, timeout=120)
    assert person.returncode == 0, err
    assert "Game over" in out and "Audit passed" in out
    assert "Your hand" in out or "your hand" in out
    code, report, _ = result(host)
    assert code == 0 and report["audit"] == "passed"


def test_getgem_at_a_lan_table_with_a_person_a_bot_and_the_hosts_ai(tmp_path: Path) -> None:
    """Every hidden-hand move of GETGEM between three processes; the person's saved table
    audits and replays as that seat saw it."""
    host, invite = open_table(tmp_path, 3, game="getgem")
    helper = bot(tmp_path, invite, 1, "--agent", "expectimax:nodes=100")
    person = start("join", invite, "--home", str(tmp_path / "person"), stdin=True)
    answers = "".join(f"{n}\n" for n in range(1, 10)) * 700  # a dimmed card is asked again
    out, err = person.communicate(answers, timeout=120)
    assert person.returncode == 0, err
    assert "Game over" in out and "Audit passed" in out and "your hand" in out
    reports = [result(p) for p in (host, helper)]
    assert all(code == 0 and report["audit"] == "passed" for code, report, _ in reports)
    assert reports[0][1]["digest"] == reports[1][1]["digest"]
    saved = next((tmp_path / "person" / "tables").glob("*.p2pt"))
    replayed = subprocess.run(
        [P2PCARDS, "replay", str(saved)], capture_output=True, text=True, env=ENV
    )
    assert replayed.returncode == 0, replayed.stderr
    assert "Winner: seat" in replayed.stdout  # the game ended: its replay reaches the end
    assert "before its end" not in replayed.stdout and "ended early" not in replayed.stdout
    audited = subprocess.run(
        [P2PCARDS, "audit", "--json", str(saved)], capture_output=True, text=True, env=ENV
    )
    verdict = json.loads(audited.stdout)
    assert audited.returncode == 0 and verdict["verdict"] == "passed", audited.stdout
    assert verdict["game"] == "getgem" and verdict["seats"] == 3 and verdict["faults"] == []


def test_a_wrong_secret_or_fingerprint_is_refused_and_the_table_still_plays(tmp_path: Path) -> None:
    host, invite = open_table(tmp_path, 2)
    code = Invite.parse(invite)
    wrong_secret = str(Invite(code.host, code.port, code.fingerprint, "AAAA-AAAA"))
    wrong_host = str(Invite(code.host, code.port, "AAAA-AAAA-AAAA-AAAA", code.secret))
    refused = result(bot(tmp_path, wrong_secret, 1), timeout=30)
    assert refused[0] == 2 and "that invite's secret is wrong" in refused[2]  # bad input
    impostor = result(bot(tmp_path, wrong_host, 2), timeout=30)
    assert impostor[0] == 1 and "does not match the invite code's fingerprint" in impostor[2]
    honest = bot(tmp_path, invite, 3)
    assert result(honest)[1]["audit"] == "passed"
    assert result(host)[1]["audit"] == "passed"


def test_a_malformed_invite_code_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = result(bot(tmp_path, "not-a-code", 1), timeout=30)
    assert code == 2 and "is not an invite code" in err and "Traceback" not in err


def hostile(port: int, payload: bytes, tls: bool = True) -> None:
    """Connect to the host and send `payload`, then hang up."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=5)
    if tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        raw = context.wrap_socket(raw)
    try:
        raw.sendall(payload)
        raw.settimeout(2)
        with contextlib.suppress(TimeoutError, OSError):
            raw.recv(1024)
    finally:
        raw.close()


def test_hostile_connections_are_refused_while_the_table_goes_on(tmp_path: Path) -> None:
    host, invite = open_table(tmp_path, 2)
    port = Invite.parse(invite).port
    wrong_shape = msgpack.packb(["join", "me"])
    for payload, tls in [
        (os.urandom(200), True),  # random bytes inside TLS
        (os.urandom(200), False),  # random bytes where TLS should be
        ((1 << 31).to_bytes(4, "big"), True),  # an oversized length
        ((100).to_bytes(4, "big") + b"\x81", True),  # a truncated frame
        (len(wrong_shape).to_bytes(4, "big") + wrong_shape, True),  # msgpack of the wrong shape
    ]:
        hostile(port, payload, tls)
    honest = bot(tmp_path, invite, 1)
    assert result(honest)[1]["audit"] == "passed"
    code, report, err = result(host)
    assert code == 0 and report["audit"] == "passed"
    # One line per address for a while, however many it refuses: a flood must not flood
    # the terminal of the person hosting (protocol.gate).
    assert err.count("refused a connection from 127.0.0.1") == 1


def test_a_slow_loris_is_cut_off_and_the_table_goes_on(tmp_path: Path) -> None:
    host, invite = open_table(tmp_path, 2)
    port = Invite.parse(invite).port
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    loris = context.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=5))
    loris.settimeout(0.5)
    frame_start = (50).to_bytes(4, "big")
    started = time.monotonic()
    cut_off = False
    for i in range(60):  # one byte every half second: far slower than any real peer
        try:
            loris.sendall(frame_start[i % 4 : i % 4 + 1])
            if loris.recv(1024) == b"":
                cut_off = True
                break
        except TimeoutError:
            continue
        except (OSError, ssl.SSLError):
            cut_off = True
            break
    elapsed = time.monotonic() - started
    loris.close()
    assert cut_off and elapsed < 20
    honest = bot(tmp_path, invite, 1)
    assert result(honest)[1]["audit"] == "passed"
    assert result(host)[1]["audit"] == "passed"


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_open_tables_are_discovered_from_beacons_and_junk_is_ignored(tmp_path: Path) -> None:
    port = free_udp_port()
    listing = start("tables", "--listen", f"127.0.0.1:{port}", "--seconds", "4", "--json")
    time.sleep(0.5)  # let the listener bind before the first beacon
    host, invite = open_table(tmp_path, 3, "--beacon", f"127.0.0.1:{port}")
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as junk:
        for payload in (b"P2PC" + os.urandom(40), os.urandom(600), b"P2PC\x93\x02\xa1x\x01"):
            junk.sendto(payload, ("127.0.0.1", port))
    out, err = listing.communicate(timeout=30)
    assert listing.returncode == 0, err
    tables = json.loads(out)
    code = Invite.parse(invite)
    assert [(t["game"], t["free"], t["seats"], t["fingerprint"]) for t in tables] == [
        ("rpg-battle", 2, 3, code.fingerprint)
    ]
    assert tables[0]["address"] == f"127.0.0.1:{code.port}"
    bots = [bot(tmp_path, invite, i) for i in (1, 2)]
    assert all(result(p)[1]["audit"] == "passed" for p in [host, *bots])


def test_beacons_are_checked_before_they_are_believed() -> None:
    from protocol.discovery import Beacon, BeaconError

    beacon = Beacon("rpg-battle", 4, 2, "AAAA-BBBB-CCCC-DDDD", 7777, "host")
    assert Beacon.decode(beacon.encode()) == beacon
    for bad in (b"", b"XXXX" + beacon.encode()[4:], beacon.encode() + b"\x00" * 600):
        with pytest.raises(BeaconError):
            Beacon.decode(bad)
    with pytest.raises(BeaconError):
        Beacon.decode(Beacon("g", 2, 3, "f", 7777, "h").encode())  # more free seats than seats


def test_a_saved_table_can_be_audited_and_replayed_and_tampering_is_caught(
    tmp_path: Path,
) -> None:
    host, invite = open_table(tmp_path, 2)
    assert result(bot(tmp_path, invite, 1))[1]["audit"] == "passed"
    code, report, _ = result(host)
    assert code == 0
    saved = next((tmp_path / "host" / "tables").glob("*.p2pt"))
    audited = subprocess.run(
        [P2PCARDS, "audit", str(saved)], capture_output=True, text=True, env=ENV
    )
    assert audited.returncode == 0 and "Audit passed" in audited.stdout
    replayed = subprocess.run(
        [P2PCARDS, "replay", str(saved)], capture_output=True, text=True, env=ENV
    )
    assert replayed.returncode == 0
    winner = report["winners"][0]  # type: ignore[index]
    assert f"Winner: seat {winner}." in replayed.stdout
    assert "plays" in replayed.stdout
    data = bytearray(saved.read_bytes())
    signature = data.index(b"\xa3sig", len(data) // 2) + 6  # inside a signature, mid-game
    data[signature] ^= 0x01
    tampered = tmp_path / "tampered.p2pt"
    tampered.write_bytes(bytes(data))
    checked = subprocess.run(
        [P2PCARDS, "audit", str(tampered)], capture_output=True, text=True, env=ENV
    )
    assert checked.returncode == 1 and "Traceback" not in checked.stderr
    assert "bad signature" in " ".join(checked.stderr.split())


def seeded_table(tmp: Path, kill: bool) -> list[tuple[int, dict[str, object], str]]:
    """A 3-seat AI table with reproducible shuffles; with `kill`, one bot is SIGKILLed
    mid-game and comes back with --resume."""
    env = {**ENV, "P2PCARDS_INSECURE_TEST_SEED": "4242"}
    host, invite = open_table(tmp, 3, env=env)
    steady = bot(tmp, invite, 1, env=env)
    trace = tmp / "victim.trace"
    victim = bot(tmp, invite, 2, "--trace", str(trace), env=env)
    if not kill:
        return [result(p) for p in (host, steady, victim)]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # wait until the game is well under way
        if trace.exists() and trace.read_text().count('"applied"') >= 15:
            break
        time.sleep(0.01)
    victim.kill()  # SIGKILL: no chance to clean up
    victim.wait()
    assert victim.returncode == -9
    saved = next((tmp / "bot2" / "tables").glob("*-seat*.p2pt"))
    back = start("bot", "--resume", str(saved), "--home", str(tmp / "bot2"), "--json", env=env)
    return [result(p) for p in (host, steady, back)]


def test_a_killed_peer_resumes_and_the_game_ends_as_if_nothing_happened(tmp_path: Path) -> None:
    uninterrupted = seeded_table(tmp_path / "once", kill=False)
    resumed = seeded_table(tmp_path / "twice", kill=True)
    for code, report, err in uninterrupted + resumed:
        assert code == 0, err
        assert report["audit"] == "passed"
    digests = {report["digest"] for _, report, _ in uninterrupted + resumed}
    assert len(digests) == 1  # same seeds, same game, crash or no crash
    assert sorted(report["seat"] for _, report, _ in resumed) == [0, 1, 2]


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("forge", ("bad signature",)),
        # Spoken while the other seat's announcement (or the reveal of the card it shows)
        # is the open operation.
        (
            "out-of-turn",
            ("when another seat was to announce", "unexpected Announcement", "was to decide"),
        ),
        ("illegal", ("announced an illegal action",)),
    ],
)
def test_a_seated_cheater_is_named_by_the_honest_peers(
    tmp_path: Path, mode: str, reason: tuple[str, ...]
) -> None:
    host, invite = open_table(tmp_path, 2)
    cheater = subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__).with_name("cheater.py")),
            mode,
            invite,
            str(tmp_path / "cheater"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    code, _, err = result(host, timeout=60)
    cheater.kill()
    cheater.wait()
    assert code == 1, err
    said = " ".join(err.split())
    assert "seat 1" in said and any(words in said for words in reason)
    assert "Traceback" not in err


def test_a_certificate_off_the_roster_fails_the_tls_handshake(tmp_path: Path) -> None:
    from protocol.identity import Identity

    host, invite = open_table(tmp_path, 2)
    port = Invite.parse(invite).port
    stranger = Identity.load_or_create(tmp_path / "stranger")
    cert, key = stranger.certificate_files(tmp_path / "stranger" / "tls")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.load_cert_chain(cert, key)
    refused = False
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        try:
            with context.wrap_socket(raw) as tls:
                tls.sendall(b"\x00\x00\x00\x01\xc0")
                refused = tls.recv(1024) == b""  # TLS 1.3 reports the refusal on first read
        except (ssl.SSLError, ConnectionResetError):
            refused = True
    assert refused
    assert result(bot(tmp_path, invite, 1))[1]["audit"] == "passed"
    assert result(host)[1]["audit"] == "passed"


def test_a_bot_in_another_language_takes_a_seat(tmp_path: Path) -> None:
    script = Path(__file__).resolve().parents[2] / "scripts" / "examples" / "bot.js"
    host, invite = open_table(tmp_path, 2)
    js = bot(tmp_path, invite, 1, "--cmd", f"node {script}")
    for code, report, err in (result(js), result(host)):
        assert code == 0, err
        assert report["audit"] == "passed"


@pytest.mark.parametrize(
    ("mode", "reasons"),
    [
        ("illegal", ("announced an illegal action",)),
        ("equivocate", ("signed two different messages", "after another message")),
    ],
)
def test_at_three_seats_every_honest_seat_names_the_cheater_in_its_save_file(
    tmp_path: Path, mode: str, reasons: tuple[str, ...]
) -> None:
    """Identifiable abort over the LAN: the host and an honest bot both stop, name the
    cheater, exit 1, and their save files' audits name it from the signed evidence alone."""
    host, invite = open_table(tmp_path, 3)
    honest = bot(tmp_path, invite, 1)
    with (tmp_path / "cheater.err").open("w") as cheater_err:
        cheater = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("cheater.py")), mode, invite,
             str(tmp_path / "cheater")],
            stdout=subprocess.DEVNULL, stderr=cheater_err,
        )  # fmt: skip
        try:
            reports = [result(host, timeout=120), result(honest, timeout=120)]
        finally:
            cheater.kill()
            cheater.wait()
    said = (tmp_path / "cheater.err").read_text()
    seats = {int(report["seat"]) for _, report, _ in reports}  # type: ignore[call-overload]
    (cheater_seat,) = {0, 1, 2} - seats
    for code, report, err in reports:
        assert code == 1, (err, said)
        assert report["ended"] == "aborted" and report["cheaters"] == [cheater_seat], report
        faults = " ".join(f["reason"] for f in report["faults"])  # type: ignore[attr-defined, index]
        assert any(reason in faults for reason in reasons), faults
        assert "Traceback" not in err
    for home in ("host", "bot1"):
        saved = next((tmp_path / home / "tables").glob("*.p2pt"))
        audited = subprocess.run(
            [P2PCARDS, "audit", str(saved)], capture_output=True, text=True, env=ENV
        )
        assert audited.returncode == 1, audited.stderr
        told = " ".join(audited.stdout.split())
        assert f"cheated: seat {cheater_seat}" in told and any(r in told for r in reasons)


def test_a_joiner_that_hangs_up_before_the_table_fills_frees_its_seat(tmp_path: Path) -> None:
    """It used to crash the host; now the seat opens again and the table forms without it."""
    host, invite = open_table(tmp_path, 3)
    quitter = bot(tmp_path, invite, 1)
    time.sleep(2.0)  # seated, waiting for the third seat
    quitter.kill()
    quitter.wait()
    late = [bot(tmp_path, invite, i) for i in (2, 3)]
    for code, report, err in [result(p) for p in (host, *late)]:
        assert code == 0, err
        assert report["audit"] == "passed" and len(report["returns"]) == 3  # type: ignore[arg-type]


def test_a_bounded_flood_of_strangers_during_a_game_leaves_it_whole(tmp_path: Path) -> None:
    """Idle TCP, idle TLS and oversized frames against the host while a game runs: the
    game finishes with a clean audit, and the host prints a line per address, not per
    connection."""
    host, invite = open_table(tmp_path, 2)
    port = Invite.parse(invite).port
    honest = bot(tmp_path, invite, 1)
    held: list[socket.socket] = []
    for _ in range(20):
        with contextlib.suppress(OSError):
            held.append(socket.create_connection(("127.0.0.1", port), timeout=2))
    for _ in range(20):
        with contextlib.suppress(OSError, ssl.SSLError):
            hostile(port, (1 << 20).to_bytes(4, "big") + b"\x90" * 100)
    reports = [result(honest), result(host)]
    for sock in held:
        sock.close()
    for code, report, err in reports:
        assert code == 0, err
        assert report["audit"] == "passed"
    assert reports[1][2].count("refused a connection") <= 2


def test_a_joiner_with_other_cards_is_told_so_and_does_not_sit_down(tmp_path: Path) -> None:
    """Two versions of p2pcards at one table would part ways at the first move one of them
    judged otherwise, and name an honest seat a cheater: the joiner runs a copy of the
    program whose Gammasphere Zealot costs 300 gas, and the roster's rules tell it so."""
    root = Path(__file__).resolve().parents[2]
    other = tmp_path / "other-p2pcards"
    for package in ("p2pcards", "protocol", "ai", "cli"):
        shutil.copytree(
            root / package, other / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    cards = other / "p2pcards" / "games" / "gammasphere" / "cards.toml"
    text = cards.read_text()
    zealot = text.index('id = "zealot"')
    cards.write_text(text[:zealot] + text[zealot:].replace("gas = 200", "gas = 300", 1))
    host, invite = open_table(tmp_path, 2, game="gammasphere")
    try:
        joiner = subprocess.run(
            [sys.executable, "-m", "cli", "join", invite, "--home", str(tmp_path / "joiner")],
            cwd=other, env={**ENV, "PYTHONPATH": str(other)}, capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
        told = ""  # the host hears why: the joiner says so before it goes
        deadline = time.monotonic() + 30
        while "did not sign" not in told and time.monotonic() < deadline:
            assert host.stderr is not None
            if select.select([host.stderr], [], [], 1)[0]:
                told += host.stderr.readline()
    finally:
        host.kill()
        host.communicate()
    assert joiner.returncode != 0 and "Traceback" not in joiner.stderr, joiner.stderr[-2000:]
    assert "other rules or cards than ours" in joiner.stderr
    assert "every seat needs the same p2pcards" in joiner.stderr
    assert "did not sign the roster: it refused: the host plays gammasphere by other" in told
