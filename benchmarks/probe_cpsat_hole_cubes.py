"""Cubes at 104 cards (issue 20 item 2): the decision model of the position after the first k plays of a
greedy playout, on generalized All in a Row / Black Hole 8x13 deals.

``--mode sizes``: for each deal, the best-of-200 greedy playout (``cpsat_hole.lns.greedy``) and, for each
``--lengths`` k, CP-SAT's decision model of the position after its first k plays (``cubes._decide``,
``--cube-seconds`` each): W (a win, replayed by the validator), L (that position is dead) or ?.
``--mode search``: :func:`patience.solvers.cpsat_hole.cubes.cube_search` for ``--limit`` seconds a deal.
One line a deal, with the 1-minute load.

    python benchmarks/probe_cpsat_hole_cubes.py --seeds 2,6,8 --mode sizes --lengths 4,8,12,16,20
"""

from __future__ import annotations

import os
import time

import _common
from ortools.sat.python import cp_model

from patience.deals import deal
from patience.solvers.cpsat_hole import HoleDeal, to_moves
from patience.solvers.cpsat_hole.cubes import _decide, cube_search
from patience.solvers.cpsat_hole.lns import greedy
from patience.validate import replay

SETS = {"all-in-a-row": {"suits": 8}, "black-hole": {"suits": 8, "tableau.equal_piles": False}}


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=sorted(SETS), default="all-in-a-row")
    ap.add_argument("--seeds", default="2,6,8,9,11,20,21,22,23,26,30")
    ap.add_argument("--mode", choices=("sizes", "search"), default="sizes")
    ap.add_argument("--lengths", default="4,8,12,16,20")
    ap.add_argument("--cube-seconds", type=float, default=10.0, help="wall limit a cube (sizes mode)")
    ap.add_argument("--cube-work", type=float, default=6.0, help="deterministic limit a cube (search mode)")
    ap.add_argument("--limit", type=float, default=25.0)
    ap.add_argument("--seed", type=int, default=0, help="the cube search's first playout seed (search mode)")
    args = ap.parse_args()
    head = f"{args.game} 8x13, portable deals {args.seeds}, {args.mode}, seed {args.seed}"
    print(f"{head}; {_common.machine()}", flush=True)
    for seed in map(int, args.seeds.split(",")):
        inst = deal(args.game, seed, "portable", SETS[args.game])
        d = HoleDeal.from_instance(inst)
        if args.mode == "search":
            t0 = time.perf_counter()
            r = cube_search(d, args.limit, seed=args.seed, cube_work=args.cube_work)
            ok = r.events is not None and replay(inst, to_moves(inst, d, r.events)).ok
            shown = {k: round(x, 1) for k, x in r.stats.items()}
            line = f"{'W' if ok else '?'} {time.perf_counter() - t0:.1f} s {shown}"
        else:
            play = greedy(d)
            cells = []
            for k in map(int, args.lengths.split(",")):
                if k >= len(play):
                    break
                t0 = time.perf_counter()
                status, won = _decide(d, play[:k], args.cube_seconds, 1)
                secs = time.perf_counter() - t0
                if won is not None:
                    assert replay(inst, to_moves(inst, d, [(t, 1, c, 0) for t, c in enumerate(won)])).ok
                mark = "W" if won is not None else "L" if status == cp_model.INFEASIBLE else "?"
                cells.append(f"{d.n - k}:{mark}{secs:.1f}")
                if won is not None:
                    break
            line = f"playout {len(play)}; cards left:verdict seconds {' '.join(cells)}"
        print(f"#{seed}: {line} load {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
