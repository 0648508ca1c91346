"""A compiled backend's numba kernels, loaded once a process, and the time its search gets after the load.

The first solve of a process compiles or loads the kernels (0.3-0.5 s of CPU from numba's cache, 1-1.5 s
under a load of 6-10, tens of seconds from a cold cache): work the deadline guard cannot cut
(:func:`patience.memguard.atomic`). So :meth:`Kernels.start` begins a load only with
:data:`~patience.memguard.KERNEL_LOAD_S` of the limit left, and otherwise runs the search uncompiled (the
same nodes, slower). The budget it hands back counts from *after* the load: the total deadline is the
caller's, but a search whose phases take shares of the time (``dfs-jit``'s streamlined 10%, ``planning-jit``'s
FIFO half) would, counted from the call's start, lose its first phase to the load on a process's first solve
and not on the next ones, so the same deal would be searched differently by whether it came first.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import NamedTuple

from ..memguard import KERNEL_LOAD_S
from .base import Limits
from .hole_kernel import HAVE_NUMBA  # numba installed and not switched off: checked without importing it

__all__ = ["Budget", "Kernels"]


class Budget(NamedTuple):
    """What :meth:`Kernels.start` grants: ``jit`` (run compiled), ``jit_s`` (seconds this call spent loading
    the kernels), ``t0`` (when the search's time starts: after the load) and ``limits`` (the caller's, with
    the seconds left at ``t0``)."""

    jit: bool
    jit_s: float
    t0: float
    limits: Limits


@dataclass
class Kernels:
    """One backend's numba kernels: ``load`` compiles or loads them (importing them itself, so a backend's
    module stays light for the registry); ``ready`` once it has run in this process."""

    load: Callable[[], object]
    ready: bool = False

    def warm(self, jit: bool) -> float:
        """Compile or load the kernels once a process (nothing with ``jit`` False or numba off); the seconds
        it took in this call (0 after the first)."""
        if not jit or not HAVE_NUMBA or self.ready:
            return 0.0
        t0 = time.perf_counter()
        self.load()
        self.ready = True
        return time.perf_counter() - t0

    def start(self, jit: bool, t0: float, limits: Limits) -> Budget:
        """For a solve called at ``t0`` with ``limits``: load the kernels if ``jit`` and the time left allows
        (module docstring), then the time left after the load."""
        if jit and not self.ready and limits.seconds - (time.perf_counter() - t0) < KERNEL_LOAD_S:
            jit = False  # no time to load the kernels (work the guard cannot cut)
        jit_s = self.warm(jit)
        t1 = time.perf_counter()
        return Budget(jit, jit_s, t1, replace(limits, seconds=max(limits.seconds - (t1 - t0), 0.0)))
