"""A resident-set and deadline guard: stop any backend whose process grows past ``--max-mb`` above its
base, or that still runs :data:`GRACE_S` after its ``--limit``.

The base is fixed, :data:`BASE_MB`: what the process holds before any search, with every backend
loaded (measured: 40 MB for the interpreter and the command line, 96 MB with OR-Tools and
python-constraint imported, 213 MB once numba's hole kernels are loaded, 224 MB after a small solve with
each backend), rounded up. A daemon thread (one a process, for every entered guard: :class:`_Watcher`)
reads ``/proc/self/statm`` every :data:`POLL_S` seconds while a guard with a memory limit is entered;
past ``BASE_MB + max_mb`` it interrupts the main
thread exactly as Ctrl-C does (:func:`_thread.interrupt_main`), so every backend stops the way it stops
for Ctrl-C (numba chunks end, CP-SAT's search is stopped, Python loops raise), and the command line
reports UNKNOWN with message :data:`MEMORY_OUT`. Backends keep their own accounting (the dfs table is
sized from the limit, planning checks its resident size): the guard is the backstop for every backend.
The memory guard is Linux only (``/proc``); elsewhere it does nothing.

The deadline is the same backstop for time: backends check their own deadline between chunks of work,
but some work between two checks is long (numba loading a cached kernel: 0.3 s of CPU, 1-2 s under a
load of 6-10; building a big model; presolve), so a run could return seconds after its limit. Past
``deadline + GRACE_S`` the guard interrupts the main thread as for memory (``guard.timed_out``; the
caller reports UNKNOWN "time limit"). Either interrupt waits while the main thread is in work that
must not be cut (:func:`atomic`): an import (cut short, it leaves numpy or numba half-initialised, and
a later import in the process fails with ``AttributeError`` or ``RecursionError``; workers and batches
go on solving after a timeout) and numba or llvmlite compiling or loading a kernel (an interrupt inside
llvmlite's ctypes callbacks is swallowed with a traceback on stderr, and half-built LLVM objects fail
in ``__del__``). So that a kernel load does not run past the limit, backends start one only with
:data:`KERNEL_LOAD_S` left, and otherwise search uncompiled (the same search, node for node).
"""

from __future__ import annotations

import _thread
import os
import signal
import sys
import threading
import time
from types import TracebackType

__all__ = [
    "BASE_MB",
    "GRACE_S",
    "KERNEL_LOAD_S",
    "MEMORY_OUT",
    "POLL_S",
    "TIME_LIMIT",
    "MemoryGuard",
    "atomic",
    "rss_mb",
]

BASE_MB = 256
MEMORY_OUT = "memory out"
TIME_LIMIT = "time limit"  # the message of an UNKNOWN stopped by its deadline, as backends word it
POLL_S = 0.01
GRACE_S = 0.25  # a backend still running this long after its deadline is stopped as by Ctrl-C
# A kernel load takes 0.3-0.5 s of CPU here (numba's import and its cache), 1-1.5 s under a load of 6-10:
# with less of the limit left, the compiled search would start after the deadline anyway.
KERNEL_LOAD_S = 1.0
_BOOTSTRAP = ("<frozen importlib._bootstrap>", "<frozen importlib._bootstrap_external>")
_ATOMIC_PACKAGES = (f"{os.sep}numba{os.sep}", f"{os.sep}llvmlite{os.sep}")
_PAGE_MB = os.sysconf("SC_PAGE_SIZE") / 2**20 if hasattr(os, "sysconf") else 4096 / 2**20


_statm: tuple[int, int] | None = None  # (pid, fd): /proc/self/statm kept open by the process that opened it
_statm_lock = threading.Lock()


def rss_mb() -> float | None:
    """This process's resident set in MB, or None where /proc is missing.

    Read with ``pread`` from a descriptor kept open: opening the file was 77 us of a guard's entry after a
    compiled search (MS FreeCell, one guard a deal), a read of the open file a few. The descriptor of
    /proc/self/statm names the process that opened it, so a forked child opens its own."""
    global _statm
    try:
        held = _statm
        pid = os.getpid()
        if held is None or held[0] != pid:
            with _statm_lock:
                held = _statm
                if held is None or held[0] != pid:
                    fd = os.open("/proc/self/statm", os.O_RDONLY)  # not inherited by exec (PEP 446)
                    if held is not None:
                        os.close(held[1])  # the parent's, copied by the fork
                    held = _statm = (pid, fd)
        return int(os.pread(held[1], 256, 0).split()[1]) * _PAGE_MB
    except (OSError, ValueError, IndexError):
        return None


def atomic(thread_id: int) -> bool:
    """Is the thread ``thread_id`` in work an interrupt must not cut: an import (a frame of importlib's
    bootstrap on its stack) or numba/llvmlite code (compiling or loading a kernel)? A compiled kernel
    running is not: it is called from our code, with no numba frame on the stack."""
    frame = sys._current_frames().get(thread_id)
    while frame is not None:
        name = frame.f_code.co_filename
        if name in _BOOTSTRAP or any(p in name for p in _ATOMIC_PACKAGES):
            return True
        frame = frame.f_back
    return False


