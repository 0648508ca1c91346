"""``patience estimate``, ``compare`` and ``report``: win rates, backend comparisons and figures from
batches of deals stored in a results store (:mod:`patience.experiments` does the work).

Same conventions as the rest of the CLI: bad input (unknown game or backend, a corrupt or foreign
results file, an unreachable scheduler) is one ``error:`` line on stderr and exit 2, with nothing written.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from .backends import check_backend
from .batch import batch_options, check_executor, executor_and_store, open_results, prepare, run_batch
from .errors import EXIT_NOT_WON, UsageError, guard
from .limits import parse_limit
from .output import emit_json

__all__ = ["compare", "estimate", "report"]


def _fmt_s(x: float) -> str:
    return f"{x * 1000:.0f}ms" if x < 1 else f"{x:.2f}s"


@click.command()
@click.argument("game")
@click.option("--backend", "-b", default="auto", show_default=True, help="auto or a registered backend.")
@batch_options
@click.option("--json", "as_json", is_flag=True, help="Machine-readable summary.")
@guard
def estimate(
    game: str,
    backend: str,
    count: int,
    seed: int,
    limit: str,
    max_mb: int | None,
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
    from ..deals import GENERATORS
    from ..experiments.runner import Job, summarize
    from ..rules import load_game

    check_backend(backend)
    check_executor(executor, workers, scheduler)
    limit_s = parse_limit(limit)
    name, overrides = prepare(game, count, seed, generator, sets, (backend,))
    job = Job(name, range(seed, seed + count), backend, limit_s, generator, overrides, max_mb)
    ex, store = executor_and_store(executor, workers, scheduler, db)
    try:
        rows, new, wall = run_batch(job, store, ex, quiet, retry)
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
        emit_json(out)
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
    line = f"  win rate {e.text()} of decided deals (conservative Wilson interval: unknowns lose / win)"
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
@batch_options
@click.option(
    "--conflicts",
    "conflicts_dir",
    default="conflicts",
    show_default=True,
    help="Folder for conflicting deals.",
)
@click.option("--json", "as_json", is_flag=True, help="Everything as JSON (per deal and summary).")
@click.option("--csv", "as_csv", is_flag=True, help="One CSV line per deal.")
@guard
def compare(
    game: str,
    backends: str,
    count: int,
    seed: int,
    limit: str,
    max_mb: int | None,
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
    from ..experiments.compare import compare_rows, save_conflicts
    from ..experiments.runner import Job
    from ..experiments.store import Row

    names = tuple(b.strip() for b in backends.split(",") if b.strip())
    if len(names) < 2 or len(set(names)) != len(names):
        raise UsageError(f"--backends {backends!r}: give two or more different backends, e.g. cpsat,dfs")
    if as_json and as_csv:
        raise UsageError("--json and --csv: choose one")
    for b in names:
        check_backend(b)
    check_executor(executor, workers, scheduler)
    limit_s = parse_limit(limit)
    name, overrides = prepare(game, count, seed, generator, sets, names)
    ex, store = executor_and_store(executor, workers, scheduler, db)
    rows_by: dict[str, list[Row]] = {}
    try:
        for b in names:
            job = Job(name, range(seed, seed + count), b, limit_s, generator, overrides, max_mb)
            rows_by[b], _, _ = run_batch(job, store, ex, quiet, retry)
    finally:
        ex.close()
        store.close()
    cmp = compare_rows(name, names, rows_by)
    saved = save_conflicts(cmp, conflicts_dir, generator, overrides, limit_s) if cmp.conflicts else []
    if as_json:
        out = cmp.to_json()
        out["saved"] = [str(p) for p in saved]
        emit_json(out)
    elif as_csv:
        click.echo(cmp.to_csv().rstrip("\n"))
    else:
        _print_comparison(cmp, saved)
    if cmp.conflicts:
        sys.exit(EXIT_NOT_WON)


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
@guard
def report(db: str, out_dir: str, game: str | None, as_json: bool) -> None:
    """Figures (PNG) from a results store, one panel per game, rules and generator: win rates with
    intervals, time distributions, per-deal backend-vs-backend times, cards removed."""
    from ..experiments.report import group_rows, label, make_report
    from ..experiments.runner import summarize
    from ..rules import load_game

    if not Path(db).exists():
        raise UsageError(f"{db}: no such results file")
    store = open_results(db, create=False)
    try:
        rows = store.rows(game=load_game(game).name) if game else store.rows()
    finally:
        store.close()
    if not rows:
        raise UsageError(f"{db}: no results{' for ' + game if game else ''}")
    groups = group_rows(rows)
    written = make_report(rows, out_dir)
    if as_json:
        emit_json(
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
