"""What the benchmark scripts share: paths, machine load, peer solvers, tallies, batch solving, output.

Each script used to carry its own copy of these; they live here once. Scripts import it as ``import
_common`` (``benchmarks/`` is the script's folder, so it is on ``sys.path``).

- Where things are: :data:`ROOT`, :data:`OUT` (``benchmarks/out``, written only with ``--out``), the peers
  built by ``benchmarks/peers.sh`` (:data:`BHS`, :data:`SOLVITAIRE`, ``fc-solve`` on the PATH) and
  :func:`peers_line` saying which are there.
- The record beside every figure: :func:`load` (1/5/15-minute load averages), :func:`machine` and
  :func:`commit` (the checkout measured, or the commit of a snapshot made by ``benchmarks/snapshot.sh``).
- Verdict letters (``W`` won, ``L`` lost, ``?`` no verdict), :func:`tally`, :func:`spread` (median, p90,
  max, total through :func:`patience.experiments.stats.percentiles`, the quantiles ``estimate`` reports).
- :func:`bhs_solve`: black-hole-solver on a board, as a subprocess (``bench_dfs.peer`` is this).
- :func:`solve_all`: tasks of :mod:`patience.experiments.runner` through an executor (in this process by
  default), rows in task order, each with the task's whole wall time beside the backend's own seconds.
- Output: :func:`add_out` (the ``--out [DIR]`` flag), :func:`out_dir`, :func:`write_csv`,
  :func:`md_table`, :func:`write_lines`; :class:`Parser` gives one-line usage errors with exit code 2.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:  # the runner imports numpy and the backends' registry: loaded when solving, not for --help
    from patience.experiments.runner import Task
    from patience.experiments.store import Row

__all__ = [
    "BHS",
    "HOLE_GAMES",
    "OUT",
    "ROOT",
    "SOLVITAIRE",
    "Parser",
    "add_out",
    "bhs_available",
    "bhs_solve",
    "commit",
    "fc_solve",
    "load",
    "machine",
    "md_table",
    "out_dir",
    "peers_line",
    "snapshot_commit",
    "solve_all",
    "spread",
    "tally",
    "tasks",
    "verdict",
    "write_csv",
    "write_lines",
]

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "out"

# Peers, built into the git-ignored .peers/ by benchmarks/peers.sh ------------------------------------
BHS = ROOT / ".peers" / "bhs" / "black-hole-solve"
SOLVITAIRE = ROOT / ".peers" / "solvitaire" / "bin" / "solvitaire"
HOLE_GAMES = {"black-hole": "black_hole", "all-in-a-row": "all_in_a_row"}  # our game -> its --game name
BHS_MAX_ITERS = 1_000_000_000  # large: the wall-clock timeout, not the iteration cap, stops it


def bhs_available() -> bool:
    """True when black-hole-solver has been built (``bash benchmarks/peers.sh bhs``)."""
    return BHS.exists()


def fc_solve() -> str | None:
    """Path of Freecell Solver's ``fc-solve`` (Debian's freecell-solver-bin), or None."""
    return shutil.which("fc-solve")


def peers_line() -> str:
    """One line saying which peer solvers are there, and how to build the missing ones."""
    have = {
        "black-hole-solve": (bhs_available(), "bhs"),
        "solvitaire": (SOLVITAIRE.exists(), "solvitaire"),
        "fc-solve": (fc_solve() is not None, "fcs"),
    }
    said = [n + (" yes" if ok else f" missing (bash benchmarks/peers.sh {a})") for n, (ok, a) in have.items()]
    return "peers: " + ", ".join(said)


def bhs_solve(
    board: str, game: str, limit: float, *, prune: bool = True, max_iters: int | None = BHS_MAX_ITERS
) -> tuple[str, float]:
    """black-hole-solve's verdict on ``board`` (W, L, or ? when intractable or past ``limit`` seconds) and
    its wall seconds, process start included.

    ``game`` is its ``--game`` name (:data:`HOLE_GAMES`); ``prune`` adds ``--rank-reach-prune``;
    ``max_iters=None`` leaves out ``--max-iters`` (the program's own default).
    """
    cmd = [str(BHS), "--game", game]
    if max_iters is not None:
        cmd += ["--max-iters", str(max_iters)]
    if prune:
        cmd.append("--rank-reach-prune")
    t0 = time.perf_counter()
    try:
        r = subprocess.run([*cmd, "-"], input=board, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return "?", time.perf_counter() - t0
    dt = time.perf_counter() - t0
    return ("W" if "Solved!" in r.stdout else "L" if "Unsolved!" in r.stdout else "?"), dt


# The record -------------------------------------------------------------------------------------------
def load() -> str:
    """The 1/5/15-minute load averages (2 cores shared with other runs: every figure needs it beside it)."""
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def commit(src: Path | None = None) -> str:
    """The checkout a run measured: ``git``'s short HEAD of the repository holding ``src`` (default this
    one), with ``+dirty`` when its ``src/`` has uncommitted edits; in a snapshot made by
    ``benchmarks/snapshot.sh`` (no ``.git``), the commit its ``COMMIT`` file names, as ``<short> (snapshot)``;
    anywhere else, ``src``'s path."""
    where = Path(src).resolve() if src else ROOT / "src"
    snap = snapshot_commit(where)
    if snap is not None:
        return f"{snap[:7]} (snapshot)"
    try:
        head = subprocess.run(["git", "-C", str(where), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()  # fmt: skip
        dirty = subprocess.run(["git", "-C", str(where), "status", "--porcelain", "--", "."],
                               capture_output=True, text=True).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return f"{where} (not a git checkout)"
    return head + ("+dirty" if dirty else "")


def snapshot_commit(where: Path) -> str | None:
    """The full hash in the ``COMMIT`` file of the nearest folder holding ``where`` (itself included) that has
    one, or None: a ``.git`` met first (a checkout) or no such file, or not a hash."""
    for d in (where, *where.parents):
        stamp = d / "COMMIT"
        if stamp.is_file():
            text = stamp.read_text(errors="replace").strip()
            return text if len(text) == 40 and all(c in "0123456789abcdef" for c in text) else None
        if (d / ".git").exists():
            return None
    return None


def machine() -> str:
    """Date, cores and load, for the head of a report."""
    return f"{time.ctime()}, {os.cpu_count()} cores, load {load()}"


# Verdicts and figures ---------------------------------------------------------------------------------
_LETTER = {"solved": "W", "unsolvable": "L"}


def verdict(status: Any) -> str:
    """``W`` (solved), ``L`` (unsolvable) or ``?`` (anything else) for a Status or its value."""
    return _LETTER.get(getattr(status, "value", status), "?")


def tally(letters: Iterable[str]) -> dict[str, int]:
    """Counts of each verdict letter, with W, L and ? always present (in that order)."""
    out = {"W": 0, "L": 0, "?": 0}
    for v in letters:
        out[v] = out.get(v, 0) + 1
    return out


def spread(xs: Sequence[float]) -> str:
    """``median 0.012s  p90 0.080s  max 1.203s  total 4.5s`` (``-`` for no values)."""
    from patience.experiments.stats import percentiles

    p = percentiles(xs, (50, 90, 100))
    if not p:
        return "-"
    return f"median {p['p50']:.3f}s  p90 {p['p90']:.3f}s  max {p['max']:.3f}s  total {sum(xs):.1f}s"


# Batch solving through patience.experiments.runner ----------------------------------------------------
def tasks(
    game: str,
    seeds: Iterable[int],
    backend: str,
    limit: float,
    generator: str = "portable",
    overrides: dict[str, Any] | None = None,
    **options: Any,
) -> list[Task]:
    """Runner tasks for ``seeds`` of ``game``. ``options`` are backend options (as ``get_solver(name,
    **options)`` takes them) carried in the task's registry entry, so a variant runs in workers too."""
    from patience.experiments.runner import Job
    from patience.solvers.registry import BACKENDS

    seeds = list(seeds)
    job = Job(game, range(0), backend, limit, generator, dict(overrides or {}))
    out = list(job.tasks(seeds))
    if options:
        base = BACKENDS[backend]
        entry = dataclasses.replace(base, options=(*base.options, *options.items()))
        out = [dataclasses.replace(t, entry=entry) for t in out]
    return out


def _timed(item: tuple[int, Task]) -> tuple[int, Row]:
    """Run one task (in a worker); the row's stats get ``wall_s``: dealing, solving and validating."""
    from patience.experiments.runner import run_task

    i, task = item
    t0 = time.perf_counter()
    row, _ = run_task(task)
    return i, dataclasses.replace(row, stats={**row.stats, "wall_s": time.perf_counter() - t0})


def solve_all(
    todo: Iterable[Task], workers: int = 0, on_row: Callable[[Row], None] | None = None
) -> list[Row]:
    """Solve every task with :func:`patience.experiments.runner.run_task` through an executor: ``workers``
    0 solves in this process (timings as a plain loop gives them), K > 0 in a pool of K processes.

    Returns the rows in task order. ``row.seconds`` is the backend's own time (``Backend.solve``'s timing
    of ``_solve``, what ``patience estimate`` stores); ``row.stats["wall_s"]`` the whole task (deal
    built, support checked, solved, solution replayed). ``on_row`` sees each row as it finishes.
    """
    from patience.experiments.executors import make_executor

    todo = list(todo)
    rows: list[Row | None] = [None] * len(todo)
    executor = make_executor("process", workers)
    try:
        for i, row in executor.map_unordered(_timed, enumerate(todo)):
            rows[i] = row
            if on_row:
                on_row(row)
    finally:
        executor.close()
    return [r for r in rows if r is not None]


# Output -----------------------------------------------------------------------------------------------
class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr naming the problem, with exit code 2."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: {message}", file=sys.stderr)
        raise SystemExit(2)


def add_out(ap: argparse.ArgumentParser, what: str) -> None:
    """The ``--out [DIR]`` flag: write ``what`` into DIR (benchmarks/out when no DIR is given); without the
    flag a script only prints, so trying a benchmark leaves the tracked results alone."""
    ap.add_argument(
        "--out",
        nargs="?",
        const=OUT,
        type=Path,
        metavar="DIR",
        help=f"write {what} into DIR (default benchmarks/out/); without --out nothing is written",
    )


def out_dir(args: argparse.Namespace) -> Path | None:
    """The folder ``--out`` names (created), or None when the results are only printed."""
    if args.out is None:
        return None
    args.out.mkdir(parents=True, exist_ok=True)
    return args.out


def write_csv(path: Path, rows: Sequence[dict[str, Any]], fields: Sequence[str] | None = None) -> None:
    """``rows`` as CSV (columns: ``fields``, else the first row's keys; missing cells ``-``), atomically."""
    if not rows:
        return
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(fields or rows[0]), restval="-", extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    tmp.replace(path)


def md_table(rows: Sequence[dict[str, Any]], keys: Sequence[str] | None = None) -> list[str]:
    """A Markdown table of ``rows`` (columns ``keys``, else the first row's keys)."""
    keys = list(keys or (rows[0] if rows else []))
    return ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)] + [
        "| " + " | ".join(str(r.get(k, "-")) for k in keys) + " |" for r in rows
    ]


def write_lines(path: Path, lines: Iterable[str]) -> None:
    """Lines to a text file, one a line, ending with a newline."""
    path.write_text("\n".join(lines) + "\n")


def stamp(load0: str) -> str:
    """The provenance line of a run's report: commit, UTC time, machine, and the load from ``load0`` (the
    run's start, :func:`load`) to now."""
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    return f"Commit {commit()}, {when}; {machine()}; load {load0} -> {load()} (1/5/15 min)"


def report(out: Path | None, stem: str, rows: Sequence[dict[str, Any]], lines: Sequence[str]) -> None:
    """Print a run's summary ``lines``; with ``--out`` also write ``<stem>.csv`` (the rows) and
    ``<stem>.md`` (the lines) there."""
    print("\n".join(lines))
    if out:
        write_csv(out / f"{stem}.csv", rows)
        write_lines(out / f"{stem}.md", lines)
