"""Sitting at a table of peers on the LAN: who decides for the seat (an agent, or the person at
this terminal), the table played to its end and saved, and how it ended.

The commands (`cli.lan`) import this module when they run: it loads the protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import shutil
import signal
import site
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, TextIO

from rich.console import Console
from rich.markup import escape

from ai.agents import make_agent
from ai.errors import AgentFailure, AgentSpecError
from cli.errors import FAILURE, INTERRUPTED, USAGE, err, fail
from cli.menus import planned
from cli.narration import Narrator
from cli.options import check_range
from cli.play import Quit, answer_to, finish, show_choices
from cli.views import view_for
from cli.wording import Seats
from p2pcards.engine import Action, State
from p2pcards.errors import P2PCardsError
from protocol.discovery import Beacon
from protocol.discovery import announce as announce_table
from protocol.errors import LocalProtocolError, ProtocolError
from protocol.identity import Identity, default_home
from protocol.invite import Invite
from protocol.net import (
    Decide,
    HostedTable,
    JoinRefused,
    LeaveTable,
    LocalSeat,
    Node,
    lan_address,
)
from protocol.roster import MAX_NAME, check_host
from protocol.savefile import SavedTable
from protocol.table_peer import TableOutcome
from protocol.wire import WireError

out = Console(highlight=False)


def load_identity(home: Path | None) -> tuple[Identity, Path]:
    """The player's identity in `home` (the config directory by default), made if new."""
    directory = home or default_home()
    try:
        return Identity.load_or_create(directory), directory
    except (LocalProtocolError, OSError) as exc:
        raise fail(f"cannot use identity in {directory}: {exc}", FAILURE) from None


TEST_SEED_VARIABLE = "P2PCARDS_INSECURE_TEST_SEED"


def insecure_test_seed() -> int | None:
    """The seed for reproducible shuffles, from the environment, for tests only."""
    value = os.environ.get(TEST_SEED_VARIABLE)
    if value is None:
        return None
    if not value.isdecimal() or len(value) > 30:  # '²' is a digit int() refuses
        raise fail(f"{TEST_SEED_VARIABLE} must be a number")
    err.print(
        f"[bold red]INSECURE:[/] {TEST_SEED_VARIABLE} is set: this seat shuffles from a seed, "
        "for tests. Anyone who knows it knows the cards."
    )
    return int(value)


class Seating(NamedTuple):
    """How a seat decides, what watches each step, and what is told the end."""

    decide: Decide
    watch: Callable[[State, Action], None] | None
    finish: Callable[[State], None] | None = None
    # An agent's watch is shown the steps a resumed seat plays through again (its worlds, a
    # bot's events, are rebuilt from them); a person's log showed them the first time.
    replayed: bool = False


def decider(spec: str | None, seed: int) -> Seating:
    """How this seat decides (an agent, or the person at this terminal), and what watches
    the moves (the person's log)."""
    if spec is not None:
        try:
            agent = make_agent(spec, seed)
        except AgentSpecError as exc:
            raise fail(str(exc)) from None

        async def by_agent(observation: State) -> Action:
            # In a thread: a search must not stall the event loop, which keeps every
            # link read and every heartbeat going while the agent thinks.
            try:
                return await asyncio.to_thread(agent.act, observation)
            except AgentFailure as exc:
                raise LeaveTable(f"its agent failed: {exc}") from None

        close = getattr(agent, "close", None)
        finish = None if close is None else lambda final: close(final)
        watch = getattr(agent, "watch", None)
        if watch is not None:  # a reading agent weighs its worlds by the others' decisions
            from ai.belief import show_step

            return Seating(by_agent, functools.partial(show_step, watch), finish, replayed=True)
        witness = getattr(agent, "witness", None)
        if witness is None:
            return Seating(by_agent, None, finish)

        def tell(before: State, action: Action) -> None:
            # A bot is told each step as this seat saw it (its events since the last question).
            from p2pcards.history import witnessed

            witness(witnessed(before, action, before.viewer))

        return Seating(by_agent, tell, finish, replayed=True)

    terminal = Terminal()
    return Seating(terminal.decide, terminal.watch)


