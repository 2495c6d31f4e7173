"""A table is played by one rules engine: the roster names the host's, and a joiner whose
engine differs is told so before it sits down (p2pcards/fingerprint.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lan_helpers import in_another_interpreter

from p2pcards import games
from p2pcards.fingerprint import rules_fingerprint
from protocol.identity import Identity
from protocol.roster import Member, Roster, TableSetupError, check_same_rules
from protocol.wire import WireError


def member(home: Path, name: str) -> Member:
    """A roster member with a real identity and certificate."""
    me = Identity.load_or_create(home / name)
    me.certificate_files(home / name)
    return Member(
        name, me.public_bytes, b"\x01" * 32, "127.0.0.1", 4000, me.certificate_der(home / name)
    )


def test_each_game_has_its_own_stable_fingerprint() -> None:
    """Stable: a second interpreter (another hash seed, another file listing order if any
    leaked in) gives every game the same print as this one."""
    prints = {name: rules_fingerprint(name) for name in games.names()}
    assert all(len(p) == 32 for p in prints.values())
    assert len(set(prints.values())) == len(prints)  # a game's own files are in its print
    program = (
        "from p2pcards import games; from p2pcards.fingerprint import rules_fingerprint; "
        "print(' '.join(f'{n}={rules_fingerprint(n).hex()}' for n in games.names()))"
    )
    theirs = dict(pair.split("=") for pair in in_another_interpreter(program).split())
    assert theirs == {name: p.hex() for name, p in prints.items()}


def test_the_roster_carries_the_rules_and_an_old_roster_keeps_its_bytes(tmp_path: Path) -> None:
    members = [member(tmp_path, "host"), member(tmp_path, "joiner")]
    ours = rules_fingerprint("gammasphere")
    roster = Roster(b"\x07" * 16, "gammasphere", {}, members, ours)
    back = Roster.from_wire(roster.to_wire())
    assert back.rules == ours and back.digest() == roster.digest()
    old = Roster(b"\x07" * 16, "gammasphere", {}, members)
    assert "rules" not in old.to_wire()  # a save of before keeps the digest its seats signed
    assert Roster.from_wire(old.to_wire()).rules == b""
    with pytest.raises(WireError, match="rules"):
        Roster.from_wire({**roster.to_wire(), "rules": b"short"})


def test_a_joiner_sits_down_only_at_a_table_of_its_own_rules() -> None:
    ours = rules_fingerprint("rise-of-the-guys")
    check_same_rules(Roster(b"\x07" * 16, "rise-of-the-guys", {}, [], ours))
    cases = [
        (Roster(b"\x07" * 16, "rise-of-the-guys", {}, [], b"\x00" * 32), "other rules or cards"),
        (Roster(b"\x07" * 16, "rise-of-the-guys", {}, []), "engine not given"),
        (Roster(b"\x07" * 16, "gammasphere", {}, [], ours), "other rules or cards"),
        (Roster(b"\x07" * 16, "chess", {}, [], ours), "does not have"),
    ]
    for roster, message in cases:
        with pytest.raises(TableSetupError, match=message):
            check_same_rules(roster)
