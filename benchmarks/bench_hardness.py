"""Where do generalized Black Hole family instances become hard? Two studies, each backend on the same deals.

Usage:
    .venv/bin/python benchmarks/bench_hardness.py [--study size,families] [-n 3] [--limit 10]
        [--backends cpsat-only,dfs] [--workers 0] [--out [DIR]]

``size``: generalized All in a Row (S suits x R ranks, empty hole, wrap) dealt into piles of height 2, 3,
4 and 6: solve time and win rate against deck size and pile height. All in a Row rather than Black Hole
so that every deck below divides into piles of each height.

``families``: deals from the families of :mod:`patience.families`, on a 52-card Black Hole deck and a
104-card All in a Row one (8 suits, piles of 4): planted wins perturbed by K random card swaps (K = 0 is
won by construction; large K approaches a random deal), sorted deals (the ordered, easy end: piles of
equal or neighbouring ranks) perturbed the same way, and random deals as the reference.

Every point is a batch of :mod:`patience.experiments.runner` tasks per backend (the deals named by
generator and seed: ``planted:K`` is :func:`patience.families.family_deal` with K swaps), solved through
:func:`patience.solvers.base.solve`, so each SOLVED is validated; verdicts of the backends are compared
deal by deal and any disagreement is printed (it would be a bug). Times are each backend's own solve
seconds (what ``patience estimate`` stores: dealing and the replay of a win are not counted) on this
machine, with the load average printed at the start and end; ``--workers K`` solves in K processes.
With ``--out [DIR]`` the tables (csv, md), plots and the printed log go to DIR/hardness_<study>.*
(default benchmarks/out); ``--replot --out`` redraws the plots from the csv tables there.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
from collections.abc import Iterator
from pathlib import Path

import _common

from patience.experiments.stats import percentiles

SIZES = ((2, 6), (3, 8), (4, 9), (4, 12), (5, 12), (6, 12), (8, 13))
HEIGHTS = (2, 3, 4, 6)
SWAPS = (0, 1, 2, 4, 8, 16, 32, 64)


def say(text: str, log: list[str]) -> None:
    print(text, flush=True)
    log.append(text)


def run_point(
    label: dict, deck: Deck, n: int, backends: list[str], limit: float, log: list[str], workers: int = 0
) -> list[dict]:
    """Solve deals 1..n of one point with every backend; one row per backend, disagreements printed."""
    game, generator, sets = deck
    verdicts: dict[str, list[str]] = {}
    rows = []
    for b in backends:
        done = _common.solve_all(_common.tasks(game, range(1, n + 1), b, limit, generator, sets), workers)
        verdicts[b] = [r.status for r in done]
        times = [r.seconds or 0.0 for r in done]
        won, lost = verdicts[b].count("solved"), verdicts[b].count("unsolvable")
        p = percentiles(times, (90, 100))
        rows.append({**label, "backend": b, "deals": n, "won": won, "lost": lost, "unknown": n - won - lost,
                     "median": round(statistics.median(times), 4), "p90": round(p["p90"], 4),
                     "max": round(p["max"], 4)})  # fmt: skip
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


Deck = tuple[str, str, dict]  # game, generator (families: "planted:K" is K swaps), rule overrides
Point = tuple[dict, Deck, "tuple[str, ...] | None"]  # label, the deals, backends (None: all)


def size_points() -> Iterator[Point]:
    for suits, ranks in SIZES:
        cards = suits * ranks
        for height in HEIGHTS:
            if cards % height:
                continue
            sets = {"suits": suits, "ranks": ranks, "piles": cards // height}
            label = {"suits": suits, "ranks": ranks, "cards": cards, "height": height}
            yield label, ("all-in-a-row", "portable", sets), None


# The families study's decks: standard Black Hole, and a 104-card All in a Row (8 suits, piles of 4),
# the latter for dfs only: cpsat-only decided 3 of 102 such deals at 10 s (benchmarks/out/hardness_*.txt).
FAMILY_DECKS = (("black-hole", {}, None), ("all-in-a-row", {"suits": 8, "ranks": 13, "piles": 26}, ("dfs",)))


def family_points() -> Iterator[Point]:
    for game, sets, only in FAMILY_DECKS:
        cards = 52 * sets.get("suits", 4) // 4 - (game == "black-hole")
        base = {"game": game, "cards": cards}
        for family, swaps in [("random", 0)] + [(f, k) for f in ("planted", "sorted") for k in SWAPS]:
            generator = family if swaps == 0 else f"{family}:{swaps}"
            yield {**base, "family": family, "swaps": swaps}, (game, generator, sets), only


def write(out: Path, study: str, rows: list[dict]) -> None:
    _common.write_csv(out / f"hardness_{study}.csv", rows)
    _common.write_lines(out / f"hardness_{study}.md", _common.md_table(rows))


def _won_pct(rows: list[dict]) -> float:
    """Won % of the deals of one point that some backend decided (backends agree deal by deal)."""
    decided = rows[0]["won_any"] + rows[0]["lost_any"]
    return 100 * rows[0]["won_any"] / decided if decided else float("nan")


def plot(out: Path, study: str, rows: list[dict], backends: list[str]) -> None:
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
    fig.savefig(out / f"hardness_{study}.png", dpi=120)
    plt.close(fig)


def replot(out: Path, study: str) -> None:
    """Redraw a study's plot from its csv in ``out`` (no solving)."""
    with (out / f"hardness_{study}.csv").open() as fh:
        rows = [{k: (v if k in ("game", "family", "backend") else float(v)) for k, v in r.items()}
                for r in csv.DictReader(fh)]  # fmt: skip
    plot(out, study, rows, list(dict.fromkeys(r["backend"] for r in rows)))