REACT_SECONDS = 30.0


class Terminal:
    """The person at this terminal: one thread reads stdin for the whole game, so a
    question can time out (a reaction) without leaving a reader behind."""

    def __init__(self) -> None:
        self.names: list[str] = []  # the players' names round the table, once seated
        self.narrator: Narrator | None = None
        self._lines: asyncio.Queue[str | None] | None = None
        self._pending: list[Action] = []  # the rest of a choice made ahead (card, target)
        self._deciding = False
        # Called when the person types q while others decide: the seat leaves at once.
        self.on_quit: Callable[[], None] | None = None

    def waiting(self, names: list[str]) -> None:
        """Between the person's prompts: whose decision the table waits for."""
        out.print(f"[dim]waiting for {escape(' and '.join(names))}… (q leaves the table)[/]")

    def listen(self) -> None:
        """Read the person's lines from now on, so that q works while others decide too."""
        if self._lines is None:
            self._lines = self._start()

    def _came(self, line: str | None) -> None:
        """A line typed: an answer for the next prompt (typed ahead), or, while others
        decide, `q` to leave at once."""
        assert self._lines is not None
        quits = line is not None and line.strip().lower() in ("q", "quit")
        if quits and not self._deciding and self.on_quit is not None:
            self.on_quit()
            return
        self._lines.put_nowait(line)

    def watch(self, before: State, action: Action) -> None:
        """Tell each move as this seat may know it."""
        if self.narrator is None:
            seats = Seats(before.viewer, self.names, by_name=True)
            self.narrator = Narrator(view_for(before.game.name), seats)
        try:
            self.narrator.watch(before, action)
        except P2PCardsError as exc:  # the log must never stop the table
            self.narrator.tell([f"(a step this terminal cannot tell: {exc})"])

    def finish(self) -> None:
        """The end of the table: the news since the last decision, the last board, and the
        result if the game reached its end (a table can also stop early)."""
        final = None if self.narrator is None else self.narrator.last
        if self.narrator is not None and final is not None:
            finish(final, self.narrator, out)

    def _start(self) -> asyncio.Queue[str | None]:
        loop = asyncio.get_running_loop()
        lines: asyncio.Queue[str | None] = asyncio.Queue()

        def read() -> None:
            for line in sys.stdin:
                loop.call_soon_threadsafe(self._came, line)
            loop.call_soon_threadsafe(self._came, None)

        threading.Thread(target=read, daemon=True).start()
        return lines

    async def decide(self, obs: State) -> Action:
        """Ask until an answer picks a legal action; an unanswered reaction takes the hit."""
        self.listen()
        self._deciding = True
        try:
            return await self._decide(obs)
        finally:
            self._deciding = False

    async def _decide(self, obs: State) -> Action:
        ahead = planned(self._pending, obs)
        if ahead is not None:
            return ahead
        if len(obs.legal_actions()) == 1:
            return obs.legal_actions()[0]
        view = view_for(obs.game.name)
        if self.narrator is None:  # no step seen yet (a seat resumed at its own move)
            self.narrator = Narrator(view, Seats(obs.current_player(), self.names, by_name=True))
        menu = show_choices(obs, self.narrator, out)
        legal = obs.legal_actions()
        decline = next((a for a in legal if a.kind == "pass"), legal[0])
        loop = asyncio.get_running_loop()
        timed = view.is_reaction(obs)
        deadline = loop.time() + REACT_SECONDS if timed else None
        if timed:
            out.print(f"You have {REACT_SECONDS:.0f} s to answer; then you take the hit.")
        while True:
            out.print(menu.prompt_line(), end="")
            line = await self._next_line(deadline)
            if line is TIMEOUT:
                out.print("\nTime's up: you take the hit.")
                return decline
            if line is None:
                raise LeaveTable("closed its input")
            try:
                plan = answer_to(str(line), menu, obs, self.narrator, out)
            except Quit:
                raise LeaveTable("quit") from None
            if plan is not None:
                self._pending[:] = plan[1:]
                return plan[0]

    async def _next_line(self, deadline: float | None) -> object:
        """The next line typed, None at the end of input, TIMEOUT past `deadline`; on the
        way, the seconds left every ten seconds (the visible countdown)."""
        assert self._lines is not None
        loop = asyncio.get_running_loop()
        while True:
            left = None if deadline is None else deadline - loop.time()
            if left is not None and left <= 0:
                return TIMEOUT
            wait = None if left is None else min(left, 10.0)
            try:
                return await asyncio.wait_for(self._lines.get(), wait)
            except TimeoutError:
                if deadline is not None and deadline - loop.time() > 0.5:
                    out.print(f"\n{deadline - loop.time():.0f} s left… ", end="")


