"""Check dfs-max's most cards removed on full-size lost Black Hole deals against a brute force.

For portable deals 1..n, every deal ``dfs-max`` proves lost (at ``--limit`` seconds) is searched again by
a brute force with its own rank rule and no pruning: the most cards that can be moved from every state
(pile heights, hole top), memoised, up to ``--cap`` states a deal (over it: "over cap", no verdict).
Prints one line per lost deal and a summary (deals, mismatches, the brute force's histogram); ``--out``
writes benchmarks/out/removed_max_check.md. Why: the mean cards removed (Wolter's 46.27) rests on these
maxima, and ours put few lost deals near the end.
"""

from __future__ import annotations

import sys
import time

import _common


def brute_max(piles: list[list[int]], top: int, R: int, cap: int) -> int | None:
    """Most cards that can be moved to the hole from piles of ranks (bottom first), hole top ``top``,
    ranks one apart with K-A wrap; None past ``cap`` states."""
    best: dict[tuple[tuple[int, ...], int], int] = {}

    def go(h: tuple[int, ...], t: int) -> int:
        key = (h, t)
        if key in best:
            return best[key]
        if len(best) >= cap:
            raise OverflowError
        m = 0
        for i, p in enumerate(piles):
            if h[i]:
                r = p[h[i] - 1]
                if abs(r - t) == 1 or {r, t} == {1, R}:
                    m = max(m, 1 + go(h[:i] + (h[i] - 1,) + h[i + 1 :], r))
        best[key] = m
        return m

    try:
        return go(tuple(len(p) for p in piles), top)
    except OverflowError:
        return None


def main() -> None:
    from patience.deals import deal
    from patience.solvers.base import Limits, solve

    ap = _common.Parser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=300, help="portable deals 1..n")
    ap.add_argument("--limit", type=float, default=20.0, help="seconds per dfs-max solve")
    ap.add_argument("--cap", type=int, default=3_000_000, help="brute-force states per deal")
    ap.add_argument("--out", action="store_true", help="write benchmarks/out/removed_max_check.md")
    args = ap.parse_args()
    if args.n < 1 or args.cap < 1 or args.limit <= 0:
        ap.error("-n and --cap must be >= 1, --limit > 0")
    sys.setrecursionlimit(10_000)
    load0, t0 = _common.load(), time.perf_counter()
    lines = []
    checked = mismatch = over = 0
    hist: dict[int, int] = {}
    for s in range(1, args.n + 1):
        inst = deal("black-hole", s)
        r = solve(inst, "dfs-max", Limits(seconds=args.limit))
        if r.status.value != "unsolvable":
            continue
        ours = int(r.stats["max_cards_removed"])
        piles = [[c.rank for c in p] for p in inst.layout.tableau]
        b = brute_max(piles, inst.layout.foundations[0][-1].rank, inst.rules.deck.ranks, args.cap)
        if b is None:
            over += 1
        else:
            checked += 1
            mismatch += b != ours
            hist[b] = hist.get(b, 0) + 1
        lines.append(f"| {s} | {ours} | {'over cap' if b is None else b} |")
        print(lines[-1], flush=True)
    secs = time.perf_counter() - t0
    head = [
        "# Black Hole: dfs-max's most cards moved on lost deals against a brute force",
        "",
        f"Machine: {_common.machine()} (load at the start {load0}). Portable deals 1..{args.n}, dfs-max at "
        f"{args.limit:g} s; brute force without pruning, {args.cap:,} states a deal; {secs:.0f} s in all.",
        "",
        f"Lost deals: {checked + over}; checked {checked}, mismatches {mismatch}, over the cap {over}. "
        f"Brute-force histogram (cards moved: deals): {dict(sorted(hist.items()))}.",
        "",
        "| seed | dfs-max | brute force |",
        "|---|---|---|",
    ]
    text = "\n".join(head + lines) + "\n"
    print(text)
    if args.out:
        (_common.OUT / "removed_max_check.md").write_text(text)


if __name__ == "__main__":
    main()
