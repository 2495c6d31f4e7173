"""Bot protocol v2 with real programs in Python: the handshake, options, isready, newgame,
the events and time with each question, one process for many games, and version 1 bots
that know nothing of it (docs/bot-protocol.md)."""

import json
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from ai.agents import make_agent
from ai.bots import (
    CommandBot,
    parse_hello,
    split_command,
)
from ai.errors import AgentIllegalAction, AgentSpecError
from ai.match import play_match
from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.engine import State
from p2pcards.history import witnessed

# A botkit bot that writes every message it is sent, and its pid, to the file named by
# its first argument: what the harness said, line by line.
RECORDER = """
import json, os, sys
from ai.botkit import Bot, Option, run

class Recorder(Bot):
    name, author, version = "recorder", "tests", "0.1"
    options = (Option("pick", "first", values=("first", "last")), Option("depth", 2, min=1,
               max=5), Option("careful", False), Option("bias", 0.5, min=0.0, max=1.0))

    def choose(self, question):
        return 0 if self.settings["pick"] == "first" else len(question.actions) - 1

class Tee:
    def __init__(self, path):
        self.out = open(path, "a")
    def __iter__(self):
        for line in sys.stdin:
            self.out.write(json.dumps({"pid": os.getpid(), "got": json.loads(line)}) + "\\n")
            self.out.flush()
            yield line

run(Recorder(), stdin=Tee(sys.argv[1]))
"""


def program(tmp: Path, name: str, source: str) -> str:
    """A command running `source` with this Python."""
    path = tmp / f"{name}.py"
    path.write_text(textwrap.dedent(source))
    return f"{sys.executable} {path}"


def recorder(tmp: Path, options: str = "") -> tuple[str, Path]:
    """The spec of a recording bot, and the file it records to."""
    log = tmp / "said.jsonl"
    return f'cmd:"{program(tmp, "recorder", RECORDER)} {log}"{options}', log


