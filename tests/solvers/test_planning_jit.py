"""The planning-jit backend: planning's greedy best-first search over the compiled generic kernel.

On small deals of every game the kernel covers (parametrised by the registry predicate, as test_dfs_jit picks
them), with the engine's own stock moves (``stock_access=False``) it must expand exactly the nodes planning's
greedy search expands (same heuristic, same children in the same order, same tie-breaking: FIFO and LIFO)
and find the same plan; with its defaults (stock access, FIFO then LIFO) its verdicts must be dfs's and
planning's. Won results replay; each proven dominance switched off keeps the expansions equal to planning's
with the same set; limits give UNKNOWN; rules outside the kernel are UNSUPPORTED; the plain-Python fallback
(``PATIENCE_NO_JIT=1``) gives the compiled run's expansions. The slow run adds the brute-force oracle.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from patience.deals import deal
from patience.rules import list_games, load_game
from patience.shrink import shrink
from patience.solvers.base import Limits, Status, get_solver, solve
from patience.solvers.dominance import applicable
from patience.solvers.generic_kernel import kernel_supports
from patience.solvers.planning import SearchConfig, search
from patience.solvers.planning_jit import ORDERS, RACERS
from patience.solvers.stock_access import applies as stock_access_applies
from patience.validate import replay

GAMES = [g.name for g in list_games() if kernel_supports(g.rules) and g.rules.thoughtful]
LIMITS = Limits(seconds=60, nodes=20_000)
RUNGS = ((14, 1.0, None), (18, 1.0, 2), (14, 0.5, None))  # test_dfs_jit's: won and lost deals in each game


@pytest.fixture(autouse=True, scope="module")
def _warm() -> None:
    """Compile (or load) both kernels before timing anything."""
    solve(deal("freecell", 1, "portable", {"ranks": 3}), "planning-jit", Limits(seconds=600))


def small(game: str, seed: int, rung: tuple = RUNGS[0]):
    """A shrunk deal of 14-18 cards, every rule feature kept (:func:`patience.shrink.shrink`)."""
    return deal(game, seed, "portable", shrink(load_game(game).rules, *rung))


def twin(inst, lifo: bool = False, dominances=None):
    """planning's greedy search and planning-jit's with the engine's moves, the same ties and dominances."""
    cfg = SearchConfig("greedy", lifo=lifo, dominances=dominances)
    a = search(inst, LIMITS, cfg)
    ties = "lifo" if lifo else "fifo"
    b = get_solver("planning-jit", ties=ties, stock_access=False, dominances=dominances).solve(inst, LIMITS)
    return a, b


@pytest.mark.parametrize("game", GAMES)
def test_same_expansions_and_plans_as_planning(game: str) -> None:
    verdicts = set()
    for rung, seed in [(r, s) for r in RUNGS for s in range(4)]:
        inst = small(game, seed, rung)
        for lifo in (False, True):
            (status, plan, stats), b = twin(inst, lifo)
            assert b.status is status, (rung, seed, lifo, b.message)
            assert b.stats["expansions"] == stats["expansions"], (rung, seed, lifo)
            if status is not Status.UNKNOWN:
                assert b.stats["generated"] == stats["generated"]
                assert b.stats["states"] == stats["states"]
            if plan is not None:
                assert b.stats["plan_length"] == len(plan)
            verdicts.add(status)
    assert Status.SOLVED in verdicts, verdicts


@pytest.mark.parametrize("game", GAMES)
def test_verdicts_agree_with_dfs_and_planning(game: str) -> None:
    """Defaults (stock access, the FIFO and LIFO race): every decided verdict is dfs's and planning's."""
    both = 0
    for rung, seed in [(r, s) for r in RUNGS for s in range(4)]:
        inst = small(game, seed, rung)
        b = solve(inst, "planning-jit", LIMITS)
        assert b.status is not Status.ERROR, b.message
        if b.status is Status.SOLVED:
            report = replay(inst, list(b.solution or ()))
            assert report.ok and report.won
        for other in ("dfs", "planning"):
            a = solve(inst, other, LIMITS)
            if Status.UNKNOWN not in (a.status, b.status):
                assert a.status is b.status, (other, rung, seed)
                both += 1
    assert both > 0


