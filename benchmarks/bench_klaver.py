"""Klaver 2022's FreeCell lost-game figures beside ours (issue 17 item 2).

    python benchmarks/bench_klaver.py                       # small sizes, printed only
    python benchmarks/bench_klaver.py --deals 10000 --search 600 --standard 600 --out

Sections (every number computed here; the thesis's values appear only in the "published" column):

1. Figure 21: the highest target reached over the lost deals of 5-7-4-2 (portable deals 1..N), with the loss
   rate's conservative Wilson 95% interval; the histogram also goes to ``klaver_hist.csv``.
2. The upper bound of a lost deal's highest target per configuration, ours (proven) beside the thesis's.
3. Maximal lost games: the thesis's Figures 22/25 (8-10-4-1) checked, and our card-swap search on each
   configuration where the thesis found one (8-10-4-1, 6-10-4-3, 3-10-4-6), ``--search`` seconds each.
4. The standard deal: the swap search from Figure 30's 22-card lost deal for ``--standard`` seconds.
5. The thesis's deals: verdict, highest target, fewest free cells (read from instances/freecell/klaver-*.json
   and ms-11982.json, recomputed here).

With ``--out [DIR]``: ``klaver.md``, ``klaver_hist.csv`` and each maximal lost game found as
``klaver-maximal-<config>.json`` (an instance file).
"""

from __future__ import annotations

import sys
import time

import _common

_MOVES = {"Figure 22": "2,464,221", "Figure 25": "136"}  # Klaver's exhaustive search, moves (section 5.4)
CONFIGS_MAXIMAL = {"8-10-4-1": "Figures 22, 25", "6-10-4-3": "Figure 23", "3-10-4-6": "Figure 24"}