def said(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def said_until_result(log: Path, timeout: float = 20.0) -> list[dict[str, Any]]:
    """What the bot recorded, once it has recorded the result: a v2 bot is kept alive after
    its game, so the game's end does not wait for it to read its last message (on a loaded
    machine it may not have yet)."""
    deadline = time.monotonic() + timeout
    while True:
        lines = said(log)
        if (lines and lines[-1]["got"]["type"] == "result") or time.monotonic() > deadline:
            return lines
        time.sleep(0.05)


def test_a_v2_bot_is_greeted_set_up_and_told_each_step_as_its_seat_saw_it(tmp_path: Path) -> None:
    spec, log = recorder(tmp_path, ":pick=last:depth=4:careful=yes:bias=0.25")
    result = play_match("getgem", [spec, "random"], 3, move_timeout=5, record=True)
    assert result.status == "ok", result.error
    lines = said_until_result(log)
    kinds = [line["got"]["type"] for line in lines]
    # The process that checked the spec's options when the spec was read played the game.
    assert kinds[0] == "hello" and kinds.count("hello") == 1 and kinds[-1] == "result"
    assert len({line["pid"] for line in lines}) == 1
    sets = {line["got"]["name"]: line["got"]["value"] for line in lines
            if line["got"]["type"] == "setoption"}  # fmt: skip
    assert sets == {"pick": "last", "depth": 4, "careful": True, "bias": 0.25}
    assert kinds.index("newgame") < kinds.index("isready") < kinds.index("observe")
    observes = [line["got"] for line in lines if line["got"]["type"] == "observe"]
    assert all(o["time_ms"] == 5000 and o["protocol"] == 2 for o in observes)
    events = [e for o in observes for e in o["events"]] + lines[-1]["got"]["events"]
    # Every step, each once, as seat 0 saw it: replayed from the game's full record.
    state = games.load("getgem").new_initial_state(2)
    seen = []
    for step in result.actions:
        seen.append(witnessed(state, step.action, 0).to_json())
        state.apply_action(step.action)
    assert events == seen and len(events) == result.steps
    dealt_elsewhere = [e for e in events if e["action"]["kind"] == "deal" and e["to"] == 1]
    assert dealt_elsewhere and all(e["action"]["card"] is None for e in dealt_elsewhere)


def test_one_process_plays_game_after_game_each_opened_by_newgame(tmp_path: Path) -> None:
    spec, log = recorder(tmp_path)
    for seed in (1, 2, 3):
        assert play_match("rpg-battle", [spec, "random"], seed).status == "ok"
    lines = said(log)
    assert len({line["pid"] for line in lines}) == 1
    assert [line["got"]["type"] for line in lines].count("hello") == 1
    newgames = [line["got"] for line in lines if line["got"]["type"] == "newgame"]
    assert [n["seed"] for n in newgames] == [1000, 2000, 3000]
    assert all(n["game"] == "rpg-battle" and n["seats"] == 2 and n["seat"] == 0 for n in newgames)


def test_a_bot_with_a_log_of_its_own_gets_a_process_per_game(tmp_path: Path) -> None:
    spec, log = recorder(tmp_path)
    command, _ = split_command(spec.removeprefix("cmd:"))
    for seed in (1, 2):
        bot = CommandBot(command, seed * 1000, 5)
        bot.stderr_path = tmp_path / "logs" / f"game-{seed}.log"
        state = _decision(seed)
        bot.act(state)
        bot.close(None)
        assert bot.stderr_path.exists()
    assert len({line["pid"] for line in said(log)}) == 2


V1_BOT = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "observe":
        print(json.dumps({"type": "act", "action": len(message["actions"]) - 1}), flush=True)
"""


def test_a_v1_bot_plays_on_untouched_and_is_not_kept(tmp_path: Path) -> None:
    spec = f"cmd:{program(tmp_path, 'v1', V1_BOT)}"
    for seed in (1, 2):
        result = play_match("rpg-battle", [spec, "greedy"], seed, move_timeout=5)
        assert result.status == "ok", result.error
    bot = make_agent(spec, 1, 5)
    assert isinstance(bot, CommandBot)
    bot.act(_decision(1))
    assert bot.info is None and bot._program is not None and bot._program.protocol == 1
    bot.close(None)


def _decision(seed: int) -> State:
    state = games.load("rpg-battle").new_initial_state(2)
    dealer = LocalDealer(seed)
    while state.is_chance_node():
        state.apply_action(dealer.sample(state))
    return state.observation(state.current_player())


def test_options_are_checked_against_the_hello_naming_the_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, _ = recorder(tmp_path)
    with pytest.raises(AgentSpecError, match=r"no option 'deep'; it offers pick \(choice"):
        make_agent(spec + ":deep=3")
    with pytest.raises(AgentSpecError, match="depth is 1 to 5, not 9"):
        make_agent(spec + ":depth=9")
    with pytest.raises(AgentSpecError, match="pick is one of first, last"):
        make_agent(spec + ":pick=middle")
    with pytest.raises(AgentSpecError, match="careful is true or false"):
        make_agent(spec + ":careful=perhaps")
    v1 = f'cmd:"{program(tmp_path, "v1", V1_BOT)}":depth=3'
    monkeypatch.setattr("ai.bots.HANDSHAKE_SECONDS", 0.5)
    with pytest.raises(AgentSpecError, match=r"no hello within 0\.5 s"):
        CommandBot.from_spec(v1.removeprefix("cmd:"), move_timeout=1)


def test_a_spec_splits_into_program_and_options() -> None:
    assert split_command('"node bot.js":depth=3:style=wild') == (
        "node bot.js", {"depth": "3", "style": "wild"},
    )  # fmt: skip
    assert split_command("python3 -c 'a:b'") == ("python3 -c 'a:b'", {})
    assert split_command("'node bot.js'") == ("node bot.js", {})
    for bad in ('"node bot.js', '"node"x', '"node":depth', '"node":=3'):
        with pytest.raises(AgentSpecError):
            split_command(bad)


GOOD_OPTION = {"name": "depth", "type": "int", "default": 3, "min": 1, "max": 9}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"protocol": 3}, "protocol must be 2"),
        ({"protocol": True}, "protocol must be 2"),
        ({"name": None}, "name must be printable"),
        ({"name": "x" * 300}, "name must be printable"),
        ({"author": 7}, "author must be printable"),
        ({"version": "1\n2"}, "version must be printable"),
        ({"options": {}}, "options must be a list"),
        ({"options": [GOOD_OPTION] * 65}, "options must be a list of at most 64"),
        ({"options": [GOOD_OPTION, GOOD_OPTION]}, "two options share a name"),
        ({"options": [1]}, r"options\[0\] must be an object"),
        ({"options": [{**GOOD_OPTION, "name": "9lives"}]}, r"options\[0\].name"),
        ({"options": [{**GOOD_OPTION, "name": "name"}]}, r"options\[0\].name"),
        ({"options": [{**GOOD_OPTION, "type": "spin"}]}, r"options\[0\].type"),
        ({"options": [{**GOOD_OPTION, "default": 2.5}]}, r"options\[0\].default must be an int"),
        ({"options": [{**GOOD_OPTION, "default": True}]}, r"options\[0\].default must be an int"),
        ({"options": [{**GOOD_OPTION, "default": 10}]}, "outside min to max"),
        ({"options": [{**GOOD_OPTION, "min": "1"}]}, r"options\[0\].min must be a number"),
        ({"options": [{**GOOD_OPTION, "type": "float", "default": 1e400}]}, "must be a float"),
        ({"options": [{"name": "b", "type": "bool", "default": 1}]}, "true or false"),
        (
            {"options": [{"name": "c", "type": "choice", "default": "x", "values": ["y"]}]},
            "the default among them",
        ),
        ({"options": [{"name": "s", "type": "string", "default": "x" * 300}]}, "at most 256"),
    ],
)
def test_a_bad_hello_is_refused_saying_which_field(change: dict[str, Any], message: str) -> None:
    hello = {"type": "hello", "protocol": 2, "name": "b", "options": [GOOD_OPTION], **change}
    with pytest.raises(AgentIllegalAction, match=message):
        parse_hello(hello)


def test_a_good_hello_lists_its_options() -> None:
    info = parse_hello({"type": "hello", "protocol": 2, "name": "b", "options": [GOOD_OPTION],
                        "later": "ignored"})  # fmt: skip
    option = info.option("depth")
    assert info.author == "" and option is not None and option.value_of("4") == 4
    assert option.describe() == "depth (int, 1 to 9, default 3)"


@pytest.mark.parametrize(
    ("source", "status", "error"),
    [
        # A hello the harness cannot take: the game is lost, the reason names the field.
        (
            'print(json.dumps({"type": "hello", "protocol": 2, "name": 5}), flush=True)',
            "illegal",
            "bad hello: name",
        ),
        # An act before the readyok owed: the handshake is not optional once begun.
        (
            'print(json.dumps({"type": "hello", "protocol": 2, "name": "b"}), flush=True)\n'
            'print(json.dumps({"type": "act", "action": 0}), flush=True)',
            "illegal",
            "'act' where 'readyok' was due",
        ),
        # A readyok nobody asked for.
        ('print(json.dumps({"type": "readyok"}), flush=True)', "illegal", "'readyok' where"),
        # A second hello.
        (
            'print(json.dumps({"type": "hello", "protocol": 2, "name": "b"}), flush=True)\n'
            'print(json.dumps({"type": "hello", "protocol": 2, "name": "b"}), flush=True)',
            "illegal",
            "'hello' where 'readyok' was due",
        ),
        # A hello nested past the limit is refused before it is parsed.
        (
            'print(\'{"type": "hello", "x": \' + "[" * 100 + "]" * 100 + "}", flush=True)',
            "illegal",
            "nested deeper",
        ),
    ],
)
def test_a_bot_that_breaks_the_handshake_loses_its_game(
    tmp_path: Path, source: str, status: str, error: str
) -> None:
    source = "import json, sys\n" + source + "\nsys.stdin.read()"
    spec = f"cmd:{program(tmp_path, 'bad', source)}"
    result = play_match("rpg-battle", [spec, "random"], 1, move_timeout=5)
    assert (result.status, result.faulty_seat) == (status, 0)
    assert error in result.error


SLOW_TO_LOAD = """
import json, sys, time
from ai.botkit import Bot, run

class Slow(Bot):
    name = "slow"
    def new_game(self, game):
        time.sleep(float(sys.argv[1]))  # loading: before readyok, not on the move's clock
    def choose(self, question):
        time.sleep(float(sys.argv[2]))
        return 0

run(Slow())
"""


def test_the_clock_starts_at_readyok(tmp_path: Path) -> None:
    command = program(tmp_path, "slow", SLOW_TO_LOAD)
    loads = play_match("rpg-battle", [f"cmd:{command} 1.0 0", "random"], 1, move_timeout=0.5)
    assert loads.status == "ok", loads.error
    thinks = play_match("rpg-battle", [f"cmd:{command} 0 1.0", "random"], 1, move_timeout=0.5)
    assert thinks.status == "timeout" and "no answer within 0.5 s" in thinks.error
