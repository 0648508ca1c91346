"""Gaps: basic-variant win rate with cross-validated verdicts, and a scaling study of the backends.

Part 1 (study): seeded (portable generator) Gaps basic-variant deals 1..N, each solved in this process by
every backend asked for (the validated :func:`patience.solvers.base.solve`, instance building included)
and by Solvitaire (``.peers/solvitaire/bin/solvitaire --type gaps-basic-variant``, built by
``benchmarks/peers.sh``) on the same deal written as its JSON, process start included. Reported: the win
rate with a conservative 95% interval (unknowns counted both ways) next to Blake & Gent's 24.918%, unknowns
per backend, median and p90 seconds, and the per-deal agreement of every pair that both decide.

Part 1 keeps its own loop: every solver, Solvitaire included, takes the same deal in turn, and the CSV is
rewritten after each deal so a run can resume.

Part 2 (scaling, ``--scaling``): generalized basic-variant deals, S rows x R ranks, a few seeds per point,
solve time of each backend (its own solve seconds, batches of :mod:`patience.experiments.runner` tasks);
table and plot.

    python benchmarks/bench_gaps.py                                  # 10 deals, dfs + cpsat + Solvitaire
    python benchmarks/bench_gaps.py --deals 500 --limit 30 --cpsat-deals 100 --out
    python benchmarks/bench_gaps.py --skip-study --scaling --seeds 3

Prints the tables; with ``--out [DIR]`` (default benchmarks/out) also writes ``gaps_basic.csv`` there (a row
per deal, rewritten as it goes; ``--resume`` skips deals already there), ``gaps_scaling.csv``,
``gaps_scaling.png`` and ``gaps_summary.md``, with the machine load.
"""

from __future__ import annotations

import csv
import time
from pathlib import Path

import _common
import _solvitaire
from _common import load

from patience.deals import deal
from patience.experiments.stats import estimate, percentiles
from patience.formats import to_solvitaire
from patience.instance import Instance
from patience.rules import load_game
from patience.solvers.base import Limits, Status, solve

GAME = "gaps-basic-variant"
PEER = "solvitaire"


def peer(inst: Instance, limit: float) -> tuple[str, float]:
    """Solvitaire's verdict on ``inst`` (W, L, or ? on timeout/other) and its wall seconds."""
    return _solvitaire.classify_deal(GAME, to_solvitaire(inst), limit)


def run_backend(inst: Instance, backend: str, limit: float) -> tuple[str, float]:
    """Our verdict and wall seconds (deal building excluded, validation included)."""
    t0 = time.perf_counter()
    res = solve(inst, backend, Limits(seconds=limit))
    if res.status not in (Status.SOLVED, Status.UNSOLVABLE, Status.UNKNOWN):
        raise SystemExit(f"{backend} on {inst.game}: {res.status.value} {res.message}")
    return _common.verdict(res.status), time.perf_counter() - t0


def study(
    n: int, limit: float, backends: list[str], cpsat_deals: int, resume: bool, path: Path | None,
    peer_on: bool,
) -> list[str]:  # fmt: skip
    """Solve deals 1..n with every backend (non-dfs ones on 1..cpsat_deals only) and the peer.

    With ``resume`` the rows already in gaps_basic.csv are kept and only missing backend columns are run,
    so a later run can add a backend to an earlier study. The CSV (``path``; None: none) is rewritten
    after every deal.
    """
    names = backends + ([PEER] if peer_on and _solvitaire.available() else [])
    done: dict[int, dict] = {}
    if resume and path and path.exists():
        with path.open() as f:
            done = {int(r["seed"]): r for r in csv.DictReader(f)}
    old = [k for r in done.values() for k in r if k != "seed" and not k.endswith("_s")]
    names = list(dict.fromkeys(names + old))
    fields = ["seed"] + [x for b in names for x in (b, f"{b}_s")]
    load0 = load()
    for seed in range(1, n + 1):
        row = done.setdefault(seed, {"seed": seed})
        todo = [b for b in names if row.get(b) in (None, "", "-")]
        todo = [b for b in todo if b in (PEER, "dfs") or (b in backends and seed <= cpsat_deals)]
        if not todo:
            continue
        inst = deal(GAME, seed)
        for b in todo:
            v, dt = peer(inst, limit) if b == PEER else run_backend(inst, b, limit)
            row[b], row[f"{b}_s"] = v, round(dt, 4)
        if path:
            _common.write_csv(path, [done[s] for s in sorted(done)], fields)
        print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)
    rows = [{k: done[s].get(k, "-") or "-" for k in fields} for s in range(1, n + 1)]
    return summarize(rows, names, limit, load0)


