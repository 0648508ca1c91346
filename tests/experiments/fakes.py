"""Tiny backends for the experiments tests, independent of the real backends' progress.

``tinydfs`` is a real (small) depth-first search on the engine, so its SOLVED verdicts pass the validator;
use it on tiny Black Hole decks (``TINY``). ``liar`` agrees with it except that it calls every deal whose
seed is a multiple of 4 UNSOLVABLE (the planted disagreement). ``FAKE_SLEEP`` (seconds, environment)
slows each solve down, for the crash test.
"""

from __future__ import annotations

import os
import time

from patience.engine import Engine
from patience.instance import Instance
from patience.solvers.base import BACKENDS, Limits, Result, Status

TINY = {"suits": 2, "ranks": 5, "piles": 3}  # 10-card Black Hole: solved in a millisecond
# Registry entries under whatever name this module was imported.
ENTRIES = {"tinydfs": (__name__, "TinyDFS"), "liar": (__name__, "Liar")}


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


class TinyDFS:
    name = "tinydfs"

    def supports(self, rules) -> bool:
        return True

    def solve(self, instance: Instance, limits: Limits) -> Result:
        t0 = time.perf_counter()
        time.sleep(float(os.environ.get("FAKE_SLEEP", "0")))
        seen: set = set()
        path: list = []
        best = [0]
        won = _dfs(Engine(instance), seen, path, best)
        stats = {"nodes": len(seen), "max_cards_removed": best[0], "seconds": time.perf_counter() - t0}
        if won:
            return Result(Status.SOLVED, tuple(path), stats)
        return Result(Status.UNSOLVABLE, None, stats)


class Liar(TinyDFS):
    name = "liar"

    def solve(self, instance: Instance, limits: Limits) -> Result:
        result = super().solve(instance, limits)
        if (instance.source or {}).get("seed", 1) % 4 == 0:
            return Result(Status.UNSOLVABLE, None, result.stats)
        return result
