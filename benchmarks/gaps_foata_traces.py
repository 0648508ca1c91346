"""How many Foata traces a Gaps deal has against its grids (issue 20 item 1): what a canonical form leaves.

Per ``portable`` deal of the basic variant, with no cut: the plays in Foata normal form
(:mod:`patience.solvers.cpsat_gaps.foata`: a step is a set of pairwise independent legal moves, and each
move of a step depends on some move of the step before), counted by their number of steps, against the
distinct grids they end in at that depth and against all grids reachable. The "foata" model meets each
trace once, and CP-SAT's learned clauses are tied to a step; so the ratio traces / grids bounds the work a
stronger canonical form (one that merges traces ending in the same grid) could remove, and grid-depth
pairs / grids what a state-based one (a transposition table) could. Layer by layer, traces are counted by
multiplicity on (grid, last step), so the count is exact without listing them.

    python benchmarks/gaps_foata_traces.py --seeds 24,71 --out
"""

from __future__ import annotations

import time
from collections import Counter
from itertools import combinations
from typing import Any

import _common
from gaps_pair_reach import moves

from patience.deals import deal
from patience.engine import EMPTY
from patience.solvers.cpsat_gaps import GapsDeal

Move = tuple[int, int, int]  # card, from cell, to cell (a gap)


def independent(a: Move, b: Move, R: int) -> bool:
    """foata.py's independence: different cards, and neither writes a cell the other reads or writes (a
    move reads its source, its target and, outside column 0, the cell left of the target)."""

    def reads(m: Move) -> set[int]:
        return {m[1], m[2]} | ({m[2] - 1} if m[2] % R else set())

    return a[0] != b[0] and not ({a[1], a[2]} & reads(b)) and not ({b[1], b[2]} & reads(a))


def steps(g: tuple[int, ...], R: int) -> list[tuple[Move, ...]]:
    """The Foata steps from ``g``: every non-empty set of pairwise independent legal moves."""
    ms = moves(g, R)
    return [
        sub
        for k in range(1, len(ms) + 1)
        for sub in combinations(ms, k)
        if all(independent(a, b, R) for a, b in combinations(sub, 2))
    ]


def after(g: tuple[int, ...], step: tuple[Move, ...]) -> tuple[int, ...]:
    """The grid after a step (its moves in any order)."""
    h = list(g)
    for x, q, p in step:
        h[p], h[q] = x, EMPTY
    return tuple(h)


def count(d: GapsDeal) -> dict[str, Any]:
    """The counts of one deal (module docstring), without its seed."""
    t0 = time.perf_counter()
    layer: Counter[tuple[tuple[int, ...], tuple[Move, ...]]] = Counter({(d.grid, ()): 1})
    grids = {d.grid}
    traces = pairs = peak = peak_depth = depth = 0
    while layer:
        nxt: Counter[tuple[tuple[int, ...], tuple[Move, ...]]] = Counter()
        for (g, last), n in layer.items():
            for step in steps(g, d.R):
                if not last or all(any(not independent(a, m, d.R) for a in last) for m in step):
                    nxt[(after(g, step), step)] += n
        layer = nxt
        depth += 1
        here = {g for g, _ in layer}
        grids |= here
        count = sum(layer.values())
        traces += count
        pairs += len(here)
        if count > peak:
            peak, peak_depth = count, depth
    return {
        "grids": len(grids),
        "grid-depth pairs": pairs,
        "traces": traces,
        "traces / grids": round(traces / len(grids), 1),
        "traces / pairs": round(traces / max(pairs, 1), 1),
        "deepest": depth - 1,
        "widest depth": peak_depth,
        "seconds": round(time.perf_counter() - t0, 1),
    }


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="24", help="comma-separated portable seeds (default 24)")
    ap.add_argument("--game", default="gaps-basic-variant")
    _common.add_out(ap, "gaps_foata_traces.csv and .md")
    args = ap.parse_args()
    out = _common.out_dir(args)
    load0 = _common.load()
    rows = []
    for seed in (int(s) for s in args.seeds.split(",")):
        d = GapsDeal.from_instance(deal(args.game, seed, "portable"))
        rows.append({"seed": seed, **count(d)})
        print("  ".join(f"{k}={v}" for k, v in rows[-1].items()), flush=True)
    lines = [
        f"## Foata traces against grids: {args.game}, portable deals {args.seeds}, no cut",
        "",
        f"{_common.stamp(load0)}.",
        f"Command: `python benchmarks/gaps_foata_traces.py --seeds {args.seeds} --out`",
        "",
        *_common.md_table(rows),
    ]
    _common.report(out, "gaps_foata_traces", rows, lines)


if __name__ == "__main__":
    main()