TIMEOUT = object()


def _report(outcome: TableOutcome, seat: int, as_json: bool) -> int:
    """Print how the game ended; the exit code (1 when the table stopped on a fault)."""
    winners = [s for s, r in enumerate(outcome.returns) if r > 0]
    cheated = bool(outcome.cheaters) or outcome.ended == "aborted"
    if as_json:
        print(
            json.dumps(
                {
                    "seat": seat,
                    "ended": outcome.ended,
                    "returns": outcome.returns,
                    "winners": winners,
                    "digest": outcome.digest,
                    "audit": "passed" if not outcome.faults else [str(f) for f in outcome.faults],
                    "cheaters": outcome.cheaters,
                    "faults": [
                        {"seat": f.seat, "step": f.step, "reason": f.reason, "kind": f.kind}
                        for f in outcome.faults
                    ],
                    "notes": outcome.notes,
                }
            ),
            flush=True,
        )
    else:
        names = ", ".join("you" if s == seat else f"seat {s}" for s in winners) or "nobody"
        if outcome.ended == "finished":
            out.print(f"[bold]Game over.[/] Winner: {names}.")
        elif outcome.ended == "forfeit":
            out.print(f"[bold]The table ended without the seats that left.[/] Winner: {names}.")
        elif outcome.ended == "undecided":
            why = next((n for n in outcome.notes if n.startswith("undecided: ")), "")
            out.print(
                "[bold]The table ended without a result you can know:[/] "
                f"{escape(why.removeprefix('undecided: '))}."
            )
        elif outcome.ended == "abandoned":
            out.print(
                "[bold]The table ended without a result:[/] a seat fell silent without "
                "leaving, and nobody can show whether it or the network between you failed."
            )
        else:
            out.print("[bold red]The table stopped on a fault.[/]")
        if not outcome.faults:
            out.print("Audit passed: every seat's shuffles and keys check out.")
        for fault in outcome.faults:
            label = {"cheat": "cheated", "silent": "silent", "left": "left"}[fault.kind]
            out.print(f"  {label}: {escape(str(fault))}")
        for note in outcome.notes:
            if not note.startswith("undecided: "):
                out.print(f"  unchecked: {escape(note)}")
    return FAILURE if cheated else 0


def _save_path(node: Node, rejoin: bool) -> Path:
    assert node.roster is not None
    # Named by the session id: a host that reuses its table id gets a new file all the same.
    name = f"{node.roster.session_id[:16].hex()}-seat{node.seat}.p2pt"
    path = node.me.home / "tables" / name
    if rejoin:  # keep the file we resumed from until the new one has it all
        stem = path.stem
        n = 1
        while path.exists():
            path = path.with_name(f"{stem}-resumed{n}.p2pt")
            n += 1
    return path


