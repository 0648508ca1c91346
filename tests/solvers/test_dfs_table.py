"""The dfs transposition table: LRU-style batched eviction within its capacity, key sizes, and that a table
too small for the search changes node counts, never verdicts (path states are not in it)."""

from __future__ import annotations

import sys
import time
from typing import Any

from patience.deals import deal
from patience.engine import Engine, Move
from patience.instance import Instance
from patience.solvers.dfs import search
from patience.solvers.dfs_prune import features
from patience.solvers.dfs_table import DeadTable, deep_size
from patience.validate import replay


def test_dead_table_evicts_oldest_and_keeps_recent_hits() -> None:
    t = DeadTable(16)
    for k in range(16):
        t.add(k)
    assert t.hit(0)  # 0 becomes the youngest
    t.add(99)  # full: the oldest quarter (1..4) goes
    assert 0 in t.data and 99 in t.data
    assert not any(k in t.data for k in (1, 2, 3, 4))
    assert t.evicted == 4 and t.hits == 1


def test_table_never_outgrows_its_capacity() -> None:
    t = DeadTable(40)
    for k in range(1000):
        t.add(k)
        assert len(t) <= 40
    assert t.peak == 40
    assert t.evicted == 1000 - len(t)  # every key is either kept or counted as evicted
    assert all(t.hit(k) for k in range(1000 - len(t), 1000))  # the youngest survive, in order
    assert not t.hit(0) and t.hits == len(t)  # a miss is not a hit


def test_without_refresh_a_hit_does_not_save_an_entry() -> None:
    t = DeadTable(16, refresh=False)
    for k in range(16):
        t.add(k)
    assert t.hit(0)
    t.add(99)
    assert 0 not in t.data and 3 not in t.data and 4 in t.data  # the oldest quarter, 0 included


def test_capacity_has_a_floor() -> None:
    assert DeadTable(0).capacity == 16
    assert DeadTable(3.9).capacity == 16  # type: ignore[arg-type]
    assert DeadTable(100).capacity == 100


def test_deep_size_counts_what_a_key_holds() -> None:
    assert deep_size(7) == 0  # small ints are shared
    assert deep_size(10**6) == sys.getsizeof(10**6)
    assert deep_size((1, 2, 3)) == sys.getsizeof((1, 2, 3))
    inner = (1000, 2000)
    assert deep_size((inner, "ab")) == (
        sys.getsizeof((inner, "ab")) + sys.getsizeof(inner) + 2 * sys.getsizeof(1000) + sys.getsizeof("ab")
    )


def _json(inst: Instance, moves: list[Move]) -> list[dict[str, Any]]:
    """The engine's moves in JSON notation, each named in the state it is played from."""
    e = Engine(inst)
    out = []
    for m in moves:
        out.append(e.move_to_json(m))
        e.apply(m)
    return out


def test_a_tiny_table_costs_nodes_not_verdicts() -> None:
    """A budget of 100 entries (path and table together, ``memory_mb`` from the key size): dead states are
    evicted and searched again, but the path is never in the table, so every verdict and win stands."""
    over = {"suits": 4, "ranks": 5, "piles": 5, "cells": 1}
    more = 0
    for seed in range(1, 13):
        inst = deal("freecell", seed, "portable", over)
        big = search(Engine(inst), features(inst.rules), False, time.perf_counter() + 30, None, 64.0)
        assert big.stop == "" and (big.won or big.complete), seed
        mb = 100 * big.entry_bytes / 2**20
        tiny = search(Engine(inst), features(inst.rules), False, time.perf_counter() + 30, None, mb)
        assert tiny.stop == "" and tiny.won == big.won, (seed, tiny.stop)
        if tiny.won:
            assert replay(inst, _json(inst, tiny.moves)).won, seed
        assert tiny.nodes >= big.nodes, seed
        more += tiny.nodes > big.nodes
    assert more, "the tiny table never evicted anything: the test is vacuous"
