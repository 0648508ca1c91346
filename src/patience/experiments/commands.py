"""The ``estimate``, ``compare`` and ``report`` commands (registered on :data:`patience.cli.main`).

Same conventions as the rest of the CLI: bad input (unknown game or backend, a corrupt or foreign
results file, an unreachable scheduler) is one ``error:`` line on stderr and exit 2, with nothing written.
"""

from __future__ import annotations

import json
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from ..cli import (
    GENERATOR,
    GENERATOR_HELP,
    MAX_DEALS,
    UsageError,
    _emit_json,
    _guard,
    _parse_limit,
    _parse_sets,
    say_error,
)
from ..deals import GENERATORS, deal
from ..interrupt import EXIT_INTERRUPTED, INTERRUPTED
from ..rules import load_game
from ..solvers.base import available_backends, unsupported_reason
from .executors import EXECUTORS, Executor, ExecutorError, make_executor
from .runner import Job, run_job, summarize
from .store import Row, Store, StoreError, open_store

__all__ = ["compare", "estimate", "report"]


def _coerce_sets(sets: tuple[str, ...]) -> dict[str, Any]:
    """``--set`` values as JSON where they parse (``cells=2`` -> 2), so equal rules get equal keys."""
    out = {}
    for k, v in _parse_sets(sets).items():
        try:
            out[k] = json.loads(v)
        except ValueError:
            out[k] = v
    return out


def _check_backend(name: str) -> None:
    if name != "auto" and name not in available_backends():
        valid = ", ".join(["auto", *available_backends()])
        raise UsageError(f"--backend {name!r}: unknown (valid: {valid})")


def _executor_and_store(
    executor: str, workers: int | None, scheduler: str | None, db: str
) -> tuple[Executor, Store]:
    """Start the executor, then open the store: an unreachable scheduler creates no file, and a refused
    store closes the executor again."""
    ex = _executor(executor, workers, scheduler)
    try:
        return ex, _open(db)
    except UsageError:
        ex.close()
        raise


def _open(path: str, create: bool = True) -> Store:
    try:
        return open_store(path, create=create)
    except StoreError as err:
        raise UsageError(str(err)) from None


def _prepare(
    game: str, n: int, seed: int, generator: str, sets: tuple[str, ...], backends: tuple[str, ...]
) -> tuple[str, dict[str, Any]]:
    """Canonical game name and overrides; deals the first and last seed and checks that every backend
    supports the rules here, so bad input (an unsupported pair, a hidden-information game) fails before
    any work starts or the store is opened."""
    if not 1 <= n <= MAX_DEALS:
        raise UsageError(f"-n {n}: must be between 1 and the limit of {MAX_DEALS} deals (use --seed slices)")
    if seed < 0:
        raise UsageError(f"--seed {seed}: seeds are >= 0")
    overrides = _coerce_sets(sets)
    name = load_game(game, overrides).name
    first = deal(name, seed, generator, overrides or None)
    deal(name, seed + n - 1, generator, overrides or None)
    for b in backends:
        reason = unsupported_reason(first.rules, name, b)
        if reason is not None:
            raise UsageError(reason)
    return name, overrides


def _check_executor(executor: str, workers: int | None, scheduler: str | None) -> None:
    if workers is not None and workers < 0:
        raise UsageError(f"--workers {workers}: must be >= 0")
    if scheduler and executor != "dask":
        raise UsageError("--scheduler needs --executor dask")


def _executor(executor: str, workers: int | None, scheduler: str | None) -> Executor:
    try:
        return make_executor(executor, workers, scheduler)
    except ExecutorError as err:
        raise UsageError(str(err)) from None


@contextmanager
def _progress(label: str, quiet: bool):
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


def _run(
    job: Job, store: Store, ex: Executor, quiet: bool, retry: tuple[str, ...] = ()
) -> tuple[list[Row], int, float]:
    """Run a job with a progress bar; returns (rows, new rows, wall seconds). Ctrl-C keeps what is stored."""
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
            sys.exit(3)
    return rows, new, time.perf_counter() - t0


def _fmt_s(x: float) -> str:
    return f"{x * 1000:.0f}ms" if x < 1 else f"{x:.2f}s"


_common = [
    click.option("-n", "count", type=int, required=True, help="Number of deals (seeds S..S+N-1)."),
    click.option("--seed", type=int, default=1, show_default=True, help="First seed."),
    click.option("--limit", default="10s", show_default=True, help="Wall-time limit per deal, e.g. 10s."),
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
    click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Override a rule parameter."),
    click.option(
        "--retry",
        multiple=True,
        type=click.Choice(["error", "unknown", "unsupported"]),
        help="Solve stored results with this status again.",
    ),
    click.option("--quiet", "-q", is_flag=True, help="No progress bar."),
]


