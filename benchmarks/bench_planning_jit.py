"""planning against planning-jit (its greedy search compiled on the generic kernel) and Freecell Solver on MS
FreeCell deals FIRST..LAST, in one process, the same deals in the same script.

For each backend: verdicts (solved / unsolvable / unknown), the whole wall time of the batch (deal built,
solved, every SOLVED replayed by the validator: :func:`_common.solve_all`), the backends' own seconds, the
expansions and expansions per second of those seconds, and the ratios to ``fc-solve -l PRESET`` (run through
``freecell-solver-range-parallel-solve`` as in ``bench_freecell_ms.py``). The compiled kernels are loaded
before the timed batch (their load time is printed apart). A deal one backend proves UNSOLVABLE that another
solves, or fc-solve solves, is a bug: the script says so and exits 1.

    .venv/bin/python benchmarks/bench_planning_jit.py --first 1 --last 200 --limit 10 --out
"""

from __future__ import annotations

import time
from collections import Counter

import _common
from _common import commit, load
from bench_freecell_ms import fcs_range


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--last", type=int, default=200)
    ap.add_argument("--limit", type=float, default=10.0, help="seconds a deal (ours)")
    ap.add_argument("--backends", default="planning,planning-jit", help="comma-separated")
    ap.add_argument("--preset", default="lg", help="fc-solve preset (-l)")
    _common.add_out(ap, "planning_jit_ms_FIRST-LAST.md")
    args = ap.parse_args()
    if not 1 <= args.first <= args.last:
        ap.error(f"--first {args.first} --last {args.last}: need 1 <= FIRST <= LAST")
    seeds = range(args.first, args.last + 1)
    backends = [b for b in args.backends.split(",") if b]

    from patience.solvers.planning_jit import _warm

    t0 = time.perf_counter()
    warm = _warm(True)
    head = [
        f"# MS FreeCell {args.first}-{args.last} at {args.limit:g} s a deal: {', '.join(backends)}"
        " vs fc-solve",
        "",
        f"- commit {commit()}; {_common.machine()}",
        f"- kernels loaded before the batches: {warm:.2f} s ({time.perf_counter() - t0:.2f} s wall)",
    ]
    print("\n".join(head), flush=True)
    fcs_unsolved, fcs_s = fcs_range(args.first, args.last, args.preset)
    fcs_load = load()
    table = [
        "| backend | solved | unsolvable | unknown | wall_s | solve_s | wall/fc-solve | solve/fc-solve "
        "| expansions | expansions/s | load after |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        f"| fc-solve -l {args.preset} | {len(seeds) - len(fcs_unsolved)} | - | {len(fcs_unsolved)} "
        f"| {fcs_s:.2f} | - | 1 | - | - | - | {fcs_load} |",
    ]
    status: dict[str, dict[int, str]] = {}
    undecided: dict[str, list[int]] = {}
    for backend in backends:
        t0 = time.perf_counter()
        rows = _common.solve_all(_common.tasks("freecell", seeds, backend, args.limit, generator="ms"))
        wall = time.perf_counter() - t0
        status[backend] = {r.seed: r.status for r in rows}
        tally = Counter(status[backend].values())
        solve_s = sum(r.seconds or 0.0 for r in rows)
        exp = sum(float(r.stats.get("expansions", 0)) for r in rows)
        other = len(rows) - tally["solved"] - tally["unsolvable"]
        undecided[backend] = sorted(r.seed for r in rows if r.status not in ("solved", "unsolvable"))
        table.append(
            f"| {backend} | {tally['solved']} | {tally['unsolvable']} | {other} | {wall:.2f} | {solve_s:.2f} "
            f"| {wall / fcs_s:.0f} | {solve_s / fcs_s:.0f} | {exp:.0f} | {exp / max(solve_s, 1e-9):.0f} "
            f"| {load()} |"
        )
        print(table[-1], flush=True)
    bugs = [
        f"{b} UNSOLVABLE on {s} where {o} solved it"
        for b in backends
        for s in seeds
        if status[b].get(s) == "unsolvable"
        for o in [x for x in backends if status[x].get(s) == "solved"]
        + ["fc-solve"] * (s not in fcs_unsolved)
    ]
    lines = [
        *head,
        f"- fc-solve -l {args.preset} unsolved: {sorted(fcs_unsolved) or 'none'}",
        *(f"- {b} undecided: {u[:50] or 'none'}" for b, u in undecided.items()),
        f"- verdict conflicts (bugs): {bugs or 'none'}",
        "",
        *table,
    ]
    print("\n".join(lines[len(head) :]))
    out = _common.out_dir(args)
    if out is not None:
        path = out / f"planning_jit_ms_{args.first}-{args.last}.md"
        path.write_text("\n".join(lines) + "\n")
        print(f"wrote {path}")
    if bugs:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