async def _run_table(node: Node, plan: SeatPlan, rejoin: bool = False) -> TableOutcome:
    """Mesh, play and audit, saving the signed transcript under the seat's home as it goes."""
    leave = asyncio.Event()
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError, RuntimeError):  # not on every platform
        loop.add_signal_handler(signal.SIGINT, leave.set)
    if not plan.quiet:
        node.say = lambda line: err.print(escape(line))
    try:
        if node.table is None:
            node.prepare()
        terminal = getattr(node.me.watch, "__self__", None)  # the person here, if any
        if isinstance(terminal, Terminal) and node.roster is not None:
            terminal.names[:] = [member.name for member in node.roster.members]

            def quit_now() -> None:
                node.leave_reason = "quit"
                leave.set()

            terminal.on_quit = quit_now
            node.me.waiting = terminal.waiting
            terminal.listen()
        await node.connect_mesh(rejoin=rejoin)
        path = _save_path(node, rejoin)
        path.parent.mkdir(parents=True, exist_ok=True)
        _SAVING.append((path, node.me.home))
        path.touch(mode=0o600)  # the transcript holds sealed messages: ours to share, or not
        with path.open("wb") as save:
            outcome = await node.play(
                save=save, silent=plan.timeout, leave_after=plan.leave_timeout, leave=leave
            )
        if outcome.desync is not None and node.table is not None:
            report = path.with_name(path.stem + "-desync.json")
            report.write_text(json.dumps(node.table.desync_report(), indent=2))
            err.print(f"A replica went out of step; the desync report: {report}")
        if isinstance(terminal, Terminal):
            terminal.finish()
        if (
            node.me.finish is not None
            and node.table is not None
            and node.table.replica.is_terminal()
        ):
            # A bot's program is told the result and reaped, off the event loop.
            await asyncio.to_thread(node.me.finish, node.table.replica)
        if not plan.quiet:
            err.print(f"Saved the signed transcript to {path} (check it: p2pcards audit FILE).")
        return outcome
    finally:
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.remove_signal_handler(signal.SIGINT)
        await node.close()


@dataclass(frozen=True)
class SeatPlan:
    """How this seat takes part, checked: timeouts and what to print."""

    timeout: float
    leave_timeout: float
    as_json: bool
    quiet: bool = False


def seat_plan(timeout: float, leave_timeout: float, as_json: bool, quiet: bool) -> SeatPlan:
    """The seat's plan, its timeouts checked."""
    check_range("--timeout", timeout, 1, 3600)
    check_range("--leave-timeout", leave_timeout, 0, 86400)
    return SeatPlan(timeout, leave_timeout, as_json, quiet)


def check_name(name: str) -> str:
    """The name, or a usage error unless it is short and printable."""
    if not name.isprintable() or not 0 < len(name) <= MAX_NAME:
        raise fail(f"--name must be 1 to {MAX_NAME} printable characters")
    return name


def check_address(option: str, address: str) -> str:
    """The address, or a usage error naming the option unless it is an IP address or host."""
    try:
        return check_host(address)
    except WireError:
        raise fail(f"{option} {address[:60]!r} is not an IP address or host name") from None


def advertised_address(bind: str, advertise: str | None) -> str:
    """The address the invite code gives: asked for, the one we listen on, or the LAN's."""
    if advertise is not None:
        return check_address("--advertise", advertise)
    if bind not in ("0.0.0.0", "::", ""):
        return bind
    found = lan_address()
    if found is None:
        err.print(
            "No LAN address found (this machine has only loopback): the invite code works "
            "on this machine only. Give --advertise ADDR for the address friends reach you at."
        )
        return "127.0.0.1"
    return found


@dataclass(frozen=True)
class HostPlan:
    """Everything `host` was asked for, checked."""

    game: str
    seats: int
    options: dict[str, Any]
    bind: str
    port: int
    advertise: str
    ai_seats: int
    ai_agents: tuple[str, ...]  # round the AI seats
    seat: SeatPlan
    beacon: tuple[str, int] | None