class _Watcher:
    """The one watcher thread of a process, for every entered guard: it sleeps until the earliest moment
    one of them needs a look (the next poll of a guard with a memory limit, else a deadline plus its
    grace) and fires the guards that are past their limit.

    Why one sleeping thread, not one a guard: a thread started by each guard, and joined as it is left,
    cost 0.2-0.45 ms of a 7 ms MS FreeCell deal (each start and each join hands the GIL over between two
    threads, at the scheduler's pace on busy cores; the 10 ms polls of a deadline-only guard as well). A
    guard entered or left wakes nothing unless it needs a look before the watcher's next one, and the
    watcher does not look in between: with a deadline and no memory limit it sleeps till the deadline.
    Fired and left guards go out of :attr:`guards` under :attr:`lock`, so nothing fires after a guard's
    exit. A forked child starts afresh (:meth:`reset`): threads do not survive a fork."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.lock = threading.Lock()
        self.guards: list[MemoryGuard] = []  # entered, not yet left nor fired
        self.wake = threading.Event()  # set: look again now
        self.wake_at = float("inf")  # when the watcher looks next (perf_counter), under lock
        self.started = False

    def add(self, guard: MemoryGuard) -> None:
        """Watch ``guard`` (entered on the main thread); starts the thread at the first guard."""
        with self.lock:
            self.guards.append(guard)
            due = guard._due(time.perf_counter())
            sooner = due < self.wake_at
            if sooner:
                self.wake_at = due
            start, self.started = not self.started, True
        if start:  # a bare thread: threading.Thread.start() waits until the new thread has run
            _thread.start_new_thread(self._run, ())
        elif sooner:
            self.wake.set()

    def _run(self) -> None:
        try:
            self._loop()
        finally:  # not expected; the next guard starts a new watcher
            with self.lock:
                self.started = False

    def _loop(self) -> None:
        while True:
            with self.lock:
                guards = list(self.guards)
            limited = [g for g in guards if g.limit_mb is not None]
            now_mb = rss_mb() if limited else None
            for g in guards:
                g._look(now_mb, self)
            with self.lock:
                now = time.perf_counter()
                self.wake_at = min((g._due(now) for g in self.guards), default=float("inf"))
                self.wake.clear()
                left = None if self.wake_at == float("inf") else min(max(self.wake_at - now, 0.0), _NAP_S)
            self.wake.wait(left)

    def fire(self, guard: MemoryGuard, over: bool) -> None:
        """Interrupt the main thread for ``guard`` unless it has been left (or fired) meanwhile."""
        with self.lock:
            if guard not in self.guards:
                return
            self.guards.remove(guard)
            guard.tripped, guard.timed_out = over, not over
            _thread.interrupt_main(signal.SIGINT)


_NAP_S = 60.0  # the watcher's longest sleep with a guard entered (a wait's timeout is bounded)
_WATCHER = _Watcher()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_WATCHER.reset)


def _checkpoint() -> None:
    """A Python call: CPython handles a pending signal (the guard's interrupt) as such a call begins."""


class MemoryGuard:
    """``with MemoryGuard(max_mb, deadline) as guard:`` -- KeyboardInterrupt in the main thread past the
    memory limit, or ``GRACE_S`` past ``deadline`` (a :func:`time.perf_counter` time); ``guard.tripped``
    (memory) and ``guard.timed_out`` then tell it apart from Ctrl-C. With neither limit it guards nothing,
    and so does a guard entered off the main thread (its interrupt could not reach the work it guards).
    The process's one watcher thread (:class:`_Watcher`) watches every entered guard.

    The interrupt needs Python's SIGINT handler: where SIGINT is ignored (a pool worker), the guard takes
    the default handler back while it is entered, so a Ctrl-C then also raises there.
    """

    def __init__(self, max_mb: int | None, deadline: float | None = None) -> None:
        self.max_mb = max_mb
        self.deadline = deadline
        self.base_mb = float(BASE_MB)
        self.peak_mb = rss_mb() or 0.0
        self.tripped = False
        self.timed_out = False
        self._main = threading.main_thread().ident or 0
        self._watched = False  # entered and handed to the watcher
        self._ignored_sigint = False  # SIGINT was ignored on entry: restored on exit

    @property
    def limit_mb(self) -> float | None:
        """The resident size at which the guard fires (base + max_mb)."""
        return None if self.max_mb is None else self.base_mb + self.max_mb

    @property
    def watched(self) -> bool:
        """Is the watcher watching this guard now (entered, not left, not fired)?"""
        with _WATCHER.lock:
            return self in _WATCHER.guards

    def _late(self) -> float:
        return float("inf") if self.deadline is None else self.deadline + GRACE_S

    def _due(self, now: float) -> float:
        """When the watcher must next look at this guard: a memory limit is polled every ``POLL_S``; a
        deadline is looked at once it has passed with its grace (then every ``POLL_S`` while the main
        thread is in work that must not be cut)."""
        late = self._late()
        if self.limit_mb is not None or late <= now:
            return min(now + POLL_S, late) if late > now else now + POLL_S
        return late

    def _look(self, now_mb: float | None, watcher: _Watcher) -> None:
        """One look by the watcher: the resident size ``now_mb`` (None: not read) and the clock."""
        limit = self.limit_mb
        if now_mb is not None and limit is not None:
            self.peak_mb = max(self.peak_mb, now_mb)
        over = now_mb is not None and limit is not None and now_mb > limit
        past = time.perf_counter() > self._late()
        if (over or past) and not atomic(self._main):
            watcher.fire(self, over)

    def __enter__(self) -> MemoryGuard:
        on_main = threading.current_thread() is threading.main_thread()
        memory = self.max_mb is not None and rss_mb() is not None
        if (memory or self.deadline is not None) and on_main:
            if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
                signal.signal(signal.SIGINT, signal.default_int_handler)
                self._ignored_sigint = True
            self._watched = True
            _WATCHER.add(self)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            if self._watched:
                self._watched = False
                w = _WATCHER
                with w.lock:  # inline, no Python call before the removal: nothing fires after it
                    if self in w.guards:
                        w.guards.remove(self)
                if self.tripped or self.timed_out:
                    _checkpoint()  # an interrupt fired just before surfaces here, inside the block's caller
        finally:
            if self._ignored_sigint:
                signal.signal(signal.SIGINT, signal.SIG_IGN)
