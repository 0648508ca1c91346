"""Nodes each of dfs-jit's two phases needs per deal, and the streamlined share they argue for (issue 15).

dfs-jit runs a streamlined phase (colour streamliner, same-suit stay: it can only win) with a share of the
budget, then the complete search with the rest. Counted in nodes rather than seconds, a deal's verdict does
not depend on the machine's load, so a share can be scored offline: per deal, this script records

* ``s_nodes``: nodes the streamlined phase alone takes to win (None: no win within ``--cap``);
  ``s_exhausted``: the nodes of its restricted space when it searched that out without a win;
* ``c_nodes``: nodes the complete search alone takes to decide (None: undecided within ``--cap``),

and ``--score`` then counts, for a stage budget of B nodes and each share s, the deals decided: a win by the
streamlined phase within s*B, else a verdict by the complete search within what the streamlined phase left
(B minus the nodes it used). Solvitaire's seeds (``-g solvitaire``), as bench_crosscheck deals them.

    python benchmarks/dfs_jit_phase_nodes.py --games northwest-territory,canfield -n 50 --log L.jsonl
    python benchmarks/dfs_jit_phase_nodes.py --log L.jsonl --score --budget 3e6
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from _common import Parser

from patience.deals import deal
from patience.engine import Engine
from patience.solvers.base import Limits
from patience.solvers.dfs_jit import KERNELS, DfsJitOptions, _phases


def measure(game: str, seed: int, cap: int) -> dict[str, Any]:
    """Both phases alone on one deal, each capped at ``cap`` nodes (no time limit binds)."""
    engine = Engine(deal(game, seed, "solvitaire"))
    row: dict[str, Any] = {"game": game, "seed": seed, "cap": cap}
    if engine.is_won():
        return {**row, "s_nodes": 0, "s_exhausted": None, "c_nodes": 0, "c_verdict": "W"}
    t = time.perf_counter()
    # The streamlined phase alone: share ~1 of a node budget; the complete phase after it gets ~0 nodes.
    outs = _phases(engine, DfsJitOptions(streamline_share=0.999999), t, Limits(seconds=600, nodes=cap))
    s = outs[0]
    row["s_nodes"] = int(s["nodes"]) if s["won"] else None
    row["s_exhausted"] = int(s["nodes"]) if s["complete"] else None  # its restricted space, searched out
    row["s_seconds"] = round(time.perf_counter() - t, 3)
    t = time.perf_counter()
    outs = _phases(engine, DfsJitOptions(streamline_share=0.0), t, Limits(seconds=600, nodes=cap))
    c = outs[-1]
    decided = c["won"] or c["complete"]
    row["c_nodes"] = int(c["nodes"]) if decided else None
    row["c_verdict"] = "W" if c["won"] else "L" if c["complete"] else "?"
    row["c_seconds"] = round(time.perf_counter() - t, 3)
    return row


def decided(row: dict[str, Any], budget: float, share: float) -> bool:
    """Whether dfs-jit with a node budget ``budget`` and streamlined ``share`` decides the deal of ``row``."""
    s_cap = budget * share
    if share > 0 and row["s_nodes"] is not None and row["s_nodes"] <= s_cap:
        return True
    used = 0.0
    if share > 0:
        used = s_cap if row["s_exhausted"] is None else min(s_cap, row["s_exhausted"])
    return row["c_nodes"] is not None and row["c_nodes"] <= budget - used


def score(rows: list[dict[str, Any]], budget: float, shares: list[float]) -> None:
    """Print decided counts per game and share (rows whose caps are below the budget are flagged)."""
    games = sorted({r["game"] for r in rows})
    print(f"budget {budget:.3g} nodes; decided of each game's deals, by streamlined share")
    print("| game | deals | " + " | ".join(f"s={s:g}" for s in shares) + " |")
    print("|---|---|" + "---|" * len(shares))
    totals = [0] * len(shares)
    for g in games:
        rs = [r for r in rows if r["game"] == g]
        counts = [sum(decided(r, budget, s) for r in rs) for s in shares]
        totals = [a + b for a, b in zip(totals, counts, strict=True)]
        print(f"| {g} | {len(rs)} | " + " | ".join(map(str, counts)) + " |")
    print("| total | " + str(len(rows)) + " | " + " | ".join(map(str, totals)) + " |")
    short = [r for r in rows if r["cap"] < budget]
    if short:
        print(f"warning: {len(short)} rows were measured with a cap below the budget")


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="")
    ap.add_argument("-n", type=int, default=50)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--cap", type=float, default=4e6, help="nodes per phase per deal")
    ap.add_argument("--log", type=Path, required=True)
    ap.add_argument("--score", action="store_true")
    ap.add_argument("--budget", type=float, default=3e6)
    ap.add_argument("--shares", default="0,0.05,0.1,0.2,0.3,0.4,0.5")
    a = ap.parse_args()
    shares = [float(s) for s in a.shares.split(",")]
    if a.cap <= 0 or a.budget <= 0 or a.n < 1 or not all(0 <= s < 1 for s in shares):
        ap.error("--cap, --budget and -n must be positive and every share in [0, 1)")
    if not a.score and not a.games:
        ap.error("--games: name at least one game to measure (or --score a log)")
    rows = [json.loads(line) for line in a.log.read_text().splitlines()] if a.log.exists() else []
    if a.score:
        score(rows, a.budget, shares)
        return
    done = {(r["game"], r["seed"]) for r in rows if r["cap"] >= a.cap}
    KERNELS.warm(True)
    with a.log.open("a") as log:
        for game in a.games.split(","):
            for seed in range(a.first, a.first + a.n):
                if (game, seed) in done:
                    continue
                row = measure(game, seed, int(a.cap))
                log.write(json.dumps(row) + "\n")
                log.flush()
                print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
