"""The ``row-jit`` backend: ``dfs``'s search of a row game (Accordion), run by the compiled :mod:`.row_kernel`
(the same moves, order and nodes; a 128-bit key table; plain Python with ``PATIENCE_NO_JIT=1``).

Why: Accordion was the one cross-checked game where ``auto`` left more deals undecided than Solvitaire (3
against 0 on seeds 1-50 at 10 s), on the Python ``dfs`` at ~134 k nodes a second: the deals it missed need
1.3-2.7 M nodes of the same search (benchmarks/out/row_jit_rate.md, crosscheck_rowjit_*). Verdicts and stats:
:mod:`.compiled_dfs`.
"""

from __future__ import annotations

from types import ModuleType

from ..engine import Engine, Move
from ..engine.areas import TABLEAU
from ..rules import RuleSet
from .compiled_dfs import CompiledDfs, JitOptions
from .jit_budget import Kernels
from .registry import row_kernel_supports

__all__ = ["KERNELS", "RowJitOptions", "RowJitSolver"]

RowJitOptions = JitOptions


def _load() -> None:
    """Compile or load the row kernel (imported here, so numba is imported only by a compiled solve)."""
    from . import row_kernel

    row_kernel.warm_up()


def _entries() -> list[object]:
    from . import row_kernel

    return row_kernel.entry_points()


# The row kernel, loaded once a process (:mod:`.jit_budget`); its compile from a cold cache took 3.8 s at a
# load of 2 (python -m patience.solvers.warm on a fresh snapshot).
KERNELS = Kernels(_load, _entries, compile_s=10.0, name="row-jit")


class RowJitSolver(CompiledDfs):
    """Compiled depth-first search of row games (module docstring)."""

    name = "row-jit"
    kernels = KERNELS

    def supports(self, rules: RuleSet) -> bool:
        """One-deck row games (:func:`.registry.row_kernel_supports`)."""
        return row_kernel_supports(rules)

    def kernel(self) -> ModuleType:
        from . import row_kernel

        return row_kernel

    def engine_moves(self, engine: Engine, packed: list[int]) -> list[Move]:
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
