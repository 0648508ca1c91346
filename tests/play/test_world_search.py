"""WorldSearch: dfs-jit's search of full states with the per-game tables built once gives search_from's
results and pack's arrays exactly."""

from __future__ import annotations

import random

import numpy as np
import pytest

from patience.deals import deal
from patience.engine import Engine
from patience.play.world_search import WorldSearch
from patience.solvers.dfs_jit import search_from
from patience.solvers.generic_kernel.pack import pack


@pytest.mark.parametrize(("game", "overrides", "seed"), [("klondike", None, 7), ("klondike", {"draw": 1}, 3)])
def test_world_search_is_search_from_along_a_game(game: str, overrides: dict | None, seed: int) -> None:
    """Along a random game (the stock and waste change size, cards go home and come back): the packed arrays
    equal pack()'s in both phases' forms, and every search's Found equals search_from's, wins and proofs
    among them."""
    e = Engine(deal(game, seed, overrides=overrides))
    ws = WorldSearch(e)
    rng = random.Random(seed)
    for _ in range(60):
        for colour in (False, True):
            a, b = pack(e, colour=colour), ws.pack(e, colour)
            assert np.array_equal(a.S, b.S) and np.array_equal(a.L, b.L) and np.array_equal(a.C, b.C)
            assert a.frame == b.frame
        got = ws.search(e, nodes=400)
        assert got == search_from(e, nodes=400, seconds=60.0)
        legal = e.legal_moves()
        if not legal:
            break
        e.apply(rng.choice(legal))
    assert len(ws._layout) >= 4  # several stock sizes met, each packed once


def test_world_search_refuses_rules_the_kernel_does_not_cover() -> None:
    with pytest.raises(ValueError, match="kernel does not cover"):
        WorldSearch(Engine(deal("gaps", 1)))
