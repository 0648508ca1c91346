"""The win stage beside the decision model (cpsat_hole.race): the first verdict stops the other search
promptly, errors reach the caller, and the backend's verdicts beside are dfs's on small decks."""

from __future__ import annotations

import threading
import time

import pytest
from ortools.sat.python import cp_model

from patience.deals import deal
from patience.solvers.base import Limits, Status, get_solver
from patience.solvers.cpsat_hole import CpSatBlackHole, HoleDeal
from patience.solvers.cpsat_hole.lns import LnsResult
from patience.solvers.cpsat_hole.model import build_model
from patience.solvers.cpsat_hole.params import parameters
from patience.solvers.cpsat_hole.race import race

# A 104-card deal the decision model does not decide within a few seconds (docs/cpsat-hole-notes.md).
BIG = deal("all-in-a-row", 20, "portable", {"suits": 8})


def _slow_search(until: threading.Event) -> LnsResult:
    """Never finds anything; ends when told to (or after 60 s, which would fail the tests' timings)."""
    until.wait(60)
    return LnsResult(None, False, 0)


def test_a_win_of_the_search_stops_cp_sat():
    v = build_model(HoleDeal.from_instance(BIG), "table")
    win = LnsResult([(0, 1, 0, 0)], False, 1)

    def search(until: threading.Event) -> LnsResult:
        time.sleep(0.3)
        return win

    t0 = time.perf_counter()
    status, found = race(parameters(60, 1, "table", large=True), v.model, search)
    assert found is win and status == cp_model.UNKNOWN
    assert time.perf_counter() - t0 < 10  # not the 60 s limit


def test_a_cp_sat_verdict_stops_the_search():
    m = cp_model.CpModel()
    x = m.new_bool_var("x")
    m.add_bool_and([x, ~x])  # infeasible at once
    t0 = time.perf_counter()
    status, found = race(parameters(60, 1, "table"), m, _slow_search)
    assert status == cp_model.INFEASIBLE and found is not None and found.events is None
    assert time.perf_counter() - t0 < 10


def test_an_error_in_the_search_reaches_the_caller_and_stops_cp_sat():
    v = build_model(HoleDeal.from_instance(BIG), "table")

    def broken(until: threading.Event) -> LnsResult:
        raise RuntimeError("broken search")

    t0 = time.perf_counter()
    with pytest.raises(RuntimeError, match="broken search"):
        race(parameters(60, 1, "table", large=True), v.model, broken)
    assert time.perf_counter() - t0 < 10


@pytest.mark.parametrize("lns", [False, True])
def test_the_backend_beside_gives_dfs_verdicts(lns):
    extra = {"lns_after": 0.0} if lns else {}
    opts = {"presearch_nodes": 0, "max_cards": False, "large_cards": 10, "workers": 2, "beside": True}
    backend = CpSatBlackHole(**opts, **extra)
    seen = set()
    for seed in (1, 2, 3, 14):  # 14 is lost
        inst = deal("all-in-a-row", seed, "portable", {"suits": 2})
        truth = get_solver("dfs").solve(inst, Limits(seconds=30)).status
        r = backend.solve(inst, Limits(seconds=30))
        assert r.status is truth, (seed, r)
        seen.add(truth)
    assert seen == {Status.SOLVED, Status.UNSOLVABLE}


def test_beside_needs_a_second_worker():
    with pytest.raises(ValueError, match="beside needs workers >= 2"):
        CpSatBlackHole(beside=True)