@pytest.mark.parametrize("game", [g for g in GAMES if applicable(load_game(g).rules)])
def test_ablated_dominances_keep_planning_expansions(game: str) -> None:
    doms = applicable(load_game(game).rules)
    for seed in range(3):
        inst = small(game, seed)
        verdict = None
        for keep in [doms - {d} for d in doms] + [frozenset()]:
            (status, _plan, stats), b = twin(inst, dominances=keep)
            assert (b.status, b.stats["expansions"]) == (status, stats["expansions"]), (seed, keep)
            if status is not Status.UNKNOWN:
                verdict = verdict or status
                assert status is verdict


def test_stock_access_keeps_verdicts() -> None:
    """A waste stock with unlimited redeals: with and without stock access the same verdicts."""
    games = [g for g in GAMES if stock_access_applies(load_game(g).rules)]
    assert games
    for game in games:
        for seed in range(4):
            inst = small(game, seed)
            a = get_solver("planning-jit", stock_access=False).solve(inst, LIMITS)
            b = get_solver("planning-jit").solve(inst, LIMITS)
            if Status.UNKNOWN not in (a.status, b.status):
                assert a.status is b.status, (game, seed)


def test_race_decides_as_one_of_its_searches() -> None:
    """ties=race: the verdict, plan and expansions of one of its racers run alone (the one that decided),
    plus the dropped ones' expansions so far."""
    insts = [deal("freecell", s, "ms") for s in (3, 5)] + [
        small(GAMES[0], s, r) for r in RUNGS for s in range(3)
    ]
    for inst in insts:
        solo = {t: get_solver("planning-jit", ties=t).solve(inst, LIMITS) for t in RACERS}
        r = get_solver("planning-jit", ties="race").solve(inst, LIMITS)
        same = [s for s in solo.values() if (s.status, s.solution) == (r.status, r.solution)]
        assert same, (inst, r.status)
        assert r.stats["expansions"] >= min(s.stats["expansions"] for s in same)
        if r.status is Status.SOLVED:
            report = replay(inst, list(r.solution or ()))
            assert report.ok and report.won


def test_full_size_freecell_matches_planning_node_for_node() -> None:
    """MS FreeCell 3 and 11982: planning's expansions, its plan (3) and the proof of 11982's loss (FIFO
    greedy exhausts it in about 72k expansions: every state reached, up to the dominances)."""
    inst = deal("freecell", 3, "ms")
    status, plan, stats = search(inst, Limits(seconds=60), SearchConfig("greedy"))
    b = get_solver("planning-jit", ties="fifo").solve(inst, Limits(seconds=60))
    assert status is b.status is Status.SOLVED
    assert b.stats["expansions"] == stats["expansions"]
    a = get_solver("planning", mode="greedy").solve(inst, Limits(seconds=60))
    assert a.solution == b.solution
    lost = solve(deal("freecell", 11982, "ms"), "planning-jit", Limits(seconds=60))
    assert lost.status is Status.UNSOLVABLE, lost.message


def test_every_order_exhausts_a_lost_deal_alike_and_wins_replay() -> None:
    """The orders differ only in which open node comes next: on MS 11982 (lost) each one's complete search
    keeps the very same states (every state reachable under the dominances); MS 79, 8.8k expansions for
    greedy LIFO, is won by weighted A* with LIFO ties in a few hundred (274), and the plan replays."""
    lost = deal("freecell", 11982, "ms")
    runs = {o: get_solver("planning-jit", ties=o).solve(lost, Limits(seconds=120)) for o in ORDERS}
    assert {r.status for r in runs.values()} == {Status.UNSOLVABLE}
    states = {o: r.stats["states"] for o, r in runs.items()}
    assert len(set(states.values())) == 1, states
    inst = deal("freecell", 79, "ms")
    won = get_solver("planning-jit", ties="wlifo").solve(inst, Limits(seconds=60, nodes=5000))
    assert won.status is Status.SOLVED and won.stats["expansions"] < 1000
    assert replay(inst, list(won.solution or ())).won
    greedy = get_solver("planning-jit", ties="lifo").solve(inst, Limits(seconds=60, nodes=5000))
    assert greedy.status is Status.UNKNOWN


