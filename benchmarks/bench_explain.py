"""How small and how quick are the explanations of lost Black Hole / All in a Row deals?

Usage:
    .venv/bin/python benchmarks/bench_explain.py [-n 5] [--limit 30] [--games black-hole,all-in-a-row] [--out]

For each game, the first N lost PySol deals (the dfs backend decides which are lost) get
:func:`patience.solvers.cpsat_hole.explain` with the time limit: how many facts of the deal's
(pile precedences + hole start) the explanation keeps, and the seconds spent. Each explanation is then
re-checked: its facts alone, enforced in the cut-free model, must be infeasible. With ``--out [DIR]`` the
output also goes to DIR/explain.txt (default benchmarks/out). Its own loop: it searches for lost deals
rather than tallying verdicts.
"""

from __future__ import annotations

import argparse
import statistics
import time

import _common

from patience.deals import deal
from patience.instance import Instance
from patience.solvers.base import Limits, Status, solve


def recheck(inst: Instance, why: list[str]) -> bool:
    """The explanation's facts alone (no same-rank cuts) make the model infeasible."""
    from ortools.sat.python import cp_model

    from patience.solvers.cpsat_hole import HoleDeal, build_model

    v = build_model(HoleDeal.from_instance(inst), facts=True, symmetry=False)
    v.model.add_assumptions([lit for lit, text in v.facts.values() if text in why])
    return cp_model.CpSolver().solve(v.model) == cp_model.INFEASIBLE


def main() -> None:
    ap = _common.Parser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=5, help="lost deals per game")
    ap.add_argument("--limit", type=float, default=30.0, help="seconds per explanation")
    ap.add_argument("--games", default="black-hole,all-in-a-row")
    _common.add_out(ap, "explain.txt")
    args = ap.parse_args()
    if args.n < 1 or args.limit <= 0:
        ap.error("-n must be >= 1 and --limit > 0")
    from patience.solvers.cpsat_hole import HoleDeal, build_model, explain  # OR-Tools: not for --help

    log = [f"# bench_explain -n {args.n} --limit {args.limit:g}; {_common.machine()}"]
    print(log[0], flush=True)
    for game in args.games.split(","):
        sizes, totals, times, none, seed, done = [], [], [], 0, 0, 0
        while done < args.n:
            seed += 1
            inst = deal(game, seed, "pysol")
            if solve(inst, "dfs", Limits(seconds=10)).status is not Status.UNSOLVABLE:
                continue
            done += 1
            total = len(build_model(HoleDeal.from_instance(inst), facts=True).facts)
            t = time.perf_counter()
            why = explain(inst, seconds=args.limit)
            dt = time.perf_counter() - t
            times.append(dt)
            if why is None:
                none += 1
                line = f"{game} #{seed}: no explanation in {dt:.1f}s"
            else:
                assert recheck(inst, why), (game, seed)
                sizes.append(len(why))
                totals.append(total)
                line = f"{game} #{seed}: {len(why)} of {total} facts in {dt:.1f}s"
            print(line, flush=True)
            log.append(line)
        med = f"{statistics.median(sizes)} of {statistics.median(totals)}" if sizes else "-"
        summary = (
            f"{game}: {done} lost deals, {done - none} explained (re-checked infeasible), {none} not in time;"
            f" facts median {med} (min {min(sizes, default='-')}, max {max(sizes, default='-')});"
            f" seconds median {statistics.median(times):.1f}, max {max(times):.1f}"
        )
        print(summary, flush=True)
        log.append(summary)
    log.append(f"# load at end {_common.load()}")
    out = _common.out_dir(args)
    if out:
        _common.write_lines(out / "explain.txt", log)
        print(f"wrote {out}/explain.txt")


if __name__ == "__main__":
    main()
