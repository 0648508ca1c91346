"""``patience results``: a store's rows, filtered by status, game, backend and generator, as a table, JSON
or CSV; the store is only read, and a file that is not one is exit 2 with one line."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.experiments.store import Row, open_store


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "r.sqlite"
    with open_store(path) as store:
        for seed, status in enumerate(["solved", "unknown", "unsolvable", "unknown", "error"], start=1):
            store.add(Row("black-hole", "{}", "portable", seed, "dfs", 10.0, status, 0.5, {"nodes": 7}))
        fc = Row("freecell", '{"cells":2}', "ms", 9, "planning", 5.0, "unknown", 5.0, {}, message="time")
        store.add(fc)
    return path


def test_table_lists_every_row_and_counts_on_stderr(db: Path) -> None:
    code, out, err = run("results", str(db))
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[:4] == ["game", "rules", "generator", "seed"]
    assert len(lines) == 7 and "cells=2" in out and "time" in lines[-1]
    assert err == "6 rows: solved 1, unsolvable 1, unknown 3, error 1\n"


def test_unknown_seeds_of_one_game(db: Path) -> None:
    code, out, err = run("results", str(db), "--status", "unknown", "--game", "Black-Hole", "--json")
    assert code == 0 and [r["seed"] for r in json.loads(out)] == [2, 4]
    assert err == "2 rows: unknown 2\n"
    code, out, _ = run("results", str(db), "--status", "unknown", "--status", "error", "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [(r["game"], r["seed"]) for r in rows] == [
        ("black-hole", "2"),
        ("black-hole", "4"),
        ("black-hole", "5"),
        ("freecell", "9"),
    ]
    code, out, err = run("results", str(db), "--backend", "planning", "-g", "ms", "--json")
    assert code == 0 and [r["rules"] for r in json.loads(out)] == [{"cells": 2}]
    code, out, err = run("results", str(db), "--backend", "cpsat")
    assert code == 0 and err == "0 rows\n"


def test_reading_changes_nothing(db: Path) -> None:
    before = db.read_bytes()
    assert run("results", str(db))[0] == 0
    assert db.read_bytes() == before


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (None, "no such results file"),
        ("not sqlite at all\n", "not a SQLite database"),
    ],
)
def test_not_a_store_is_exit_2(tmp_path: Path, make: str | None, message: str) -> None:
    path = tmp_path / "x.sqlite"
    if make is not None:
        path.write_text(make)
    code, out, err = run("results", str(path), "--status", "unknown")
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err
    assert (path.read_text() == make) if make is not None else not path.exists()


def test_bad_status_is_exit_2(db: Path) -> None:
    code, _, err = run("results", str(db), "--status", "lost")
    assert code == 2 and err.count("\n") == 1 and "'lost' is not one of" in err
