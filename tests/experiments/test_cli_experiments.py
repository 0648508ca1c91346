"""The estimate, compare and report commands (fake backends, inline or 2 processes, tiny decks)."""

import json
import re
import sqlite3

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.experiments.store import open_store

from . import fakes

TINY = [a for k, v in fakes.TINY.items() for a in ("--set", f"{k}={v}")]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_estimate_then_resume(fake_backends, tmp_path):
    db = tmp_path / "r.sqlite"
    r = run("estimate", "black-hole", "-n", 20, "-b", "tinydfs", "--limit", "5s", "-j", 2, "--db", db, *TINY)
    assert r.exit_code == 0, r.output
    assert "20 deals (seeds 1..20, portable)" in r.output and "20 run now" in r.output
    assert re.search(r"win rate [\d.]+% \(95% CI [\d.]+-[\d.]+%\) of decided deals", r.output)
    assert "conservative Wilson interval" in r.output and "time per deal: p50" in r.output
    r = run(
        "estimate",
        "blackhole",
        "-n",
        25,
        "-b",
        "tinydfs",
        "--limit",
        "5s",
        "-j",
        0,
        "--db",
        db,
        *TINY,
        "--json",
    )
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["game"] == "black-hole" and out["deals"] == 25 and out["new"] == 5
    assert out["solved"] + out["unsolvable"] == 25 and out["unknown"] == 0
    lo, hi = out["interval_percent"]
    assert lo <= 100 * out["win_rate_decided"] <= hi
    assert "reference_percent" not in out  # overridden rules: the published rate does not apply


def test_compare_flags_planted_disagreement(fake_backends, tmp_path):
    db, cdir = tmp_path / "r.sqlite", tmp_path / "conflicts"
    args = ["compare", "black-hole", "-n", 16, "--backends", "tinydfs,liar", "-j", 0, "--db", db, *TINY]
    r = run(*args, "--conflicts", cdir, "--json")
    assert r.exit_code == 1, r.output
    out = json.loads(r.output)
    # liar says UNSOLVABLE for seeds divisible by 4: a conflict exactly where tinydfs solved those.
    solved4 = [
        d["seed"] for d in out["per_deal"] if d["seed"] % 4 == 0 and d["status"]["tinydfs"] == "solved"
    ]
    assert solved4, "the planted disagreement needs a solvable seed divisible by 4"
    assert [c["seed"] for c in out["conflicts"]] == solved4
    assert out["agreed"] == 16 - len(solved4)
    assert out["time_ratios"]["liar"]["deals"] == 16
    listing = json.loads((cdir / "conflicts.json").read_text())
    for c in listing["conflicts"]:
        inst = cdir / c["instance"]
        sol = cdir / c["solutions"]["tinydfs"]
        v = run("validate", inst, sol)
        assert v.exit_code == 0 and "win the deal" in v.output, v.output
    # Rerun from the store: text table and CSV.
    r = run(*args, "--conflicts", cdir)
    assert r.exit_code == 1 and f"CONFLICT seed {solved4[0]}" in r.output and "time / tinydfs" in r.output
    r = run(*args, "--conflicts", cdir, "--csv")
    lines = r.output.strip().splitlines()
    assert lines[0].startswith("seed,sha256,tinydfs_status,tinydfs_seconds,liar_status")
    assert len(lines) == 17 and sum(line.endswith(",1") for line in lines[1:]) == len(solved4)


def test_compare_agreeing_backends_exit_0(fake_backends, tmp_path):
    r = run(
        "compare", "black-hole", "-n", 3, "-b", "tinydfs,liar", "-j", 0, "--db", tmp_path / "r.sqlite", *TINY
    )
    assert r.exit_code == 0, r.output  # seeds 1..3: no multiple of 4, no conflict
    assert not (tmp_path / "conflicts").exists()


