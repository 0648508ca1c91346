"""The results store: one SQLite file (WAL mode) holding one row per solved deal.

A row is keyed by (game, rules, generator, seed, backend, limit_s): ``rules`` is the JSON of the rule
overrides in their canonical form (:func:`patience.rules.canonical_overrides`; ``{}`` for the standard
game), so ``cells=2`` and ``cells.count=2`` share their rows. Rows are committed one by one as results
arrive, so a crash (even ``kill -9``) loses at most the deals still being solved, and rerunning the same
job skips every key already present.

The file is marked with ``PRAGMA application_id`` (:data:`APPLICATION_ID`, "PTNC") and a schema version
in ``PRAGMA user_version``. :func:`open_store` refuses, without writing a byte or creating a -wal/-shm
side file, any existing file that is not a SQLite database, carries another marker, lacks the results
table as this schema defines it, or holds a row no run of ours writes (a status outside :data:`STATUSES`,
stats that are not a JSON object, ...): :class:`StoreError`, which the CLI turns into exit 2.

Creation is atomic: the store is built (marker, schema) in a temporary file in the same folder and
hard-linked into place, so no file ever exists at the path without its marker; of several processes
creating the same store at once, one link wins and the others open the winner's file. A creator killed
before the link leaves a hidden ``.NAME.*.new`` file, removed by the next creation once a minute old;
a blank SQLite file (no marker, no table), which creation left before it was atomic, is adopted.
"""

from __future__ import annotations

import json
import math
import os
import socket
import sqlite3
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..instance import _umask  # the process umask, read without changing it (atomic_write's new files)
from ..rules import RuleError, load_game

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "STATUSES",
    "Row",
    "Store",
    "StoreError",
    "open_store",
    "rules_key",
]

APPLICATION_ID = 0x50544E43  # "PTNC"
SCHEMA_VERSION = 2  # 2: CHECK constraints on every column; version 1 files (same columns) still open
STATUSES = ("solved", "unsolvable", "unknown", "unsupported", "error")
_SQLITE_MAGIC = b"SQLite format 3\x00"
_IN_STATUSES = "(" + ", ".join(f"'{s}'" for s in STATUSES) + ")"

_SCHEMA = f"""
CREATE TABLE results (
    game      TEXT    NOT NULL CHECK (typeof(game) = 'text' AND game <> ''),
    rules     TEXT    NOT NULL CHECK (json_valid(rules) AND json_type(rules) = 'object'),
    generator TEXT    NOT NULL CHECK (typeof(generator) = 'text' AND generator <> ''),
    seed      INTEGER NOT NULL CHECK (typeof(seed) = 'integer' AND seed >= 0),
    backend   TEXT    NOT NULL CHECK (typeof(backend) = 'text' AND backend <> ''),
    limit_s   REAL    NOT NULL CHECK (typeof(limit_s) = 'real' AND limit_s > 0),
    status    TEXT    NOT NULL CHECK (status IN {_IN_STATUSES}),
    seconds   REAL             CHECK (seconds IS NULL OR (typeof(seconds) = 'real' AND seconds >= 0)),
    stats     TEXT    NOT NULL CHECK (json_valid(stats) AND json_type(stats) = 'object'),
    sha256    TEXT,               -- sha256 of the canonical instance
    message   TEXT    NOT NULL DEFAULT '',
    host      TEXT    NOT NULL DEFAULT '',
    finished  REAL    NOT NULL,   -- unix time the row was written
    PRIMARY KEY (game, rules, generator, seed, backend, limit_s)
) WITHOUT ROWID;
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
_COLUMN_NAMES = (
    "game", "rules", "generator", "seed", "backend", "limit_s", "status", "seconds", "stats", "sha256",
    "message", "host", "finished",
)  # fmt: skip
# A row no run of ours writes (hand-edited or damaged): the same conditions as the CHECK constraints,
# asked of every file on open, since version 1 files have no constraints and a CHECK can be switched off.
_BAD_ROW = f"""
SELECT game, seed, backend, status FROM results WHERE NOT (
    typeof(game) = 'text' AND game <> '' AND typeof(generator) = 'text' AND generator <> ''
    AND typeof(backend) = 'text' AND backend <> '' AND typeof(seed) = 'integer' AND seed >= 0
    AND typeof(limit_s) = 'real' AND limit_s > 0 AND status IN {_IN_STATUSES}
    AND (seconds IS NULL OR (typeof(seconds) IN ('real', 'integer') AND seconds >= 0))
    AND json_valid(rules) AND json_type(rules) = 'object' AND json_valid(stats)
    AND json_type(stats) = 'object' AND typeof(finished) IN ('real', 'integer')
) LIMIT 1
"""


class StoreError(ValueError):
    """A results file that cannot be used: not SQLite, corrupt, or another program's database."""


