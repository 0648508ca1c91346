"""The time limit holds for work that never looks at the clock: the guard stops it (UNKNOWN "time limit")
in ``solve`` and in ``estimate``'s tasks, inline and in a pool worker."""

from __future__ import annotations

import time

from click.testing import CliRunner

from patience.cli import main
from patience.experiments.executors import ProcessExecutor
from patience.experiments.runner import Job, run_task
from patience.memguard import GRACE_S

from . import fakes

ROOM_S = 3.0  # past limit + grace: a loaded machine's unwinding and process start


def _task(limit_s: float):
    return next(Job("black-hole", range(1, 2), "late", limit_s, "portable", fakes.TINY).tasks([1]))


def test_solve_stops_a_backend_that_ignores_its_limit(fake_backends) -> None:
    sets = [a for k, v in fakes.TINY.items() for a in ("--set", f"{k}={v}")]
    t0 = time.perf_counter()
    r = CliRunner().invoke(main, ["solve", "black-hole:1", *sets, "-b", "late", "--limit", "500ms", "--json"])
    took = time.perf_counter() - t0
    assert r.exit_code == 0, r.output
    assert '"message": "time limit"' in r.stdout and '"reason": "time"' in r.stdout
    assert took < 0.5 + GRACE_S + ROOM_S, took  # not LATE_S


def test_estimate_tasks_stop_inline_and_in_a_worker(fake_backends) -> None:
    t0 = time.perf_counter()
    row, _ = run_task(_task(0.5))
    assert time.perf_counter() - t0 < 0.5 + GRACE_S + ROOM_S
    assert (row.status, row.message, row.stats.get("reason")) == ("unknown", "time limit", "time")
    ex = ProcessExecutor(1)
    try:
        [(row, _)] = list(ex.map_unordered(run_task, [_task(0.5)]))  # a worker ignores SIGINT
    finally:
        ex.close()
    assert (row.status, row.message) == ("unknown", "time limit")
    assert row.seconds < 0.5 + GRACE_S + ROOM_S
