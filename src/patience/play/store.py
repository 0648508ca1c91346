"""A SQLite store of played games, so ``patience play --db FILE`` resumes where it stopped.

One row per (game, rule overrides, generator, seed, player, player version, player options, move cap, time
limit), holding how the game ended, cards home, moves and seconds. Each game is committed as it finishes
(WAL mode), so an interrupted run loses only the games in flight, and rerunning the same command plays only
the missing seeds. The player version (:func:`patience.play.players.player_version`) is raised whenever a
change alters a player's games, so a changed player never resumes rows of the old one. The file carries a
marker table (format ``patience-play/2``; a ``/1`` file, from before versions, is refused: start a new
one); a file that is not a play store (another program's database, an ``estimate`` results store, a
corrupt file) is refused with :class:`PlayStoreError` and left untouched.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .game import ENDS, GameRecord

__all__ = ["FORMAT", "PlayStore", "PlayStoreError", "batch_key", "open_play_store"]

FORMAT = "patience-play/2"

_ENDS_SQL = ", ".join(f"'{e}'" for e in ENDS)
_SCHEMA = f"""
CREATE TABLE play_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    generator TEXT NOT NULL,
    seed INTEGER NOT NULL CHECK (seed >= 0),
    player TEXT NOT NULL,
    version INTEGER NOT NULL,
    options TEXT NOT NULL,
    max_moves INTEGER NOT NULL,
    limit_s REAL NOT NULL,
    end_reason TEXT NOT NULL CHECK (end_reason IN ({_ENDS_SQL})),
    home INTEGER NOT NULL CHECK (home >= 0),
    moves INTEGER NOT NULL CHECK (moves >= 0),
    seconds REAL NOT NULL,
    PRIMARY KEY (game, rules, generator, seed, player, version, options, max_moves, limit_s)
);
"""


class PlayStoreError(ValueError):
    """The file is not a play store (or cannot be opened as one)."""


def batch_key(
    game: str, rules: dict[str, Any], generator: str, player: str, options: dict[str, Any], max_moves: int,
    limit_s: float | None, version: int,
) -> tuple[Any, ...]:  # fmt: skip
    """The columns naming a batch (all but the seed); no time limit is stored as 0."""
    return (
        game,
        json.dumps(rules, sort_keys=True),
        generator,
        player,
        version,
        json.dumps(options, sort_keys=True),
        max_moves,
        float(limit_s or 0.0),
    )


class PlayStore:
    """An open play store (see the module docstring)."""

    def __init__(self, conn: sqlite3.Connection, path: str) -> None:
        self.conn = conn
        self.path = path

    def done(self, key: tuple[Any, ...], seeds: Iterable[int]) -> dict[int, GameRecord]:
        """Stored games of the batch ``key`` among ``seeds``, by seed."""
        wanted = set(seeds)
        rows = self.conn.execute(
            "SELECT seed, end_reason, home, moves, seconds FROM games WHERE game=? AND rules=?"
            " AND generator=? AND player=? AND version=? AND options=? AND max_moves=? AND limit_s=?",
            key,
        ).fetchall()
        return {r[0]: GameRecord(r[0], r[1], r[2], r[3], r[4]) for r in rows if r[0] in wanted}

    def add(self, key: tuple[Any, ...], rec: GameRecord) -> None:
        """Store one game and commit it."""
        game, rules, generator, player, version, options, max_moves, limit_s = key
        with self.conn:
            self.conn.execute(
                "INSERT OR REPLACE INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (game, rules, generator, rec.seed, player, version, options, max_moves, limit_s, rec.end,
                 rec.home, rec.moves, rec.seconds),
            )  # fmt: skip

    def close(self) -> None:
        self.conn.close()


def open_play_store(path: str | Path) -> PlayStore:
    """Open the play store at ``path``, creating it if there is no file; refuse any other file."""
    p = Path(path)
    fresh = not p.exists()
    if not fresh and p.is_dir():
        raise PlayStoreError(f"{path}: a folder, not a play store")
    try:
        conn = sqlite3.connect(str(p), timeout=30)
    except sqlite3.Error as err:
        raise PlayStoreError(f"{path}: cannot open ({err})") from None
    try:
        if fresh:
            conn.executescript(_SCHEMA)
            conn.execute("INSERT INTO play_meta VALUES ('format', ?)", (FORMAT,))
            conn.commit()
        else:
            row = conn.execute("SELECT value FROM play_meta WHERE key='format'").fetchone()
            if row is None or row[0] != FORMAT:
                raise PlayStoreError(f"{path}: not a patience play store (format {row and row[0]!r})")
        conn.execute("PRAGMA journal_mode=WAL")
    except sqlite3.DatabaseError as err:
        conn.close()
        raise PlayStoreError(f"{path}: not a patience play store ({err})") from None
    except PlayStoreError:
        conn.close()
        raise
    return PlayStore(conn, str(p))
