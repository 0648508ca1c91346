"""``python -m patience.solvers.warm``: compile the numba search kernels once, at set-up.

numba caches what it compiles beside the sources, so the first search of every later process only loads
the kernels (about a second) instead of compiling them (tens of seconds on a fresh machine, which would
come out of that search's time limit). ``make`` runs this after installing; without numba, or with
``PATIENCE_NO_JIT=1``, there is nothing to compile and it says so.
"""

from __future__ import annotations

import sys
import time

__all__ = ["main"]


def main() -> int:
    """Compile (or load) the hole kernel, the generic kernel and its line shortener (dfs-jit), its best-first
    search (planning-jit), the Gaps kernel (gaps-jit) and the row-game kernel (row-jit); print what each
    took."""
    from . import gaps_kernel, row_kernel
    from .generic_kernel import bestfirst, kernel, shorten
    from .hole_kernel import HAVE_NUMBA, warm_up

    if not HAVE_NUMBA:
        print("numba off or not installed: the searches run uncompiled, nothing to compile")
        return 0
    t0 = time.perf_counter()
    hole = warm_up()
    generic = kernel.warm_up() + shorten.warm_up()
    best_first = bestfirst.warm_up()
    gaps = gaps_kernel.warm_up()
    row = row_kernel.warm_up()
    print(
        f"search kernels ready: hole {hole:.1f} s, generic {generic:.1f} s, best-first {best_first:.1f} s, "
        f"gaps {gaps:.1f} s, row {row:.1f} s "
        f"({time.perf_counter() - t0:.1f} s; cached for later runs)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
