"""Transposition table for the DFS backend: dead states with bounded memory and LRU-style eviction.

The table remembers states whose subtree was searched without a win ("dead"). States on the current
search path are *not* kept here: the search holds them in its own path set, so eviction can never drop
an ancestor (dropping one would let a cycle of moves loop forever). Evicting a dead state only costs a
re-search of it later, never a wrong verdict.

Eviction is batched: when the table is full, the least recently used quarter is dropped in one O(n)
rebuild (a hit moves an entry to the young end). Python dicts keep insertion order, so the oldest
entries are the first ones.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable

__all__ = ["DeadTable", "deep_size"]

# Bytes a dict entry costs beyond its key: hash, key and value pointers plus the index slot, with the
# table kept at most 2/3 full.
_ENTRY_OVERHEAD = 50


def deep_size(obj: object) -> int:
    """Approximate bytes of a key made of ints, tuples and strings (shared small ints count once)."""
    if isinstance(obj, tuple):
        return sys.getsizeof(obj) + sum(deep_size(x) for x in obj)
    if isinstance(obj, int) and -5 <= obj <= 256:
        return 0  # interned
    return sys.getsizeof(obj)


class DeadTable:
    """Dead states with a capacity in entries; ``refresh`` makes a hit young again (LRU)."""

    def __init__(self, capacity: int, refresh: bool = True) -> None:
        self.capacity = max(int(capacity), 16)
        self.refresh = refresh
        self.data: dict[Hashable, None] = {}
        self.hits = 0
        self.evicted = 0
        self.peak = 0

    def __len__(self) -> int:
        return len(self.data)

    def hit(self, key: Hashable) -> bool:
        """True (and counted) when ``key`` is known dead."""
        data = self.data
        if key in data:
            self.hits += 1
            if self.refresh:
                del data[key]
                data[key] = None
            return True
        return False

    def add(self, key: Hashable) -> None:
        """Record a dead state, evicting the oldest quarter first when full."""
        data = self.data
        if len(data) >= self.capacity:
            drop = max(len(data) // 4, 1)
            it = iter(data)
            for _ in range(drop):
                next(it)
            self.data = data = dict.fromkeys(it)
            self.evicted += drop
        data[key] = None
        if len(data) > self.peak:
            self.peak = len(data)
