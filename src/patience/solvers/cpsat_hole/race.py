"""The win stage beside the decision model: two searches on two cores, the first verdict stops the other.

At 104 cards the decision model of the whole deal and the win stage (:mod:`.cubes` or :mod:`.lns`)
decide different deals: the model proves the slow losses and finds some late wins, the cubes find wins
the model misses (docs/cpsat-hole-notes.md). Run one after the other in one limit, each loses what the
other's share of the time would have given it; with a second core they can run side by side, each
for the whole limit. CP-SAT releases the GIL while it searches, so two threads use two cores (the win
stage's own Python work, greedy playouts and model building, is a small share of its time).

Soundness is each search's own: the decision model's status is CP-SAT's (a proof or a solution), the win
stage returns a win only with its whole play (replayed by the backend) and a loss only from its own
proof (:attr:`~.lns.LnsResult.lost`). Stopping a search early only turns its answer into "unknown".
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ortools.sat.python import cp_model

from ...interrupt import solve_cpsat
from .lns import LnsResult

__all__ = ["race"]

Search = Callable[[threading.Event], LnsResult]


def race(solver: cp_model.CpSolver, model: cp_model.CpModel, search: Search) -> tuple[Any, LnsResult | None]:
    """Solve ``model`` with ``solver`` while ``search(until)`` runs in a thread; CP-SAT's status and the
    search's result (None if it raised nothing but never returned one).

    Whichever ends with a verdict (CP-SAT proves or solves; the search finds a win or a loss) sets the
    shared event, which stops the other; when CP-SAT ends without one (its time limit), the search is
    stopped too, and both end within about a CP-SAT stop (tens of ms). An error in the search thread is
    raised here.
    """
    until = threading.Event()
    box: dict[str, Any] = {}

    def stage() -> None:
        try:
            found = search(until)
            box["found"] = found
            if found.events is not None or found.lost:
                until.set()
        except BaseException as err:  # handed to the caller's thread below
            box["error"] = err
            until.set()

    thread = threading.Thread(target=stage, name="win-stage", daemon=True)
    thread.start()
    try:
        status = solve_cpsat(solver, model, until)
    finally:
        until.set()  # a verdict, the time limit or an interrupt: the search stops too
        thread.join()
    if "error" in box:
        raise box["error"]
    return status, box.get("found")
