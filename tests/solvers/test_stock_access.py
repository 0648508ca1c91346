"""Stock access (solvers/stock_access.py): the reachable positions and the turns to them, against a
brute-force walk over the real turns and redeals, and the cycle of splits the key merges."""

from __future__ import annotations

import pytest

from patience.engine import STOCK, WASTE
from patience.solvers.stock_access import canonical, positions, split_moves


def walk(w: int, n: int, k: int) -> dict[int, list[tuple]]:
    """Every split reachable from split ``w`` by real turns and redeals (unlimited), with a shortest way."""
    seen = {w: []}
    todo = [w]
    while todo:
        s = todo.pop()
        nxt = []
        if s < n:
            nxt.append((s + min(k, n - s), (STOCK, 0, WASTE, 0, min(k, n - s))))
        elif s:
            nxt.append((0, (WASTE, 0, STOCK, 0, s)))
        for t, m in nxt:
            if t not in seen:
                seen[t] = [*seen[s], m]
                todo.append(t)
    return seen


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_positions_are_the_splits_turns_and_redeals_reach(k: int) -> None:
    for n in range(0, 13):
        for w in range(0, n + 1):
            reach = walk(w, n, k)
            got = positions(w, n, k)
            assert len(got) == len(set(got)), (w, n, k, got)
            assert set(got) == {p for p in reach if p >= 1}, (w, n, k)
            for p in got:
                moves = split_moves(w, n, k, p)
                s = w
                for m in moves:  # replay: each move legal from the split it meets, ending at p
                    if m[0] == STOCK:
                        assert s < n and m[4] == min(k, n - s)
                        s += m[4]
                    else:
                        assert s == n and m[4] == n
                        s = 0
                assert s == p
            with pytest.raises(ValueError):
                split_moves(w, n, k, n + 1)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_the_key_merges_exactly_the_splits_that_reach_one_another(k: int) -> None:
    for n in range(1, 11):
        q = tuple(range(n))
        keys = {}
        for w in range(n + 1):
            key = ((), (), (), (), tuple(reversed(q[w:])), q[:w], 0)
            keys[w] = canonical(key, k)
        for a in range(n + 1):
            for b in range(n + 1):
                mutual = b in walk(a, n, k) and a in walk(b, n, k)
                assert (keys[a] == keys[b]) is mutual, (n, k, a, b)
