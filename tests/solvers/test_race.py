"""Searches side by side (solvers.race): the first run to end stops the others promptly, CP-SAT solves
included; results come back in order; errors (an interrupt first) reach the caller."""

from __future__ import annotations

import threading
import time

import pytest
from ortools.sat.python import cp_model

from patience.deals import deal
from patience.interrupt import solve_cpsat
from patience.solvers.cpsat_hole import HoleDeal
from patience.solvers.cpsat_hole.model import build_model
from patience.solvers.cpsat_hole.params import parameters
from patience.solvers.race import race

LONG = 60.0  # a run that waited this long would fail the timings below


def _big_model() -> cp_model.CpModel:
    """A 104-card deal the decision model does not decide within seconds (docs/cpsat-hole-notes.md)."""
    inst = deal("all-in-a-row", 20, "portable", {"suits": 8})
    return build_model(HoleDeal.from_instance(inst), "table").model


def _waits(until: threading.Event) -> str:
    until.wait(LONG)
    return "stopped"


def test_the_first_to_end_stops_a_cp_sat_solve_and_the_others():
    model = _big_model()
    solver = parameters(LONG, 1, "table", large=True)
    t0 = time.perf_counter()
    out = race([lambda u: solve_cpsat(solver, model, u), lambda u: time.sleep(0.3) or "won", _waits])
    assert out == [cp_model.UNKNOWN, "won", "stopped"]
    assert time.perf_counter() - t0 < 10


def test_a_cp_sat_verdict_in_this_thread_stops_the_others():
    m = cp_model.CpModel()
    x = m.new_bool_var("x")
    m.add_bool_and([x, ~x])  # infeasible at once
    t0 = time.perf_counter()
    out = race([lambda u: solve_cpsat(parameters(LONG, 1, "table"), m, u), _waits])
    assert out == [cp_model.INFEASIBLE, "stopped"]
    assert time.perf_counter() - t0 < 10


def test_an_error_in_a_thread_reaches_the_caller_after_the_others_stop():
    model = _big_model()
    solver = parameters(LONG, 1, "table", large=True)

    def broken(until: threading.Event) -> None:
        raise RuntimeError("broken search")

    t0 = time.perf_counter()
    with pytest.raises(RuntimeError, match="broken search"):
        race([lambda u: solve_cpsat(solver, model, u), broken])
    assert time.perf_counter() - t0 < 10


def test_an_interrupt_is_raised_before_other_errors():
    def interrupted(until: threading.Event) -> None:
        time.sleep(0.1)
        raise KeyboardInterrupt

    def broken(until: threading.Event) -> None:
        raise RuntimeError("broken")

    with pytest.raises(KeyboardInterrupt):
        race([broken, interrupted])
