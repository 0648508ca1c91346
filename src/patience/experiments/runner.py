"""Batch runs: (game, rules, generator, seeds, backend, limit) -> one stored row per deal.

:func:`run_job` deals nothing itself: each task carries only the deal's coordinates, and the worker
deals it with :func:`patience.deals.deal` and solves it with :func:`patience.solvers.base.solve` (so every
SOLVED was replayed by the validator). Rows come back to this process, the only writer of the store,
and are committed as they arrive; seeds already in the store are skipped, which makes a rerun resume.
"""

from __future__ import annotations

import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..deals import deal
from ..instance import Instance
from ..memguard import TIME_LIMIT, MemoryGuard
from ..solvers.base import BACKENDS, Entry, Limits, Reason, Result, Status, guard_result, solve
from .executors import Executor, InlineExecutor
from .stats import Estimate, estimate, percentiles
from .store import Row, Store, rules_key

__all__ = ["Job", "Summary", "Task", "run_job", "run_task", "summarize"]

UNKNOWN_STATUSES = ("unknown", "error", "unsupported")  # no verdict: counted as unknowns


@dataclass(frozen=True)
class Task:
    """One deal to solve, small and picklable. ``entry`` is the backend's registry entry (None for
    ``auto``), read in this process: the worker solves with it as given, so a backend registered here
    only (a test's, a plug-in's) runs in spawned processes and on Dask workers too, and no worker
    touches a registry."""

    game: str
    overrides: tuple[tuple[str, Any], ...]
    generator: str
    seed: int
    backend: str
    limit_s: float
    entry: Entry | None = None
    keep_solution: bool = False
    memory_mb: int | None = None


def _solve(inst: Instance, task: Task, t0: float) -> Result:
    """Solve within what dealing left of the task's limit, under the guard (:class:`~patience.memguard.
    MemoryGuard`, which works in pool workers too): past ``memory_mb``, or still running its grace past the
    limit, the deal is UNKNOWN "memory out" or "time limit". An interrupt that is not the guard's is
    raised on."""
    left = task.limit_s - (time.perf_counter() - t0)
    if left <= 0:
        return Result(Status.UNKNOWN, backend=task.backend, message=TIME_LIMIT, reason=Reason.TIME)
    guard = MemoryGuard(task.memory_mb, deadline=time.perf_counter() + left)
    try:
        with guard:
            return solve(inst, task.entry or task.backend, Limits(seconds=left, memory_mb=task.memory_mb))
    except KeyboardInterrupt:
        stopped = guard_result(guard, task.backend, time.perf_counter() - t0)
        if stopped is None:  # not the guard's: a real interrupt
            raise
        return stopped


def run_task(task: Task) -> tuple[Row, tuple[dict[str, Any], ...] | None]:
    """Deal and solve one task (in a worker); never raises: failures become ``error`` rows."""
    overrides = dict(task.overrides)
    sha = None
    solution = None
    t0 = time.perf_counter()
    try:
        inst = deal(task.game, task.seed, task.generator, overrides or None)
        sha = inst.sha256
        result = _solve(inst, task, t0)
        stats = dict(result.stats)
        if result.backend and result.backend != task.backend:
            stats["solved_by"] = result.backend
        if result.reason is not None:  # why an unknown is unknown (time, nodes, memory...), stored
            stats["reason"] = result.reason.value
        if result.solution is not None:
            stats.setdefault("moves", len(result.solution))
            if task.keep_solution:
                solution = result.solution
        status, message = result.status.value, result.message
        seconds = stats.get("seconds")
    except Exception as err:  # a crashing backend is a result too: ERROR, with where it happened
        tb = traceback.extract_tb(err.__traceback__)[-1]
        status = Status.ERROR.value
        message = f"{type(err).__name__}: {err} ({tb.filename.rsplit('/', 1)[-1]}:{tb.lineno})"
        stats, seconds = {}, None
    if seconds is None:
        seconds = time.perf_counter() - t0
    row = Row(
        task.game,
        rules_key(overrides, task.game),
        task.generator,
        task.seed,
        task.backend,
        task.limit_s,
        status,
        float(seconds),
        {k: v for k, v in stats.items() if isinstance(v, int | float | str | bool)},
        sha,
        message,
    )
    return row, solution


