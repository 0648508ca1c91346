"""The dfs backend: verdicts, soundness cross-checks, limits, and agreement with black-hole-solver."""

from __future__ import annotations

import random
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from patience.deals import deal
from patience.engine import Engine
from patience.formats import to_board_text
from patience.instance import Instance, Layout
from patience.rules import load_game
from patience.solvers.base import Limits, Status, solve
from patience.solvers.dfs import DfsSolver
from patience.solvers.dfs_hole import degree_ok, rank_reach_ok
from patience.validate import replay

BHS = Path(__file__).resolve().parents[2] / ".peers" / "bhs" / "black-hole-solve"
# Verdicts of black-hole-solver 1.14.0 on PySol deals 1..50 (W won, L lost).
BHS_BLACK_HOLE = "LWWWWWWWWWWWWWWWWWWWWWWWLWLWLWWWWLWWWLWWWWWWWWWWWW"
BHS_ALL_IN_A_ROW = "LLWWWWLWWWLWLLWLWLWLLWLWLLWWWLWLWWLWWWWWLWWWLWWWLL"


def _dfs(inst: Instance, seconds: float = 10.0, nodes: int | None = None) -> Status:
    result = solve(inst, "dfs", Limits(seconds=seconds, nodes=nodes))
    assert result.status is not Status.ERROR, result.message
    return result.status


def _brute(inst: Instance) -> bool:
    """Plain exhaustive search: every legal move, a visited set, no dominance, no pruning."""
    e = Engine(inst)
    seen = set()

    def go() -> bool:
        if e.is_won():
            return True
        k = e.snapshot()
        if k in seen:
            return False
        seen.add(k)
        for m in e.legal_moves():
            e.apply(m)
            won = go()
            e.undo()
            if won:
                return True
        return False

    return go()


# Known verdicts ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("seed", "won"), [(2, True), (3, True), (1, False), (25, False), (29, False)])
def test_black_hole_known_deals(seed: int, won: bool) -> None:
    result = solve(deal("black-hole", seed, "pysol"), "dfs", Limits(seconds=20))
    assert result.status is (Status.SOLVED if won else Status.UNSOLVABLE)
    assert result.backend == "dfs"
    for key in ("nodes", "seconds", "peak_mb", "table_hits", "best_foundation"):
        assert key in result.stats
    if not won:
        assert result.stats["best_foundation"] < 52


def test_all_in_a_row_and_binary_star_solve() -> None:
    assert _dfs(deal("all-in-a-row", 3, "pysol")) is Status.SOLVED
    assert _dfs(deal("all-in-a-row", 1, "pysol")) is Status.UNSOLVABLE
    assert _dfs(deal("binary-star", 2)) is Status.SOLVED


@pytest.mark.parametrize("game", ["thirty-six", "canfield", "golf", "bakers-game", "gaps-one-deal"])
def test_every_solution_replays(game: str) -> None:
    inst = deal(game, 1, overrides={"thoughtful": True})  # golf hides cards: Backend.solve refuses it
    result = DfsSolver().solve(inst, Limits(seconds=2))
    assert result.status in (Status.SOLVED, Status.UNSOLVABLE, Status.UNKNOWN)
    if result.status is Status.SOLVED:
        report = replay(inst, list(result.solution or ()))
        assert report.ok and report.won, report.message()


# Limits ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "seed"), [("black-hole", 24), ("freecell", 1), ("klondike-thoughtful", 1)])
def test_node_limit_gives_unknown(game: str, seed: int) -> None:
    inst = deal(game, seed, "pysol" if game == "black-hole" else "portable")
    result = solve(inst, "dfs", Limits(seconds=30, nodes=300))
    assert result.status is Status.UNKNOWN
    assert result.stats["nodes"] <= 300
    assert result.message == "node limit"


def test_time_limit_gives_unknown() -> None:
    result = solve(deal("freecell", 1), "dfs", Limits(seconds=0.2))
    assert result.status in (Status.UNKNOWN, Status.SOLVED)
    if result.status is Status.UNKNOWN:
        assert result.message == "time limit"


