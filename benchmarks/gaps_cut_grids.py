"""How many grids of a Gaps deal the reach cut leaves to search (issue 20 item 1): the search's floor.

Per ``portable`` deal of the basic variant: a depth-first search over the grids reachable from the deal
that does not expand a grid failing the reach cut (:mod:`patience.solvers.cpsat_gaps.reach`: some
card's home of every won grid is outside the relaxation F of the grid). Printed: the grids met, those
the cut prunes, those that pass it, and the *leaves* (grids that pass while every successor fails or
there is none). On a lost deal every grid that passes is dead, so a stronger relaxation is what would
prune it; the CP model's conflicts are compared with these counts in docs/cpsat-gaps-notes.md.
``--show K`` prints K leaves of the first deal as grids (cards as ``KH``, ``__`` a gap).

    python benchmarks/gaps_cut_grids.py --seeds 24,71 --out
"""

from __future__ import annotations

import time
from typing import Any

import _common
from gaps_pair_reach import successors, won_grids

from patience.cards import Card
from patience.deals import deal
from patience.engine import EMPTY
from patience.solvers.cpsat_gaps import GapsDeal, bounds
from patience.solvers.cpsat_gaps.reach import levels, relaxed_reach


def passes(d: GapsDeal, b: Any, k: int, goals: list[list[tuple[int, int]]], grid: tuple[int, ...]) -> bool:
    """The reach cut on one grid: some won grid has every card's home in the grid's ``k``-level F."""
    have = relaxed_reach(d, b, grid, k)
    return any(all(pair in have for pair in goal) for goal in goals)


def one(seed: int, game: str, cap: int) -> tuple[dict[str, Any], list[tuple[int, ...]]]:
    """The row of one deal (module docstring) and its leaves."""
    d = GapsDeal.from_instance(deal(game, seed, "portable"))
    b = bounds(d)
    goals = [[(f[1], f[2]) for f in w if f[0] == "at"] for w in won_grids(d)]
    k = levels(d, b)  # the deal's, the same for every grid
    t0 = time.perf_counter()
    ok: dict[tuple[int, ...], bool] = {}

    def test(g: tuple[int, ...]) -> bool:
        if g not in ok:
            ok[g] = passes(d, b, k, goals, g)
        return ok[g]

    seen = {d.grid}
    stack = [d.grid]
    leaves = []
    won = False
    while stack and len(seen) < cap:
        g = stack.pop()
        if not test(g):
            continue
        nxt = list(successors(g, d.R))
        won = won or GapsDeal(d.R, d.rows, d.fixed, g).won()
        if all(not test(h) for h in nxt):
            leaves.append(g)
        for h in nxt:
            if h not in seen:
                seen.add(h)
                stack.append(h)
    passed = sum(ok.values())
    row = {
        "seed": seed,
        "verdict": "W" if won else ("L" if not stack else "?"),
        "grids": len(seen),
        "pruned": len(ok) - passed,
        "passing": passed,
        "leaves": len(leaves),
        "seconds": round(time.perf_counter() - t0, 1),
    }
    return row, leaves


def show(d: GapsDeal, g: tuple[int, ...]) -> list[str]:
    """A grid as text, a row a line (cards in the project's text form, :class:`~patience.cards.Card`)."""

    def card(c: int) -> str:
        return "__" if c == EMPTY else Card(d.rank(c), d.suit(c)).text()

    return [" ".join(card(c) for c in g[r * d.R : (r + 1) * d.R]) for r in range(d.rows)]


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="24", help="comma-separated portable seeds (default 24)")
    ap.add_argument("--game", default="gaps-basic-variant")
    ap.add_argument("--cap", type=int, default=500_000, help="most grids met a deal (then '?')")
    ap.add_argument("--show", type=int, default=0, help="leaves of the first deal to print")
    _common.add_out(ap, "gaps_cut_grids.csv and .md")
    args = ap.parse_args()
    out = _common.out_dir(args)
    load0 = _common.load()
    rows = []
    for i, seed in enumerate(int(s) for s in args.seeds.split(",")):
        row, leaves = one(seed, args.game, args.cap)
        rows.append(row)
        print("  ".join(f"{k}={v}" for k, v in row.items()), flush=True)
        if i == 0 and args.show:
            d = GapsDeal.from_instance(deal(args.game, seed, "portable"))
            for g in leaves[: args.show]:
                print("\n".join(show(d, g)) + "\n")
    lines = [
        f"## Grids left by the reach cut: {args.game}, portable deals {args.seeds}",
        "",
        f"{_common.stamp(load0)}; cap {args.cap} grids.",
        f"Command: `python benchmarks/gaps_cut_grids.py --seeds {args.seeds} --out`",
        "",
        *_common.md_table(rows),
    ]
    _common.report(out, "gaps_cut_grids", rows, lines)


if __name__ == "__main__":
    main()