def test_report_writes_pngs(fake_backends, tmp_path):
    db = tmp_path / "r.sqlite"
    run(
        "compare",
        "black-hole",
        "-n",
        12,
        "-b",
        "tinydfs,liar",
        "-j",
        0,
        "--db",
        db,
        "--conflicts",
        tmp_path / "c",
        *TINY,
    )
    r = run("report", db, "-o", tmp_path / "rep")
    assert r.exit_code == 0, r.output
    # two backends on the same deals: backends.png, the per-deal scatter
    names = sorted(p.name for p in (tmp_path / "rep").iterdir())
    assert names == ["backends.png", "cards_removed.png", "times.png", "winrate.png"]
    assert all((tmp_path / "rep" / n).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for n in names)
    r = run("report", db, "-o", tmp_path / "rep", "--json")
    groups = json.loads(r.output)["groups"]
    assert sorted(g["backend"] for g in groups) == ["liar", "tinydfs"] and groups[0]["deals"] == 12


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["estimate", "black-hole", "-n", 5, "-b", "nope"], "--backend 'nope': unknown"),
        (["estimate", "no-such-game", "-n", 5, "-b", "tinydfs"], "unknown game"),
        (["estimate", "black-hole", "-n", 0, "-b", "tinydfs"], "-n 0"),
        (["estimate", "black-hole", "-n", 5, "-b", "tinydfs", "--limit", "soon"], "--limit"),
        (["estimate", "black-hole", "-n", 5, "-b", "tinydfs", "--scheduler", "tcp://x:1"], "--executor dask"),
        (["estimate", "black-hole", "-n", 5, "-b", "tinydfs", "-g", "ms"], "ms"),
        (["compare", "black-hole", "-n", 5, "--backends", "tinydfs"], "two or more"),
        (["report", "missing.sqlite"], "no such results file"),
    ],
)
def test_bad_input_exits_2_and_writes_nothing(fake_backends, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert message in r.output and r.output.startswith("error: ") and r.output.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("kind", ["garbage", "foreign"])
@pytest.mark.parametrize("command", ["estimate", "compare", "report"])
def test_corrupt_or_foreign_db_exits_2_unchanged(fake_backends, tmp_path, kind, command):
    db = tmp_path / "r.sqlite"
    if kind == "garbage":
        db.write_bytes(b"\x00\x01 definitely not sqlite" * 40)
    else:
        con = sqlite3.connect(db)
        con.execute("CREATE TABLE accounts (id INTEGER, balance REAL)")
        con.commit()
        con.close()
    before = db.read_bytes()
    args = {
        "estimate": ["estimate", "black-hole", "-n", 3, "-b", "tinydfs", *TINY, "--db", db],
        "compare": ["compare", "black-hole", "-n", 3, "-b", "tinydfs,liar", *TINY, "--db", db],
        "report": ["report", db, "-o", tmp_path / "rep"],
    }[command]
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert r.output.startswith(f"error: {db}: ") and "not" in r.output
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.sqlite"]


def _no_work(*_args, **_kwargs):
    raise AssertionError("a job ran for an unsupported pair")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["estimate", "freecell", "-n", 3, "-b", "cpsat"], "cpsat does not support freecell; backends that"),
        (["estimate", "black-hole", "-n", 3, "-b", "cpsat-gaps"], "cpsat-gaps does not support black-hole"),
        (["estimate", "klondike", "-n", 3], "klondike hides cards (thoughtful: false)"),
        (["estimate", "golf", "-n", 3, "-b", "dfs", "-g", "pysol"], "golf hides cards (thoughtful: false)"),
        (["compare", "freecell", "-n", 3, "--backends", "dfs,cpsat"], "cpsat does not support freecell"),
        (["compare", "klondike", "-n", 3, "--backends", "dfs,planning"], "klondike hides cards"),
    ],
)
def test_unsupported_pair_exits_2_before_any_work(fake_backends, tmp_path, monkeypatch, args, message):
    """One line naming the backends that do support the game; no job runs, the store is not created."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("patience.experiments.runner.run_job", _no_work)
    r = run(*args, "--db", tmp_path / "r.sqlite")
    assert r.exit_code == 2, r.output
    assert r.output.startswith("error: ") and message in r.output and r.output.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_unsupported_pair_adds_no_rows_to_an_existing_store(fake_backends, tmp_path):
    db = tmp_path / "r.sqlite"
    r = run("estimate", "black-hole", "-n", 4, "-b", "tinydfs", "-j", 0, "--db", db, *TINY)
    assert r.exit_code == 0, r.output
    before = len(open_store(str(db), create=False).rows())
    assert before == 4
    for args in (
        ["estimate", "black-hole", "-n", 6, "-b", "cpsat-gaps"],
        ["compare", "black-hole", "-n", 6, "-b", "tinydfs,cpsat-gaps"],
    ):
        r = run(*args, "-j", 0, "--db", db, *TINY)
        assert r.exit_code == 2 and "cpsat-gaps does not support black-hole" in r.output, r.output
    store = open_store(str(db), create=False)
    assert len(store.rows()) == before and {row.backend for row in store.rows()} == {"tinydfs"}
    store.close()
