"""Decks past ``large_cards`` tableau cards: one cheap CP-SAT stage, no probing stage, no LP, SAT
inprocessing in the whole deal's model (backend and params docstrings); smaller decks keep the two
stages."""

from __future__ import annotations

import pytest

from patience.deals import deal
from patience.solvers.base import Limits, Status, get_solver
from patience.solvers.cpsat_hole import CpSatBlackHole, backend
from patience.solvers.cpsat_hole.params import parameters


@pytest.fixture
def calls(monkeypatch):
    """The (probing, large, inprocessing) arguments of every CP-SAT stage the backend starts."""
    got: list[tuple[int, bool, bool]] = []

    def spy(seconds, workers, formulation="table", probing=0, large=False, inprocessing=False):
        got.append((probing, large, inprocessing))
        return parameters(seconds, workers, formulation, probing, large, inprocessing)

    monkeypatch.setattr(backend, "parameters", spy)
    return got


def test_a_104_card_deal_runs_one_stage_and_agrees_with_dfs(calls):
    inst = deal("all-in-a-row", 10, "portable", {"suits": 8})  # lost: dfs proves it in a few hundred nodes
    cp = CpSatBlackHole(presearch_nodes=0, max_cards=False, cubes_after=None).solve(inst, Limits(seconds=60))
    assert cp.status is Status.UNSOLVABLE, cp
    assert calls == [(0, True, True)] and "probing_stage" not in cp.stats
    assert parameters(1, 1, "table", large=True).parameters.linearization_level == 0
    assert parameters(1, 1, "table", large=True, inprocessing=True).parameters.use_sat_inprocessing
    assert not parameters(1, 1, "table", large=True).parameters.use_sat_inprocessing  # the cubes' solves
    assert get_solver("dfs").solve(inst, Limits(seconds=60)).status is Status.UNSOLVABLE


def test_the_threshold_is_the_number_of_tableau_cards(calls):
    inst = deal("all-in-a-row", 10, "portable", {"suits": 8})
    solver = CpSatBlackHole(presearch_nodes=0, max_cards=False, large_cards=200, probe_after=0.01)
    r = solver.solve(inst, Limits(seconds=3))
    assert r.status in (Status.UNSOLVABLE, Status.UNKNOWN)  # whatever the probing stage gets done in 3 s
    assert calls == [(0, False, False), (2, False, False)]  # 0.01 s cannot decide 104 cards: probing follows
    assert CpSatBlackHole.Options().large_cards == 72
