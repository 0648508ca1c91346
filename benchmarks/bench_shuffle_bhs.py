"""Gathered-deck riffle study of Black Hole against uniform deals, point by point (issue 17, W18): from how
many riffles is a gathered deck dealt by rows at the uniform win rate?

``--line bhs`` (the default) gathers decks from black-hole-solver's wins (does another real solver's line need
more riffles than ours?); ``--line search`` from dfs's own, with ``k:n`` in ``--ks`` for large samples where
the tail is small.

Uniformly shuffled deals first (their deals and dfs verdicts do not depend on the line, so they are played
with the search line), then the gathered deck (``--line``, patience.analysis.shuffles) at each k of ``--ks``
(in that order; each k is its own seeded chain) by ``--by``. Per point: win % (conservative Wilson 95%),
Fisher's exact p against the uniform point, the gap to uniform in points with Newcombe's 95% interval, mean
direction changes of the lines played, and (bhs) wins gathered from the search line because the peer ran past
the limit. The table is rewritten after each point.
"""

from __future__ import annotations

import time
from pathlib import Path

import _common

NAME = "wolter_shuffles_w18_bhs_run.md"


def _k_n(item: str, n: int) -> tuple[int, int]:
    """``k`` or ``k:n`` of ``--ks`` as (riffles, games), ``n`` when no count is given."""
    k, _, games = item.partition(":")
    return int(k), int(games) if games else n


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=500, help="games a point")
    ap.add_argument("--uniform-n", type=int, default=1000, help="uniform deals")
    ap.add_argument(
        "--ks", default="1,2,3,4,5,6,7,8", help="riffle counts, run in this order; k:n plays n games at k"
    )
    ap.add_argument(
        "--line", default="bhs", help="play line gathered decks come from (search, few-turns, bhs)"
    )
    ap.add_argument("--by", default="rows", choices=["rows", "columns"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=float, default=10.0, help="dfs (and black-hole-solve) seconds a game")
    _common.add_out(ap, NAME)
    args = ap.parse_args()
    try:
        ks = [_k_n(x, args.n) for x in args.ks.split(",") if x]
    except ValueError:
        ap.error(f"--ks {args.ks!r}: comma-separated k or k:n, integers")
    if args.n < 1 or args.uniform_n < 1 or not ks or min(min(kn) for kn in ks) < 1 or args.limit <= 0:
        ap.error("-n, --uniform-n, every k and n must be >= 1, --limit > 0")
    from scipy.stats import fisher_exact

    from patience.analysis.bhs_line import find_bhs
    from patience.analysis.shuffles import LINES, study
    from patience.experiments.stats import difference_interval

    if args.line not in LINES:
        ap.error(f"--line {args.line!r}: choose from {', '.join(LINES)}")
    if args.line == "bhs" and find_bhs() is None:
        ap.error("black-hole-solve not found (bash benchmarks/peers.sh bhs, or set PATIENCE_BHS)")
    out = _common.out_dir(args)
    t0 = time.perf_counter()
    head = [
        f"Commit {_common.commit()}; started {_common.machine()}; line {args.line}"
        + (f", black-hole-solve {find_bhs()}." if args.line == "bhs" else "."),
        f"Black Hole, seed {args.seed}, dealt by {args.by}; games a point: {args.ks} (default {args.n}; "
        f"uniform {args.uniform_n}); dfs{' and black-hole-solve' if args.line == 'bhs' else ''} at "
        f"{args.limit:g} s a game.",
        "",
    ]
    rows: list[str] = []
    uni = None

    def record(line: str) -> None:
        rows.append(line)
        print(line, flush=True)
        if out is not None:
            table = [
                "| k | won / n | win % [95%] | Fisher p vs uniform | gap, points [95%] | mean changes "
                "| fallback | s | load |"
            ]
            table.append("|---|---|---|---|---|---|---|---|---|")
            _common.write_lines(Path(out) / NAME, head + table + rows + [""])

    def point(p, secs: float) -> str:
        lo, hi = p.interval()
        pv = gap = "-"
        if uni is not None and p is not uni:
            pv = f"{fisher_exact([[p.won, p.n - p.won], [uni.won, uni.n - uni.won]])[1]:.3g}"
            glo, ghi = difference_interval(p.won, p.n, uni.won, uni.n)
            gap = f"{100 * (p.won / p.n - uni.won / uni.n):+.2f} [{100 * glo:+.2f}, {100 * ghi:+.2f}]"
        k = "uniform" if p.k == 0 else str(p.k)
        rate = f"{100 * p.won / p.n:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]" + (
            f", {p.unknown} ?" if p.unknown else ""
        )
        tail = f"{gap} | {p.mean_turns:.2f} | {p.fallback} | {secs:.0f} | {_common.load().split('/')[0]}"
        return f"| {k} | {p.won} / {p.n} | {rate} | {pv} | {tail} |"

    t = time.perf_counter()
    uni = study("black-hole", "uniform", args.by, [0], args.uniform_n, seed=args.seed, limit_s=args.limit)[0]
    record(point(uni, time.perf_counter() - t))
    for k, n in ks:
        t = time.perf_counter()
        p = study("black-hole", "gathered", args.by, [k], n, seed=args.seed, limit_s=args.limit,
                  line=args.line)[0]  # fmt: skip
        record(point(p, time.perf_counter() - t))
    print(f"wall {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