def summarize(rows: list[dict], names: list[str], limit: float, load0: str) -> list[str]:
    ref = load_game(GAME).file.reference
    lines = [
        f"## Gaps basic variant, portable deals 1-{len(rows)}, {limit:g} s limit (load {load0} -> {load()})",
        "",
        "| backend | deals run | won | lost | unknown | median s | p90 s | max s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for b in names:
        ran = [r for r in rows if r[b] != "-"]
        times = [float(r[f"{b}_s"]) for r in ran]
        p = percentiles(times, (50, 90, 100))
        c = {v: sum(r[b] == v for r in ran) for v in "WL?"}
        lines.append(
            f"| {b} | {len(ran)} | {c['W']} | {c['L']} | {c['?']} | {p.get('p50', 0):.3f} | "
            f"{p.get('p90', 0):.3f} | {p.get('max', 0):.3f} |"
        )
    # One verdict per deal: any decider (they must agree; disagreements are listed and fail the run).
    wins = losses = unknown = 0
    disagree = []
    for r in rows:
        said = {r[b] for b in names if r[b] in ("W", "L")}
        if len(said) > 1:
            disagree.append(r["seed"])
        wins += said == {"W"}
        losses += said == {"L"}
        unknown += not said
    est = estimate(wins, losses, unknown)
    lines += ["", "| pair | both decided | agree |", "|---|---|---|"]
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            both = [r for r in rows if r[a] in ("W", "L") and r[b] in ("W", "L")]
            lines.append(f"| {a} vs {b} | {len(both)} | {sum(r[a] == r[b] for r in both)} |")
    lines += [
        "",
        f"Win rate: {wins} won / {losses} lost / {unknown} undecided by every backend: {est.text(2)} "
        f"(conservative 95%: unknowns counted both ways); published {ref.win_rate}% +- {ref.interval} "
        f"({ref.source}); contains it: {est.contains(ref.win_rate)}.",
        f"Disagreements: {disagree or 'none'}",
    ]
    for ln in lines:
        print(ln, flush=True)
    return lines


def scaling(seeds: int, limit: float, backends: list[str], out: Path | None, workers: int = 0) -> list[str]:
    """Each backend on seeds 1..seeds of every S x R point (runner tasks); unsupported points skipped."""
    points = [(2, 4), (2, 6), (3, 4), (3, 6), (4, 4), (4, 5), (4, 6), (4, 7), (4, 8), (4, 10), (4, 13)]
    rows = []
    load0 = load()
    for s, r in points:
        for b in backends:
            todo = _common.tasks(GAME, range(1, seeds + 1), b, limit, "portable", {"suits": s, "ranks": r})
            for res in _common.solve_all(todo, workers):
                if res.status == "unsupported":
                    continue
                if res.status == "error":
                    raise SystemExit(f"{b} on {GAME} {s} x {r} seed {res.seed}: error {res.message}")
                v, dt = _common.verdict(res.status), res.seconds or 0.0
                row = dict(suits=s, ranks=r, cards=s * (r - 1), seed=res.seed, backend=b, verdict=v, s=dt)
                rows.append(row)
                print(row, flush=True)
    if out:
        _common.write_csv(out / "gaps_scaling.csv", rows)
    lines = [
        f"## Scaling: basic variant S x R, seeds 1-{seeds}, {limit:g} s limit (load {load0} -> {load()})",
        "",
        "| S x R | cards | " + " | ".join(f"{b} median s | {b} undecided" for b in backends) + " |",
        "|---|---|" + "---|---|" * len(backends),
    ]
    for s, r in points:
        cells = []
        for b in backends:
            sel = [x for x in rows if (x["suits"], x["ranks"], x["backend"]) == (s, r, b)]
            med = percentiles([x["s"] for x in sel], (50,)).get("p50", float("nan"))
            cells.append(f"{med:.3f} | {sum(x['verdict'] == '?' for x in sel)}/{len(sel)}")
        lines.append(f"| {s} x {r} | {s * (r - 1)} | " + " | ".join(cells) + " |")
    if out:
        plot(out, rows, backends, limit)
    for ln in lines:
        print(ln, flush=True)
    return lines


def plot(out: Path, rows: list[dict], backends: list[str], limit: float) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for b in backends:
        sel = [x for x in rows if x["backend"] == b]
        ax.scatter([x["cards"] for x in sel], [x["s"] for x in sel], label=b, alpha=0.6, s=14)
    ax.axhline(limit, color="grey", lw=0.8, ls="--", label="limit")
    ax.set_yscale("log")
    ax.set_xlabel("cards in the grid, S x (R-1)")
    ax.set_ylabel("seconds (validated solve)")
    ax.set_title("Gaps basic variant: solve time against deck size")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "gaps_scaling.png", dpi=120)


