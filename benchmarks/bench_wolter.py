"""Wolter 2014's analyses beside his published figures (issue 17 items 1 and 4).

Studies (``--study``, comma-separated; default all):

- ``adjacency``: rank-adjacency sequences of 4 x 13 with wrap, exact (patience.analysis.adjacency);
- ``first-move``: Black Hole deals with no first move, exact and simulated (Wilson interval);
- ``removed``: most cards removed over won and lost deals, ``dfs-max``, both counting conventions;
- ``inversion``: deals the forward dfs leaves undecided at a node limit, decided inverted;
- ``shuffles``: GSR riffles of a sorted or gathered deck, dealt by rows or columns, against uniform;
- ``rates``: Thirty Six and Binary Star win rates (conservative Wilson 95%) from a results store,
  solving the seeds not yet in it (``--db``; resumable).

Prints Markdown; ``--out [DIR]`` writes it to DIR/wolter.md. Every figure is computed here; Wolter's are
printed beside them, labelled published. Run from a snapshot clone for long sizes (README).
"""

from __future__ import annotations

import time
from pathlib import Path

import _common

STUDIES = ("adjacency", "first-move", "removed", "inversion", "shuffles", "rates")


def _pct(k: int, n: int) -> str:
    return f"{100 * k / n:.2f}%" if n else "-"


def adjacency(args) -> list[str]:
    from patience.analysis.adjacency import adjacency_counts
    from patience.analysis.published import WOLTER

    t0 = time.perf_counter()
    c = adjacency_counts(4, 13)
    secs = time.perf_counter() - t0
    pub_end = WOLTER["by_end"]
    lines = [
        "## Rank-adjacency sequences (Wolter 3.1), 4 x 13 with K-A wrap, starting with an Ace",
        "",
        f"Computed exactly by the lifted-walk transfer in {secs:.1f} s (load {_common.load()}).",
        "",
        "| figure | ours | published |",
        "|---|---|---|",
        f"| rank sequences | {c.total:,} | {WOLTER['rank_sequences']:,} |",
        f"| suit factor (4!)^13 | {c.suit_factor:,} | {WOLTER['suit_factor']:,} |",
        f"| circular (ends on 2 or K) | {100 * c.circular / c.total:.2f}% | {WOLTER['circular_percent']}% |",
        f"| most direction changes | {c.max_changes} | {WOLTER['max_direction_changes']} |",
        "",
        "| end rank | ours | percent | published | equal |",
        "|---|---|---|---|---|",
    ]
    for r, n in enumerate(c.by_end):
        lines.append(
            f"| {'A23456789TJQK'[r]} | {n:,} | {_pct(n, c.total)} | {pub_end[r]:,} | {n == pub_end[r]} |"
        )
    even = sum(n for k, n in enumerate(c.by_changes) if k % 2 == 0)
    lines += [
        "",
        f"Direction changes (Wolter's figure has no table; bell-shaped, even counts slightly more common): "
        f"even {even:,}, odd {c.total - even:,}; by count: "
        + ", ".join(f"{k}: {n:,}" for k, n in enumerate(c.by_changes)),
        "",
    ]
    return lines


def first_move(args) -> list[str]:
    from patience.analysis.first_move import no_first_move, simulate
    from patience.analysis.published import WOLTER
    from patience.experiments.stats import wilson
    from patience.rules import load_game

    exact = no_first_move(load_game("black-hole").rules)
    t0 = time.perf_counter()
    none, n = simulate("black-hole", args.first_move_n, 1, "portable")
    secs = time.perf_counter() - t0
    lo, hi = wilson(none, n)
    inside = lo <= float(exact.probability) <= hi
    return [
        "## Black Hole deals with no first move (Wolter 5.1)",
        "",
        "| figure | ours | published |",
        "|---|---|---|",
        f"| exact per million, C(43,17)/C(51,17) | {exact.per_million:,.1f} | "
        f"{WOLTER['no_first_move_per_million']:,} |",
        f"| simulated (portable seeds 1..{n:,}) | {none:,} of {n:,} = {100 * none / n:.3f}% "
        f"[Wilson 95% {100 * lo:.3f}, {100 * hi:.3f}] | "
        f"{WOLTER['no_first_move_seen_per_million']:,} of 10^6 |",
        "",
        f"Exact value inside our simulated interval: {inside}. {n:,} deals dealt and checked by the "
        f"engine in {secs:.1f} s (load {_common.load()}).",
        "",
    ]


