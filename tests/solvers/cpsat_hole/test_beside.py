"""The backend's win stage beside the decision model (option ``beside``): its verdicts are dfs's on small
decks, with the cubes and with the LNS; it needs a second worker. The race: tests/solvers/test_race.py."""

from __future__ import annotations

import pytest

from patience.deals import deal
from patience.solvers.base import Limits, Status, get_solver
from patience.solvers.cpsat_hole import CpSatBlackHole


@pytest.mark.parametrize("lns", [False, True])
def test_the_backend_beside_gives_dfs_verdicts(lns):
    extra = {"lns_after": 0.0} if lns else {}
    opts = {"presearch_nodes": 0, "max_cards": False, "large_cards": 10, "workers": 2, "beside": True}
    backend = CpSatBlackHole(**opts, **extra)
    seen = set()
    for seed in (1, 2, 3, 14):  # 14 is lost
        inst = deal("all-in-a-row", seed, "portable", {"suits": 2})
        truth = get_solver("dfs").solve(inst, Limits(seconds=30)).status
        r = backend.solve(inst, Limits(seconds=30))
        assert r.status is truth, (seed, r)
        assert ("lns_greedy" if lns else "cube_playouts") in r.stats  # the stage ran beside
        seen.add(truth)
    assert seen == {Status.SOLVED, Status.UNSOLVABLE}


def test_beside_needs_a_second_worker():
    with pytest.raises(ValueError, match="beside needs workers >= 2"):
        CpSatBlackHole(beside=True)


def test_cube_work_must_be_positive():
    with pytest.raises(ValueError, match="cube_work must be positive"):
        CpSatBlackHole(cube_work=0.0)
