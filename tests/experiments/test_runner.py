"""Batch runs: results stored as they arrive, reruns resume, a kill -9 loses no finished result."""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from patience.experiments.executors import InlineExecutor, ProcessExecutor
from patience.experiments.runner import Job, Task, run_job, run_task, summarize
from patience.experiments.store import open_store
from patience.solvers.base import BACKENDS, Entry

from . import fakes

HERE = Path(__file__).parent


def _job(backend="tinydfs", seeds=range(1, 31)):
    return Job("black-hole", seeds, backend, 5.0, "portable", fakes.TINY)


def test_run_job_stores_every_deal_and_resumes(fake_backends, tmp_path):
    db = tmp_path / "r.sqlite"
    with open_store(db) as store:
        rows = run_job(_job(seeds=range(1, 11)), store)
        assert [r.seed for r in rows] == list(range(1, 11))
        assert all(r.status in ("solved", "unsolvable") and r.sha256 for r in rows)
        seen = []
        starts = []
        rows2 = run_job(
            _job(seeds=range(1, 21)), store, InlineExecutor(), lambda t, d: starts.append((t, d)), seen.append
        )
        assert starts == [(10, 10)]
        assert sorted(r.seed for r in seen) == list(range(11, 21))
        assert len(rows2) == 20 and store.count() == 20
    summ = summarize(rows2)
    assert summ.n == 20 and summ.estimate.unknowns == 0
    assert summ.estimate.wins == sum(r.status == "solved" for r in rows2)


def test_process_pool_matches_inline(fake_backends):
    with open_store(":memory:") as a, open_store(":memory:") as b:
        inline = run_job(_job(), a)
        ex = ProcessExecutor(2)
        try:
            pooled = run_job(_job(), b, ex)
        finally:
            ex.close()
    assert [(r.seed, r.status, r.sha256) for r in inline] == [(r.seed, r.status, r.sha256) for r in pooled]


class Boom(fakes.TinyDFS):
    name = "boom"

    def _solve(self, instance, limits):
        if instance.source["seed"] == 3:
            raise RuntimeError("kaboom")
        return super()._solve(instance, limits)


def test_crashing_backend_gives_error_rows_and_retry(monkeypatch):
    monkeypatch.setitem(BACKENDS, "boom", Entry("boom", __name__, "Boom"))
    with open_store(":memory:") as store:
        rows = run_job(_job("boom", range(1, 6)), store)
        bad = [r for r in rows if r.status == "error"]
        assert [r.seed for r in bad] == [3] and "RuntimeError: kaboom" in bad[0].message
        assert summarize(rows).estimate.unknowns == 1
        todo = []
        run_job(_job("boom", range(1, 6)), store, on_start=lambda t, d: todo.append(t), retry=["error"])
        assert todo == [1]


def _stored(db):
    if not db.exists():
        return {}
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return {r[0]: r[1:] for r in con.execute("SELECT seed, status, finished, sha256 FROM results")}
    except sqlite3.OperationalError:
        return {}
    finally:
        con.close()


def test_kill_9_then_resume_loses_no_finished_result(tmp_path):
    """Kill the whole estimate process group mid-run; the rerun completes with no loss or duplicate."""
    db = tmp_path / "r.sqlite"
    n = 120
    driver = (
        "import sys; sys.path.insert(0, sys.argv[1]); import fakes; fakes.register();"
        "from patience.cli import main; main(sys.argv[2:])"
    )
    args = [sys.executable, "-c", driver, str(HERE), "estimate", "black-hole", "-n", str(n), "-b", "tinydfs"]
    args += ["--limit", "5s", "-j", "2", "--db", str(db), "-q"]
    for k, v in fakes.TINY.items():
        args += ["--set", f"{k}={v}"]
    env = {**os.environ, "FAKE_SLEEP": "0.03"}
    proc = subprocess.Popen(
        args, env=env, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 30
    while len(_stored(db)) < 25:
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    before = _stored(db)
    assert 25 <= len(before) < n

    done = subprocess.run(
        args, env={**os.environ, "FAKE_SLEEP": "0"}, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    after = _stored(db)
    assert sorted(after) == list(range(1, n + 1))  # every deal once (the key forbids duplicates)
    assert all(after[s] == before[s] for s in before)  # finished results kept as they were
    assert f"{n - len(before)} run now" in done.stdout

    fakes.register()
    try:
        with open_store(":memory:") as ref:
            expected = {r.seed: r.status for r in run_job(_job(seeds=range(1, n + 1)), ref)}
    finally:
        for name in fakes.ENTRIES:
            BACKENDS.pop(name, None)
    assert {s: v[0] for s, v in after.items()} == expected


def test_task_carries_its_backend_and_workers_leave_the_registry_alone():
    """A backend known only to the task's entry (not registered) runs, and no registry is patched."""
    before = dict(BACKENDS)
    entry = Entry("tinydfs", fakes.__name__, "TinyDFS")
    assert "tinydfs" not in BACKENDS
    task = Task("black-hole", tuple(sorted(fakes.TINY.items())), "portable", 2, "tinydfs", 5.0, entry)
    row, _ = run_task(task)
    assert row.status in ("solved", "unsolvable") and row.backend == "tinydfs"
    assert row.seconds is not None and row.seconds >= 0
    assert BACKENDS == before
    unknown = run_task(Task("black-hole", (), "portable", 1, "nosuch", 5.0))[0]
    assert unknown.status == "error" and "unknown backend 'nosuch'" in unknown.message


def _task(backend: str, limit_s: float = 30.0, memory_mb: int | None = None) -> Task:
    job = Job("black-hole", range(1, 2), backend, limit_s, "portable", fakes.TINY, memory_mb)
    return next(job.tasks([1]))


def test_memory_limit_stops_a_growing_backend_inline_and_in_a_worker(fake_backends):
    """``estimate --max-mb``: the resident-set guard ends the deal as UNKNOWN 'memory out' on the main
    thread and in a pool worker (which ignores Ctrl-C but must take the guard's interrupt)."""
    from patience.memguard import BASE_MB, rss_mb

    headroom = int(max((rss_mb() or 0) - BASE_MB, 0)) + 100  # this test process may be past the base
    row, _ = run_task(_task("hog", memory_mb=headroom))
    assert (row.status, row.message, row.stats.get("reason")) == ("unknown", "memory out", "memory")
    assert row.stats["seconds"] > 0  # the time it ran before the guard stopped it
    ex = ProcessExecutor(1)
    try:
        [(row, _)] = list(ex.map_unordered(run_task, [_task("hog", memory_mb=50)]))
    finally:
        ex.close()
    assert (row.status, row.message) == ("unknown", "memory out")
    row, _ = run_task(_task("tinydfs", memory_mb=headroom))  # a small solve is untouched by the guard
    assert row.status in ("solved", "unsolvable")


def test_the_limit_counts_dealing(fake_backends, monkeypatch):
    """The per-deal limit covers dealing: a deal that takes the whole limit to build is UNKNOWN 'time'."""
    from patience.experiments import runner

    real_deal = runner.deal

    def slow_deal(*args, **kwargs):
        time.sleep(0.3)
        return real_deal(*args, **kwargs)

    monkeypatch.setattr(runner, "deal", slow_deal)
    row, _ = run_task(_task("tinydfs", limit_s=0.2))
    assert (row.status, row.stats.get("reason")) == ("unknown", "time")
    assert row.seconds >= 0.3