async def run_host(plan: HostPlan, seat: LocalSeat, trace: TextIO | None) -> int:
    """Open the table, start its AI seats, play it and report; the exit code."""
    node = Node(seat, plan.bind, plan.port, trace)
    try:
        await node.listen()
    except OSError as exc:
        raise fail(f"cannot listen on {plan.bind}:{plan.port}: {exc.strerror or exc}") from None
    game, seats = plan.game, plan.seats
    invite = node.host(HostedTable(game, seats, plan.options), plan.advertise)
    if plan.seat.as_json:
        print(json.dumps({"invite": str(invite)}), flush=True)
    else:
        out.print(f"Table open for {game}, {seats} seats. Invite code:\n\n  [bold]{invite}[/]\n")
        out.print(f"Your fingerprint: {seat.identity.fingerprint}. Waiting for players…")
    ai = AiSeats.start(seat.home, invite, plan) if plan.ai_seats else None
    beacons = None
    if plan.beacon is not None:
        code = seat.identity.fingerprint

        def current() -> Beacon:
            return Beacon(game, seats, node.free_seats(), code, node.port, seat.name)

        beacons = asyncio.get_running_loop().create_task(announce_table(current, plan.beacon))
    playing = False
    try:
        await _wait_for_seats(node, [] if ai is None else ai.bots)
        if beacons is not None:
            beacons.cancel()
        if ai is not None and node.roster is not None:
            ai.belong_to(node.roster.session_id)
        playing = True
        outcome = await _run_table(node, plan.seat)
    except ProtocolError as exc:
        raise fail(str(exc), FAILURE) from None
    except (LeaveTable, KeyboardInterrupt, asyncio.CancelledError):
        if ai is not None and playing:
            # The AI seats are the host's to come back to: they run on and wait, as every
            # other seat does; `join --resume` finds them (or starts them again).
            _AI_WAITING.append(ai.root)
            ai = None
        raise
    finally:
        if beacons is not None:
            beacons.cancel()
        if ai is not None:
            await asyncio.to_thread(ai.finish, playing)
    return _report(outcome, 0, plan.seat.as_json)


async def _wait_for_seats(node: Node, bots: list[subprocess.Popen[bytes]]) -> None:
    """Wait for the seats to fill; an AI seat that dies before it sits down is an error."""
    waiting = asyncio.ensure_future(node.wait_for_seats())
    try:
        while not waiting.done():
            await asyncio.wait({waiting}, timeout=0.5)
            for bot in bots:
                if bot.poll() is not None and not waiting.done():
                    raise fail(
                        f"an AI seat exited before the table filled (code {bot.returncode})",
                        FAILURE,
                    )
        waiting.result()
    finally:
        waiting.cancel()


AI_SEATS = "ai-seats"  # under the host's home: one folder per table of AI seats
_AI_WAITING: list[Path] = []  # AI seats left running when the host left the table


