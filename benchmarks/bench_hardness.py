"""Where do generalized Black Hole family instances become hard? Two studies, each backend on the same deals.

Usage:
    .venv/bin/python benchmarks/bench_hardness.py [--study size,families] [-n 10] [--limit 10]
        [--backends cpsat-only,dfs]

``size``: generalized All in a Row (S suits x R ranks, empty hole, wrap) dealt into piles of height 2, 3,
4 and 6: solve time and win rate against deck size and pile height. All in a Row rather than Black Hole
so that every deck below divides into piles of each height.

``families``: deals from the families of :mod:`patience.families`, on a 52-card Black Hole deck and a
104-card All in a Row one (8 suits, piles of 4): planted wins perturbed by K random card swaps (K = 0 is
won by construction; large K approaches a random deal), sorted deals (the ordered, easy end: piles of
equal or neighbouring ranks) perturbed the same way, and random deals as the reference.

Every backend runs through :func:`patience.solvers.base.solve`, so each SOLVED is validated; verdicts
of the backends are compared deal by deal and any disagreement is printed (it would be a bug).
Tables (csv, md) and plots go to benchmarks/out/hardness_<study>.*; times are wall seconds on this
machine, with the load average printed at the start and end.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from patience.deals import deal
from patience.families import family_deal
from patience.instance import Instance
from patience.solvers.base import Limits, solve

OUT = Path(__file__).resolve().parents[1] / "benchmarks" / "out"
SIZES = ((2, 6), (3, 8), (4, 9), (4, 12), (5, 12), (6, 12), (8, 13))
HEIGHTS = (2, 3, 4, 6)
SWAPS = (0, 1, 2, 4, 8, 16, 32, 64)


def say(text: str, log: list[str]) -> None:
    print(text, flush=True)
    log.append(text)


def p90(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(0.9 * len(s)))]


def run_point(
    label: dict, make: Callable[[int], Instance], n: int, backends: list[str], limit: float, log: list[str]
) -> list[dict]:
    """Solve deals 1..n of one point with every backend; one row per backend, disagreements printed."""
    verdicts: dict[str, list[str]] = {b: [] for b in backends}
    times: dict[str, list[float]] = {b: [] for b in backends}
    for seed in range(1, n + 1):
        inst = make(seed)
        for b in backends:
            t = time.perf_counter()
            r = solve(inst, b, Limits(seconds=limit))
            times[b].append(time.perf_counter() - t)
            verdicts[b].append(r.status.value)
    rows = []
    for b in backends:
        vs = verdicts[b]
        won, lost = vs.count("solved"), vs.count("unsolvable")
        rows.append({**label, "backend": b, "deals": n, "won": won, "lost": lost, "unknown": n - won - lost,
                     "median": round(statistics.median(times[b]), 4), "p90": round(p90(times[b]), 4),
                     "max": round(max(times[b]), 4)})  # fmt: skip
    per_deal = [set(col) for col in zip(*verdicts.values(), strict=True)]
    clash = [i + 1 for i, col in enumerate(per_deal) if len(col & {"solved", "unsolvable"}) > 1]
    # Verdicts of all backends together (they agree): a deal is won or lost when any backend decided it.
    won_any = sum("solved" in col for col in per_deal)
    lost_any = sum("unsolvable" in col and "solved" not in col for col in per_deal)
    text = "  ".join(f"{r['backend']} {r['won']}/{r['lost']}/{r['unknown']} med {r['median']:.3f}s"
                     for r in rows)  # fmt: skip
    say(f"  {' '.join(f'{k}={v}' for k, v in label.items()):<36} {text}"
        + (f"  DISAGREE on deals {clash}" if clash else ""), log)  # fmt: skip
    for r in rows:
        r.update(won_any=won_any, lost_any=lost_any, disagree=len(clash))
    return rows


Point = tuple[dict, Callable[[int], Instance], "tuple[str, ...] | None"]  # label, deal maker, backends


def size_points() -> Iterator[Point]:
    for suits, ranks in SIZES:
        cards = suits * ranks
        for height in HEIGHTS:
            if cards % height:
                continue
            sets = {"suits": suits, "ranks": ranks, "piles": cards // height}
            label = {"suits": suits, "ranks": ranks, "cards": cards, "height": height}
            yield label, lambda seed, sets=sets: deal("all-in-a-row", seed, "portable", sets), None


# The families study's decks: standard Black Hole, and a 104-card All in a Row (8 suits, piles of 4),
# the latter for dfs only: cpsat-only decided 3 of 102 such deals at 10 s (benchmarks/out/hardness_*.txt).
FAMILY_DECKS = (("black-hole", {}, None), ("all-in-a-row", {"suits": 8, "ranks": 13, "piles": 26}, ("dfs",)))


def family_points() -> Iterator[Point]:
    for game, sets, only in FAMILY_DECKS:
        cards = 52 * sets.get("suits", 4) // 4 - (game == "black-hole")
        base = {"game": game, "cards": cards}
        for family, swaps in [("random", 0)] + [(f, k) for f in ("planted", "sorted") for k in SWAPS]:
            yield (
                {**base, "family": family, "swaps": swaps},
                lambda s, g=game, o=sets, f=family, k=swaps: family_deal(g, s, f, o, swaps=k),
                only,
            )


def write(study: str, rows: list[dict]) -> None:
    path = OUT / f"hardness_{study}.csv"
    with path.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    keys = list(rows[0])
    md = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    md += ["| " + " | ".join(str(r[k]) for k in keys) + " |" for r in rows]
    (OUT / f"hardness_{study}.md").write_text("\n".join(md) + "\n")


def _won_pct(rows: list[dict]) -> float:
    """Won % of the deals of one point that some backend decided (backends agree deal by deal)."""
    decided = rows[0]["won_any"] + rows[0]["lost_any"]
    return 100 * rows[0]["won_any"] / decided if decided else float("nan")


def plot(study: str, rows: list[dict], backends: list[str]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    styles = dict(zip(backends, ("-", "--", ":"), strict=False))
    if study == "size":
        for i, h in enumerate(HEIGHTS):
            mine = [r for r in rows if r["height"] == h]
            for b in backends:
                pts = [(r["cards"], r["median"]) for r in mine if r["backend"] == b]
                axes[0].plot(
                    *zip(*pts, strict=True), styles[b], color=f"C{i}", marker="o", label=f"{b}, height {h}"
                )
            cards = sorted({r["cards"] for r in mine})
            pct = [_won_pct([r for r in mine if r["cards"] == c]) for c in cards]
            axes[1].plot(cards, pct, color=f"C{i}", marker="o", label=f"height {h}")
            axes[0].set_xlabel("tableau cards")
        axes[1].set_xlabel("tableau cards")
        axes[0].set_title("Generalized All in a Row: median solve time")
    else:
        lines = [(g, f) for g, _, _ in FAMILY_DECKS for f in ("planted", "sorted")]
        for i, (game, fam) in enumerate(lines):
            mine = [r for r in rows if (r["game"], r["family"]) == (game, fam)]
            game = f"{game} {int(mine[0]['cards'])}"  # the label names the deck size
            for b in dict.fromkeys(r["backend"] for r in mine):
                pts = [(r["swaps"] + 0.5, r["median"]) for r in mine if r["backend"] == b]
                axes[0].plot(
                    *zip(*pts, strict=True), styles[b], color=f"C{i}", marker="o", label=f"{game} {fam}, {b}"
                )
            swaps = sorted({r["swaps"] for r in mine})
            pct = [_won_pct([r for r in mine if r["swaps"] == k]) for k in swaps]
            axes[1].plot([k + 0.5 for k in swaps], pct, color=f"C{i}", marker="o", label=f"{game} {fam}")
        for i, (game, _, _) in enumerate(FAMILY_DECKS):
            rnd = [r for r in rows if (r["game"], r["family"]) == (game, "random")]
            if rnd:
                axes[1].axhline(_won_pct(rnd), color=f"C{2 * i}", ls=":", label=f"{game} random deals")
        for ax in axes:
            ax.set_xscale("log")
            ax.set_xlabel("random card swaps + 0.5")
        axes[0].set_title("Instance families: median solve time")
    axes[0].set_yscale("log")
    axes[0].set_ylabel("median seconds")
    axes[1].set_ylabel("won % of the deals decided")
    axes[1].set_title("win rate")
    for ax in axes:
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(OUT / f"hardness_{study}.png", dpi=120)
    plt.close(fig)


def replot(study: str) -> None:
    """Redraw a study's plot from its csv (no solving)."""
    with (OUT / f"hardness_{study}.csv").open() as fh:
        rows = [{k: (v if k in ("game", "family", "backend") else float(v)) for k, v in r.items()}
                for r in csv.DictReader(fh)]  # fmt: skip
    plot(study, rows, list(dict.fromkeys(r["backend"] for r in rows)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--study", default="size,families")
    ap.add_argument("-n", type=int, default=10, help="deals per point")
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--backends", default="cpsat-only,dfs")
    ap.add_argument("--replot", action="store_true", help="only redraw the plots from the csv tables")
    args = ap.parse_args()
    backends = args.backends.split(",")
    if args.replot:
        for study in args.study.split(","):
            replot(study)
        return
    OUT.mkdir(parents=True, exist_ok=True)
    for b in backends:  # load numba's cached kernels and OR-Tools before any timing
        solve(deal("black-hole", 1, "pysol"), b, Limits(seconds=args.limit))
    for study in args.study.split(","):
        points = {"size": size_points, "families": family_points}[study]()
        log: list[str] = []
        say(f"# bench_hardness {' '.join(sys.argv[1:])}: {study}", log)
        say(f"# {time.ctime()}, {os.cpu_count()} cpus, load average at start {os.getloadavg()}", log)
        say(f"# per point: deals 1..{args.n}, limit {args.limit:g}s; backend won/lost/unknown, median", log)
        rows = []
        for label, make, only in points:
            mine = [b for b in backends if only is None or b in only]
            rows += run_point(label, make, args.n, mine, args.limit, log)
        write(study, rows)
        plot(study, rows, backends)
        say(f"# load average at end {os.getloadavg()}; table and plot benchmarks/out/hardness_{study}.*", log)
        (OUT / f"hardness_{study}.txt").write_text("\n".join(log) + "\n")


if __name__ == "__main__":
    main()