def test_memory_out_is_unknown() -> None:
    result = solve(deal("freecell", 1), "dfs", Limits(seconds=30, memory_mb=0.01))  # type: ignore[arg-type]
    assert result.status is Status.UNKNOWN
    assert result.message == "memory out"


# Brute-force cross-checks on tiny decks ----------------------------------------------------------
TINY = [
    ("black-hole", {"suits": 2, "ranks": 5, "piles": 3}),
    ("black-hole", {"suits": 3, "ranks": 4, "piles": 11}),
    ("all-in-a-row", {"suits": 2, "ranks": 5, "piles": 5}),
    ("all-in-a-row", {"suits": 2, "ranks": 6, "piles": 4, "wrap": False}),
    ("freecell", {"suits": 2, "ranks": 4, "piles": 3, "cells": 1}),
    ("bakers-game", {"suits": 2, "ranks": 4, "piles": 3, "cells": 1}),
    ("streets-and-alleys", {"suits": 2, "ranks": 4, "piles": 3}),
    ("seahaven-towers", {"suits": 2, "ranks": 4, "piles": 4, "cells": 2, "cells.prefilled": 1}),
    ("thirty-six", {"suits": 2, "ranks": 4, "piles": 3, "stock": 2}),
    ("golf", {"suits": 2, "ranks": 5, "piles": 3, "stock": 3, "thoughtful": True}),  # golf hides its stock
]


@pytest.mark.parametrize(("game", "over"), TINY)
def test_dfs_agrees_with_brute_force_on_tiny_decks(game: str, over: dict) -> None:
    for seed in range(1, 13):
        inst = deal(game, seed, overrides=over)
        got = _dfs(inst)
        assert got in (Status.SOLVED, Status.UNSOLVABLE)
        assert (got is Status.SOLVED) == _brute(inst), (game, over, seed)


def test_hole_prunes_are_necessary_conditions() -> None:
    """Rank reachability and the degree test never reject a state a brute force wins."""
    rng = random.Random(5)
    for _ in range(200):
        R = rng.choice([4, 5, 6, 13])
        count = [0] + [rng.randint(0, 2) for _ in range(R)]
        t = rng.randint(1, R)
        adj = [()] + [((r % R) + 1, ((r - 2) % R) + 1) for r in range(1, R + 1)]
        # A rank walk that clears `count` exists iff brute force finds one (tableau order ignored).
        left = list(count)

        def walk(at: int, n: int, left: list[int] = left, adj: list = adj) -> bool:
            if n == 0:
                return True
            for s in adj[at]:
                if left[s]:
                    left[s] -= 1
                    ok = walk(s, n - 1)
                    left[s] += 1
                    if ok:
                        return True
            return False

        if walk(t, sum(count)):
            assert rank_reach_ok(count, [t], adj)
            assert degree_ok(count, t, R, True)


# Metamorphic and monotonic properties -------------------------------------------------------------
def _with_layout(inst: Instance, **changes: object) -> Instance:
    lay = replace(inst.layout, **changes)
    return Instance.build(load_game(inst.game, inst.overrides), lay, inst.overrides)


def _relabel(inst: Instance, perm: list[int]) -> Instance:
    def f(pile: tuple) -> tuple:
        return tuple(None if c is None else replace(c, suit=perm[c.suit]) for c in pile)

    lay = inst.layout
    return _with_layout(
        inst,
        tableau=tuple(map(f, lay.tableau)),
        foundations=tuple(map(f, lay.foundations)),
        cells=f(lay.cells),
        reserve=f(lay.reserve),
        stock=f(lay.stock),
        waste=f(lay.waste),
    )


METAMORPHIC = [
    ("all-in-a-row", {"suits": 2, "ranks": 6, "piles": 4}, [1, 0]),
    ("freecell", {"suits": 4, "ranks": 3, "piles": 4, "cells": 1}, [3, 2, 1, 0]),  # colours kept
    ("bakers-game", {"suits": 2, "ranks": 5, "piles": 4, "cells": 1}, [1, 0]),
]