def rules_key(overrides: dict[str, Any] | None, game: str | None = None) -> str:
    """The ``rules`` column: JSON of the rule overrides, in their canonical form on ``game`` when it is
    given (overrides it cannot take, as in a row recording that error, are keyed as given)."""
    if game is not None and overrides:
        try:
            overrides = load_game(game, overrides).overrides
        except RuleError:
            pass
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
    """Raise StoreError unless ``path`` is a patience store whose schema and rows we wrote; writes
    nothing, except to adopt a blank SQLite file (:func:`_adopt_blank`).

    The marker is read from the file header itself, so a foreign file is refused without SQLite ever
    opening it; our own files are then checked read-only (``immutable`` when no -wal file shows another
    connection, so not even a -shm file appears).
    """
    with path.open("rb") as fh:
        head = fh.read(100)
    if not head:
        raise StoreError(f"{path}: an empty file, not a results store (remove it or use another --db)")
    if head[: len(_SQLITE_MAGIC)] != _SQLITE_MAGIC or len(head) < 100:
        raise StoreError(f"{path}: not a SQLite database (refusing to touch it; use another --db)")
    if head[21:24] != b"\x40\x20\x20":  # payload fractions every SQLite file has: a damaged header
        raise StoreError(f"{path}: corrupt or unreadable SQLite file (bad header); not modified")
    app_id = int.from_bytes(head[68:72], "big")
    version = int.from_bytes(head[60:64], "big")
    if app_id == 0 and version == 0 and _adopt_blank(path):
        return
    if app_id != APPLICATION_ID:
        raise StoreError(
            f"{path}: a SQLite database of another program (application_id {app_id:#x}, not "
            f"{APPLICATION_ID:#x}); not a patience results store, not modified"
        )
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{path}: results store schema {version} is newer than this patience ({SCHEMA_VERSION})"
        )
    in_use = Path(f"{path}-wal").exists()
    uri = f"{path.resolve().as_uri()}?{'mode=ro' if in_use else 'immutable=1'}"
    try:
        con = sqlite3.connect(uri, uri=True, timeout=30)
        try:
            ok = con.execute("PRAGMA quick_check").fetchone()[0]
            if ok != "ok":
                raise StoreError(f"{path}: corrupt patience results store ({ok}); not modified")
            columns = tuple(r[1] for r in con.execute("PRAGMA table_info(results)"))
            if columns != _COLUMN_NAMES:
                raise StoreError(
                    f"{path}: has the patience marker but not its results table (columns "
                    f"{', '.join(columns) or 'none'}); not modified"
                )
            bad = con.execute(_BAD_ROW).fetchone()
            if bad is not None:
                game, seed, backend, status = bad
                raise StoreError(
                    f"{path}: row game={game!r} seed={seed!r} backend={backend!r} status={status!r} is "
                    f"not one this program writes (edited by hand or damaged); not modified"
                )
        finally:
            con.close()
    except sqlite3.DatabaseError as err:
        raise StoreError(f"{path}: corrupt or unreadable SQLite file ({err}); not modified") from None


def _adopt_blank(path: Path) -> bool:
    """Make a blank SQLite file (no marker, no version, no table: what a kill during creation left
    before creation was atomic) into a store in place, and say whether it did.

    Holding nothing, the file loses nothing; the check and the writes share one write transaction, so
    of two processes adopting it one does and the other then sees our marker. Any other content, or a
    file we cannot lock, is left to the ordinary checks (and refused).
    """
    try:
        con = sqlite3.connect(path, timeout=30, isolation_level=None)
    except sqlite3.Error:
        return False
    try:
        con.execute("BEGIN IMMEDIATE")
        blank = (
            con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
            and con.execute("PRAGMA application_id").fetchone()[0] == 0
            and con.execute("PRAGMA user_version").fetchone()[0] == 0
        )
        if blank:
            con.execute(f"PRAGMA application_id={APPLICATION_ID}")
            con.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            for statement in filter(str.strip, _SCHEMA.split(";")):
                con.execute(statement)
        con.execute("COMMIT" if blank else "ROLLBACK")
        return blank
    except sqlite3.Error:
        return False
    finally:
        con.close()


