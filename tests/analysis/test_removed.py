"""Cards removed: dfs's exact_max option (dfs-max) against dfs and an exhaustive search of small deals."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from patience.analysis.removed import removed_from_rows, run_removed
from patience.deals import deal
from patience.engine import Engine
from patience.rules import load_game
from patience.solvers.base import Limits, get_solver

SMALL = {"suits": 3, "ranks": 8, "piles": 6}  # All in a Row with 24 cards, 4 per pile
LIMITS = Limits(seconds=30)


def _most_moved(engine: Engine, seen: dict) -> int:
    """The most cards any play moves home from here: every state, no cut (the reference)."""
    key = engine.key()
    if key not in seen:
        best = 0
        for m in engine.legal_moves():
            engine.apply(m)
            best = max(best, 1 + _most_moved(engine, seen))
            engine.undo()
        seen[key] = best
    return seen[key]


def test_exact_max_keeps_verdicts_and_gives_the_true_maximum() -> None:
    plain, exact = get_solver("dfs"), get_solver("dfs-max")
    cut_somewhere = 0
    for seed in range(1, 21):
        inst = deal("all-in-a-row", seed, overrides=SMALL)
        a, b = plain.solve(inst, LIMITS), exact.solve(inst, LIMITS)
        assert a.status == b.status  # the second search never changes the verdict
        if b.status.value != "unsolvable":
            continue
        truth = _most_moved(Engine(inst), {})
        assert b.max_cards is not None and b.max_cards.best == b.max_cards.bound == truth
        if a.stats.get("reach_cuts"):
            cut_somewhere += 1
            assert a.max_cards is None  # dfs alone leaves the figure out when reach/degree cut
        else:
            assert a.max_cards == b.max_cards
    assert cut_somewhere > 0  # the option was exercised


def test_counting_conventions() -> None:
    rules = load_game("black-hole").rules
    rows = [
        SimpleNamespace(status="solved", stats={}),
        SimpleNamespace(status="unsolvable", stats={"max_cards_removed": 10, "max_cards_bound": 10}),
        SimpleNamespace(status="unsolvable", stats={"max_cards_removed": 10, "max_cards_bound": 12}),
        SimpleNamespace(status="unknown", stats={}),
    ]
    r = removed_from_rows("black-hole", rules, rows)
    assert (r.won, r.lost, r.inexact, r.undecided, r.counted) == (1, 1, 1, 1, 2)
    assert r.histogram() == {10: 1, 51: 1} and r.histogram("home") == {11: 1, 52: 1}
    assert r.histogram(lost_only=True) == {10: 1}
    assert r.mean() == 30.5 and r.mean("home") == 31.5
    lo, hi = r.mean_interval()
    assert lo < 30.5 < hi and r.mean_interval("home")[0] == lo + 1
    with pytest.raises(ValueError, match="convention"):
        r.mean("tableau")


def test_run_removed_counts_every_deal() -> None:
    r = run_removed("all-in-a-row", range(1, 21), limit_s=30, overrides=SMALL)
    assert r.won + r.lost + r.undecided + r.inexact == 20
    assert r.undecided == r.inexact == 0 and r.won > 0 and r.lost > 0
    assert max(r.histogram(lost_only=True)) < r.win_moved == 24
