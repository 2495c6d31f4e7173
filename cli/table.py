"""`p2pcards host`, `join` and `bot`: sitting at a table of peers on the LAN."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import subprocess
import sys
import tempfile
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer
from rich.console import Console
from rich.table import Table

from ai.agents import make_agent
from ai.errors import AgentSpecError
from cli.errors import FAILURE, err, fail
from cli.options import GameOptionsOpt, game_options
from cli.play import Quit, answer_to, prompt_line, show_choices
from cli.views import view_for
from p2pcards import games
from p2pcards.engine import Action, State
from p2pcards.errors import P2PCardsError, UnknownGameError
from protocol.discovery import DEFAULT_TARGET, Beacon, parse_target
from protocol.discovery import announce as announce_table
from protocol.discovery import listen as listen_for_tables
from protocol.errors import LocalProtocolError, ProtocolError
from protocol.identity import Identity, default_home
from protocol.invite import Invite, InviteError
from protocol.net import Decide, HostedTable, LocalSeat, Node
from protocol.savefile import SavedTable, SaveFileError
from protocol.savefile import load as load_saved
from protocol.table_peer import DesyncError, TableOutcome

out = Console(highlight=False)

HomeOpt = Annotated[
    Path | None,
    typer.Option(help="Directory for this player's identity key (default: config dir)."),
]
NameOpt = Annotated[str | None, typer.Option(help="Your name at the table.")]
AgentOpt = Annotated[
    str | None,
    typer.Option(help="Let an AI play this seat (e.g. greedy); default: you, in the terminal."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as one JSON line.")]
TimeoutOpt = Annotated[float, typer.Option(help="Seconds of silence before a peer is reported.")]
TraceOpt = Annotated[
    Path | None,
    typer.Option(help="Append when this seat acts and applies each step to FILE (JSON lines)."),
]


def _identity(home: Path | None) -> tuple[Identity, Path]:
    directory = home or default_home()
    try:
        return Identity.load_or_create(directory), directory
    except (LocalProtocolError, OSError) as exc:
        raise fail(f"cannot use identity in {directory}: {exc}", FAILURE) from None


TEST_SEED_VARIABLE = "P2PCARDS_INSECURE_TEST_SEED"


def _test_seed() -> int | None:
    """The seed for reproducible shuffles, from the environment, for tests only."""
    value = os.environ.get(TEST_SEED_VARIABLE)
    if value is None:
        return None
    if not value.isdigit():
        raise fail(f"{TEST_SEED_VARIABLE} must be a number")
    err.print(
        f"[bold red]INSECURE:[/] {TEST_SEED_VARIABLE} is set: this seat shuffles from a seed, "
        "for tests. Anyone who knows it knows the cards."
    )
    return int(value)


def _decider(spec: str | None, seed: int) -> tuple[Decide, Callable[[State, Action], None] | None]:
    """How this seat decides (an agent, or the person at this terminal), and what watches
    the moves (the person's log)."""
    if spec is not None:
        try:
            agent = make_agent(spec, seed)
        except AgentSpecError as exc:
            raise fail(str(exc)) from None

        async def by_agent(observation: State) -> Action:
            return agent.act(observation)

        return by_agent, None

    terminal = Terminal()
    return terminal.decide, terminal.watch


REACT_SECONDS = 30.0


class Terminal:
    """The person at this terminal: one thread reads stdin for the whole game, so a
    question can time out (a reaction) without leaving a reader behind."""

    def __init__(self) -> None:
        self.log: deque[str] = deque(maxlen=8)
        self._lines: asyncio.Queue[str | None] | None = None

    def watch(self, before: State, action: Action) -> None:
        """Log each move as this seat may see it."""
        line = view_for(before.game.name).describe_move(before, action, before.viewer)
        if line:
            self.log.append(line)

    def _start(self) -> asyncio.Queue[str | None]:
        loop = asyncio.get_running_loop()
        lines: asyncio.Queue[str | None] = asyncio.Queue()

        def read() -> None:
            for line in sys.stdin:
                loop.call_soon_threadsafe(lines.put_nowait, line)
            loop.call_soon_threadsafe(lines.put_nowait, None)

        threading.Thread(target=read, daemon=True).start()
        return lines

    async def decide(self, obs: State) -> Action:
        """Ask until an answer picks a legal action; an unanswered reaction takes the hit."""
        if self._lines is None:
            self._lines = self._start()
        if len(obs.legal_actions()) == 1:
            return obs.legal_actions()[0]
        view = view_for(obs.game.name)
        you = obs.current_player()
        actions = show_choices(obs, view, out, self.log, you)
        decline = next((a for a in actions if a.kind == "pass"), actions[0])
        loop = asyncio.get_running_loop()
        timed = view.is_reaction(obs)
        deadline = loop.time() + REACT_SECONDS if timed else None
        if timed:
            out.print(f"You have {REACT_SECONDS:.0f} s to answer; then you take the hit.")
        while True:
            out.print(prompt_line(actions), end="")
            line = await self._next_line(deadline)
            if line is TIMEOUT:
                out.print("\nTime's up: you take the hit.")
                return decline
            if line is None:
                raise Quit
            action = answer_to(str(line), actions, obs, view, out, self.log, you)
            if action is not None:
                return action

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
    winners = [s for s, r in enumerate(outcome.returns) if r > 0]
    clean = not outcome.faults
    if as_json:
        print(
            json.dumps(
                {
                    "seat": seat,
                    "returns": outcome.returns,
                    "winners": winners,
                    "digest": outcome.digest,
                    "audit": "passed" if clean else [str(f) for f in outcome.faults],
                }
            ),
            flush=True,
        )
    else:
        names = ", ".join("you" if s == seat else f"seat {s}" for s in winners)
        out.print(f"[bold]Game over.[/] Winner: {names}.")
        if clean:
            out.print("Audit passed: every seat's shuffles and keys check out.")
        else:
            out.print("[bold red]Audit found cheating:[/]")
            for fault in outcome.faults:
                out.print(f"  {fault}")
    return 0 if clean else FAILURE


async def _run_table(
    node: Node, timeout: float, quiet: bool = False, rejoin: bool = False
) -> TableOutcome:
    """Mesh, play and audit, saving the signed transcript under the seat's home as it goes."""
    try:
        if node.table is None:
            node.prepare()
        await node.connect_mesh(rejoin=rejoin)
        assert node.roster is not None
        path = node.me.home / "tables" / f"{node.roster.table_id.hex()}-seat{node.seat}.p2pt"
        if rejoin:  # keep the file we resumed from until the new one has it all
            path = path.with_name(path.stem + "-resumed.p2pt")
        path.parent.mkdir(parents=True, exist_ok=True)
        _SAVING.append(path)
        path.touch(mode=0o600)  # the transcript holds sealed messages: ours to share, or not
        with path.open("wb") as save:
            try:
                outcome = await node.play(silence=timeout, save=save)
            except DesyncError as exc:
                assert node.table is not None
                report = path.with_name(path.stem + "-desync.json")
                report.write_text(json.dumps(node.table.desync_report(exc), indent=2))
                raise fail(f"{exc}. The table stops; desync report: {report}", FAILURE) from None
        if not quiet:
            err.print(f"Saved the signed transcript to {path} (check it: p2pcards audit FILE).")
        return outcome
    finally:
        await node.close()


def host(
    game: Annotated[str, typer.Argument(help="Game name (see `p2pcards games`).")],
    seats: Annotated[int, typer.Option(help="Seats at the table, yours included.")] = 2,
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free port).")] = 7777,
    bind: Annotated[str, typer.Option(help="Address to listen on.")] = "0.0.0.0",
    advertise: Annotated[
        str, typer.Option(help="Address others reach this machine at (goes in the invite code).")
    ] = "127.0.0.1",
    name: NameOpt = None,
    ai: Annotated[
        int, typer.Option(help="Fill this many seats with AI peers (separate processes).")
    ] = 0,
    ai_agent: Annotated[str, typer.Option(help="Agent for the --ai seats.")] = "expectimax",
    agent: AgentOpt = None,
    round_cap: Annotated[int | None, typer.Option(help="End after this many rounds.")] = None,
    home: HomeOpt = None,
    timeout: TimeoutOpt = 60.0,
    as_json: JsonOpt = False,
    trace: TraceOpt = None,
    announce: Annotated[
        bool, typer.Option(help="Announce the table on the LAN (UDP broadcast) while it waits.")
    ] = False,
    beacon: Annotated[
        str | None,
        typer.Option(help="Send the announcements to ADDR:PORT instead (implies --announce)."),
    ] = None,
    option: GameOptionsOpt = None,
) -> None:
    """Open a table and print its invite code; play when every seat is taken."""
    try:
        g = games.load(game)
        g.check_num_players(seats)
    except (UnknownGameError, P2PCardsError) as exc:
        raise fail(str(exc)) from None
    capped = {} if round_cap is None else {"round_cap": round_cap}
    options = {**capped, **game_options(g, seats, option, **capped)}
    if not 0 <= ai < seats:
        raise fail(f"--ai must leave at least the host's seat: 0 to {seats - 1}")
    target: tuple[str, int] | None = None
    if beacon is not None or announce:
        try:
            target = parse_target(beacon) if beacon is not None else DEFAULT_TARGET
        except ValueError as exc:
            raise fail(str(exc)) from None
    identity, directory = _identity(home)
    decide, watch = _decider(agent, 0)
    seat = LocalSeat(
        identity, name or "host", decide, directory, watch=watch, test_seed=_test_seed()
    )
    plan = HostPlan(
        g.name, seats, options, bind, port, advertise, ai, ai_agent, timeout, as_json, target
    )
    with _trace_file(trace) as trace_out:
        code = _leave_cleanly(lambda: asyncio.run(_host(plan, seat, trace_out)))
    raise typer.Exit(code)


