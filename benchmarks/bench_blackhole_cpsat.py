"""Time the cpsat backend on PySol Black Hole / All in a Row deals, against black-hole-solver.

Usage:
    .venv/bin/python benchmarks/bench_blackhole_cpsat.py [-n 20] [--limit 10]
        [--games black-hole,all-in-a-row] [--formulations table] [--presearch 200000] [--probe-after 3]
        [--first 1] [--out [DIR]]

For each game: deals FIRST..FIRST+N-1 from the pysol generator, solved with cpsat at the time limit; solved /
unsolvable / unknown, median / p90 / max seconds, the win rate next to the published one. When
``.peers/bhs/black-hole-solve`` exists (benchmarks/peers.sh bhs) the same deals go to black-hole-solver:
time ratio and per-deal verdict agreement (black-hole-solve as a plain run, no --rank-reach-prune, in the
same loop as cpsat so both see the same load). ``--formulations table,circuit`` compares the two CP-SAT
models. Generalized decks and instance families: benchmarks/bench_hardness.py.
With ``--out [DIR]`` everything printed is also written to DIR/blackhole_cpsat_<stamp>_<first>-<last>.txt
(and the per-deal rows to .json; DIR defaults to benchmarks/out), with the load average (the deal range in
the name keeps parallel runs apart).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import _common
from _common import HOLE_GAMES, spread

from patience import formats
from patience.deals import deal
from patience.experiments.stats import estimate
from patience.rules import load_game
from patience.solvers.base import Limits, get_solver

lines: list[str] = []
STATUS = {"W": "solved", "L": "unsolvable", "?": "unknown"}  # the peer's letters as our status names


def say(text: str = "") -> None:
    print(text, flush=True)
    lines.append(text)


def bench_game(
    game: str, first: int, n: int, limit: float, formulation: str, presearch: int | None = None,
    probe_after: float | None = 3.0,
) -> dict:  # fmt: skip
    """cpsat (and black-hole-solve, when built) on PySol deals first..first+n-1 of ``game``."""
    opts = {} if presearch is None else {"presearch_nodes": presearch}
    solver = get_solver("cpsat", formulation=formulation, max_cards=False, probe_after=probe_after, **opts)
    presearch = solver.options.presearch_nodes
    decided_by_dfs = 0
    counts = {"solved": 0, "unsolvable": 0, "unknown": 0, "error": 0}
    times, peer_times, disagree, per_deal = [], [], [], []
    have_peer = _common.bhs_available() and game in HOLE_GAMES
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
            board = formats.to_board_text(inst)
            letter, pt = _common.bhs_solve(board, HOLE_GAMES[game], limit, prune=False, max_iters=None)
            pv = STATUS[letter]
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
        f", error {counts['error']};  {spread(times)}")  # fmt: skip
    checked = [r for r in per_deal if "dfs" in r]
    if checked:
        same = sum(r["cpsat"] == r["dfs"] for r in checked)
        say(f"  losses the complete presearch also proved: {len(checked)}; CP-SAT agrees on {same}")
    for what, pick in (("won", "solved"), ("lost", "unsolvable")):
        ts = [r["seconds"] for r in per_deal if r["cpsat"] == pick]
        mine = [r["seconds"] for r in per_deal if r["cpsat"] == pick and r["by"] == "cp-sat"]
        say(f"    {what}: {spread(ts)};  decided by CP-SAT itself {len(mine)}: {spread(mine)}")
    est = estimate(counts["solved"], counts["unsolvable"], n - decided)
    say(f"  win rate {est.text(1)} (conservative 95%, unknowns counted both ways)"
        + f"; published {ref.win_rate}% ({ref.source.split(',')[0]})")  # fmt: skip
    if have_peer:
        both = [r for r in per_deal if r["bhs"] != "unknown" and r["cpsat"] != "unknown"]
        agree = sum(r["bhs"] == r["cpsat"] for r in both)
        ratio = sum(times) / max(sum(peer_times), 1e-9)
        med = statistics.median(times) / max(statistics.median(peer_times), 1e-9)
        say(f"  black-hole-solver: {spread(peer_times)}")
        say(f"  verdict agreement {agree}/{len(both)} decided by both"
            f"{' (disagree: ' + str(disagree) + ')' if disagree else ''};  time ratio cpsat/bhs {ratio:.1f}x"
            f" (medians {med:.1f}x)")  # fmt: skip
    else:
        say("  black-hole-solver: not built (benchmarks/peers.sh bhs), no peer comparison")
    return {"game": game, "formulation": formulation, "counts": counts, "decided": decided, "deals": per_deal}


def main() -> None:
    ap = _common.Parser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=20, help="deals per game (1000 for the full run)")
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--games", default="black-hole,all-in-a-row")
    ap.add_argument("--formulations", default="auto")
    ap.add_argument("--presearch", type=int, default=None,
                    help="DFS nodes before CP-SAT (0: none; default: the backend's own)")  # fmt: skip
    ap.add_argument("--probe-after", type=float, default=3.0,
                    help="seconds before the probing CP-SAT stage (<= 0: none)")  # fmt: skip
    _common.add_out(ap, "blackhole_cpsat_<stamp>_<first>-<last>.txt and .json")
    args = ap.parse_args()
    if args.n < 1 or args.first < 1 or args.limit <= 0:
        ap.error("-n and --first must be >= 1 and --limit > 0")
    stamp = time.strftime("%Y%m%d_%H%M%S") + f"_{args.first}-{args.first + args.n - 1}"
    say(f"# bench_blackhole_cpsat {' '.join(sys.argv[1:])}")
    say(f"# {_common.machine()} at start")
    results = []
    for game in filter(None, args.games.split(",")):
        for form in args.formulations.split(","):
            probe = args.probe_after if args.probe_after > 0 else None
            results.append(bench_game(game, args.first, args.n, args.limit, form, args.presearch, probe))
    say(f"# load at end {_common.load()}")
    out = _common.out_dir(args)
    if out:
        _common.write_lines(out / f"blackhole_cpsat_{stamp}.txt", lines)
        (out / f"blackhole_cpsat_{stamp}.json").write_text(json.dumps({"games": results}))
        print(f"wrote {out}/blackhole_cpsat_{stamp}.*")


if __name__ == "__main__":
    main()
