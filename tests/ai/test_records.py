"""Game records: written for every game, read back only if they replay to their result;
deal books; agent labels."""

import json
from pathlib import Path
from typing import Any

import pytest

from ai.agents import AGENTS, split_label
from ai.errors import AgentSpecError
from ai.match import Tally, game_record, labels, play_match, simulate
from ai.records import (
    FORMAT,
    DealBookError,
    GameRecord,
    RecordError,
    parse_line,
    pick,
    read,
    read_deals,
    write,
)


def recorded(game: str = "getgem", specs: tuple[str, ...] = ("greedy", "random")) -> GameRecord:
    result = play_match(game, list(specs), seed=3, round_cap=20, record=True)
    return game_record(result, 0, game, {}, 20)


@pytest.mark.parametrize("game", ["getgem", "rpg-battle"])
def test_a_record_reads_back_to_the_same_game(game: str) -> None:
    record = recorded(game, ("greedy", "random:name=r"))
    assert record.agents == ("greedy", "r") and record.specs == ("greedy", "random:name=r")
    assert record.actions and any(event.actor == -1 for event in record.actions)  # deals too
    line = record.to_line()
    assert line.endswith("\n") and "\n" not in line[:-1]
    assert parse_line(line.encode()) == record
    data = json.loads(line)
    assert data["format"] == FORMAT and data["result"]["steps"] == len(record.actions)


def tampered(change: Any) -> bytes:
    data = recorded().to_json()
    change(data)
    return json.dumps(data).encode()


def _swap_returns(d: dict[str, Any]) -> None:
    d["result"]["returns"] = d["result"]["returns"][::-1]
    d["result"]["winners"] = [s for s, r in enumerate(d["result"]["returns"]) if r > 0]


def _other_deal(d: dict[str, Any]) -> None:
    first = d["actions"][0]["action"]
    first["card"] = "fire" if first["card"] != "fire" else "water"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=1), "version 1"),
        (lambda d: d.update(rules=1), "rules version 1; this program plays version 3"),
        (lambda d: d.update(rules=True), "rules version True"),
        (lambda d: d.update(format="pgn"), "format"),
        (lambda d: d.update(extra=1), "unknown fields: extra"),
        (lambda d: d.pop("seed"), "missing fields: seed"),
        (lambda d: d.update(game="chess"), "unknown game"),
        (lambda d: d.update(seats=9), "seats must be"),
        (lambda d: d.update(seats=True), "seats must be"),
        (lambda d: d.update(agents=["greedy"]), "one entry per seat"),
        (lambda d: d.update(options={"colour": [1]}), "option 'colour'"),
        (lambda d: d.update(options={"colour": "red"}), "cannot start"),
        (lambda d: d.update(round_cap=0), "round_cap"),
        (lambda d: d.update(seconds=-1), "seconds"),
        (lambda d: d["actions"].pop(), "steps is"),
        (
            lambda d: (d["actions"].pop(), d["result"].update(steps=d["result"]["steps"] - 1)),
            "stop before the end",
        ),
        (lambda d: d["actions"][0].update(seat=0), "not seat 0's to take"),
        (lambda d: d["actions"][0].update(to=1), "deals to seat 0"),
        (lambda d: d["actions"][0]["action"].update(kind="nuke"), "does not replay"),
        (_other_deal, None),  # a different card: the game goes elsewhere, or is refused
        (_swap_returns, "ends with returns"),
        (lambda d: d["result"].update(winners=[0, 1]), "winners"),
        (lambda d: d["result"].update(status="crash"), "faulty seat"),
        (lambda d: d["result"].update(status="melted", faulty_seat=0), "status 'melted'"),
        (lambda d: d["result"].update(returns=[float("nan"), 1.0]), "NaN is not a number"),
        (lambda d: d["result"].update(returns=["1", 0]), "returns must be numbers"),
        (lambda d: d.update(options={"x": [[[[[]]]]]}), "nested deeper"),
    ],
)
def test_a_tampered_record_is_refused_with_a_reason(change: Any, message: str | None) -> None:
    with pytest.raises(RecordError, match=message):
        parse_line(tampered(change))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b"\xff\xfe", "not UTF-8"),
        (b"[" * 100_000, "nested too deep|not JSON"),
        (b'{"seed": NaN}', "not JSON"),
        (b"[]", "a JSON object"),
        (b'{"a": ' + b"9" * 5000 + b"}", "not JSON"),
    ],
)
def test_a_line_that_is_not_a_record_is_refused(line: bytes, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        parse_line(line)


class Raiser:
    """An agent that crashes on its first move."""

    name = "raiser"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, observation: object) -> object:
        raise ZeroDivisionError("oops")


