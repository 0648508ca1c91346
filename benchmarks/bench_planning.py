"""Benchmark the planning backend (and dfs, and the external planner, where available).

Runs, each suite a batch of :mod:`patience.experiments.runner` tasks per backend (each deal through
:func:`patience.solvers.base.solve`, so every SOLVED plan is validated; ``--workers K`` solves in K
processes, default 0: this one):

* ``ms``: Microsoft FreeCell deals 1..N (``--ms N``, 1000 for the issue's full run);
* ``11982``: MS FreeCell 11982, which must come out UNSOLVABLE by complete search;
* ``games``: ``--seeds M`` portable deals each of Klondike (thoughtful), Thirty Six and Baker's Game;
* ``anytime``: ``--anytime K`` MS deals with greedy, anytime weighted A* (w=2, runs the whole limit
  unless it proves its plan shortest) and weighted A* (w=3): plan lengths;
* ``external``: ``--external K`` small generalized FreeCell deals (2 suits x 6 ranks, 4 piles, 1 cell)
  with the external planner (needs the [planners] extra) against the built-in planner.

Prints a summary table (solved / unsolvable / unknown / error, median seconds, median plan length;
seconds are the backend's own, as ``patience estimate`` stores them). With ``--out [DIR]`` (default
benchmarks/out) every row plus the machine load also goes to ``DIR/planning_<timestamp>.json``, or to
the file ``-o FILE`` names.

    .venv/bin/python benchmarks/bench_planning.py --ms 20 --seeds 10 --external 5 --limit 10
"""

from __future__ import annotations

import json
import statistics
import time
from collections import Counter
from pathlib import Path
from typing import Any

import _common
from _common import load

from patience.solvers.registry import BACKENDS

GAMES = ("klondike-thoughtful", "thirty-six", "bakers-game")
ANYTIME = (("greedy", 1.0), ("anytime", 2.0), ("astar", 3.0))  # planning modes and weights compared
SMALL_FREECELL = {"suits": 2, "ranks": 6, "piles": 4, "cells": 1}  # within reach of an external planner


def run(
    suite: str, game: str, seeds: range, generator: str, backend: str, limit: float, rows: list[dict],
    workers: int, show: Any = None, overrides: dict | None = None, **options: Any,
) -> None:  # fmt: skip
    """Solve ``seeds`` of ``game`` with ``backend`` (``options``: its options) and add one row per deal."""
    todo = _common.tasks(game, seeds, backend, limit, generator, overrides, **options)
    for r in _common.solve_all(todo, workers):
        row = {
            "suite": suite,
            "deal": str(r.seed),
            "backend": backend,
            "status": r.status,
            "seconds": round(r.seconds or 0.0, 4),
            "plan_length": int(r.stats["moves"]) if "moves" in r.stats else None,
            "expansions": r.stats.get("expansions"),
            "message": r.message,
        }
        rows.append(row)
        if show:
            show(row)


def summary(rows: list[dict]) -> list[str]:
    out = []
    keys = sorted({(r["suite"], r["backend"]) for r in rows}, key=lambda k: (k[0], k[1]))
    head = f"{'suite':<22} {'backend':<9} {'n':>5} {'solved':>6} {'unsolv':>6} {'unknown':>7} {'error':>5}"
    out.append(head + f" {'med s':>7} {'med len':>7}")
    for suite, backend in keys:
        rs = [r for r in rows if r["suite"] == suite and r["backend"] == backend]
        c = Counter(r["status"] for r in rs)
        med_s = statistics.median(r["seconds"] for r in rs)
        lens = [r["plan_length"] for r in rs if r["plan_length"] is not None]
        med_len = f"{statistics.median(lens):.0f}" if lens else "-"
        out.append(
            f"{suite:<22} {backend:<9} {len(rs):>5} {c['solved']:>6} {c['unsolvable']:>6} "
            f"{c['unknown']:>7} {c['error'] + c['unsupported']:>5} {med_s:>7.3f} {med_len:>7}"
        )
    return out


def show(row: dict) -> None:
    print(
        f"  {row['suite']:<20} {row['deal']:>8} {row['backend']:<9} {row['status']:<11} "
        f"{row['seconds']:8.3f}s len {row['plan_length']}",
        flush=True,
    )


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ms", type=int, default=10, help="MS FreeCell deals 1..N (0 to skip)")
    ap.add_argument("--seeds", type=int, default=5, help="deals per game for Klondike/Thirty Six/Baker's")
    ap.add_argument("--external", type=int, default=5, help="small FreeCell deals for the external planner")
    ap.add_argument("--anytime", type=int, default=0, help="MS deals 1..K: greedy vs anytime vs wA*")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per deal")
    ap.add_argument("--no-11982", dest="deal_11982", action="store_false", help="skip MS 11982")
    ap.add_argument("--backends", default="planning,dfs", help="comma list; missing ones are skipped")
    ap.add_argument("--suites", default="ms,11982,games,external,anytime")
    ap.add_argument("--workers", type=int, default=0, help="processes solving (0: this one)")
    ap.add_argument("-o", "--output", type=Path, default=None, help="write the JSON rows to this file")
    _common.add_out(ap, "planning_<timestamp>.json")
    args = ap.parse_args()
    if min(args.ms, args.seeds, args.external, args.anytime, args.workers) < 0 or args.limit <= 0:
        ap.error("deal counts and --workers must be >= 0 and --limit > 0")
    backends = [b for b in args.backends.split(",") if b in BACKENDS and BACKENDS[b].installed()]
    suites = set(args.suites.split(","))
    rows: list[dict] = []
    meta = {"load_start": load(), "limit": args.limit, "backends": backends, "started": time.ctime()}
    print(f"backends {backends}; load {meta['load_start']}", flush=True)
    w = args.workers

    if "11982" in suites and args.deal_11982:
        for b in backends:
            run("ms-11982", "freecell", range(11982, 11983), "ms", b, max(args.limit, 60.0), rows, w, show)
    if "ms" in suites:
        for b in backends:
            run("ms-freecell", "freecell", range(1, args.ms + 1), "ms", b, args.limit, rows, w)
        for row in rows:
            if row["suite"] == "ms-freecell" and (row["status"] != "solved" or int(row["deal"]) % 50 == 0):
                show(row)
    if "games" in suites:
        for game in GAMES:
            for b in backends:
                run(game, game, range(1, args.seeds + 1), "portable", b, args.limit, rows, w)
        for row in rows:
            if row["suite"] in GAMES and row["status"] not in ("solved", "unsolvable"):
                show(row)
    if "external" in suites and args.external and BACKENDS["planner"].installed():
        seeds = range(1, args.external + 1)
        for b in ("planning", "planner"):
            run("small-freecell-2x6", "freecell", seeds, "portable", b, args.limit, rows, w, show,
                SMALL_FREECELL)  # fmt: skip
    if "anytime" in suites and args.anytime:
        seeds = range(1, args.anytime + 1)
        for mode, weight in ANYTIME:
            suite = f"ms-{mode}-w{weight:g}"
            run(suite, "freecell", seeds, "ms", "planning", args.limit, rows, w, show, mode=mode,
                weight=weight)  # fmt: skip
    meta["load_end"] = load()
    meta["finished"] = time.ctime()
    lines = summary(rows)
    print("\n".join(lines))
    print(f"load start {meta['load_start']}  end {meta['load_end']}")
    out = _common.out_dir(args)
    path = args.output or (out / f"planning_{time.strftime('%Y%m%d_%H%M%S')}.json" if out else None)
    if path:
        path.write_text(json.dumps({"meta": meta, "summary": lines, "rows": rows}, indent=1) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
