"""Time the cpsat backend on PySol Black Hole / All in a Row deals, against black-hole-solver.

Usage:
    .venv/bin/python benchmarks/bench_blackhole_cpsat.py [-n 50] [--limit 10]
        [--games black-hole,all-in-a-row] [--formulations table] [--presearch 200000] [--probe-after 3]
        [--first 1]

For each game: deals FIRST..FIRST+N-1 from the pysol generator, solved with cpsat at the time limit; solved /
unsolvable / unknown, median / p90 / max seconds, the win rate next to the published one. When
``.peers/bhs/black-hole-solve`` exists (benchmarks/peers.sh bhs) the same deals go to black-hole-solver:
time ratio and per-deal verdict agreement. ``--formulations table,circuit`` compares the two CP-SAT models.
Generalized decks and instance families: benchmarks/bench_hardness.py.
Everything printed is also written to benchmarks/out/blackhole_cpsat_<stamp>_<first>-<last>.txt
with the load average (the deal range in the name keeps parallel runs apart).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from patience import formats
from patience.deals import deal
from patience.rules import load_game
from patience.solvers.base import Limits
from patience.solvers.cpsat_blackhole import CpSatBlackHole

ROOT = Path(__file__).resolve().parents[1]
BHS = ROOT / ".peers" / "bhs" / "black-hole-solve"
OUT = ROOT / "benchmarks" / "out"
PRESEARCH = CpSatBlackHole().presearch_nodes  # the backend's default node budget
PEER_GAME = {"black-hole": "black_hole", "all-in-a-row": "all_in_a_row"}

lines: list[str] = []


def say(text: str = "") -> None:
    print(text, flush=True)
    lines.append(text)


def quantiles(xs: list[float]) -> str:
    if not xs:
        return "-"
    s = sorted(xs)
    p90 = s[min(len(s) - 1, int(0.9 * len(s)))]
    return f"median {statistics.median(s):.3f}s  p90 {p90:.3f}s  max {s[-1]:.3f}s  total {sum(s):.1f}s"


def run_bhs(inst, game: str, limit: float) -> tuple[str, float]:
    t = time.perf_counter()
    try:
        out = subprocess.run(
            [str(BHS), "--game", PEER_GAME[game], "-"],
            input=formats.to_board_text(inst),
            capture_output=True,
            text=True,
            timeout=limit,
        ).stdout
    except subprocess.TimeoutExpired:
        return "unknown", time.perf_counter() - t
    verdict = "solved" if "Solved!" in out else "unsolvable" if "Unsolved!" in out else "unknown"
    return verdict, time.perf_counter() - t


def bench_game(
    game: str, first: int, n: int, limit: float, formulation: str, presearch: int = PRESEARCH,
    probe_after: float | None = 3.0,
) -> dict:  # fmt: skip
    solver = CpSatBlackHole(formulation, max_cards=False, presearch_nodes=presearch, probe_after=probe_after)
    decided_by_dfs = 0
    counts = {"solved": 0, "unsolvable": 0, "unknown": 0, "error": 0}
    times, peer_times, disagree, per_deal = [], [], [], []
    have_peer = BHS.exists() and game in PEER_GAME
    for seed in range(first, first + n):
        inst = deal(game, seed, "pysol")
        t = time.perf_counter()
        r = solver.solve(inst, Limits(seconds=limit))
        dt = time.perf_counter() - t
        status = r.status.value
        by_dfs = "decided_by_presearch" in r.stats
        decided_by_dfs += by_dfs
        counts[status] = counts.get(status, 0) + 1
        times.append(dt)
        by = "presearch" if by_dfs else "cp-sat"
        row = {"seed": seed, "cpsat": status, "seconds": round(dt, 4), "by": by}
        if "presearch_lost" in r.stats:
            row["dfs"] = "unsolvable"  # the presearch ran to its end: the dfs search's own verdict
        if have_peer:
            pv, pt = run_bhs(inst, game, limit)
            peer_times.append(pt)
            row.update(bhs=pv, bhs_seconds=round(pt, 4))
            if "unknown" not in (pv, status) and pv != status:
                disagree.append(seed)
        per_deal.append(row)
    decided = counts["solved"] + counts["unsolvable"]
    ref = load_game(game).file.reference
    pre = f", presearch {presearch} nodes decided {decided_by_dfs}" if presearch else ", no presearch"
    pre += f", probing after {probe_after:g}s" if probe_after is not None else ", no probing stage"
    say(f"{game} [{formulation}{pre}], PySol deals {first}..{first + n - 1}, limit {limit:g}s:")
    say(f"  cpsat: solved {counts['solved']}, unsolvable {counts['unsolvable']}, unknown {counts['unknown']}"
        f", error {counts['error']};  {quantiles(times)}")  # fmt: skip
    checked = [r for r in per_deal if "dfs" in r]
    if checked:
        same = sum(r["cpsat"] == r["dfs"] for r in checked)
        say(f"  losses the complete presearch also proved: {len(checked)}; CP-SAT agrees on {same}")
    for what, pick in (("won", "solved"), ("lost", "unsolvable")):
        ts = [r["seconds"] for r in per_deal if r["cpsat"] == pick]
        mine = [r["seconds"] for r in per_deal if r["cpsat"] == pick and r["by"] == "cp-sat"]
        say(f"    {what}: {quantiles(ts)};  decided by CP-SAT itself {len(mine)}: {quantiles(mine)}")
    lo = counts["solved"] / n * 100
    hi = (counts["solved"] + counts["unknown"]) / n * 100
    say(f"  win rate {lo:.1f}%" + (f" (up to {hi:.1f}% with unknowns)" if hi > lo else "")
        + f"; published {ref.win_rate}% ({ref.source.split(',')[0]})")  # fmt: skip
    if have_peer:
        both = [r for r in per_deal if r["bhs"] != "unknown" and r["cpsat"] != "unknown"]
        agree = sum(r["bhs"] == r["cpsat"] for r in both)
        ratio = sum(times) / max(sum(peer_times), 1e-9)
        med = statistics.median(times) / max(statistics.median(peer_times), 1e-9)
        say(f"  black-hole-solver: {quantiles(peer_times)}")
        say(f"  verdict agreement {agree}/{len(both)} decided by both"
            f"{' (disagree: ' + str(disagree) + ')' if disagree else ''};  time ratio cpsat/bhs {ratio:.1f}x"
            f" (medians {med:.1f}x)")  # fmt: skip
    else:
        say("  black-hole-solver: not built (benchmarks/peers.sh bhs), no peer comparison")
    return {"game": game, "formulation": formulation, "counts": counts, "decided": decided, "deals": per_deal}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=50, help="deals per game (1000 for the full run)")
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--games", default="black-hole,all-in-a-row")
    ap.add_argument("--formulations", default="auto")
    ap.add_argument("--presearch", type=int, default=PRESEARCH, help="DFS nodes before CP-SAT (0: none)")
    ap.add_argument("--probe-after", type=float, default=3.0,
                    help="seconds before the probing CP-SAT stage (<= 0: none)")  # fmt: skip
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d_%H%M%S") + f"_{args.first}-{args.first + args.n - 1}"
    say(f"# bench_blackhole_cpsat {' '.join(sys.argv[1:])}")
    say(f"# {time.ctime()}, {os.cpu_count()} cpus, load average at start {os.getloadavg()}")
    results = []
    for game in filter(None, args.games.split(",")):
        for form in args.formulations.split(","):
            probe = args.probe_after if args.probe_after > 0 else None
            results.append(bench_game(game, args.first, args.n, args.limit, form, args.presearch, probe))
    say(f"# load average at end {os.getloadavg()}")
    (OUT / f"blackhole_cpsat_{stamp}.txt").write_text("\n".join(lines) + "\n")
    (OUT / f"blackhole_cpsat_{stamp}.json").write_text(json.dumps({"games": results}))


if __name__ == "__main__":
    main()
