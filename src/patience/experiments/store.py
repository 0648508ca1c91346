"""The results store: one SQLite file (WAL mode) holding one row per solved deal.

A row is keyed by (game, rules, generator, seed, backend, limit_s): ``rules`` is the canonical JSON of
the rule overrides (``{}`` for the standard game). Rows are committed one by one as results arrive, so a
crash (even ``kill -9``) loses at most the deals still being solved, and rerunning the same job skips
every key already present.

The file is marked with ``PRAGMA application_id`` (:data:`APPLICATION_ID`, "PTNC") and a schema version
in ``PRAGMA user_version``. :func:`open_store` refuses, without writing a byte, any existing file that
is not a SQLite database or carries another marker: :class:`StoreError`, which the CLI turns into exit 2.
"""

from __future__ import annotations

import json
import socket
import sqlite3
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "Row", "Store", "StoreError", "open_store", "rules_key"]

APPLICATION_ID = 0x50544E43  # "PTNC"
SCHEMA_VERSION = 1
_SQLITE_MAGIC = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    game      TEXT    NOT NULL,
    rules     TEXT    NOT NULL,   -- canonical JSON of the rule overrides, '{}' for the standard game
    generator TEXT    NOT NULL,
    seed      INTEGER NOT NULL,
    backend   TEXT    NOT NULL,
    limit_s   REAL    NOT NULL,   -- wall-time limit in seconds
    status    TEXT    NOT NULL,   -- solved | unsolvable | unknown | unsupported | error
    seconds   REAL,               -- solver wall time
    stats     TEXT    NOT NULL,   -- JSON object of the backend's stats
    sha256    TEXT,               -- sha256 of the canonical instance
    message   TEXT    NOT NULL DEFAULT '',
    host      TEXT    NOT NULL DEFAULT '',
    finished  REAL    NOT NULL,   -- unix time the row was written
    PRIMARY KEY (game, rules, generator, seed, backend, limit_s)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class StoreError(ValueError):
    """A results file that cannot be used: not SQLite, corrupt, or another program's database."""


