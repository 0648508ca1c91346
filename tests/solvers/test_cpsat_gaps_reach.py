"""cpsat-gaps: the reach relaxation (cpsat_gaps/reach.py, Lemmas 1-2) on every reachable grid of small
deals, its encoding against the same levels computed directly, and the cut by ablation."""

from __future__ import annotations

from itertools import permutations
from types import SimpleNamespace

import pytest
from ortools.sat.python import cp_model

from patience.deals import deal
from patience.solvers.base import Limits, Status
from patience.solvers.cpsat_gaps import CpSatGaps, GapsDeal, bounds, build_model
from patience.solvers.cpsat_gaps import backend as cpsat_gaps_backend
from patience.solvers.cpsat_gaps.model import OutOfTime, _goal_rows
from patience.solvers.cpsat_gaps.reach import levels, reach_cut, relaxed_reach

from .test_cpsat_gaps import brute_force
from .test_cpsat_gaps_settle import DEALS, Grid, small, winnable_grids


def _homes(d: GapsDeal, have: set[tuple[int, int]]) -> bool:
    """Some assignment of suits to rows puts every card's home cell in ``have``."""
    return any(
        all((c, d.goal(c, rows[d.suit(c)])) in have for c in d.cards) for rows in permutations(range(d.rows))
    )


def test_every_winnable_grid_passes_and_the_levels_reach_the_fixpoint() -> None:
    """Lemma 1 on every reachable grid of small deals: a grid from which a won grid is reachable has every
    home in its relaxation; Lemma 2: one more level changes nothing. Some unwinnable grids fail it (the
    cut has teeth)."""
    checked = refuted = 0
    for suits, ranks, seed in DEALS + [(3, 4, s) for s in range(12)]:
        d = GapsDeal.from_instance(small(suits, ranks, seed))
        b = bounds(d, 2)
        k = levels(d, b)
        grids, good = winnable_grids(d)
        for g in grids:
            have = relaxed_reach(d, b, g, k)
            assert have == relaxed_reach(d, b, g, k + 1), (suits, ranks, seed, g)
            passes = _homes(d, have)
            assert passes or g not in good, (suits, ranks, seed, g)
            refuted += not passes
            checked += 1
    assert checked > 5_000
    assert refuted > 100


def test_every_reachable_grid_lies_in_the_deal_relaxation() -> None:
    """Lemma 1 itself: every pair (card, cell) of every grid reachable from the deal is in the deal's
    relaxation."""
    for suits, ranks, seed in DEALS[:16]:
        d = GapsDeal.from_instance(small(suits, ranks, seed))
        b = bounds(d, 2)
        have = relaxed_reach(d, b, d.grid, levels(d, b))
        grids, _ = winnable_grids(d)
        for g in grids:
            assert {(c, p) for p, c in enumerate(g) if c in b.init} <= have, (seed, g)


def _encoded(d: GapsDeal, g: Grid) -> bool:
    """The cut alone on state variables fixed to grid ``g``: feasible exactly when every home is reached."""
    b = bounds(d, 2)
    m = cp_model.CpModel()
    at_t = {}
    for c in d.cards:
        for p in b.reach[c]:
            x = m.new_bool_var(f"at_{c}_{p}")
            m.add(x == int(g[p] == c))
            at_t[(c, p)] = x
    v = SimpleNamespace(model=m, deal=d, b=b)
    goal = [
        (lit, c, d.goal(c, r)) for (s, r), lit in _goal_rows(v).items() for c in d.cards if d.suit(c) == s
    ]
    reach_cut(v, at_t, goal)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    return solver.solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def test_the_encoding_decides_as_the_levels() -> None:
    """The model's one-way leveled encoding on fixed states agrees with :func:`relaxed_reach` on grids
    that pass and grids that fail."""
    seen = {True: 0, False: 0}
    for suits, ranks, seed in DEALS[:10]:
        d = GapsDeal.from_instance(small(suits, ranks, seed))
        b = bounds(d, 2)
        grids, _ = winnable_grids(d)
        for g in sorted(grids)[:: max(1, len(grids) // 12)]:
            want = _homes(d, relaxed_reach(d, b, g, levels(d, b)))
            assert _encoded(d, g) is want, (seed, g)
            seen[want] += 1
    assert seen[True] > 10 and seen[False] > 10


def test_reach_ablation_keeps_the_verdicts(monkeypatch: pytest.MonkeyPatch) -> None:
    """With short horizons first (where the cut applies), the cut on and off give the exhaustive search's
    verdicts (3 x 4 deals have 2s dealt in another row's column 0); with it on, some deals are refuted at a
    short horizon that the cut-free model hands on."""
    monkeypatch.setattr(cpsat_gaps_backend, "FOATA_DEPTHS", (4, 8))
    sooner = 0
    for suits, ranks in ((3, 4), (4, 5), (3, 5), (4, 6)):
        for seed in range(12):
            inst = small(suits, ranks, seed)
            want = Status.SOLVED if brute_force(inst) else Status.UNSOLVABLE
            horizon = {}
            for reach in (True, False):
                result = CpSatGaps("foata", reach=reach).solve(inst, Limits(seconds=20))
                assert result.status is want, (suits, ranks, seed, reach)
                horizon[reach] = result.stats.get("model_horizon", 0.0)
            sooner += horizon[True] < horizon[False]
    assert sooner > 0


def test_the_cut_applies_under_fixed_suit_and_a_short_horizon_only() -> None:
    """Any-two lets other 2s fill column 0, and at the proven horizon the goal implies the cut: no cut."""
    inst = deal("gaps-one-deal", 0, "portable", {"suits": 3, "ranks": 4, "rows": 3})
    d = GapsDeal.from_instance(inst)
    b = bounds(d, 2)
    assert not d.fixed
    size = {
        r: len(build_model(d, b, "foata", horizon=3, reach=r).model.proto.constraints) for r in (True, False)
    }
    assert size[True] == size[False]
    d = GapsDeal.from_instance(small(4, 5, 1))
    b = bounds(d, 2)
    for horizon, cut in ((b.horizon, False), (3, True)):
        size = {
            r: len(build_model(d, b, "foata", horizon=horizon, reach=r).model.proto.constraints)
            for r in (True, False)
        }
        assert (size[True] > size[False]) is cut, horizon


def test_the_cut_checks_the_build_deadline() -> None:
    """Building the levels calls ``on_time`` once a level, so a limit passing meanwhile stops the build."""
    d = GapsDeal.from_instance(small(4, 5, 0))
    b = bounds(d, 2)
    m = cp_model.CpModel()
    at_t = {(c, p): m.new_bool_var("") for c in d.cards for p in b.reach[c]}
    calls = []

    def on_time(_v: object) -> None:
        calls.append(1)
        if len(calls) == 3:
            raise OutOfTime

    with pytest.raises(OutOfTime):
        reach_cut(SimpleNamespace(model=m, deal=d, b=b), at_t, [], on_time)
    assert len(calls) == 3 < levels(d, b)
