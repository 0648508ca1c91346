"""dfs-jit's wins before and after the line shortener (issue 15; ``generic_kernel/shorten.py``).

Per deal (Solvitaire's seeds, as bench_crosscheck deals them): ``dfs-jit`` with ``shorten=False`` (the
search's path) and with the shortener (the default), each through
:meth:`patience.solvers.base.Backend.solve`, which
replays every win through the validator, so the wall times include the JSON and the replay a long line costs;
and ``planning-jit``'s line on the same deal as the reference for a short line. Deals dfs-jit does not win
are listed but not rerun. ``raw_path`` is the first run's path, ``path`` the second run's before shortening:
the streamlined phase's share of the limit is time, so under load the two runs can find different wins.

    python benchmarks/bench_shorten.py --games freecell,stronghold -n 10 --limit 10 --out
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from _common import Parser, add_out, commit, load, machine, md_table, out_dir, write_csv, write_lines

from patience.deals import deal
from patience.solvers.base import Limits, Status, get_solver

GAMES = (
    "freecell,beleaguered-castle,streets-and-alleys,stronghold,king-albert,fan,canfield,klondike-thoughtful"
)


def timed(inst: Any, backend: Any, limits: Limits) -> tuple[Any, float]:
    """``backend.solve`` (validated) and its wall time."""
    t = time.perf_counter()
    r = backend.solve(inst, limits)
    return r, time.perf_counter() - t


def row(game: str, seed: int, limit: float) -> dict[str, Any]:
    """One deal: the path, the shortened line and planning-jit's line, with wall times."""
    inst = deal(game, seed, "solvitaire")
    limits = Limits(seconds=limit)
    raw, t_raw = timed(inst, get_solver("dfs-jit", shorten=False), limits)
    out: dict[str, Any] = {"game": game, "seed": seed, "verdict": raw.status.value}
    if raw.status is not Status.SOLVED:
        return out
    short, t_short = timed(inst, get_solver("dfs-jit"), limits)
    assert short.status is Status.SOLVED, (game, seed, short.message)
    plan, t_plan = timed(inst, get_solver("planning-jit"), limits)
    return {
        **out,
        "raw_path": len(raw.solution),
        "path": int(short.stats["path_moves"]),  # the shortened run's own path (time shares may change it)
        "shortened": len(short.solution),
        "planning_jit": len(plan.solution) if plan.status is Status.SOLVED else "-",
        "s_path": round(t_raw, 2),
        "s_shortened": round(t_short, 2),
        "shorten_s": round(short.stats["shorten_s"], 3),
        "s_planning_jit": round(t_plan, 2),
    }


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=GAMES, help="comma-separated games with a Solvitaire preset")
    ap.add_argument("-n", type=int, default=10, help="seeds 1..n of each game")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds a solve")
    add_out(ap, "bench_shorten.md and .csv")
    args = ap.parse_args()
    if args.n < 1 or args.limit <= 0:
        ap.error("-n and --limit must be positive")
    get_solver("dfs-jit").solve(deal("freecell", 1, "portable", {"ranks": 3}), Limits(seconds=600))  # warm
    head = [f"# dfs-jit's wins, search path against shortened line ({commit()}, {machine()})", ""]
    print("\n".join(head), flush=True)
    rows = []
    for game in args.games.split(","):
        for seed in range(1, args.n + 1):
            r = row(game, seed, args.limit)
            rows.append(r)
            print(r, flush=True)
    won = [r for r in rows if "path" in r]
    lines = head + md_table(rows, ["game", "seed", "verdict", "raw_path", "path", "shortened", "planning_jit",
                                   "s_path", "s_shortened", "shorten_s", "s_planning_jit"])  # fmt: skip
    if won:
        ratio = [r["path"] / r["shortened"] for r in won]
        lines += [
            "",
            f"{len(won)} wins of {len(rows)} deals: {sum(r['path'] for r in won):,} path moves -> "
            f"{sum(r['shortened'] for r in won):,} shortened (median {statistics.median(ratio):.1f}x, "
            f"max {max(ratio):.1f}x); wall incl. validation {sum(r['s_path'] for r in won):.1f} s -> "
            f"{sum(r['s_shortened'] for r in won):.1f} s; shortening itself "
            f"{sum(r['shorten_s'] for r in won):.2f} s. Load at the end {load()}.",
        ]
    print("\n".join(lines[len(head) :]))
    out = out_dir(args)
    if out:
        write_csv(out / "bench_shorten.csv", rows)
        write_lines(out / "bench_shorten.md", lines)


if __name__ == "__main__":
    main()
