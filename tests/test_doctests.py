"""Doctests: the default test run collects every ``>>>`` example in src/patience (pyproject's addopts and
testpaths), the main public functions have one, and collecting them needs no optional extra (the modules
that use unified-planning or Dask import it inside the function that needs it)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import patience

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "patience"
# Top-level packages of the optional extras.
EXTRAS = ("unified_planning", "up_fast_downward", "up_pyperplan")  # [planners]
EXTRAS += ("distributed", "dask", "nbclient", "nbformat")  # [dist], and the notebook runners of [dev]
# The entry points a reader meets first: each shows how it is called.
DOCUMENTED = [
    "patience.deals.deal",
    "patience.solvers.base.solve",
    "patience.validate.replay",
    "patience.rules.load_game",
    "patience.rng.mt19937",
    "patience.rng.stream",
    "patience.rng.draw_below",
    "patience.rng.shuffle_mt",
    "patience.experiments.stats.wilson",
    "patience.experiments.stats.estimate",
    "patience.cards.parse_card",
]

_COLLECT = """
import importlib.abc, sys
BLOCKED = set(sys.argv[1].split(","))

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)
        return None

sys.meta_path.insert(0, Block())
import pytest
args = ["--collect-only", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "--doctest-modules", sys.argv[2]]
sys.exit(pytest.main(args))
"""


def _examples() -> set[str]:
    """Names of the docstrings with examples in every patience module, found by the standard library."""
    finder = doctest.DocTestFinder()
    names = set()
    for info in pkgutil.walk_packages(patience.__path__, "patience."):
        if info.name == "patience.__main__":
            continue
        module = importlib.import_module(info.name)
        names |= {t.name for t in finder.find(module) if t.examples}
    return names


def test_pytest_is_configured_to_collect_doctests() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "--doctest-modules" in config["addopts"].split()
    assert "src/patience" in config["testpaths"] and "tests" in config["testpaths"]


def test_main_functions_have_examples() -> None:
    missing = sorted(set(DOCUMENTED) - _examples())
    assert not missing, f"no >>> example: {missing}"


def test_every_example_is_collected_without_the_optional_extras() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _COLLECT, ",".join(EXTRAS), str(SRC)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    collected = {line.split("::", 1)[1] for line in done.stdout.splitlines() if "::" in line}
    assert collected == _examples()
    assert len(collected) >= len(DOCUMENTED)
