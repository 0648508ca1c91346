"""cpsat-gaps ``split``: threads sharing one fixed search cube by cube (cpsat_gaps/split.py)."""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import replace
from typing import Any

import pytest
from ortools.sat.python import cp_model

from patience.solvers.base import Limits, Status
from patience.solvers.cpsat_gaps import CpSatGaps, GapsDeal, backend, bounds, build_model, decode, to_moves
from patience.solvers.cpsat_gaps.backend import _parameters, win_probe
from patience.solvers.cpsat_gaps.split import first_moves, solve_split
from patience.validate import replay

from .test_cpsat_gaps import BASIC, brute_force, small, successors, to_grid


@pytest.mark.parametrize("suits,ranks", [(4, 5), (3, 4), (2, 5)])
def test_split_search_matches_brute_force(suits: int, ranks: int) -> None:
    """Cubes partition the plans: split alone and beside a second order give the exhaustive verdicts."""
    for seed in range(8):
        inst = small(BASIC, suits, ranks, seed)
        want = Status.SOLVED if brute_force(inst) else Status.UNSOLVABLE
        for orders in (("card",), ("card", "target")):
            result = CpSatGaps("foata", split=2, orders=orders).solve(inst, Limits(seconds=20))
            assert result.status is want, (seed, orders)
            assert result.stats["cubes"] >= 1


def test_first_moves_are_the_legal_moves_of_the_deal() -> None:
    """The cubes' literals: exactly the moves an independent generator finds legal in the dealt grid."""
    for seed in range(10):
        inst = small(BASIC, 4, 5, seed)
        d = GapsDeal.from_instance(inst)
        v = build_model(d, bounds(d, 2), "foata", horizon=3)
        grid, width = to_grid(inst)
        want = {(grid[a][0] * width + grid[a][1] - 1, b) for a, b in successors(grid, width, True)}
        assert {(c, p) for _t, c, p in first_moves(inst, v)} == want, seed


def _copies(inst_seed: int, n: int) -> tuple[list, list[tuple[int, int, int]]]:
    """``n`` copies of the model of 4 x 5 deal ``inst_seed``, and the keys of its cubes."""
    inst = small(BASIC, 4, 5, inst_seed)
    d = GapsDeal.from_instance(inst)
    b = bounds(d, 2)
    models = [build_model(d, b, "foata", settle=True) for _ in range(n)]
    return models, first_moves(inst, models[0])


def test_a_lost_deal_asks_every_cube() -> None:
    """Infeasible only once every cube is: 2^k cubes for k legal first moves."""
    for seed in range(12):
        inst = small(BASIC, 4, 5, seed)
        if brute_force(inst):
            continue
        models, keys = _copies(seed, 2)
        status, _v, _s, stats = solve_split(models, keys, lambda m: _parameters(m, 20, 1))
        assert status == cp_model.INFEASIBLE, seed
        assert stats["cubes"] == 2 ** len(keys), seed
        return
    pytest.fail("no lost 4 x 5 deal among seeds 0-11")


def test_a_stopped_split_is_undecided() -> None:
    until = threading.Event()
    until.set()
    models, keys = _copies(0, 2)
    status, _v, solver, _stats = solve_split(models, keys, lambda m: _parameters(m, 20, 1), until)
    assert status == cp_model.UNKNOWN and solver is None


def test_split_options_are_checked() -> None:
    with pytest.raises(ValueError, match="split must be at least 1"):
        CpSatGaps("foata", split=0)
    with pytest.raises(ValueError, match="split needs the fixed search"):
        CpSatGaps("events", split=2)


def test_a_model_gets_its_decision_strategy_once() -> None:
    """Split solves one model once a cube: the fixed search's strategy is added once, in one order."""
    v = _copies(0, 1)[0][0]
    for _ in range(3):
        _parameters(v, 5, 1)
    assert len(v.model.proto.search_strategy) == 1
    with pytest.raises(ValueError, match="already branches in order 'card'"):
        _parameters(v, 5, 1, "fixed", "target")


@pytest.mark.parametrize("split", [1, 2])
def test_win_probe_keeps_the_verdicts(monkeypatch: pytest.MonkeyPatch, split: int) -> None:
    """A win probe only adds a question: with it (under a shorter horizon and at the proven one) the
    verdicts are the exhaustive search's; the probe wins some won deals and is refuted on others (a
    won deal among them: its refutation is not a verdict)."""
    monkeypatch.setattr(backend, "FOATA_DEPTHS", (20,))  # under most 4 x 5 horizons (26-33)
    seen: dict[tuple[bool, float], int] = {}
    for seed in range(12):
        inst = small(BASIC, 4, 5, seed)
        truth = brute_force(inst)
        result = CpSatGaps("foata", split=split, probe=13).solve(inst, Limits(seconds=20))
        assert result.status is (Status.SOLVED if truth else Status.UNSOLVABLE), seed
        if "probe" in result.stats:
            key = (truth, result.stats["probe"])
            seen[key] = seen.get(key, 0) + 1
    assert seen.get((True, 1.0)) and seen.get((True, 0.0)) and seen.get((False, 0.0)), seen


