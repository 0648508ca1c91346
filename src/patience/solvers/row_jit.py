"""The ``row-jit`` backend: ``dfs``'s search of a row game (Accordion), run by the compiled :mod:`.row_kernel`
(the same moves, order and nodes; a 128-bit key table; plain Python with ``PATIENCE_NO_JIT=1``).

Why: Accordion was the one cross-checked game where ``auto`` left more deals undecided than Solvitaire (3
against 0 on seeds 1-50 at 10 s), on the Python ``dfs`` at 120-150 k nodes a second: the deals it missed
need 0.4-0.8 M nodes of the same search. Stats as ``dfs`` (``nodes``, ``table_hits`` — here also states met
on the path —, ``peak_mb``), plus ``compiled``, ``jit_s`` and ``table_clears``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..engine import Engine, Move, moves_to_json
from ..engine.areas import TABLEAU
from ..instance import Instance
from ..memguard import MEMORY_OUT
from ..rules import RuleSet
from .base import Backend, Limits, MaxCards, Reason, Result, Status
from .jit_budget import Kernels
from .registry import row_kernel_supports

__all__ = ["KERNELS", "RowJitOptions", "RowJitSolver", "engine_moves"]

DEFAULT_MEMORY_MB = 1024
_MB = 1 << 20


def _load() -> None:
    """Compile or load the row kernel (imported here, so numba is imported only by a compiled solve)."""
    from . import row_kernel

    row_kernel.warm_up()


def _entries() -> list[object]:
    from . import row_kernel

    return row_kernel.entry_points()


# The row kernel, loaded once a process (:mod:`.jit_budget`).
KERNELS = Kernels(_load, _entries, compile_s=10.0, name="row-jit")


def engine_moves(engine: Engine, packed: list[int]) -> list[Move]:
    """The kernel's moves (pile onto pile, dealt indices) as the engine's, each pile moving whole: its
    size is counted along the line."""
    from .row_kernel import to_move

    size = [len(p) for p in engine.piles]
    out: list[Move] = []
    for m in packed:
        i, j = to_move(m)
        out.append((TABLEAU, i, TABLEAU, j, size[i]))
        size[j] += size[i]
        size[i] = 0
    return out


@dataclass(frozen=True)
class RowJitOptions:
    """Options of ``row-jit``: ``jit`` False runs the kernel uncompiled (as ``PATIENCE_NO_JIT=1`` does)."""

    jit: bool = True


class RowJitSolver(Backend):
    """Compiled depth-first search of row games (module docstring)."""

    name = "row-jit"
    kernels = KERNELS
    Options = RowJitOptions
    options: RowJitOptions

    def supports(self, rules: RuleSet) -> bool:
        """One-deck row games (:func:`.registry.row_kernel_supports`)."""
        return row_kernel_supports(rules)

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        from . import row_kernel

        opts = self.options
        t0 = time.perf_counter()
        engine = Engine(instance)
        stats: dict[str, float] = {"nodes": 0.0}
        if engine.is_won():
            return Result(Status.SOLVED, [], stats, self.name)
        budget = KERNELS.start(opts.jit, t0, limits)
        opts = budget.options(opts)  # jit off if the load was refused
        o = row_kernel.run(
            row_kernel.pack(engine),
            deadline=budget.t0 + budget.limits.seconds,
            node_cap=-1 if limits.nodes is None else limits.nodes,
            memory_bytes=float(limits.memory_mb or DEFAULT_MEMORY_MB) * _MB,
            jit=opts.jit,
        )
        stats.update(
            nodes=o["nodes"],
            table_hits=o["hits"],
            peak_mb=o["peak_bytes"] / _MB,
            best_foundation=0,  # a row game has no foundations (as dfs reports it)
            compiled=float(o["compiled"]),
            jit_s=budget.jit_s,
            table_clears=o["clears"],
        )
        if o["won"]:
            moves = engine_moves(engine, o["moves"])
            return Result(Status.SOLVED, moves_to_json(instance, moves), stats, self.name)
        if o["complete"]:
            return Result(Status.UNSOLVABLE, None, stats, self.name, max_cards=MaxCards(0, 0))
        stop = o["stop"]
        message = {"memory": MEMORY_OUT, "nodes": "node limit", "time": "time limit"}.get(stop, stop)
        reason = {"memory": Reason.MEMORY, "nodes": Reason.NODES, "time": Reason.TIME}.get(stop)
        return Result(Status.UNKNOWN, None, stats, self.name, message, reason)
