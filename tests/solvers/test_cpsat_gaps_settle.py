"""cpsat-gaps: the forced-settle theorem (cpsat_gaps/settle.py) on every reachable grid, its cut in the
"foata" model, and the ablation (verdicts with the cut off are the same)."""

from __future__ import annotations

import pytest
from ortools.sat.python import cp_model

from patience.deals import deal
from patience.engine import EMPTY
from patience.instance import Instance
from patience.solvers.base import Limits, Status, solve
from patience.solvers.cpsat_gaps import CpSatGaps, GapsDeal, bounds, build_model
from patience.solvers.cpsat_gaps.backend import _parameters
from patience.solvers.cpsat_gaps.settle import forced_settles

from .test_cpsat_gaps import code_moves

BASIC = "gaps-basic-variant"
Grid = tuple[int, ...]


def small(suits: int, ranks: int, seed: int) -> Instance:
    return deal(BASIC, seed, "portable", {"suits": suits, "ranks": ranks, "rows": suits})


def play(g: Grid, c: int, p: int) -> Grid:
    h = list(g)
    h[g.index(c)], h[p] = EMPTY, c
    return tuple(h)


def won(g: Grid, R: int) -> bool:
    return GapsDeal(R, len(g) // R, True, g).won()


def winnable_grids(d: GapsDeal) -> tuple[list[Grid], set[Grid]]:
    """Every grid reachable from the deal, and those from which a won grid is reachable."""
    seen, stack, edges = {d.grid}, [d.grid], {}
    while stack:
        g = stack.pop()
        edges[g] = [play(g, c, p) for c, p in code_moves(g, d.R)]
        for h in edges[g]:
            if h not in seen:
                seen.add(h)
                stack.append(h)
    good = {g for g in seen if won(g, d.R)}
    grew = True
    while grew:
        new = {g for g in seen if g not in good and any(h in good for h in edges[g])}
        good |= new
        grew = bool(new)
    return list(seen), good


def _naive_settles(d: GapsDeal, g: Grid) -> list[tuple[int, int]]:
    """Settle moves with no condition on y + 1: not a theorem (the test shows a counterexample)."""
    out = []
    for c, p in code_moves(g, d.R):
        below_ok = d.rank(c) == 2 or all(g[d.goal(x, d.suit(x))] == x for x in range(c - d.rank(c) + 2, c))
        if p == d.goal(c, d.suit(c)) and below_ok:
            out.append((c, p))
    return out


DEALS = [(4, 5, s) for s in range(24)] + [(3, 6, s) for s in range(8)]


def test_a_forced_settle_keeps_exactly_the_winnable_grids() -> None:
    """The theorem's consequence on every reachable grid of small deals: where a settle is forced, the
    grid is winnable exactly when the grid after the settle is; without the condition on y + 1 that
    fails somewhere (so the check has teeth)."""
    checked = naive_wrong = 0
    for suits, ranks, seed in DEALS:
        d = GapsDeal.from_instance(small(suits, ranks, seed))
        b = bounds(d, 2)
        grids, good = winnable_grids(d)
        for g in grids:
            forced = forced_settles(d, g, never=lambda c, p, b=b: p not in b.reach.get(c, ()))
            assert set(forced) >= set(forced_settles(d, g)), "the reach test only adds settles"
            for c, p in forced:
                assert (play(g, c, p) in good) is (g in good), (suits, ranks, seed, g, c)
                checked += 1
            naive_wrong += sum((play(g, c, p) in good) is not (g in good) for c, p in _naive_settles(d, g))
    assert checked > 1000
    assert naive_wrong > 0


def test_the_cut_puts_every_forced_settle_in_the_first_step() -> None:
    """The model from a winnable grid with forced settles: its plan's first step holds every one."""
    met = 0
    for suits, ranks, seed in DEALS[:12]:
        d0 = GapsDeal.from_instance(small(suits, ranks, seed))
        grids, good = winnable_grids(d0)
        for g in sorted(good)[:40]:
            d = GapsDeal(d0.R, d0.rows, True, g)
            b = bounds(d, 2)
            forced = forced_settles(d, g, never=lambda c, p, b=b: p not in b.reach.get(c, ()))
            if not forced or d.won():
                continue
            v = build_model(d, b, "foata", settle=True)
            solver = _parameters(v, 20, 1)
            assert solver.solve(v.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
            first = {(c, p) for (t, c, p), lit in v.mv.items() if t == 0 and solver.boolean_value(lit)}
            assert set(forced) <= first, (seed, g)
            met += 1
    assert met > 20


@pytest.mark.parametrize("suits,ranks", [(4, 5), (3, 5), (4, 6)])
def test_settle_ablation_keeps_dfs_verdicts(suits: int, ranks: int) -> None:
    """With the cut on (the default) and off, "foata" gives dfs's verdicts."""
    for seed in range(10):
        inst = small(suits, ranks, seed)
        want = solve(inst, "dfs", Limits(seconds=20)).status
        assert want in (Status.SOLVED, Status.UNSOLVABLE), seed
        for settle in (True, False):
            result = CpSatGaps("foata", settle=settle).solve(inst, Limits(seconds=20))
            assert result.status is want, (seed, settle)


def test_the_cut_applies_under_fixed_suit_only() -> None:
    """Any-two lets other 2s fill column 0, so the model leaves the cut out there."""
    inst = deal("gaps-one-deal", 0, "portable", {"suits": 3, "ranks": 4, "rows": 3})
    d = GapsDeal.from_instance(inst)
    assert not d.fixed
    b = bounds(d, 2)
    on = build_model(d, b, "foata", settle=True)
    off = build_model(d, b, "foata", settle=False)
    assert len(on.model.proto.constraints) == len(off.model.proto.constraints)
