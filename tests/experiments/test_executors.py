"""Executors: every result comes back once, from where each executor says it runs; the process pool keeps a
bounded window of tasks in flight, turns a dead worker into an ExecutorError and aborts at once; the Dask
executor on an in-process LocalCluster streams results back into the same store."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator

import pytest

from patience.experiments.executors import (
    DaskExecutor,
    ExecutorError,
    InlineExecutor,
    ProcessExecutor,
    default_workers,
    make_executor,
)
from patience.experiments.runner import Job, run_job
from patience.experiments.store import open_store

from . import fakes


def _square_pid(x: int) -> tuple[int, int, int]:
    return x, x * x, os.getpid()


def _die_on_two(x: int) -> int:
    if x == 2:
        os._exit(3)  # as a worker killed by the OOM killer would
    time.sleep(0.2)
    return x


def test_inline_runs_every_item_in_order_in_this_process() -> None:
    ex = InlineExecutor()
    got = list(ex.map_unordered(_square_pid, range(5)))
    assert [(x, sq) for x, sq, _ in got] == [(x, x * x) for x in range(5)]
    assert {pid for *_, pid in got} == {os.getpid()}
    assert ex.workers == 1


def test_process_pool_returns_every_result_once_from_workers() -> None:
    ex = ProcessExecutor(2)
    try:
        got = list(ex.map_unordered(_square_pid, range(20)))
    finally:
        ex.close()
    assert sorted((x, sq) for x, sq, _ in got) == [(x, x * x) for x in range(20)]
    assert os.getpid() not in {pid for *_, pid in got}


def test_process_pool_keeps_a_bounded_window() -> None:
    """Items are pulled as results come back: at most 2 x workers in flight, so a crash of this process
    loses at most that many."""
    pulled = []

    def items() -> Iterator[int]:
        for x in range(12):
            pulled.append(x)
            yield x

    ex = ProcessExecutor(1)
    try:
        results = ex.map_unordered(_square_pid, items())
        next(results)
        assert len(pulled) <= 2 * ex.workers + 1  # the window, plus the one submitted for the first result
        assert len(list(results)) == 11
    finally:
        ex.close()
    assert pulled == list(range(12))


def test_a_dead_worker_is_an_executor_error() -> None:
    ex = ProcessExecutor(1)
    try:
        with pytest.raises(ExecutorError, match="worker process died"):
            list(ex.map_unordered(_die_on_two, range(5)))
    finally:
        ex.close()


def test_abort_ends_running_tasks_without_waiting() -> None:
    ex = ProcessExecutor(1)
    errors: list[BaseException] = []

    def consume() -> None:
        try:
            list(ex.map_unordered(time.sleep, [60, 60]))
        except BaseException as err:  # whatever the broken pool raises, the test wants it
            errors.append(err)

    t = threading.Thread(target=consume, daemon=True)
    t.start()
    time.sleep(1.0)  # the first task is running
    t0 = time.monotonic()
    ex.abort()
    t.join(20)
    assert time.monotonic() - t0 < 20 and not t.is_alive()  # not the 60 s the task would take
    assert errors and isinstance(errors[0], ExecutorError)


def test_make_executor_by_name() -> None:
    assert isinstance(make_executor("inline"), InlineExecutor)
    assert isinstance(make_executor("process", workers=0), InlineExecutor)  # --workers 0: in-process
    ex = make_executor("process", workers=2)
    try:
        assert isinstance(ex, ProcessExecutor) and ex.workers == 2
    finally:
        ex.close()
    with pytest.raises(ValueError, match="unknown executor 'threads'.*process, inline, dask"):
        make_executor("threads")


def test_default_workers_are_the_usable_cpus() -> None:
    assert default_workers() == len(os.sched_getaffinity(0)) >= 1


def test_unreachable_scheduler_fails_at_once() -> None:
    pytest.importorskip("distributed")
    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t0 = time.monotonic()
    with pytest.raises(ExecutorError, match=f"cannot reach the Dask scheduler tcp://127.0.0.1:{port}"):
        DaskExecutor(f"tcp://127.0.0.1:{port}")
    assert time.monotonic() - t0 < 10  # not the client's retries


def test_dask_local_cluster_fills_the_store(fake_backends, tmp_path):
    distributed = pytest.importorskip("distributed")
    job = Job("black-hole", range(1, 25), "tinydfs", 5.0, "portable", fakes.TINY)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
        open_store(tmp_path / "r.sqlite") as store,
    ):
        ex = DaskExecutor(client)
        assert ex.workers == 2
        # Half the deals first (as if a previous run had stopped), then the whole job resumes on Dask.
        run_job(Job(job.game, range(1, 13), job.backend, job.limit_s, job.generator, job.overrides), store)
        todo = []
        rows = run_job(job, store, ex, on_start=lambda t, d: todo.append((t, d)))
        ex.close()  # not ours: leaves the client open
        assert client.status == "running"
    assert todo == [(12, 12)]
    assert [r.seed for r in rows] == list(range(1, 25))
    with open_store(":memory:") as ref:
        expected = run_job(job, ref)
    assert [r.status for r in rows] == [r.status for r in expected]
