"""Estimate at scale: wall time with 1 and 2 workers, and a kill -9 in the middle of a run, then resume.

Runs ``patience estimate`` as a subprocess (the way users run it) on fresh SQLite stores:

1. scaling: the same N seeded deals with ``--workers 1`` and ``--workers 2``: wall time, speed-up, the
   conservative Wilson 95% interval and whether it contains the published rate (Black Hole: 86.944%);
2. crash: the same job, ``kill -9`` of the whole process group once about half the deals are stored,
   then the same command again: finished results lost (stored before the kill and missing after; target 0),
   deals stored before the kill, and the total wall time (killed run + resume) against the uninterrupted one.

    python benchmarks/bench_estimate.py                  # small: 200 deals
    python benchmarks/bench_estimate.py --game black-hole --backend dfs -n 2000 --limit 10s
    python benchmarks/bench_estimate.py --skip-scaling -n 2000 --crash-workers 2

The stores go to a temporary folder, removed at the end (``--keep DIR`` keeps them there); nothing is
written under benchmarks/. Report ``uptime`` beside the figures: the machine is shared.

Measured (2 cores shared with other engineers' runs, load 3.5-6; dfs backend at bb06e07, portable seeds
from 1, ``--limit 2s``). Wall-time limits under load turn slow deals into unknowns, which widen the interval:

* 1000 deals: 1 worker 101.3 s (17 unknown), 2 workers 80.7 s (30 unknown): speed-up 1.26x at load ~4
  (a second core is not free here); both intervals contain 86.944% ([82.864, 88.851], [81.492, 88.851]).
* 10,000 deals, 2 workers (2000 then resumed to 10,000): 146 s + 618 s; 8383 solved, 1303 unsolvable,
  314 unknown; conservative 95% [83.095%, 87.616%] contains 86.944% (decided deals: 86.55%).
* 2000 deals, kill -9 of the process group with 1010 stored, then resume: 0 finished results lost, 2000
  rows, 70.4 s + 81.0 s = 151.3 s against 130.5 s uninterrupted (1.16x).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _common

from patience.experiments.stats import estimate as _estimate

PATIENCE = [str(Path(sys.executable).parent / "patience")]  # the console script beside this python


def estimate(args: argparse.Namespace, db: Path, workers: int) -> list[str]:
    cmd = [*PATIENCE, "estimate", args.game, "-n", str(args.n), "--seed", str(args.seed)]
    cmd += ["--backend", args.backend, "--limit", args.limit, "--workers", str(workers), "--db", str(db)]
    cmd += ["--generator", args.generator, "--json", "-q"]
    for s in args.set:
        cmd += ["--set", s]
    return cmd


def run(cmd: list[str]) -> tuple[dict, float]:
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if out.returncode != 0:
        sys.exit(f"failed ({out.returncode}): {' '.join(cmd)}\n{out.stderr}")
    return json.loads(out.stdout), wall


def stored(db: Path) -> dict[int, tuple]:
    if not db.exists():
        return {}
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        return {r[0]: r[1:] for r in con.execute("SELECT seed, status, finished FROM results")}
    except sqlite3.OperationalError:
        return {}
    finally:
        con.close()


def main() -> None:
    ap = _common.Parser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="black-hole")
    ap.add_argument("--backend", default="auto")
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", default="10s")
    ap.add_argument("--generator", default="portable")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--workers", default="1,2", help="worker counts for the scaling runs")
    ap.add_argument("--crash-workers", type=int, default=2)
    ap.add_argument("--kill-at", type=float, default=0.5, help="kill once this fraction is stored")
    ap.add_argument("--skip-scaling", action="store_true")
    ap.add_argument("--skip-crash", action="store_true")
    ap.add_argument("--keep", help="keep the stores in this folder")
    args = ap.parse_args()
    if args.n < 2 or args.crash_workers < 1 or not 0 < args.kill_at < 1:
        ap.error("-n must be >= 2, --crash-workers >= 1 and --kill-at between 0 and 1")
    if args.keep:
        Path(args.keep).mkdir(parents=True, exist_ok=True)
        bench(args, Path(args.keep))
    else:
        with tempfile.TemporaryDirectory(prefix="bench-estimate-") as tmp:
            bench(args, Path(tmp))


def rate_text(wins: int, losses: int, unknowns: int) -> str:
    """The win rate as every patience command prints it (``86.7% (95% CI 70.3-94.7%)``)."""
    return _estimate(wins, losses, unknowns).text()


def bench(args: argparse.Namespace, tmp: Path) -> None:
    """The scaling runs and the crash run, with their stores in ``tmp``."""
    report: dict = {"game": args.game, "backend": args.backend, "n": args.n, "limit": args.limit}

    walls: dict[int, float] = {}
    if not args.skip_scaling:
        for k in (int(w) for w in args.workers.split(",")):
            load = _common.load()
            out, wall = run(estimate(args, tmp / f"scale-{k}.sqlite", k))
            walls[k] = wall
            print(
                f"workers {k}: {wall:.1f}s wall ({args.n / wall:.1f} deals/s), counts {out['counts']}, "
                f"win rate {rate_text(out['solved'], out['unsolvable'], out['unknown'])}, "
                f"published {out.get('reference_percent')}% "
                f"inside={out.get('reference_inside')}, p50 {out['seconds'].get('p50', 0):.3f}s, "
                f"max {out['seconds'].get('max', 0):.2f}s; load before {load}",
                flush=True,
            )
            report[f"workers_{k}"] = {
                "wall": wall,
                **{x: out[x] for x in ("counts", "interval_percent", "seconds")},
            }
            report["reference_inside"] = out.get("reference_inside")
        if 1 in walls and 2 in walls:
            print(f"speed-up 1 -> 2 workers: {walls[1] / walls[2]:.2f}x")
            report["speedup_2"] = walls[1] / walls[2]

    if not args.skip_crash:
        k = args.crash_workers
        base = walls.get(k)
        if base is None:
            _, base = run(estimate(args, tmp / "uninterrupted.sqlite", k))
        db = tmp / "crash.sqlite"
        cmd = estimate(args, db, k)
        load = _common.load()
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
        )
        while len(stored(db)) < args.kill_at * args.n:
            if proc.poll() is not None:
                sys.exit("the run finished before the kill; raise -n")
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        killed_wall = time.perf_counter() - t0
        before = stored(db)
        out, resume_wall = run(cmd)
        after = stored(db)
        lost = sum(1 for s, v in before.items() if after.get(s) != v)
        total = killed_wall + resume_wall
        print(
            f"kill -9 after {killed_wall:.1f}s with {len(before)}/{args.n} stored; resume {resume_wall:.1f}s "
            f"solved {out['new']}; finished results lost: {lost}; rows {len(after)} (n={args.n}); "
            f"total {total:.1f}s vs uninterrupted {base:.1f}s ({total / base:.2f}x); load before {load}"
        )
        report["crash"] = {
            "stored_before_kill": len(before),
            "lost": lost,
            "rows_after": len(after),
            "killed_wall": killed_wall,
            "resume_wall": resume_wall,
            "uninterrupted_wall": base,
        }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