def test_a_failed_game_is_recorded_up_to_the_failing_move(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(AGENTS, "raiser", Raiser)
    result = play_match("getgem", ["greedy", "raiser"], seed=1, record=True)
    record = game_record(result, 4, "getgem", {}, None)
    assert (record.status, record.faulty_seat, record.returns) == ("crash", 1, (1.0, 0.0))
    back = parse_line(record.to_line().encode())
    assert back == record and "ZeroDivisionError" in back.error
    # The forfeit must be the faulty seat's, at its own move.
    data = record.to_json()
    data["result"].update(faulty_seat=0, returns=[0.0, 1.0], winners=[1])
    with pytest.raises(RecordError, match="stops at that seat's move"):
        parse_line(json.dumps(data).encode())


def test_a_records_file_is_read_in_order_and_one_game_picked(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    with path.open("w") as stream:
        for number, seed in ((5, 1), (6, 2)):
            result = play_match("getgem", ["greedy", "random"], seed, 20, record=True)
            write(stream, game_record(result, number, "getgem", {}, 20))
        stream.write("\n")  # a blank line is skipped
    assert [r.number for r in read(path)] == [5, 6]
    assert pick(path)[0].number == 5 and pick(path, 6)[0].seed == 2 and pick(path, 6)[1] == 2
    with pytest.raises(RecordError, match="no game numbered 7"):
        pick(path, 7)
    with path.open("a") as stream:
        stream.write("{broken\n")
    with pytest.raises(RecordError, match="line 4: not JSON"):
        list(read(path))


def test_a_deal_book_is_seeds_one_per_line(tmp_path: Path) -> None:
    book = tmp_path / "deals.txt"
    book.write_text("# favourite deals\n7\n\n  12  # the long one\n0\n")
    assert read_deals(book) == (7, 12, 0)
    for text, message in [
        ("7\nseven\n", "line 2: a seed is a whole number"),
        ("-3\n", "line 1"),
        (f"{2**63}\n", "line 1"),
        ("# nothing\n\n", "holds no seeds"),
        ("１２\n", "line 1"),  # full-width digits are digits to str.isdigit, not to us
    ]:
        book.write_text(text)
        with pytest.raises(DealBookError, match=message):
            read_deals(book)
    book.write_bytes(b"\xff\n")
    with pytest.raises(DealBookError, match="not UTF-8"):
        read_deals(book)


def test_simulate_plays_the_deal_book_in_order_cycling() -> None:
    seeds: list[int] = []
    simulate(
        "getgem", ["greedy", "random"], 2, 5, seed=0, round_cap=20, deals=(9, 4),
        on_game=lambda number, result: seeds.append(result.seed),
    )  # fmt: skip
    assert seeds == [9, 4, 9, 4, 9]


def test_labels_name_agents_and_are_taken_off_the_spec() -> None:
    assert split_label("expectimax:think_ms=50:name=fast") == ("fast", "expectimax:think_ms=50")
    assert split_label("expectimax:name=fast:nodes=9") == ("fast", "expectimax:nodes=9")
    assert split_label("expectimax:nodes=9") == ("expectimax:nodes=9", "expectimax:nodes=9")
    assert split_label('cmd:"node a:b.js":name=js') == ("js", 'cmd:"node a:b.js"')
    assert labels(["greedy", "random:name=r", "greedy"]) == ["greedy", "r", "greedy"]
    with pytest.raises(AgentSpecError, match="two agents are labelled 'x'"):
        labels(["greedy:name=x", "random:name=x"])
    with pytest.raises(AgentSpecError, match="name= needs a label"):
        split_label("greedy:name=")


def test_two_settings_of_one_agent_are_counted_apart_under_their_labels() -> None:
    tally = Tally()
    for seed in (1, 2):
        tally.add(play_match("getgem", ["random:name=a", "random"], seed, 20))
    assert tally.games_by_agent == {"a": 2, "random": 2}
    assert tally.specs == {"a": "random:name=a", "random": "random"}
    assert tally.failed_games == 0