def main(argv: list[str]) -> int:
    ap = _common.Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=300, help="5-7-4-2 deals for Figure 21 (default 300)")
    ap.add_argument("--search", type=float, default=20.0, help="seconds of swap search per config (20)")
    ap.add_argument("--standard", type=float, default=20.0, help="seconds of swap search, standard deal (20)")
    ap.add_argument("--workers", type=int, default=0, help="processes for the survey (0: this one)")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per deal (60)")
    ap.add_argument("--seed", type=int, default=1, help="first deal and search seed (1)")
    _common.add_out(ap, "klaver.md, klaver_hist.csv and the maximal lost games found")
    args = ap.parse_args(argv)
    if args.deals < 1 or args.search < 0 or args.standard < 0 or args.limit <= 0 or args.workers < 0:
        ap.error("--deals must be >= 1, --search/--standard >= 0, --limit > 0, --workers >= 0")

    from patience.analysis.freecell_famous import AMBIGUOUS, famous_instance
    from patience.analysis.freecell_lost import (
        Config,
        anneal,
        describe,
        fewest_cells,
        highest_target,
        survey,
        upper_bound,
    )
    from patience.instance import Instance, load_instance

    out = _common.out_dir(args)
    lines = ["# Klaver 2022 (FreeCell lost games): the thesis's figures beside ours", ""]
    lines += [
        f"Machine: {_common.machine()}. Backend dfs-jit (complete search), {args.limit:g} s per deal.",
        "",
    ]

    def say(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    def table(rows: list[dict]) -> None:
        for line in _common.md_table(rows):
            say(line)

    # 1. Figure 21 ------------------------------------------------------------------------------------
    cfg = Config.parse("5-7-4-2")
    load0 = _common.load()
    res = survey(cfg, args.seed, args.deals, seconds=args.limit, workers=args.workers)
    c = res.counts
    lo, hi = res.loss_interval()
    hist = res.histogram
    say("## 1. Highest target reached, lost deals of 5-7-4-2 (Figure 21)")
    say()
    last = args.seed + args.deals - 1
    say(
        f"Portable deals {args.seed}..{last}: won {c['solved']}, lost {c['unsolvable']}, "
        f"unknown {args.deals - c['solved'] - c['unsolvable']}, {res.seconds:.0f} s (load {load0} -> "
        f"{_common.load()})."
    )
    say()
    top = max(hist, default=None)
    rows = [
        {
            "figure": "lost deals",
            "published": "34,133 (deals dealt: not stated)",
            "ours": f"{c['unsolvable']} of {args.deals}",
        },
        {"figure": "loss rate", "published": "-", "ours": f"95% [{100 * lo:.2f}%, {100 * hi:.2f}%]"},
        {"figure": "highest target seen", "published": "17", "ours": str(top)},
        {"figure": "upper bound (thesis: 21)", "published": "21", "ours": str(upper_bound(cfg))},
    ]
    table(rows)
    say()
    say("| highest target | lost deals | share |")
    say("|---|---|---|")
    n_lost = max(sum(hist.values()), 1)
    for k, v in hist.items():
        say(f"| {k} | {v} | {100 * v / n_lost:.1f}% |")
    say()
    if out:
        _common.write_csv(
            out / "klaver_hist.csv", [{"highest_target": k, "lost_deals": v} for k, v in hist.items()]
        )

    # 2. Upper bounds ------------------------------------------------------------------------------------
    say("## 2. Upper bound of a lost deal's highest target")
    say()
    say(
        "Ours: suits x ranks - stacks - cells - 1 (proof: patience.analysis.freecell_lost). The thesis writes"
    )
    say("suits x ranks - (stacks + cells) but quotes 39 for the standard game and 21 for 5-7-4-2.")
    say()
    brows = []
    for label in ("8-13-4-4", "5-7-4-2", *CONFIGS_MAXIMAL):
        b = Config.parse(label)
        brows.append(
            {"config": label, "thesis formula": b.cards - b.stacks - b.cells, "ours": upper_bound(b)}
        )
    table(brows)
    say()

    # 3. Maximal lost games -----------------------------------------------------------------------------
    say("## 3. Maximal lost games")
    say()
    say("The thesis's Figures 22 and 25 (8-10-4-1), each with both readings of its black 9s:")
    say()
    frows = []
    for f in AMBIGUOUS:
        if f.ranks == 13:
            continue
        inst = famous_instance(f)
        v = highest_target(inst, seconds=max(args.limit, 600))
        frows.append(
            {
                "deal": f.name,
                "figure": f.figure,
                "claim": f.claim,
                "verdict": v.status,
                "highest target": v.most if v.most is not None else "-",
                "bound": upper_bound(Config.of(inst)),
                "nodes": v.nodes,
                "published exhaustive moves": _MOVES.get(f.figure, "-"),
                "s": f"{v.seconds:.1f}",
            }
        )
    table(frows)
    say()
    say(f"Card-swap search (Klaver's frame, 40 candidates a step, explore 0.1, stall 20, seed {args.seed}),")
    say(f"{args.search:g} s per configuration:")
    say()
    srows = []
    for label, where in CONFIGS_MAXIMAL.items():
        scfg = Config.parse(label)
        l0 = _common.load()
        r = anneal(scfg, seed=args.seed, steps=10**9, seconds=args.search, check_seconds=10.0)
        srows.append(
            {
                "config": label,
                "thesis": f"maximal lost game found ({where})",
                "bound": r.bound,
                "start": r.start_most,
                "best": r.best_most,
                "maximal": r.maximal,
                "steps": r.steps,
                "searches": r.evaluations,
                "s": f"{r.seconds:.0f}",
                "load": f"{l0} -> {_common.load()}",
            }
        )
        if r.best is not None:
            print(describe(r.best.layout.tableau))
        if out and r.maximal and r.best is not None:
            src = {
                "study": "Klaver maximal lost game search (bench_klaver.py)",
                "seed": args.seed,
                "highest_target": r.best_most,
            }
            Instance(r.best.game, r.best.rules, r.best.layout, r.best.overrides, src).save(
                out / f"klaver-maximal-{label}.json"
            )
    table(srows)
    say()

    # 4. The standard deal --------------------------------------------------------------------------------
    say("## 4. The standard game (8-13-4-4): from Figure 30's 22-card lost deal")
    say()
    start = famous_instance(next(f for f in AMBIGUOUS if f.name == "fig30-a"))
    l0 = _common.load()
    r = anneal(Config(), start=start, seed=args.seed, steps=10**9, seconds=args.standard, check_seconds=10.0)
    statuses = ", ".join(f"{k} {v}" for k, v in sorted(r.statuses.items()))
    say(
        f"Published: best known lost deal 22 cards home (Figure 30); bound 39. Ours: start {r.start_most}, "
        f"best {r.best_most} after {r.steps} steps, {r.evaluations} complete searches ({statuses}), "
        f"{r.seconds:.0f} s, load {l0} -> {_common.load()}."
    )
    if r.best is not None and r.best_most > r.start_most:
        say()
        say("```")
        say(describe(r.best.layout.tableau))
        say("```")
        if out:
            src = {
                "study": "swap search from Klaver's Figure 30 (bench_klaver.py)",
                "seed": args.seed,
                "highest_target": r.best_most,
            }
            Instance(r.best.game, r.best.rules, r.best.layout, r.best.overrides, src).save(
                out / "klaver-standard-best.json"
            )
    say()

    # 5. The thesis's deals -----------------------------------------------------------------------------
    say("## 5. The thesis's deals: verdict, highest target, fewest free cells")
    say()
    here = _common.ROOT / "instances" / "freecell"
    claims = {"ms-11982": "unsolvable; solvable with one extra free cell"}
    drows = []
    for path in [*sorted(here.glob("klaver-*.json")), here / "ms-11982.json"]:
        inst = load_instance(path)
        t0 = time.perf_counter()
        v = highest_target(inst, seconds=max(args.limit, 600))
        cells = fewest_cells(inst, max_cells=10, seconds=max(args.limit, 600))
        src = inst.source or {}
        drows.append(
            {
                "deal": path.stem,
                "config": Config.of(inst).label,
                "thesis": src.get("claim", claims.get(path.stem, "-")),
                "verdict": v.status,
                "highest target": v.most if v.most is not None else "-",
                "fewest cells": cells.fewest if cells.fewest is not None else f">= {cells.at_least}",
                "s": f"{time.perf_counter() - t0:.1f}",
            }
        )
    table(drows)
    say()
    say(f"Finished: load {_common.load()}.")
    if out:
        _common.write_lines(out / "klaver.md", lines)
        print(f"wrote {out / 'klaver.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
