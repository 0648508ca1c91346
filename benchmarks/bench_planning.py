"""Benchmark the planning backend (and dfs, and the external planner, where available).

Runs, each deal through :func:`patience.solvers.base.solve` (so every SOLVED plan is validated):

* ``ms``: Microsoft FreeCell deals 1..N (``--ms N``, 1000 for the issue's full run);
* ``11982``: MS FreeCell 11982, which must come out UNSOLVABLE by complete search;
* ``games``: ``--seeds M`` portable deals each of Klondike (thoughtful), Thirty Six and Baker's Game;
* ``anytime``: ``--anytime K`` MS deals with greedy, anytime weighted A* (w=2, runs the whole limit
  unless it proves its plan shortest) and weighted A* (w=3): plan lengths;
* ``external``: ``--external K`` small generalized FreeCell deals (2 suits x 6 ranks, 4 piles, 1 cell)
  with the external planner (needs the [planners] extra) against the built-in planner.

Prints a summary table (solved / unsolvable / unknown / error, median seconds, median plan length) and
writes every row plus the machine load to ``benchmarks/out/planning_<timestamp>.json``.

    .venv/bin/python benchmarks/bench_planning.py --ms 20 --seeds 10 --external 5 --limit 10
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections import Counter
from pathlib import Path

from patience.deals import deal
from patience.instance import Instance
from patience.solvers.base import BACKENDS, Limits, solve
from patience.validate import replay

OUT = Path(__file__).parent / "out"


def load() -> str:
    """The 1/5/15-minute load averages (the machine has 2 cores shared with other runs)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run(suite: str, label: str, inst: Instance, backend: str, limit: float, rows: list[dict]) -> dict:
    t0 = time.perf_counter()
    r = solve(inst, backend, Limits(seconds=limit))
    row = {
        "suite": suite,
        "deal": label,
        "backend": backend,
        "status": r.status.value,
        "seconds": round(r.stats.get("seconds", time.perf_counter() - t0), 4),
        "plan_length": len(r.solution) if r.solution is not None else None,
        "expansions": r.stats.get("expansions"),
        "message": r.message,
    }
    rows.append(row)
    return row


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ms", type=int, default=20, help="MS FreeCell deals 1..N (0 to skip)")
    ap.add_argument("--seeds", type=int, default=10, help="deals per game for Klondike/Thirty Six/Baker's")
    ap.add_argument("--external", type=int, default=5, help="small FreeCell deals for the external planner")
    ap.add_argument("--anytime", type=int, default=0, help="MS deals 1..K: greedy vs anytime vs wA*")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per deal")
    ap.add_argument("--no-11982", dest="deal_11982", action="store_false", help="skip MS 11982")
    ap.add_argument("--backends", default="planning,dfs", help="comma list; missing ones are skipped")
    ap.add_argument("--suites", default="ms,11982,games,external,anytime")
    ap.add_argument("-o", "--output", type=Path, default=None)
    args = ap.parse_args()
    backends = [b for b in args.backends.split(",") if b in BACKENDS]
    suites = set(args.suites.split(","))
    rows: list[dict] = []
    meta = {"load_start": load(), "limit": args.limit, "backends": backends, "started": time.ctime()}
    print(f"backends {backends}; load {meta['load_start']}", flush=True)

    def show(row: dict) -> None:
        print(
            f"  {row['suite']:<20} {row['deal']:>8} {row['backend']:<9} {row['status']:<11} "
            f"{row['seconds']:8.3f}s len {row['plan_length']}",
            flush=True,
        )

    if "11982" in suites and args.deal_11982:
        inst = deal("freecell", 11982, "ms")
        for b in backends:
            show(run("ms-11982", "11982", inst, b, max(args.limit, 60.0), rows))
    if "ms" in suites:
        for seed in range(1, args.ms + 1):
            inst = deal("freecell", seed, "ms")
            for b in backends:
                row = run("ms-freecell", str(seed), inst, b, args.limit, rows)
                if row["status"] != "solved" or seed % 50 == 0:
                    show(row)
    if "games" in suites:
        for game in ("klondike-thoughtful", "thirty-six", "bakers-game"):
            for seed in range(1, args.seeds + 1):
                inst = deal(game, seed)
                for b in backends:
                    row = run(game, str(seed), inst, b, args.limit, rows)
                    if row["status"] not in ("solved", "unsolvable"):
                        show(row)
    if "external" in suites and args.external and "planner" in BACKENDS:
        small = {"suits": 2, "ranks": 6, "piles": 4, "cells": 1}
        for seed in range(1, args.external + 1):
            inst = deal("freecell", seed, "portable", small)
            for b in ("planning", "planner"):
                show(run("small-freecell-2x6", str(seed), inst, b, args.limit, rows))
    if "anytime" in suites and args.anytime:
        from patience.solvers.planning import PlanningSolver

        for seed in range(1, args.anytime + 1):
            inst = deal("freecell", seed, "ms")
            for mode, weight in (("greedy", 1.0), ("anytime", 2.0), ("astar", 3.0)):
                t0 = time.perf_counter()
                r = PlanningSolver(mode, weight).solve(inst, Limits(seconds=args.limit))
                ok = r.solution is not None and replay(inst, list(r.solution)).won
                rows.append(
                    {
                        "suite": f"ms-{mode}-w{weight:g}",
                        "deal": str(seed),
                        "backend": "planning",
                        "status": r.status.value if ok or r.solution is None else "error",
                        "seconds": round(time.perf_counter() - t0, 4),
                        "plan_length": len(r.solution) if r.solution is not None else None,
                        "expansions": r.stats.get("expansions"),
                        "message": r.message,
                    }
                )
                show(rows[-1])
    meta["load_end"] = load()
    meta["finished"] = time.ctime()
    lines = summary(rows)
    print("\n".join(lines))
    print(f"load start {meta['load_start']}  end {meta['load_end']}")
    OUT.mkdir(exist_ok=True)
    path = args.output or OUT / f"planning_{time.strftime('%Y%m%d_%H%M%S')}.json"
    path.write_text(json.dumps({"meta": meta, "summary": lines, "rows": rows}, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
