"""The dfs-jit backend: the dfs search over the compiled generic kernel.

On small deals of every game the kernel covers (parametrised by the registry predicate) it must reach dfs's
verdicts with dfs's node counts (same children, same order, same table decisions while the table never fills),
with and without the streamlined phase and with each proven dominance switched off; a table cleared under a
tiny memory budget keeps the verdict; limits give UNKNOWN; rules outside the kernel are UNSUPPORTED; the
plain-Python fallback (``PATIENCE_NO_JIT=1``) solves in a subprocess. The slow run adds the brute-force
oracle.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from patience.deals import deal
from patience.rules import list_games, load_game
from patience.shrink import shrink
from patience.solvers.base import Limits, Status, get_solver, solve
from patience.solvers.dominance import DOMINANCES, applicable
from patience.solvers.generic_kernel import kernel_supports

GAMES = [g.name for g in list_games() if kernel_supports(g.rules) and g.rules.thoughtful]
LIMITS = Limits(seconds=60, nodes=30_000)


@pytest.fixture(autouse=True, scope="module")
def _warm() -> None:
    """Compile (or load) the kernel before timing anything: a first compile can outlast a phase's deadline."""
    solve(deal("freecell", 1, "portable", {"ranks": 3}), "dfs-jit", Limits(seconds=600))


# (cards, slack, suit cap) of patience.shrink.shrink: between them every covered game has won and lost deals
# among seeds 0-7 (measured; the tight rungs lose most deals, the last one wins most).
RUNGS = ((14, 1.0, None), (18, 1.0, 2), (14, 0.5, None))


def small(game: str, seed: int, rung: tuple = RUNGS[0]):
    """A shrunk deal of 14-18 cards, every rule feature kept (:func:`patience.shrink.shrink`)."""
    return deal(game, seed, "portable", shrink(load_game(game).rules, *rung))


def pair(inst, limits: Limits = LIMITS, **opts):
    """dfs and dfs-jit on ``inst``; dfs-jit returns its search path (not shortened), which is dfs's."""
    a = get_solver("dfs", **opts).solve(inst, limits)
    b = get_solver("dfs-jit", shorten=False, **opts).solve(inst, limits)
    return a, b


@pytest.mark.parametrize("game", GAMES)
def test_same_verdicts_and_nodes_as_dfs(game: str) -> None:
    verdicts = []
    for rung, seed in [(r, s) for r in RUNGS for s in range(8)]:
        inst = small(game, seed, rung)
        for share in (0.1, 0.0):
            a, b = pair(inst, streamline_share=share)
            assert b.status is not Status.ERROR, b.message
            assert (b.status, b.stats["nodes"]) == (a.status, a.stats["nodes"]), (seed, share, a, b)
            assert b.stats["best_foundation"] == a.stats["best_foundation"]
            assert b.max_cards == a.max_cards
            for name in DOMINANCES:
                assert b.stats[f"cuts_{name}"] == a.stats[f"cuts_{name}"]
            verdicts.append(a.status)
    assert Status.SOLVED in verdicts and Status.UNSOLVABLE in verdicts, verdicts


@pytest.mark.parametrize("game", [g for g in GAMES if applicable(load_game(g).rules)])
def test_ablated_dominances_keep_nodes_and_verdicts(game: str) -> None:
    doms = applicable(load_game(game).rules)
    for seed in range(4):
        inst = small(game, seed)
        base_status = None
        for keep in [doms - {d} for d in doms] + [frozenset()]:
            a, b = pair(inst, streamline_share=0, dominances=keep)
            assert (b.status, b.stats["nodes"]) == (a.status, a.stats["nodes"])
            if b.status in (Status.SOLVED, Status.UNSOLVABLE):
                base_status = base_status or b.status
                assert b.status is base_status


def test_full_size_freecell_matches_dfs_node_for_node() -> None:
    """MS FreeCell 3 and a Solvitaire King Albert: the same nodes to the same win as dfs (both found by the
    streamlined phase, within its 6 s, in Wolter's order)."""
    for inst in (deal("freecell", 3, "ms"), deal("king-albert", 2, "solvitaire")):
        a, b = pair(inst, Limits(seconds=60), order="wolter")
        assert a.status is b.status is Status.SOLVED
        assert a.stats["nodes"] == b.stats["nodes"]
        assert a.solution == b.solution


@pytest.mark.parametrize("game", GAMES)
def test_both_move_orders_match_dfs_node_for_node_and_keep_the_verdicts(game: str) -> None:
    """Wolter's order (the default's alternative) on the same small deals: dfs-jit visits dfs's nodes; a
    complete search gives the verdict the default order gives."""
    for seed in range(4):
        inst = small(game, seed, RUNGS[1])
        a, b = pair(inst, streamline_share=0, order="wolter")
        assert (b.status, b.stats["nodes"]) == (a.status, a.stats["nodes"]), seed
        c = get_solver("dfs-jit", streamline_share=0).solve(inst, LIMITS)
        if Status.UNKNOWN not in (b.status, c.status):
            assert b.status is c.status, seed


