"""Searches side by side on the cores of one machine: the first to end stops the others.

Used where two complete or sound searches of one deal decide different deals and a second core is
there: the CP-SAT decision model of a 104-card hole deal beside its win stage (:mod:`.cpsat_hole`), or
two decision orders of the Gaps model (:mod:`.cpsat_gaps`). CP-SAT releases the GIL while it searches,
so threads use the cores; each run gets an event that, once set, must make it end soon (CP-SAT solves
take it as ``until``: :func:`patience.interrupt.solve_cpsat`).

The runs share one limit, so a run ends either with its verdict or at that limit; either way the
others have nothing left to add, and the first run to end sets the event. A stopped run's result is
still returned (a stopped CP-SAT solve ends UNKNOWN unless it had already decided), so the caller can
check that two verdicts agree: soundness stays each run's own, and a disagreement is a bug to report.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["race"]


def race(runs: Sequence[Callable[[threading.Event], Any]]) -> list[Any]:
    """Run each of ``runs`` with one shared stop event, the first in this thread (so Ctrl-C reaches its
    CP-SAT solve) and each other one in its own thread; the first to return sets the event. Returns their
    results in order, once all have ended; an exception in any run is raised here after the others have
    stopped (an interrupt first)."""
    until = threading.Event()
    box: dict[int, Any] = {}
    errors: dict[int, BaseException] = {}

    def run(i: int) -> None:
        try:
            box[i] = runs[i](until)
        except BaseException as err:  # handed to the caller's thread below
            errors[i] = err
        finally:
            until.set()

    threads = [
        threading.Thread(target=run, args=(i,), name=f"race-{i}", daemon=True) for i in range(1, len(runs))
    ]
    for thread in threads:
        thread.start()
    try:
        run(0)
    finally:
        until.set()
        for thread in threads:
            thread.join()
    for i in sorted(errors, key=lambda i: not isinstance(errors[i], KeyboardInterrupt)):
        raise errors[i]
    return [box.get(i) for i in range(len(runs))]
