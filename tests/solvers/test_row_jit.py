"""solvers/row_jit.py: the compiled row-game search makes dfs's verdicts with dfs's node counts."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from patience.deals import deal
from patience.solvers.base import Limits, Reason, Status, get_solver, solve

# Knuth's 18 cards lose about half their deals; these need at most ~65k nodes of dfs. Small full decks win.
KNUTH = (1, 3, 5, 6, 7, 10, 12, 14, 16, 18, 20, 23, 25, 28, 31, 32, 33, 35, 37, 38, 39)
DEALS = [("accordion-knuth", {}, KNUTH, {Status.SOLVED, Status.UNSOLVABLE}),
         ("accordion", {"ranks": 6, "piles": 24}, range(1, 16), {Status.SOLVED}),
         ("accordion", {"suits": 3, "ranks": 7, "piles": 21}, range(1, 16), {Status.SOLVED}),
         ("accordion-knuth", {"row.distances": [1, 2], "row.match": ["same-suit", "same-rank"]}, range(1, 16),
          {Status.SOLVED, Status.UNSOLVABLE})]  # fmt: skip
LIMITS = Limits(seconds=60)


@pytest.mark.parametrize(("game", "over", "seeds", "want"), DEALS)
def test_same_verdicts_and_nodes_as_dfs(game: str, over: dict, seeds: range, want: set[Status]) -> None:
    """Same search as dfs without its streamlined phase (no prune applies to a row game, same move order):
    equal verdicts and node counts; every win replayed by the validator (Backend.solve)."""
    dfs, jit = get_solver("dfs", streamline_share=0), get_solver("row-jit")
    verdicts = set()
    for seed in seeds:
        inst = deal(game, seed, overrides=over)
        a, b = dfs.solve(inst, LIMITS), jit.solve(inst, LIMITS)
        assert (b.status, b.stats["nodes"]) == (a.status, a.stats["nodes"]), (game, over, seed)
        if b.status is Status.UNSOLVABLE:
            assert b.max_cards == a.max_cards
        verdicts.add(b.status)
    assert verdicts == want


def test_uncompiled_kernel_is_the_same_search() -> None:
    """jit=False runs the same functions in Python: the same verdicts and nodes."""
    jit, py = get_solver("row-jit"), get_solver("row-jit", jit=False)
    for seed in (1, 16, 18, 25, 32):
        inst = deal("accordion-knuth", seed)
        a, b = jit.solve(inst, LIMITS), py.solve(inst, LIMITS)
        assert (a.status, a.stats["nodes"]) == (b.status, b.stats["nodes"]) and b.stats["compiled"] == 0


def test_no_jit_environment_runs_uncompiled() -> None:
    """PATIENCE_NO_JIT=1: numba is not used and the verdict is dfs's."""
    code = (
        "import json; from patience.deals import deal; from patience.solvers.base import Limits, solve;"
        "r = solve(deal('accordion-knuth', 32), 'row-jit', Limits(seconds=30));"
        "print(json.dumps([r.status.value, r.stats['compiled'], r.stats['nodes']]))"
    )
    env = {**os.environ, "PATIENCE_NO_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == ["unsolvable", 0.0, 1308]


def test_full_deals_the_python_search_missed() -> None:
    """Solvitaire's Accordion seeds 4, 8 and 35, which dfs left undecided at 10 s (1.2-1.5 M nodes), are won
    and the wins replay (the validator, in Backend.solve)."""
    for seed in (4, 8, 35):
        r = solve(deal("accordion", seed, "solvitaire"), "row-jit", Limits(seconds=60))
        assert r.status is Status.SOLVED and len(r.solution) == 51, seed


def test_limits_and_refusals() -> None:
    inst = deal("accordion-knuth", 10)  # lost, 64,991 nodes
    capped = solve(inst, "row-jit", Limits(seconds=30, nodes=100))
    assert capped.status is Status.UNKNOWN and capped.reason is Reason.NODES and capped.stats["nodes"] == 100
    timed = solve(inst, "row-jit", Limits(seconds=0.0))
    assert timed.status is Status.UNKNOWN and timed.reason is Reason.TIME
    two = solve(deal("accordion", 1, overrides={"decks": 2, "piles": 104}), "row-jit", Limits(seconds=1))
    assert two.status is Status.UNSUPPORTED  # repeated tops: the pair key would not be exact


def test_auto_uses_the_kernel() -> None:
    result = solve(deal("accordion", 2, "solvitaire"), "auto", LIMITS)
    assert result.backend == "row-jit" and result.status is Status.SOLVED
