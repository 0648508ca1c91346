"""The steps formulation (cpsat_hole/steps.py): verdicts against a brute force on small one- and two-hole
decks with every option on and off, and the rank-reachability theorem on every state of every win."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest
from ortools.sat.python import cp_model

from patience.deals import deal
from patience.solvers.cpsat_hole import HoleDeal
from patience.solvers.cpsat_hole.decode import decode, to_moves
from patience.solvers.cpsat_hole.model import ModelVars
from patience.solvers.cpsat_hole.params import parameters
from patience.solvers.cpsat_hole.steps import (
    ORDERS,
    _buried,
    _pred,
    _reach_applies,
    _succ,
    build_steps,
    piles_of,
    set_order,
    solve_steps,
)
from patience.validate import replay

# Small decks: two holes on cards (Binary Star; Black Hole with two start cards, King blocks, wrap off), two
# empty holes (wrap on and off), and one hole (Black Hole; All in a Row's empty hole). ``True``: the first
# 10 deals have both verdicts (checked when written), else they are all won or all lost. The two largest
# (18 and 22 cards, 4-5 s each here) are slow tests.
FAMILIES = [
    ("binary-star", {"suits": 1, "ranks": 6, "piles": 2}, True),
    ("binary-star", {"suits": 1, "ranks": 7, "piles": 4}, True),
    pytest.param("binary-star", {"suits": 2, "ranks": 5, "piles": 2}, True, marks=pytest.mark.slow),
    pytest.param("binary-star", {"suits": 3, "ranks": 4, "piles": 2}, True, marks=pytest.mark.slow),
    ("binary-star", {"suits": 2, "ranks": 4, "piles": 7}, False),
    ("black-hole", {"suits": 2, "ranks": 5, "piles": 4, "foundations.count": 2,
                    "foundations.start": ["AS", "3S"], "foundations.king_blocks": True}, True),
    ("black-hole", {"suits": 2, "ranks": 5, "piles": 4, "foundations.count": 2,
                    "foundations.start": ["AS", "3S"], "foundations.wrap": False}, False),
    ("black-hole", {"suits": 1, "ranks": 6, "piles": 3, "foundations.count": 2, "foundations.start": []},
     False),
    ("black-hole", {"suits": 2, "ranks": 4, "piles": 4, "foundations.count": 2, "foundations.start": [],
                    "foundations.wrap": False}, False),
    ("black-hole", {"suits": 2, "ranks": 5, "piles": 3}, True),
    ("all-in-a-row", {"suits": 2, "ranks": 6, "piles": 4}, True),
]  # fmt: skip

OPTIONS = [
    # The default constraints (Wolter's rules, reach, blocked) with the first orders of the default stages
    # ("direction", "direction-hi", then shuffled ties; every order gives the same verdict, as steps_solve
    # checks, and test_default_orders_reorder_the_same_decisions covers the rest of ORDERS).
    {"orders": ORDERS[:3]},
    {"prunes": False, "reach": False, "blocked": False, "orders": ("none",)},  # the bare model
    {"prunes": False, "reach": True, "blocked": False, "orders": ("none",)},
    {"prunes": False, "reach": False, "blocked": True, "orders": ("none",)},
    {"prunes": True, "reach": False, "blocked": False, "orders": ("direction",)},
    {"orders": ("direction-hi", "dfs")},
]


def wins(hd: HoleDeal, limit: int = 400) -> tuple[bool, list[list[tuple[int, int]]]]:
    """(won?, up to ``limit`` winning plans as (card, hole) lists), by exhaustive search of the states
    (pile heights, hole tops) with the rule of ``hd.fits``; independent of the model."""
    piles = piles_of(hd)
    found: list[list[tuple[int, int]]] = []
    path: list[tuple[int, int]] = []

    @cache
    def won(heights: tuple[int, ...], tops: tuple[int, ...]) -> bool:
        if not any(heights):
            found.append(list(path)) if len(found) < limit else None
            return True
        ok = False
        for p, ht in enumerate(heights):
            if not ht:
                continue
            c = piles[p][ht - 1]
            for h, t in enumerate(tops):
                if hd.fits(hd.rank[c], t):
                    path.append((c, h))
                    nh = heights[:p] + (ht - 1,) + heights[p + 1 :]
                    ok |= won(nh, tops[:h] + (hd.rank[c],) + tops[h + 1 :])
                    path.pop()
                    if ok and len(found) >= limit:
                        return True
        return ok

    return won(tuple(map(len, piles)), hd.hole_rank), found


def steps_solve(hd: HoleDeal, **opts):
    """Build with ``opts``, then solve each stage's order alone (every stage must give the verdict)."""
    v = ModelVars(cp_model.CpModel(), hd, "steps")
    build_steps(v, **opts)
    out = []
    for decisions in v.decisions:
        set_order(v.model, decisions)
        solver = parameters(20, 1, "steps")
        out.append((solver, solver.solve(v.model)))
    assert len({status for _, status in out}) == 1, out
    return v, out[-1][0], out[-1][1]


