"""Rank-exhaustion cuts of the one-hole models (model._reach_cuts): the theorem on every win of small
generalized decks, the separators it uses, and verdicts with the cuts on against a brute force."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import islice

import pytest
from ortools.sat.python import cp_model

from patience.deals import deal
from patience.solvers.cpsat_hole import HoleDeal, build_model
from patience.solvers.cpsat_hole.model import rank_separators
from patience.solvers.cpsat_hole.params import parameters
from patience.solvers.cpsat_hole.steps import piles_of


def plays(hd: HoleDeal, walk: bool) -> Iterator[list[int]]:
    """Every order of all cards that takes pile tops first; with ``walk`` only the ones the one hole
    accepts (each card fits the previous one, the first fits the hole's start card): the wins."""
    piles = piles_of(hd)
    height = [len(p) for p in piles]
    seq: list[int] = []

    def rec(top: int) -> Iterator[list[int]]:
        if len(seq) == hd.n:
            yield list(seq)
            return
        for p, pile in enumerate(piles):
            if height[p] == 0:
                continue
            c = pile[height[p] - 1]
            if walk and not hd.fits(hd.rank[c], top):
                continue
            height[p] -= 1
            seq.append(c)
            yield from rec(hd.rank[c])
            seq.pop()
            height[p] += 1

    return rec(hd.hole_rank[0])


def cuts_hold(hd: HoleDeal, order: list[int]) -> bool:
    """Every inequality of the cuts on the times of ``order``: min over two components of their last
    time < the last time of the separator."""
    time = {c: t for t, c in enumerate(order)}
    last = {r: max(time[c] for c in range(hd.n) if hd.rank[c] == r) for r in set(hd.rank)}
    for x, comps in rank_separators(hd):
        big = max((last[r] for r in x if r in last), default=-1)
        ends = [max(last[r] for r in comp if r in last) for comp in comps]
        if sum(e > big for e in ends) > 1:
            return False
    return True


def small(rng: random.Random, game: str, max_cards: int) -> HoleDeal:
    """A random one-hole generalized deal of at most ``max_cards`` cards, wrap and King rule random."""
    while True:
        S, R = rng.randint(1, 3), rng.randint(4, 7)
        n = S * R - (game == "black-hole")
        if n > max_cards:
            continue
        piles = rng.choice([p for p in range(1, n + 1) if n % p == 0])
        sets = {
            "suits": S,
            "ranks": R,
            "piles": piles,
            "foundations.wrap": rng.random() < 0.5,
            "foundations.king_blocks": rng.random() < 0.25,
        }
        return HoleDeal.from_instance(deal(game, rng.randrange(2**31), "portable", sets))


def test_separators_of_a_cycle_and_of_a_path():
    hd = HoleDeal.from_instance(deal("all-in-a-row", 1))  # 13 ranks, wrap: a cycle
    seps = rank_separators(hd)
    assert all(len(x) == 2 and len(comps) == 2 for x, comps in seps)
    assert len(seps) == 13 * 10 // 2  # every pair of non-adjacent ranks
    line = HoleDeal.from_instance(deal("all-in-a-row", 1, "portable", {"foundations.wrap": False}))
    seps = rank_separators(line)
    assert [x for x, _ in seps] == [(r,) for r in range(2, 13)]  # the inner ranks of a path
    assert seps[0][1] == [(1,), tuple(range(3, 14))]


@pytest.mark.parametrize("game", ["all-in-a-row", "black-hole"])
def test_every_win_of_small_decks_satisfies_the_cuts(game):
    """The theorem, checked on every winning order; the same check rejects some non-walk orders, so it
    is not vacuous."""
    rng = random.Random(11)
    wins = rejected = 0
    for _ in range(60):
        hd = small(rng, game, 9)
        for order in plays(hd, walk=True):
            assert cuts_hold(hd, order), (hd, order)
            wins += 1
        rejected += sum(not cuts_hold(hd, order) for order in islice(plays(hd, walk=False), 200))
    assert wins >= 50 and rejected >= 50, (wins, rejected)


@pytest.mark.parametrize("formulation", ["table", "circuit"])
def test_models_with_the_cuts_agree_with_brute_force(formulation):
    rng = random.Random(5)
    verdicts = {True: 0, False: 0}
    for i in range(40):
        hd = small(rng, "all-in-a-row" if i % 2 else "black-hole", 10)
        won = next(plays(hd, walk=True), None) is not None
        v = build_model(hd, formulation, reach=True)
        status = parameters(20, 1, formulation).solve(v.model)
        assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE)
        assert (status != cp_model.INFEASIBLE) is won, hd
        verdicts[won] += 1
    assert min(verdicts.values()) >= 8, verdicts  # both verdicts are exercised


def test_cuts_with_a_free_cell_agree_with_the_model_without_them():
    """Worm Hole (one hole, one cell): times are arrivals in the hole, so the cuts stay sound."""
    lost = 0
    for seed in range(12):
        hd = HoleDeal.from_instance(deal("worm-hole", seed, "portable", {"suits": 3, "ranks": 4, "piles": 1}))
        got = []
        for reach in (False, True):
            v = build_model(hd, "table", reach=reach)
            got.append(parameters(20, 1).solve(v.model) == cp_model.INFEASIBLE)
        assert got[0] is got[1], seed
        lost += got[0]
    assert 0 < lost < 12, lost  # both verdicts are exercised
