"""``patience analyze freecell-lost``: Klaver 2022's FreeCell lost-game studies.

The library is :mod:`patience.analysis.freecell_lost`.

``highest`` (the highest-target histogram of lost deals, Figures 20-21), ``maximal`` (the card-swap search
for maximal lost games), ``unwind`` (maximal lost games dealt backwards from the lock) and ``fewest-cells``
(the fewest free cells a deal needs). Configurations are
Klaver's ``STACKS-RANKS-SUITS-CELLS`` (``8-13-4-4`` is the standard game). Only the complete backends that
report an exact highest target are offered: ``dfs-jit`` (default) and ``dfs`` (same search, uncompiled).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from .errors import UsageError, guard
from .limits import parse_limit
from .target import input_options, load_instance

__all__ = ["freecell_lost"]

_BACKENDS = click.Choice(["dfs-jit", "dfs"])
LAYOUT_NAMES = ["suit-deep", "colour-deep", "suit-deep-king-on-ace", "colour-deep-king-on-ace", "default"]
"""``census --layout`` choices: the keys of :data:`patience.analysis.freecell_layouts.LAYOUTS` (a test
keeps them equal; listed here so the CLI starts without importing the analysis)."""
_PUBLISHED = {  # labelled comparisons only: Klaver 2022, section 5.4
    "5-7-4-2": "published (Klaver 2022, Figure 21): 34,133 lost deals, highest target at most 17",
    "8-13-4-4": "published (Klaver 2022, Figure 20): 136 lost of 11,000,000 deals; best known lost deal 22",
    "8-10-4-1": "published (Klaver 2022, Figures 22, 25): maximal lost games found (30 cards home)",
    "6-10-4-3": "published (Klaver 2022, Figure 23): a maximal lost game found",
    "3-10-4-6": "published (Klaver 2022, Figure 24): a maximal lost game found",
}


def _config(text: str) -> Any:
    from ..analysis.freecell_lost import Config

    try:
        return Config.parse(text)
    except ValueError as err:
        raise UsageError(str(err)) from None


@contextmanager
def _bar(label: str, total: int, quiet: bool) -> Iterator[Callable[..., None]]:
    """A rich progress bar on stderr (only on a terminal); yields ``update(done, text)``."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    bar = Progress(
        TextColumn(label),
        BarColumn(bar_width=20),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[note]}"),
        console=console,
        disable=quiet or not console.is_terminal,
    )
    with bar:
        task = bar.add_task(label, total=total, note="")

        def update(done: int, note: str = "") -> None:
            bar.update(task, completed=done, note=note)

        yield update


@click.group(name="freecell-lost")
def freecell_lost() -> None:
    """Klaver 2022: highest target of lost FreeCell deals, maximal lost games, fewest free cells."""


