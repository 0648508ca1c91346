"""The Python loop around a compiled search run in chunks of nodes over a 128-bit key table.

The generic kernel (:mod:`.generic_kernel.kernel`) and the kernels of :mod:`.kernel_runner` (``gaps-jit``,
``row-jit``) keep all their state in arrays, so a search stops after a chunk of nodes and resumes exactly.
Between chunks this loop keeps the deadline, the node cap and Ctrl-C (:func:`~patience.interrupt.deferred`),
grows what the kernel asked for, and sizes the next chunk to about :data:`CHUNK_SECONDS`: one home for it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ..interrupt import deferred

__all__ = ["CHUNK", "COMPLETE", "GROW", "MEMORY", "SLOT_BYTES", "WON", "drive", "grown", "table_slots"]

# What a kernel's search returns: st[NODES] reached stop_at, a win, the space exhausted, an array too small
# for the next state (grow it and call again), the path alone filling the table at its largest.
CHUNK, WON, COMPLETE, GROW, MEMORY = 0, 1, 2, 3, 4
SLOT_BYTES = 16  # a 128-bit key per slot; the table is kept at most half full
MIN_SLOTS = 1 << 14
CHUNK_COMPILED = 1 << 12  # nodes in the first call; later calls aim at CHUNK_SECONDS each
CHUNK_PYTHON = 256
CHUNK_SECONDS = 0.03


def table_slots(memory_bytes: float) -> int:
    """The largest table's slots: it and the half-size table it grows from fit in ``memory_bytes``."""
    slots = MIN_SLOTS
    while 3 * slots * SLOT_BYTES <= memory_bytes:
        slots *= 2
    return slots


def grown(
    tab: np.ndarray,
    keys: int,
    max_slots: int,
    rehash: Callable[[np.ndarray, np.ndarray], None],
    stk: np.ndarray,
    sp: int,
    frame: int,
    depth: int,
    per_depth: tuple[np.ndarray, ...],
) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...]]:
    """What a GROW asked for: the table doubled (``rehash`` into the new one) when one more key would
    fill it past half and it may still grow; the stack when a state's ``frame`` moves would not fit
    above ``sp``; the arrays kept per depth (path, keys, ...) when the next depth would not fit."""
    if 2 * (keys + 1) > len(tab) // 2 and len(tab) // 2 < max_slots:
        new = np.zeros(2 * len(tab), dtype=np.uint64)
        with np.errstate(over="ignore"):
            rehash(tab, new)
        tab = new
    if sp + frame > len(stk):
        stk = np.concatenate([stk, np.zeros(max(len(stk), frame), dtype=np.int64)])
    if depth + 2 > len(per_depth[0]):
        per_depth = tuple(np.concatenate([a, np.zeros_like(a)]) for a in per_depth)
    return tab, stk, per_depth


def drive(
    search: Callable[[int], int],
    grow: Callable[[], None],
    nodes: Callable[[], int],
    *,
    deadline: float,
    node_cap: int,
    compiled: bool,
    chunk: int | None = None,
    most: int = 1 << 22,
) -> tuple[int, str]:
    """Call ``search(stop_at)`` chunk by chunk (``grow()`` after a GROW) until it wins, completes, or
    stops; ``nodes()``: the nodes searched so far; ``node_cap`` < 0: no node limit; ``chunk``: nodes a
    call (None: about CHUNK_SECONDS a call, at most ``most``). Returns the last code and the reason to
    stop ("time", "nodes", "memory" or "")."""
    adapt = chunk is None  # chunks of about CHUNK_SECONDS, so the deadline is kept within that
    chunk = chunk or (CHUNK_COMPILED if compiled else CHUNK_PYTHON)
    code = CHUNK
    while True:
        now = time.perf_counter()
        if now >= deadline:
            return code, "time"
        before = nodes()
        stop_at = before + chunk if node_cap < 0 else min(before + chunk, node_cap)
        with deferred(), np.errstate(over="ignore"):
            code = search(stop_at)
        if code == GROW:
            grow()
            continue
        if code == MEMORY:
            return code, "memory"
        if code != CHUNK:
            return code, ""
        if node_cap >= 0 and nodes() >= node_cap:
            return code, "nodes"
        spent = time.perf_counter() - now
        if adapt and nodes() - before >= chunk:
            chunk = int(min(max(chunk * CHUNK_SECONDS / max(spent, 1e-4), 256), most))
