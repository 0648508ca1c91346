"""The top-level Python API: deal, load, solve, validate, games; the README's example runs as a doctest;
``import patience`` stays light, and ``patience.validate`` works whatever was imported first."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path

import pytest

import patience
from patience.formats import write_deal
from patience.solvers.base import Status

ROOT = Path(__file__).resolve().parents[1]


def test_readme_python_api_block_runs_as_a_doctest() -> None:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Python API", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None and ">>> import patience" in block.group(1)
    test = doctest.DocTestParser().get_doctest(block.group(1), {}, "README Python API", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 6


def test_deal_solve_validate_round() -> None:
    inst = patience.deal("black-hole", 1, suits=2, ranks=5, piles=3)
    assert inst == patience.deal("black-hole", 1, overrides={"suits": 2, "ranks": 5, "piles": 3})
    res = patience.solve(inst, backend="dfs", limit=10)
    assert res.solved and res.status is Status.SOLVED and res.seconds is not None
    assert patience.validate(inst, res.moves).won
    assert patience.validate(inst, res).won  # the result itself, or a solution object
    assert patience.validate(inst, {"moves": res.moves}).won
    bad = patience.validate(inst, res.moves[:-1] + [res.moves[0]])
    assert not bad.ok and bad.index == len(res.moves) - 1


def test_unsupported_and_options() -> None:
    inst = patience.deal("black-hole", 1, suits=2, ranks=5, piles=3)
    res = patience.solve(inst, backend="cpsat-gaps")
    assert res.status is Status.UNSUPPORTED and "backends that do" in res.message and res.moves == []
    assert patience.solve(inst, backend="dfs", limit=10, nodes=1).status in (Status.SOLVED, Status.UNKNOWN)
    with pytest.raises(ValueError, match="named backend"):
        patience.solve(inst, backend="auto", weight=2)


def test_load_reads_every_format(tmp_path: Path) -> None:
    inst = patience.deal("black-hole", 3, "pysol")
    for fmt in ("json", "board", "solvitaire"):
        path = tmp_path / f"d.{fmt}"
        path.write_text(write_deal(inst, fmt))
        assert patience.load(path, game="black-hole" if fmt == "solvitaire" else None).sha256 == inst.sha256
    with pytest.raises(ValueError, match="cannot read"):
        patience.load(tmp_path / "missing.json")


def test_games_and_unknown_attribute() -> None:
    names = patience.games()
    assert names == sorted(names) and {"black-hole", "freecell"} <= set(names)
    with pytest.raises(AttributeError, match="no_such"):
        patience.no_such  # noqa: B018


_ORDER = """
import sys
{first}
import patience
inst = patience.deal("black-hole", 1, suits=2, ranks=5, piles=3)
res = patience.solve(inst, backend="dfs", limit=10)
assert patience.validate(inst, res.moves).won
from patience.validate import replay
assert replay(inst, res.moves).won and patience.validate.replay is replay
print("ok")
"""


@pytest.mark.parametrize(
    "first", ["", "from patience.validate import replay", "import patience.validate", "import patience.api"]
)
def test_validate_is_callable_whatever_was_imported_first(first: str) -> None:
    done = subprocess.run([sys.executable, "-c", _ORDER.format(first=first)], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_import_patience_loads_nothing_else() -> None:
    code = "import sys, patience; print(sorted(m for m in sys.modules if m.startswith('patience')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "['patience']", done.stdout + done.stderr


TINY_BH = {"suits": 2, "ranks": 5, "piles": 3}


def test_estimate_and_compare_batches_resume_from_their_store(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    first = patience.estimate("black-hole", 5, backend="dfs", limit=5, db=db, **TINY_BH)
    assert [r.seed for r in first.rows] == [1, 2, 3, 4, 5]
    assert first.summary.n == 5 and sum(first.summary.counts.values()) == 5
    again = patience.estimate("black-hole", 8, backend="dfs", limit=5, db=db, **TINY_BH)
    assert [r.finished for r in again.rows[:5]] == [r.finished for r in first.rows]  # not solved again
    cmp, rows = patience.compare("black-hole", ["dfs", "planning"], 6, limit=5, **TINY_BH)
    assert [d.seed for d in cmp.deals] == list(range(1, 7)) and not cmp.conflicts
    assert {b: len(r) for b, r in rows.items()} == {"dfs": 6, "planning": 6}
    with pytest.raises(ValueError, match="two or more"):
        patience.compare("black-hole", ["dfs", "dfs"], 2)