@dataclass
class AiSeats:
    """The host's AI seats: each its own process with its own home, in a session of its
    own (Ctrl-C at the host's terminal is the host's leave, not theirs), logging to a file
    in its home (never to the person's screen). Their folder lives under the host's home,
    so that a host who leaves finds them again with `join --resume`."""

    root: Path
    bots: list[subprocess.Popen[bytes]]

    @staticmethod
    def start(home: Path, invite: Invite, plan: HostPlan) -> AiSeats:
        """Start every AI seat of the table `invite` opens."""
        parent = home / AI_SEATS
        parent.mkdir(parents=True, exist_ok=True)
        root = Path(tempfile.mkdtemp(prefix="table-", dir=parent))
        bots = []
        for index in range(plan.ai_seats):
            agent = plan.ai_agents[index % len(plan.ai_agents)]
            name = f"AI {index + 1} ({agent.partition(':')[0]})"[:MAX_NAME]
            seat_home = root / f"ai{index + 1}"
            command = ["bot", str(invite), "--agent", agent, "--name", name]
            command += ["--bind", plan.bind, "--timeout", str(plan.seat.timeout)]
            command += ["--leave-timeout", str(plan.seat.leave_timeout)]
            bots.append(_start_ai(seat_home, command))
            (seat_home / "agent").write_text(agent)
        return AiSeats(root, bots)

    def belong_to(self, table_id: bytes) -> None:
        """Mark the folder with the table's id, for a resume of the host to find."""
        (self.root / "table").write_text(table_id.hex())

    @staticmethod
    def resume(home: Path, table_id: bytes, plan: SeatPlan) -> AiSeats | None:
        """The AI seats of a table the host comes back to: those still waiting are left
        to it, those that have ended are started again from their saves."""
        for marker in (home / AI_SEATS).glob("table-*/table"):
            if marker.read_text().strip() != table_id.hex():
                continue
            root, bots = marker.parent, []
            for seat_home in sorted(root.glob("ai*")):
                pid = seat_home / "pid"
                if pid.exists() and _running(int(pid.read_text() or 0), seat_home):
                    continue
                saves = sorted((seat_home / "tables").glob("*.p2pt"), key=_modified)
                if not saves:
                    continue
                agent = (seat_home / "agent").read_text().strip()
                command = ["bot", "--resume", str(saves[-1]), "--agent", agent]
                command += ["--timeout", str(plan.timeout)]
                command += ["--leave-timeout", str(plan.leave_timeout)]
                bots.append(_start_ai(seat_home, command))
            return AiSeats(root, bots)
        return None

    def finish(self, played: bool) -> None:
        """The table is over for the host: let the AI seats end (at once if it never
        began), then remove their folder."""
        for bot in self.bots:
            if not played:
                bot.terminate()
            try:
                bot.wait(timeout=30)
            except subprocess.TimeoutExpired:
                bot.kill()
                bot.wait()
        for pid in self.root.glob("ai*/pid"):  # seats started before a resume of ours
            deadline = time.monotonic() + 30
            while _running(int(pid.read_text() or 0), pid.parent):
                if time.monotonic() > deadline:
                    return  # still playing: its folder stays
                time.sleep(0.2)
        shutil.rmtree(self.root, ignore_errors=True)


# The directory this program's packages were imported from. An AI seat's process must run the
# very code of the table it joins (a joiner whose rules fingerprint differs is refused), so it
# imports from here first, and `-P` keeps the working directory off its path: `-m cli` would
# otherwise run any `cli` package the player happens to stand in.
_SOURCE_ROOT = str(Path(__file__).resolve().parent.parent)


def _ai_environment() -> dict[str, str]:
    """An AI seat's environment: ours, with our source root first on its path, unless that
    is a site-packages directory (p2pcards installed), which is on the path already and would
    otherwise come before the standard library."""
    env = dict(os.environ)
    if _SOURCE_ROOT not in {str(Path(p).resolve()) for p in site.getsitepackages()}:
        path = env.get("PYTHONPATH")
        env["PYTHONPATH"] = os.pathsep.join([_SOURCE_ROOT, *([path] if path else [])])
    return env


