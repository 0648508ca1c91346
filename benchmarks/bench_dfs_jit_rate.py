"""dfs-jit's nodes per second on MS FreeCell deals FIRST..LAST, each stopped at CAP nodes (so two checkouts
visit the very same nodes and compare on time per node; the solve calls' wall time, wins replayed).

    PYTHONPATH=<snapshot>/src nice -n 5 .venv/bin/python benchmarks/bench_dfs_jit_rate.py 1 100 20000

``--cpu`` counts the process's CPU seconds instead of wall time: steadier on a machine shared with other
runs, where the wall time of the same nodes varies by 2x with the load.
"""

from __future__ import annotations

import sys
import time

from _common import Parser, commit, load


def main(argv: list[str]) -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("first", type=int, help="first MS deal number")
    ap.add_argument("last", type=int, help="last MS deal number")
    ap.add_argument("cap", type=int, help="nodes a deal (the search stops there)")
    ap.add_argument("--cpu", action="store_true", help="CPU seconds of this process, not wall time")
    args = ap.parse_args(argv)
    if not 1 <= args.first <= args.last or args.cap < 1:
        ap.error("need 1 <= FIRST <= LAST and CAP >= 1")
    first, last, cap = args.first, args.last, args.cap

    from patience.deals import deal
    from patience.solvers.base import Limits, Status, get_solver
    from patience.solvers.generic_kernel import kernel as K

    t = time.perf_counter()
    K.warm_up()
    print(f"- {commit()}; kernel loaded in {time.perf_counter() - t:.1f} s")
    clock = time.process_time if args.cpu else time.perf_counter
    solver = get_solver("dfs-jit")
    secs, nodes, won = 0.0, 0.0, 0
    for seed in range(first, last + 1):
        inst = deal("freecell", seed, "ms")
        t = clock()
        r = solver.solve(inst, Limits(seconds=60, nodes=cap))
        secs += clock() - t
        nodes += r.stats.get("nodes", 0.0)
        won += r.status is Status.SOLVED
    unit = "CPU s" if args.cpu else "s"
    print(f"dfs-jit MS {first}-{last} cap {cap}: {won} solved, {nodes:.0f} nodes in {secs:.2f} {unit} "
          f"= {nodes / secs:,.0f}/s; load {load()}")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
