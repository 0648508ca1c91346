"""Backend comparison: deals lined up by seed, the agreement table counts agreements and conflicts, time
ratios against the first backend, the CSV, and conflicting deals saved with a replayable solution."""

from __future__ import annotations

import csv
import io
import json
import math

import pytest

from patience.experiments.compare import compare_rows, save_conflicts
from patience.experiments.runner import Job, run_job
from patience.experiments.store import Row, open_store
from patience.instance import load_instance
from patience.validate import replay

from . import fakes

ENTRIES = tuple(fakes.ENTRIES)  # tinydfs, liar


def _row(backend: str, seed: int, status: str, seconds: float | None) -> Row:
    return Row("black-hole", "{}", "portable", seed, backend, 5.0, status, seconds, sha256=f"sha{seed}")


# seed 1: both decided alike; 2: a conflict; 3: one undecided; 4: b has no row; 5: both lost, b took 0 s.
ROWS = {
    "a": [_row("a", 1, "solved", 2.0), _row("a", 2, "solved", 1.0), _row("a", 3, "unknown", 5.0),
          _row("a", 4, "solved", 0.5), _row("a", 5, "unsolvable", 1.0)],
    "b": [_row("b", 1, "solved", 1.0), _row("b", 2, "unsolvable", 4.0), _row("b", 3, "unsolvable", 0.1),
          _row("b", 5, "unsolvable", 0.0)],
}  # fmt: skip


def test_agreement_table_counts_agreements_and_conflicts() -> None:
    c = compare_rows("black-hole", ("a", "b"), ROWS)
    assert [d.seed for d in c.deals] == [1, 2, 3, 4, 5]
    assert [d.seed for d in c.deals if d.agreed] == [1, 4, 5]  # 4: the one row there is decided
    assert [d.seed for d in c.deals if d.conflict] == [2] and c.conflicts == [c.deals[1]]
    out = c.to_json()
    assert out["deals"] == 5 and out["agreed"] == 3
    assert out["conflicts"] == [{"seed": 2, "sha256": "sha2", "status": {"a": "solved", "b": "unsolvable"}}]
    assert out["per_backend"]["a"]["counts"] == {"solved": 3, "unknown": 1, "unsolvable": 1}
    assert out["per_backend"]["b"]["counts"] == {"solved": 1, "unsolvable": 3}
    assert out["per_backend"]["a"]["total_seconds"] == pytest.approx(9.5)
    assert out["per_backend"]["b"]["total_seconds"] == pytest.approx(5.1)


def test_time_ratios_use_deals_both_decided() -> None:
    c = compare_rows("black-hole", ("a", "b"), ROWS)
    by_seed = {d.seed: d for d in c.deals}
    assert by_seed[1].ratio("b", "a") == pytest.approx(0.5)
    assert by_seed[2].ratio("b", "a") == pytest.approx(4.0)
    assert by_seed[3].ratio("b", "a") is None  # a did not decide
    assert by_seed[4].ratio("b", "a") is None  # b has no row
    assert by_seed[5].ratio("b", "a") is None  # 0 s: no ratio
    summary = c.ratio_summary("b")
    assert summary["deals"] == 2
    assert summary["geomean"] == pytest.approx(math.sqrt(0.5 * 4.0))
    assert (summary["min"], summary["median"], summary["max"]) == pytest.approx((0.5, 2.25, 4.0))
    alone = compare_rows("black-hole", ("a", "b"), {"a": ROWS["a"], "b": []})
    assert alone.ratio_summary("b") == {"deals": 0}


def test_csv_has_one_line_a_deal_with_the_conflict_flag() -> None:
    c = compare_rows("black-hole", ("a", "b"), ROWS)
    lines = list(csv.DictReader(io.StringIO(c.to_csv())))
    assert [int(r["conflict"]) for r in lines] == [0, 1, 0, 0, 0]
    assert lines[0]["ratio_b_vs_a"] == "0.5000" and lines[2]["ratio_b_vs_a"] == ""
    assert lines[3]["b_status"] == "" and lines[3]["b_seconds"] == ""
    assert lines[0]["a_seconds"] == "2.000000" and lines[0]["sha256"] == "sha1"


def test_conflicts_are_saved_with_a_replayable_solution(fake_backends, tmp_path) -> None:
    """The ``liar`` fake calls every seed that is a multiple of 4 UNSOLVABLE: those that ``tinydfs`` won are
    the conflicts, written as instances with tinydfs's solution, which replays as a win."""
    seeds = range(1, 13)
    with open_store(":memory:") as store:
        rows = {b: run_job(Job("black-hole", seeds, b, 5.0, "portable", fakes.TINY), store) for b in ENTRIES}
    c = compare_rows("black-hole", ("tinydfs", "liar"), rows)
    won = {r.seed for r in rows["tinydfs"] if r.status == "solved"}
    expected = sorted(s for s in won if s % 4 == 0)
    assert [d.seed for d in c.conflicts] == expected and expected, "no planted conflict was won"
    written = save_conflicts(c, tmp_path, "portable", fakes.TINY, 5.0)
    listing = json.loads((tmp_path / "conflicts.json").read_text())
    assert [e["seed"] for e in listing["conflicts"]] == expected
    assert listing["rules"] == fakes.TINY and listing["generator"] == "portable"
    for entry in listing["conflicts"]:
        inst = load_instance(tmp_path / entry["instance"])
        shas = {d.seed: d.sha256 for d in c.conflicts}
        assert inst.sha256 == entry["sha256"] == shas[entry["seed"]]
        assert list(entry["solutions"]) == ["tinydfs"]  # liar never solved it
        sol = json.loads((tmp_path / entry["solutions"]["tinydfs"]).read_text())
        assert replay(inst, sol["moves"]).won
    assert len(written) == 2 * len(expected) + 1


def test_no_conflict_writes_nothing(fake_backends, tmp_path) -> None:
    c = compare_rows("black-hole", ("a", "b"), {"a": ROWS["a"][:1], "b": ROWS["b"][:1]})
    assert save_conflicts(c, tmp_path, "portable", None, 5.0) == []
    assert list(tmp_path.iterdir()) == []
