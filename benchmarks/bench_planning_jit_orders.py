"""planning-jit's search orders one by one on MS FreeCell deals FIRST..LAST: each order's expansions per deal
(at most CAP a deal), and what a race of some of them would cost (each racer's expansions up to the first
win, chunk by chunk as :func:`patience.solvers.planning_jit.race` takes turns: 1024, then ~2400 each).

Counts, not seconds: the same figures at any load (the load is printed for the seconds beside them).

    .venv/bin/python benchmarks/bench_planning_jit_orders.py --first 1 --last 1000 --cap 150000 --out
"""

from __future__ import annotations

import itertools
import time

import _common
from _common import commit, load

FIRST_CHUNK, LATER_CHUNK = 1024, 2400  # race's first chunk; later ones aim at 30 ms (~2400 expansions)


def race_cost(runs: dict[str, tuple[int, bool]], combo: tuple[str, ...]) -> tuple[int, bool]:
    """Expansions a race of ``combo`` spends on one deal, and whether it decides it (a win or a complete
    search: both end the race)."""
    done = dict.fromkeys(combo, 0)
    chunk, total = FIRST_CHUNK, 0
    while any(done[o] < runs[o][0] for o in combo):
        for o in combo:
            step = min(chunk, runs[o][0] - done[o])
            if step <= 0:
                continue
            done[o] += step
            total += step
            if done[o] >= runs[o][0] and runs[o][1]:
                return total, True
        chunk = LATER_CHUNK
    return total, False


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--last", type=int, default=200)
    ap.add_argument("--cap", type=int, default=150_000, help="expansions a deal at most")
    ap.add_argument("--orders", default="fifo,lifo,wfifo,wlifo", help="comma-separated (planning_jit.ORDERS)")
    _common.add_out(ap, "planning_jit_orders_FIRST-LAST.md")
    args = ap.parse_args()
    if not 1 <= args.first <= args.last:
        ap.error(f"--first {args.first} --last {args.last}: need 1 <= FIRST <= LAST")
    from patience.deals import deal
    from patience.engine import Engine
    from patience.solvers.base import Limits
    from patience.solvers.planning_jit import KERNELS, ORDERS, PlanningJitOptions, search

    orders = [o for o in args.orders.split(",") if o]
    if bad := [o for o in orders if o not in ORDERS]:
        ap.error(f"unknown order {bad[0]!r} (one of {', '.join(ORDERS)})")
    KERNELS.warm(True)
    seeds = range(args.first, args.last + 1)
    head = [
        f"# planning-jit's orders, MS FreeCell {args.first}-{args.last}, at most {args.cap} expansions each",
        "",
        f"- commit {commit()}; {_common.machine()}; one process",
    ]
    print("\n".join(head), flush=True)
    runs: dict[int, dict[str, tuple[int, bool]]] = {s: {} for s in seeds}
    rows = [
        "| order | decided | undecided | expansions | seconds | load after |",
        "|---|---|---|---|---|---|",
    ]
    limits = Limits(seconds=600, nodes=args.cap)
    for order in orders:
        t0 = time.perf_counter()
        for s in seeds:
            e = Engine(deal("freecell", s, "ms"))
            r = search(e, "suits", PlanningJitOptions(), order, time.perf_counter() + 600, limits)
            runs[s][order] = (int(r["expansions"]), bool(r["won"] or r["complete"]))
        open_ = [s for s in seeds if not runs[s][order][1]]
        exp = sum(runs[s][order][0] for s in seeds)
        rows.append(f"| {order} | {len(seeds) - len(open_)} | {len(open_)} {open_[:20]} | {exp} "
                    f"| {time.perf_counter() - t0:.1f} | {load()} |")  # fmt: skip
        print(rows[-1], flush=True)
    races = ["", "| race (in turn order) | decided | expansions |", "|---|---|---|"]
    for k in (2, 3):
        for combo in itertools.permutations(orders, k):
            costs = [race_cost(runs[s], combo) for s in seeds]
            races.append(
                f"| {', '.join(combo)} | {sum(ok for _, ok in costs)} | {sum(c for c, _ in costs)} |"
            )
    oracle = sum(
        min(c for c, ok in runs[s].values() if ok) for s in seeds if any(ok for _, ok in runs[s].values())
    )
    lines = [*head, "", *rows, *races, "", f"- the fastest order for each deal (an oracle), summed: {oracle}"]
    print("\n".join(lines[len(head) :]))
    out = _common.out_dir(args)
    if out is not None:
        path = out / f"planning_jit_orders_{args.first}-{args.last}.md"
        path.write_text("\n".join(lines) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
