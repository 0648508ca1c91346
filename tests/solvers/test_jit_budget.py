"""The kernel-load guard and the time budget after the load (:mod:`patience.solvers.jit_budget`)."""

from __future__ import annotations

import time

import pytest

from patience.memguard import KERNEL_LOAD_S
from patience.solvers import dfs_jit, gaps_jit, jit_budget, planning_jit, row_jit
from patience.solvers.base import Limits
from patience.solvers.jit_budget import Kernels

pytestmark = pytest.mark.skipif(not jit_budget.HAVE_NUMBA, reason="numba off: nothing is ever loaded")


def _slow_kernels(calls: list[float]) -> Kernels:
    return Kernels(lambda: calls.append(time.perf_counter()) or time.sleep(0.3))


def test_the_budget_counts_from_after_the_load() -> None:
    calls: list[float] = []
    kernels = _slow_kernels(calls)
    t0 = time.perf_counter()
    got = kernels.start(True, t0, Limits(seconds=2.0, nodes=7))
    assert got.jit and kernels.ready and len(calls) == 1
    assert got.jit_s >= 0.3 and got.t0 >= t0 + 0.3
    assert got.limits.nodes == 7
    assert got.t0 + got.limits.seconds == pytest.approx(t0 + 2.0)  # the caller's deadline is kept
    assert got.limits.seconds <= 1.7


def test_loaded_once_a_process() -> None:
    calls: list[float] = []
    kernels = _slow_kernels(calls)
    kernels.start(True, time.perf_counter(), Limits(seconds=5.0))
    t0 = time.perf_counter()
    again = kernels.start(True, t0, Limits(seconds=5.0))
    assert len(calls) == 1 and again.jit and again.jit_s == 0.0
    assert again.limits.seconds == pytest.approx(5.0, abs=0.05)
    assert kernels.warm(True) == 0.0 and len(calls) == 1


def test_no_load_without_the_time_for_it() -> None:
    calls: list[float] = []
    kernels = _slow_kernels(calls)
    got = kernels.start(True, time.perf_counter(), Limits(seconds=KERNEL_LOAD_S * 0.5))
    assert not got.jit and got.jit_s == 0.0 and not calls and not kernels.ready
    got = kernels.start(False, time.perf_counter(), Limits(seconds=60))  # uncompiled asked: nothing loaded
    assert not got.jit and not calls and not kernels.ready


def test_loaded_kernels_run_compiled_with_little_time() -> None:
    kernels = _slow_kernels([])
    kernels.warm(True)
    got = kernels.start(True, time.perf_counter(), Limits(seconds=KERNEL_LOAD_S * 0.5))
    assert got.jit and got.jit_s == 0.0


def test_each_backend_keeps_its_own() -> None:
    """dfs-jit, planning-jit, gaps-jit and row-jit each load their own kernels (one :class:`Kernels` each)."""
    got = [dfs_jit.KERNELS, planning_jit.KERNELS, gaps_jit.KERNELS, row_jit.KERNELS]
    assert len({id(k) for k in got}) == 4 and all(isinstance(k, Kernels) for k in got)


def _cold_kernels(calls: list[float], monkeypatch: pytest.MonkeyPatch, cached: bool) -> Kernels:
    """Kernels whose cache check answers ``cached`` and whose compile would take 100 s."""
    monkeypatch.setattr(jit_budget, "all_cached", lambda entries: cached)
    monkeypatch.setattr(jit_budget, "_warned", False)
    kernels = _slow_kernels(calls)
    kernels.compile_s, kernels.name = 100.0, "test-jit"
    return kernels


def test_a_cold_cache_runs_uncompiled_and_says_how_to_warm(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The cache lacks the kernels and the limit cannot absorb their compile: no load, one warning line
    (once a process) naming the fix, and the whole limit left for the uncompiled search."""
    calls: list[float] = []
    kernels = _cold_kernels(calls, monkeypatch, cached=False)
    t0 = time.perf_counter()
    got = kernels.start(True, t0, Limits(seconds=10.0))
    assert not got.jit and got.jit_s == 0.0 and not calls and not kernels.ready
    assert got.limits.seconds == pytest.approx(10.0, abs=0.05)
    kernels.start(True, time.perf_counter(), Limits(seconds=10.0))
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("warning: test-jit runs uncompiled")
    assert f"`{jit_budget.FIX}`" in err[0] and jit_budget.FIX == "python -m patience.solvers.warm"


def test_a_limit_that_absorbs_the_compile_compiles(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[float] = []
    kernels = _cold_kernels(calls, monkeypatch, cached=False)
    got = kernels.start(True, time.perf_counter(), Limits(seconds=KERNEL_LOAD_S + 101.0))
    assert got.jit and kernels.ready and len(calls) == 1


def test_a_warm_cache_loads_with_a_short_limit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[float] = []
    kernels = _cold_kernels(calls, monkeypatch, cached=True)
    got = kernels.start(True, time.perf_counter(), Limits(seconds=KERNEL_LOAD_S + 1.0))
    assert got.jit and kernels.ready and len(calls) == 1 and not capsys.readouterr().err


def test_the_options_follow_the_grant() -> None:
    """Budget.options: a backend's options with ``jit`` off when the load was refused, else unchanged."""
    opts = dfs_jit.DfsJitOptions()
    kernels = _slow_kernels([])
    refused = kernels.start(True, time.perf_counter(), Limits(seconds=KERNEL_LOAD_S * 0.5))
    assert refused.options(opts) == dfs_jit.DfsJitOptions(jit=False)
    kernels.warm(True)
    assert kernels.start(True, time.perf_counter(), Limits(seconds=1.0)).options(opts) is opts
