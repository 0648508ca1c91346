"""The line shortener of dfs-jit's wins (:mod:`patience.solvers.generic_kernel.shorten`).

Over every game the generic kernel covers (found from the registry predicate): a line of legal moves, won or
not, comes back as legal moves that end in a state with the same engine key and are never more; dfs-jit's
wins shortened replay through the validator and keep the verdict; the compiled and plain-Python shorteners
give the same line; the shortest pass is never longer than the greedy one; a line over the work budget comes
back unchanged.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from patience.deals import deal
from patience.engine import Engine, moves_to_json
from patience.rules import list_games, load_game
from patience.shrink import shrink
from patience.solvers.base import Limits, Status, get_solver
from patience.solvers.generic_kernel import kernel_supports
from patience.solvers.generic_kernel.pack import from_move, pack, to_move
from patience.solvers.generic_kernel.shorten import _run, compiled, search, shorten
from patience.validate import replay

GAMES = [g.name for g in list_games() if kernel_supports(g.rules)]


def walk(engine: Engine, steps: int, rng: random.Random) -> list:
    """A random line of legal moves from ``engine``'s state (left at its end)."""
    line = []
    for _ in range(steps):
        legal = engine.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        engine.apply(move)
        line.append(move)
    return line


@pytest.mark.parametrize("game", GAMES)
def test_a_random_line_shortens_to_legal_moves_reaching_the_same_state(game: str) -> None:
    rng = random.Random(game)
    for seed in range(3):
        inst = deal(game, seed, "portable")
        end = Engine(inst)
        line = walk(end, 300, rng)
        out = shorten(Engine(inst), line)
        assert len(out) <= len(line)
        e = Engine(inst)
        for move in out:
            assert move in e.legal_moves(), (seed, move)
            e.apply(move)
        assert e.key() == end.key()


@pytest.mark.parametrize("game", [g for g in GAMES if load_game(g).rules.thoughtful])
def test_dfs_jit_wins_shorten_and_replay(game: str) -> None:
    rules = load_game(game).rules
    for seed in range(6):
        inst = deal(game, seed, "portable", shrink(rules, 18, 1.0, 2))
        raw = get_solver("dfs-jit", shorten=False).solve(inst, Limits(seconds=60, nodes=30_000))
        got = get_solver("dfs-jit").solve(inst, Limits(seconds=60, nodes=30_000))
        assert got.status is raw.status  # solve() replays every win through the validator
        if got.status is Status.SOLVED:
            assert got.stats["path_moves"] == len(raw.solution)
            assert len(got.solution) <= len(raw.solution)


@pytest.mark.skipif(compiled() is None, reason="uncompiled, a line this long is over the shortener's budget")
def test_a_long_depth_first_win_becomes_short() -> None:
    """MS FreeCell 1 in Wolter's order: the search's path is tens of thousands of moves; shortened, a few
    hundred."""
    inst = deal("freecell", 1, "ms")
    opts = dict(streamline_share=0, order="wolter")
    raw = get_solver("dfs-jit", shorten=False, **opts).solve(inst, Limits(seconds=60))
    got = get_solver("dfs-jit", **opts).solve(inst, Limits(seconds=60))
    assert raw.status is got.status is Status.SOLVED
    assert len(raw.solution) > 10_000
    assert len(got.solution) < 500
    assert replay(inst, got.solution).won


@pytest.mark.skipif(compiled() is None, reason="numba off: no compiled shortener to compare")
def test_compiled_and_python_shorteners_agree() -> None:
    rng = random.Random(7)
    for game in ("freecell", "klondike-thoughtful", "spider", "canfield"):
        inst = deal(game, 3, "portable")
        line = walk(Engine(inst), 400, rng)
        assert shorten(Engine(inst), line, jit=True) == shorten(Engine(inst), line, jit=False)


@pytest.mark.parametrize("game", ["freecell", "klondike-thoughtful", "spider", "beleaguered-castle"])
def test_the_shortest_pass_is_never_longer_than_the_greedy_one(game: str) -> None:
    inst = deal(game, 1, "portable")
    end = Engine(inst)
    line = walk(end, 500, random.Random(3))
    p = pack(Engine(inst), stock_access=False)
    fn = compiled() or search
    packed = np.array([from_move(m) for m in line], dtype=np.int64)
    lines = {}
    for dp in (True, False):
        got = _run(fn, p, packed, len(line), 10**9, dp)
        assert got is not None
        e = Engine(inst)
        for m in got:
            assert to_move(m) in e.legal_moves()
            e.apply(to_move(m))
        assert e.key() == end.key()
        lines[dp] = got
    assert len(lines[True]) <= len(lines[False]) <= len(line)


def test_a_line_over_the_work_budget_comes_back_unchanged() -> None:
    inst = deal("freecell", 2, "portable")
    line = walk(Engine(inst), 200, random.Random(1))
    assert shorten(Engine(inst), line, max_work=50) == line
    assert moves_to_json(inst, shorten(Engine(inst), line, max_work=50)) == moves_to_json(inst, line)


@pytest.mark.skipif(compiled() is None, reason="the greedy pass's extra budget is the compiled one's")
def test_a_line_longer_than_the_budget_still_gets_the_greedy_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default budget: a line too long for the exact pass (or even for the budget itself) is still
    shortened by the greedy pass, whose budget adds the line's own length twice."""
    from patience.solvers.generic_kernel import shorten as module

    monkeypatch.setattr(module, "MAX_WORK_COMPILED", 50)
    inst = deal("freecell", 2, "portable")
    end = Engine(inst)
    line = walk(end, 400, random.Random(5))
    out = shorten(Engine(inst), line)
    assert len(out) < len(line)
    e = Engine(inst)
    for move in out:
        e.apply(move)
    assert e.key() == end.key()