@dataclass(frozen=True)
class HostPlan:
    """Everything `host` was asked for, checked."""

    game: str
    seats: int
    options: dict[str, Any]
    bind: str
    port: int
    advertise: str
    ai: int
    ai_agent: str
    timeout: float
    as_json: bool
    beacon: tuple[str, int] | None


async def _host(plan: HostPlan, seat: LocalSeat, trace: TextIO | None) -> int:
    node = Node(seat, plan.bind, plan.port, trace)
    try:
        await node.listen()
    except OSError as exc:
        raise fail(f"cannot listen on {plan.bind}:{plan.port}: {exc}", FAILURE) from None
    game, seats = plan.game, plan.seats
    invite = node.host(HostedTable(game, seats, plan.options), plan.advertise)
    if plan.as_json:
        print(json.dumps({"invite": str(invite)}), flush=True)
    else:
        out.print(f"Table open for {game}, {seats} seats. Invite code:\n\n  [bold]{invite}[/]\n")
        out.print(f"Your fingerprint: {seat.identity.fingerprint}. Waiting for players…")
    bots = [_start_bot(invite, plan.ai_agent, i) for i in range(plan.ai)]
    beacons = None
    if plan.beacon is not None:
        code = seat.identity.fingerprint

        def current() -> Beacon:
            return Beacon(game, seats, node.free_seats(), code, node.port, seat.name)

        beacons = asyncio.get_running_loop().create_task(announce_table(current, plan.beacon))
    try:
        await node.wait_for_seats()
        if beacons is not None:
            beacons.cancel()
        outcome = await _run_table(node, plan.timeout)
    except ProtocolError as exc:
        raise fail(str(exc), FAILURE) from None
    finally:
        for bot in bots:
            try:
                bot.wait(timeout=30)
            except subprocess.TimeoutExpired:
                bot.kill()
    return _report(outcome, 0, plan.as_json)


