"""What ``gaps-jit`` and ``row-jit`` share: a backend that runs dfs's search of one game family in a compiled
kernel (:mod:`.kernel_runner`'s calling convention) and turns the kernel's answer into a :class:`Result`.

A subclass names its :class:`~.jit_budget.Kernels`, the kernel module (``pack(engine)`` and ``run(packed,
...)``) and how the kernel's moves become the engine's; the verdicts, stats and messages are written here
once. Stats as ``dfs`` (``nodes``, ``table_hits`` — here also states met on the path —, ``peak_mb``,
``best_foundation``: 0, neither family has foundations), plus ``compiled``, ``jit_s`` and ``table_clears``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from types import ModuleType

from ..engine import Engine, Move, moves_to_json
from ..instance import Instance
from .base import Backend, Limits, MaxCards, Result, Status, stopped
from .jit_budget import Kernels

__all__ = ["CompiledDfs", "JitOptions"]

DEFAULT_MEMORY_MB = 1024
_MB = 1 << 20


@dataclass(frozen=True)
class JitOptions:
    """Options of a compiled dfs: ``jit`` False runs the kernel uncompiled (as ``PATIENCE_NO_JIT=1`` does)."""

    jit: bool = True


class CompiledDfs(Backend):
    """dfs's search of one family, run by a compiled kernel (module docstring); subclasses fill in the three
    hooks below and ``supports``."""

    kernels: Kernels
    Options = JitOptions
    options: JitOptions

    def kernel(self) -> ModuleType:
        """The kernel module (imported when a solve starts: it imports numpy and maybe numba)."""
        raise NotImplementedError

    def engine_moves(self, engine: Engine, packed: list[int]) -> list[Move]:
        """A win's moves as the kernel gives them, as the engine's (from the deal's state in ``engine``)."""
        raise NotImplementedError

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        kernel = self.kernel()
        opts = self.options
        t0 = time.perf_counter()
        engine = Engine(instance)
        stats: dict[str, float] = {"nodes": 0.0}
        if engine.is_won():
            return Result(Status.SOLVED, [], stats, self.name)
        budget = self.kernels.start(opts.jit, t0, limits)
        opts = budget.options(opts)  # jit off if the load was refused
        o = kernel.run(
            kernel.pack(engine),
            deadline=budget.t0 + budget.limits.seconds,
            node_cap=-1 if limits.nodes is None else limits.nodes,
            memory_bytes=float(limits.memory_mb or DEFAULT_MEMORY_MB) * _MB,
            jit=opts.jit,
        )
        stats.update(
            nodes=o["nodes"],
            table_hits=o["hits"],
            peak_mb=o["peak_bytes"] / _MB,
            best_foundation=0,  # no foundations in a Gaps grid or a row (as dfs reports it)
            compiled=float(o["compiled"]),
            jit_s=budget.jit_s,
            table_clears=o["clears"],
        )
        if o["won"]:
            moves = self.engine_moves(engine, o["moves"])
            return Result(Status.SOLVED, moves_to_json(instance, moves), stats, self.name)
        if o["complete"]:
            return Result(Status.UNSOLVABLE, None, stats, self.name, max_cards=MaxCards(0, 0))
        stop = o["stop"]
        return stopped(stop, stats, self.name)
