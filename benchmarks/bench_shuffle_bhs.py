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
the limit. The table is rewritten after each point. A chain's games are not independent (each deck is the last
game's cards), which those binomial figures assume; so each point also gives the lag-1 autocorrelation of its
games' wins and the batch-means standard error over the binomial one (``--batches``; about 1 if independent).
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


def chain_dependence(wins: list[bool], batches: int) -> tuple[float, float]:
    """Lag-1 autocorrelation of a chain's win indicators, and the batch-means standard error of its rate
    (``batches`` consecutive blocks) over the binomial one: the dependence the intervals ignore."""
    n = len(wins)
    p = sum(wins) / n if n else 0.0
    var = p * (1 - p)
    if n < 2 * batches or var == 0:
        return 0.0, 1.0
    x = [w - p for w in wins]
    r1 = sum(a * b for a, b in zip(x, x[1:], strict=False)) / (n * var)
    size = n // batches
    means = [sum(wins[i * size : (i + 1) * size]) / size for i in range(batches)]
    mean = sum(means) / batches
    se_bm = (sum((m - mean) ** 2 for m in means) / (batches - 1) / batches) ** 0.5
    return r1, se_bm / (var / (size * batches)) ** 0.5


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
    ap.add_argument("--batches", type=int, default=20, help="blocks for the batch-means standard error")
    ap.add_argument("--limit", type=float, default=10.0, help="dfs (and black-hole-solve) seconds a game")
    _common.add_out(ap, NAME)
    args = ap.parse_args()
    try:
        ks = [_k_n(x, args.n) for x in args.ks.split(",") if x]
    except ValueError:
        ap.error(f"--ks {args.ks!r}: comma-separated k or k:n, integers")
    if args.n < 1 or args.uniform_n < 1 or not ks or min(min(kn) for kn in ks) < 1 or args.limit <= 0:
        ap.error("-n, --uniform-n, every k and n must be >= 1, --limit > 0")
    if args.batches < 2:
        ap.error("--batches must be >= 2")
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
                "| k | won / n | win % [95%] | Fisher p vs uniform | gap, points [95%] | lag-1 r | SE ratio "
                "| mean changes | fallback | s | load |"
            ]
            table.append("|---|---|---|---|---|---|---|---|---|---|---|")
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
        r1, ratio = chain_dependence(wins, args.batches)
        wins.clear()
        tail = f"{gap} | {r1:+.4f} | {ratio:.2f} | {p.mean_turns:.2f} | {p.fallback} | {secs:.0f} | "
        tail += _common.load().split("/")[0]
        return f"| {k} | {p.won} / {p.n} | {rate} | {pv} | {tail} |"

    wins: list[bool] = []

    def hear(_k: int, status: str) -> None:
        wins.append(status == "solved")

    t = time.perf_counter()
    uni = study("black-hole", "uniform", args.by, [0], args.uniform_n, seed=args.seed, limit_s=args.limit,
                on_game=hear)[0]  # fmt: skip
    record(point(uni, time.perf_counter() - t))
    for k, n in ks:
        t = time.perf_counter()
        p = study("black-hole", "gathered", args.by, [k], n, seed=args.seed, limit_s=args.limit,
                  line=args.line, on_game=hear)[0]  # fmt: skip
        record(point(p, time.perf_counter() - t))
    print(f"wall {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