@dataclass(frozen=True)
class Job:
    """A batch: ``seeds`` of ``game`` (with rule ``overrides``) solved by ``backend`` within ``limit_s``."""

    game: str
    seeds: range
    backend: str
    limit_s: float
    generator: str = "portable"
    overrides: dict[str, Any] = field(default_factory=dict)
    memory_mb: int | None = None  # per deal, above the process's base (as ``solve --max-mb``); not in the key

    @property
    def rules(self) -> str:
        return rules_key(self.overrides, self.game)

    def tasks(self, seeds: Iterable[int], keep_solution: bool = False) -> Iterator[Task]:
        entry = BACKENDS.get(self.backend)
        ov = tuple(sorted(self.overrides.items()))
        for s in seeds:
            yield Task(
                self.game, ov, self.generator, s, self.backend, self.limit_s, entry, keep_solution,
                self.memory_mb,
            )  # fmt: skip


def run_job(
    job: Job,
    store: Store,
    executor: Executor | None = None,
    on_start: Callable[[int, int], None] | None = None,
    on_row: Callable[[Row], None] | None = None,
    retry: Iterable[str] = (),
) -> list[Row]:
    """Solve the seeds of ``job`` not yet in ``store``; each row is committed as it arrives.

    ``retry``: statuses (e.g. ``error``) whose stored rows are solved again. ``on_start(todo, done)``
    is called once before solving, ``on_row`` after each stored row. Returns the rows of all the
    job's seeds, old and new, in seed order.
    """
    executor = executor or InlineExecutor()
    retry = set(retry)
    if retry:
        again = store.done_seeds(job.game, job.rules, job.generator, job.backend, job.limit_s, retry)
        store.delete((job.game, job.rules, job.generator, s, job.backend, job.limit_s) for s in again)
    done = store.done_seeds(job.game, job.rules, job.generator, job.backend, job.limit_s)
    todo = [s for s in job.seeds if s not in done]
    if on_start:
        on_start(len(todo), len(job.seeds) - len(todo))
    for row, _ in executor.map_unordered(run_task, job.tasks(todo)):
        store.add(row)
        if on_row:
            on_row(row)
    return store.rows(
        game=job.game,
        rules=job.rules,
        generator=job.generator,
        backend=job.backend,
        limit_s=job.limit_s,
        seeds=job.seeds,
    )


@dataclass(frozen=True)
class Summary:
    """Counts, conservative win-rate interval and time percentiles of a set of rows."""

    counts: dict[str, int]
    estimate: Estimate
    times: dict[str, float]

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.estimate.percent()
        return {
            "deals": self.n,
            "counts": dict(self.counts),
            "solved": self.estimate.wins,
            "unsolvable": self.estimate.losses,
            "unknown": self.estimate.unknowns,
            "win_rate_decided": self.estimate.decided_rate,
            "interval_percent": [lo, hi],
            "confidence": self.estimate.confidence,
            "seconds": self.times,
        }


def summarize(rows: Iterable[Row]) -> Summary:
    """Summarise rows: unknown, error and unsupported all count as unknowns (no verdict)."""
    rows = list(rows)
    counts = Counter(r.status for r in rows)
    wins, losses = counts.get("solved", 0), counts.get("unsolvable", 0)
    unknowns = sum(counts.get(s, 0) for s in UNKNOWN_STATUSES)
    times = percentiles(r.seconds for r in rows if r.seconds is not None)
    return Summary(dict(sorted(counts.items())), estimate(wins, losses, unknowns), times)
