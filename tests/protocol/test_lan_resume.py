"""Seats that leave and come back, as real processes: one table, one history, one outcome.

Issue 26, finding 1: the host left and came back, then the joiner left and came back;
each dialled the other where the table began, neither was found, and 120 s later each
won by forfeit, two saves of one table naming different winners.
"""

import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

from lan_helpers import ENV, P2PCARDS, bot, open_table, result, start

QUICK = ("--timeout", "5", "--leave-timeout", "20")


def interrupt(process: subprocess.Popen[str]) -> str:
    """Ctrl-C a seat: it leaves with a signed message; what it told its person."""
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    return err


def saved(home: Path) -> Path:
    return next((home / "tables").glob("*-seat?.p2pt"))


def audit(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [P2PCARDS, "audit", *map(str, paths)], capture_output=True, text=True, env=ENV
    )


def listening_port(path: Path) -> int:
    """The port a save's seat listened on (the roster's)."""
    from protocol.savefile import load

    table = load(path)
    return table.roster.members[table.seat].port


def person(*args: str) -> subprocess.Popen[str]:
    """A person at a terminal (answers piped in as we go), with short timeouts."""
    return start(*args, "--json", *QUICK, stdin=True)


def type_in(process: subprocess.Popen[str], text: str) -> None:
    assert process.stdin is not None
    process.stdin.write(text)
    process.stdin.flush()


def until_said(process: subprocess.Popen[str], words: str) -> None:
    """Read what a seat tells its person until it says `words`."""
    assert process.stderr is not None
    for line in process.stderr:
        if words in line:
            return
    raise AssertionError(f"never said {words!r}")


def quits(process: subprocess.Popen[str]) -> None:
    """The person types q (at its prompt, or while another decides): a signed leave."""
    type_in(process, "q\n")
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130 and "You left the table (quit)" in err, err


def wait_for_save(home: Path) -> None:
    deadline = time.monotonic() + 60
    while not list((home / "tables").glob("*.p2pt")):
        assert time.monotonic() < deadline, "no save file within 60 s"
        time.sleep(0.05)
    time.sleep(1)  # a few moves


def double_resume(tmp: Path, host_port_taken: bool) -> list[tuple[int, dict[str, object], str]]:
    """Two people; the host quits and comes back, then the joiner does (played by greedy
    agents once back, so that the game ends)."""
    host = person("host", "rpg-battle", "--seats", "2", "--port", "0", "--home",
                  str(tmp / "host"), "--round-cap", "0")  # fmt: skip
    assert host.stdout is not None
    invite = json.loads(host.stdout.readline())["invite"]
    joiner = person("join", invite, "--home", str(tmp / "bob"), "--name", "Bob")
    for seat in (host, joiner):
        type_in(seat, "2\n1\n" * 3)
    wait_for_save(tmp / "bob")
    quits(host)
    blocker = None
    if host_port_taken:  # something else took the host's port meanwhile
        blocker = socket.socket()
        blocker.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        blocker.bind(("0.0.0.0", listening_port(saved(tmp / "host"))))
        blocker.listen()
    try:
        host = start(
            "join", "--resume", str(saved(tmp / "host")), "--home", str(tmp / "host"),
            "--agent", "greedy", "--json", *QUICK,
        )  # fmt: skip
        until_said(joiner, "seat 0 (host) is back")
        quits(joiner)
        joiner = start(
            "join", "--resume", str(saved(tmp / "bob")), "--home", str(tmp / "bob"),
            "--agent", "greedy", "--json", *QUICK,
        )  # fmt: skip
        return [result(host, 120), result(joiner, 120)]
    finally:
        if blocker is not None:
            blocker.close()


