"""Wins by optimisation at 104 cards (issue 20 item 2): CP-SAT's own LNS on the max-cards model of the
whole deal against the prefix LNS of ``cpsat_hole.lns``, on generalized All in a Row 8x13 deals.

Variants (``--variant``, repeatable):

* ``own-interleave``: the max-cards table model (``build_model(optional=True)``, maximise the cards
  removed), 1 worker with ``interleave_search`` (CP-SAT runs its LNS subsolvers in the one thread);
* ``own-w2``: the same with ``num_workers=2`` (CP-SAT's portfolio, LNS included);
* ``own-w2-hint``: ``own-w2`` hinted with the greedy playout of ``cpsat_hole.lns.greedy``;
* ``prefix``: :func:`patience.solvers.cpsat_hole.lns.lns_search` (its defaults).

A win (every card removed) is replayed by the validator; ``best`` is the most cards removed. One line a
deal and variant, with the 1-minute load.

    python benchmarks/probe_cpsat_hole_lns.py --seeds 2,6,8,9,11,30 --limit 30 --variant prefix
"""

from __future__ import annotations

import os
import time

import _common
from ortools.sat.python import cp_model

from patience.deals import deal
from patience.solvers.cpsat_hole import HoleDeal, build_model, decode, to_moves
from patience.solvers.cpsat_hole.lns import _hint, greedy, lns_search
from patience.solvers.cpsat_hole.params import parameters
from patience.validate import replay


def own(d: HoleDeal, limit: float, variant: str) -> tuple[list, int, dict[str, float]]:
    """CP-SAT's own search on the whole max-cards model: (events, proven bound, stats)."""
    v = build_model(d, "table", optional=True)
    v.model.maximize(v.length)
    hint = greedy(d) if variant.endswith("hint") else []
    if hint:
        _hint(v, hint)
    solver = parameters(limit, 2 if "w2" in variant else 1, "table", large=True)
    solver.parameters.interleave_search = variant == "own-interleave"
    status = solver.solve(v.model)
    found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    stats = {"greedy": float(len(hint)), "conflicts": float(solver.num_conflicts)}
    return (decode(v, solver) if found else []), int(solver.best_objective_bound), stats


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="2,6,8,9,11,30")
    ap.add_argument("--limit", type=float, default=30.0)
    ap.add_argument("--variant", action="append", default=[])
    args = ap.parse_args()
    print(
        f"all-in-a-row 8x13, portable deals {args.seeds}, {args.limit:g} s; {_common.machine()}", flush=True
    )
    for variant in args.variant or ["prefix"]:
        for seed in map(int, args.seeds.split(",")):
            inst = deal("all-in-a-row", seed, "portable", {"suits": 8})
            d = HoleDeal.from_instance(inst)
            t0 = time.perf_counter()
            if variant == "prefix":
                r = lns_search(d, args.limit)
                events, bound, stats = r.events or [], d.n if not r.lost else d.n - 1, r.stats
            else:
                events, bound, stats = own(d, args.limit, variant)
            secs = time.perf_counter() - t0
            best = int(stats["lns_best"]) if variant == "prefix" else sum(k == 1 for _, k, _, _ in events)
            verdict = "?"
            if best == d.n:
                assert replay(inst, to_moves(inst, d, events)).ok
                verdict = "W"
            elif bound < d.n:
                verdict = "L"
            shown = {k: round(x, 1) for k, x in stats.items()}
            print(
                f"{variant} #{seed}: {verdict} best {best} bound {bound} {secs:.1f} s {shown} "
                f"load {os.getloadavg()[0]:.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