def _options(fn: Any) -> Any:
    for opt in reversed(_common):
        fn = opt(fn)
    return fn


@click.command()
@click.argument("game")
@click.option("--backend", "-b", default="auto", show_default=True, help="auto or a registered backend.")
@_options
@click.option("--json", "as_json", is_flag=True, help="Machine-readable summary.")
@_guard
def estimate(
    game: str,
    backend: str,
    count: int,
    seed: int,
    limit: str,
    workers: int | None,
    executor: str,
    scheduler: str | None,
    db: str,
    generator: str,
    sets: tuple[str, ...],
    retry: tuple[str, ...],
    quiet: bool,
    as_json: bool,
) -> None:
    """Estimate the win rate of GAME over N seeded deals (conservative Wilson 95% interval)."""
    _check_backend(backend)
    _check_executor(executor, workers, scheduler)
    limit_s = _parse_limit(limit)
    name, overrides = _prepare(game, count, seed, generator, sets, (backend,))
    job = Job(name, range(seed, seed + count), backend, limit_s, generator, overrides)
    ex, store = _executor_and_store(executor, workers, scheduler, db)
    try:
        rows, new, wall = _run(job, store, ex, quiet, retry)
    finally:
        ex.close()
        store.close()
    summ = summarize(rows)
    # The published rate is for random deals of the standard rules: not for overrides or a family.
    ref = None if overrides or generator not in GENERATORS else load_game(name).file.reference.win_rate
    if as_json:
        out = {
            "game": name,
            "rules": overrides,
            "generator": generator,
            "seeds": [seed, seed + count - 1],
            "backend": backend,
            "limit_s": limit_s,
            "db": db,
            "new": new,
            "wall_seconds": wall,
            "workers": ex.workers,
            "executor": ex.name,
            **summ.to_json(),
        }
        if ref is not None:
            out["reference_percent"] = ref
            out["reference_inside"] = summ.estimate.contains(ref)
        _emit_json(out)
        return
    e = summ.estimate
    rules = "".join(f" {k}={v}" for k, v in sorted(overrides.items()))
    click.echo(
        f"{name}{rules}: {summ.n} deals (seeds {seed}..{seed + count - 1}, {generator}), backend {backend}, "
        f"limit {limit_s:g}s; {new} run now in {wall:.1f}s with {ex.workers} {ex.name} worker(s), "
        f"{summ.n - new} from {db}"
    )
    others = {k: v for k, v in summ.counts.items() if k not in ("solved", "unsolvable", "unknown")}
    extra = "".join(f", {k} {v}" for k, v in others.items())
    click.echo(f"  solved {e.wins}, unsolvable {e.losses}, unknown {summ.counts.get('unknown', 0)}{extra}")
    rate = "n/a" if e.decided_rate is None else f"{100 * e.decided_rate:.3f}%"
    line = f"  win rate {rate} of decided deals; conservative Wilson 95%: {e.text()}"
    if ref is not None:
        line += f"; published {ref:g}% {'inside' if e.contains(ref) else 'OUTSIDE'}"
    click.echo(line)
    if summ.times:
        click.echo("  time per deal: " + "  ".join(f"{k} {_fmt_s(v)}" for k, v in summ.times.items()))
    errors = [r for r in rows if r.status == "error"][:3]
    for r in errors:
        click.echo(f"  error on seed {r.seed}: {r.message}", err=True)


