"""The chunked runner of a compiled depth-first search over a 128-bit key table (``gaps-jit``, ``row-jit``).

A kernel module supplies ``search``, ``rehash`` and ``init_hash`` (compiled or plain Python) with the calling
convention below; this module owns those searches' arrays and how they grow (the table up to the memory
budget, the stack and path arrays); the loop between chunks (deadline, node cap, Ctrl-C) is
:func:`.chunked.drive`, shared with the generic kernel. The loop's
scalars live in ``st`` (fields ``DEPTH`` ... ``CLEARS``), so a chunk resumes exactly where the last one
stopped.

``search(st, tab, max_slots, stop_at, S, L, Z, H, stk, frame, path, ka, kb, fb, tmp)`` returns one of
``CHUNK`` (``st[NODES]`` reached ``stop_at``), ``WON``, ``COMPLETE`` (the search space is exhausted),
``GROW`` (an array is too small for the next state; the runner enlarges it and calls again) or ``MEMORY``
(the path alone fills the table at its largest). ``path[:st[DEPTH]]`` is the win's moves after ``WON``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .chunked import CHUNK, COMPLETE, GROW, MEMORY, MIN_SLOTS, SLOT_BYTES, WON, drive, grown, table_slots
from .generic_kernel.kernel import _slot, _store

__all__ = ["CHUNK", "COMPLETE", "GROW", "MEMORY", "NST", "SLOT_BYTES", "WON", "run"]

# st[] fields of a search.
DEPTH, SP, NODES, HITS, NTAB, PEAK, GEN, CLEARS = range(8)
NST = 8
ONE = np.uint64(1)


def run(
    fn: dict[str, Callable[..., Any]],
    S: np.ndarray,
    L: np.ndarray,
    Z: np.ndarray,
    frame: int,
    tmp: np.ndarray,
    *,
    deadline: float,
    node_cap: int,
    memory_bytes: float,
    compiled: bool,
    chunk: int | None = None,
) -> dict:
    """Search from the state in ``S`` (searched in place: pass a copy) with the kernel functions ``fn``.
    ``frame``: the most moves one state can have; ``tmp``: the kernel's scratch array; ``node_cap`` < 0: no
    node limit; ``chunk``: nodes a call (None: about CHUNK_SECONDS a call). Returns won, complete, stop
    ("time", "nodes", "memory" or ""), moves (the win's, as the kernel encodes them), nodes, hits (states met
    in the table or on the path), peak_bytes, clears (times the full table was emptied) and compiled."""
    H = np.zeros(2, dtype=np.uint64)
    with np.errstate(over="ignore"):
        fn["init_hash"](S, L, Z, H)
    max_slots = table_slots(memory_bytes)
    tab = np.zeros(2 * MIN_SLOTS, dtype=np.uint64)
    depth_n = 256
    stk = np.zeros(max(4 * frame, 1024), dtype=np.int64)
    path, fb = np.zeros(depth_n, dtype=np.int64), np.zeros(depth_n, dtype=np.int64)
    ka, kb = np.zeros(depth_n, dtype=np.uint64), np.zeros(depth_n, dtype=np.uint64)
    st = np.zeros(NST, dtype=np.int64)
    st[GEN] = 1
    with np.errstate(over="ignore"):
        ka[0], kb[0] = H[0] | ONE, H[1]
        _store(tab, -1 - _slot(tab, ka[0], kb[0]), ka[0], kb[0])
    st[NTAB] = st[PEAK] = 1

    def search(stop_at: int) -> int:
        return fn["search"](st, tab, max_slots, stop_at, S, L, Z, H, stk, frame, path, ka, kb, fb, tmp)

    def grow() -> None:
        nonlocal tab, stk, path, fb, ka, kb
        depth, sp = int(st[DEPTH]), int(st[SP])
        tab, stk, arrays = grown(
            tab, int(st[NTAB]), max_slots, fn["rehash"], stk, sp, frame, depth, (path, fb, ka, kb)
        )
        path, fb, ka, kb = arrays

    code, stop = drive(
        search,
        grow,
        lambda: int(st[NODES]),
        deadline=deadline,
        node_cap=node_cap,
        compiled=compiled,
        chunk=chunk,
    )
    depth = int(st[DEPTH])
    return dict(
        won=code == WON,
        complete=code == COMPLETE,
        stop=stop,
        moves=[int(x) for x in path[:depth]] if code == WON else [],
        nodes=int(st[NODES]),
        hits=int(st[HITS]),
        peak_bytes=int(st[PEAK]) * 2 * SLOT_BYTES,
        clears=int(st[CLEARS]),
        compiled=compiled,
    )
