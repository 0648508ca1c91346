"""The cold-cache check (:mod:`patience.solvers.jit_cache`): numba's on-disk cache, read as numba reads it."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

from patience.solvers import dfs_jit, gaps_jit, hole_kernel, jit_cache, planning_jit, row_jit
from patience.solvers.jit_budget import Kernels
from patience.solvers.jit_cache import all_cached, cached

pytestmark = pytest.mark.skipif(not jit_cache.HAVE_NUMBA, reason="numba off: nothing is ever cached")

SRC = Path(hole_kernel.__file__).parents[2]  # the tree under test, for the subprocess
TINY = "from numba import njit\n\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n"


def _module(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_function_is_cached_once_compiled_and_until_its_source_changes(tmp_path: Path) -> None:
    src = tmp_path / "tiny_kernel.py"
    src.write_text(TINY)
    fn = _module(src, "tiny_kernel").twice
    assert not cached(fn)  # nothing on disk: the first call compiles
    assert fn(21) == 42
    assert cached(fn) and all_cached([fn])
    assert cached(_module(src, "tiny_kernel_again").twice)  # a new process would load it
    src.write_text(TINY + "# edited\n")  # another source: numba's index is stale for it
    assert not cached(_module(src, "tiny_kernel_edited").twice)
    assert all_cached([])


@pytest.mark.parametrize(
    "kernels",
    [dfs_jit.KERNELS, planning_jit.KERNELS, gaps_jit.KERNELS, row_jit.KERNELS, hole_kernel.KERNELS],
    ids=["dfs-jit", "planning-jit", "gaps-jit", "row-jit", "hole"],
)
def test_a_warmed_cache_holds_every_entry_point(kernels: Kernels) -> None:
    """After a backend's load (what ``python -m patience.solvers.warm`` runs), the check finds every
    function its search calls in numba's cache (a load from the cache when already warm)."""
    kernels.load()
    got = list(kernels.entries())
    assert got and all(cached(d) for d in got)


def test_a_cold_cache_solve_keeps_its_limit(tmp_path: Path) -> None:
    """``auto`` on a FreeCell deal with numba's cache empty: no compiled stage compiles (a compile would take
    minutes; their Python twins run instead), the solve ends near its limit and one line on stderr names the
    fix."""
    limit = 3.0
    env = {k: v for k, v in os.environ.items() if k != "PATIENCE_NO_JIT"}
    env.update(NUMBA_CACHE_DIR=str(tmp_path / "numba"), PYTHONPATH=str(SRC))
    cmd = [sys.executable, "-m", "patience", "solve", "freecell:1", "-g", "ms", "--limit", f"{limit}s"]
    cmd.append("--json")
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False, timeout=120)
    wall = time.perf_counter() - t0
    out = json.loads(r.stdout)
    assert out["stats"]["seconds"] <= limit + 1.0, out["stats"]  # uncompiled: the deadline guard holds
    assert wall <= limit + 10.0  # interpreter and imports on a loaded machine; a compile takes minutes
    warnings = [line for line in r.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "runs in its place" in warnings[0], r.stderr
    assert "python -m patience.solvers.warm" in warnings[0]
    compiled = {k: v for k, v in out["stats"].items() if k.endswith("_compiled")}
    assert all(v == 0 for v in compiled.values()), out["stats"]
    assert not list((tmp_path / "numba").rglob("*.nbc"))  # nothing was compiled into the cache
