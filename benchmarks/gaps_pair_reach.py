"""How far a static reachability fixpoint gets on lost Gaps deals (issue 20 item 1, idea "invariants").

Per deal of the basic variant (``portable`` deals, 4 x 13 by default): the (card, cell) pairs that some
reachable grid holds, three ways, and whether each refutes the deal (some card never stands in its goal
cell, or two goal facts never hold together). The goal cells are those of a won grid: a row holds one
suit from column 0, the suit of the 2 that ends there (a 2 dealt in column 0 of another suit's row may
stay, so each suit-to-row assignment is a won grid of its own, and a refutation must hold for all):

* ``static``: ``bounds.reach`` (Lemmas 1-2 and the arrival fixpoint of :mod:`cpsat_gaps.bounds`);
* ``h2``: the pair fixpoint :func:`h2` (below) over the facts ``at(c, p)`` and ``empty(p)``;
* ``h2_back``: the same fixpoint backward from the won grids (reversed moves): a pair of the dealt grid
  outside it proves the deal lost (every grid on a winning play has its pairs in it, by the same
  induction from the won grid back);
* ``exact``: every reachable grid, enumerated (up to ``--cap`` grids; past it the deal is ``?``).

Every exact grid's facts are checked pairwise against ``h2`` (an unsound fixpoint stops the script).

    python benchmarks/gaps_pair_reach.py -n 30 --out
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from itertools import permutations
from typing import Any

import _common

from patience.deals import deal
from patience.engine import EMPTY
from patience.solvers.cpsat_gaps import Bounds, GapsDeal, bounds

Fact = tuple[Any, ...]


def h2(d: GapsDeal, b: Bounds, backward: bool = False) -> tuple[dict[Fact, int], list[int]]:
    """Pairs of facts that may hold together in a reachable grid (h^2, an over-approximation).

    Facts: ``("at", c, p)`` for ``p`` in ``b.reach[c]`` and ``("e", p)`` (cell p is a gap). A move of c
    from q into p has pre ``{at(c, q), e(p)}`` plus ``at(c - 1, p - 1)`` for rank >= 3, deletes
    ``at(c, q), e(p)`` and adds ``at(c, p), e(q)``. ``P`` (``r2[f]``: bitmask of the g with (f, g) in P)
    is the least set holding the dealt grid's pairs and closed under: a move whose pre facts are
    pairwise in P adds the pairs among its adds, and (x, f) for every add x and every fact f not deleted
    and paired in P with each pre fact. Soundness, by induction over a play: if a grid's pairs are in P
    and a legal move leads to grid s', the pairs of s' are adds x adds (rule), add x kept f (f was in
    the grid with every pre fact, so paired with each; rule) or kept x kept (already in P). So a goal
    fact outside P, or two goal facts not paired, rules that won grid out (``reach`` itself is proven).
    ``backward``: the reversed moves (pre ``at(c, p), e(q)`` and ``at(c - 1, p - 1)``, adds ``at(c, q),
    e(p)``) from every won grid of :func:`won_grids` (each start's own pairs only).
    """
    ncell = d.rows * d.R
    facts: dict[Fact, int] = {}
    for c in d.cards:
        for p in b.reach[c]:
            facts[("at", c, p)] = len(facts)
    for p in range(ncell):
        facts[("e", p)] = len(facts)
    acts: list[tuple[list[int], tuple[int, int], int]] = []
    for c in d.cards:
        for p in b.dest[c]:
            if d.rank(c) > 2 and ("at", c - 1, p - 1) not in facts:
                continue
            left = [facts[("at", c - 1, p - 1)]] if d.rank(c) > 2 else []
            for q in b.reach[c]:
                if q == p:
                    continue
                src, dst = facts[("at", c, q)], facts[("at", c, p)]
                if backward:
                    pre, add = [dst, facts[("e", q)], *left], (src, facts[("e", p)])
                else:
                    pre, add = [src, facts[("e", p)], *left], (dst, facts[("e", q)])
                acts.append((pre, add, (1 << pre[0]) | (1 << pre[1])))
    if backward:  # won grids outside reach are never reached: nothing leads to them
        starts = [[facts[f] for f in w] for w in won_grids(d) if all(f in facts for f in w)]
    else:
        dealt = [facts[("at", c, b.init[c])] for c in d.cards]
        starts = [dealt + [facts[("e", p)] for p in range(ncell) if d.grid[p] == EMPTY]]
    r2 = [0] * len(facts)
    for s0 in starts:
        m0 = sum(1 << f for f in s0)
        for f in s0:
            r2[f] |= m0
    changed = True
    while changed:
        changed = False
        for pre, add, dele in acts:
            compat = -1
            for i in pre:
                compat &= r2[i]
            if any(not (compat >> i) & 1 for i in pre):
                continue  # some pre fact unreached, or two pre facts never together
            gain = (compat & ~dele) | (1 << add[0]) | (1 << add[1])
            for x in add:
                old = r2[x]
                if gain & ~old:
                    r2[x] = old | gain
                    changed = True
                    delta = gain & ~old
                    while delta:  # keep P symmetric
                        low = delta & -delta
                        r2[low.bit_length() - 1] |= 1 << x
                        delta ^= low
    return facts, r2


def won_grids(d: GapsDeal) -> list[list[Fact]]:
    """The facts of each won grid: suit s in row ``rows[s]``, for every assignment of suits to rows."""
    out = []
    for rows in permutations(range(d.rows)):
        w: list[Fact] = [("at", c, d.goal(c, rows[d.suit(c)])) for c in d.cards]
        out.append(w + [("e", r * d.R + d.R - 1) for r in range(d.rows)])
    return out


def moves(g: tuple[int, ...], R: int) -> list[tuple[int, int, int]]:
    """The legal moves of ``g`` as (card, from cell, to cell) (basic variant: column 0 takes the 2 of the
    row's suit)."""
    out = []
    for p, x in enumerate(g):
        if x != EMPTY:
            continue
        if p % R == 0:
            c = (p // R) * R + 1
        else:
            left = g[p - 1]
            if left == EMPTY or left % R == R - 1:
                continue
            c = left + 1
        out.append((c, g.index(c), p))
    return out


def successors(g: tuple[int, ...], R: int) -> Iterator[tuple[int, ...]]:
    """Grids one move from ``g`` (:func:`moves`)."""
    for c, q, p in moves(g, R):
        h = list(g)
        h[q], h[p] = EMPTY, c
        yield tuple(h)


def exact(d: GapsDeal, cap: int) -> tuple[set[tuple[int, ...]], bool]:
    """Every reachable grid (depth-first), and whether the enumeration finished under ``cap``."""
    seen = {d.grid}
    stack = [d.grid]
    while stack:
        for h in successors(stack.pop(), d.R):
            if h not in seen:
                if len(seen) >= cap:
                    return seen, False
                seen.add(h)
                stack.append(h)
    return seen, True


def one(seed: int, game: str, cap: int) -> dict[str, Any]:
    """The row of one deal (module docstring)."""
    d = GapsDeal.from_instance(deal(game, seed, "portable"))
    b = bounds(d)
    t0 = time.perf_counter()
    facts, r2 = h2(d, b)
    h2_s = time.perf_counter() - t0
    goals = [[f for f in w if f[0] == "at"] for w in won_grids(d)]
    static_ref = all(any(f not in facts for f in goal) for goal in goals)
    h2_ref = True
    for goal in goals:
        if all(f in facts for f in goal):
            gidx = [facts[f] for f in goal]
            gm = sum(1 << i for i in gidx)
            h2_ref = h2_ref and any(r2[i] & gm != gm for i in gidx)
    _, back = h2(d, b, backward=True)
    dealt = [facts[("at", c, b.init[c])] for c in d.cards]
    dealt += [facts[("e", p)] for p, c in enumerate(d.grid) if c == EMPTY]
    dm = sum(1 << i for i in dealt)
    back_ref = any(back[i] & dm != dm for i in dealt)
    grids, full = exact(d, cap)
    pairs: set[tuple[int, int]] = set()
    for g in grids:
        idx = [facts[("at", c, p)] for p, c in enumerate(g) if c != EMPTY]
        idx += [facts[("e", p)] for p, c in enumerate(g) if c == EMPTY]
        m = sum(1 << i for i in idx)
        if any(r2[i] & m != m for i in idx):
            raise SystemExit(f"seed {seed}: h2 misses a pair of a reachable grid (unsound)")
        pairs.update((c, p) for p, c in enumerate(g) if c != EMPTY)
    won = any(GapsDeal(d.R, d.rows, d.fixed, g).won() for g in grids)
    home = max(sum((f[1], f[2]) in pairs for f in goal) for goal in goals)
    at_h2 = sum(1 for f, i in facts.items() if f[0] == "at" and (r2[i] >> i) & 1)
    return {
        "seed": seed,
        "exact": "W" if won else ("L" if full else "?"),
        "grids": len(grids),
        "pairs_static": sum(len(b.reach[c]) for c in d.cards),
        "pairs_h2": at_h2,
        "pairs_exact": len(pairs),
        "home_exact": home,
        "cards": len(d.cards),
        "refuted_static": int(static_ref),
        "refuted_h2": int(h2_ref),
        "refuted_h2_back": int(back_ref),
        "h2_s": round(h2_s, 3),
    }


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--deals", type=int, default=30)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--game", default="gaps-basic-variant")
    ap.add_argument("--cap", type=int, default=300_000, help="most grids enumerated a deal")
    _common.add_out(ap, "gaps_pair_reach.csv and .md")
    args = ap.parse_args()
    out = _common.out_dir(args)
    load0 = _common.load()
    rows = []
    for seed in range(args.first, args.first + args.deals):
        rows.append(one(seed, args.game, args.cap))
        print("  ".join(f"{k}={v}" for k, v in rows[-1].items()), flush=True)
    lost = [r for r in rows if r["exact"] == "L"]
    won = [r for r in rows if r["exact"] == "W"]
    lines = [
        f"## Static refutation of lost Gaps deals: {args.game}, portable deals {args.first}-"
        f"{args.first + args.deals - 1}",
        "",
        f"{_common.stamp(load0)}; exact cap {args.cap} grids.",
        f"Command: `python benchmarks/gaps_pair_reach.py -n {args.deals} --first {args.first} --out`",
        "",
        f"Exact: {len(won)} won, {len(lost)} lost, {len(rows) - len(won) - len(lost)} over the cap. "
        f"Lost deals refuted statically: arrival fixpoint {sum(r['refuted_static'] for r in lost)}, "
        f"h2 {sum(r['refuted_h2'] for r in lost)}, h2 backward {sum(r['refuted_h2_back'] for r in lost)}; "
        "lost deals where, in every won grid, some card never reaches its cell "
        f"in any reachable grid (what an exact pair fixpoint would refute): "
        f"{sum(r['home_exact'] < r['cards'] for r in lost)}. Won deals refuted (a bug): "
        f"{sum(r['refuted_h2'] or r['refuted_h2_back'] for r in won)}.",
        "",
        *_common.md_table(rows),
    ]
    _common.report(out, "gaps_pair_reach", rows, lines)


if __name__ == "__main__":
    main()
