"""Restarts with shuffled tie-breaks for the one-hole CP-SAT models at 104 cards (issue 20 item 2).

Conflict-budgeted stages whose search orders differ only in tie-breaks raised the steps model on Binary
Star (docs/cpsat-hole-notes.md); this probe asks whether the same lever finds the generalized All in a
Row 8x13 wins that dfs finds and the model alone does not. Variants (model alone, build included):

* ``steps``: the steps formulation (one hole) with :func:`~patience.solvers.cpsat_hole.steps.solve_steps`'s
  default stages ("direction", "direction-hi", then shuffled ties, 8,000 / 4,000 / 3,000 conflicts);
* ``steps-short``: the same model, 150 shuffled orders of 100 conflicts each;
* ``table-seeds``: the table model (the default at 104 cards) with CP-SAT's own search, stages of 1,500
  conflicts with random_seed 0, 1, ... (each stage presolves again);
* ``table-fixed``: the table model with a fixed search in time order (step t: the card on the tallest
  pile first, equally tall piles in a seeded shuffled order), stages of 1,500 conflicts, a new shuffle a
  stage.

Every variant only orders decisions or reseeds, so any verdict is the model's; a verdict other than the
``--expect`` letter (dfs's) stops the script.

    python benchmarks/probe_cpsat_hole_restarts.py --seeds 2 6 8 --variants steps table-fixed --out
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import _common
from ortools.sat.python import cp_model

from patience.deals import deal
from patience.interrupt import solve_cpsat
from patience.solvers.cpsat_hole.data import HoleDeal
from patience.solvers.cpsat_hole.model import ModelVars, build_model
from patience.solvers.cpsat_hole.params import parameters
from patience.solvers.cpsat_hole.steps import build_steps, solve_steps

LETTER = {cp_model.OPTIMAL: "W", cp_model.FEASIBLE: "W", cp_model.INFEASIBLE: "L"}


def steps(d: HoleDeal, seconds: float, budget: int | None, orders: int) -> tuple[int, dict[str, float]]:
    """The steps model; ``budget=None``: solve_steps's default stages, else ``orders`` shuffled ones."""
    t0 = time.perf_counter()
    v = ModelVars(cp_model.CpModel(), d, "steps")
    if budget is None:
        build_steps(v)
        status, _, stats = solve_steps(v, seconds - (time.perf_counter() - t0), 1)
    else:
        build_steps(v, orders=tuple(f"direction-r{i}" for i in range(1, orders + 1)))
        status, _, stats = solve_steps(v, seconds - (time.perf_counter() - t0), 1, conflicts=(budget,))
    return status, stats


def table(d: HoleDeal, seconds: float, fixed: bool, budget: int = 1500) -> tuple[int, dict[str, float]]:
    """The table model in conflict-budgeted stages: reseeded (``fixed=False``) or a shuffled fixed search."""
    t0 = time.perf_counter()
    v = build_model(d, "table")
    m, n = v.model, d.n
    height = [_count(d.below, c) for c in range(n)]  # cards under c: its pile is that tall plus one
    covered = [_count(d.above, c) for c in range(n)]  # cards on c: c is playable from step covered[c]
    at: dict[int, list[tuple[int, Any]]] = {t: [] for t in range(n)}
    if fixed:
        for t in range(n):
            for c in range(n):
                if covered[c] <= t:
                    x = m.new_bool_var(f"at_{t}_{c}")
                    m.add(v.card_at[t] == c).only_enforce_if(x)
                    m.add(v.card_at[t] != c).only_enforce_if(~x)
                    at[t].append((c, x))
    status, stats, stage = cp_model.UNKNOWN, {"conflicts": 0.0, "stages": 0.0}, 0
    while status == cp_model.UNKNOWN:
        left = seconds - (time.perf_counter() - t0)
        if left <= 0.05:
            break
        solver = parameters(left, 1, "table", large=True)
        solver.parameters.random_seed = stage
        solver.parameters.max_number_of_conflicts = budget
        if fixed:
            tie = list(range(max(64, n)))
            random.Random(stage).shuffle(tie)
            order = [
                x
                for t in range(n)
                for _, x in sorted(at[t], key=lambda e: (-height[e[0]], tie[d.pile[e[0]]]))
            ]
            m.Proto().search_strategy.clear()
            m.add_decision_strategy(order, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
            solver.parameters.search_branching = cp_model.FIXED_SEARCH
        status = solve_cpsat(solver, m)
        stats["conflicts"] += solver.num_conflicts
        stage += 1
        stats["stages"] = float(stage)
    return status, stats


def _count(link: tuple[int, ...] | list[int], c: int) -> int:
    """How many links from card ``c`` along ``link`` (above or below) before the pile ends."""
    k, x = 0, link[c]
    while x >= 0:
        k, x = k + 1, link[x]
    return k


VARIANTS: dict[str, Callable[[HoleDeal, float], tuple[int, dict[str, float]]]] = {
    "steps": lambda d, s: steps(d, s, None, 0),
    "steps-short": lambda d, s: steps(d, s, 100, 150),
    "table-seeds": lambda d, s: table(d, s, fixed=False),
    "table-fixed": lambda d, s: table(d, s, fixed=True),
}


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", required=True, help="portable deals")
    ap.add_argument("--variants", nargs="+", choices=sorted(VARIANTS), default=sorted(VARIANTS))
    ap.add_argument("--limit", type=float, default=30.0)
    ap.add_argument("--expect", default="W", help="dfs's verdict on these deals (any other verdict stops)")
    _common.add_out(ap, "cpsat_hole_restarts_8x13.csv and .md")
    args = ap.parse_args()
    out = _common.out_dir(args)
    print(f"all-in-a-row 8x13, portable deals {args.seeds}, {args.limit:g} s, 1 worker; {_common.machine()}")
    rows: list[dict[str, Any]] = []
    for seed in args.seeds:
        inst = deal("all-in-a-row", seed, "portable", {"suits": 8})
        for name in args.variants:
            t0 = time.perf_counter()
            status, stats = VARIANTS[name](HoleDeal.from_instance(inst), args.limit)
            letter = LETTER.get(status, "?")
            row = {"seed": seed, "variant": name, "verdict": letter, "s": round(time.perf_counter() - t0, 2),
                   "conflicts": int(stats.get("conflicts", 0)), "stages": int(stats.get("stages", 0)),
                   "load": _common.load().split("/")[0]}  # fmt: skip
            print("  ".join(f"{k}={v}" for k, v in row.items()), flush=True)
            rows.append(row)
            if out:
                _common.write_csv(out / "cpsat_hole_restarts_8x13.csv", rows)
            if letter not in ("?", args.expect):
                raise SystemExit(f"deal {seed}: {name} says {letter}, dfs {args.expect}: a bug")
    lines = [f"## Restarts with shuffled tie-breaks, All in a Row 8x13, {args.limit:g} s, model alone", "",
             f"Commit {_common.commit()}; {_common.machine()}; load at the end {_common.load()}.", "",
             *_common.md_table(rows)]  # fmt: skip
    print("\n".join(lines))
    if out:
        _common.write_lines(out / "cpsat_hole_restarts_8x13.md", lines)


if __name__ == "__main__":
    main()
