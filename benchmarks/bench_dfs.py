"""The dfs backend against black-hole-solver, and its verdicts on seeded deals of seven classic games.

Part 1 (hole games): PySol Black Hole and All in a Row deals 1..N, each solved by ``dfs`` in this
process (the validated :func:`patience.solvers.base.solve`, instance building included) and by the
``black-hole-solve`` C program as a subprocess on the same board (process start included), both with
a 10 s limit (``--max-iters`` large, the peer stopped by a timeout). Reported: verdict counts, unknowns,
agreement where both decide, total times and their ratio (dfs / peer). The peer runs with its
``--rank-reach-prune`` option unless ``--peer-plain``.

The one-hole search runs compiled by numba when it is installed (``--no-jit``: the pure-Python loop).
Its compile is reported apart from the deal times: the cold compile in a fresh process with an empty
cache (what the first run on a machine pays once), and the first call in this process (loading the
cached machine code). The deal totals exclude that first call; the ratio including a cold compile is
printed beside them.

Part 2 (generic search): seeded (portable generator) deals 1..M of FreeCell, Baker's Game, Klondike
(thoughtful), Thirty Six, Streets and Alleys, Canfield and Seahaven Towers at 10 s: solved / unsolvable /
unknown, median seconds, and the published win rate beside them.

    python benchmarks/bench_dfs.py                       # small: 30 hole deals, 5 deals a game
    python benchmarks/bench_dfs.py --hole 1000 --games 200 --limit 10
    python benchmarks/bench_dfs.py --skip-games          # hole games only
    python benchmarks/bench_dfs.py --skip-games --no-jit # the pure-Python fallback

Writes ``benchmarks/out/dfs_hole.csv``, ``dfs_games.csv`` (one row per deal) and ``dfs_summary.md``,
with the machine load (``os.getloadavg``) beside the figures.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from patience.deals import deal
from patience.formats import to_board_text
from patience.rules import load_game
from patience.solvers import dfs_hole, dfs_hole_jit
from patience.solvers.base import Limits, Status, solve

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "out"
BHS = ROOT / ".peers" / "bhs" / "black-hole-solve"
HOLE_GAMES = {"black-hole": "black_hole", "all-in-a-row": "all_in_a_row"}
GAMES = [
    "freecell",
    "bakers-game",
    "klondike-thoughtful",
    "thirty-six",
    "streets-and-alleys",
    "canfield",
    "seahaven-towers",
]
VERDICT = {Status.SOLVED: "W", Status.UNSOLVABLE: "L"}


def load() -> str:
    """The 1/5/15-minute load averages, for the record."""
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def peer(board: str, game: str, limit: float, plain: bool) -> tuple[str, float]:
    """black-hole-solve's verdict (W, L or ? for intractable/timeout) and wall seconds."""
    cmd = [str(BHS), "--game", game, "--max-iters", "1000000000"]
    if not plain:
        cmd.append("--rank-reach-prune")
    t0 = time.perf_counter()
    try:
        r = subprocess.run(cmd + ["-"], input=board, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return "?", time.perf_counter() - t0
    dt = time.perf_counter() - t0
    out = r.stdout
    return ("W" if "Solved!" in out else "L" if "Unsolved!" in out else "?"), dt


def jit_compile() -> tuple[str, float]:
    """Compile seconds of the kernel: cold (fresh process, empty cache dir) and first call here (cached)."""
    if not dfs_hole.USE_JIT:
        return "jit off (pure-Python loop)", 0.0
    code = "from patience.solvers.dfs_hole_jit import warm_up; print(warm_up())"
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=tmp)
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    cold = float(r.stdout.split()[-1])
    t0 = time.perf_counter()
    dfs_hole_jit.warm_up()  # compiles into the shared cache on the first run, else loads it
    first = time.perf_counter() - t0
    return f"numba kernel: cold compile {cold:.2f} s (once per machine), first call here {first:.2f} s", cold


