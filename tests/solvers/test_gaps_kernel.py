"""solvers/gaps_kernel.py: move generation, apply/undo and keys agree with the engine, state for state."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

from patience.deals import deal
from patience.engine import Engine
from patience.solvers import gaps_kernel as gk

GAMES = [("gaps-basic-variant", 6), ("gaps-one-deal", 5), ("gaps-basic-variant", 13), ("gaps-one-deal", 13),
         ("gaps", 5), ("gaps", 13)]  # fmt: skip


def _key(p: gk.Packed, S: np.ndarray) -> tuple[int, int]:
    H = np.zeros(2, dtype=np.uint64)
    with np.errstate(over="ignore"):
        gk._init_hash(S, p.L, p.Z, H)
    return int(H[0]), int(H[1])


def _state(L: np.ndarray, S: np.ndarray) -> tuple:
    """The packed state proper: grid and where each card lies, the gaps (as a set), the redeals used."""
    og, ng = int(L[gk._OGAPS]), int(L[gk._NG])
    return tuple(S[:og]), tuple(sorted(S[og : og + ng])), int(S[L[gk._OUSED]])


@pytest.mark.parametrize(("game", "ranks"), GAMES)
def test_random_walks_match_the_engine(game: str, ranks: int) -> None:
    """On random walks the kernel's moves are the engine's, in order (the redeal included); apply keeps the
    grid, where the cards lie, the gaps and the updated key equal to the engine's and to a key from scratch;
    undo restores the state and the key exactly."""
    rng = random.Random(7)
    redeals = 0
    for seed in range(1, 6):
        e = Engine(deal(game, seed, overrides={"ranks": ranks}))
        p = gk.pack(e)
        S, L, Z = p.S.copy(), p.L, p.Z
        H = np.zeros(2, dtype=np.uint64)
        stk = np.zeros(64, dtype=np.int64)
        tmp = np.zeros(int(L[gk._NG]), dtype=np.int64)
        with np.errstate(over="ignore"):
            gk._init_hash(S, L, Z, H)
        for _ in range(100):
            n = gk._gen(S, L, stk, 0, tmp)
            assert [gk.to_move(int(m)) for m in stk[:n]] == e.legal_moves()
            assert gk._won(S, L) == e.is_won()
            if not n:
                break
            m = int(stk[rng.randrange(n)])
            before = (_state(L, S), H.copy())
            with np.errstate(over="ignore"):
                gk._apply(S, L, Z, H, m)
                gk._undo(S, L, Z, H, m)
            assert _state(L, S) == before[0] and (H == before[1]).all()
            with np.errstate(over="ignore"):
                gk._apply(S, L, Z, H, m)
            e.apply(gk.to_move(m))
            redeals += m == gk.REDEAL
            n_cells, og = int(L[gk._N]), int(L[gk._OGAPS])
            assert list(S[:n_cells]) == e.grid
            assert all(S[n_cells + c] == e.where[c] for c in e.grid if c != gk.GAP)
            assert sorted(S[og : og + int(L[gk._NG])]) == sorted(e.gap_cells)
            assert S[int(L[gk._OUSED])] == e.redeals_used
            assert (int(H[0]), int(H[1])) == _key(p, S)
    assert redeals > 0 or not Engine(deal(game, 1)).gaps_redeals


def test_equal_grids_equal_keys_and_distinct_grids_distinct_keys() -> None:
    """Two move orders reaching one grid give one key; the grids of a search have distinct keys."""
    e = Engine(deal("gaps-one-deal", 6, overrides={"ranks": 5}))
    p = gk.pack(e)
    seen: dict[tuple[int, ...], tuple[int, int]] = {}

    def walk(depth: int) -> None:
        grid = tuple(e.grid)
        S = gk.pack(e).S
        k = _key(p, S)
        assert seen.setdefault(grid, k) == k
        if depth:
            for m in e.legal_moves():
                e.apply(m)
                walk(depth - 1)
                e.undo()

    walk(6)
    assert len(seen) > 20 and len(set(seen.values())) == len(seen)


def test_a_table_cleared_when_full_keeps_the_verdicts() -> None:
    """A table capped below the states searched is cleared (path kept): the same loss, more nodes."""
    for seed in (5, 15):  # gaps-basic-variant 4x8, lost: over 8,191 states, the smallest table's capacity
        p = gk.pack(Engine(deal("gaps-basic-variant", seed, overrides={"ranks": 8})))
        big = gk.run(p, deadline=time.perf_counter() + 60, node_cap=-1, memory_bytes=1 << 28)
        small = gk.run(p, deadline=time.perf_counter() + 60, node_cap=-1, memory_bytes=1)
        assert small["clears"] > 0 and big["clears"] == 0
        assert big["complete"] and small["complete"] and not big["won"] and not small["won"]
        assert small["nodes"] > big["nodes"]