@freecell_lost.command(name="highest")
@click.argument("config")
@click.option(
    "-n", "count", type=click.IntRange(1, 1_000_000), default=1000, show_default=True, help="Deals."
)
@click.option(
    "--seed", "first", type=click.IntRange(0, 2**62), default=1, show_default=True, help="First seed."
)
@click.option("--backend", type=_BACKENDS, default="dfs-jit", show_default=True)
@click.option("--limit", default="60s", show_default=True, help="Time per deal (UNKNOWN beyond it).")
@click.option(
    "--workers", type=click.IntRange(0, 256), default=0, show_default=True, help="Processes (0: this one)."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@guard
def highest(
    config: str, count: int, first: int, backend: str, limit: str, workers: int, as_json: bool, quiet: bool
) -> None:
    """Histogram of the highest target reached over the lost deals of CONFIG (e.g. 5-7-4-2).

    Portable deals SEED..SEED+N-1; each lost one's highest target is exact (complete search).
    """
    from ..analysis.freecell_lost import survey, upper_bound

    cfg = _config(config)
    seconds = parse_limit(limit)
    with _bar(f"freecell {cfg.label}", count, quiet) as update:
        res = survey(cfg, first, count, backend, seconds, workers, lambda d, n: update(d))
    data = res.to_json()
    if as_json:
        click.echo(json.dumps(data))
        return
    lo, hi = data["loss_rate_interval"]
    last = first + count - 1
    click.echo(f"config {cfg.label} (stacks-ranks-suits-cells), deals {first}..{last}, {backend}")
    click.echo(
        f"won {data['won']}  lost {data['lost']}  unknown {data['unknown']}  "
        f"loss rate 95% [{100 * lo:.3f}%, {100 * hi:.3f}%]  {res.seconds:.1f} s"
    )
    click.echo(f"upper bound for a lost deal: {upper_bound(cfg)} cards home")
    click.echo("highest target  lost deals")
    for k, v in res.histogram.items():
        click.echo(f"{k:>14}  {v}")
    if cfg.label in _PUBLISHED:
        click.echo(_PUBLISHED[cfg.label])


@freecell_lost.command(name="maximal")
@click.argument("config")
@click.option("--start", "start_file", type=click.Path(dir_okay=False), help="A lost deal to start from.")
@click.option("--steps", type=click.IntRange(1, 10_000_000), default=200, show_default=True)
@click.option(
    "--candidates",
    type=click.IntRange(1, 10_000),
    default=40,
    show_default=True,
    help="Random swaps scored per step.",
)
@click.option(
    "--scan",
    is_flag=True,
    help="After the candidates, try further swaps until one beats the current deal (Klaver tried most).",
)
@click.option(
    "--explore",
    type=click.FloatRange(0, 1),
    default=0.1,
    show_default=True,
    help="Chance of making a swap of the next best score (leaves local maxima).",
)
@click.option(
    "--stall",
    type=click.IntRange(0, 10_000_000),
    default=20,
    show_default=True,
    help="Steps without a new best before going back to the best deal (0: never).",
)
@click.option("--seed", type=click.IntRange(0, 2**62), default=1, show_default=True)
@click.option("--backend", type=_BACKENDS, default="dfs-jit", show_default=True)
@click.option(
    "--check-limit", default="10s", show_default=True, help="Time per candidate (UNKNOWN: rejected)."
)
@click.option("--limit", default=None, help="Time for the whole search (default: --steps only).")
@click.option(
    "-o", "out", type=click.Path(dir_okay=False), help="Write the best lost deal as an instance file."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@guard
def maximal(
    config: str,
    start_file: str | None,
    steps: int,
    candidates: int,
    scan: bool,
    explore: float,
    stall: int,
    seed: int,
    backend: str,
    check_limit: str,
    limit: str | None,
    out: str | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Search for a lost deal of CONFIG with as many cards home as possible (Klaver's card swaps)."""
    from ..analysis.freecell_lost import anneal, describe

    cfg = _config(config)
    check = parse_limit(check_limit)
    total = parse_limit(limit) if limit is not None else None
    start = load_instance(start_file) if start_file else None
    if start is not None and start.game != "freecell":
        raise UsageError(f"--start {start_file}: a {start.game} deal; expected freecell")
    try:
        with _bar(f"maximal {cfg.label}", steps, quiet) as update:
            res = anneal(
                cfg,
                start,
                seed=seed,
                steps=steps,
                candidates=candidates,
                scan=scan,
                explore=explore,
                stall=stall,
                backend=backend,
                check_seconds=check,
                seconds=total,
                progress=lambda s, n, cur, best: update(s, f"now {cur}, best {best}"),
            )
    except ValueError as err:
        raise UsageError(f"--start {start_file}: {err}") from None
    if out and res.best is not None:
        src = {"study": "Klaver maximal lost game search", "highest_target": res.best_most, "seed": seed}
        type(res.best)(res.best.game, res.best.rules, res.best.layout, res.best.overrides, src).save(out)
    data = {
        "config": cfg.label,
        "upper_bound": res.bound,
        "start": res.start_most,
        "best": res.best_most if res.best is not None else None,
        "maximal": res.maximal,
        "steps": res.steps,
        "evaluations": res.evaluations,
        "statuses": dict(res.statuses),
        "seconds": res.seconds,
        "deal": res.best.to_json()["layout"]["tableau"] if res.best is not None else None,
    }
    if as_json:
        click.echo(json.dumps(data))
        return
    if res.best is None:
        click.echo(f"config {cfg.label}: no lost start deal found ({res.evaluations} deals tried)")
        return
    click.echo(
        f"config {cfg.label}: best lost deal has {res.best_most} cards home at most "
        f"(upper bound {res.bound}{', a maximal lost game' if res.maximal else ''}); "
        f"start {res.start_most}"
    )
    tally = ", ".join(f"{k} {v}" for k, v in sorted(res.statuses.items()))
    click.echo(f"{res.steps} steps, {res.evaluations} complete searches ({tally}), {res.seconds:.1f} s")
    click.echo(describe(res.best.layout.tableau))
    if cfg.label in _PUBLISHED:
        click.echo(_PUBLISHED[cfg.label])


@freecell_lost.command(name="unwind")
@click.argument("config")
@click.option("--seed", type=click.IntRange(0, 2**62), default=1, show_default=True, help="Seed of the walk.")
@click.option("--limit", default="60s", show_default=True, help="Time for the whole walk.")
@click.option(
    "--check-limit", default="3s", show_default=True, help="Complete search per state (UNKNOWN: not lost)."
)
@click.option(
    "--tries", type=click.IntRange(1, 10_000), default=8, show_default=True, help="Predecessors per state."
)
@click.option(
    "--jump", type=click.IntRange(1, 10_000), default=12, show_default=True, help="Most levels jumped back."
)
@click.option("--recheck-limit", default="600s", show_default=True, help="Re-check of a deal found.")
@click.option("--backend", type=_BACKENDS, default="dfs-jit", show_default=True)
@click.option("-o", "out", type=click.Path(dir_okay=False), help="Write the deal found as an instance file.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@guard
def unwind_cmd(
    config: str,
    seed: int,
    limit: str,
    check_limit: str,
    tries: int,
    jump: int,
    recheck_limit: str,
    backend: str,
    out: str | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Deal CONFIG's lock position backwards to a maximal lost game (needs RANKS = STACKS + CELLS + 1).

    Every state kept on the way is proven lost; a deal reached is searched again from scratch
    (--recheck-limit) and reported as a maximal lost game only when that search proves it lost with the
    upper bound home.
    """
    from ..analysis.freecell_lost import describe, highest_target, upper_bound
    from ..analysis.freecell_unwind import lock, unwind

    cfg = _config(config)
    seconds, check, recheck = parse_limit(limit), parse_limit(check_limit), parse_limit(recheck_limit)
    try:
        start = lock(cfg)
    except ValueError:
        raise UsageError(
            f"config {cfg.label}: unwind needs ranks = stacks + cells + 1 (e.g. 8-10-4-1, 6-10-4-3)"
        ) from None
    with _bar(f"unwind {cfg.label}", start.left, quiet) as update:
        res = unwind(cfg, seed=seed, tries=tries, jump=jump, seconds=seconds, check_seconds=check,
                     backend=backend,
                     progress=lambda n, left: update(start.left - left, f"{n} checks"))  # fmt: skip
    bound = upper_bound(cfg)
    again = highest_target(res.deal, backend, recheck) if res.deal is not None else None
    maximal = again is not None and (again.status, again.most) == ("unsolvable", bound)
    if out and maximal:
        src = {"study": "Klaver maximal lost game, dealt backwards from the lock", "seed": seed}
        inst = res.deal
        type(inst)(inst.game, inst.rules, inst.layout, inst.overrides, src).save(out)
    data = {
        "config": cfg.label,
        "upper_bound": bound,
        "found": res.deal is not None,
        "maximal": maximal,
        "recheck": None if again is None else {"status": again.status, "highest_target": again.most},
        "fewest_left": res.fewest_left,
        "checks": res.checks,
        "statuses": dict(res.statuses),
        "backjumps": res.backjumps,
        "seconds": round(res.seconds, 3),
        "deal": res.deal.to_json()["layout"]["tableau"] if res.deal is not None else None,
    }
    if as_json:
        click.echo(json.dumps(data))
        return
    tally = ", ".join(f"{k} {v}" for k, v in sorted(res.statuses.items()))
    walk = f"{res.checks} complete searches ({tally}), {res.backjumps} jumps back, {res.seconds:.1f} s"
    if res.deal is None:
        click.echo(
            f"config {cfg.label}: no deal reached; closest lost state {res.fewest_left} cards short of a deal"
        )
        click.echo(walk)
        return
    if maximal:
        click.echo(f"config {cfg.label}: a maximal lost game ({bound} cards home at most, the upper bound)")
    else:
        click.echo(f"config {cfg.label}: a deal reached, but its re-check gave {again.status} ({again.most})")
    click.echo(walk)
    click.echo(describe(res.deal.layout.tableau))
    if cfg.label in _PUBLISHED:
        click.echo(_PUBLISHED[cfg.label])


@freecell_lost.command(name="fewest-cells")
@click.argument("deals", nargs=-1, required=True)
@click.option("--max-cells", type=click.IntRange(0, 64), default=10, show_default=True)
@click.option("--backend", type=_BACKENDS, default="dfs-jit", show_default=True)
@click.option("--limit", default="300s", show_default=True, help="Time per deal and cell count.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per deal, one a line.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@input_options
@guard
def fewest_cells_cmd(
    deals: tuple[str, ...], max_cells: int, backend: str, limit: str, as_json: bool, quiet: bool
) -> None:
    """Fewest free cells each deal needs: solved with 0, 1, 2, ... cells until won.

    DEALS are deal files or GAME:SEED (``-g ms freecell:11982``: Microsoft's deal 11982).
    """
    from ..analysis.freecell_lost import fewest_cells

    seconds = parse_limit(limit)
    insts = [(d, load_instance(d)) for d in deals]  # every deal read before any work
    for name, inst in insts:
        if not inst.rules.cells.count and inst.game != "freecell":
            raise UsageError(f"{name}: {inst.game} has no free cells")
    for name, inst in insts:
        with _bar(f"{name}", max_cells + 1, quiet) as update:
            ans = fewest_cells(inst, max_cells, backend, seconds, lambda d, n: update(d))
        tried = [
            {
                "cells": k,
                "status": v.status,
                "highest_target": v.most,
                "nodes": v.nodes,
                "seconds": round(v.seconds, 3),
            }
            for k, v in ans.tried
        ]
        if as_json:
            click.echo(
                json.dumps(
                    {"deal": name, "fewest_cells": ans.fewest, "at_least": ans.at_least, "tried": tried}
                )
            )
            continue
        if ans.fewest is not None:
            head = f"{ans.fewest} free cells"
        else:
            head = f"undecided: at least {ans.at_least} free cells"
        steps = ", ".join(
            f"{t['cells']}: {t['status']}"
            + (f" ({t['highest_target']} home)" if t["highest_target"] is not None else "")
            for t in tried
        )
        click.echo(f"{name}: {head}  [{steps}]")


def _ms_range(text: str) -> tuple[int, int]:
    """``--ms A-B`` (or one deal number) -> (A, B); a UsageError names what is wrong."""
    from ..analysis.freecell_census import MS_LAST

    parts = text.strip().split("-")
    if not 1 <= len(parts) <= 2 or not all(p.isdigit() and len(p) <= 12 for p in parts):
        raise UsageError(f"--ms {text!r}: expected FIRST-LAST, e.g. 1-100000")
    a, b = int(parts[0]), int(parts[-1])
    if not 1 <= a <= b <= MS_LAST:
        raise UsageError(f"--ms {text!r}: need 1 <= FIRST <= LAST <= {MS_LAST} (Microsoft deal numbers)")
    return a, b


@freecell_lost.command(name="census")
@click.option("--ms", "ms", default=None, help="Microsoft deal numbers FIRST-LAST to scan.")
@click.option(
    "--layout",
    type=click.Choice(LAYOUT_NAMES),
    default=None,
    help="Instead of --ms: seeded deals of Klaver's special layout (section 5.4), seeds SEED..SEED+N-1.",
)
@click.option("-n", "count", type=click.IntRange(1, 100_000_000), default=None, help="Deals of --layout.")
@click.option("--seed", "first_seed", type=click.IntRange(1, 2**32), default=1, show_default=True,
              help="First seed of --layout.")  # fmt: skip
@click.option(
    "--workers",
    type=click.IntRange(1, 256),
    default=1,
    show_default=True,
    help="Filter processes at once; also processes solving candidates.",
)
@click.option(
    "--chunk",
    type=click.IntRange(1, 10_000_000),
    default=None,
    help="Deals a filter process scans (the census is saved after each); 100000 (--ms), 2000 (--layout).",
)
@click.option("--preset", default="lg", show_default=True, help="Freecell Solver preset of the filter (-l).")
@click.option("--limit", default="600s", show_default=True, help="Our complete search's time per candidate.")
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    help="Census JSON file: written atomically as it goes; an existing one is resumed.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@guard
def census_cmd(
    ms: str | None,
    layout: str | None,
    count: int | None,
    first_seed: int,
    workers: int,
    chunk: int | None,
    preset: str,
    limit: str,
    out: str | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Lost standard deals among Microsoft deals FIRST-LAST (Klaver's Figure 20), or among N seeded deals
    of a special layout (``--layout suit-deep|colour-deep -n N``, Klaver's section 5.4).

    Freecell Solver is only a filter (its range solver on MS deals; ``fc-solve`` on each board of a
    layout): every deal it does not solve is solved by our complete search (dfs-jit, then planning), whose
    UNSOLVABLE is the verdict; each lost deal's highest target is exact. Prints the loss rate per million
    beside the published ones and the highest targets.
    """
    import sys
    import time

    from ..analysis.freecell_census import Census, FcsFilter, FilterError, FilterMissing, run_census
    from .errors import EXIT_BACKEND_ERROR, say_error

    if layout is not None or count is not None:
        if ms is not None:
            raise UsageError("--ms and --layout/-n: give one, MS deal numbers or a layout's seeds")
        if layout is None or count is None:
            raise UsageError("--layout NAME and -n N go together (e.g. --layout suit-deep -n 1000)")
        _layout_census(layout, count, first_seed, workers, chunk or 2000, preset, limit, out, as_json, quiet)
        return
    if ms is None:
        raise UsageError("missing --ms FIRST-LAST (MS deal numbers) or --layout NAME -n N")
    chunk = chunk or 100_000
    first, last = _ms_range(ms)
    seconds = parse_limit(limit)
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", preset):
        raise UsageError(f"--preset {preset!r}: expected a Freecell Solver preset name such as lg")
    try:
        dfilter = FcsFilter(preset)
        dfilter.ours(1)  # an unknown preset is bad input, found before anything is written
    except FilterMissing as err:
        raise UsageError(str(err)) from None
    except FilterError as err:
        raise UsageError(f"--preset {preset!r}: {err}") from None
    try:
        census = Census.load(out, dfilter.name, "dfs-jit") if out else Census(dfilter.name)
    except ValueError as err:
        raise UsageError(f"--out {err}") from None
    t0 = time.perf_counter()
    try:
        with _bar("census", last - first + 1, quiet) as update:

            def progress(phase: str, done: int, total: int) -> None:
                update(done if phase == "filter" else last - first + 1, f"{phase} {done}/{total}")

            summary = run_census(census, first, last, dfilter, seconds, chunk, workers, progress)
    except FilterError as err:
        say_error(str(err))
        sys.exit(EXIT_BACKEND_ERROR)
    data = {**summary.to_json(), "filter": dfilter.name, "limit": seconds, "wall": time.perf_counter() - t0}
    if as_json:
        click.echo(json.dumps(data))
        return
    click.echo("\n".join(census_lines(summary, dfilter.name, seconds)))


def _layout_census(name: str, count: int, first: int, workers: int, chunk: int, preset: str, limit: str,
                   out: str | None, as_json: bool, quiet: bool) -> None:  # fmt: skip
    """``census --layout``: the census of seeds FIRST..FIRST+COUNT-1 of a special layout."""
    import sys
    import time

    from ..analysis.freecell_census import FilterError, FilterMissing
    from ..analysis.freecell_layouts import LAYOUTS, BadPreset, layout_lines, open_census, run_layout_census
    from .errors import EXIT_BACKEND_ERROR, say_error

    seconds = parse_limit(limit)
    if first + count - 1 > 2**32:
        raise UsageError(f"--seed {first} -n {count}: seeds past 2**32")
    lay = LAYOUTS[name]
    try:
        census, dfilter = open_census(lay, out, preset)
    except FilterMissing as err:
        raise UsageError(str(err)) from None
    except BadPreset as err:
        raise UsageError(f"--preset {err}") from None
    except ValueError as err:
        raise UsageError(f"--out {err}") from None
    t0 = time.perf_counter()
    try:
        with _bar(f"census {name}", count, quiet) as update:

            def progress(phase: str, done: int, total: int) -> None:
                update(done if phase == "filter" else count, f"{phase} {done}/{total}")

            summary = run_layout_census(census, dfilter, first, count, seconds, chunk, workers, progress)
    except FilterError as err:
        say_error(str(err))
        sys.exit(EXIT_BACKEND_ERROR)
    data = {**summary.to_json(), "layout": name, "filter": dfilter.name, "limit": seconds,
            "wall": time.perf_counter() - t0}  # fmt: skip
    data.pop("boards_checked")  # our own boards go to the filter: no dealer to compare
    if as_json:
        click.echo(json.dumps(data))
        return
    click.echo("\n".join(layout_lines(summary, lay, dfilter.name, seconds)))


def census_lines(summary: Any, filter_name: str, seconds: float) -> list[str]:
    """The census as text: counts, lost deals, rate beside the published ones, histogram, phase times."""
    from ..analysis.freecell_census import FIG20_SHAPE, PUBLISHED, published_interval
    from ..text import plural

    s = summary
    lo, hi = s.interval
    rate = 1e6 * len(s.lost) / s.scanned if s.scanned else float("nan")
    lost = ", ".join(f"{n} ({'?' if m is None else m})" for n, m in sorted(s.lost.items())) or "none"
    lines = [
        f"MS deals {s.first}-{s.last}: {s.scanned:,} scanned; filter {filter_name}; "
        f"verdicts by our complete search (dfs-jit, then planning), {seconds:g} s a candidate",
        f"filter: {plural(len(s.candidates), 'candidate')}, {s.filter_seconds:.1f} s "
        f"(boards compared with ours: {s.checked}, all equal)",
        f"verdict: lost {len(s.lost)}, missed by the filter (we win) {len(s.missed)}"
        + (f" {s.missed}" if s.missed else "")
        + f", undecided {len(s.undecided)}"
        + (f" {s.undecided}" if s.undecided else "")
        + f"; {s.verify_seconds:.1f} s",
        f"lost deals (highest target): {lost}",
        f"loss rate: {rate:.2f} per million, 95% [{1e6 * lo:.2f}, {1e6 * hi:.2f}]",
    ]
    for key, (k, n, label) in PUBLISHED.items():
        r, plo, phi = published_interval(key)
        lines.append(f"  published: {r:.2f} per million, 95% [{plo:.2f}, {phi:.2f}] ({k} of {n:,}: {label})")
    lines.append("highest target  lost deals")
    lines += [f"{k:>14}  {v}" for k, v in s.histogram.items()]
    known = [m for m in s.lost.values() if m is not None]
    if known:
        mean = sum(known) / len(known)
        mode = max(s.histogram.items(), key=lambda kv: kv[1])[0]
        lines.append(f"mode {mode}, mean {mean:.2f}, largest {max(known)} of {len(known)} lost deals")
    lines.append(FIG20_SHAPE)
    return lines