def rules_key(overrides: dict[str, Any] | None) -> str:
    """Canonical JSON of rule overrides (the ``rules`` column)."""
    return json.dumps(overrides or {}, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Row:
    """One stored result."""

    game: str
    rules: str
    generator: str
    seed: int
    backend: str
    limit_s: float
    status: str
    seconds: float | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    sha256: str | None = None
    message: str = ""
    host: str = ""
    finished: float = 0.0

    @property
    def key(self) -> tuple[str, str, str, int, str, float]:
        return (self.game, self.rules, self.generator, self.seed, self.backend, self.limit_s)

    def to_json(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        out["rules"] = json.loads(self.rules)
        return out


_COLUMNS = (
    "game, rules, generator, seed, backend, limit_s, status, seconds, stats, sha256, message, host, finished"
)


def _check_existing(path: Path) -> None:
    """Raise StoreError unless ``path`` is an empty file or a patience store; never writes."""
    size = path.stat().st_size
    if size == 0:
        return
    with path.open("rb") as fh:
        head = fh.read(len(_SQLITE_MAGIC))
    if head != _SQLITE_MAGIC:
        raise StoreError(f"{path}: not a SQLite database (refusing to touch it; use another --db)")
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            app_id = con.execute("PRAGMA application_id").fetchone()[0]
            version = con.execute("PRAGMA user_version").fetchone()[0]
            if app_id == APPLICATION_ID:
                ok = con.execute("PRAGMA quick_check").fetchone()[0]
                if ok != "ok":
                    raise StoreError(f"{path}: corrupt patience results store ({ok}); not modified")
        finally:
            con.close()
    except sqlite3.DatabaseError as err:
        raise StoreError(f"{path}: corrupt or unreadable SQLite file ({err}); not modified") from None
    if app_id != APPLICATION_ID:
        raise StoreError(
            f"{path}: a SQLite database of another program (application_id {app_id:#x}, not "
            f"{APPLICATION_ID:#x}); not a patience results store, not modified"
        )
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{path}: results store schema {version} is newer than this patience ({SCHEMA_VERSION})"
        )


class Store:
    """A results store; use :func:`open_store`. Not shared between threads: one writer process."""

    def __init__(self, con: sqlite3.Connection, path: str) -> None:
        self.con = con
        self.path = path
        self.host = socket.gethostname()

    # Writing -------------------------------------------------------------------------------------
    def add(self, row: Row) -> bool:
        """Insert one result and commit; False when its key was already stored (the old row is kept)."""
        cur = self.con.execute(
            f"INSERT OR IGNORE INTO results ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                row.game,
                row.rules,
                row.generator,
                row.seed,
                row.backend,
                row.limit_s,
                row.status,
                row.seconds,
                json.dumps(row.stats, sort_keys=True),
                row.sha256,
                row.message,
                row.host or self.host,
                row.finished or time.time(),
            ),
        )
        self.con.commit()
        return cur.rowcount == 1

    def delete(self, keys: Iterable[tuple[str, str, str, int, str, float]]) -> int:
        """Remove rows by key (used to retry errors); returns how many went."""
        n = 0
        for k in keys:
            n += self.con.execute(
                "DELETE FROM results WHERE game=? AND rules=? AND generator=? AND seed=? AND backend=? "
                "AND limit_s=?",
                k,
            ).rowcount
        self.con.commit()
        return n

    # Reading -------------------------------------------------------------------------------------
    def done_seeds(
        self,
        game: str,
        rules: str,
        generator: str,
        backend: str,
        limit_s: float,
        statuses: set[str] | None = None,
    ) -> set[int]:
        """Seeds already stored for this job (optionally only with these statuses)."""
        rows = self.con.execute(
            "SELECT seed, status FROM results WHERE game=? AND rules=? AND generator=? AND backend=? "
            "AND limit_s=?",
            (game, rules, generator, backend, limit_s),
        )
        return {s for s, st in rows if statuses is None or st in statuses}

    def rows(self, **where: Any) -> list[Row]:
        """Rows matching column=value filters (``seeds=range`` restricts to those seeds)."""
        seeds = where.pop("seeds", None)
        sql = f"SELECT {_COLUMNS} FROM results"
        if where:
            sql += " WHERE " + " AND ".join(f"{k}=?" for k in where)
        sql += " ORDER BY game, rules, generator, backend, limit_s, seed"
        out = []
        wanted = None if seeds is None else set(seeds)
        for r in self.con.execute(sql, tuple(where.values())):
            if wanted is not None and r[3] not in wanted:
                continue
            out.append(Row(*r[:8], json.loads(r[8]), *r[9:]))
        return out

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows())

    def count(self) -> int:
        return self.con.execute("SELECT count(*) FROM results").fetchone()[0]

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_store(path: str | Path, create: bool = True) -> Store:
    """Open (or create) the store at ``path``; ``":memory:"`` gives a throw-away one.

    An existing file must be a patience store; anything else raises :class:`StoreError` and is left
    exactly as it was. ``create=False`` also refuses a missing file.
    """
    text = str(path)
    if text != ":memory:":
        p = Path(path)
        if p.is_dir():
            raise StoreError(f"{p}: is a directory, not a results file")
        if p.exists():
            _check_existing(p)
        elif not create:
            raise StoreError(f"{p}: no such results file")
        else:
            p.parent.mkdir(parents=True, exist_ok=True)
    try:
        con = sqlite3.connect(text, timeout=30)
        if text != ":memory:":
            con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across process crashes
        con.execute(f"PRAGMA application_id={APPLICATION_ID}")
        con.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        con.executescript(_SCHEMA)
        con.commit()
    except sqlite3.DatabaseError as err:
        raise StoreError(f"{text}: cannot open the results store ({err})") from None
    return Store(con, text)