def _start_bot(invite: Invite, agent: str, index: int) -> subprocess.Popen[bytes]:
    """An AI peer as its own process, with its own identity."""
    home = Path(tempfile.mkdtemp(prefix=f"p2pcards-ai{index}-"))
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cli",
            "bot",
            str(invite),
            "--agent",
            agent,
            "--home",
            str(home),
            "--name",
            f"AI {index + 1}",
            "--quiet",
        ],
        stdout=subprocess.DEVNULL,
    )


ResumeOpt = Annotated[
    Path | None,
    typer.Option(help="Take your seat again after a crash, from the save file it left."),
]


def join(
    code: Annotated[str | None, typer.Argument(help="The invite code the host printed.")] = None,
    name: NameOpt = None,
    agent: AgentOpt = None,
    home: HomeOpt = None,
    bind: Annotated[
        str, typer.Option(help="Address to listen on for the other seats.")
    ] = "0.0.0.0",
    timeout: TimeoutOpt = 60.0,
    as_json: JsonOpt = False,
    quiet: Annotated[bool, typer.Option(help="Print nothing but errors.")] = False,
    trace: TraceOpt = None,
    resume: ResumeOpt = None,
) -> None:
    """Take a seat at a table with its invite code (or again, with --resume FILE)."""
    target: Invite | SavedTable
    if resume is not None:
        try:
            target = load_saved(resume, tolerate_cut=True)
        except SaveFileError as exc:
            raise fail(str(exc)) from None
    elif code is None:
        raise fail("give the invite code, or --resume FILE to take your seat again")
    else:
        try:
            target = Invite.parse(code)
        except InviteError as exc:
            raise fail(str(exc)) from None
    identity, directory = _identity(home)
    decide, watch = _decider(agent, 1)
    seat = LocalSeat(
        identity, name or "player", decide, directory, watch=watch, test_seed=_test_seed()
    )
    with _trace_file(trace) as trace_out:
        code_ = _leave_cleanly(
            lambda: asyncio.run(_join(target, seat, bind, timeout, as_json, quiet, trace_out))
        )
    raise typer.Exit(code_)


