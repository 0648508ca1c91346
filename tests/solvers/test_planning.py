"""Planning backend: verdicts agree with brute force, plans validate, A* is never longer than greedy."""

from __future__ import annotations

import pytest

from patience.deals import deal
from patience.engine import Engine
from patience.solvers.base import BACKENDS, Limits, Status, get_solver, solve
from patience.solvers.planning import PlanningSolver, SearchConfig, prefers, search
from patience.validate import replay

# Small generalized deals with both verdicts (no free cell: about a third are unsolvable).
SMALL = [
    ("freecell", {"suits": 2, "ranks": 5, "piles": 4, "cells": 0}),
    ("freecell", {"suits": 2, "ranks": 5, "piles": 4, "cells": 1}),
    ("freecell", {"suits": 3, "ranks": 5, "piles": 4, "cells": 0}),
    ("bakers-game", {"suits": 2, "ranks": 5, "piles": 4, "cells": 0}),
    ("bakers-game", {"suits": 3, "ranks": 5, "piles": 4, "cells": 0}),
    # Klondike: stock, face-down cards, worrying back, and the partial-pile dominance.
    ("klondike-thoughtful", {"suits": 2, "ranks": 7, "piles": 3, "stock": 8}),
    ("klondike-thoughtful", {"suits": 4, "ranks": 4, "piles": 4, "stock": 6}),
]
SEEDS = range(1, 16)
MODES = [
    SearchConfig("greedy"),
    SearchConfig("astar", 1.0),
    SearchConfig("astar", 3.0),
    SearchConfig("anytime", 2.0),
]


def brute_force(inst) -> bool:
    """Exhaustive depth-first search over every legal move (no heuristic, no dominance)."""
    e = Engine(inst)
    seen = {e.key()}

    def dfs() -> bool:
        if e.is_won():
            return True
        for m in e.legal_moves():
            e.apply(m)
            k = e.key()
            if k not in seen:
                seen.add(k)
                if dfs():
                    e.undo()
                    return True
            e.undo()
        return False

    return dfs()


@pytest.mark.parametrize("game,overrides", SMALL)
def test_verdicts_agree_with_brute_force(game: str, overrides: dict) -> None:
    verdicts = set()
    for seed in SEEDS:
        inst = deal(game, seed, "portable", overrides)
        truth = brute_force(inst)
        verdicts.add(truth)
        for cfg in MODES:
            status, plan, stats = search(inst, Limits(seconds=20), cfg)
            want = Status.SOLVED if truth else Status.UNSOLVABLE
            assert status is want, (game, overrides, seed, cfg)
            if plan is not None:
                assert stats["plan_length"] == len(plan)
    if overrides.get("cells", 0) == 0:
        assert verdicts == {True, False}, "the sample should hold solvable and unsolvable deals"


@pytest.mark.parametrize("game,overrides", SMALL[:2] + SMALL[3:4])
def test_astar_weight_one_never_longer_than_greedy(game: str, overrides: dict) -> None:
    for seed in SEEDS:
        inst = deal(game, seed, "portable", overrides)
        _, greedy, _ = search(inst, Limits(seconds=20), SearchConfig("greedy"))
        _, astar, _ = search(inst, Limits(seconds=20), SearchConfig("astar", 1.0))
        _, anytime, _ = search(inst, Limits(seconds=20), SearchConfig("anytime", 3.0))
        if greedy is None:
            assert astar is None and anytime is None
            continue
        assert astar is not None and anytime is not None
        assert len(astar) <= len(greedy)
        assert len(astar) <= len(anytime) <= len(greedy)  # anytime ran dry: its plan is the shortest


@pytest.mark.parametrize(
    "game,seed,generator",
    [
        ("freecell", 1, "ms"),
        ("freecell", 617, "ms"),
        ("bakers-game", 3, "portable"),
        ("klondike-thoughtful", 2, "portable"),
        ("thirty-six", 3, "portable"),
        ("beleaguered-castle", 1, "portable"),
        ("seahaven-towers", 1, "portable"),
    ],
)
def test_solutions_validate(game: str, seed: int, generator: str) -> None:
    inst = deal(game, seed, generator)
    result = solve(inst, "planning", Limits(seconds=3))
    assert result.status in (Status.SOLVED, Status.UNSOLVABLE, Status.UNKNOWN), result.message
    if result.status is Status.SOLVED:
        report = replay(inst, list(result.solution))
        assert report.ok and report.won
        assert result.stats["plan_length"] == len(result.solution)
        for key in ("expansions", "generated", "plan_length", "seconds"):
            assert key in result.stats


def test_ms_freecell_1_is_solved() -> None:
    result = solve(deal("freecell", 1, "ms"), "planning", Limits(seconds=20))
    assert result.status is Status.SOLVED
    assert result.backend == "planning"


def test_node_limit_gives_unknown() -> None:
    inst = deal("freecell", 9, "ms")
    status, plan, stats = search(inst, Limits(seconds=20, nodes=5), SearchConfig("greedy"))
    assert status is Status.UNKNOWN and plan is None
    assert stats["expansions"] <= 6
    result = solve(inst, "planning", Limits(seconds=20, nodes=5))
    assert result.status is Status.UNKNOWN


def test_time_limit_gives_unknown() -> None:
    inst = deal("freecell", 11982, "ms")
    status, _plan, _stats = search(inst, Limits(seconds=0.2), SearchConfig("astar", 1.0))
    assert status is Status.UNKNOWN


def test_anytime_keeps_incumbent_when_time_runs_out() -> None:
    inst = deal("freecell", 2, "ms")
    status, plan, stats = search(inst, Limits(seconds=1.0), SearchConfig("anytime", 2.0))
    assert status is Status.SOLVED and plan is not None
    assert stats["solutions"] >= 1
    assert replay(inst, [m for m in _json(inst, plan)]).won


def _json(inst, plan):
    from patience.engine import moves_to_json

    return moves_to_json(inst, plan)


def test_registry_and_support() -> None:
    assert "planning" in BACKENDS
    solver = get_solver("planning")
    assert isinstance(solver, PlanningSolver)
    assert solver.supports(deal("freecell", 1, "ms").rules)
    assert solver.supports(deal("black-hole", 1).rules)
    assert prefers(deal("freecell", 1, "ms").rules)
    assert prefers(deal("klondike-thoughtful", 1).rules)
    assert not prefers(deal("black-hole", 1).rules)
    assert solver.prefers(deal("bakers-game", 1).rules) and not solver.prefers(deal("gaps", 1).rules)
    with pytest.raises(ValueError):
        SearchConfig("dijkstra")
    with pytest.raises(ValueError):
        SearchConfig("astar", 0.5)


@pytest.mark.skipif("dfs" not in BACKENDS, reason="solvers/dfs.py not registered yet")
@pytest.mark.parametrize("game,overrides", SMALL[:1] + SMALL[3:4])
def test_verdicts_agree_with_dfs(game: str, overrides: dict) -> None:
    for seed in SEEDS:
        inst = deal(game, seed, "portable", overrides)
        a = solve(inst, "planning", Limits(seconds=20))
        b = solve(inst, "dfs", Limits(seconds=20))
        if Status.UNKNOWN in (a.status, b.status):
            continue
        assert a.status is b.status, (game, overrides, seed)
