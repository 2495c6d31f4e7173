"""Players who leave a LAN table, and saved tables checked from their signed evidence."""

import asyncio
import gc
import signal
import subprocess
import sys
import time
from pathlib import Path

from lan_helpers import ENV, P2PCARDS, bot, open_table, result, start

from protocol.net import LeaveTable, settle_tasks
from protocol.wire import FrameDecoder, encode_frame

ANSWERS = "2\n1\n" * 3000  # a person who always takes a middle option


def quitting_person(tmp: Path, invite: str) -> tuple[int, str, str]:
    """A person who drafts, makes one move, then types q."""
    person = start("join", invite, "--home", str(tmp / "person"), stdin=True)
    # The draft and one move: a game cannot end so soon, so it is left unfinished.
    out, err = person.communicate("2\n1\nq\n", timeout=60)
    return person.returncode, out, err


def test_a_player_who_quits_is_waited_for_then_forfeits(tmp_path: Path) -> None:
    host, invite = open_table(tmp_path, 2, "--leave-timeout", "3")
    code, _, err = quitting_person(tmp_path, invite)
    assert code == 130, err  # left unfinished: interrupted (docs/cli.md)
    assert "You left the table" in err and "join --resume" in err and "--home" in err
    code, report, said = result(host, timeout=60)
    assert code == 0, said
    assert report["ended"] == "forfeit" and report["winners"] == [0]
    assert report["cheaters"] == []
    assert [(f["seat"], f["kind"]) for f in report["faults"]] == [(1, "left")]  # type: ignore[index, union-attr]
    assert "seat 1 (player) left (quit); waiting 3 s" in " ".join(said.split())


def test_a_player_who_quits_can_come_back_before_the_timeout(tmp_path: Path) -> None:
    host, invite = open_table(tmp_path, 2, "--leave-timeout", "60")
    code, _, err = quitting_person(tmp_path, invite)
    assert code == 130, err  # left unfinished: interrupted (docs/cli.md)
    saved = next((tmp_path / "person" / "tables").glob("*.p2pt"))
    back = start("join", "--resume", str(saved), "--home", str(tmp_path / "person"), stdin=True)
    out, err = back.communicate(ANSWERS, timeout=120)
    assert back.returncode == 0, err
    assert "Back at seat 1" in out and "Game over" in out
    code, report, said = result(host, timeout=60)
    assert code == 0, said
    assert report["ended"] == "finished" and report["audit"] == "passed"
    assert "is back" in said
    resumed = next(p for p in saved.parent.glob("*resumed*.p2pt"))
    again = start("join", "--resume", str(resumed), "--home", str(tmp_path / "person"))
    _, err = again.communicate(timeout=30)
    assert again.returncode == 2 and "that game is over" in err and "Traceback" not in err