def main() -> None:
    ap = _common.Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--limit", type=float, default=30.0, help="seconds per deal and backend")
    ap.add_argument("--backends", default="dfs,cpsat-gaps", help="comma-separated backends of ours")
    ap.add_argument("--cpsat-deals", type=int, default=10**9, help="run non-dfs backends on deals 1..K only")
    ap.add_argument("--resume", action="store_true", help="keep the deals already in the CSV (needs --out)")
    ap.add_argument("--csv", default="gaps_basic.csv", help="per-deal file name in the --out folder")
    ap.add_argument("--no-peer", action="store_true", help="do not run Solvitaire")
    ap.add_argument("--skip-study", action="store_true")
    ap.add_argument("--scaling", action="store_true")
    ap.add_argument("--seeds", type=int, default=3, help="deals per scaling point")
    ap.add_argument("--scaling-limit", type=float, default=10.0)
    ap.add_argument("--workers", type=int, default=0, help="processes for the scaling study (0: this one)")
    _common.add_out(ap, "gaps_basic.csv (--csv), gaps_scaling.csv/.png and gaps_summary.md")
    args = ap.parse_args()
    if args.deals < 1 or args.seeds < 1 or args.limit <= 0 or args.scaling_limit <= 0 or args.workers < 0:
        ap.error("--deals and --seeds must be >= 1, the limits > 0 and --workers >= 0")
    if args.resume and args.out is None:
        ap.error("--resume needs --out (the folder holding the CSV to resume)")
    out = _common.out_dir(args)
    backends = [b for b in args.backends.split(",") if b]
    lines: list[str] = []
    if not args.skip_study:
        path = out / args.csv if out else None
        peer_on = not args.no_peer
        lines += study(args.deals, args.limit, backends, args.cpsat_deals, args.resume, path, peer_on)
    if args.scaling:
        lines += [""] + scaling(args.seeds, args.scaling_limit, backends, out, args.workers)
    summary = "gaps_summary.md" if args.csv == "gaps_basic.csv" else Path(args.csv).with_suffix(".md").name
    if out:
        _common.write_lines(out / summary, lines)
        print(f"wrote {out}/{summary}")


if __name__ == "__main__":
    main()
