"""A compiled backend's numba kernels, loaded once a process, and the time its search gets after the load.

The first solve of a process compiles or loads the kernels (0.3-0.5 s of CPU from numba's cache, 1-1.5 s
under a load of 6-10, tens of seconds from a cold cache): work the deadline guard cannot cut
(:func:`patience.memguard.atomic`). So :meth:`Kernels.start` begins a load only with
:data:`~patience.memguard.KERNEL_LOAD_S` of the limit left, and otherwise runs the search uncompiled (the
same nodes, slower). The budget it hands back counts from *after* the load: the total deadline is the
caller's, but a search whose phases take shares of the time (``dfs-jit``'s streamlined 10%, ``planning-jit``'s
FIFO half) would, counted from the call's start, lose its first phase to the load on a process's first solve
and not on the next ones, so the same deal would be searched differently by whether it came first.

A load is about a second only when numba's on-disk cache holds the kernels for the current source; otherwise
it is a compile (``compile_s``, measured: benchmarks/out/cold_cache_guard.md). So before the first load
:meth:`Kernels.admits` asks :func:`.jit_cache.all_cached` of the kernel's entry points, and a solve whose
time left cannot absorb the compile runs uncompiled instead, with one line on stderr naming the fix
(``python -m patience.solvers.warm``, which ``make`` runs). The uncompiled search visits the same nodes.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar

from ..memguard import KERNEL_LOAD_S
from .jit_cache import HAVE_NUMBA, all_cached  # HAVE_NUMBA: numba installed and not switched off

if TYPE_CHECKING:
    from .base import Limits  # not imported at run time: hole_kernel imports this module

__all__ = ["Budget", "Kernels"]

FIX = "python -m patience.solvers.warm"  # compiles every kernel into numba's cache (make runs it)
_warned = False  # the cold-cache line is written once a process


class _JitOptions(Protocol):
    jit: bool


_O = TypeVar("_O", bound=_JitOptions)


class Budget(NamedTuple):
    """What :meth:`Kernels.start` grants: ``jit`` (run compiled), ``jit_s`` (seconds this call spent loading
    the kernels), ``t0`` (when the search's time starts: after the load) and ``limits`` (the caller's, with
    the seconds left at ``t0``)."""

    jit: bool
    jit_s: float
    t0: float
    limits: Limits

    def options(self, opts: _O) -> _O:
        """A backend's ``opts`` as its search runs them: ``jit`` off when the load was refused."""
        return opts if opts.jit == self.jit else replace(opts, jit=self.jit)


@dataclass
class Kernels:
    """One backend's numba kernels: ``load`` compiles or loads them (importing them itself, so a backend's
    module stays light for the registry); ``entries`` gives the compiled functions a search calls (numba's
    dispatchers, each of which ``load`` compiles: what the cache check looks at; none, or an empty list when
    numba fails to import, checks nothing); ``compile_s`` the seconds their compile takes from a cold cache;
    ``name`` the backend, for the warning; ``ready`` once ``load`` has run in this process."""

    load: Callable[[], object]
    entries: Callable[[], Iterable[Any]] = field(default=lambda: ())
    compile_s: float = 0.0
    name: str = "a compiled backend"
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

    def admits(self, seconds: float, instead: str | None = None) -> bool:
        """May a solve with ``seconds`` of its limit left run compiled? Yes once loaded (or with numba off:
        nothing to load); else only with :data:`KERNEL_LOAD_S` left for a load from numba's cache, or, when
        the cache lacks the kernels for this source, with ``compile_s`` more for the compile (module
        docstring); a cold cache refused writes one line on stderr (``instead``: the backend that runs in this
        one's place)."""
        if self.ready or not HAVE_NUMBA:
            return True
        if seconds < KERNEL_LOAD_S:
            return False
        if seconds >= KERNEL_LOAD_S + self.compile_s or all_cached(self.entries()):
            return True
        _warn_cold(self.name, self.compile_s, seconds, instead)
        return False

    def compiles(self, seconds: float, instead: str) -> bool:
        """Would a solve with ``seconds`` left run compiled (numba on and :meth:`admits`)? A portfolio runs
        the stage's Python twin ``instead`` when not (:mod:`.portfolio`); a cold cache says so on stderr."""
        return HAVE_NUMBA and self.admits(seconds, instead=instead)

    def start(self, jit: bool, t0: float, limits: Limits) -> Budget:
        """For a solve called at ``t0`` with ``limits``: load the kernels if ``jit`` and the time left allows
        (:meth:`admits`), then the time left after the load."""
        if jit and not self.admits(limits.seconds - (time.perf_counter() - t0)):
            jit = False  # no time to load or compile the kernels (work the guard cannot cut)
        jit_s = self.warm(jit)
        t1 = time.perf_counter()
        return Budget(jit, jit_s, t1, replace(limits, seconds=max(limits.seconds - (t1 - t0), 0.0)))


def _warn_cold(name: str, compile_s: float, seconds: float, instead: str | None = None) -> None:
    """One line on stderr, once a process: the kernels are not compiled, and how to compile them."""
    global _warned
    if _warned:
        return
    _warned = True
    runs = f"{instead} runs in its place" if instead else "runs uncompiled"
    sys.stderr.write(
        f"warning: {name} {runs} (slower): numba's cache lacks its kernel for this source, and "
        f"compiling it (~{compile_s:.0f} s) does not fit the {seconds:.1f} s left; compile every kernel once "
        f"with `{FIX}` (make does)\n"
    )
