"""What a table's seats must share to play in lockstep: the same rules engine for the game.

Every seat runs its own engine on the same ordered actions (DESIGN.md §3). Two versions of
p2pcards whose engines differ (a card's cost changed, a rule added) would part ways at the
first action one of them finds illegal, and the other would be named a cheater for playing
by its rules. The fingerprint names the engine: a hash of the source and data files the
game's rules are made of, the shared core (`p2pcards/*.py`) and the game's own package. A
host puts it in the roster; a joiner whose engine differs says so and does not sit down.
"""

from __future__ import annotations

import functools
import hashlib
import sys
from pathlib import Path

from p2pcards import games

RULES_SUFFIXES = (".py", ".toml")  # code and data; the game's documents are not rules
FINGERPRINT_BYTES = 32


@functools.cache
def rules_fingerprint(game: str) -> bytes:
    """The SHA-256 of the files that make `game`'s rules, by path relative to the package."""
    core = Path(__file__).parent
    package = Path(sys.modules[type(games.load(game)).__module__].__file__ or "").parent
    files = [("core", core, p) for p in sorted(core.glob("*")) if p.suffix in RULES_SUFFIXES]
    files += [
        ("game", package, p) for p in sorted(package.rglob("*")) if p.suffix in RULES_SUFFIXES
    ]
    digest = hashlib.sha256(b"p2pcards/rules/1\0")
    for part, root, path in files:
        name = f"{part}/{path.relative_to(root).as_posix()}".encode()
        data = path.read_bytes()
        digest.update(len(name).to_bytes(4, "big") + name + len(data).to_bytes(8, "big") + data)
    return digest.digest()
