"""The ``gaps-jit`` backend: ``dfs``'s search of a Gaps grid, run by the compiled :mod:`.gaps_kernel` (the
same moves, order and nodes; a 128-bit key table; plain Python with ``PATIENCE_NO_JIT=1``).

Why: Gaps was the one cross-checked game where ``auto`` trailed Solvitaire, on the Python ``dfs``
(benchmarks/out/crosscheck_gapsjit_seeds1-50.md has the figures). Redeals (``gaps``: two) are searched as the
engine plays them: the seeded shuffle of the loose cards (:func:`patience.rng.gaps_redeal_shuffle`, keyed by
the instance's sha256) is a permutation fixed by the deal, the redeal's number and the cards' count, tabled
when the deal is packed. Verdicts and stats: :mod:`.compiled_dfs`.
"""

from __future__ import annotations

from types import ModuleType

from ..engine import Engine, Move
from ..rules import RuleSet
from .compiled_dfs import CompiledDfs, JitOptions
from .jit_budget import Kernels
from .registry import gaps_kernel_supports

__all__ = ["KERNELS", "GapsJitOptions", "GapsJitSolver"]

GapsJitOptions = JitOptions


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


class GapsJitSolver(CompiledDfs):
    """Compiled depth-first search of Gaps grids (module docstring)."""

    name = "gaps-jit"
    kernels = KERNELS

    def supports(self, rules: RuleSet) -> bool:
        """Gaps grids of one deck (:func:`.registry.gaps_kernel_supports`)."""
        return gaps_kernel_supports(rules)

    def kernel(self) -> ModuleType:
        from . import gaps_kernel

        return gaps_kernel

    def engine_moves(self, engine: Engine, packed: list[int]) -> list[Move]:
        """Each packed grid move or redeal as the engine's (:func:`.gaps_kernel.to_move`)."""
        from .gaps_kernel import to_move

        return [to_move(m) for m in packed]
