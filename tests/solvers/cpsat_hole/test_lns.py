"""The prefix LNS (cpsat_hole.lns): its wins replay, its losses are dfs's, and the backend's LNS stage
gives dfs's verdicts on small generalized All in a Row decks."""

from __future__ import annotations

import pytest

from patience.deals import deal
from patience.solvers.base import Limits, Status, get_solver
from patience.solvers.cpsat_hole import CpSatBlackHole, HoleDeal, to_moves
from patience.solvers.cpsat_hole.decode import order_events
from patience.solvers.cpsat_hole.lns import greedy, lns_search, sub_deal
from patience.validate import replay

SMALL = [(2, seed) for seed in range(1, 9)]
SLOW = [pytest.param(3, seed, marks=pytest.mark.slow) for seed in range(1, 9)]


def dfs_verdict(inst) -> Status:
    return get_solver("dfs").solve(inst, Limits(seconds=30)).status


def test_greedy_plays_a_legal_sequence():
    inst = deal("all-in-a-row", 2, "portable", {"suits": 8})
    d = HoleDeal.from_instance(inst)
    order = greedy(d)
    assert len(order) > 1
    assert replay(inst, to_moves(inst, d, order_events(order))).ok


def test_greedy_returns_the_longest_fresh_playout_or_else_the_longest():
    d = HoleDeal.from_instance(deal("all-in-a-row", 2, "portable", {"suits": 8}))
    longest = greedy(d, tries=50, seed=3)
    assert greedy(d, tries=50, seed=3, fresh=lambda play: True) == longest
    assert greedy(d, tries=50, seed=3, fresh=lambda play: False) == longest  # nothing fresh: the longest
    shorter = greedy(d, tries=50, seed=3, fresh=lambda play: len(play) < len(longest))
    assert 0 < len(shorter) < len(longest)


def test_sub_deal_keeps_the_piles_below_the_removed_cards():
    d = HoleDeal.from_instance(deal("all-in-a-row", 2, "portable", {"suits": 8}))
    order = greedy(d)[:5]
    sub, keep = sub_deal(d, set(order), d.rank[order[-1]])
    assert sub.n == d.n - 5 and sub.hole_rank == (d.rank[order[-1]],)
    assert not set(order) & set(keep)
    for i, c in enumerate(keep):
        assert sub.rank[i] == d.rank[c] and sub.pile[i] == d.pile[c]
        assert (sub.below[i] < 0) == (d.below[c] < 0)  # only pile tops were removed
        assert (sub.above[i] < 0) == (d.above[c] < 0 or d.above[c] in order)


@pytest.mark.parametrize(("suits", "seed"), SMALL + SLOW)
def test_lns_search_never_contradicts_dfs(suits, seed):
    inst = deal("all-in-a-row", seed, "portable", {"suits": suits})
    d = HoleDeal.from_instance(inst)
    r = lns_search(d, 30.0)
    truth = dfs_verdict(inst)
    if r.events is not None:
        assert truth is Status.SOLVED
        assert replay(inst, to_moves(inst, d, r.events)).ok
    if r.lost:
        assert truth is Status.UNSOLVABLE
    assert r.events is not None or r.lost  # small decks: decided (the assertion that can fail)


def test_the_backend_lns_stage_gives_dfs_verdicts():
    backend = CpSatBlackHole(presearch_nodes=0, max_cards=False, large_cards=10, lns_after=0.0)
    for suits, seed in SMALL[::2]:
        inst = deal("all-in-a-row", seed, "portable", {"suits": suits})
        r = backend.solve(inst, Limits(seconds=30))
        assert "lns_iterations" in r.stats and "conflicts" not in r.stats  # the LNS alone decided
        assert r.status is dfs_verdict(inst), (suits, seed, r)


def test_the_lns_stage_is_off_by_default_below_large_cards():
    inst = deal("all-in-a-row", 1, "portable", {"suits": 3})
    r = CpSatBlackHole(presearch_nodes=0, max_cards=False, lns_after=0.0).solve(inst, Limits(seconds=30))
    assert "lns_iterations" not in r.stats and r.status is dfs_verdict(inst)
