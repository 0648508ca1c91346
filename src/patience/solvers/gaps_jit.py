"""The ``gaps-jit`` backend: ``dfs``'s search of a Gaps grid, run by the compiled :mod:`.gaps_kernel` (the
same moves, order and nodes; a 128-bit key table; plain Python with ``PATIENCE_NO_JIT=1``).

Why: Gaps was the one cross-checked game where ``auto`` trailed Solvitaire, on the Python ``dfs``
(benchmarks/out/crosscheck_gapsjit_seeds1-50.md has the figures). Redeals (``gaps``: two) are searched as the
engine plays them: the seeded shuffle of the loose cards (:func:`patience.rng.gaps_redeal_shuffle`, keyed by
the instance's sha256) is a permutation fixed by the deal, the redeal's number and the cards' count, tabled
when the deal is packed. Stats as ``dfs`` (``nodes``, ``table_hits`` — here also states met on the path —,
``peak_mb``), plus ``compiled``, ``jit_s`` and ``table_clears``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..engine import Engine, moves_to_json
from ..instance import Instance
from ..memguard import MEMORY_OUT
from ..rules import RuleSet
from .base import Backend, Limits, MaxCards, Reason, Result, Status
from .jit_budget import Kernels
from .registry import gaps_kernel_supports

__all__ = ["KERNELS", "GapsJitOptions", "GapsJitSolver"]

DEFAULT_MEMORY_MB = 1024
_MB = 1 << 20


def _load() -> None:
    """Compile or load the Gaps kernel (imported here, so numba is imported only by a compiled solve)."""
    from . import gaps_kernel

    gaps_kernel.warm_up()


def _entries() -> list[object]:
    from . import gaps_kernel

    return gaps_kernel.entry_points()


# The Gaps kernel, loaded once a process (:mod:`.jit_budget`); its compile from a cold cache took 12.5 s at a
# load of 5-6 on 2 cores (benchmarks/out/cold_cache_guard.md).
KERNELS = Kernels(_load, _entries, compile_s=15.0, name="gaps-jit")


@dataclass(frozen=True)
class GapsJitOptions:
    """Options of ``gaps-jit``: ``jit`` False runs the kernel uncompiled (as ``PATIENCE_NO_JIT=1`` does)."""

    jit: bool = True


class GapsJitSolver(Backend):
    """Compiled depth-first search of Gaps grids (module docstring)."""

    name = "gaps-jit"
    kernels = KERNELS
    Options = GapsJitOptions
    options: GapsJitOptions

    def supports(self, rules: RuleSet) -> bool:
        """Gaps grids of one deck (:func:`.registry.gaps_kernel_supports`)."""
        return gaps_kernel_supports(rules)

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        from . import gaps_kernel

        opts = self.options
        t0 = time.perf_counter()
        engine = Engine(instance)
        stats: dict[str, float] = {"nodes": 0.0}
        if engine.is_won():
            return Result(Status.SOLVED, [], stats, self.name)
        budget = KERNELS.start(opts.jit, t0, limits)
        opts = budget.options(opts)  # jit off if the load was refused
        o = gaps_kernel.run(
            gaps_kernel.pack(engine),
            deadline=budget.t0 + budget.limits.seconds,
            node_cap=-1 if limits.nodes is None else limits.nodes,
            memory_bytes=float(limits.memory_mb or DEFAULT_MEMORY_MB) * _MB,
            jit=opts.jit,
        )
        stats.update(
            nodes=o["nodes"],
            table_hits=o["hits"],
            peak_mb=o["peak_bytes"] / _MB,
            best_foundation=0,  # a Gaps grid has no foundations (as dfs reports it)
            compiled=float(o["compiled"]),
            jit_s=budget.jit_s,
            table_clears=o["clears"],
        )
        if o["won"]:
            moves = [gaps_kernel.to_move(m) for m in o["moves"]]
            return Result(Status.SOLVED, moves_to_json(instance, moves), stats, self.name)
        if o["complete"]:
            return Result(Status.UNSOLVABLE, None, stats, self.name, max_cards=MaxCards(0, 0))
        stop = o["stop"]
        message = {"memory": MEMORY_OUT, "nodes": "node limit", "time": "time limit"}.get(stop, stop)
        reason = {"memory": Reason.MEMORY, "nodes": Reason.NODES, "time": Reason.TIME}.get(stop)
        return Result(Status.UNKNOWN, None, stats, self.name, message, reason)