def bench_hole(n: int, limit: float, plain: bool, rows: list[dict]) -> list[str]:
    note, cold = jit_compile()
    print(note, f"(load {load()})", flush=True)
    lines = [note]
    for game, peer_name in HOLE_GAMES.items():
        ours_t = theirs_t = 0.0
        counts = {"W": 0, "L": 0, "?": 0}
        peer_counts = {"W": 0, "L": 0, "?": 0}
        agree = disagree = 0
        slow = []
        load0 = load()
        for seed in range(1, n + 1):
            t0 = time.perf_counter()
            inst = deal(game, seed, "pysol")
            res = solve(inst, "dfs", Limits(seconds=limit))
            dt = time.perf_counter() - t0
            v = VERDICT.get(res.status, "?")
            pv, pdt = ("-", 0.0) if not BHS.exists() else peer(to_board_text(inst), peer_name, limit, plain)
            ours_t += dt
            theirs_t += pdt
            counts[v] += 1
            if pv in peer_counts:
                peer_counts[pv] += 1
            if v != "?" and pv in ("W", "L"):
                agree += v == pv
                disagree += v != pv
                if v != pv:
                    print(f"DISAGREE {game} {seed}: dfs {v} peer {pv}", flush=True)
            slow.append((dt, seed))
            rows.append(
                dict(
                    game=game,
                    seed=seed,
                    dfs=v,
                    dfs_s=round(dt, 4),
                    peer=pv,
                    peer_s=round(pdt, 4),
                    nodes=int(res.stats.get("nodes", 0)),
                    best=int(res.stats.get("best_foundation", 0)),
                )
            )
        slow.sort(reverse=True)
        ratio = ours_t / theirs_t if theirs_t else float("nan")
        line = (
            f"{game}: PySol deals 1-{n} at {limit:g} s: dfs {counts['W']} won / {counts['L']} lost / "
            f"{counts['?']} unknown in {ours_t:.1f} s{' (jit)' if dfs_hole.USE_JIT else ' (pure Python)'}; "
            "black-hole-solve"
            f"{' (plain)' if plain else ' --rank-reach-prune'} {peer_counts['W']} / {peer_counts['L']} / "
            f"{peer_counts['?']} in {theirs_t:.1f} s; ratio {ratio:.2f}"
            f"{f' ({(ours_t + cold) / theirs_t:.2f} with the cold compile)' if cold and theirs_t else ''}; "
            f"agreement {agree}/{agree + disagree}; "
            f"slowest dfs {[(s, round(t, 2)) for t, s in slow[:3]]}; load {load0} -> {load()}"
        )
        print(line, flush=True)
        lines.append(line)
    return lines


def bench_games(n: int, limit: float, rows: list[dict], games: list[str]) -> list[str]:
    lines = [
        "| game | deals | solved | unsolvable | unknown | median s | solved % | published win % |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for game in games:
        ref = load_game(game).file.reference.win_rate
        counts = {"W": 0, "L": 0, "?": 0}
        times = []
        load0 = load()
        for seed in range(1, n + 1):
            t0 = time.perf_counter()
            res = solve(deal(game, seed), "dfs", Limits(seconds=limit))
            dt = time.perf_counter() - t0
            if res.status is Status.ERROR:
                print(f"ERROR {game} {seed}: {res.message}", flush=True)
            v = VERDICT.get(res.status, "?")
            counts[v] += 1
            times.append(dt)
            rows.append(
                dict(
                    game=game,
                    seed=seed,
                    dfs=v,
                    dfs_s=round(dt, 4),
                    nodes=int(res.stats.get("nodes", 0)),
                    best=int(res.stats.get("best_foundation", 0)),
                )
            )
        line = (
            f"| {game} | {n} | {counts['W']} | {counts['L']} | {counts['?']} | "
            f"{statistics.median(times):.2f} | "
            f"{100 * counts['W'] / n:.1f} | {ref if ref is not None else '-'} |"
        )
        print(line, f"(load {load0} -> {load()})", flush=True)
        lines.append(line)
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hole", type=int, default=30, help="PySol deals 1..N of each hole game")
    ap.add_argument("--games", type=int, default=5, help="seeded deals 1..M of each classic game")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per deal and solver")
    ap.add_argument("--peer-plain", action="store_true", help="run black-hole-solve without rank pruning")
    ap.add_argument("--skip-hole", action="store_true")
    ap.add_argument("--skip-games", action="store_true")
    ap.add_argument("--no-jit", action="store_true", help="run the pure-Python hole search (numba off)")
    ap.add_argument("--only", default=",".join(GAMES), help="comma-separated classic games to run")
    ap.add_argument("--tag", default="", help="suffix of the output files (dfs_summary-TAG.md, ...)")
    args = ap.parse_args()
    if args.no_jit:
        dfs_hole.USE_JIT = False
    OUT.mkdir(parents=True, exist_ok=True)
    tag = f"-{args.tag}" if args.tag else ""
    summary = [
        f"# dfs benchmark ({time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load {load()})",
        "",
    ]
    if not args.skip_hole:
        if not BHS.exists():
            print("black-hole-solve not built (bash benchmarks/peers.sh bhs): timing dfs alone")
        rows: list[dict] = []
        summary += bench_hole(args.hole, args.limit, args.peer_plain, rows) + [""]
        _write(OUT / f"dfs_hole{tag}.csv", rows)
    if not args.skip_games:
        rows = []
        summary += bench_games(args.games, args.limit, rows, args.only.split(",")) + [""]
        _write(OUT / f"dfs_games{tag}.csv", rows)
    (OUT / f"dfs_summary{tag}.md").write_text("\n".join(summary) + "\n")


def _write(path: Path, rows: list[dict]) -> None:
    if not rows:
        return
    with path.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
