"""Portable random numbers: the same stream, draw and shuffle on every machine (standard library only).

Every seeded thing in patience draws from here: the portable and Solvitaire deals
(:mod:`patience.generators`), the instance families (:mod:`patience.families`) and the Gaps redeals that
the engine and the validator replay (:func:`gaps_redeal_shuffle`). The engine and the validator import
this module, not the deal generators, so neither depends on how deals are made.

1. Stream: a standard 32-bit Mersenne Twister seeded exactly like C++ ``std::mt19937(seed)``
   (Matsumoto & Nishimura's ``init_genrand``), seed ``0 <= seed < 2**32``. Its first output for seed
   5489 is 3499211612.
2. Draw (:func:`draw_below`): ``r = next() // (2**32 // n)`` again until ``r < n`` -- the draw of
   Boost's ``uniform_int_distribution``, which Solvitaire uses, so its deals can be reproduced.
3. Shuffle (:func:`shuffle_in_place`): for ``i = n-1`` down to ``1``, draw ``r`` below ``i+1`` and
   swap items ``i`` and ``r``.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any, TypeVar

__all__ = [
    "draw_below",
    "gaps_redeal_seed",
    "gaps_redeal_shuffle",
    "mt19937",
    "shuffle_in_place",
    "shuffle_mt",
    "stream",
]

T = TypeVar("T")
_U32 = 2**32


def mt19937(seed: int) -> random.Random:
    """A ``random.Random`` in the state of C++ ``std::mt19937(seed)``; draw with ``getrandbits(32)``.

    >>> mt19937(5489).getrandbits(32)
    3499211612
    """
    state = [seed & 0xFFFFFFFF]
    for i in range(1, 624):
        prev = state[-1]
        state.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
    rng = random.Random()
    rng.setstate((3, tuple(state + [624]), None))
    return rng


def stream(seed: int, purpose: str) -> random.Random:
    """An mt19937 stream for one purpose of one seed, seeded from the first 32 bits of
    sha256("<seed>:<purpose>"), so draws for different purposes of a seed are independent.

    >>> stream(1, "deal").getrandbits(32) == stream(1, "deal").getrandbits(32)
    True
    >>> stream(1, "deal").getrandbits(32) == stream(1, "swaps").getrandbits(32)
    False
    """
    return mt19937(int(hashlib.sha256(f"{seed}:{purpose}".encode()).hexdigest()[:8], 16))


def draw_below(rng: random.Random, n: int) -> int:
    """A uniform integer in ``0..n-1`` by the bucket draw (step 2 of the module docstring).

    >>> rng = mt19937(5489)
    >>> [draw_below(rng, 6) for _ in range(8)]
    [4, 0, 5, 5, 0, 5, 5, 1]
    """
    bucket = _U32 // n
    while True:
        j = rng.getrandbits(32) // bucket
        if j < n:
            return j


def shuffle_in_place(rng: random.Random, items: list[Any]) -> None:
    """Fisher-Yates from the back with :func:`draw_below` (step 3 of the module docstring)."""
    for i in range(len(items) - 1, 0, -1):
        j = draw_below(rng, i + 1)
        items[i], items[j] = items[j], items[i]


def shuffle_mt(items: list[T], seed: int) -> list[T]:
    """A copy of ``items`` shuffled with mt19937(seed) (:func:`shuffle_in_place`).

    >>> shuffle_mt(["a", "b", "c", "d", "e"], 1)
    ['a', 'b', 'e', 'd', 'c']
    """
    out = list(items)
    shuffle_in_place(mt19937(seed), out)
    return out


def gaps_redeal_seed(instance_sha: str, k: int) -> int:
    """Seed of the ``k``-th (1-based) Gaps redeal of a deal: the first 32 bits of
    sha256("<instance sha256>:gaps-redeal:<k>"), so a redeal is fixed by the deal itself and replays."""
    return int(hashlib.sha256(f"{instance_sha}:gaps-redeal:{k}".encode()).hexdigest()[:8], 16)


def gaps_redeal_shuffle(instance_sha: str, k: int, cards: list[T]) -> list[T]:
    """The order in which the ``k``-th Gaps redeal lays out ``cards`` (given in deck code order).

    Redeals are part of the deal, not a player's choice: the shuffle is :func:`shuffle_mt` seeded by
    :func:`gaps_redeal_seed`, so every backend and the validator see the same cards.
    """
    return shuffle_mt(cards, gaps_redeal_seed(instance_sha, k))
