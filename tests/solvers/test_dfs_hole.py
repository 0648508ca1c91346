"""hole_search's best_moves: the moves to its best state replay legally and reach ``best`` cards.

Checked on won and lost deals of the three hole games with the kernel compiled and uncompiled (no
prelude), with a node limit, and with the uncompiled prelude handing over to the compiled kernel. The
jit cases skip without numba (or with ``PATIENCE_NO_JIT=1``).
"""

from __future__ import annotations

import time

import pytest

from patience.deals import deal
from patience.engine import Engine
from patience.instance import Instance
from patience.solvers import hole_kernel
from patience.solvers.base import Limits, Status, solve
from patience.solvers.dfs import DfsSolver
from patience.solvers.dfs_hole import HOLE_PRUNES, HoleOutcome, hole_search, hole_search_problem

JIT = [
    False,
    pytest.param(
        True, marks=pytest.mark.skipif(not hole_kernel.HAVE_NUMBA, reason="numba kernel off"), id="jit"
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


@pytest.mark.skipif(not hole_kernel.HAVE_NUMBA, reason="numba kernel off")
@pytest.mark.parametrize(("game", "seed", "won"), DEALS)
def test_compiled_and_uncompiled_give_the_same_best_moves(game: str, seed: int, won: bool) -> None:
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
    for jit in (False, hole_kernel.HAVE_NUMBA):
        out = _search(inst, jit)
        assert out.complete and not out.won
        assert out.best == Engine(inst).foundation_cards() and out.best_moves == []


@pytest.mark.skipif(not hole_kernel.HAVE_NUMBA, reason="numba kernel off")
@pytest.mark.parametrize(("game", "seed"), [("all-in-a-row", 20), ("all-in-a-row", 16), ("binary-star", 15)])
def test_prelude_takes_best_moves_from_the_better_part(game: str, seed: int) -> None:
    """Uncompiled prelude, then the compiled kernel from the start: best_moves comes from whichever went
    further."""
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


# Ablation: every prune of the hole search switched off alone (and all at once) keeps the verdict, which
# an exhaustive search with no pruning at all establishes. Small generalized decks, 40 deals a setting;
# each game's settings hold won and lost deals. Golf's stock and Worm Hole's free cell (one or two) are
# in the hole search too, and Binary Star with both (the stock deals to the first of two holes).
ALL_PRUNES = frozenset(HOLE_PRUNES)
SEEDS = range(1, 41)
HOLE_CASES = {
    "black-hole": [
        {"suits": 2, "ranks": 5, "piles": 3},
        {"suits": 4, "ranks": 4, "piles": 3},
        {"suits": 2, "ranks": 6, "piles": 11, "wrap": False, "foundations.king_blocks": True},
    ],
    "all-in-a-row": [
        {"suits": 3, "ranks": 5, "piles": 3},
        {"suits": 3, "ranks": 4, "piles": 6, "wrap": False},
        {"suits": 2, "ranks": 5, "piles": 5, "holes": 2, "wrap": False},  # two empty holes
    ],
    "binary-star": [
        {"suits": 2, "ranks": 7, "piles": 4, "decks": 1, "wrap": False},
        {"suits": 2, "ranks": 7, "piles": 3, "decks": 1},
        {"suits": 1, "ranks": 7, "piles": 4, "wrap": False},
        {"suits": 2, "ranks": 5, "piles": 7, "cells": 1, "stock": 4, "stock.deal_to": "hole"},
    ],
    "golf": [  # king_blocks: reach and degree follow one-way steps; suits 1 (wins) has no same-rank cards
        {"suits": 1, "ranks": 5, "piles": 4, "wrap": True, "stock": 0, "thoughtful": True},
        {"suits": 3, "ranks": 5, "piles": 7, "stock": 0, "thoughtful": True},
        {"suits": 2, "ranks": 6, "piles": 4, "stock": 3, "thoughtful": True},
        {"suits": 3, "ranks": 6, "piles": 4, "stock": 5, "thoughtful": True},
    ],
    "golf-solvitaire": [
        {"suits": 2, "ranks": 7, "piles": 3, "stock": 4},
        {"suits": 4, "ranks": 5, "piles": 4, "stock": 7},
        {"suits": 2, "ranks": 7, "piles": 3, "stock": 4, "wrap": True},
    ],
    "worm-hole": [
        {"suits": 4, "ranks": 4, "piles": 5, "wrap": False},
        {"suits": 1, "ranks": 7, "piles": 3},
        {"suits": 3, "ranks": 5, "piles": 7},
        {"suits": 2, "ranks": 8, "piles": 5, "cells": 2, "wrap": False},
        {"suits": 1, "piles": 6},  # seed 12: won only by parking a mid-pile card, played last from the cell
    ],
}


def brute_force_won(inst: Instance) -> bool:
    """Exhaustive search with no pruning (a memo of exact lost states only), with its own copy of the rank
    rule: tableau tops and a free cell's card to fitting holes, tops to an empty cell, the stock's top
    to the (first) hole (Golf); won when every card is on a hole."""
    rules = inst.rules
    R, wrap, kb = rules.deck.ranks, rules.foundations.wrap, rules.foundations.king_blocks

    def fits(r: int, t: int) -> bool:
        if t == 0:
            return True
        if kb and t == R:
            return False
        return abs(r - t) == 1 or (wrap and R > 1 and {r, t} == {1, R})

    piles = [[c.rank for c in p] for p in inst.layout.tableau]
    stock = [c.rank for c in inst.layout.stock]
    lost: set[tuple] = set()

    def won(h: tuple[int, ...], tops: tuple[int, ...], cells: tuple[int, ...], dealt: int) -> bool:
        if not any(h) and not any(cells) and dealt == len(stock):
            return True
        key = (h, tops, cells, dealt)
        if key in lost:
            return False
        nxt = []
        for j, t in enumerate(tops):
            for i, p in enumerate(piles):
                if h[i] and fits(p[h[i] - 1], t):
                    nh = h[:i] + (h[i] - 1,) + h[i + 1 :]
                    nxt.append((nh, tops[:j] + (p[h[i] - 1],) + tops[j + 1 :], cells, dealt))
            for k, c in enumerate(cells):
                if c and fits(c, t):
                    nxt.append((h, tops[:j] + (c,) + tops[j + 1 :], cells[:k] + (0,) + cells[k + 1 :], dealt))
        for k, c in enumerate(cells):
            if not c:
                for i, p in enumerate(piles):
                    if h[i]:
                        nh = h[:i] + (h[i] - 1,) + h[i + 1 :]
                        nxt.append((nh, tops, cells[:k] + (p[h[i] - 1],) + cells[k + 1 :], dealt))
        if dealt < len(stock):
            nxt.append((h, (stock[-1 - dealt],) + tops[1:], cells, dealt + 1))
        if any(won(*s) for s in nxt):
            return True
        lost.add(key)
        return False

    tops = tuple(f[-1].rank if f else 0 for f in inst.layout.foundations)
    cells = tuple(0 if c is None else c.rank for c in inst.layout.cells)
    return won(tuple(len(p) for p in piles), tops, cells, 0)


def _ablate(inst: Instance, prunes: frozenset[str], jit: bool = False) -> HoleOutcome:
    return hole_search(Engine(inst), time.perf_counter() + 60, None, 10**7, jit=jit, prelude=0, prunes=prunes)


@pytest.mark.parametrize("game", sorted(HOLE_CASES))
def test_each_hole_prune_keeps_the_verdict(game: str) -> None:
    """All prunes on, each one off, and none at all: the same verdict as the brute force, every deal."""
    verdicts = set()
    for over in HOLE_CASES[game]:
        for seed in SEEDS:
            inst = deal(game, seed, "portable", over)
            assert hole_search_problem(inst.rules) is None
            truth = brute_force_won(inst)
            verdicts.add(truth)
            for use in [ALL_PRUNES, frozenset(), *(ALL_PRUNES - {p} for p in HOLE_PRUNES)]:
                out = _ablate(inst, use)
                assert out.won is truth and (out.won or out.complete), (over, seed, sorted(ALL_PRUNES - use))
                if truth:
                    _replays(inst, out)
    assert verdicts == {True, False}


def test_every_hole_prune_cuts_somewhere() -> None:
    """Switching a prune off changes the search on some deal (so each switch reaches the loop). reach is
    compared with degree off, which otherwise cuts the same one-hole states."""
    cases = {
        "last_card": ("black-hole", {"suits": 4, "ranks": 4, "piles": 3}),
        "one_card": (
            "black-hole",
            {"suits": 2, "ranks": 6, "piles": 11, "wrap": False, "foundations.king_blocks": True},
        ),
        "equal_holes": ("binary-star", {"suits": 2, "ranks": 7, "piles": 3, "decks": 1}),
        "reach": ("all-in-a-row", {"suits": 3, "ranks": 5, "piles": 3}),
        "degree": ("all-in-a-row", {"suits": 3, "ranks": 5, "piles": 3}),
    }
    for p, (game, over) in cases.items():
        base = ALL_PRUNES - {"degree"} if p == "reach" else ALL_PRUNES
        changed = 0
        for seed in range(1, 21):
            inst = deal(game, seed, "portable", over)
            a, b = _ablate(inst, base), _ablate(inst, base - {p})
            changed += (a.nodes, a.reach_cuts) != (b.nodes, b.reach_cuts)
            assert b.nodes >= a.nodes or a.won  # a prune never makes a complete search longer
        assert changed, p


@pytest.mark.parametrize(
    ("game", "over"),
    [
        ("golf-solvitaire", {"suits": 4, "ranks": 5, "piles": 4, "stock": 7}),  # a stock onto the hole
        ("golf-thoughtful", {"suits": 3, "ranks": 6, "piles": 4, "stock": 5}),  # and nothing on a King
        ("worm-hole", {"suits": 4, "ranks": 4, "piles": 5, "wrap": False}),  # a free cell
    ],
)
def test_hole_prunes_cut_with_a_stock_and_a_cell(game: str, over: dict) -> None:
    """With Golf's stock (also with king_blocks) and Worm Hole's cell, each one-hole prune still changes
    the search on some deal (so the ablations above test it), and never makes a complete search longer."""
    for p in ("last_card", "one_card", "reach", "degree"):
        base = ALL_PRUNES - {"degree"} if p == "reach" else ALL_PRUNES
        changed = 0
        for seed in range(1, 21):
            inst = deal(game, seed, "portable", over)
            a, b = _ablate(inst, base), _ablate(inst, base - {p})
            changed += (a.nodes, a.reach_cuts) != (b.nodes, b.reach_cuts)
            assert b.nodes >= a.nodes or a.won
        assert changed, p


@pytest.mark.parametrize(
    ("game", "over"),
    [
        ("worm-hole", {"suits": 3, "ranks": 5, "piles": 7}),
        ("golf-solvitaire", {"suits": 4, "ranks": 5, "piles": 4, "stock": 7}),
    ],
)
def test_dfs_takes_the_hole_search_with_a_stock_or_cells(game: str, over: dict) -> None:
    """dfs runs Worm Hole and Golf through the hole search (its stats say so) and agrees with brute force;
    its wins (moves to and from the cell, stock deals) replay in the validator."""
    for seed in range(1, 21):
        inst = deal(game, seed, "portable", over)
        r = solve(inst, "dfs", Limits(seconds=30))
        assert "reach_cuts" in r.stats  # only the hole search reports it
        assert r.status is (Status.SOLVED if brute_force_won(inst) else Status.UNSOLVABLE), seed


def test_dfs_solver_takes_hole_prunes() -> None:
    """DfsSolver(hole_prunes=...) reaches the hole search; a misspelt prune is refused at once."""
    inst = deal("all-in-a-row", 13, "pysol")  # lost
    DfsSolver().solve(inst, Limits(seconds=60))  # load the kernel first: no uncompiled prelude in the counts
    nodes = {}
    for use in (None, ALL_PRUNES - {"degree"}, ()):
        r = DfsSolver(hole_prunes=use).solve(inst, Limits(seconds=60))
        assert r.status is Status.UNSOLVABLE
        nodes[use] = r.stats["nodes"]
    assert nodes[None] < nodes[ALL_PRUNES - {"degree"}] < nodes[()]
    with pytest.raises(ValueError, match="unknown hole prune 'last-card'"):
        DfsSolver(hole_prunes=["last-card"])


# black-hole-solve --game golf (defaults: nothing on a King, no wrap) on PySol Golf deals 1-50, recorded.
BHS_GOLF = "LWLLWLLLLLLWLLWLLWWLLLLLLLWLLLLLWLLLLWWLWLWLLLWWLW"


def test_golf_thoughtful_agrees_with_recorded_black_hole_solver_verdicts() -> None:
    """PySol's Golf under golf-thoughtful's rules: dfs (the hole search with the stock) gives
    black-hole-solver's verdict on every one of deals 1-50, so the two play the same rules."""
    for seed, theirs in enumerate(BHS_GOLF, start=1):
        got = solve(deal("golf-thoughtful", seed, "pysol"), "dfs", Limits(seconds=30)).status
        assert got is (Status.SOLVED if theirs == "W" else Status.UNSOLVABLE), seed


@pytest.mark.skipif(not hole_kernel.HAVE_NUMBA, reason="numba off (PATIENCE_NO_JIT) or not installed")
def test_compile_time_is_reported_apart_once_per_process() -> None:
    """The first compiled search of a process says how much of its time numba took (stats jit_s, which
    solve prints as '(of which ...s compiling the search kernel)'); later searches take none."""
    import subprocess
    import sys

    code = (
        "from patience.deals import deal\n"
        "from patience.engine import Engine\n"
        "from patience.solvers.dfs_hole import hole_search\n"
        "import time\n"
        "for _ in range(2):\n"
        "    e = Engine(deal('black-hole', 3, 'pysol'))\n"
        "    out = hole_search(e, time.perf_counter() + 600, None, 1 << 16, jit=True, prelude=0)\n"
        "    print(out.compiled, out.jit_s > 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["True True", "True False"]