def test_a_tiny_table_is_cleared_and_keeps_the_verdict() -> None:
    """The smallest table (8k states) on searches of ~11k states: cleared, the verdicts stand."""
    from patience.engine import Engine
    from patience.solvers.generic_kernel import kernel
    from patience.solvers.generic_kernel.pack import pack

    for seed, want in ((9, "complete"), (2, "won")):
        p = pack(Engine(deal("streets-and-alleys", seed, "portable", {"ranks": 12, "piles": 8})))
        got = {}
        for memory in (0, 1 << 30):
            got[memory] = kernel.run(
                p.S, p.L, p.C, frame=p.frame, flags=(False, False, True, False, False),
                deadline=time.perf_counter() + 120, node_cap=-1, memory_bytes=memory,
            )  # fmt: skip
        assert got[0][want] and got[1 << 30][want]
        assert got[0]["clears"] > 0 and got[1 << 30]["clears"] == 0
        assert got[0]["nodes"] >= got[1 << 30]["nodes"]


def test_limits_give_unknown() -> None:
    inst = deal("freecell", 1, "ms")
    got = solve(inst, "dfs-jit", Limits(seconds=60, nodes=500))
    assert got.status is Status.UNKNOWN and got.stats["nodes"] == 500 and got.message == "node limit"
    got = get_solver("dfs-jit", streamline_share=0).solve(deal("fan", 2, "solvitaire"), Limits(seconds=0.5))
    assert got.status is Status.UNKNOWN and got.message == "time limit"


def test_the_streamlined_phase_gets_its_share_after_the_kernel_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    """A slow kernel load (a process's first solve) leaves the streamlined phase its share of the rest."""
    from patience.solvers import dfs_jit
    from patience.solvers.generic_kernel import kernel

    monkeypatch.setattr(dfs_jit.KERNELS, "warm", lambda jit: time.sleep(0.3) or 0.3)
    windows: list[float] = []
    run = kernel.run

    def spy(*args, **kw):
        windows.append(kw["deadline"] - time.perf_counter())
        return run(*args, **kw)

    monkeypatch.setattr(kernel, "run", spy)
    solver = get_solver("dfs-jit", streamline_share=0.2)
    solver.solve(deal("freecell", 1, "ms"), Limits(seconds=2, nodes=50_000))
    assert len(windows) >= 1 and windows[0] > 0.2, windows  # 20% of the ~1.7 s left: ~0.34 s, not 0.4 - 0.3


def test_rules_outside_the_kernel_are_unsupported() -> None:
    for game in ("accordion", "golf-solvitaire", "black-hole", "gaps-basic-variant"):
        got = solve(deal(game, 1), "dfs-jit", Limits(seconds=1))
        assert got.status is Status.UNSUPPORTED, game
        assert "dfs-jit does not support" in got.message
    got = solve(deal("klondike", 1), "dfs-jit", Limits(seconds=1))  # hidden cards: no solver decides it
    assert got.status is Status.UNSUPPORTED


def test_auto_does_not_pick_dfs_jit() -> None:
    from patience.solvers.base import _pick_auto

    entry = _pick_auto(load_game("freecell").rules)
    assert entry is not None and entry.name != "dfs-jit"


def test_the_python_fallback_runs_without_numba() -> None:
    """PATIENCE_NO_JIT=1: the same kernel, uncompiled, solves a small deal with dfs's nodes."""
    code = (
        "import json; from patience.deals import deal; from patience.solvers.base import Limits, solve;"
        "i = deal('freecell', 2, 'portable', {'ranks': 4, 'cells': 2});"
        "a = solve(i, 'dfs-jit', Limits(seconds=60)); b = solve(i, 'dfs', Limits(seconds=60));"
        "print(json.dumps([a.status.value, a.stats['nodes'], a.stats['compiled'], b.status.value,"
        " b.stats['nodes']]))"
    )
    env = {**os.environ, "PATIENCE_NO_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    status, nodes, compiled, dfs_status, dfs_nodes = json.loads(out.stdout.strip().splitlines()[-1])
    assert compiled == 0
    assert status == dfs_status and status in ("solved", "unsolvable")
    assert nodes == dfs_nodes


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_brute_force_oracle_agrees(game: str) -> None:
    """The oracle's small deals (30 seeds each): dfs-jit's verdict is the exhaustive search's."""
    from .oracle import MIX_SEEDS, small_deal, truth

    for seed in MIX_SEEDS:
        got = solve(small_deal(game, seed), "dfs-jit", Limits(seconds=30))
        want = Status.SOLVED if truth(game, seed) else Status.UNSOLVABLE
        assert got.status is want, (game, seed, got.status, got.message)


def test_the_streamlined_phase_is_sized_in_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a node limit the streamlined phase gets ``share`` of the seconds at STREAMLINE_RATE as a node
    cap (a load-independent budget), and a deadline of STREAMLINE_SLACK times its share of the time."""
    from patience.solvers import dfs_jit
    from patience.solvers.generic_kernel import kernel

    calls: list[tuple[int, float]] = []
    run = kernel.run

    def spy(*args, **kw):
        calls.append((kw["node_cap"], kw["deadline"] - time.perf_counter()))
        return run(*args, **kw)

    monkeypatch.setattr(kernel, "run", spy)
    get_solver("dfs-jit", streamline_share=0.1).solve(deal("freecell", 1, "ms"), Limits(seconds=2))
    cap, window = calls[0]
    assert cap == int(2 * 0.1 * dfs_jit.STREAMLINE_RATE)
    assert 0.1 * 2 < window <= 0.1 * dfs_jit.STREAMLINE_SLACK * 2
    calls.clear()
    solver = get_solver("dfs-jit", streamline_share=0.1)
    solver.solve(deal("freecell", 1, "ms"), Limits(seconds=2, nodes=5000))
    assert calls[0][0] == 500  # a node limit: its share, as before
