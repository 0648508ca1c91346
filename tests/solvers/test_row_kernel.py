"""solvers/row_kernel.py: move generation, apply/undo and keys agree with the engine, state for state."""

from __future__ import annotations

import random

import numpy as np
import pytest

from patience.deals import deal
from patience.engine import Engine
from patience.solvers import row_kernel as rk

# (game, overrides): both presets, a small deck, and the other distances and matches the rules allow
GAMES = [("accordion", {}), ("accordion-knuth", {}), ("accordion", {"ranks": 6, "piles": 24}),
         ("accordion", {"row.distances": [1, 2], "row.match": ["alternate-colour"]}),
         ("accordion-knuth", {"row.distances": [2], "row.match": ["same-rank", "alternate-colour"]}),
         ("accordion-knuth", {"row.distances": [1, 3], "row.match": ["any"]})]  # fmt: skip


def _key(p: rk.Packed, S: np.ndarray) -> tuple[int, int]:
    H = np.zeros(2, dtype=np.uint64)
    with np.errstate(over="ignore"):
        rk._init_hash(S, p.L, p.Z, H)
    return int(H[0]), int(H[1])


def _row(p: rk.Packed, S: np.ndarray) -> tuple[int, ...]:
    """The tops in row order, read off the kernel's links (the engine's key of a row game)."""
    n = int(p.L[rk._N])
    out, x = [], int(S[2 * n + 2 + n])
    while x != n + 1:
        out.append(int(S[x]))
        x = int(S[2 * n + 2 + x])
    assert len(out) == S[3 * n + 4]
    return tuple(out)


def _engine_order(e: Engine) -> list[tuple[int, int]]:
    """The engine's row moves in the order dfs tries them (Pruner.score: leftmost pile, then nearest)."""
    n = len(e.piles)
    return sorted(((m[1], m[3]) for m in e.legal_moves()), key=lambda m: n * m[0] + m[0] - m[1])


@pytest.mark.parametrize(("game", "over"), GAMES)
def test_random_walks_match_the_engine(game: str, over: dict) -> None:
    """On random walks the kernel's moves are the engine's, in dfs's order; apply keeps the row equal to the
    engine's key and the updated key equal to one from scratch; undo restores the state and key exactly;
    equal rows have equal keys and unequal rows unequal ones (among the states met)."""
    rng = random.Random(11)
    seen: dict[tuple[int, ...], tuple[int, int]] = {}
    for seed in range(1, 9):
        e = Engine(deal(game, seed, overrides=over))
        p = rk.pack(e)
        S, L, Z = p.S.copy(), p.L, p.Z
        H = np.zeros(2, dtype=np.uint64)
        stk = np.zeros(4 * p.frame + 8, dtype=np.int64)
        with np.errstate(over="ignore"):
            rk._init_hash(S, L, Z, H)
        for _ in range(60):
            n = rk._gen(S, L, stk, 0)
            assert [rk.to_move(int(m)) for m in stk[:n][::-1]] == _engine_order(e)
            if not n:
                break
            m = int(stk[rng.randrange(n)])
            before = (S.copy(), H.copy())
            with np.errstate(over="ignore"):
                r = rk._apply(S, L, Z, H, m)
                rk._undo(S, L, Z, H, r)
            assert (S == before[0]).all() and (H == before[1]).all()
            with np.errstate(over="ignore"):
                rk._apply(S, L, Z, H, m)
            i, j = rk.to_move(m)
            e.apply(next(x for x in e.legal_moves() if (x[1], x[3]) == (i, j)))
            row = _row(p, S)
            assert row == e.key()
            key = (int(H[0]), int(H[1]))
            assert key == _key(p, S)
            assert seen.setdefault(row, key) == key
    assert len(set(seen.values())) == len(seen)


def test_pair_set_needs_distinct_tops() -> None:
    """Why one deck (the module's claim): two rows with a repeated top can share their neighbour pairs."""
    def pairs(row: list[int]) -> list[tuple[int, int]]:
        ext = [-1, *row, -1]
        return sorted(zip(ext, ext[1:], strict=False))

    assert pairs([0, 1, 0, 2, 0]) == pairs([0, 2, 0, 1, 0])


def test_won_and_stuck_rows() -> None:
    """One pile left ends the search as a win; a row without moves is a dead end."""
    e = Engine(deal("accordion-knuth", 3))
    p = rk.pack(e)
    o = rk.run(p, deadline=1e18, node_cap=-1, memory_bytes=1 << 22, jit=False)
    assert o["won"] and len(o["moves"]) == len(e.piles) - 1
    lost = rk.run(rk.pack(Engine(deal("accordion-knuth", 32))), deadline=1e18, node_cap=-1,
                  memory_bytes=1 << 22, jit=False)  # fmt: skip
    assert lost["complete"] and not lost["won"] and lost["nodes"] == 1308
