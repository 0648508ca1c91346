"""Executors: run tasks somewhere and yield their results as they finish, in any order.

``inline`` (in this process), ``process`` (a local process pool, the default) and ``dask`` (a Dask
distributed cluster; extra ``[dist]``). Each keeps a bounded window of tasks in flight, so a crash of the
driving process loses at most that window, and results stream back to the single writer (the store).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from ..interrupt import worker_init

__all__ = [
    "EXECUTORS",
    "DaskExecutor",
    "Executor",
    "ExecutorError",
    "InlineExecutor",
    "ProcessExecutor",
    "default_workers",
    "make_executor",
]


class ExecutorError(RuntimeError):
    """The executor broke down (a worker died, the cluster went away)."""


class Executor(Protocol):
    name: str
    workers: int

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        """Yield ``fn(item)`` for every item as each finishes."""
        ...

    def close(self) -> None: ...

    def abort(self) -> None:
        """Stop at once (Ctrl-C): drop queued tasks and end running ones without waiting for them."""
        ...


def default_workers() -> int:
    """CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class InlineExecutor:
    """Run everything in this process (debugging, notebooks, ``--workers 0``)."""

    name = "inline"
    workers = 1

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        for item in items:
            yield fn(item)

    def close(self) -> None:
        pass

    def abort(self) -> None:
        pass


class ProcessExecutor:
    """A local process pool with at most ``2 * workers`` tasks in flight."""

    name = "process"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or default_workers()
        # Workers ignore Ctrl-C (abort() ends them) and die with this process, even by kill -9.
        self._pool = ProcessPoolExecutor(
            max_workers=self.workers, initializer=worker_init, initargs=(os.getpid(),)
        )

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        it = iter(items)
        window = 2 * self.workers
        pending: set[Future[Any]] = set()
        try:
            for item in it:
                pending.add(self._pool.submit(fn, item))
                if len(pending) >= window:
                    break
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    try:
                        result = fut.result()
                    except BrokenProcessPool:
                        raise ExecutorError(
                            "a worker process died (killed or out of memory); finished results are stored, "
                            "rerun the same command to resume"
                        ) from None
                    for item in it:
                        pending.add(self._pool.submit(fn, item))
                        break
                    yield result
        finally:
            for fut in pending:
                fut.cancel()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def abort(self) -> None:
        procs = list((getattr(self._pool, "_processes", None) or {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:  # running tasks would otherwise finish their whole time limit first
            p.kill()
        for p in procs:
            p.join(5)


def _reachable(address: str, seconds: float = 5.0) -> None:
    """Fail at once (not after the client's retries) when nothing listens at a tcp:// scheduler address."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme != "tcp" or not parts.hostname:
        return  # another transport: the client says what is wrong
    try:
        port = parts.port or 8786
        socket.create_connection((parts.hostname, port), timeout=seconds).close()
    except (OSError, ValueError) as err:
        raise ExecutorError(f"cannot reach the Dask scheduler {address}: {err}") from None


class DaskExecutor:
    """Tasks on a Dask distributed cluster: ``scheduler`` is an address (``tcp://host:8786``), a
    ``distributed.Client``, or None for a LocalCluster of ``workers`` processes on this machine."""

    name = "dask"

    def __init__(self, scheduler: Any = None, workers: int | None = None) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:  # pragma: no cover - depends on the environment
            raise ExecutorError(
                "the dask executor needs the [dist] extra: pip install 'patience[dist]'"
            ) from None
        self._own = not hasattr(scheduler, "submit")
        self._cluster = None
        if not self._own:
            self.client = scheduler
        elif scheduler is None:
            self._cluster = LocalCluster(
                n_workers=workers or default_workers(), threads_per_worker=1, dashboard_address=None
            )
            self.client = Client(self._cluster)
        else:
            _reachable(str(scheduler))
            try:
                self.client = Client(scheduler, timeout="10s")
            except (OSError, TimeoutError, ValueError) as err:
                raise ExecutorError(f"cannot reach the Dask scheduler {scheduler}: {err}") from None
        self.workers = max(1, sum(self.client.nthreads().values()))

    def map_unordered(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        from distributed import as_completed

        it = iter(items)
        first = []
        for item in it:
            first.append(self.client.submit(fn, item, pure=False))
            if len(first) >= 2 * self.workers:
                break
        ac = as_completed(first)
        try:
            for fut in ac:
                result = fut.result()
                fut.release()
                for item in it:
                    ac.add(self.client.submit(fn, item, pure=False))
                    break
                yield result
        finally:
            for fut in list(ac.futures):
                fut.cancel()

    def abort(self) -> None:
        self.close()

    def close(self) -> None:
        if self._own:
            self.client.close()
            if self._cluster is not None:
                self._cluster.close()


EXECUTORS = ("process", "inline", "dask")


def make_executor(name: str, workers: int | None = None, scheduler: Any = None) -> Executor:
    """An executor by name (see :data:`EXECUTORS`)."""
    if name == "inline" or (name == "process" and workers == 0):
        return InlineExecutor()
    if name == "process":
        return ProcessExecutor(workers)
    if name == "dask":
        return DaskExecutor(scheduler, workers)
    raise ValueError(f"unknown executor {name!r} (one of {', '.join(EXECUTORS)})")
