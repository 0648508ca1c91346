"""The cube search (cpsat_hole.cubes): a cube's verdict is the position's, its wins replay, it never
concludes a loss, and the backend's cube stage gives dfs's wins on small generalized decks."""

from __future__ import annotations

import pytest
from ortools.sat.python import cp_model

from patience.deals import deal
from patience.solvers.base import Limits, Status, get_solver
from patience.solvers.cpsat_hole import CpSatBlackHole, HoleDeal, to_moves
from patience.solvers.cpsat_hole.cubes import _decide, cube_search
from patience.solvers.cpsat_hole.decode import order_events
from patience.solvers.cpsat_hole.lns import greedy, sub_deal
from patience.validate import replay

from .test_steps import wins

# One hole: All in a Row's empty hole, Black Hole's start card.
SMALL = [
    ("all-in-a-row", {"suits": 2, "ranks": 6, "piles": 4}),
    ("black-hole", {"suits": 2, "ranks": 5, "piles": 3}),
]


@pytest.mark.parametrize(("game", "sets"), SMALL)
def test_a_cube_is_decided_as_its_position_is(game, sets):
    seen = set()
    for seed in range(1, 11):
        inst = deal(game, seed, "portable", sets)
        d = HoleDeal.from_instance(inst)
        play = greedy(d, tries=1, seed=seed)
        for k in range(1, len(play)):
            status, won = _decide(d, play[:k], 30.0, 1)
            sub, _ = sub_deal(d, set(play[:k]), d.rank[play[k - 1]])
            truth = wins(sub, limit=1)[0]
            assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE)
            assert (won is not None) is truth, (game, seed, k)
            if won is not None:
                assert won[:k] == play[:k] and sorted(won) == list(range(d.n))
                assert replay(inst, to_moves(inst, d, order_events(won))).ok
            seen.add(truth)
    assert seen == {True, False}  # both kinds of cube were met


def test_cube_search_wins_what_dfs_wins_and_never_concludes_a_loss():
    verdicts = set()
    for seed in (1, 2, 3, 14):  # 14 is lost
        inst = deal("all-in-a-row", seed, "portable", {"suits": 2})
        d = HoleDeal.from_instance(inst)
        truth = get_solver("dfs").solve(inst, Limits(seconds=30)).status
        r = cube_search(d, 3.0 if truth is Status.UNSOLVABLE else 30.0, cube_work=2.0)
        assert not r.lost
        if truth is Status.SOLVED:
            assert r.events is not None, seed  # small won decks: found (the assertion that can fail)
            assert replay(inst, to_moves(inst, d, r.events)).ok
        else:
            assert r.events is None
        verdicts.add(truth)
    assert verdicts == {Status.SOLVED, Status.UNSOLVABLE}


def test_no_cube_position_is_asked_twice_nor_past_a_dead_one(monkeypatch):
    """A lost deal keeps the search drawing playouts for the whole limit: every position it asks is new,
    and none extends a position already proven dead (the same cards removed, the same rank on the hole)."""
    import patience.solvers.cpsat_hole.cubes as cubes

    inst = deal("all-in-a-row", 14, "portable", {"suits": 2})  # lost
    d = HoleDeal.from_instance(inst)
    asked: list[tuple[list[int], int]] = []  # (prefix, CP-SAT's status), in the order asked

    def position(prefix: list[int]) -> tuple[frozenset[int], int]:
        return frozenset(prefix), d.rank[prefix[-1]]

    def record(deal_, prefix, *args, **kw):
        status, won = _decide(deal_, prefix, *args, **kw)
        asked.append((list(prefix), status))
        return status, won

    monkeypatch.setattr(cubes, "_decide", record)
    r = cube_search(d, 3.0, lengths=(4, 8, 2, 6), cube_work=1.0, tries=5)
    keys = [position(prefix) for prefix, _ in asked]
    assert len(asked) > 3 and len(set(keys)) == len(keys)
    dead: set[tuple[frozenset[int], int]] = set()
    for prefix, status in asked:
        through = {position(prefix[:k]) for k in range(1, len(prefix))}
        assert not through & dead, "a cube past a dead position was asked"
        if status == cp_model.INFEASIBLE:
            dead.add(position(prefix))
    assert dead  # so the assertion above could fail
    assert r.events is None and r.stats["cube_playouts"] > len(asked)  # later playouts had nothing new


def test_the_backend_cube_stage_reports_validated_wins():
    backend = CpSatBlackHole(presearch_nodes=0, max_cards=False, large_cards=10, cubes_after=0.0)
    won = 0
    for seed in range(1, 9):
        inst = deal("all-in-a-row", seed, "portable", {"suits": 2})
        if get_solver("dfs").solve(inst, Limits(seconds=30)).status is not Status.SOLVED:
            continue
        r = backend.solve(inst, Limits(seconds=30))
        assert r.status is Status.SOLVED and "cubes" in r.stats and "conflicts" not in r.stats, (seed, r)
        won += 1
    assert won


def test_the_lns_replaces_the_cubes_when_asked_for():
    inst = deal("all-in-a-row", 1, "portable", {"suits": 2})  # won
    runs = (({}, "cubes", "lns_iterations"), ({"lns_after": 0.0}, "lns_iterations", "cubes"))
    for opts, key, other in runs:
        solver = CpSatBlackHole(presearch_nodes=0, max_cards=False, large_cards=10, cubes_after=0.0, **opts)
        r = solver.solve(inst, Limits(seconds=30))
        assert r.status is Status.SOLVED and key in r.stats and other not in r.stats, (opts, r)


def test_the_cube_stage_wins_a_104_card_deal():
    inst = deal("black-hole", 4, "portable", {"suits": 8, "tableau.equal_piles": False})  # won
    r = CpSatBlackHole(presearch_nodes=0, max_cards=False, cubes_after=0.0).solve(inst, Limits(seconds=60))
    assert r.status is Status.SOLVED and "cubes" in r.stats, r
    assert CpSatBlackHole.Options().cubes_after is None  # off by default (docs/cpsat-hole-notes.md)


def test_a_cube_is_limited_by_work_not_by_the_clock(monkeypatch):
    """``work`` (CP-SAT's deterministic time) bounds a cube whatever its wall-clock allowance, and the
    same cube gets the same answer after the same search each time: a slower or busier machine asks the
    same cubes (a wall-clock limit missed winning cubes of All in a Row 8x13 on a slower one)."""
    import patience.solvers.cpsat_hole.cubes as cubes

    seen: list[tuple[int, int, float]] = []  # status, conflicts, deterministic time of each cube
    solve = cubes.solve_cpsat

    def spy(solver, model, until=None):
        status = solve(solver, model, until)
        seen.append((status, solver.num_conflicts, solver.response_proto.deterministic_time))
        return status

    monkeypatch.setattr(cubes, "solve_cpsat", spy)
    inst = deal("all-in-a-row", 2, "portable", {"suits": 8})  # 104 cards: the cubes take seconds
    d = HoleDeal.from_instance(inst)
    prefix = greedy(d, tries=1, seed=0)[:8]
    for _ in range(2):
        status, won = _decide(d, prefix, 600.0, 1, work=0.2)
        assert status == cp_model.UNKNOWN and won is None  # stopped by the work limit, not the clock
    assert seen[0] == seen[1]  # the same search both times
    assert 0.2 <= seen[0][2] < 1.0 and seen[0][1] > 0
