"""Save files of another format are refused by name, never misread."""

from __future__ import annotations

from pathlib import Path

import pytest

from protocol import savefile
from protocol.wire import encode_frame


@pytest.mark.parametrize("format_", [1, 4, "3"])
def test_a_save_file_of_a_format_this_version_does_not_read_is_refused_by_name(
    tmp_path: Path, format_: object
) -> None:
    path = tmp_path / "other.table"
    path.write_bytes(encode_frame({"kind": "table", "format": format_, "roster": {}}))
    with pytest.raises(
        savefile.SaveFileError,
        match=f"saved in format {format_!r}; this version reads formats 2 and 3",
    ):
        savefile.load(path)


def test_a_format_2_table_replays_its_own_messages_as_signed() -> None:
    # Format 2 (before one dealer) announced `"positions": []` with every shared-deck
    # decision; format 3 names positions only when an action uses some. A format-2 seat
    # rebuilt now must make its own messages as it signed them then, or it would not replay.
    saved = savefile.load(Path(__file__).with_name("saves") / "before-nonces-seat0.p2pt")
    assert not saved.roster.fresh
    peer = savefile.rebuild(saved)
    assert peer.dealer.positions_always
