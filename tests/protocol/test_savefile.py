"""Save files of another format are refused by name, never misread."""

from __future__ import annotations

from pathlib import Path

import pytest

from protocol import savefile
from protocol.wire import encode_frame


@pytest.mark.parametrize("format_", [1, 5, "3"])
def test_a_save_file_of_a_format_this_version_does_not_read_is_refused_by_name(
    tmp_path: Path, format_: object
) -> None:
    path = tmp_path / "other.table"
    path.write_bytes(encode_frame({"kind": "table", "format": format_, "roster": {}}))
    with pytest.raises(
        savefile.SaveFileError,
        match=f"saved in format {format_!r}; this version reads formats 2, 3 and 4",
    ):
        savefile.load(path)


def test_an_rpg_battle_save_of_before_slots_is_refused_by_name_not_misread() -> None:
    # Format 2 (a real save of before one dealer, a two-seat rpg-battle): its seats announced
    # cards by kind with hand positions, which rpg-battle's actions (naming slots since
    # format 4) cannot say. Its roster still reads; playing it through is refused in one line.
    saved = savefile.load(Path(__file__).with_name("saves") / "before-nonces-seat0.p2pt")
    assert saved.roster.game == "rpg-battle" and saved.format == 2
    assert not saved.roster.fresh
    with pytest.raises(savefile.SaveFileError) as refused:
        savefile.rebuild(saved)
    assert str(refused.value) == (
        "this save is format 2, written by an older p2pcards; rpg-battle's moves name their "
        "cards' slots since format 4, so this version cannot play it through again"
    )
