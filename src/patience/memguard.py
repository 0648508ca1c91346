"""A resident-set guard: stop any backend whose process grows past ``--max-mb`` above its base.

The base is fixed, :data:`BASE_MB`: what the process holds before any search, with every backend
loaded (measured: 40 MB for the interpreter and the command line, 96 MB with OR-Tools and
python-constraint imported, 213 MB once numba's hole kernels are loaded, 224 MB after a small solve with
each backend), rounded up. A daemon thread reads ``/proc/self/statm`` every :data:`POLL_S` seconds;
past ``BASE_MB + max_mb`` it interrupts the main
thread exactly as Ctrl-C does (:func:`_thread.interrupt_main`), so every backend stops the way it stops
for Ctrl-C (numba chunks end, CP-SAT's search is stopped, Python loops raise), and the command line
reports UNKNOWN with message :data:`MEMORY_OUT`. Backends keep their own accounting (the dfs table is
sized from the limit, planning checks its resident size): the guard is the backstop for every backend.
Linux only (``/proc``); elsewhere it does nothing.
"""

from __future__ import annotations

import _thread
import os
import signal
import threading
from types import TracebackType

__all__ = ["BASE_MB", "MEMORY_OUT", "POLL_S", "MemoryGuard", "rss_mb"]

BASE_MB = 256
MEMORY_OUT = "memory out"
POLL_S = 0.01
_PAGE_MB = os.sysconf("SC_PAGE_SIZE") / 2**20 if hasattr(os, "sysconf") else 4096 / 2**20


def rss_mb() -> float | None:
    """This process's resident set in MB, or None where /proc is missing."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * _PAGE_MB
    except (OSError, ValueError, IndexError):
        return None


class MemoryGuard:
    """``with MemoryGuard(max_mb) as guard:`` -- KeyboardInterrupt in the main thread past the limit;
    ``guard.tripped`` then tells it apart from Ctrl-C. ``max_mb=None`` guards nothing, and so does a guard
    entered off the main thread (its interrupt could not reach the work it guards).

    The interrupt needs Python's SIGINT handler: where SIGINT is ignored (a pool worker), the guard takes
    the default handler back while it is entered, so a Ctrl-C then also raises there.
    """

    def __init__(self, max_mb: int | None) -> None:
        self.max_mb = max_mb
        self.base_mb = float(BASE_MB)
        self.peak_mb = rss_mb() or 0.0
        self.tripped = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ignored_sigint = False  # SIGINT was ignored on entry: restored on exit

    @property
    def limit_mb(self) -> float | None:
        """The resident size at which the guard fires (base + max_mb)."""
        return None if self.max_mb is None else self.base_mb + self.max_mb

    def _watch(self) -> None:
        limit = self.limit_mb
        while not self._stop.wait(POLL_S):
            now = rss_mb()
            if now is None:
                return
            self.peak_mb = max(self.peak_mb, now)
            if limit is not None and now > limit and not self.tripped:
                self.tripped = True
                _thread.interrupt_main(signal.SIGINT)
                return

    def __enter__(self) -> MemoryGuard:
        on_main = threading.current_thread() is threading.main_thread()
        if self.max_mb is not None and on_main and rss_mb() is not None:
            if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
                signal.signal(signal.SIGINT, signal.default_int_handler)
                self._ignored_sigint = True
            self._thread = threading.Thread(target=self._watch, name="memory-guard", daemon=True)
            self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self._ignored_sigint:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