def check_one_table(tmp: Path, reports: list[tuple[int, dict[str, object], str]]) -> None:
    for code, report, err in reports:
        assert code == 0, err
        assert report["ended"] == "finished" and report["audit"] == "passed", (report, err)
        assert "Traceback" not in err and "WARNING" not in err, err
    assert reports[0][1]["digest"] == reports[1][1]["digest"]
    assert reports[0][1]["winners"] == reports[1][1]["winners"]
    host_said = " ".join(reports[0][2].split())
    assert host_said.count("seat 1 (Bob) left (quit)") == 1, host_said
    assert host_said.count("seat 1 (Bob) is back") == 1, host_said
    last = [max(home.glob("tables/*.p2pt"), key=lambda p: p.stat().st_mtime)
            for home in (tmp / "host", tmp / "bob")]  # fmt: skip
    together = audit(*last)
    assert together.returncode == 0, together.stdout + together.stderr
    assert "tell one history" in together.stdout


def test_two_seats_that_each_leave_and_come_back_finish_one_game(tmp_path: Path) -> None:
    check_one_table(tmp_path, double_resume(tmp_path, host_port_taken=False))


def test_a_seat_back_on_another_port_is_found_by_the_next_seat_to_come_back(
    tmp_path: Path,
) -> None:
    """The host's old port is taken when it comes back: it listens elsewhere, the bot
    learns where from its hello and keeps that in its save, and finds it there on its own
    return."""
    check_one_table(tmp_path, double_resume(tmp_path, host_port_taken=True))


def test_a_seat_back_too_late_says_undecided_and_the_saves_agree(tmp_path: Path) -> None:
    """The bot gives up on the host after its signed leave (a forfeit); the host comes back
    too late, finds nobody, and cannot know whether it forfeited: it says so ("undecided")
    rather than name a result. It used to end 'abandoned' (nobody wins) beside the bot's
    forfeit: two saves of one table that each passed alone and disagreed together."""
    host = start(
        "host", "rpg-battle", "--seats", "2", "--port", "0", "--home", str(tmp_path / "host"),
        "--round-cap", "0", "--json", "--timeout", "2", stdin=True,
    )  # fmt: skip
    assert host.stdout is not None
    invite = json.loads(host.stdout.readline())["invite"]
    joiner = bot(tmp_path, invite, 1, "--leave-timeout", "1")
    type_in(host, "2\n1\n" * 3)
    wait_for_save(tmp_path / "bot1")
    quits(host)
    code, report, err = result(joiner, 60)
    assert code == 0 and report["ended"] == "forfeit" and report["winners"] == [1], err
    back = start(
        "join", "--resume", str(saved(tmp_path / "host")), "--home", str(tmp_path / "host"),
        "--agent", "greedy", "--json", "--timeout", "1", "--leave-timeout", "1",
    )  # fmt: skip
    code, report, err = result(back, 60)
    assert code == 0 and report["ended"] == "undecided" and report["winners"] == [], err
    assert any("may have given up on us" in note for note in report["notes"]), report
    resumed = next((tmp_path / "host" / "tables").glob("*resumed1.p2pt"))
    assert audit(resumed).returncode == 0
    assert audit(saved(tmp_path / "bot1")).returncode == 0
    together = audit(resumed, saved(tmp_path / "bot1"))
    said = " ".join(together.stdout.split())
    assert together.returncode == 0 and "tell one history" in said, said
    as_json = subprocess.run(
        [P2PCARDS, "audit", "--json", str(resumed), str(saved(tmp_path / "bot1"))],
        capture_output=True, text=True, env=ENV,
    )  # fmt: skip
    verdict = json.loads(as_json.stdout)
    assert verdict["agree"] is True and verdict["disagreements"] == []