def _start_ai(home: Path, args: list[str]) -> subprocess.Popen[bytes]:
    home.mkdir(parents=True, exist_ok=True)
    env = _ai_environment()
    with (home / "log.txt").open("ab") as log:
        bot = subprocess.Popen(
            [sys.executable, "-P", "-m", "cli", *args, "--home", str(home), "--quiet"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
            start_new_session=True, env=env,
        )  # fmt: skip
    (home / "pid").write_text(str(bot.pid))
    return bot


def _running(pid: int, home: Path) -> bool:
    """Whether `pid` is still an AI seat playing from `home` (not a pid since reused)."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return pid > 0 and str(home).encode() in command and b"\0-m\0cli\0bot" in command


def _modified(path: Path) -> float:
    return path.stat().st_mtime


async def run_join(
    target: Invite | SavedTable, seat: LocalSeat, bind: str, plan: SeatPlan,
    trace: TextIO | None,
) -> int:  # fmt: skip
    """Take the seat (a new one from an invite, or ours again from a save file), play the
    table and report; the exit code."""
    # A seat coming back listens where it did (any free port if that one is taken): a
    # seat that resumes after it and has not heard of its return dials it there.
    saved = target if isinstance(target, SavedTable) else None
    port = 0 if saved is None else saved.roster.members[saved.seat].port
    node = Node(seat, bind, port, trace)
    ai: AiSeats | None = None
    leaving = False
    try:
        await node.listen(or_any_port=True)
    except OSError as exc:
        raise fail(f"cannot listen on {bind}: {exc.strerror or exc}") from None
    try:
        rejoin = saved is not None
        if isinstance(target, SavedTable):
            table = node.resume_from(target)
            if table.finished:
                raise fail("that game is over: nothing to resume", USAGE)
            ai = AiSeats.resume(seat.home, target.table_id, plan)
            message = f"Back at seat {node.seat}, {len(table.steps)} steps into the game."
        else:
            await node.join(target)
            message = f"Seated at seat {node.seat}."
        if not plan.quiet and not plan.as_json:
            out.print(f"{message} Connecting to the other players…")
        outcome = await _run_table(node, plan, rejoin)
    except JoinRefused as exc:
        raise fail(str(exc), USAGE if exc.bad_input else FAILURE) from None
    except ProtocolError as exc:
        raise fail(str(exc), FAILURE) from None
    except (OSError, TimeoutError) as exc:
        raise fail(f"network error: {str(exc) or type(exc).__name__}", FAILURE) from None
    except (LeaveTable, KeyboardInterrupt, asyncio.CancelledError):
        leaving = True
        if ai is not None:
            _AI_WAITING.append(ai.root)  # they wait for the host again
        raise
    finally:
        await node.close()
        if ai is not None and not leaving:
            await asyncio.to_thread(ai.finish, True)
    if plan.quiet and not plan.as_json:
        return FAILURE if outcome.cheaters or outcome.ended == "aborted" else 0
    return _report(outcome, node.seat, plan.as_json)


_SAVING: list[tuple[Path, Path]] = []  # the table being played: its save file and home


def leave_cleanly(run: Callable[[], int]) -> int:
    """Run a table; when this seat leaves (q, end of input, Ctrl-C, a failing agent),
    say how to come back, without a traceback."""
    try:
        return run()
    except (LeaveTable, KeyboardInterrupt) as exc:
        if _SAVING:
            path, home = _SAVING[-1]
            why = "" if not str(exc) else f" ({escape(str(exc))})"
            ai = (
                f" Your AI seats wait too, in the background (their logs: {_AI_WAITING[-1]})."
                if _AI_WAITING
                else ""
            )
            err.print(
                f"\nYou left the table{why}; the others wait for you.{ai} Take your seat "
                f"again with:\n"
                f"  p2pcards join --resume {escape(str(path))} --home {escape(str(home))}"
            )
        else:
            err.print("\nYou left before the game began.")
        if isinstance(exc, LeaveTable) and exc.reason.startswith("its agent failed"):
            return FAILURE
        return INTERRUPTED  # the game goes on without us: not done (docs/cli.md)


@contextlib.contextmanager
def trace_file(path: Path | None) -> Iterator[TextIO | None]:
    """The trace file opened for appending, or None without one."""
    if path is None:
        yield None
        return
    try:
        # Line-buffered: a trace is read while the table plays (a test waits for a step, a
        # person tails it); block-buffered, it showed 80 steps at a time, none in between.
        with path.open("a", encoding="utf-8", buffering=1) as handle:
            yield handle
    except OSError as exc:
        raise fail(f"cannot write the trace file {path!s}: {exc.strerror}", FAILURE) from None