def test_layout_packed_once_a_rule_set_is_the_fresh_pack() -> None:
    """planning-jit packs the rule arrays once a rule-set (planning_jit._pack): every later deal's arrays
    are exactly what a fresh pack of that deal gives, in every kernel game."""
    from patience.engine import Engine
    from patience.solvers.dominance import Dominances
    from patience.solvers.generic_kernel.pack import pack
    from patience.solvers.planning_jit import _LAYOUTS, PlanningJitOptions, _pack

    opts = PlanningJitOptions()
    insts = [deal("freecell", s, "ms") for s in (1, 2)] + [small(g, s) for g in GAMES for s in range(4)]
    insts += [deal("canfield", s, "solvitaire") for s in range(1, 9)]  # a base rank dealt: 8 deals, 2+ bases
    _LAYOUTS.clear()
    for inst in insts:
        e = Engine(inst)
        S, L, C, frame, flags = _pack(e, opts)
        fresh = pack(e, dominances=Dominances(e), stock_access=True)
        assert (S == fresh.S).all() and (L == fresh.L).all() and (C == fresh.C).all(), inst.game
        assert frame == fresh.frame and len(flags) == 4
    assert 0 < len(_LAYOUTS) < len(insts)  # some layouts were reused


def test_limits_give_unknown() -> None:
    inst = deal("freecell", 11982, "ms")
    got = solve(inst, "planning-jit", Limits(seconds=60, nodes=500))
    assert got.status is Status.UNKNOWN and got.message == "node limit"
    assert got.stats["expansions"] == 500 * len(RACERS)  # every racer runs to the node limit
    assert got.stats["restarts"] == len(RACERS) - 1
    got = get_solver("planning-jit", ties="fifo").solve(inst, Limits(seconds=0.05))
    assert got.status is Status.UNKNOWN and got.message == "time limit"
    got = get_solver("planning-jit", ties="fifo").solve(inst, Limits(seconds=60, memory_mb=1))
    assert got.status is Status.UNKNOWN and got.message == "memory out"


def test_rules_outside_the_kernel_are_unsupported() -> None:
    for game in ("accordion", "black-hole", "gaps-basic-variant"):
        got = solve(deal(game, 1), "planning-jit", Limits(seconds=1))
        assert got.status is Status.UNSUPPORTED, game
        assert "planning-jit does not support" in got.message


def test_the_python_fallback_gives_the_compiled_results() -> None:
    """PATIENCE_NO_JIT=1: the same search, uncompiled, in a subprocess: the compiled run's expansions."""
    code = (
        "import json; from patience.deals import deal; from patience.solvers.base import Limits, solve;"
        "out = [];"
        "[out.append((r.status.value, r.stats['expansions'], r.stats['compiled'], r.solution))"
        " for r in (solve(deal('freecell', s, 'portable', {'ranks': 5, 'cells': 1}), 'planning-jit',"
        " Limits(seconds=60)) for s in (1, 2, 3))];"
        "print(json.dumps(out))"
    )
    env = {**os.environ, "PATIENCE_NO_JIT": "1"}
    got = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert got.returncode == 0, got.stderr
    slow = json.loads(got.stdout.strip().splitlines()[-1])
    for s, (status, expansions, compiled, solution) in zip((1, 2, 3), slow, strict=True):
        fast = solve(deal("freecell", s, "portable", {"ranks": 5, "cells": 1}), "planning-jit", LIMITS)
        assert compiled == 0 and fast.stats["compiled"] == 1
        assert (status, expansions) == (fast.status.value, fast.stats["expansions"])
        assert solution == (list(fast.solution) if fast.solution is not None else None)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_brute_force_oracle_agrees(game: str) -> None:
    """The oracle's small deals (30 seeds each): planning-jit's decided verdicts are the exhaustive
    search's."""
    from .oracle import MIX_SEEDS, small_deal, truth

    for seed in MIX_SEEDS:
        got = solve(small_deal(game, seed), "planning-jit", Limits(seconds=30))
        want = Status.SOLVED if truth(game, seed) else Status.UNSOLVABLE
        assert got.status in (want, Status.UNKNOWN), (game, seed, got.status, got.message)


@pytest.mark.parametrize("seconds", [1e-6, 10.0])
def test_race_turns_are_counted_not_timed(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """MS FreeCell 169 takes the race 56k expansions, many turns: its answer is the same whether timed
    chunks would be tiny or huge, since a turn is RACE_TURN expansions (the same race at any load)."""
    from patience.solvers.generic_kernel import bestfirst
    from patience.solvers.planning_jit import RACE_TURN

    inst = deal("freecell", 169, "ms")
    base = get_solver("planning-jit").solve(inst, Limits(seconds=60))
    assert base.status is Status.SOLVED and base.stats["expansions"] > 4 * RACE_TURN
    monkeypatch.setattr(bestfirst, "CHUNK_SECONDS", seconds)
    again = get_solver("planning-jit").solve(inst, Limits(seconds=60))
    assert again.stats["expansions"] == base.stats["expansions"] and again.solution == base.solution
