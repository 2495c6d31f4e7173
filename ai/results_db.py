"""The tournament results database: SQLite, one row per finished game, written as it ends.

Each game is committed on its own (WAL journal), so a run stopped by Ctrl-C or
`kill -9` keeps every game that had finished, and `--resume` picks up from there.
The tournament's configuration is stored too: resuming with different agents, seats
or seeds would mix two tournaments, so it is refused.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from p2pcards.errors import P2PCardsError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS config (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    number INTEGER PRIMARY KEY,
    pairing INTEGER NOT NULL,
    agents TEXT NOT NULL,
    seed INTEGER NOT NULL,
    returns TEXT NOT NULL,
    status TEXT NOT NULL,
    faulty_seat INTEGER,
    error TEXT NOT NULL,
    steps INTEGER NOT NULL,
    seconds REAL NOT NULL,
    finished_at REAL NOT NULL
);
"""


class ResultsDatabaseError(P2PCardsError, ValueError):
    """A database that is not ours, or holds another tournament."""


@dataclass(frozen=True)
class StoredGame:
    """One finished game as stored."""

    number: int
    pairing: int
    agents: tuple[str, ...]  # by seat
    seed: int
    returns: tuple[float, ...]  # by seat
    status: str  # ok, crash, timeout, illegal
    faulty_seat: int | None
    error: str
    steps: int
    seconds: float


def _stored(row: tuple[Any, ...]) -> StoredGame:
    number, pairing, agents, seed, returns, status, faulty_seat, error, steps, seconds = row
    return StoredGame(
        number, pairing, tuple(json.loads(agents)), seed, tuple(json.loads(returns)), status,
        faulty_seat, error, steps, seconds,
    )  # fmt: skip


class ResultsDatabase:
    """Finished games of one tournament, in one SQLite file."""

    def __init__(self, path: Path) -> None:
        """Open (or create) the file; ResultsDatabaseError if it is not a results database."""
        self.path = path
        try:
            self._db = sqlite3.connect(path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise ResultsDatabaseError(f"{path} is not a tournament database: {exc}") from None

    def begin(self, config: Mapping[str, Any], resume: bool) -> None:
        """Record the tournament's configuration, or check it against the stored one."""
        stored = self.config()
        if not stored:
            with self._db:
                self._db.executemany(
                    "INSERT INTO config VALUES (?, ?)",
                    [(key, json.dumps(value)) for key, value in config.items()],
                )
            return
        if not resume:
            raise ResultsDatabaseError(
                f"{self.path} already holds a tournament ({self.count()} games stored): "
                "add --resume to carry it on, or choose another --db"
            )
        differ = sorted(k for k in {*stored, *config} if stored.get(k) != config.get(k))
        if differ:
            was = ", ".join(f"{k}={stored.get(k)!r}" for k in differ)
            raise ResultsDatabaseError(
                f"{self.path} holds a different tournament ({was}); --resume needs the "
                "same game, agents, seats, games, format, seed, round cap, move timeout and deals"
            )

    def config(self) -> dict[str, Any]:
        """The stored configuration (empty for a new database)."""
        rows = self._db.execute("SELECT key, value FROM config").fetchall()
        return {key: json.loads(value) for key, value in rows}

    def add(self, game: StoredGame) -> None:
        """Store one finished game, committed at once."""
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.number, game.pairing, json.dumps(game.agents), game.seed,
                    json.dumps(game.returns), game.status, game.faulty_seat, game.error,
                    game.steps, game.seconds, time.time(),
                ),
            )  # fmt: skip

    def games(self) -> list[StoredGame]:
        """Every stored game, by number."""
        rows = self._db.execute(
            "SELECT number, pairing, agents, seed, returns, status, faulty_seat, error, steps,"
            " seconds FROM games ORDER BY number"
        ).fetchall()
        return [_stored(row) for row in rows]

    def count(self) -> int:
        """How many games are stored."""
        (n,) = self._db.execute("SELECT COUNT(*) FROM games").fetchone()
        return int(n)

    def close(self) -> None:
        """Close the file."""
        self._db.close()
