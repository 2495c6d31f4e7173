"""Whole games across an emulated LAN: `p2pcards` processes in network namespaces.

Each host of the network lab (scripts/netlab.py) is a network namespace at 10.77.0.<i+1>
with a default route through a TUN; a hub in this process carries the packets between them
with latency, jitter, loss and partitions. So the program's own TLS connections cross a slow,
lossy network, and the address it picks for its invite code is the one the others dial.

These need root and /dev/net/tun. Where the lab cannot be built the tests fail with the
lab's own message; they are never skipped.
"""

from __future__ import annotations

import json
import select
import shlex
import signal
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from lab_helpers import lab
from lan_helpers import ENV, P2PCARDS

from protocol.invite import Invite

SEEDED = {**ENV, "P2PCARDS_INSECURE_TEST_SEED": "4242"}

Report = tuple[int, dict[str, Any], str]  # exit code, the seat's JSON line, its stderr


def start(net: Any, host: int, *args: str, env: dict[str, str] = ENV) -> subprocess.Popen[str]:
    """`p2pcards ARGS` as a process in lab host `host`."""
    process: subprocess.Popen[str] = net.popen(
        host, [P2PCARDS, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    return process


def open_table(
    net: Any, tmp: Path, seats: int, *extra: str, env: dict[str, str] = ENV
) -> tuple[subprocess.Popen[str], str]:
    """A host in lab host 0 with a greedy AI at seat 0, and its invite code.

    No --advertise: the host finds its LAN address itself.
    """
    host = start(
        net, 0, "host", "rpg-battle", "--seats", str(seats), "--agent", "greedy",
        "--home", str(tmp / "host"), "--json", *extra, env=env,
    )  # fmt: skip
    assert host.stdout is not None
    ready, _, _ = select.select([host.stdout], [], [], 30)
    line = host.stdout.readline() if ready else ""
    if not line.startswith('{"invite"'):
        host.kill()
        _, err = host.communicate(timeout=10)
        pytest.fail(f"the host printed no invite code within 30 s: {line!r}, stderr: {err}")
    invite: str = json.loads(line)["invite"]
    return host, invite


def bot(
    net: Any, host: int, tmp: Path, invite: str, *extra: str, env: dict[str, str] = ENV
) -> subprocess.Popen[str]:
    """A greedy bot in lab host `host`, with its own home."""
    return start(
        net, host, "bot", invite, "--home", str(tmp / f"bot{host}"), "--json", *extra, env=env
    )


def named(process: subprocess.Popen[str]) -> str:
    """The p2pcards command line of a lab process, for messages (without `ip netns exec NS`)."""
    return shlex.join(str(arg) for arg in process.args[4:])  # type: ignore[union-attr]


def result(process: subprocess.Popen[str], deadline: float) -> Report:
    """Wait for a seat until `deadline` (time.monotonic()); its exit code, report, stderr."""
    try:
        out, err = process.communicate(timeout=max(1.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate(timeout=10)
        pytest.fail(f"`{named(process)}` was still running at its deadline; stderr:\n{err}")
    lines = [json.loads(line) for line in out.splitlines() if line.startswith('{"seat"')]
    return process.returncode, (lines[-1] if lines else {}), err


def finished(process: subprocess.Popen[str], deadline: float) -> Report:
    """A seat's result, checked: exit 0, no traceback, a passed audit of a finished game."""
    code, report, err = result(process, deadline)
    assert code == 0, f"`{named(process)}` exited {code}:\n{err}"
    assert "Traceback" not in err, err
    assert report.get("audit") == "passed", report
    assert report["ended"] == "finished", report
    return code, report, err


def same_game(reports: Sequence[Report], seats: int) -> None:
    """The seats' reports are of one game (the same digest), one report for every seat."""
    assert len({report["digest"] for _, report, _ in reports}) == 1, reports
    assert sorted(report["seat"] for _, report, _ in reports) == list(range(seats))


def applied(trace: Path) -> int:
    """How many steps a seat's --trace file says it has applied."""
    return trace.read_text().count('"applied"') if trace.exists() else 0


def wait_for_steps(
    trace: Path, steps: int, processes: Sequence[subprocess.Popen[str]], within: float
) -> None:
    """Wait until the traced seat has applied `steps` steps, with every process still running."""
    deadline = time.monotonic() + within
    while applied(trace) < steps:
        for process in processes:
            if process.poll() is not None:
                _, err = process.communicate(timeout=10)
                pytest.fail(
                    f"`{named(process)}` exited {process.returncode} before step {steps} "
                    f"({applied(trace)} applied); stderr:\n{err}"
                )
        assert time.monotonic() < deadline, f"only {applied(trace)} steps in {within:g} s"
        time.sleep(0.05)


def test_a_game_survives_latency_loss_and_a_ten_second_partition(tmp_path: Path) -> None:
    """50 ± 20 ms, 5% loss, and one bot cut off from both others for 10 s mid-game."""
    with lab(hosts=3, latency=0.05, jitter=0.02, loss=0.05) as net:
        deadline = time.monotonic() + 120  # TCP's backoff can stall it for a while after
        trace = tmp_path / "host.trace"
        host, invite = open_table(
            net, tmp_path, 3, "--round-cap", "35", "--timeout", "15", "--leave-timeout", "60",
            "--trace", str(trace),
        )  # fmt: skip
        assert invite.startswith(f"{net.address(0)}:"), invite  # found by the host itself
        bots = [
            bot(net, i, tmp_path, invite, "--timeout", "15", "--leave-timeout", "60")
            for i in (1, 2)
        ]
        seats = [host, *bots]
        wait_for_steps(trace, 20, seats, within=60)
        before = net.stats().dropped_partition
        net.partition({2}, {0, 1}, heal_after=10.0)
        time.sleep(9.5)
        assert [p.poll() for p in seats] == [None] * 3, "the game ended during the partition"
        cut_off = net.stats().dropped_partition - before
        assert cut_off > 0  # the partition did stop packets mid-game
        reports = [finished(p, deadline) for p in seats]
    same_game(reports, 3)


def seeded_table(net: Any, tmp: Path, kill: bool, deadline: float) -> tuple[list[Report], int]:
    """A 3-seat table with reproducible shuffles across the lab; with `kill`, the bot in lab
    host 2 is SIGKILLed mid-game and comes back there with --resume. The seats' checked
    results (the victim's first) and the victim's seat."""
    host, invite = open_table(net, tmp, 3, "--round-cap", "40", env=SEEDED)
    steady = bot(net, 1, tmp, invite, env=SEEDED)
    trace = tmp / "victim.trace"
    victim = bot(net, 2, tmp, invite, "--trace", str(trace), env=SEEDED)
    wait_for_steps(trace, 15, [host, steady, victim], within=60)
    seat: int = json.loads(trace.read_text().splitlines()[0])["seat"]
    if kill:
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=10)
        assert victim.returncode == -signal.SIGKILL
        home = tmp / "bot2"
        saved = next((home / "tables").glob("*-seat*.p2pt"))
        victim = start(
            net, 2, "bot", "--resume", str(saved), "--home", str(home), "--json", env=SEEDED
        )
    return [finished(p, deadline) for p in (victim, host, steady)], seat


def test_a_bot_killed_mid_game_resumes_in_its_namespace(tmp_path: Path) -> None:
    """The same seeded game twice, the second time with a bot SIGKILLed and resumed: every
    seat finishes it, and it ends as if nothing had happened."""
    with lab(hosts=3, latency=0.02) as net:
        deadline = time.monotonic() + 100
        uninterrupted, _ = seeded_table(net, tmp_path / "once", False, deadline)
        resumed, seat = seeded_table(net, tmp_path / "twice", True, deadline)
    same_game(uninterrupted, 3)
    same_game(resumed, 3)
    assert uninterrupted[0][1]["digest"] == resumed[0][1]["digest"]  # crash or no crash
    said = " ".join(resumed[1][2].split())  # what the host told its player
    assert f"seat {seat} (greedy) is back" in said, said


def test_a_seat_that_never_comes_back_ends_the_table_without_a_result(
    tmp_path: Path,
) -> None:
    """A bot SIGKILLed for good: the two others, with short timeouts, end the table by
    themselves, naming it as gone (not as a cheat). It signed no leave, so nothing shows
    the others that it went rather than the network: nobody wins (issue 26)."""
    with lab(hosts=3, latency=0.02) as net:
        deadline = time.monotonic() + 60
        short = ("--timeout", "5", "--leave-timeout", "5")
        host, invite = open_table(net, tmp_path, 3, "--round-cap", "40", *short)
        steady = bot(net, 1, tmp_path, invite, *short)
        trace = tmp_path / "gone.trace"
        gone = bot(net, 2, tmp_path, invite, "--trace", str(trace))
        wait_for_steps(trace, 15, [host, steady, gone], within=40)
        seat = json.loads(trace.read_text().splitlines()[0])["seat"]
        gone.send_signal(signal.SIGKILL)
        gone.wait(timeout=10)
        reports = [result(p, deadline) for p in (host, steady)]
    for code, report, err in reports:
        assert code == 0, err
        assert "Traceback" not in err, err
        assert report["ended"] == "abandoned", report
        assert report["cheaters"] == [], report
        assert report["returns"] == [0, 0, 0], report
        kinds = {fault["seat"]: fault["kind"] for fault in report["faults"]}
        assert kinds.get(seat) in ("silent", "left"), report
        assert all(kind != "cheat" for kind in kinds.values()), report
    assert sorted(report["seat"] for _, report, _ in reports) == sorted({0, 1, 2} - {seat})
    assert reports[0][1]["digest"] == reports[1][1]["digest"]


def leave_and_resume(net: Any, host: int, tmp: Path, *extra: str) -> subprocess.Popen[str]:
    """Ctrl-C the bot in lab host `host` (a signed leave), then resume it there."""
    home = tmp / f"bot{host}"
    return start(
        net, host, "bot", "--resume", str(next((home / "tables").glob("*-seat?.p2pt"))),
        "--home", str(home), "--json", *extra,
    )  # fmt: skip


def slow_table(
    net: Any, tmp: Path, extra: Sequence[str]
) -> tuple[subprocess.Popen[str], dict[int, subprocess.Popen[str]], Path]:
    """A 3-seat table without a round cap: the host (traced) and bots in lab hosts 1 and 2.

    Bots that think a tenth of a second a move: the game lasts long enough for things to
    happen mid-game a few steps after the table moves on (the host's trace is
    line-buffered: block-buffered, it showed 80 steps at once, and a short game had ended).
    """
    trace = tmp / "host.trace"
    host, invite = open_table(net, tmp, 3, "--round-cap", "0", "--trace", str(trace), *extra)
    slow = ("--agent", "expectimax:think_ms=100")
    return host, {i: bot(net, i, tmp, invite, *slow, *extra) for i in (1, 2)}, trace


def test_two_seats_that_each_leave_and_come_back_finish_one_game_across_namespaces(
    tmp_path: Path,
) -> None:
    """Issue 26, finding 1, across an emulated LAN: the bot in lab host 1 leaves and comes
    back, then the bot in lab host 2 does; the second must find the first where it
    listens now. Before, each side gave up on the other and both saves named a winner."""
    with lab(hosts=3, latency=0.02) as net:
        deadline = time.monotonic() + 150
        quick = ("--timeout", "5", "--leave-timeout", "30")
        host, bots, trace = slow_table(net, tmp_path, quick)
        slow = ("--agent", "expectimax:think_ms=100")
        for leaver in (1, 2):
            wait_for_steps(trace, applied(trace) + 2, [host, *bots.values()], within=60)
            bots[leaver].send_signal(signal.SIGINT)
            _, err = bots[leaver].communicate(timeout=30)
            assert bots[leaver].returncode == 130, err
            bots[leaver] = leave_and_resume(net, leaver, tmp_path, *slow, *quick)
        reports = [finished(p, deadline) for p in (host, *bots.values())]
    same_game(reports, 3)
    said = " ".join(reports[0][2].split())  # what the host told its player
    assert said.count("is back") == 2 and said.count(" left (interrupted)") == 2, said


def test_a_table_announced_in_one_namespace_is_listed_in_another(tmp_path: Path) -> None:
    """`host --announce` broadcasts on the LAN it found; `tables` in another host, on the
    default port, lists the table at the host's address."""
    with lab(hosts=2) as net:
        deadline = time.monotonic() + 60
        listing = net.popen(
            1, [P2PCARDS, "tables", "--json", "--seconds", "4"], stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
        )  # fmt: skip
        time.sleep(0.5)  # let the listener bind before the first beacon
        host, invite = open_table(net, tmp_path, 2, "--round-cap", "20", "--announce")
        out, err = listing.communicate(timeout=30)
        assert listing.returncode == 0, err
        assert "Traceback" not in err, err
        code = Invite.parse(invite)
        tables = json.loads(out)
        assert [(t["game"], t["free"], t["seats"], t["fingerprint"]) for t in tables] == [
            ("rpg-battle", 1, 2, code.fingerprint)
        ]
        assert tables[0]["address"] == f"{net.address(0)}:{code.port}"
        # The table then plays out with a bot from the listing's host.
        reports = [finished(p, deadline) for p in (host, bot(net, 1, tmp_path, invite))]
    same_game(reports, 2)


@pytest.mark.parametrize("split", ["link 1-2 cut", "seat 2 cut off"])
def test_a_split_longer_than_the_leave_timeout_leaves_saves_that_agree(
    tmp_path: Path, split: str
) -> None:
    """Three seats; mid-game one link fails (or one seat is cut off from both others) for
    longer than the leave timeout, then heals. Each side gives up on the other, nobody
    signed a leave: every save that names an outcome names the same one (no seat wins
    alone), nobody is named a cheater, and `p2pcards audit` of the three saves together
    says they tell one history (issue 26)."""
    with lab(hosts=3, latency=0.02) as net:
        deadline = time.monotonic() + 180
        short = ("--timeout", "10", "--leave-timeout", "10")
        host, seated, trace = slow_table(net, tmp_path, short)
        bots = list(seated.values())
        wait_for_steps(trace, 15, [host, *bots], within=60)
        if split == "link 1-2 cut":
            net.cut(1, 2, heal_after=45.0)
        else:
            net.partition({2}, {0, 1}, heal_after=45.0)
        reports = [result(p, deadline) for p in (host, *bots)]
    outcomes = set()
    for code, report, err in reports:
        assert code == 0, err
        assert "Traceback" not in err, err
        assert report["cheaters"] == [], report
        if report["ended"] != "undecided":
            outcomes.add((report["ended"], tuple(report["returns"])))
    assert len(outcomes) <= 1, reports
    assert all(ended in ("abandoned", "undecided") for ended, _ in outcomes), outcomes
    saves = [next((tmp_path / home / "tables").glob("*-seat?.p2pt")) for home in
             ("host", "bot1", "bot2")]  # fmt: skip
    together = subprocess.run(
        [P2PCARDS, "audit", *map(str, saves)], capture_output=True, text=True, env=ENV
    )
    assert together.returncode == 0, together.stdout + together.stderr
    assert "tell one history" in together.stdout, together.stdout
