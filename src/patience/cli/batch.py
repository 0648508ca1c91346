"""Running batches of deals from the command line (``estimate``, ``compare``): their common options, the
checks made before any work, the executor and results store, and the progress bar.

The experiments library (:mod:`patience.experiments`) is imported when a batch runs, not when the
command line starts: it loads numpy.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click

from ..experiments.executors import EXECUTORS
from ..interrupt import INTERRUPTED
from .backends import check_supported
from .errors import EXIT_BACKEND_ERROR, EXIT_INTERRUPTED, UsageError, say_error
from .generator import GENERATOR, GENERATOR_HELP
from .limits import MAX_DEALS, MAX_MB
from .sets import SET_HELP, coerce_sets

if TYPE_CHECKING:
    from ..experiments.executors import Executor
    from ..experiments.runner import Job
    from ..experiments.store import Row, Store

__all__ = ["batch_options", "check_executor", "executor_and_store", "open_results", "prepare", "run_batch"]

_COMMON = [
    click.option("-n", "count", type=int, required=True, help="Number of deals (seeds S..S+N-1)."),
    click.option("--seed", type=int, default=1, show_default=True, help="First seed."),
    click.option(
        "--limit", default="10s", show_default=True, help="Wall-time limit per deal (dealing included): 10s."
    ),
    click.option(
        "--max-mb",
        type=click.IntRange(1, MAX_MB),
        default=None,
        help="Memory limit per deal in MB above a worker's base, as solve's (UNKNOWN 'memory out').",
    ),
    click.option(
        "--workers", "-j", type=int, default=None, help="Worker processes (default: all CPUs; 0: inline)."
    ),
    click.option("--executor", type=click.Choice(EXECUTORS), default="process", show_default=True),
    click.option(
        "--scheduler", default=None, metavar="tcp://HOST:PORT", help="Dask scheduler (--executor dask)."
    ),
    click.option(
        "--db", default="results.sqlite", show_default=True, help="SQLite results store (resumable)."
    ),
    click.option(
        "--generator", "-g", type=GENERATOR, default="portable", show_default=True, help=GENERATOR_HELP
    ),
    click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help=SET_HELP),
    click.option(
        "--retry",
        multiple=True,
        type=click.Choice(["error", "unknown", "unsupported"]),
        help="Solve stored results with this status again.",
    ),
    click.option("--quiet", "-q", is_flag=True, help="No progress bar."),
]


def batch_options(fn: Any) -> Any:
    """The options every batch command takes (deals, limit, workers, store, generator, overrides)."""
    for opt in reversed(_COMMON):
        fn = opt(fn)
    return fn


def prepare(
    game: str, n: int, seed: int, generator: str, sets: tuple[str, ...], backends: tuple[str, ...]
) -> tuple[str, dict[str, Any]]:
    """Canonical game name and overrides; deals the first and last seed and checks that every backend
    supports the rules here, so bad input (an unsupported pair, a hidden-information game) fails before
    any work starts or the store is opened."""
    from ..deals import deal
    from ..rules import load_game

    if not 1 <= n <= MAX_DEALS:
        raise UsageError(f"-n {n}: must be between 1 and the limit of {MAX_DEALS} deals (use --seed slices)")
    if seed < 0:
        raise UsageError(f"--seed {seed}: seeds are >= 0")
    overrides = coerce_sets(sets)
    name = load_game(game, overrides).name
    first = deal(name, seed, generator, overrides or None)
    deal(name, seed + n - 1, generator, overrides or None)
    for b in backends:
        check_supported(first.rules, name, b)
    return name, overrides


def check_executor(executor: str, workers: int | None, scheduler: str | None) -> None:
    """Refuse worker counts and scheduler options that do not go together."""
    if workers is not None and workers < 0:
        raise UsageError(f"--workers {workers}: must be >= 0")
    if scheduler and executor != "dask":
        raise UsageError("--scheduler needs --executor dask")


def open_results(path: str, create: bool = True) -> Store:
    """The results store at ``path``; a file that is not one is bad input."""
    from ..experiments.store import StoreError, open_store

    try:
        return open_store(path, create=create)
    except StoreError as err:
        raise UsageError(str(err)) from None


def _executor(executor: str, workers: int | None, scheduler: str | None) -> Executor:
    from ..experiments.executors import ExecutorError, make_executor

    try:
        return make_executor(executor, workers, scheduler)
    except ExecutorError as err:
        raise UsageError(str(err)) from None


def executor_and_store(
    executor: str, workers: int | None, scheduler: str | None, db: str
) -> tuple[Executor, Store]:
    """Start the executor, then open the store: an unreachable scheduler creates no file, and a refused
    store closes the executor again."""
    ex = _executor(executor, workers, scheduler)
    try:
        return ex, open_results(db)
    except UsageError:
        ex.close()
        raise


@contextmanager
def _progress(label: str, quiet: bool) -> Iterator[tuple[Callable[[int, int], None], Callable[[Row], None]]]:
    """A rich progress bar on stderr (deals, rate, ETA, verdict counts); yields (on_start, on_row)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            return Text("?/s" if speed is None else f"{speed:.1f}/s", style="progress.data.speed")

    console = Console(stderr=True)
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(bar_width=20),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        TextColumn("{task.fields[counts]}"),
        console=console,
        disable=quiet or not console.is_terminal,
        transient=False,
    )
    counts: dict[str, int] = {}
    state: dict[str, Any] = {}

    def on_start(todo: int, done: int) -> None:
        desc = label + (f" ({done} stored)" if done else "")
        state["task"] = progress.add_task(desc, total=todo, counts="")

    def on_row(row: Row) -> None:
        counts[row.status] = counts.get(row.status, 0) + 1
        text = " ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        progress.update(state["task"], advance=1, counts=text)

    with progress:
        yield on_start, on_row


def run_batch(
    job: Job, store: Store, ex: Executor, quiet: bool, retry: tuple[str, ...] = ()
) -> tuple[list[Row], int, float]:
    """Run a job with a progress bar; returns (rows, new rows, wall seconds). Ctrl-C keeps what is stored."""
    from ..experiments.executors import ExecutorError
    from ..experiments.runner import run_job
    from ..experiments.store import StoreError

    new = 0
    t0 = time.perf_counter()
    label = f"{job.game} {job.backend}"
    with _progress(label, quiet) as (on_start, on_row):

        def count(row: Row) -> None:
            nonlocal new
            new += 1
            on_row(row)

        try:
            rows = run_job(job, store, ex, on_start, count, retry)
        except KeyboardInterrupt:
            ex.abort()  # workers end now, not after their deals' time limits; their deals are not stored
            click.echo(f"{INTERRUPTED}: {new} new results stored in {store.path}; rerun to resume", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except (ExecutorError, StoreError) as err:  # a worker died, or a row our store refuses: a bug
            say_error(str(err))
            sys.exit(EXIT_BACKEND_ERROR)
    return rows, new, time.perf_counter() - t0
