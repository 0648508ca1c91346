"""The hole search kernel (hole_kernel.search) compiled by numba against the same function uncompiled.

Both runs must find the same verdict, the same solution and the same node count, best cards (and moves
to them), cut counts and table hits, also when a tiny table is cleared; limits must give UNKNOWN in both.
Tests that need numba skip without it (the uncompiled kernel is what runs then).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time

import pytest

from patience.deals import deal
from patience.engine import Engine
from patience.rules import load_game
from patience.solvers import base, dfs_hole, hole_kernel
from patience.solvers.base import Limits, Status, solve
from patience.solvers.dfs_hole import HoleOutcome, hole_search, hole_search_problem

needs_numba = pytest.mark.skipif(
    not hole_kernel.HAVE_NUMBA, reason="numba kernel off (not installed or PATIENCE_NO_JIT)"
)

# Deals each run decides within ~50k nodes (the uncompiled kernel keeps the default run short): PySol
# numbering for the one-hole games, the portable generator for Binary Star (two holes).
QUICK = {
    "black-hole": [1, 2, 3, 4, 5, 6, 8, 9, 10, 25, 29, 33, 37],
    "all-in-a-row": [1, 2, 3, 4, 5, 6, 9, 12, 13, 14, 15, 16, 17, 19, 20, 21, 22, 24, 25, 27],
    "binary-star": [1, 2, 3, 6, 7, 8, 9],
}
SMALL = [
    ("black-hole", {"suits": 2, "ranks": 5, "piles": 3}),
    ("black-hole", {"suits": 3, "ranks": 4, "piles": 11}),
    ("black-hole", {"suits": 4, "ranks": 7, "piles": 9, "foundations.king_blocks": True}),
    ("all-in-a-row", {"suits": 2, "ranks": 6, "piles": 4}),
    ("all-in-a-row", {"suits": 2, "ranks": 6, "piles": 4, "wrap": False}),
    ("all-in-a-row", {"suits": 4, "ranks": 8, "piles": 8}),
    ("binary-star", {"suits": 2, "ranks": 5, "piles": 6}),
    ("binary-star", {"suits": 2, "ranks": 5, "piles": 9, "wrap": False}),
    ("binary-star", {"suits": 3, "ranks": 6, "piles": 17}),
    ("all-in-a-row", {"suits": 3, "ranks": 5, "piles": 5, "holes": 3}),
    # Golf, Golf (Solvitaire) and Worm Hole without their stock or cell, then with them (and two cells).
    ("golf", {"suits": 3, "ranks": 5, "piles": 7, "stock": 0, "thoughtful": True}),
    ("golf-solvitaire", {"suits": 3, "ranks": 5, "piles": 7, "stock": 0}),
    ("worm-hole", {"suits": 4, "ranks": 4, "piles": 5, "cells": 0}),
    ("golf", {"suits": 3, "ranks": 6, "piles": 4, "stock": 5, "thoughtful": True}),
    ("golf-solvitaire", {"suits": 4, "ranks": 5, "piles": 4, "stock": 7}),
    ("golf-solvitaire", {"suits": 2, "ranks": 7, "piles": 3, "stock": 4, "wrap": True}),
    ("worm-hole", {"suits": 4, "ranks": 4, "piles": 5}),
    ("worm-hole", {"suits": 3, "ranks": 7, "piles": 4}),
    ("worm-hole", {"suits": 2, "ranks": 8, "piles": 5, "cells": 2, "wrap": False}),
    ("binary-star", {"suits": 2, "ranks": 5, "piles": 7, "cells": 1, "stock": 4, "stock.deal_to": "hole"}),
]
# Solvitaire's deals of the two games with a stock or a cell, decided within ~60k nodes.
SOLVITAIRE = {"golf-solvitaire": [1, 4, 5, 6, 8, 14, 21, 30], "worm-hole": [1, 2, 3, 9, 12, 23, 26]}


def _run(
    engine: Engine, jit: bool, nodes: int | None = None, seconds: float = 60, prelude: int = 0
) -> HoleOutcome:
    return hole_search(engine, time.perf_counter() + seconds, nodes, 10**7, jit=jit, prelude=prelude)


def _same(a: HoleOutcome, b: HoleOutcome) -> None:
    """``a`` ran compiled, ``b`` uncompiled, and they agree on everything but the speed."""
    assert a.compiled and not b.compiled
    assert (a.won, a.complete, a.stop, a.moves) == (b.won, b.complete, b.stop, b.moves)
    assert (a.nodes, a.best, a.best_moves, a.reach_cuts) == (b.nodes, b.best, b.best_moves, b.reach_cuts)
    assert a.table is not None and b.table is not None and a.table.hits == b.table.hits


@needs_numba
@pytest.mark.parametrize("game", sorted(QUICK))
def test_compiled_and_uncompiled_agree_on_pysol_deals(game: str) -> None:
    for seed in QUICK[game]:
        e = Engine(deal(game, seed, "portable" if game == "binary-star" else "pysol"))
        _same(_run(e, True), _run(e, False))


@needs_numba
@pytest.mark.parametrize(("game", "over"), SMALL)
def test_compiled_and_uncompiled_agree_on_small_decks(game: str, over: dict) -> None:
    for seed in range(1, 21):
        inst = deal(game, seed, overrides=over)
        assert hole_search_problem(inst.rules) is None
        e = Engine(inst)
        _same(_run(e, True), _run(e, False))


@needs_numba
@pytest.mark.parametrize("game", sorted(SOLVITAIRE))
def test_compiled_and_uncompiled_agree_on_stock_and_cell_deals(game: str) -> None:
    """Golf's stock and Worm Hole's cell, full size (Solvitaire's deals): node for node."""
    for seed in SOLVITAIRE[game]:
        e = Engine(deal(game, seed, "solvitaire"))
        a = _run(e, True)
        _same(a, _run(e, False))
        assert a.won or a.complete


ALL_PRUNES = frozenset(dfs_hole.HOLE_PRUNES)
ABLATIONS = [frozenset(), ALL_PRUNES - {"reach", "degree"}, *(ALL_PRUNES - {p} for p in sorted(ALL_PRUNES))]


@needs_numba
@pytest.mark.parametrize("prunes", ABLATIONS, ids=lambda u: "off:" + "+".join(sorted(ALL_PRUNES - u)))
def test_compiled_and_uncompiled_honour_the_same_prune_switches(prunes: frozenset[str]) -> None:
    """With any prune off (or all), the compiled and the uncompiled kernel take the same steps."""
    cases = [(g, over, 8) for g, over in SMALL] + [("all-in-a-row", {}, 0), ("black-hole", {}, 0)]
    for game, over, seeds in cases:
        for seed in range(1, seeds + 1) if seeds else (13, 16):
            inst = deal(game, seed, "portable", over) if seeds else deal(game, seed, "pysol")
            a = hole_search(
                Engine(inst), time.perf_counter() + 60, 300_000, 10**7, jit=True, prelude=0, prunes=prunes
            )
            b = hole_search(Engine(inst), time.perf_counter() + 60, 300_000, 10**7, jit=False, prunes=prunes)
            _same(a, b)


@needs_numba
@pytest.mark.parametrize(
    ("game", "seed"), [("black-hole", 24), ("all-in-a-row", 7), ("all-in-a-row", 10), ("binary-star", 4)]
)
def test_node_limit_gives_unknown_in_both_paths(game: str, seed: int) -> None:
    gen = "portable" if game == "binary-star" else "pysol"
    e = Engine(deal(game, seed, gen))
    for cap in (0, 1, 300, 5000):
        a, b = _run(e, True, nodes=cap), _run(e, False, nodes=cap)
        _same(a, b)
        assert a.stop == "nodes" and not a.won and not a.complete and a.nodes <= max(cap, 1)
    inst = deal(game, seed, gen)
    result = solve(inst, "dfs", Limits(seconds=30, nodes=300))
    assert result.status is Status.UNKNOWN and result.message == "node limit"
    assert result.stats["nodes"] == 300


@needs_numba
def test_uncompiled_prelude_then_compiled_kernel() -> None:
    """Uncompiled prelude first, compiled kernel after: the same answer, and node limits stay exact."""
    cases = [("all-in-a-row", 20), ("all-in-a-row", 13), ("all-in-a-row", 5), ("black-hole", 3)]
    cases.append(("binary-star", 6))
    for game, seed in cases:
        e = Engine(deal(game, seed, "portable" if game == "binary-star" else "pysol"))
        alone = _run(e, False)
        both = _run(e, True, prelude=1000)
        assert (both.won, both.complete, both.moves) == (alone.won, alone.complete, alone.moves)
        assert both.nodes >= alone.nodes and (both.best, both.best_moves) == (alone.best, alone.best_moves)
        for cap in (500, 1000, 1001, 3000):
            a = _run(e, True, nodes=cap, prelude=1000)
            assert a.nodes <= cap
            if a.stop:  # the restart may run out of nodes where one loop alone would not: never a verdict
                assert a.stop == "nodes" and a.nodes == cap and not (a.won or a.complete)
            else:
                assert (a.won, a.complete, a.moves) == (alone.won, alone.complete, alone.moves)


@needs_numba
def test_time_limit_gives_unknown() -> None:
    e = Engine(deal("all-in-a-row", 7, "pysol"))  # lost, 619k nodes: more than one chunk
    out = _run(e, True, seconds=1e-6)
    assert out.stop == "time" and not out.won and not out.complete
    result = solve(deal("all-in-a-row", 7, "pysol"), "dfs", Limits(seconds=1e-6))
    assert result.status is Status.UNKNOWN and result.message == "time limit"


@needs_numba
def test_full_table_is_cleared_without_changing_the_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tiny memory budget makes the kernel forget dead states: more nodes, same verdict and moves;
    compiled and uncompiled forget at the same moments."""
    monkeypatch.setattr(hole_kernel, "_MIN_SLOTS", 1024)
    more = 0
    for game, seed in [("all-in-a-row", 20), ("all-in-a-row", 5), ("black-hole", 3), ("binary-star", 3)]:
        e = Engine(deal(game, seed, "portable" if game == "binary-star" else "pysol"))
        small = hole_search(e, time.perf_counter() + 60, None, 2, jit=True, prelude=0)  # 1024 slots
        full = _run(e, True)
        assert (small.won, small.complete, small.moves) == (full.won, full.complete, full.moves)
        assert small.nodes >= full.nodes
        more += small.nodes > full.nodes
        if small.nodes < 300_000:  # the uncompiled run, where it is quick
            _same(small, hole_search(e, time.perf_counter() + 60, None, 2, jit=False))
    assert more  # the table did fill and was cleared


@needs_numba
def test_stats_in_the_jit_path() -> None:
    result = solve(deal("all-in-a-row", 13, "pysol"), "dfs", Limits(seconds=30))
    assert result.status is Status.UNSOLVABLE
    for key in ("nodes", "seconds", "peak_mb", "table_hits", "best_foundation"):
        assert key in result.stats
    assert result.stats["peak_mb"] > 0 and result.stats["table_hits"] > 0
    assert result.stats["best_foundation"] == 44


def test_forced_fallback_solves(monkeypatch: pytest.MonkeyPatch) -> None:
    """With numba switched off the backend still decides and validates hole deals (kernel uncompiled)."""
    monkeypatch.setattr(dfs_hole, "USE_JIT", False)
    assert solve(deal("all-in-a-row", 3, "pysol"), "dfs", Limits(seconds=30)).status is Status.SOLVED
    assert solve(deal("black-hole", 1, "pysol"), "dfs", Limits(seconds=30)).status is Status.UNSOLVABLE


def test_without_numba_the_kernel_runs_uncompiled() -> None:
    """numba missing (import blocked): the module still imports and the backend still solves."""
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "from patience.solvers import dfs_hole, hole_kernel\n"
        "numpy_before = 'numpy' in sys.modules\n"
        "from patience.deals import deal\n"
        "from patience.solvers.base import Limits, solve\n"
        "assert not hole_kernel.HAVE_NUMBA and not dfs_hole.USE_JIT and hole_kernel.compiled() is None\n"
        "print(solve(deal('all-in-a-row', 4, 'pysol'), 'dfs', Limits(seconds=30)).status.name)\n"
        "dfs_hole.USE_JIT = True  # asked for, but numba cannot load: the kernel runs uncompiled\n"
        "print(solve(deal('all-in-a-row', 3, 'pysol'), 'dfs', Limits(seconds=30)).status.name)\n"
        "assert numpy_before or 'numpy' not in sys.modules  # the uncompiled kernel runs on lists\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PATIENCE_NO_JIT"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["SOLVED", "SOLVED"]


def test_two_holes_solve_in_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    assert solve(deal("binary-star", 2), "dfs", Limits(seconds=30)).status is Status.SOLVED
    monkeypatch.setattr(dfs_hole, "USE_JIT", False)
    assert solve(deal("binary-star", 2), "dfs", Limits(seconds=30)).status is Status.SOLVED


@needs_numba
def test_the_hash_is_the_same_compiled_and_uncompiled() -> None:
    """The one helper with a compiled twin (uint64 arithmetic) puts every key in the same slot."""
    from numba import njit

    from patience.solvers.hole_kernel import _home

    assert hole_kernel.compiled() is not None  # registers the twin

    @njit
    def home(key: int, m: int) -> int:
        return _home(key, m)

    rng = random.Random(5)
    for _ in range(3000):
        key, m = rng.getrandbits(rng.randint(1, 62)), (1 << rng.randint(1, 30)) - 1
        assert home(key, m) == _home(key, m), (key, m)


def test_too_wide_for_the_compiled_kernel_runs_uncompiled() -> None:
    """70 piles do not fit the compiled kernel's int64 masks and keys: the same kernel runs uncompiled on
    Python ints, and solve() replays its wins."""
    over = {"suits": 4, "ranks": 35, "piles": 70}
    for seed in (1, 2, 3):
        inst = deal("all-in-a-row", seed, "portable", over)
        out = hole_search(Engine(inst), time.perf_counter() + 60, 100_000, 10**7, jit=True, prelude=0)
        assert out.won and not out.compiled and len(out.moves) == 140
        assert solve(inst, "dfs", Limits(seconds=60)).status is Status.SOLVED


@pytest.mark.parametrize(
    "game", ["black-hole", "all-in-a-row", "worm-hole", "golf-solvitaire", "golf-thoughtful"]
)
def test_auto_picks_dfs_for_hole_games(game: str) -> None:
    """One hole: the hole search (several holes go to hole-portfolio, whose first stage it is)."""
    assert base._pick_auto(load_game(game).rules).name == "dfs"