STUDIES = {"size": size_points, "families": family_points}


def main() -> None:
    ap = _common.Parser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--study", default="size,families", help="comma-separated: size, families")
    ap.add_argument("-n", type=int, default=3, help="deals per point (10 for the recorded tables)")
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--backends", default="cpsat-only,dfs")
    ap.add_argument("--workers", type=int, default=0, help="processes solving (0: this one)")
    ap.add_argument("--replot", action="store_true", help="only redraw the plots from the csv tables (--out)")
    _common.add_out(ap, "hardness_<study>.csv, .md, .png and .txt")
    args = ap.parse_args()
    backends = args.backends.split(",")
    studies = args.study.split(",")
    if unknown := [s for s in studies if s not in STUDIES]:
        ap.error(f"--study: unknown study {unknown[0]!r} (size, families)")
    if args.n < 1 or args.limit <= 0 or args.workers < 0:
        ap.error("-n must be >= 1, --limit > 0 and --workers >= 0")
    out = _common.out_dir(args)
    if args.replot:
        if out is None:
            ap.error("--replot needs --out (the folder holding the csv tables)")
        for study in studies:
            replot(out, study)
        return
    # load numba's cached kernels and OR-Tools before any timing
    _common.solve_all(t for b in backends for t in _common.tasks("black-hole", [1], b, args.limit, "pysol"))
    for study in studies:
        log: list[str] = []
        say(f"# bench_hardness {' '.join(sys.argv[1:])}: {study}", log)
        say(f"# {_common.machine()} at start", log)
        say(f"# per point: deals 1..{args.n}, limit {args.limit:g}s; backend won/lost/unknown, median", log)
        rows = []
        for label, deck, only in STUDIES[study]():
            mine = [b for b in backends if only is None or b in only]
            rows += run_point(label, deck, args.n, mine, args.limit, log, args.workers)
        say(f"# load at end {_common.load()}", log)
        if out:
            write(out, study, rows)
            plot(out, study, rows, backends)
            _common.write_lines(out / f"hardness_{study}.txt", log)
            print(f"wrote {out}/hardness_{study}.*")


if __name__ == "__main__":
    main()