def audit(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([P2PCARDS, "audit", str(path)], capture_output=True, text=True, env=ENV)


def test_an_unfinished_game_is_audited_as_unfinished_not_as_cheating(tmp_path: Path) -> None:
    host, invite = open_table(tmp_path, 2, "--leave-timeout", "2")
    quitting_person(tmp_path, invite)
    result(host, timeout=60)
    saved = next((tmp_path / "person" / "tables").glob("*.p2pt"))
    checked = audit(saved)
    assert checked.returncode == 0, checked.stderr
    assert "Unfinished" in checked.stdout and "cheat" not in checked.stdout


def test_a_save_file_stripped_of_evidence_fails_its_audit_saying_what_is_missing(
    tmp_path: Path,
) -> None:
    """The audit used to re-derive the game from unsigned frames: a copy with 70 key and
    shuffle frames removed still passed. Now only signed messages count."""
    host, invite = open_table(tmp_path, 2)
    assert result(bot(tmp_path, invite, 1))[0] == 0
    assert result(host)[0] == 0
    saved = next((tmp_path / "host" / "tables").glob("*.p2pt"))
    assert audit(saved).returncode == 0
    frames = FrameDecoder().feed(saved.read_bytes())
    envelopes = [i for i, f in enumerate(frames) if f["kind"] == "env" and f["seat"] == 1]
    kept = [f for i, f in enumerate(frames) if i not in envelopes[-20:]]  # seat 1's last 20
    stripped = tmp_path / "stripped.p2pt"
    stripped.write_bytes(b"".join(encode_frame(f) for f in kept))
    checked = audit(stripped)
    assert checked.returncode == 1 and "Traceback" not in checked.stderr
    said = " ".join((checked.stdout + checked.stderr).split())
    assert "vidence" in said and "missing" in said
    assert "waiting for messages of seat 1" in said


def test_ctrl_c_leaves_with_a_signed_message_and_a_way_back(tmp_path: Path) -> None:
    host, invite = open_table(tmp_path, 2, "--leave-timeout", "3")
    person = start("join", invite, "--home", str(tmp_path / "person"), stdin=True)
    assert person.stdin is not None and person.stdout is not None
    person.stdin.write("2\n1\n2\n1\n")
    person.stdin.flush()
    for line in person.stdout:  # wait until the game is under way
        if "choice" in line:
            break
    time.sleep(0.5)
    person.send_signal(signal.SIGINT)
    _, err = person.communicate(timeout=30)
    assert person.returncode == 130, err
    assert "You left the table" in err and "join --resume" in err and "Traceback" not in err
    assert "lost its connection" not in err  # the host closing on our leave is no news to us
    code, report, said = result(host, timeout=60)
    assert code == 0 and report["ended"] == "forfeit", said
    assert "seat 1 (player) left" in " ".join(said.split())


def test_a_bot_that_crashes_leaves_and_the_table_ends_without_it(tmp_path: Path) -> None:
    host, invite = open_table(tmp_path, 2, "--leave-timeout", "3")
    crashing = bot(tmp_path, invite, 1, "--cmd", f"{sys.executable} -c 'import sys; sys.exit(3)'")
    code, _, err = result(crashing, timeout=60)
    assert code == 1 and "its agent failed" in err and "Traceback" not in err, err
    code, report, said = result(host, timeout=60)
    assert code == 0 and report["ended"] == "forfeit" and report["winners"] == [0], said
    assert "its agent failed" in said


def test_a_decision_that_ends_while_the_seat_leaves_is_not_printed_as_an_error() -> None:
    """Ctrl-C, then the terminal closes the person's input: the pending decision raises
    LeaveTable that nobody reads, before it is cancelled or even after (wait_for returns a
    line that came with the cancel). Seen in CI under load as a traceback after "You left
    the table"; settle_tasks takes the outcome either way."""

    async def decide_then_close_input() -> None:
        raise LeaveTable("closed its input")

    async def decide_through_the_cancel() -> None:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            raise LeaveTable("closed its input") from None

    async def scenario(settle: bool) -> list[str]:
        loop = asyncio.get_running_loop()
        reported: list[str] = []
        loop.set_exception_handler(lambda _, context: reported.append(context["message"]))
        ended = asyncio.ensure_future(decide_then_close_input())
        ending = asyncio.ensure_future(decide_through_the_cancel())
        waiting = asyncio.ensure_future(asyncio.sleep(60))
        await asyncio.sleep(0.01)  # the drain of the links: the first decision ends meanwhile
        if settle:
            settle_tasks(ended, ending, waiting, None)
        else:
            ending.cancel()
            waiting.cancel()
        await asyncio.sleep(0.01)
        assert waiting.cancelled() and ending.done() and not ending.cancelled()
        del ended, ending
        gc.collect()
        await asyncio.sleep(0)
        return reported

    never = "Task exception was never retrieved"
    assert asyncio.run(scenario(settle=False)) == [never, never]
    assert asyncio.run(scenario(settle=True)) == []
