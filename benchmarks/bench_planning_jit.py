"""planning against planning-jit (its greedy search compiled on the generic kernel), and Freecell Solver on MS
FreeCell deals, on deals FIRST..LAST of some games, in one process, the same deals in the same script.

For each backend: verdicts (solved / unsolvable / unknown), the whole wall time of the batch (deal built,
solved, every SOLVED replayed by the validator: :func:`_common.solve_all`), the backends' own seconds, the
expansions and expansions per second of those seconds, and (MS FreeCell only) the ratios to ``fc-solve -l
PRESET``, run through ``freecell-solver-range-parallel-solve`` as in ``bench_freecell_ms.py``. The compiled
kernels are loaded before the timed batch (their load time is printed apart). A deal one backend proves
UNSOLVABLE that another solves, or fc-solve solves, is a bug: the script says so and exits 1.

    .venv/bin/python benchmarks/bench_planning_jit.py --first 1 --last 200 --limit 10 --out
    .venv/bin/python benchmarks/bench_planning_jit.py --games bakers-game,fan --generator solvitaire --last 10

``--log FILE`` appends one JSON line a solve in ``bench_crosscheck``'s row format (game, seed, solver, limit,
verdict W/L/?, seconds: the whole task's wall time), so ``portfolio_from_log.py`` can score stage splits
from per-deal times. A ``portfolio``/``auto`` row's expansions are its planning stages' (``*_expansions``).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

import _common
from _common import commit, load
from bench_freecell_ms import fcs_range


def expansions(stats: dict) -> float:
    """A row's expansions: its own, or a portfolio's planning stages' (``planning-jit_expansions``)."""
    return sum(float(v) for k, v in stats.items() if k == "expansions" or k.endswith("_expansions"))


def write_log(path: Path, game: str, backend: str, limit: float, rows: list) -> None:
    """Append the rows as bench_crosscheck log lines (verdict letters; seconds: the task's wall time)."""
    with path.open("a") as f:
        for r in rows:
            row = {"game": game, "seed": r.seed, "solver": backend, "limit": limit}
            row["verdict"] = _common.verdict(r.status)
            row["seconds"] = round(float(r.stats.get("wall_s", r.seconds or 0.0)), 4)
            row["solve_s"] = round(float(r.seconds or 0.0), 4)
            f.write(json.dumps(row) + "\n")


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--last", type=int, default=200)
    ap.add_argument("--limit", type=float, default=10.0, help="seconds a deal (ours)")
    ap.add_argument("--backends", default="planning,planning-jit", help="comma-separated")
    ap.add_argument("--games", default="freecell", help="comma-separated; fc-solve runs for freecell/ms")
    ap.add_argument("--generator", default="ms", help="deal generator (ms: Microsoft's, FreeCell only)")
    ap.add_argument("--preset", default="lg", help="fc-solve preset (-l)")
    ap.add_argument("--name", default="", help="output file name (default planning_jit_<gen>_FIRST-LAST.md)")
    ap.add_argument("--log", type=Path, help="append per-solve JSON lines (bench_crosscheck's row format)")
    _common.add_out(ap, "planning_jit_GENERATOR_FIRST-LAST.md")
    args = ap.parse_args()
    if not 1 <= args.first <= args.last:
        ap.error(f"--first {args.first} --last {args.last}: need 1 <= FIRST <= LAST")
    seeds = range(args.first, args.last + 1)
    backends = [b for b in args.backends.split(",") if b]
    games = [g for g in args.games.split(",") if g]

    from patience.solvers import dfs_jit, planning_jit

    t0 = time.perf_counter()
    warm = planning_jit.KERNELS.warm(True) + dfs_jit.KERNELS.warm(True)
    head = [
        f"# {', '.join(games)} ({args.generator} {args.first}-{args.last}) at {args.limit:g} s a deal: "
        f"{', '.join(backends)}",
        "",
        f"- commit {commit()}; {_common.machine()}; one process",
        f"- kernels loaded before the batches: {warm:.2f} s ({time.perf_counter() - t0:.2f} s wall)",
    ]
    print("\n".join(head), flush=True)
    table = [
        "| game | backend | solved | unsolvable | unknown | wall_s | solve_s | wall/fc-solve "
        "| solve/fc-solve | expansions | expansions/s | load after |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    notes: list[str] = []
    bugs: list[str] = []
    for game in games:
        fcs_s = None
        fcs_unsolved: set[int] = set(seeds)
        if game == "freecell" and args.generator == "ms":
            fcs_unsolved, fcs_s = fcs_range(args.first, args.last, args.preset)
            table.append(
                f"| {game} | fc-solve -l {args.preset} | {len(seeds) - len(fcs_unsolved)} | - "
                f"| {len(fcs_unsolved)} | {fcs_s:.2f} | - | 1 | - | - | - | {load()} |"
            )
            notes.append(f"- {game}: fc-solve -l {args.preset} unsolved: {sorted(fcs_unsolved) or 'none'}")
        status: dict[str, dict[int, str]] = {}
        for backend in backends:
            t0 = time.perf_counter()
            todo = _common.tasks(game, seeds, backend, args.limit, generator=args.generator)
            rows = _common.solve_all(todo)
            wall = time.perf_counter() - t0
            status[backend] = {r.seed: r.status for r in rows}
            tally = Counter(status[backend].values())
            solve_s = sum(r.seconds or 0.0 for r in rows)
            exp = sum(expansions(r.stats) for r in rows)
            if args.log is not None:
                write_log(args.log, game, backend, args.limit, rows)
            other = len(rows) - tally["solved"] - tally["unsolvable"]
            undecided = sorted(r.seed for r in rows if r.status not in ("solved", "unsolvable"))
            ratios = f"{wall / fcs_s:.0f} | {solve_s / fcs_s:.0f}" if fcs_s else "- | -"
            table.append(
                f"| {game} | {backend} | {tally['solved']} | {tally['unsolvable']} | {other} | {wall:.2f} "
                f"| {solve_s:.2f} | {ratios} | {exp:.0f} | {exp / max(solve_s, 1e-9):.0f} | {load()} |"
            )
            notes.append(f"- {game}: {backend} undecided: {undecided[:50] or 'none'}")
            print(table[-1], flush=True)
        for b in backends:
            for s in seeds:
                if status[b].get(s) != "unsolvable":
                    continue
                solvers = [x for x in backends if status[x].get(s) == "solved"]
                solvers += ["fc-solve"] * (fcs_s is not None and s not in fcs_unsolved)
                bugs += [f"{game} {s}: {b} UNSOLVABLE, {o} solved it" for o in solvers]
    lines = [*head, *notes, f"- verdict conflicts (bugs): {bugs or 'none'}", "", *table]
    print("\n".join(lines[len(head) :]))
    out = _common.out_dir(args)
    if out is not None:
        path = out / (args.name or f"planning_jit_{args.generator}_{args.first}-{args.last}.md")
        path.write_text("\n".join(lines) + "\n")
        print(f"wrote {path}")
    if bugs:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
