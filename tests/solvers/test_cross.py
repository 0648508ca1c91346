"""Backends cross-validated on the same deals: verdicts and max cards removed must agree."""

from __future__ import annotations

import pytest

from patience.deals import deal
from patience.solvers.base import Limits, Status, solve

LIMITS = Limits(seconds=20)


@pytest.mark.parametrize(
    "game,overrides",
    [
        ("black-hole", {"suits": 2, "ranks": 5, "piles": 3}),
        ("all-in-a-row", {"suits": 2, "ranks": 6, "piles": 4}),
    ],
)
def test_cpsat_and_dfs_agree_on_small_deals(game: str, overrides: dict) -> None:
    lost = 0
    for seed in range(1, 31):
        inst = deal(game, seed, overrides=overrides)
        # CP-SAT alone: with its DFS presearch a win would be the dfs backend's search twice.
        a, b = solve(inst, "cpsat-only", LIMITS), solve(inst, "dfs", LIMITS)
        assert {a.status, b.status} <= {Status.SOLVED, Status.UNSOLVABLE}, (seed, a, b)
        assert a.status == b.status, (seed, a.status, b.status)
        if a.status is Status.UNSOLVABLE and "max_cards_removed" in b.stats:
            lost += 1
            assert a.stats["max_cards_removed"] == b.stats["max_cards_removed"], seed
    assert lost > 0  # the family has lost deals at this size, so the max-cards check ran
