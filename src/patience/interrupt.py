"""Ctrl-C and orphans: interrupts that stop compiled code cleanly; pool workers that die with their parent.

- :func:`deferred` wraps a call into compiled code (a numba kernel chunk): a SIGINT arriving inside is
  remembered and raised as :class:`KeyboardInterrupt` when the call returns, instead of surfacing as a
  ``SystemError`` ("returned a result with an exception set") from numba's call boundary.
- :func:`run_stoppable` runs a blocking native call (CP-SAT's solve) in a helper thread so the main thread
  still receives Ctrl-C, asks the call to stop, and re-raises :class:`KeyboardInterrupt`;
  :func:`solve_cpsat` is that for a CP-SAT solve, used by every CP-SAT backend.
- :func:`worker_init` is the initializer of pool workers: they ignore SIGINT (the parent alone decides
  what an interrupt means) and are killed when their parent dies, even by ``kill -9``.

The command line turns a :class:`KeyboardInterrupt` into UNKNOWN with message :data:`INTERRUPTED` and exit
code 130 (``solve``, ``estimate``, ``compare``).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

__all__ = ["EXIT_INTERRUPTED", "INTERRUPTED", "deferred", "run_stoppable", "solve_cpsat", "worker_init"]

INTERRUPTED = "interrupted"
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it

T = TypeVar("T")
_pending = False


def _remember(signum: int, frame: Any) -> None:
    global _pending
    _pending = True


@contextmanager
def deferred() -> Iterator[None]:
    """Hold SIGINT during the block (main thread, default handler only); raise KeyboardInterrupt after it."""
    global _pending
    swap = threading.current_thread() is threading.main_thread() and (
        signal.getsignal(signal.SIGINT) is signal.default_int_handler
    )
    if not swap:
        yield
        return
    signal.signal(signal.SIGINT, _remember)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        if _pending:
            _pending = False
            raise KeyboardInterrupt


def run_stoppable(call: Callable[[], T], stop: Callable[[], Any], until: threading.Event | None = None) -> T:
    """``call()``, from a helper thread when this is the main thread, so that Ctrl-C still arrives here:
    then ``stop()`` is called, the helper is awaited, and KeyboardInterrupt is raised. With ``until``
    (any thread) ``stop()`` is also called, every 20 ms until the call returns, once the event is set:
    two searches racing for one verdict stop each other that way (a stop asked before the native call
    has started would otherwise be lost)."""
    if until is None and threading.current_thread() is not threading.main_thread():
        return call()
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as err:  # handed to the caller's thread below
            box["error"] = err

    helper = threading.Thread(target=run, name="stoppable", daemon=True)
    helper.start()
    try:
        while helper.is_alive():
            helper.join(0.02 if until is not None else 0.05)
            if until is not None and until.is_set():
                stop()
    except KeyboardInterrupt:
        stop()
        helper.join()
        _reap(helper)
        raise
    if "error" in box:
        raise box["error"]
    return box["value"]


def solve_cpsat(solver: Any, model: Any, until: threading.Event | None = None) -> Any:
    """``solver.solve(model)`` for an OR-Tools CP-SAT solver that Ctrl-C stops at once (KeyboardInterrupt,
    not a silent "time limit"): CP-SAT's own SIGINT handler is switched off and :func:`run_stoppable`
    stops the search instead; so does ``until`` once set (the solve then ends as at its time limit)."""
    solver.parameters.catch_sigint_signal = False
    return run_stoppable(lambda: solver.solve(model), solver.stop_search, until)


def _reap(thread: threading.Thread, seconds: float = 2.0) -> None:
    """Wait until ``thread``'s OS thread is gone, not just its Python run(): CP-SAT's thread-exit cleanup
    still runs for a few ms after a stopped search, and a process exiting meanwhile aborts (SIGABRT)."""
    task = f"/proc/self/task/{thread.native_id}"
    end = time.monotonic() + seconds
    while os.path.exists(task) and time.monotonic() < end:
        time.sleep(0.002)


_PR_SET_PDEATHSIG = 1


def worker_init(parent: int) -> None:
    """Pool worker initializer: ignore SIGINT, and die with the parent process ``parent`` (its pid).

    Linux: ``prctl(PR_SET_PDEATHSIG, SIGKILL)``; elsewhere a daemon thread polls the parent pid. Either
    way a parent that died before this ran is noticed at once.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    armed = False
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if os.getppid() != parent:  # the parent is already gone
        os._exit(1)
    if not armed:
        threading.Thread(target=_watch_parent, args=(parent,), name="parent-watch", daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)
