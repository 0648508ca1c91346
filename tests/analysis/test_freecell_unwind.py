"""Maximal lost games dealt backwards (patience.analysis.freecell_unwind): the lock, the predecessor
moves, and every deal found re-checked by independent complete searches (lost, the bound home at most)."""

from __future__ import annotations

import pytest

from patience.analysis.freecell_lost import Config, _shape, klaver_frame, upper_bound
from patience.analysis.freecell_unwind import lock, position, predecessors, unwind
from patience.engine import Engine
from patience.instance import Instance
from patience.solvers.base import Status

from .test_freecell_lost import brute, plain_dfs


def test_lock_is_lost_with_the_bound_home():
    for label in ("3-5-4-1", "4-6-4-1", "3-6-4-2"):
        cfg = Config.parse(label)
        st = lock(cfg)
        assert sum(st.home) == upper_bound(cfg) and None not in st.cells
        assert plain_dfs(position(cfg, st)) == (Status.UNSOLVABLE, 0)  # no move home from the lock
    with pytest.raises(ValueError, match="ranks = stacks"):
        lock(Config.parse("5-7-4-2"))


def test_every_predecessor_reaches_the_state_by_one_legal_move():
    cfg = Config.parse("3-5-4-1")
    fixed = frozenset(klaver_frame(cfg).values())
    st = lock(cfg)
    for _ in range(6):  # a few levels down, each predecessor checked against the engine's moves
        preds = predecessors(st, _shape(cfg), fixed)
        assert preds
        want = Engine(position(cfg, st)).key()
        for p in preds:
            e = Engine(position(cfg, p))
            keys = set()
            for m in e.legal_moves():
                e.apply(m)
                keys.add(e.key())
                e.undo()
            assert want in keys, p
        st = preds[0]


@pytest.mark.parametrize("label", ["3-5-4-1", "4-6-4-1"])
def test_unwind_finds_maximal_lost_games_that_complete_searches_confirm(label):
    cfg = Config.parse(label)
    res = unwind(cfg, seed=1, seconds=60)
    assert res.deal is not None and res.fewest_left == 0
    Instance.build(res.deal.game, res.deal.layout, res.deal.overrides)  # a real deal: the dealt shape
    assert plain_dfs(res.deal) == (Status.UNSOLVABLE, upper_bound(cfg))  # no dominance, no streamliner
    if label == "3-5-4-1":
        assert brute(res.deal) == (False, upper_bound(cfg))  # every state, no pruning at all
