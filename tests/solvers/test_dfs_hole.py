"""hole_search's best_moves: the moves to its best state replay legally and reach ``best`` cards.

Checked on won and lost deals of the three hole games in both loops (the numba kernels and pure Python,
with no prelude), with a node limit, and with the Python prelude handing over to the kernel. The jit
cases skip without numba (or with ``PATIENCE_NO_JIT=1``).
"""

from __future__ import annotations

import time

import pytest

from patience.deals import deal
from patience.engine import Engine
from patience.instance import Instance
from patience.solvers import dfs_hole_jit
from patience.solvers.dfs_hole import HoleOutcome, hole_search

JIT = [
    False,
    pytest.param(
        True, marks=pytest.mark.skipif(not dfs_hole_jit.HAVE_NUMBA, reason="numba kernel off"), id="jit"
    ),
]
# (game, seed, won): PySol numbering for the one-hole games, the portable generator for Binary Star.
# The lost ones reach from 5 (Black Hole 29) up to 49 cards (All in a Row 20).
DEALS = [
    ("black-hole", 2, True),
    ("black-hole", 10, True),
    ("black-hole", 29, False),
    ("black-hole", 38, False),
    ("all-in-a-row", 3, True),
    ("all-in-a-row", 19, True),
    ("all-in-a-row", 16, False),
    ("all-in-a-row", 20, False),
    ("binary-star", 2, True),
    ("binary-star", 9, True),
    ("binary-star", 12, False),
    ("binary-star", 15, False),
]


def _inst(game: str, seed: int) -> Instance:
    return deal(game, seed, "portable" if game == "binary-star" else "pysol")


def _search(inst: Instance, jit: bool, nodes: int | None = None, prelude: int = 0) -> HoleOutcome:
    return hole_search(Engine(inst), time.perf_counter() + 60, nodes, 10**7, jit=jit, prelude=prelude)


def _replays(inst: Instance, out: HoleOutcome) -> None:
    """best_moves plays legally from the start and leaves exactly ``best`` cards on the holes."""
    eng = Engine(inst)
    for m in out.best_moves:
        assert eng.is_legal(m), m
        eng.apply(m)
    assert eng.foundation_cards() == out.best


@pytest.mark.parametrize("jit", JIT)
@pytest.mark.parametrize(("game", "seed", "won"), DEALS)
def test_best_moves_replay_to_best(game: str, seed: int, won: bool, jit: bool) -> None:
    inst = _inst(game, seed)
    out = _search(inst, jit)
    assert out.won is won and (won or out.complete)
    _replays(inst, out)
    if won:
        assert out.best_moves == out.moves and out.best == Engine(inst).n_cards
    else:
        assert out.best_moves and not out.moves


@pytest.mark.skipif(not dfs_hole_jit.HAVE_NUMBA, reason="numba kernel off")
@pytest.mark.parametrize(("game", "seed", "won"), DEALS)
def test_jit_and_python_give_the_same_best_moves(game: str, seed: int, won: bool) -> None:
    inst = _inst(game, seed)
    a, b = _search(inst, True), _search(inst, False)
    assert (a.won, a.best, a.best_moves) == (b.won, b.best, b.best_moves)


@pytest.mark.parametrize("jit", JIT)
@pytest.mark.parametrize(
    ("game", "seed"), [("black-hole", 16), ("all-in-a-row", 20), ("all-in-a-row", 7), ("binary-star", 3)]
)
def test_node_limit_keeps_a_replayable_best(game: str, seed: int, jit: bool) -> None:
    inst = _inst(game, seed)
    for cap in (1, 300, 2000):
        out = _search(inst, jit, nodes=cap)
        assert out.stop == "nodes" and not out.won and out.nodes == cap
        assert len(out.best_moves) == out.best - Engine(inst).foundation_cards() > 0
        _replays(inst, out)


def test_nothing_to_play_gives_no_moves() -> None:
    inst = _inst("black-hole", 27)  # no card on the tableau can go to the hole
    for jit in (False, dfs_hole_jit.HAVE_NUMBA):
        out = _search(inst, jit)
        assert out.complete and not out.won
        assert out.best == Engine(inst).foundation_cards() and out.best_moves == []


@pytest.mark.skipif(not dfs_hole_jit.HAVE_NUMBA, reason="numba kernel off")
@pytest.mark.parametrize(("game", "seed"), [("all-in-a-row", 20), ("all-in-a-row", 16), ("binary-star", 15)])
def test_prelude_takes_best_moves_from_the_better_part(game: str, seed: int) -> None:
    """Python prelude, then the kernel from the start: best_moves comes from whichever went further."""
    inst = _inst(game, seed)
    alone = _search(inst, False)
    for prelude, cap in ((50, None), (50, 51), (50, 300), (1000, None)):
        out = _search(inst, True, nodes=cap, prelude=prelude)
        first = _search(inst, False, nodes=prelude)
        assert out.best >= first.best
        _replays(inst, out)
        if cap is None:
            assert (out.best, out.best_moves) == (alone.best, alone.best_moves)
        if out.best == first.best:
            assert out.best_moves == first.best_moves
