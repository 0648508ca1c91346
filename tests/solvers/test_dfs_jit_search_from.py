"""``dfs_jit.search_from``: the dfs-jit search started from an engine's current state (the hindsight player's
entry point). It must find what the backend finds on the same state, with the same node count, leave the
engine as it was, give a line that replays to a win from that state, start from a mid-game state, and refuse
rules the kernel does not cover."""

from __future__ import annotations

import pytest

from patience.deals import deal
from patience.engine import Engine
from patience.solvers.base import Limits, Status, solve
from patience.solvers.dfs_jit import search_from


def _replays(e: Engine, moves: tuple) -> bool:
    n = 0
    for m in moves:
        if m not in e.legal_moves():
            break
        e.apply(m)
        n += 1
    won = n == len(moves) and e.is_won()
    for _ in range(n):
        e.undo()
    return won


@pytest.mark.parametrize("seed", [1, 2, 3, 4])  # at 20,000 nodes: 1 unknown, 2 lost, 3 and 4 won (measured)
def test_search_from_the_deal_agrees_with_the_backend(seed: int) -> None:
    inst = deal("klondike-thoughtful", seed)
    res = solve(inst, "dfs-jit", Limits(seconds=60, nodes=20_000))
    e = Engine(inst)
    before = e.snapshot()
    f = search_from(e, nodes=20_000)
    assert e.snapshot() == before
    assert f.won == (res.status is Status.SOLVED)
    assert f.complete == (res.status is Status.UNSOLVABLE)
    assert f.nodes == res.stats["nodes"]
    if f.won:
        assert _replays(e, f.moves)


def test_search_from_a_mid_game_state_of_a_hidden_card_game() -> None:
    e = Engine(deal("klondike", 5))  # the search treats every card the engine holds as known
    for _ in range(6):
        e.apply(e.legal_moves()[0])
    before = e.snapshot()
    f = search_from(e, nodes=50_000)
    assert e.snapshot() == before
    assert f.won and _replays(e, f.moves)  # won in 541 nodes (measured)
    assert search_from(e, nodes=10).nodes <= 10


def test_search_from_refuses_rules_outside_the_kernel() -> None:
    with pytest.raises(ValueError, match="does not cover"):
        search_from(Engine(deal("gaps-basic-variant", 1)), nodes=10)