def removed(args) -> list[str]:
    from patience.analysis.published import WOLTER
    from patience.analysis.removed import CONVENTIONS, run_removed
    from patience.experiments.executors import make_executor
    from patience.experiments.store import open_store

    lines = [
        "## Most cards removed over won and lost deals (Wolter 5.1, 5.2, 8)",
        "",
        "Backend dfs-max (dfs; a lost deal whose search was cut by reach/degree is searched again without "
        "them, so every lost deal's maximum is exact). Conventions: "
        + "; ".join(f"**{k}**: {v}" for k, v in CONVENTIONS.items()),
        "",
        "| game | deals | won | lost (exact max) | left out | mean moved | mean home | 95% interval "
        "(published's convention) | published mean | inside | solve time (this run) | load |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    hists = []
    ex = make_executor("process", args.workers)
    try:
        with open_store(args.db) as store:
            for game, n in (("black-hole", args.removed_n), ("all-in-a-row", args.removed_n),
                            ("binary-star", args.binary_n)):  # fmt: skip
                t0 = time.perf_counter()
                r = run_removed(game, range(1, n + 1), limit_s=args.limit, store=store, executor=ex)
                secs = time.perf_counter() - t0
                pub = WOLTER["mean_removed"][game]
                conv = WOLTER["mean_removed_convention"][game]
                lines.append(
                    f"| {game} | {n} | {r.won} | {r.lost} | {r.undecided + r.inexact} | "
                    f"{r.mean('moved'):.2f} | {r.mean('home'):.2f} | "
                    f"[{r.mean_interval(conv)[0]:.2f}, {r.mean_interval(conv)[1]:.2f}] | {pub} ({conv}) | "
                    f"{pub_inside(r, conv, pub)} | {r.seconds:.0f} s ({secs:.0f} s now) | "
                    f"{_common.load()} |"
                )
                hists.append(
                    f"- {game}, lost deals by most cards moved: "
                    + ", ".join(f"{k}: {v}" for k, v in r.histogram(lost_only=True).items())
                )
    finally:
        ex.close()
    return lines + ["", *hists, ""]


def pub_inside(r, conv: str, pub: float) -> bool:
    lo, hi = r.mean_interval(conv)
    return lo <= pub <= hi


def inversion(args) -> list[str]:
    from patience.analysis.inversion import settle

    lines = [
        "## Inverted deals (Wolter 3.2, 4, 5)",
        "",
        f"dfs forward at {args.inv_nodes:,} nodes; deals it leaves undecided are decided on the inverted "
        "deal at the same node limit (All in a Row: dfs on the reversed piles; Black Hole: the inverted "
        "game, empty hole and last card next to the Ace, by analysis.inversion.solve_inverted_kernel). "
        "Published: 53 of 10^6 Black Hole deals undecided forward, inverted 4 won and 49 lost.",
        "",
        "| game | deals | forward W / L / ? | inverted: won | lost | still ? | time | load |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for game in ("black-hole", "all-in-a-row"):
        t0 = time.perf_counter()
        rows = settle(
            game, range(1, args.inv_n + 1), forward_nodes=args.inv_nodes, inverted_seconds=args.limit
        )
        secs = time.perf_counter() - t0
        f = {v: sum(r.forward == v for r in rows) for v in ("solved", "unsolvable", "unknown")}
        u = [r for r in rows if r.forward == "unknown"]
        w, lo = sum(r.inverted is True for r in u), sum(r.inverted is False for r in u)
        lines.append(
            f"| {game} | {len(rows)} | {f['solved']} / {f['unsolvable']} / {f['unknown']} | {w} | {lo} | "
            f"{len(u) - w - lo} | {secs:.0f} s | {_common.load()} |"
        )
    return lines + [""]


def shuffles(args) -> list[str]:
    from patience.analysis.shuffles import study

    lines = [
        "## Natural shuffling (Wolter 6, 7)",
        "",
        f"{args.shuffle_n} games per point, dfs at {args.limit:g} s; win % [conservative Wilson 95%]. "
        "Published (graphs only): sorted deck dealt by rows dips at k = 2; by columns ~87% from k = 3-4; "
        "by rows from k = 6.",
        "",
    ]
    for game in args.shuffle_games.split(","):
        t0 = time.perf_counter()
        uni = study(game, "uniform", "rows", [0], args.shuffle_n, limit_s=args.limit)[0]
        ulo, uhi = uni.interval()
        lines += [
            f"### {game}: uniform shuffle {100 * uni.won / uni.n:.1f}% [{100 * ulo:.1f}, {100 * uhi:.1f}]",
            "",
        ]
        header = "| k | " + " | ".join(
            f"{s} by {b}" for s in ("sorted", "gathered") for b in ("rows", "columns")
        )
        lines += [header + " |", "|---|" + "---|" * 4]
        cols = [
            study(game, s, b, range(1, args.kmax + 1), args.shuffle_n, limit_s=args.limit)
            for s in ("sorted", "gathered")
            for b in ("rows", "columns")
        ]
        for i in range(args.kmax):
            cells = []
            for col in cols:
                p = col[i]
                lo, hi = p.interval()
                cells.append(f"{100 * p.won / p.n:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}]")
            lines.append(f"| {i + 1} | " + " | ".join(cells) + " |")
        lines += ["", f"({time.perf_counter() - t0:.0f} s, load {_common.load()})", ""]
    return lines


def rates(args) -> list[str]:
    from patience.analysis.published import WOLTER
    from patience.experiments.executors import make_executor
    from patience.experiments.runner import Job, run_job, summarize
    from patience.experiments.store import open_store

    lines = [
        "## Thirty Six and Binary Star win rates (Wolter T36; BH 8)",
        "",
        "Portable seeds 1..N (Wolter: Politaire seeds, which we cannot deal), backend auto, conservative "
        "Wilson 95% interval (unknowns count as losses for the lower bound, as wins for the upper).",
        "",
        "| game | N | limit | won | lost | unknown | our interval | published won | inside | decided win % | "
        "solve time (this run) | load |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    t36 = WOLTER["thirty_six_percent"]
    bs = WOLTER["binary_star_percent"]
    published = {
        "thirty-six": (t36[0], f"{t36[0]}% (unresolved {t36[1]}%)"),
        "binary-star": (bs[0], f"{bs[0]}% (lost {bs[1]}%, unresolved {bs[2]}%)"),
    }
    ex = make_executor("process", args.workers)
    try:
        with open_store(args.db) as store:
            for game, n, limit in args.rates:
                pub, pub_text = published[game]
                t0 = time.perf_counter()
                rows = run_job(Job(game, range(1, n + 1), "auto", limit), store, ex)
                s = summarize(rows)
                e = s.estimate
                lo, hi = e.percent()
                decided = e.wins + e.losses
                lines.append(
                    f"| {game} | {n} | {limit:g} s | {e.wins} | {e.losses} | {e.unknowns} | [{lo}, {hi}] | "
                    f"{pub_text} | {e.contains(pub)} | {_pct(e.wins, decided)} | "
                    f"{sum(r.seconds for r in rows):.0f} s ({time.perf_counter() - t0:.0f} s now) | "
                    f"{_common.load()} |"
                )
    finally:
        ex.close()
    return lines + [""]


def _rates(ap: _common.Parser, spec: str) -> list[tuple[str, int, float]]:
    out = []
    for part in spec.split(","):
        game, _, rest = part.partition(":")
        n, _, limit = rest.partition(":")
        try:
            item = (game, int(n), float(limit))
        except ValueError:
            ap.error(f"--rates {part!r}: expected GAME:N:SECONDS")
        if game not in ("thirty-six", "binary-star") or item[1] < 1 or item[2] <= 0:
            ap.error(f"--rates {part!r}: thirty-six or binary-star, N >= 1, SECONDS > 0")
        out.append(item)
    return out


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n")[0])
    ap.add_argument("--study", default=",".join(STUDIES), help=f"comma-separated: {','.join(STUDIES)}")
    ap.add_argument(
        "--limit", type=float, default=10.0, help="seconds per deal (removed, inversion, shuffles)"
    )
    ap.add_argument("--first-move-n", type=int, default=100_000)
    ap.add_argument("--removed-n", type=int, default=1000, help="Black Hole and All in a Row deals")
    ap.add_argument("--binary-n", type=int, default=100, help="Binary Star deals for removed")
    ap.add_argument("--inv-n", type=int, default=500)
    ap.add_argument("--inv-nodes", type=int, default=20_000)
    ap.add_argument("--shuffle-n", type=int, default=200)
    ap.add_argument("--shuffle-games", default="black-hole,all-in-a-row")
    ap.add_argument("--kmax", type=int, default=10)
    ap.add_argument(
        "--rates",
        default="thirty-six:1500:2,thirty-six:200:10,binary-star:500:3,binary-star:100:10",
        help="GAME:N:SECONDS,... runs of the rates study (thirty-six, binary-star)",
    )
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--db", default="wolter.sqlite", help="results store for removed and rates (resumable)")
    _common.add_out(ap, "wolter.md")
    args = ap.parse_args()
    studies = [s for s in args.study.split(",") if s]
    bad = [s for s in studies if s not in STUDIES]
    if bad or not studies:
        ap.error(f"--study {args.study!r}: choose from {','.join(STUDIES)}")
    for name in (
        "first_move_n",
        "removed_n",
        "binary_n",
        "inv_n",
        "inv_nodes",
        "shuffle_n",
        "kmax",
    ):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} {getattr(args, name)}: must be >= 1")
    if args.limit <= 0:
        ap.error(f"--limit {args.limit}: must be > 0")
    args.rates = _rates(ap, args.rates)
    lines = ["# Wolter 2014 beside this toolkit", "", f"Machine: {_common.machine()}.", ""]
    funcs = {"adjacency": adjacency, "first-move": first_move, "removed": removed, "inversion": inversion,
             "shuffles": shuffles, "rates": rates}  # fmt: skip
    for s in studies:
        part = funcs[s](args)
        print("\n".join(part), flush=True)
        lines += part
    out = _common.out_dir(args)
    if out is not None:
        path = Path(out) / "wolter.md"
        _common.write_lines(path, lines)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
