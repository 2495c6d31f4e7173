"""Joiners turned away, as real processes: said in words, and the table still seats the next.

Issue 26, finding 3: a joiner with an illegal deck was seated, signed the roster, then
failed on its deck; the next valid joiner got "the host closed the connection" and the host
gave up 30 s later.
"""

import json
from pathlib import Path

from lan_helpers import bot, open_table, result, start

ILLEGAL = 'name = "Three cards"\ngame = "rise-of-the-guys"\n\n[cards]\nchicken = 3\n'


def turned_away(tmp: Path, invite: str, *extra: str) -> tuple[int, str, str]:
    """A joiner that should be turned away: its exit code, stdout and stderr."""
    process = start("join", invite, "--home", str(tmp / "turned-away"), *extra)
    out, err = process.communicate(timeout=60)
    return process.returncode, out, err


def check_refused(code: int, out: str, err: str, words: str) -> None:
    assert code == 2, err
    assert words in err and "Seated" not in out, (out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


def test_bad_decks_are_refused_before_a_seat_is_taken_and_the_table_seats_the_next(
    tmp_path: Path,
) -> None:
    host, invite = open_table(tmp_path, 2, game="rise-of-the-guys")
    deck = tmp_path / "three.toml"
    deck.write_text(ILLEGAL)
    # A deck file is checked against its game's rules before any connection.
    check_refused(*turned_away(tmp_path, invite, "--deck", str(deck)), "40 cards needed")
    # A shipped deck's name, once the host has said which game the table plays.
    check_refused(*turned_away(tmp_path, invite, "--deck", "no-such-deck"), "no-such-deck")
    code, report, err = result(bot(tmp_path, invite, 1))
    assert code == 0 and report["ended"] == "finished", err
    code, report, err = result(host)
    assert code == 0 and report["ended"] == "finished", err


def test_a_full_table_is_said_in_words(tmp_path: Path) -> None:
    host = start(
        "host", "rpg-battle", "--seats", "2", "--port", "0", "--home", str(tmp_path / "host"),
        "--json", stdin=True,
    )  # fmt: skip
    assert host.stdout is not None
    invite = json.loads(host.stdout.readline())["invite"]
    seated = bot(tmp_path, invite, 1)
    assert host.stdin is not None
    host.stdin.write("2\n1\n")  # a move, then the person thinks: the game waits for them
    host.stdin.flush()
    for line in host.stdout:  # the person at the host thinks: the game waits for them
        if "choice" in line:
            break
    try:
        late = start("join", invite, "--home", str(tmp_path / "late"))
        _, err = late.communicate(timeout=60)
        assert late.returncode == 1, err
        assert "the table is full" in err and "SSL" not in err and "()" not in err, err
    finally:
        for process in (host, seated):
            process.kill()
            process.communicate(timeout=30)


def test_an_address_bind_cannot_use_is_bad_input(tmp_path: Path) -> None:
    """203.0.113.1 (TEST-NET-3) is no address of this machine: nothing can listen there."""
    for args in (
        ["host", "rpg-battle", "--port", "0", "--bind", "203.0.113.1"],
        ["join", "127.0.0.1:9/AAAA-AAAA-AAAA-AAAA/AAAA-AAAA", "--bind", "203.0.113.1"],
    ):
        process = start(*args, "--home", str(tmp_path / "home"))
        _, err = process.communicate(timeout=60)
        assert process.returncode == 2, err
        assert "cannot listen on 203.0.113.1" in err and len(err.strip().splitlines()) == 1, err


def test_seats_are_listed_in_words() -> None:
    from protocol.net import seat_list

    assert seat_list([1]) == "seat 1"
    assert seat_list([1, 2]) == "seats 1 and 2"
    assert seat_list([1, 2, 3]) == "seats 1, 2 and 3"


def test_a_bot_is_introduced_with_only_what_it_said() -> None:
    from cli.agent_stdio import bot_line

    assert bot_line("x", "", "") == "bot: x"
    assert bot_line("x", "2.0", "") == "bot: x 2.0"
    assert bot_line("x", "2.0", "Ana") == "bot: x 2.0 by Ana"