def test_a_probe_deeper_than_the_first_horizon_runs_beside_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a first horizon under the probe's depth, the probe runs on the next horizon's model while
    the cubes search the first: the verdicts stay the exhaustive search's, and the probe both wins and
    is refuted on some deals there."""
    monkeypatch.setattr(backend, "FOATA_DEPTHS", (10, 20))  # under most 4 x 5 horizons (26-33)
    pairs = []  # (the cubes' horizon, the probe's model horizon) of each split solve

    def spy(models: list[Any], *args: Any, **kw: Any) -> Any:
        pairs.append((models[0].horizon, args[-1].horizon if args[-1] is not None else None))
        return solve_split(models, *args, **kw)

    monkeypatch.setattr(backend, "solve_split", spy)
    seen: dict[tuple[bool, float], int] = {}
    for seed in range(12):
        inst = small(BASIC, 4, 5, seed)
        truth = brute_force(inst)
        result = CpSatGaps("foata", split=2, probe=13).solve(inst, Limits(seconds=20))
        assert result.status is (Status.SOLVED if truth else Status.UNSOLVABLE), seed
        if "probe" in result.stats:
            key = (truth, result.stats["probe"])
            seen[key] = seen.get(key, 0) + 1
    assert seen.get((True, 1.0)) and seen.get((False, 0.0)), seen
    assert (10, 20) in pairs and (20, None) in pairs, pairs


def _last_step(v: Any, solver: cp_model.CpSolver) -> int:
    """The last step in which the solution of ``v`` moves a card."""
    return max(t for (t, _c, _p), lit in v.mv.items() if solver.boolean_value(lit))


def test_a_probe_win_is_a_short_plan() -> None:
    """The probe's assumptions ask for a win within its depth: the plan's steps all come before it."""
    for seed in range(12):
        models, _keys = _copies(seed, 1)
        if models[0].horizon <= 13:
            continue  # no step 13 to ask about
        status, w, solver, stats = solve_split(
            models, [], lambda m: _parameters(m, 20, 1), None, (win_probe(13), 20)
        )
        if stats.get("probe") == 1.0:
            assert status == cp_model.OPTIMAL and solver is not None
            assert _last_step(w, solver) < 13
            return
    pytest.fail("no 4 x 5 deal among seeds 0-11 won within 13 Foata steps")


def test_probe_options_are_checked() -> None:
    with pytest.raises(ValueError, match="probe must be a Foata depth"):
        CpSatGaps("foata", probe=-1)
    with pytest.raises(ValueError, match="probe needs the fixed search of 'foata'"):
        CpSatGaps("steps", probe=10)


def test_the_probe_outlives_cubes_that_do_not_decide() -> None:
    """A cube's solution that proves nothing (here: every one, e.g. a play still moving at a short
    horizon) ends the cubes, not the probe: on a deal won within the probe's depth the probe still wins,
    and its plan is the one returned."""
    inst = small(BASIC, 4, 10, 2)  # won within 45 Foata steps, the probe's solve taking ~0.4 s
    d = GapsDeal.from_instance(inst)
    b = bounds(d, 2)
    models = [build_model(d, b, "foata", settle=True) for _ in range(2)]
    keys = first_moves(inst, models[0])

    def solver_for(m: Any) -> cp_model.CpSolver:
        """A cube ends at once (out of time); the probe starts after that and takes longer than a stop
        takes to arrive (20 ms, interrupt.run_stoppable), so a probe that the cubes' end stopped would
        end undecided."""
        solver = _parameters(m, 20, 1)
        if -m.any_steps[45].index - 1 in m.model.proto.assumptions:
            time.sleep(0.1)
        else:
            solver.parameters.max_time_in_seconds = 1e-6
        return solver

    for cubes in (keys, []):  # []: one cube, the whole model
        status, w, solver, stats = solve_split(
            models, cubes, solver_for, None, (win_probe(45), 20), lambda v, s: False
        )
        assert status == cp_model.OPTIMAL and solver is not None
        assert stats["probe"] == 1.0, stats
        assert _last_step(w, solver) < 45


def test_a_clone_shares_the_literals_of_its_model() -> None:
    """The backend's thread copies are proto clones (backend ``_split``): a clone decides as the
    exhaustive search does, and its solution read through the original model's literals is a legal
    winning plan (each move replayed in the engine, then the validator)."""
    seen = {True: 0, False: 0}
    for seed in range(8):
        inst = small(BASIC, 4, 5, seed)
        d = GapsDeal.from_instance(inst)
        v = build_model(d, bounds(d, 2), "foata", settle=True)
        w = replace(v, model=v.model.clone())
        solver = _parameters(w, 20, 1)
        status = solver.solve(w.model)
        truth = brute_force(inst)
        assert status == (cp_model.OPTIMAL if truth else cp_model.INFEASIBLE), seed
        if truth:
            moves = to_moves(inst, decode(v, solver))
            assert replay(inst, moves).won, seed
        seen[truth] += 1
    assert seen[True] and seen[False], seen


def _short_and_proven(seed: int, horizon: int) -> tuple[Any, Any, list[tuple[int, int, int]]]:
    """The models of 4 x 5 deal ``seed`` at a short ``horizon`` (escape and both cuts, as the backend
    builds it) and at the proven one, and the keys of its cubes."""
    inst = small(BASIC, 4, 5, seed)
    d = GapsDeal.from_instance(inst)
    b = bounds(d, 2)
    short = build_model(d, b, "foata", horizon=horizon, settle=True, reach=True)
    proven = build_model(d, b, "foata", settle=True, reach=True)
    return short, proven, first_moves(inst, short)


def test_a_cube_refuted_at_a_short_horizon_holds_no_winning_play() -> None:
    """The theorem behind ``refuted`` (split.py): every cube infeasible under a short horizon's escape is
    infeasible at the proven horizon too, cube by cube, on won and lost deals; and the short horizon does
    refute cubes of won deals (the transfer has something to carry)."""
    refuted_of_won = 0
    for seed in range(12):
        short, proven, keys = _short_and_proven(seed, 8)
        if short.horizon >= proven.horizon:
            continue
        won = brute_force(small(BASIC, 4, 5, seed))
        done: set[tuple[bool, ...]] = set()
        solve_split([short], keys, lambda m: _parameters(m, 20, 1), refuted=done)
        for cube in done:  # the proven model on this cube alone (every other one marked refuted)
            others = set(_every(len(keys))) - {cube}
            status = solve_split([proven], keys, lambda m: _parameters(m, 20, 1), refuted=others)[0]
            assert status == cp_model.INFEASIBLE, (seed, cube)
            refuted_of_won += won
    assert refuted_of_won > 0


def _every(n: int) -> list[tuple[bool, ...]]:
    """Every cube over ``n`` keys."""
    return list(itertools.product((True, False), repeat=n))


def test_cubes_refuted_before_are_skipped() -> None:
    """``refuted`` cubes are not solved again: with all of them refuted the answer is INFEASIBLE and
    nothing is solved; with those refuted at a short horizon, the proven one skips exactly those and still
    gives the exhaustive verdict."""
    models, keys = _copies(0, 2)
    calls = []

    def solver_for(m: Any) -> cp_model.CpSolver:
        calls.append(m)
        return _parameters(m, 20, 1)

    status, _v, _s, stats = solve_split(models, keys, solver_for, refuted=set(_every(len(keys))))
    assert status == cp_model.INFEASIBLE and not calls and stats["skipped"] == 2 ** len(keys)
    skipped = 0
    for seed in range(12):
        short, proven, keys = _short_and_proven(seed, 8)
        done: set[tuple[bool, ...]] = set()
        solve_split([short], keys, lambda m: _parameters(m, 20, 1), refuted=done)
        before = len(done)
        status, _v, _s, stats = solve_split([proven], keys, lambda m: _parameters(m, 20, 1), refuted=done)
        want = cp_model.OPTIMAL if brute_force(small(BASIC, 4, 5, seed)) else cp_model.INFEASIBLE
        assert status == want and stats["skipped"] == before, seed
        skipped += before
    assert skipped > 0


def test_a_probe_out_of_time_is_not_asked_again_on_its_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """A probe that ran out of its time on a model is not asked again on that model (the fixed search
    would repeat itself), only on another one; the verdicts stay the exhaustive search's."""
    monkeypatch.setattr(backend, "FOATA_DEPTHS", (10, 20))
    monkeypatch.setattr(backend, "PROBE_SHARE", 1e-9)  # the probe gets 10 ms: out of time on most deals
    calls: list[tuple[int | None, float | None]] = []  # (the probe's model horizon or None, its outcome)

    def spy(models: list[Any], *args: Any, **kw: Any) -> Any:
        out = solve_split(models, *args, **kw)
        on = (args[-1] or models[0]).horizon if args[3] is not None else None
        calls.append((on, out[3].get("probe")))
        return out

    monkeypatch.setattr(backend, "solve_split", spy)
    again = 0
    for seed in range(12):
        inst = small(BASIC, 4, 5, seed)
        calls.clear()
        result = CpSatGaps("foata", split=2, probe=13).solve(inst, Limits(seconds=20))
        assert result.status is (Status.SOLVED if brute_force(inst) else Status.UNSOLVABLE), seed
        spent = set()
        for on, outcome in calls:
            assert on is None or on not in spent, (seed, calls)
            if outcome == -1.0:
                spent.add(on)
            again += on is None and bool(spent)
    assert again > 0  # a stage after a probe out of its time, where it was not asked
