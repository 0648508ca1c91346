"""Probe for issue 17's W18: the gathered Black Hole deck with the hole pile picked up reversed (the last card
played dealt first), dfs's line, dealt by rows: does the orientation of the gathered deck delay convergence?

Prints one line a k (win %, conservative Wilson 95%, mean direction changes of the lines); writes nothing.
"""

from __future__ import annotations

import time

import _common


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=1000, help="games a point")
    ap.add_argument("--kmax", type=int, default=6)
    args = ap.parse_args()
    if args.n < 1 or args.kmax < 1:
        ap.error("-n and --kmax must be >= 1")
    import patience.analysis.shuffles as sh

    forward = sh._gathered

    def reversed_hole(inst, moves):  # the hole's cards last-played first, then the piles as before
        g = forward(inst, moves)
        n = sum(len(h) for h in inst.layout.foundations) + len(moves)
        return g[:n][::-1] + g[n:]

    sh._gathered = reversed_hole
    t0 = time.perf_counter()
    print(f"commit {_common.commit()}; {_common.machine()}")
    for k in range(1, args.kmax + 1):
        p = sh.study("black-hole", "gathered", "rows", [k], args.n, line="search")[0]
        lo, hi = p.interval()
        print(f"k={k} by rows, hole reversed, search line: {p.won}/{p.n} = {100 * p.won / p.n:.1f}% "
              f"[{100 * lo:.1f}, {100 * hi:.1f}], {p.mean_turns:.2f} changes "
              f"({time.perf_counter() - t0:.0f} s, load {_common.load()})", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
