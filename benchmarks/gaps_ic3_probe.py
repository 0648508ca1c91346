"""A probe: IC3/PDR on Gaps with CP-SAT as the one-step oracle (issue 20 item 1; a measured negative).

The diagnosis of docs/cpsat-gaps-notes.md is that the time-indexed models learn clauses tied to a step,
so a refuted grid is refuted again at every step. IC3 learns clauses over one grid's facts instead
(``not (x at p and y at q ...)``, valid in every frame F_k that holds them), so a refuted region of
grids stays refuted. This script checks whether that pays with CP-SAT as the SAT engine.

One CP-SAT model holds a grid X, the next grid Y and one move between them (as in the "steps" model:
a card of rank >= 3 lands right of its predecessor, the target is a gap, frame axioms, each card in one
cell, a cell holds at most one card; ``bounds.reach`` restricts the cells). A lemma of frame k is the
clause ``not cube`` over X, enabled by the frame's activation literal; a query "F_i and T and cube(Y)"
runs with the frames' literals and the cube's Y literals as assumptions, and an UNSAT answer's
``sufficient_assumptions_for_infeasibility`` gives the generalized cube (extended by one literal when it
would hold in the dealt grid). The bad grids are the won grids within reach (every suit-to-row
assignment: a 2 dealt in column 0 may stay); a frame that empties while pushing lemmas forward is an
inductive invariant that excludes them all (L). A bad grid traced back to the deal is W.

Verdicts are compared with exhaustive enumeration (:func:`gaps_pair_reach.exact`); this is a probe, not
a backend, and its verdicts are not used anywhere.

    python benchmarks/gaps_ic3_probe.py --ranks 5 -n 10 --first 0 --limit 20 --out
"""

from __future__ import annotations

import heapq
import time
from itertools import permutations
from typing import Any

import _common
from gaps_pair_reach import exact
from ortools.sat.python import cp_model

from patience.deals import deal
from patience.solvers.cpsat_gaps import Bounds, GapsDeal, bounds

Cube = frozenset[tuple[int, int]]


class OutOfTime(Exception):
    """The probe's time limit passed."""


