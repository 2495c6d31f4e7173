"""Time controls as cutechess writes them (`--tc 40/60+0.5`): parsing, each seat's clock,
a seat losing on time counted apart from a crash, and a bot told its clock with each
question (issue 27)."""

import json
from pathlib import Path

import pytest
from test_bots import program, recorder, said_until_result

from ai.clock import AgentLostOnTime, Clock, TimeControl
from ai.match import play_match

SLOW = "import time\n\ndef choose(state, actions):\n    time.sleep(0.03)\n    return 0\n"


@pytest.mark.parametrize(
    ("text", "moves", "seconds", "increment", "shown"),
    [
        ("40/60+0.5", 40, 60.0, 0.5, "40/60+0.5"),
        ("60+0.5", None, 60.0, 0.5, "60+0.5"),
        ("90", None, 90.0, 0.0, "90"),
        (" 1/0.25 ", 1, 0.25, 0.0, "1/0.25"),
    ],
)
def test_a_time_control_reads_as_cutechess_writes_it(
    text: str, moves: int | None, seconds: float, increment: float, shown: str
) -> None:
    tc = TimeControl.parse(text)
    assert (tc.moves, tc.seconds, tc.increment) == (moves, seconds, increment)
    assert str(tc) == shown


@pytest.mark.parametrize("text", ["", "40/", "abc", "60+", "0/60", "40/0", "-5", "1e9"])
def test_a_bad_time_control_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(ValueError, match="--tc") as refused:
        TimeControl.parse(text)
    assert "\n" not in str(refused.value)


def test_a_clock_takes_the_time_adds_the_increment_and_each_period() -> None:
    clock = Clock(TimeControl(2, 1.0, 0.1))
    assert (clock.left, clock.moves_to_go()) == (1.0, 2)
    clock.spend(0.4)
    assert clock.left == pytest.approx(0.7) and clock.moves_to_go() == 1
    clock.spend(0.2)  # the period's second move: a new period's second is added
    assert clock.left == pytest.approx(1.6) and clock.moves_to_go() == 2
    assert clock.to_json() == {"time_ms": 1600, "increment_ms": 100, "moves_to_go": 2}
    with pytest.raises(AgentLostOnTime, match=r"lost on time: move 3 took 1\.700 s") as lost:
        clock.spend(1.7)
    assert lost.value.status == "time"


def test_a_seat_out_of_time_loses_on_time_and_an_increment_keeps_it_going(
    tmp_path: Path,
) -> None:
    slow = tmp_path / "slow.py"
    slow.write_text(SLOW)
    spec = f"script:{slow}"
    flagged = play_match("rpg-battle", [spec, "greedy"], 3, time_control=TimeControl(None, 0.1))
    assert (flagged.status, flagged.faulty_seat) == ("time", 0)
    assert "lost on time" in flagged.error and "--tc 0.1" in flagged.error
    assert flagged.returns == (0.0, 1.0)
    # Half a second a move more than each move takes: the clock never runs out.
    kept = play_match("rpg-battle", [spec, "greedy"], 3, round_cap=3,
                      time_control=TimeControl(None, 0.2, 0.5))  # fmt: skip
    assert kept.status == "ok", kept.error


def test_a_bot_is_told_its_clock_with_each_question(tmp_path: Path) -> None:
    spec, log = recorder(tmp_path)
    result = play_match("getgem", [spec, "greedy"], 5, round_cap=4,
                        time_control=TimeControl(40, 60.0, 0.5))  # fmt: skip
    assert result.status == "ok", result.error
    asked = [m["got"] for m in said_until_result(log) if m["got"]["type"] == "observe"]
    assert len(asked) >= 2
    first, second = asked[0], asked[1]
    assert first["clock"] == {"time_ms": 60000, "increment_ms": 500, "moves_to_go": 40}
    assert first["time_ms"] == 60000  # no --move-timeout: the clock is the limit
    assert second["clock"]["moves_to_go"] == 39
    assert 59000 < second["clock"]["time_ms"] <= 60500


CLOCK_READER = """
import json, sys
from ai.botkit import Bot, run

class Reader(Bot):
    name, author, version = "reader", "tests", "0.1"

    def choose(self, question):
        with open(sys.argv[1], "a") as out:
            out.write(json.dumps(question.clock) + "\\n")
        return 0

run(Reader())
"""


def test_a_botkit_bot_reads_its_clock_off_the_question(tmp_path: Path) -> None:
    log = tmp_path / "clocks.jsonl"
    spec = f'cmd:"{program(tmp_path, "reader", CLOCK_READER)} {log}"'
    result = play_match("getgem", [spec, "greedy"], 5, round_cap=2,
                        time_control=TimeControl(None, 30.0, 1.0))  # fmt: skip
    assert result.status == "ok", result.error
    first = json.loads(log.read_text().splitlines()[0])
    assert first == {"time_ms": 30000, "increment_ms": 1000, "moves_to_go": None}
