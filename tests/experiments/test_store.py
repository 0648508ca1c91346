"""The SQLite results store: markers, round trip, resume bookkeeping, refusing foreign files."""

import hashlib
import sqlite3
from pathlib import Path

import pytest

from patience.experiments.store import APPLICATION_ID, Row, StoreError, open_store, rules_key


def _row(seed, status="solved", **kw):
    return Row(
        "black-hole", rules_key({"suits": 2}), "portable", seed, "dfs", 10.0, status, 0.5, kw, "ab" * 32
    )


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _foreign_results_table(db, application_id=None):
    """A SQLite file with a one-row table named like ours but not ours (optionally with our marker)."""
    con = sqlite3.connect(db)
    if application_id is not None:
        con.execute(f"PRAGMA application_id={application_id}")
    con.execute("CREATE TABLE results (x)")
    con.execute("INSERT INTO results VALUES (1)")
    con.commit()
    con.close()


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
    _foreign_results_table(db)
    before = _digest(db)
    with pytest.raises(StoreError, match="another program"):
        open_store(db)
    assert _digest(db) == before


def test_missing_file_without_create(tmp_path):
    with pytest.raises(StoreError, match="no such results file"):
        open_store(tmp_path / "none.sqlite", create=False)
    assert not (tmp_path / "none.sqlite").exists()


def _create_and_add(args):
    """One of many processes creating the same new store at once and writing one row."""
    path, seed = args
    try:
        with open_store(path) as store:
            store.add(_row(seed))
        return "ok"
    except StoreError as err:
        return str(err)


def test_40_concurrent_creations_all_succeed(tmp_path):
    import multiprocessing

    db = tmp_path / "new.sqlite"
    with multiprocessing.get_context("spawn").Pool(8) as pool:
        outcomes = pool.map(_create_and_add, [(str(db), s) for s in range(40)])
    assert outcomes == ["ok"] * 40
    with open_store(db, create=False) as store:
        assert sorted(r.seed for r in store.rows()) == list(range(40))
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".new")]  # no temporary file left


def test_created_file_has_its_marker_from_the_first_byte(tmp_path, monkeypatch):
    """The file appears only by a link of a complete store: a kill before that leaves no file at the path."""
    import os

    from patience.experiments import store as store_mod

    seen = []
    real_link = os.link

    def spy(src, dst):
        con = sqlite3.connect(f"file:{src}?immutable=1", uri=True)
        seen.append((con.execute("PRAGMA application_id").fetchone()[0], Path(dst).exists()))
        con.close()
        real_link(src, dst)

    monkeypatch.setattr(store_mod.os, "link", spy)
    open_store(tmp_path / "r.sqlite").close()
    assert seen == [(APPLICATION_ID, False)]


def test_tampered_status_is_refused_not_dropped(tmp_path):
    db = tmp_path / "r.sqlite"
    with open_store(db) as store:
        store.add(_row(1))
        store.add(_row(2, "unsolvable"))
    con = sqlite3.connect(db)
    con.execute("PRAGMA ignore_check_constraints = ON")  # what a hand edit can do
    con.execute("UPDATE results SET status = 'xnsolvable' WHERE seed = 2")
    con.commit()
    con.close()
    before = _digest(db)
    with pytest.raises(StoreError, match="xnsolvable"):
        open_store(db)
    assert _digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.sqlite"]


def test_check_constraints_refuse_bad_rows(tmp_path):
    with open_store(tmp_path / "r.sqlite") as store:
        for bad in (_row(1, "xnsolvable"), _row(-1)):
            with pytest.raises(StoreError, match="refused by the store"):
                store.add(bad)
        assert store.count() == 0


def test_our_marker_with_another_table_is_refused_untouched(tmp_path):
    db = tmp_path / "r.sqlite"
    _foreign_results_table(db, APPLICATION_ID)
    before = _digest(db)
    with pytest.raises(StoreError, match="not its results table"):
        open_store(db)
    assert _digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.sqlite"]  # no -wal/-shm side files


def test_refused_wal_file_gets_no_side_files(tmp_path):
    db = tmp_path / "other.sqlite"
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="another program"):
        open_store(db)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite"]


def test_empty_file_is_refused(tmp_path):
    db = tmp_path / "r.sqlite"
    db.touch()
    with pytest.raises(StoreError, match="empty file"):
        open_store(db)
    assert db.read_bytes() == b""


def test_tampered_store_is_exit_2_in_estimate_and_report(tmp_path):
    from click.testing import CliRunner

    from patience.cli import main

    db = tmp_path / "r.sqlite"
    sets = ["--set", "suits=2", "--set", "ranks=8", "--set", "piles=5"]
    args = ["estimate", "black-hole", "-n", "2", *sets, "-b", "dfs", "-j", "0", "-q"]
    assert CliRunner().invoke(main, [*args, "--db", str(db)]).exit_code == 0
    con = sqlite3.connect(db)
    con.execute("PRAGMA ignore_check_constraints = ON")
    con.execute("UPDATE results SET status = 'xnsolvable' WHERE seed = 2")
    con.commit()
    con.close()
    for argv in ([*args, "--db", str(db)], ["report", str(db), "-o", str(tmp_path / "rep")]):
        r = CliRunner().invoke(main, argv)
        assert r.exit_code == 2
        assert r.stderr.count("\n") == 1 and "xnsolvable" in r.stderr
    assert not (tmp_path / "rep").exists()


def test_stats_with_infinity_are_stored_as_null(tmp_path):
    with open_store(tmp_path / "r.sqlite") as store:
        assert store.add(_row(1, bound=float("inf")))
        assert store.rows()[0].stats == {"bound": None}


def test_blank_sqlite_file_is_adopted(tmp_path):
    """A marker-less SQLite file with no table (a creator killed before creation was atomic) holds
    nothing: it becomes a store instead of being refused forever."""
    db = tmp_path / "r.sqlite"
    con = sqlite3.connect(db)
    con.execute("PRAGMA user_version=0")
    con.execute("CREATE TABLE t (x)")
    con.execute("DROP TABLE t")  # a real 4 KB+ SQLite file, with no schema left
    con.commit()
    con.close()
    assert db.stat().st_size >= 4096
    with open_store(db) as store:
        store.add(_row(1))
    with open_store(db, create=False) as store:
        assert [r.seed for r in store.rows()] == [1]
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    con.close()


def test_stale_temporary_files_are_swept_fresh_ones_kept(tmp_path):
    import os
    import time

    stale, fresh = tmp_path / ".r.sqlite.abc.new", tmp_path / ".r.sqlite.def.new"
    stale.write_bytes(b"x")
    fresh.write_bytes(b"y")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    open_store(tmp_path / "r.sqlite").close()
    assert not stale.exists() and fresh.exists()