@click.command()
@click.argument("game")
@click.option("--backends", "-b", required=True, help="Comma-separated backends, e.g. cpsat,dfs.")
@_options
@click.option(
    "--conflicts",
    "conflicts_dir",
    default="conflicts",
    show_default=True,
    help="Folder for conflicting deals.",
)
@click.option("--json", "as_json", is_flag=True, help="Everything as JSON (per deal and summary).")
@click.option("--csv", "as_csv", is_flag=True, help="One CSV line per deal.")
@_guard
def compare(
    game: str,
    backends: str,
    count: int,
    seed: int,
    limit: str,
    workers: int | None,
    executor: str,
    scheduler: str | None,
    db: str,
    generator: str,
    sets: tuple[str, ...],
    retry: tuple[str, ...],
    quiet: bool,
    conflicts_dir: str,
    as_json: bool,
    as_csv: bool,
) -> None:
    """Solve the same N deals of GAME with several backends; verdict agreement and time ratios.

    Exit 1 when backends disagree (SOLVED vs UNSOLVABLE on a deal); those deals are saved in --conflicts.
    """
    from .compare import compare_rows, save_conflicts

    names = tuple(b.strip() for b in backends.split(",") if b.strip())
    if len(names) < 2 or len(set(names)) != len(names):
        raise UsageError(f"--backends {backends!r}: give two or more different backends, e.g. cpsat,dfs")
    if as_json and as_csv:
        raise UsageError("--json and --csv: choose one")
    for b in names:
        _check_backend(b)
    _check_executor(executor, workers, scheduler)
    limit_s = _parse_limit(limit)
    name, overrides = _prepare(game, count, seed, generator, sets, names)
    ex, store = _executor_and_store(executor, workers, scheduler, db)
    rows_by: dict[str, list[Row]] = {}
    try:
        for b in names:
            job = Job(name, range(seed, seed + count), b, limit_s, generator, overrides)
            rows_by[b], _, _ = _run(job, store, ex, quiet, retry)
    finally:
        ex.close()
        store.close()
    cmp = compare_rows(name, names, rows_by)
    saved = save_conflicts(cmp, conflicts_dir, generator, overrides, limit_s) if cmp.conflicts else []
    if as_json:
        out = cmp.to_json()
        out["saved"] = [str(p) for p in saved]
        _emit_json(out)
    elif as_csv:
        click.echo(cmp.to_csv().rstrip("\n"))
    else:
        _print_comparison(cmp, saved)
    if cmp.conflicts:
        sys.exit(1)


def _print_comparison(cmp: Any, saved: list[Path]) -> None:
    from rich.console import Console
    from rich.table import Table

    ref = cmp.backends[0]
    agreed = sum(d.agreed for d in cmp.deals)
    table = Table(
        title=f"{cmp.game}: {len(cmp.deals)} deals, {agreed} agreed, {len(cmp.conflicts)} conflicts"
    )
    for col in (
        "backend",
        "solved",
        "unsolvable",
        "unknown",
        "other",
        "median s",
        "total s",
        f"time / {ref}",
    ):
        table.add_column(col, justify="left" if col == "backend" else "right")
    for b in cmp.backends:
        pb = cmp.per_backend[b]
        c = pb["counts"]
        other = sum(v for k, v in c.items() if k not in ("solved", "unsolvable", "unknown"))
        med = pb["seconds"].get("p50")
        if b == ref:
            ratio = "1"
        else:
            rs = cmp.ratio_summary(b)
            ratio = (
                f"{rs['geomean']:.3g} (median {rs['median']:.3g}, {rs['deals']} deals)"
                if rs["deals"]
                else "-"
            )
        table.add_row(
            b,
            str(c.get("solved", 0)),
            str(c.get("unsolvable", 0)),
            str(c.get("unknown", 0)),
            str(other),
            "-" if med is None else f"{med:.3f}",
            f"{pb['total_seconds']:.1f}",
            ratio,
        )
    Console(width=150).print(table)
    for d in cmp.conflicts:
        verdicts = ", ".join(f"{b} {s}" for b, s in d.status.items())
        click.echo(f"CONFLICT seed {d.seed} ({(d.sha256 or '')[:12]}): {verdicts}")
    if saved:
        click.echo(f"saved {len(saved)} files to {saved[0].parent}/ (instances, solutions, conflicts.json)")


@click.command()
@click.argument("db", type=click.Path())
@click.option(
    "-o", "--output", "out_dir", default="report", show_default=True, help="Folder for the PNG files."
)
@click.option("--game", default=None, help="Only this game.")
@click.option("--json", "as_json", is_flag=True, help="Print the per-group summary as JSON.")
@_guard
def report(db: str, out_dir: str, game: str | None, as_json: bool) -> None:
    """Figures (PNG) from a results store: win rates with intervals, time distributions, cards removed."""
    from .report import group_rows, label, make_report

    if not Path(db).exists():
        raise UsageError(f"{db}: no such results file")
    store = _open(db, create=False)
    try:
        rows = store.rows(game=load_game(game).name) if game else store.rows()
    finally:
        store.close()
    if not rows:
        raise UsageError(f"{db}: no results{' for ' + game if game else ''}")
    groups = group_rows(rows)
    written = make_report(rows, out_dir)
    if as_json:
        _emit_json(
            {
                "groups": [
                    {
                        "game": k[0],
                        "rules": json.loads(k[1]),
                        "generator": k[2],
                        "backend": k[3],
                        "limit_s": k[4],
                        **summarize(v).to_json(),
                    }
                    for k, v in sorted(groups.items())
                ],
                "files": [str(p) for p in written],
            }
        )
        return
    for k, v in sorted(groups.items()):
        s = summarize(v)
        click.echo(f"{label(k)}: {s.n} deals, {s.estimate.text()}, unknown {s.estimate.unknowns}")
    for p in written:
        click.echo(f"wrote {p}")