@pytest.mark.parametrize(("game", "over", "perm"), METAMORPHIC)
def test_relabel_suits_and_reorder_piles_keep_the_verdict(game: str, over: dict, perm: list[int]) -> None:
    for seed in range(1, 9):
        inst = deal(game, seed, overrides=over)
        base = _dfs(inst)
        assert base in (Status.SOLVED, Status.UNSOLVABLE)
        assert _dfs(_relabel(inst, perm)) is base
        piles = list(inst.layout.tableau)
        for n in {len(p) for p in piles}:  # shuffle piles among those of equal size (the deal shape)
            where = [i for i, p in enumerate(piles) if len(p) == n]
            moved = [piles[i] for i in where]
            random.Random(seed).shuffle(moved)
            for i, p in zip(where, moved, strict=True):
                piles[i] = p
        assert _dfs(_with_layout(inst, tableau=tuple(piles))) is base


def test_fewer_free_cells_never_win_more() -> None:
    over = {"suits": 2, "ranks": 5, "piles": 4}
    for seed in range(1, 9):
        won_before = False
        for cells in range(3):
            inst = deal("freecell", seed, overrides={**over, "cells": cells})
            # Same tableau for every cell count: the cells start empty.
            base = deal("freecell", seed, overrides={**over, "cells": 0})
            inst = Instance.build(
                load_game("freecell", {**over, "cells": cells}),
                Layout(
                    tableau=base.layout.tableau, foundations=base.layout.foundations, cells=(None,) * cells
                ),
                {**over, "cells": cells},
            )
            won = _dfs(inst) is Status.SOLVED
            assert won or not won_before, (seed, cells)
            won_before = won


def test_wrap_off_never_wins_more_than_wrap_on() -> None:
    over = {"suits": 2, "ranks": 6, "piles": 4}
    for seed in range(1, 16):
        on = deal("all-in-a-row", seed, overrides=over)
        off = Instance.build(
            load_game("all-in-a-row", {**over, "wrap": False}), on.layout, {**over, "wrap": False}
        )
        if _dfs(off) is Status.SOLVED:
            assert _dfs(on) is Status.SOLVED


# Agreement with black-hole-solver ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "expected"), [("black-hole", BHS_BLACK_HOLE), ("all-in-a-row", BHS_ALL_IN_A_ROW)]
)
def test_agrees_with_recorded_black_hole_solver_verdicts(game: str, expected: str) -> None:
    """PySol deals (Black Hole 1..50, a few quick All in a Row) against recorded peer verdicts."""
    seeds = range(1, 51) if game == "black-hole" else (1, 2, 3, 4, 5, 6, 9)
    for seed in seeds:
        got = _dfs(deal(game, seed, "pysol"), seconds=20)
        assert got is (Status.SOLVED if expected[seed - 1] == "W" else Status.UNSOLVABLE), seed


def _bhs_verdict(inst: Instance, game: str) -> str:
    r = subprocess.run(
        [str(BHS), "--game", game, "--rank-reach-prune", "-"],
        input=to_board_text(inst),
        capture_output=True,
        text=True,
        check=False,
    )
    return "W" if "Solved!" in r.stdout else "L" if "Unsolved!" in r.stdout else "?"


@pytest.mark.slow
@pytest.mark.skipif(not (BHS.exists() and shutil.which("true")), reason="black-hole-solver not built")
@pytest.mark.parametrize(("game", "peer"), [("black-hole", "black_hole"), ("all-in-a-row", "all_in_a_row")])
def test_agrees_with_black_hole_solver_1000(game: str, peer: str) -> None:
    for seed in range(1, 1001):
        inst = deal(game, seed, "pysol")
        theirs = _bhs_verdict(inst, peer)
        if theirs == "?":
            continue
        got = _dfs(inst, seconds=30)
        assert got is (Status.SOLVED if theirs == "W" else Status.UNSOLVABLE), seed


@pytest.mark.skipif(not BHS.exists(), reason="black-hole-solver not built (bash benchmarks/peers.sh bhs)")
def test_agrees_with_black_hole_solver_live() -> None:
    for seed in (54, 56, 59):
        inst = deal("black-hole", seed, "pysol")
        theirs = _bhs_verdict(inst, "black_hole")
        if theirs != "?":
            assert _dfs(inst, seconds=20) is (Status.SOLVED if theirs == "W" else Status.UNSOLVABLE), seed
