"""The SQLite results store: markers, round trip, resume bookkeeping, refusing foreign files."""

import hashlib
import sqlite3

import pytest

from patience.experiments.store import APPLICATION_ID, Row, StoreError, open_store, rules_key


def _row(seed, status="solved", **kw):
    return Row(
        "black-hole", rules_key({"suits": 2}), "portable", seed, "dfs", 10.0, status, 0.5, kw, "ab" * 32
    )


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_round_trip_markers_and_wal(tmp_path):
    db = tmp_path / "r.sqlite"
    with open_store(db) as store:
        assert store.add(_row(1, nodes=12))
        assert not store.add(_row(1, "unsolvable"))  # same key: the first result is kept
        assert store.add(_row(2, "unknown"))
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()
    with open_store(db, create=False) as store:
        rows = store.rows()
        assert [(r.seed, r.status) for r in rows] == [(1, "solved"), (2, "unknown")]
        assert rows[0].stats == {"nodes": 12}
        assert rows[0].host
        assert store.done_seeds("black-hole", rules_key({"suits": 2}), "portable", "dfs", 10.0) == {1, 2}
        assert store.done_seeds("black-hole", "{}", "portable", "dfs", 10.0) == set()
        assert store.done_seeds("black-hole", rules_key({"suits": 2}), "portable", "dfs", 5.0) == set()
        assert store.delete([_row(2).key]) == 1
        assert store.count() == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not a database at all\n", "not a SQLite database"),
        (b"SQLite format 3\x00" + b"\xff" * 300, "corrupt or unreadable"),
    ],
)
def test_corrupt_file_refused_and_untouched(tmp_path, content, message):
    db = tmp_path / "r.sqlite"
    db.write_bytes(content)
    with pytest.raises(StoreError, match=message):
        open_store(db)
    assert db.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.sqlite"]


def test_foreign_sqlite_refused_and_untouched(tmp_path):
    db = tmp_path / "other.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE results (x)")
    con.execute("INSERT INTO results VALUES (1)")
    con.commit()
    con.close()
    before = _digest(db)
    with pytest.raises(StoreError, match="another program"):
        open_store(db)
    assert _digest(db) == before


def test_missing_file_without_create(tmp_path):
    with pytest.raises(StoreError, match="no such results file"):
        open_store(tmp_path / "none.sqlite", create=False)
    assert not (tmp_path / "none.sqlite").exists()