class Ic3:
    """IC3 over the grid facts ``x[c, p]`` (module docstring)."""

    def __init__(self, d: GapsDeal, b: Bounds, deadline: float) -> None:
        self.deadline = deadline
        m = self.m = cp_model.CpModel()
        cards = d.cards
        self.pairs = [(c, p) for c in cards for p in b.reach[c]]
        X = self.X = {k: m.new_bool_var(f"x{k}") for k in self.pairs}
        Y = self.Y = {k: m.new_bool_var(f"y{k}") for k in self.pairs}
        ncell = d.rows * d.R
        for S in (X, Y):
            for c in cards:
                m.add_exactly_one(S[(c, p)] for p in b.reach[c])
            for p in range(ncell):
                occ = [S[(c, p)] for c in cards if (c, p) in S]
                if len(occ) > 1:
                    m.add_at_most_one(occ)
        mv = {
            (c, p): m.new_bool_var(f"mv{c}_{p}")
            for c in cards
            for p in b.dest[c]
            if d.rank(c) == 2 or (c - 1, p - 1) in X
        }
        m.add_exactly_one(mv.values())
        moving: dict[int, list[Any]] = {}
        for (c, p), lit in mv.items():
            moving.setdefault(c, []).append(lit)
            if d.rank(c) > 2:
                m.add_implication(lit, X[(c - 1, p - 1)])
        for p in range(ncell):
            terms = [X[(c, p)] for c in cards if (c, p) in X] + [mv[(c, p)] for c in cards if (c, p) in mv]
            if len(terms) > 1:
                m.add_at_most_one(terms)
        for c in cards:
            for p in b.reach[c]:
                a0, a1, mp = X[(c, p)], Y[(c, p)], mv.get((c, p))
                if mp is not None:
                    m.add_implication(mp, a1)
                    m.add_bool_or([~a1, a0, mp])
                else:
                    m.add_implication(a1, a0)
                m.add_bool_or([~a0, a1, *moving.get(c, [])])
        self.init_lit = m.new_bool_var("init")
        for c in cards:
            m.add_implication(self.init_lit, X[(c, b.init[c])])
        self.act: list[Any] = []  # activation literal of frame k (index k >= 1; 0 unused)
        self.frames: list[list[Cube]] = []  # lemmas whose highest frame is k
        self.solver = cp_model.CpSolver()
        sp = self.solver.parameters
        sp.num_workers = 1
        sp.cp_model_presolve = False
        sp.linearization_level = 0
        sp.symmetry_level = 0
        sp.use_sat_inprocessing = False
        sp.cp_model_probing_level = 0
        sp.max_presolve_iterations = 0
        self.queries = 0
        self.query_seconds = 0.0
        # The won grids within reach: each assignment of suits to rows (a 2 dealt in column 0 may stay).
        assign = list(permutations(range(d.rows)))
        won = [frozenset((c, d.goal(c, rows[d.suit(c)])) for c in cards) for rows in assign]
        self.goals: list[Cube] = [g for g in set(won) if all(x in X for x in g)]
        self.init: Cube = frozenset((c, b.init[c]) for c in cards)

    def level(self, k: int) -> Any:
        """The activation literal of frame k (frames are created on demand)."""
        while len(self.act) <= k:
            self.act.append(self.m.new_bool_var(f"a{len(self.act)}"))
            self.frames.append([])
        return self.act[k]

    def add_lemma(self, cube: Cube, k: int) -> None:
        """The clause ``not cube`` in frames 1..k."""
        self.m.add_bool_or([~self.level(k)] + [~self.X[x] for x in cube])
        self.frames[k].append(cube)

    def query(self, i: int, cube: Cube) -> tuple[Cube | None, Cube]:
        """SAT(F_i and T and cube(Y)): (predecessor grid, empty) or (None, UNSAT core within cube)."""
        if time.perf_counter() > self.deadline:
            raise OutOfTime
        m = self.m
        m.clear_assumptions()
        frame = [self.init_lit] if i == 0 else [self.level(k) for k in range(i, len(self.act))]
        ys = {self.Y[x].index: x for x in cube}
        m.add_assumptions(frame + [self.Y[x] for x in cube])
        t0 = time.perf_counter()
        st = self.solver.solve(m)
        self.query_seconds += time.perf_counter() - t0
        self.queries += 1
        if st in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return frozenset(x for x in self.pairs if self.solver.boolean_value(self.X[x])), frozenset()
        if st != cp_model.INFEASIBLE:
            raise OutOfTime
        core = frozenset(ys[j] for j in self.solver.sufficient_assumptions_for_infeasibility() if j in ys)
        if core <= self.init:  # the lemma must hold in the deal
            core = core | {next(x for x in sorted(cube) if x not in self.init)}
        return None, core

    def blocked(self, grid: Cube, k: int) -> bool:
        """Some lemma of frame k excludes the grid."""
        return any(lem <= grid for j in range(k, len(self.frames)) for lem in self.frames[j])

    def block(self, bad: Cube, k: int) -> bool:
        """Block ``bad`` at frame k; True when a chain of predecessors reaches the deal (a win)."""
        heap: list[tuple[int, int, Cube]] = [(k, 0, bad)]
        n = 1
        while heap:
            lvl, _, s = heapq.heappop(heap)
            if self.blocked(s, lvl):
                continue
            pre, core = self.query(lvl - 1, s)
            if pre is not None:
                if lvl == 1:
                    return True
                heapq.heappush(heap, (lvl - 1, n, pre))
                heapq.heappush(heap, (lvl, n + 1, s))
                n += 2
                continue
            j = lvl
            while j < len(self.act) - 1 and self.query(j, core)[0] is None:
                j += 1
            self.add_lemma(core, j)
        return False

    def run(self) -> str:
        """W, L or ? (time)."""
        if self.init in self.goals:
            return "W"
        if not self.goals:
            return "L"
        k = 1
        self.level(1)
        try:
            while True:
                bad = next((g for g in self.goals if not self.blocked(g, k)), None)
                if bad is not None:
                    if self.block(bad, k):
                        return "W"
                    continue
                self.level(k + 1)
                for i in range(1, k + 1):
                    for lem in list(self.frames[i]):
                        if self.query(i, lem)[0] is None:
                            self.frames[i].remove(lem)
                            self.add_lemma(lem, i + 1)
                    if not self.frames[i]:
                        return "L"
                k += 1
        except OutOfTime:
            return "?"


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--deals", type=int, default=10)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--ranks", type=int, default=13, help="cells a row (13: the 4 x 13 basic variant)")
    ap.add_argument("--limit", type=float, default=20.0)
    ap.add_argument("--cap", type=int, default=300_000, help="most grids enumerated for the check")
    _common.add_out(ap, "gaps_ic3_probe_4x<ranks>.csv and .md")
    args = ap.parse_args()
    out = _common.out_dir(args)
    sets = None if args.ranks == 13 else {"suits": 4, "ranks": args.ranks, "rows": 4}
    load0 = _common.load()
    rows = []
    for seed in range(args.first, args.first + args.deals):
        inst = deal("gaps-basic-variant", seed, "portable", sets)
        d = GapsDeal.from_instance(inst)
        t0 = time.perf_counter()
        ic = Ic3(d, bounds(d), t0 + args.limit)
        v = ic.run()
        secs = time.perf_counter() - t0
        grids, full = exact(d, args.cap)
        truth = "W" if any(GapsDeal(d.R, d.rows, d.fixed, g).won() for g in grids) else ("L" if full else "?")
        if v in "WL" and truth in "WL" and v != truth:
            raise SystemExit(f"seed {seed}: ic3 {v}, exact {truth} (a bug)")
        lemmas = [len(x) for f in ic.frames for x in f]
        rows.append(
            {
                "seed": seed,
                "ic3": v,
                "s": round(secs, 2),
                "exact": truth,
                "grids": len(grids),
                "queries": ic.queries,
                "ms_query": round(1000 * ic.query_seconds / max(ic.queries, 1), 2),
                "frames": max(len(ic.act) - 1, 0),
                "lemmas": len(lemmas),
                "lemma_lits": round(sum(lemmas) / max(len(lemmas), 1), 1),
                "load": _common.load().split("/")[0],
            }
        )
        print("  ".join(f"{k}={x}" for k, x in rows[-1].items()), flush=True)
    decided = sum(r["ic3"] in "WL" for r in rows)
    lines = [
        f"## IC3 with CP-SAT as the one-step oracle: Gaps basic variant 4 x {args.ranks}, portable deals "
        f"{args.first}-{args.first + args.deals - 1}, {args.limit:g} s each",
        "",
        f"{_common.stamp(load0)}.",
        f"Command: `python benchmarks/gaps_ic3_probe.py --ranks {args.ranks} -n {args.deals} --first "
        f"{args.first} --limit {args.limit:g} --out`",
        "",
        f"IC3 decided {decided} of {len(rows)} (exact: {sum(r['exact'] == 'W' for r in rows)} won, "
        f"{sum(r['exact'] == 'L' for r in rows)} lost); no disagreement with exhaustive enumeration.",
        "",
        *_common.md_table(rows),
    ]
    print("\n".join(lines))
    if out:
        stem = f"gaps_ic3_probe_4x{args.ranks}"
        _common.write_csv(out / f"{stem}.csv", rows)
        _common.write_lines(out / f"{stem}.md", lines)


if __name__ == "__main__":
    main()
