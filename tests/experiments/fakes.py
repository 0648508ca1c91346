"""Tiny backends for the experiments tests, independent of the real backends' progress.

``tinydfs`` is a real (small) depth-first search on the engine, so its SOLVED verdicts pass the validator;
use it on tiny Black Hole decks (``TINY``). ``liar`` agrees with it except that it calls every deal whose
seed is a multiple of 4 UNSOLVABLE (the planted disagreement). ``FAKE_SLEEP`` (seconds, environment)
slows each solve down, for the crash test. ``hog`` only allocates memory (up to ``HOG_MB``), for the memory
limit's tests; ``late`` ignores its deadline (busy for ``LATE_S``), for the time limit's.
"""

from __future__ import annotations

import os
import time

from patience.engine import Engine
from patience.instance import Instance
from patience.solvers.base import BACKENDS, Backend, Entry, Limits, MaxCards, Result, Status

TINY = {"suits": 2, "ranks": 5, "piles": 3}  # 10-card Black Hole: solved in a millisecond
# Registry entries under whatever name this module was imported (no light predicate: the class answers).
ENTRIES = {
    name: Entry(name, __name__, cls)
    for name, cls in (("tinydfs", "TinyDFS"), ("liar", "Liar"), ("hog", "Hog"), ("late", "Late"))
}


def register(monkeypatch=None) -> None:
    """Add the fakes to the backend registry (through ``monkeypatch`` in tests)."""
    for name, entry in ENTRIES.items():
        if monkeypatch is not None:
            monkeypatch.setitem(BACKENDS, name, entry)
        else:
            BACKENDS[name] = entry


def _dfs(e: Engine, seen: set, path: list, best: list) -> bool:
    best[0] = max(best[0], e.foundation_cards())
    if e.is_won():
        return True
    k = e.key()
    if k in seen:
        return False
    seen.add(k)
    for m in e.legal_moves():
        path.append(e.move_to_json(m))
        e.apply(m)
        if _dfs(e, seen, path, best):
            return True
        e.undo()
        path.pop()
    return False


class TinyDFS(Backend):
    name = "tinydfs"

    def supports(self, rules) -> bool:
        return True

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        time.sleep(float(os.environ.get("FAKE_SLEEP", "0")))
        seen: set = set()
        path: list = []
        best = [0]
        won = _dfs(Engine(instance), seen, path, best)
        stats = {"nodes": len(seen)}
        if won:
            return Result(Status.SOLVED, tuple(path), stats)
        return Result(Status.UNSOLVABLE, None, stats, max_cards=MaxCards(best[0], best[0]))


class Liar(TinyDFS):
    name = "liar"

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        result = super()._solve(instance, limits)
        if (instance.source or {}).get("seed", 1) % 4 == 0:
            return Result(Status.UNSOLVABLE, None, result.stats)
        return result


HOG_MB = 1500  # the most ``hog`` takes: a guard that never fires fails the test, not the machine


class Hog(TinyDFS):
    name = "hog"

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        held = []
        for _ in range(HOG_MB // 10):
            held.append(bytearray(10 << 20))  # zero-filled pages: resident
            time.sleep(0.005)  # time for the guard's poll
        return Result(Status.UNKNOWN, None, {"held_mb": 10 * len(held)}, message="not stopped")


LATE_S = 20.0  # how long ``late`` works past any limit: a guard that never fires fails the test, slowly


class Late(TinyDFS):
    """Work that never looks at the clock (a long model build, a kernel loading): only the guard stops it."""

    name = "late"

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        end = time.monotonic() + LATE_S
        spins = 0
        while time.monotonic() < end:
            spins += 1
        return Result(Status.UNKNOWN, None, {"spins": spins}, message="not stopped")
