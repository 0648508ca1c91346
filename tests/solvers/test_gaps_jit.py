"""solvers/gaps_jit.py: the compiled Gaps search makes dfs's verdicts with dfs's node counts."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from patience.deals import deal
from patience.solvers.base import Limits, Reason, Status, get_solver, solve

# (game, ranks, seeds): small random deals, won and lost; dfs needs at most ~50k nodes on each
DEALS = [("gaps-basic-variant", 6, range(1, 31)), ("gaps-one-deal", 5, range(1, 31)),
         ("gaps-basic-variant", 7, range(1, 21))]  # fmt: skip
LIMITS = Limits(seconds=60)


@pytest.mark.parametrize(("game", "ranks", "seeds"), DEALS)
def test_same_verdicts_and_nodes_as_dfs(game: str, ranks: int, seeds: range) -> None:
    """Same search as dfs (no prune applies to Gaps, same move order): equal verdicts and node counts;
    every win replayed by the validator (Backend.solve)."""
    dfs, jit = get_solver("dfs"), get_solver("gaps-jit")
    verdicts = set()
    for seed in seeds:
        inst = deal(game, seed, overrides={"ranks": ranks})
        a, b = dfs.solve(inst, LIMITS), jit.solve(inst, LIMITS)
        assert (b.status, b.stats["nodes"]) == (a.status, a.stats["nodes"]), (game, ranks, seed)
        if b.status is Status.UNSOLVABLE:
            assert b.max_cards == a.max_cards
        verdicts.add(b.status)
    assert verdicts == {Status.SOLVED, Status.UNSOLVABLE}


def test_uncompiled_kernel_is_the_same_search() -> None:
    """jit=False runs the same functions in Python: the same verdicts and nodes."""
    jit, py = get_solver("gaps-jit"), get_solver("gaps-jit", jit=False)
    for seed in range(1, 13):
        inst = deal("gaps-basic-variant", seed, overrides={"ranks": 6})
        a, b = jit.solve(inst, LIMITS), py.solve(inst, LIMITS)
        assert (a.status, a.stats["nodes"]) == (b.status, b.stats["nodes"]) and b.stats["compiled"] == 0


def test_no_jit_environment_runs_uncompiled() -> None:
    """PATIENCE_NO_JIT=1: numba is not used and the verdict is dfs's."""
    code = (
        "import json; from patience.deals import deal; from patience.solvers.base import Limits, solve;"
        "r = solve(deal('gaps-basic-variant', 5, overrides={'ranks': 6}), 'gaps-jit', Limits(seconds=30));"
        "print(json.dumps([r.status.value, r.stats['compiled'], r.stats['nodes']]))"
    )
    env = {**os.environ, "PATIENCE_NO_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == ["solved", 0.0, 206]


def test_limits_and_refusals() -> None:
    inst = deal("gaps-basic-variant", 13, overrides={"ranks": 6})  # lost, 5,843 nodes
    capped = solve(inst, "gaps-jit", Limits(seconds=30, nodes=100))
    assert capped.status is Status.UNKNOWN and capped.reason is Reason.NODES and capped.stats["nodes"] == 100
    timed = solve(inst, "gaps-jit", Limits(seconds=0.0))
    assert timed.status is Status.UNKNOWN and timed.reason is Reason.TIME
    redeals = solve(deal("gaps", 1), "gaps-jit", Limits(seconds=1))
    assert redeals.status is Status.UNSUPPORTED  # the seeded redeal shuffle is not in the kernel


AUTO = [("gaps-basic-variant", "gaps-jit"), ("gaps-one-deal", "gaps-jit"), ("gaps", "dfs")]


@pytest.mark.parametrize(("game", "backend"), AUTO)
def test_auto_uses_the_kernel_without_redeals(game: str, backend: str) -> None:
    result = solve(deal(game, 4, overrides={"ranks": 6}), "auto", LIMITS)
    assert result.backend == backend and result.status in (Status.SOLVED, Status.UNSOLVABLE)