@pytest.mark.parametrize(("game", "sets", "mixed"), FAMILIES)
def test_steps_agree_with_brute_force_with_every_option(game, sets, mixed):
    verdicts = set()
    for seed in range(10):
        inst = deal(game, seed, "portable", sets)
        hd = HoleDeal.from_instance(inst)
        won, _ = wins(hd, 1)
        verdicts.add(won)
        for opts in OPTIONS:
            v, solver, status = steps_solve(hd, **opts)
            assert status in (cp_model.OPTIMAL, cp_model.INFEASIBLE), (game, seed, opts)
            assert (status == cp_model.OPTIMAL) is won, (game, seed, opts, inst.to_json())
            if won:
                assert replay(inst, to_moves(inst, hd, decode(v, solver))).won, (game, seed, opts)
    assert (len(verdicts) == 2) is mixed, verdicts


def reach_holds(hd: HoleDeal, left: list[int], tops: list[int]) -> bool:
    """steps._reach's clause for every rank with cards left, its literals read by their definitions."""
    R, wrap = hd.R, hd.wrap
    if 0 in tops:
        return True
    for r in range(1, R + 1):
        if not left[r]:
            continue
        ok = r in tops and any(x > 0 and left[x] for x in (_pred(r, R, wrap), _succ(r, R, wrap)))
        for step in (_pred, _succ):
            x = step(r, R, wrap)
            while x > 0 and not ok:
                if x in tops:
                    ok = True
                elif not left[x] or x == r:
                    break
                x = step(x, R, wrap)
        if not ok:
            return False
    return True


@pytest.mark.parametrize(("game", "sets", "mixed"), FAMILIES)
def test_reach_theorem_on_every_state_of_every_win(game, sets, mixed):
    hd0 = HoleDeal.from_instance(deal(game, 0, "portable", sets))
    if not _reach_applies(hd0):
        pytest.skip("reach does not apply")
    checked = 0
    for seed in range(10):
        hd = HoleDeal.from_instance(deal(game, seed, "portable", sets))
        _, plans = wins(hd)
        for plan in plans:
            left = [0] * (hd.R + 1)
            for c in range(hd.n):
                left[hd.rank[c]] += 1
            tops = list(hd.hole_rank)
            for c, h in plan:
                assert reach_holds(hd, left, tops), (game, seed, plan)
                left[hd.rank[c]] -= 1
                tops[h] = hd.rank[c]
                checked += 1
    assert checked >= 40, checked


def test_reach_is_off_below_three_ranks():
    hd = HoleDeal.from_instance(deal("binary-star", 1, "portable", {"suits": 1, "ranks": 6, "piles": 2}))
    assert _reach_applies(hd)
    assert not _reach_applies(replace(hd, R=2))


@pytest.mark.parametrize(("game", "sets", "mixed"), FAMILIES)
def test_blocked_theorem_on_every_state_of_every_win(game, sets, mixed):
    """steps._blocked: a card still there has a hole it fits, or a card it fits on that is still there
    and not below it, in every state of every win."""
    checked = 0
    for seed in range(10):
        hd = HoleDeal.from_instance(deal(game, seed, "portable", sets))
        piles = piles_of(hd)
        rules = _buried(hd, tuple(map(tuple, piles)))
        _, plans = wins(hd)
        for plan in plans:
            here = [True] * hd.n
            tops = list(hd.hole_rank)
            for c, h in plan:
                for x, on, mates in rules:
                    if here[x]:
                        assert 0 in tops or set(on) & set(tops) or any(here[y] for y in mates), (seed, plan)
                        checked += 1
                here[c] = False
                tops[h] = hd.rank[c]
    assert checked >= 10, checked


def test_solve_steps_runs_the_stages_until_a_verdict():
    won = deal("binary-star", 0, "portable", {"suits": 1, "ranks": 6, "piles": 2})
    hd = HoleDeal.from_instance(won)
    v = ModelVars(cp_model.CpModel(), hd, "steps")
    build_steps(v)
    assert len(v.decisions) == len(ORDERS)
    status, solver, stats = solve_steps(v, 10, 1)
    assert status == cp_model.OPTIMAL and stats["stages"] == 1
    assert replay(won, to_moves(won, hd, decode(v, solver))).won


def test_solve_steps_moves_on_when_a_stage_spends_its_conflicts():
    # Seed 2 is lost and its proof takes 20 conflicts; with 1 conflict a stage the first stage stops
    # unknown and the last (no conflict limit) proves it.
    hd = HoleDeal.from_instance(deal("binary-star", 2, "portable", {"suits": 1, "ranks": 7, "piles": 4}))
    assert not wins(hd, 1)[0]
    v = ModelVars(cp_model.CpModel(), hd, "steps")
    build_steps(v, orders=("direction", "direction-r1"))
    status, _, stats = solve_steps(v, 10, 1, conflicts=(1,))
    assert status == cp_model.INFEASIBLE and stats["stages"] == 2 and stats["conflicts"] > 1


def test_default_orders_reorder_the_same_decisions():
    # Every default order tries the same literals (hints that only imply their card and hole, then the
    # cards and holes), each in its own order: so they restrict nothing and all give the same verdict.
    hd = HoleDeal.from_instance(deal("binary-star", 1, "pysol"))
    v = ModelVars(cp_model.CpModel(), hd, "steps")
    build_steps(v)
    base = v.decisions[0]
    assert len({tuple(d) for d in v.decisions}) == len(ORDERS)
    for d in v.decisions[1:]:
        assert len(d) == len(base) and set(d) == set(base)
