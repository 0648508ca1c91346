"""The hindsight player's world search turns the stock card by card (no stock access's macro plays)."""

from patience.deals import deal
from patience.engine import STOCK, WASTE, Engine
from patience.play import players as P
from patience.solvers.dfs_jit import DfsJitOptions, search_from


def _turns(moves) -> int:
    return sum(m[0] in (STOCK, WASTE) and m[2] in (STOCK, WASTE) for m in moves)


def test_world_lines_without_stock_access_cycles() -> None:
    """Klondike draw 1: the player's line is the search without stock access (in Wolter's move order, the
    player's), with fewer stock turns than stock access's expanded line (the cycling that cost version 5 a
    fifth of its draw-1 wins)."""
    e = Engine(deal("klondike", 2, "portable", {"draw": 1}))
    won, _lost, line, _best = P._search(e, "dfs-jit", 2000)
    off = search_from(e, nodes=2000, seconds=60, options=DfsJitOptions(stock_access=False, order="wolter"))
    on = search_from(e, nodes=2000, seconds=60, options=DfsJitOptions(order="wolter"))
    assert won and on.won and off.won
    assert line == list(off.moves)
    assert _turns(line) < _turns(on.moves)


def test_stock_access_off_same_verdicts() -> None:
    """Stock access on or off: no verdict differs (Klondike draw 1 deals, 20,000 nodes)."""
    for seed in range(1, 9):
        e = Engine(deal("klondike", seed, "portable", {"draw": 1}))
        a = search_from(e, nodes=20000, seconds=60)
        b = search_from(e, nodes=20000, seconds=60, options=DfsJitOptions(stock_access=False))
        assert not (a.won and b.complete and not b.won) and not (b.won and a.complete and not a.won)