def bot(
    code: Annotated[str | None, typer.Argument(help="The invite code the host printed.")] = None,
    agent: Annotated[str, typer.Option(help="Agent that plays the seat.")] = "greedy",
    cmd: Annotated[
        str | None,
        typer.Option(help='A program speaking the bot protocol plays the seat: "node mybot.js".'),
    ] = None,
    script: Annotated[
        str | None,
        typer.Option(help="A Python file defining choose(state, actions) plays the seat."),
    ] = None,
    name: NameOpt = None,
    home: HomeOpt = None,
    bind: Annotated[
        str, typer.Option(help="Address to listen on for the other seats.")
    ] = "0.0.0.0",
    timeout: TimeoutOpt = 60.0,
    as_json: JsonOpt = False,
    quiet: Annotated[bool, typer.Option(help="Print nothing but errors.")] = False,
    trace: TraceOpt = None,
    resume: ResumeOpt = None,
) -> None:
    """Fill a seat at a table with an AI or a bot (or take it again, with --resume FILE)."""
    if cmd is not None and script is not None:
        raise fail("give --cmd or --script, not both")
    spec = f"cmd:{cmd}" if cmd is not None else f"script:{script}" if script is not None else agent
    join(code, name or spec, spec, home, bind, timeout, as_json, quiet, trace, resume)


async def _join(
    target: Invite | SavedTable, seat: LocalSeat, bind: str, timeout: float, as_json: bool,
    quiet: bool, trace: TextIO | None,
) -> int:  # fmt: skip
    node = Node(seat, bind, 0, trace)
    try:
        await node.listen()
        rejoin = isinstance(target, SavedTable)
        if isinstance(target, SavedTable):
            steps = len(node.resume_from(target).steps)
            message = f"Back at seat {node.seat}, {steps} steps into the game."
        else:
            await node.join(target)
            message = f"Seated at seat {node.seat}."
        if not quiet and not as_json:
            out.print(f"{message} Connecting to the other players…")
        outcome = await _run_table(node, timeout, quiet, rejoin)
    except ProtocolError as exc:
        raise fail(str(exc), FAILURE) from None
    except (OSError, TimeoutError) as exc:
        raise fail(f"network error: {exc}", FAILURE) from None
    except Quit:
        out.print("You left the table.")
        return 0
    if quiet and not as_json:
        return 0 if not outcome.faults else FAILURE
    return _report(outcome, node.seat, as_json)


_SAVING: list[Path] = []  # the save file of the table being played, once it is known


def _leave_cleanly(run: Callable[[], int]) -> int:
    """Run a table; on Ctrl-C, leave without a traceback and say how to come back."""
    try:
        return run()
    except KeyboardInterrupt:
        if _SAVING:
            err.print(
                f"\nYou left the table. Take your seat again with:\n"
                f"  p2pcards join --resume {_SAVING[-1]}"
            )
        else:
            err.print("\nYou left before the game began.")
        return 130


@contextlib.contextmanager
def _trace_file(path: Path | None) -> Iterator[TextIO | None]:
    if path is None:
        yield None
        return
    try:
        with path.open("a", encoding="utf-8") as handle:
            yield handle
    except OSError as exc:
        raise fail(f"cannot write the trace file {path}: {exc}", FAILURE) from None


def tables(
    listen: Annotated[
        str, typer.Option(help="ADDR:PORT to listen for announcements on.")
    ] = f"0.0.0.0:{DEFAULT_TARGET[1]}",
    seconds: Annotated[float, typer.Option(help="How long to listen.")] = 3.0,
    as_json: JsonOpt = False,
) -> None:
    """List the open tables announcing themselves on the LAN."""
    try:
        address = parse_target(listen)
        heard = listen_for_tables(address, seconds)
    except (ValueError, OSError) as exc:
        raise fail(f"cannot listen on {listen}: {exc}") from None
    rows = [
        {
            "address": f"{sender}:{b.port}",
            "game": b.game,
            "free": b.free,
            "seats": b.seats,
            "host": b.name,
            "fingerprint": b.fingerprint,
        }
        for (sender, _), b in sorted(heard.items())
    ]
    if as_json:
        print(json.dumps(rows))
        return
    if not rows:
        out.print(f"No open tables heard in {seconds:g} s.")
        return
    table = Table("address", "game", "free seats", "host", "fingerprint")
    for row in rows:
        table.add_row(
            str(row["address"]), str(row["game"]), f"{row['free']}/{row['seats']}",
            str(row["host"]), str(row["fingerprint"]),
        )  # fmt: skip
    out.print(table)
    out.print("Ask the host for the invite code to join.")


def register(app: typer.Typer) -> None:
    """Add the table commands to the application."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    app.command()(host)
    app.command()(join)
    app.command()(bot)
    app.command()(tables)
