"""Save files of another format are refused by name, never misread."""

from __future__ import annotations

from pathlib import Path

import pytest

from protocol import savefile
from protocol.wire import encode_frame


def test_a_save_file_of_the_format_before_one_dealer_is_refused_by_name(tmp_path: Path) -> None:
    # Format 2 announced `"positions": []` with every shared-deck decision; format 3 (one
    # dealer for every game) names positions only when an action uses some, so a format-2
    # table resumed now would make its own messages differently: refused up front instead.
    path = tmp_path / "old.table"
    path.write_bytes(encode_frame({"kind": "table", "format": 2, "roster": {}}))
    with pytest.raises(savefile.SaveFileError, match="saved in format 2; this version reads 3"):
        savefile.load(path)