_STALE_S = 60.0  # a creation takes milliseconds; a temporary file this old was left by a killed creator


def _sweep_stale(path: Path) -> None:
    """Remove the temporary files of creations of ``path`` that were killed before they finished."""
    now = time.time()
    for tmp in path.parent.glob(f".{path.name}.*.new"):
        try:
            if now - tmp.stat().st_mtime > _STALE_S:
                tmp.unlink()
        except OSError:
            pass  # gone already, or not ours to remove


def _create(path: Path) -> None:
    """Build a new store in a temporary file beside ``path`` and link it into place (atomic creation).

    If another process links its store first, ours is discarded and theirs is used: both succeed.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    _sweep_stale(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".new", dir=path.parent)
    os.fchmod(fd, 0o666 & ~_umask())  # mkstemp's 0600 -> what open() would give a new file (umask respected)
    os.close(fd)
    try:
        con = sqlite3.connect(tmp)
        try:
            con.execute(f"PRAGMA application_id={APPLICATION_ID}")
            con.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            con.executescript(_SCHEMA)
            con.commit()
        finally:
            con.close()
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another creator won the race; its file is a complete store too
    finally:
        Path(tmp).unlink(missing_ok=True)


def _finite(value: Any) -> Any:
    """``value`` with infinities and NaN as null: the stored stats are strict JSON (json_valid)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


class Store:
    """A results store; use :func:`open_store`. Not shared between threads: one writer process."""

    def __init__(self, con: sqlite3.Connection, path: str) -> None:
        self.con = con
        self.path = path
        self.host = socket.gethostname()

    # Writing -------------------------------------------------------------------------------------
    def add(self, row: Row) -> bool:
        """Insert one result and commit; False when its key was already stored (the old row is kept).

        A row the schema's CHECK constraints refuse (not "OR IGNORE": that would drop it silently) raises
        :class:`StoreError`.
        """
        try:
            cur = self._insert(row)
        except sqlite3.IntegrityError as err:
            self.con.rollback()
            raise StoreError(f"{self.path}: row {row.key} refused by the store ({err})") from None
        self.con.commit()
        return cur.rowcount == 1

    def _insert(self, row: Row) -> sqlite3.Cursor:
        return self.con.execute(
            f"INSERT INTO results ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING",
            (
                row.game,
                row.rules,
                row.generator,
                row.seed,
                row.backend,
                row.limit_s,
                row.status,
                row.seconds,
                json.dumps(_finite(row.stats), sort_keys=True),
                row.sha256,
                row.message,
                row.host or self.host,
                row.finished or time.time(),
            ),
        )

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
    if text == ":memory:":
        con = sqlite3.connect(text)
        con.execute(f"PRAGMA application_id={APPLICATION_ID}")
        con.executescript(_SCHEMA)
        return Store(con, text)
    p = Path(path)
    if p.is_dir():
        raise StoreError(f"{p}: is a directory, not a results file")
    if not p.exists():
        if not create:
            raise StoreError(f"{p}: no such results file")
        try:
            _create(p)
        except (OSError, sqlite3.DatabaseError) as err:
            raise StoreError(f"{p}: cannot create the results store ({err})") from None
    _check_existing(p)
    try:
        con = sqlite3.connect(text, timeout=30)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across process crashes
    except sqlite3.OperationalError as err:
        if "locked" in str(err) or "busy" in str(err):
            raise StoreError(f"{text}: the results store is busy ({err}); retry in a moment") from None
        raise StoreError(f"{text}: cannot open the results store ({err})") from None
    except sqlite3.DatabaseError as err:
        raise StoreError(f"{text}: cannot open the results store ({err})") from None
    return Store(con, text)
