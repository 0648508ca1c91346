"""solvers/gaps_jit.py: the compiled Gaps search makes dfs's verdicts with dfs's node counts."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from patience.deals import deal
from patience.solvers.base import Limits, Reason, Status, get_solver, solve

# (game, overrides, seeds, verdicts among them): small random deals; dfs needs at most ~50k nodes on each.
# With two redeals every small deal here is won; one redeal and fixed-suit 2s on 4 x 5 lose 7 of these 40.
ONE_REDEAL = {"ranks": 5, "gaps.redeals": 1, "gaps.first_column": "fixed-suit"}
BOTH, WON = {Status.SOLVED, Status.UNSOLVABLE}, {Status.SOLVED}
DEALS = [("gaps-basic-variant", {"ranks": 6}, range(1, 31), BOTH),
         ("gaps-one-deal", {"ranks": 5}, range(1, 31), BOTH),
         ("gaps-basic-variant", {"ranks": 7}, range(1, 21), BOTH),
         ("gaps", {"ranks": 6}, range(1, 21), WON),
         ("gaps", ONE_REDEAL, range(1, 41), BOTH)]  # fmt: skip
LIMITS = Limits(seconds=60)


@pytest.mark.parametrize(("game", "over", "seeds", "want"), DEALS)
def test_same_verdicts_and_nodes_as_dfs(game: str, over: dict, seeds: range, want: set[Status]) -> None:
    """Same search as dfs (no prune applies to Gaps, same move order): equal verdicts and node counts;
    every win replayed by the validator (Backend.solve)."""
    dfs, jit = get_solver("dfs"), get_solver("gaps-jit")
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
    jit, py = get_solver("gaps-jit"), get_solver("gaps-jit", jit=False)
    for game, over, seed in [("gaps-basic-variant", {"ranks": 6}, s) for s in range(1, 13)] + [
        ("gaps", ONE_REDEAL, s) for s in (1, 2, 3)
    ]:
        inst = deal(game, seed, overrides=over)
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
    many = solve(deal("gaps", 1, overrides={"gaps.redeals": 17}), "gaps-jit", Limits(seconds=1))
    assert many.status is Status.UNSUPPORTED  # the redeal permutations' table is capped


AUTO = [("gaps-basic-variant", "gaps-jit"), ("gaps-one-deal", "gaps-jit"), ("gaps", "gaps-jit")]


@pytest.mark.parametrize(("game", "backend"), AUTO)
def test_auto_uses_the_kernel(game: str, backend: str) -> None:
    result = solve(deal(game, 4, overrides={"ranks": 6}), "auto", LIMITS)
    assert result.backend == backend and result.status in (Status.SOLVED, Status.UNSOLVABLE)