def test_audit_of_a_missing_file_or_of_no_save_is_bad_input(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    for path in (tmp_path / "missing.p2pt", tmp_path / "notes.txt"):
        for command in ("audit", "replay"):
            done = subprocess.run(
                [P2PCARDS, command, str(path)], capture_output=True, text=True, env=ENV
            )
            assert done.returncode == 2, (command, path, done.stderr)
            assert len(done.stderr.strip().splitlines()) == 1, done.stderr
            assert "Traceback" not in done.stderr


def test_a_host_with_ai_seats_leaves_at_once_and_finds_them_on_its_return(
    tmp_path: Path,
) -> None:
    """Issue 26, finding 2: `q` took 30 s, printed the AI child's own log line, killed the AI
    seats while saying the others wait, and the host then won against its dead AIs. Now
    the AI seats run on in their own session; one that has ended meanwhile (killed here)
    is started again from its save by the host's `join --resume`."""
    host = start(
        "host", "rpg-battle", "--seats", "2", "--port", "0", "--home", str(tmp_path / "host"),
        "--ai-seats", "1", "--agents", "greedy", "--json", *QUICK, stdin=True,
    )  # fmt: skip
    assert host.stdin is not None and host.stdout is not None
    host.stdin.write("2\n1\n2\n1\n")  # a person who plays a move or two, then thinks
    host.stdin.flush()
    for line in host.stdout:
        if "choice" in line:
            break
    time.sleep(0.5)
    began = time.monotonic()
    said = " ".join(interrupt(host).split())
    assert time.monotonic() - began < 10, said
    assert "Your AI seats wait too" in said and "WARNING" not in said, said
    pid_file = next((tmp_path / "host" / "ai-seats").glob("table-*/ai1/pid"))
    pid = int(pid_file.read_text())
    assert Path(f"/proc/{pid}").exists(), "the AI seat stopped with its host"
    os.kill(pid, signal.SIGKILL)  # it ends while the host is away: the resume restarts it
    back = start(
        "join", "--resume", str(saved(tmp_path / "host")), "--home", str(tmp_path / "host"),
        "--agent", "greedy", "--json", *QUICK,
    )  # fmt: skip
    code, report, err = result(back, 120)
    assert code == 0, err
    assert report["ended"] == "finished" and report["audit"] == "passed", (report, err)
    assert "WARNING" not in err and "Traceback" not in err, err
    assert not list((tmp_path / "host" / "ai-seats").glob("table-*")), "AI folders left behind"


def test_a_host_interrupted_before_the_game_leaves_no_ai_folder_behind(tmp_path: Path) -> None:
    host, _ = open_table(tmp_path, 3, "--ai-seats", "1", "--agents", "greedy")
    time.sleep(1)
    host.send_signal(signal.SIGINT)
    _, err = host.communicate(timeout=30)
    assert "Traceback" not in err, err
    assert not list((tmp_path / "host" / "ai-seats").glob("table-*")), err


def test_a_person_waiting_for_another_sees_whom_and_can_quit_at_once(tmp_path: Path) -> None:
    """Between its prompts a LAN seat hears whose decision the table waits for, and `q`
    leaves then too (it used to be read only at the person's own next prompt)."""
    host = start(
        "host", "rpg-battle", "--seats", "2", "--port", "0", "--home", str(tmp_path / "host"),
        "--name", "Ana", "--json", stdin=True,
    )  # fmt: skip
    assert host.stdout is not None
    invite = json.loads(host.stdout.readline())["invite"]
    person = start("join", invite, "--home", str(tmp_path / "bob"), "--name", "Bob", stdin=True)
    assert person.stdout is not None and person.stdin is not None
    try:
        for line in person.stdout:  # Ana, the host's person, thinks: Bob waits for her
            if "waiting for" in line:
                assert "waiting for Ana… (q leaves the table)" in line, line
                break
        person.stdin.write("q\n")
        person.stdin.flush()
        began = time.monotonic()
        _, err = person.communicate(timeout=30)
        assert time.monotonic() - began < 5, err
        assert person.returncode == 130 and "You left the table (quit)" in err, err
    finally:
        host.kill()
        _, said = host.communicate(timeout=30)
    assert " ".join(said.split()).count("seat 1 (Bob) left (quit)") == 1, said
