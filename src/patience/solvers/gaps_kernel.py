"""The Gaps search loop, written once: compiled by numba when it is installed, plain Python if not.

It is :func:`patience.solvers.dfs.search` on a Gaps grid without redeals, over int64 arrays instead of an
:class:`~patience.engine.Engine`:

* ``_gen`` is :meth:`patience.engine.gaps.GapsGrid._gaps_moves` move for move and in the same order (gaps
  ascending; a column-0 gap takes the row's fixed-suit 2, or every suit's 2 in suit order; any other gap the
  same-suit successor of its left neighbour, nothing right of a gap or a King);
* ``_apply`` is :meth:`Engine.apply` of a grid move (a card to a gap); its undo is the reverse move;
* ``_won`` is :meth:`GapsGrid._gaps_won`;
* the key is :meth:`Engine.key` of a Gaps grid (the grid, cell by cell) as a 128-bit Zobrist hash: two
  independent 64-bit lanes, each the XOR over cells of a random word per (cell, card or gap), updated in O(1)
  per move. Equal grids give equal keys; unequal ones collide with probability about 2**-128 per pair, which
  is what a complete search's UNSOLVABLE rests on (as in :mod:`.generic_kernel.kernel`).
* ``search``: ``dfs``'s loop for Gaps. No proven dominance applies to a Gaps grid
  (:func:`patience.solvers.dominance.applicable` gives none, and dfs plays no streamliner on it), and
  ``Pruner.score`` ranks every grid move alike (11), so dfs's children are the legal moves in the engine's
  order, popped from the end. Here too: no prune at all, the same order, the same path and dead-state
  rejection, so while the table never fills it visits the same nodes as ``dfs`` (tests compare counts).

The table is :mod:`.generic_kernel.kernel`'s (an open-addressing set of 128-bit keys, linear probing, at most
half full, doubled by the caller up to the memory budget, cleared with the path's keys put back when full at
that size: forgetting dead states costs re-searching them, never a verdict). All state lives in arrays, so
the loop runs in chunks and resumes exactly; between chunks Python checks the clock and Ctrl-C. Compiled
with ``cache=True`` and ``_nrt=False`` (nothing allocates); ``PATIENCE_NO_JIT=1`` runs the same functions
uncompiled.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ..interrupt import deferred
from .generic_kernel.kernel import _mix, _rehash, _slot  # the table and its hash, shared
from .hole_kernel import HAVE_NUMBA

__all__ = ["HAVE_NUMBA", "Packed", "compiled", "pack", "run", "to_move", "warm_up"]

# L[] fields: ranks (cells a row), cells, suits, fixed-suit 2s, gaps, card codes, offsets of where/gaps in S.
_R, _N, _NS, _FIXED, _NG, _NCODE, _OWHERE, _OGAPS = range(8)
NL = 8
GAP = -1  # the engine's EMPTY
# st[] fields of search().
_DEPTH, _SP, _NODES, _HITS, _NTAB, _PEAK, _GEN, _CLEARS = range(8)
NST = 8
CHUNK, WON, COMPLETE, GROW, MEMORY = 0, 1, 2, 3, 4
_ONE = np.uint64(1)
_ZSEED = 0x5A17_6A95  # the Zobrist words' seed: any fixed value (keys are compared within one search)


class Packed:
    """A Gaps engine state as arrays: ``S`` (grid, where each card lies, the gaps), ``L`` (sizes and
    offsets), ``Z`` (the Zobrist words, lane-major, ``(cell * (codes + 1) + card + 1)``) and ``frame``, the
    most moves one state can have."""

    def __init__(self, S: np.ndarray, L: np.ndarray, Z: np.ndarray, frame: int) -> None:
        self.S, self.L, self.Z, self.frame = S, L, Z, frame


def pack(engine: Any) -> Packed:
    """The engine's Gaps grid (no redeals) packed for :func:`run`."""
    R, n, ncode = engine.R, len(engine.grid), engine.deck.n_codes
    gaps = sorted(engine.gap_cells)
    S = np.array([*engine.grid, *engine.where, *gaps], dtype=np.int64)
    L = np.zeros(NL, dtype=np.int64)
    L[_R], L[_N], L[_NS], L[_FIXED], L[_NG], L[_NCODE] = (
        R,
        n,
        engine.deck.suits,
        engine.fixed_suit_twos,
        len(gaps),
        ncode,
    )
    L[_OWHERE], L[_OGAPS] = n, n + ncode
    # 64 uniform random bits a word (the table forces lane 0's low bit to 1: 127 bits of key are random)
    Z = np.random.default_rng(_ZSEED).integers(0, 1 << 64, size=2 * n * (ncode + 1), dtype=np.uint64)
    frame = max(len(gaps) * (1 if engine.fixed_suit_twos else engine.deck.suits), 1)
    return Packed(S, L, Z, frame)


def to_move(m: int) -> tuple[int, int, int, int, int]:
    """A packed move as the engine's grid move ``(GRID, from, GRID, to, 1)``."""
    from ..engine.areas import GRID

    return (GRID, m >> 16, GRID, m & 0xFFFF, 1)


def _z(L, Z, lane, cell, card):
    """The Zobrist word of ``card`` (``GAP``: a gap) in ``cell``, of one key lane."""
    return Z[(lane * L[_N] + cell) * (L[_NCODE] + 1) + card + 1]


def _gen(S, L, stk, sp, tmp):
    """Push the legal moves (``from << 16 | to``) in the engine's order at ``stk[sp:]``; the new top."""
    R, ng, og, ow = L[_R], L[_NG], L[_OGAPS], L[_OWHERE]
    for a in range(ng):  # the gaps, ascending (insertion sort: a handful)
        v = S[og + a]
        b = a - 1
        while b >= 0 and tmp[b] > v:
            tmp[b + 1] = tmp[b]
            b -= 1
        tmp[b + 1] = v
    for a in range(ng):
        g = tmp[a]
        if g % R == 0:
            if L[_FIXED]:
                s = (g // R) % L[_NS]
                stk[sp] = (S[ow + s * R + 1] << 16) | g
                sp += 1
            else:
                for s in range(L[_NS]):
                    stk[sp] = (S[ow + s * R + 1] << 16) | g
                    sp += 1
            continue
        left = S[g - 1]
        if left == GAP or left % R == R - 1:  # right of a gap or a King: dead
            continue
        stk[sp] = (S[ow + left + 1] << 16) | g
        sp += 1
    return sp


def _apply(S, L, Z, H, m):
    """Move the card in cell ``m >> 16`` to the gap ``m & 0xFFFF`` (its undo: the same with the two
    swapped), updating where it lies, the gap list and both key lanes."""
    si, di = m >> 16, m & 0xFFFF
    c = S[si]
    S[di] = c
    S[si] = GAP
    S[L[_OWHERE] + c] = di
    og = L[_OGAPS]
    for a in range(L[_NG]):
        if S[og + a] == di:
            S[og + a] = si
            break
    for lane in range(2):
        H[lane] ^= (
            _z(L, Z, lane, si, c) ^ _z(L, Z, lane, si, GAP) ^ _z(L, Z, lane, di, GAP) ^ _z(L, Z, lane, di, c)
        )


def _won(S, L):
    """Every row runs 2..top rank in one suit from column 0, its last cell a gap (``_gaps_won``)."""
    R, og = L[_R], L[_OGAPS]
    for a in range(L[_NG]):  # quick necessary test: a won grid has its gaps in the last column only
        if S[og + a] % R != R - 1:
            return False
    for r in range(L[_N] // R):
        base = r * R
        if S[base + R - 1] != GAP:
            return False
        first = S[base]
        if first == GAP:
            return False
        for k in range(R - 1):
            c = S[base + k]
            if c == GAP or c % R + 1 != k + 2 or c // R != first // R:
                return False
    return True


def _init_hash(S, L, Z, H):
    """Both key lanes of the grid from scratch."""
    H[0] = H[0] ^ H[0]
    H[1] = H[1] ^ H[1]
    for lane in range(2):
        for p in range(L[_N]):
            H[lane] ^= _z(L, Z, lane, p, S[p])


def search(st, tab, max_slots, stop_at, S, L, Z, H, stk, frame, path, ka, kb, fb, tmp):
    """Depth-first search until a win (WON), the end of the search space (COMPLETE), ``st[_NODES] >=
    stop_at`` (CHUNK), arrays too small for the next state (GROW: the caller enlarges them and calls again)
    or a path that alone fills the table at its largest (MEMORY).

    ``stk[fb[d]:…]``: the moves left at depth ``d``; ``path[d]``: the move played at depth ``d``; ``ka[d]``,
    ``kb[d]``: the key of the state at depth ``d`` (the root at 0).
    """
    depth = st[_DEPTH]
    sp = st[_SP]
    nodes = st[_NODES]
    hits = st[_HITS]
    ntab = st[_NTAB]
    peak = st[_PEAK]
    gen = st[_GEN]
    code = CHUNK
    while True:
        if gen:
            if (
                (2 * (ntab + 1) > len(tab) // 2 and len(tab) // 2 < max_slots)
                or sp + frame > len(stk)
                or depth + 2 > len(path)
            ):
                code = GROW
                break
            gen = 0
            sp = _gen(S, L, stk, sp, tmp)
        if sp == fb[depth]:
            if depth == 0:
                code = COMPLETE
                break
            depth -= 1
            m = path[depth]
            _apply(S, L, Z, H, ((m & 0xFFFF) << 16) | (m >> 16))
            continue
        sp -= 1
        m = stk[sp]
        _apply(S, L, Z, H, m)
        nodes += 1
        if _won(S, L):
            path[depth] = m
            depth += 1
            code = WON
            break
        a = H[0] | _ONE
        b = H[1]
        s = _slot(tab, a, b)
        if s >= 0:
            hits += 1
            _apply(S, L, Z, H, ((m & 0xFFFF) << 16) | (m >> 16))
        else:
            if 2 * (ntab + 1) > len(tab) // 2:
                # Full at the memory budget: forget the dead states, keep the path's.
                for q in range(len(tab)):
                    tab[q] = tab[q] ^ tab[q]
                ntab = 0
                st[_CLEARS] += 1
                for d in range(depth + 1):
                    t = -1 - _slot(tab, ka[d], kb[d])
                    tab[2 * t] = ka[d]
                    tab[2 * t + 1] = kb[d]
                    ntab += 1
                if 2 * (ntab + 1) > len(tab) // 2:
                    _apply(S, L, Z, H, ((m & 0xFFFF) << 16) | (m >> 16))
                    code = MEMORY
                    break
                s = _slot(tab, a, b)
            tab[2 * (-1 - s)] = a
            tab[2 * (-1 - s) + 1] = b
            ntab += 1
            if ntab > peak:
                peak = ntab
            path[depth] = m
            depth += 1
            ka[depth] = a
            kb[depth] = b
            fb[depth] = sp
            gen = 1
        if nodes >= stop_at:
            break
    st[_DEPTH] = depth
    st[_SP] = sp
    st[_NODES] = nodes
    st[_HITS] = hits
    st[_NTAB] = ntab
    st[_PEAK] = peak
    st[_GEN] = gen
    return code


# Compilation and the chunked runner ---------------------------------------------------------------------
_HELPERS = (_mix, _slot, _z, _gen, _apply, _won, _init_hash)  # _mix, _slot: registered by either kernel
_COMPILED: dict[str, Callable[..., Any]] | None = None


def compiled() -> dict[str, Callable[..., Any]] | None:
    """The kernel functions compiled by numba (``search``, ``rehash``, ``init_hash``), or None when numba is
    off (:data:`HAVE_NUMBA`) or fails to import."""
    global _COMPILED
    if _COMPILED is None and HAVE_NUMBA:
        try:
            from numba import njit
            from numba.extending import register_jitable
        except ImportError:  # pragma: no cover - a broken numba install
            return None
        for helper in _HELPERS:
            register_jitable(helper)
        jit = njit(cache=True, _nrt=False)  # nothing allocates (see generic_kernel.kernel.compiled)
        _COMPILED = {"search": jit(search), "rehash": jit(_rehash), "init_hash": jit(_init_hash)}
    return _COMPILED


def functions(jit: bool = True) -> dict[str, Callable[..., Any]]:
    """The kernel functions by name: compiled when ``jit`` and numba allow, else the Python ones."""
    got = compiled() if jit else None
    if got is not None:
        return got
    return {"search": search, "rehash": _rehash, "init_hash": _init_hash}


SLOT_BYTES = 16  # a 128-bit key per slot; the table is kept at most half full
_MIN_SLOTS = 1 << 14
CHUNK_COMPILED = 1 << 12  # nodes in the first call; later calls aim at CHUNK_SECONDS each
CHUNK_PYTHON = 256
CHUNK_SECONDS = 0.03


def run(
    p: Packed,
    *,
    deadline: float,
    node_cap: int,
    memory_bytes: float,
    jit: bool = True,
    chunk: int | None = None,
) -> dict:
    """Search from the packed state (``p`` is left as it was). ``node_cap`` < 0: no node limit. Returns
    won, complete, stop ("time", "nodes", "memory" or ""), moves (packed, the win's), nodes, hits (states met
    in the table or on the path), peak_bytes, clears (times the full table was emptied) and compiled."""
    fn = functions(jit)
    is_compiled = fn["search"] is not search
    S, L, Z, frame = p.S.copy(), p.L, p.Z, p.frame
    H = np.zeros(2, dtype=np.uint64)
    with np.errstate(over="ignore"):
        fn["init_hash"](S, L, Z, H)
    max_slots = _MIN_SLOTS  # the largest table, with the half-size one it grows from, fits the budget
    while 3 * max_slots * SLOT_BYTES <= memory_bytes:
        max_slots *= 2
    tab = np.zeros(2 * _MIN_SLOTS, dtype=np.uint64)
    depth_n = 256
    stk = np.zeros(max(4 * frame, 1024), dtype=np.int64)
    path, fb = np.zeros(depth_n, dtype=np.int64), np.zeros(depth_n, dtype=np.int64)
    ka, kb = np.zeros(depth_n, dtype=np.uint64), np.zeros(depth_n, dtype=np.uint64)
    tmp = np.zeros(max(int(L[_NG]), 1), dtype=np.int64)
    st = np.zeros(NST, dtype=np.int64)
    st[_GEN] = 1
    with np.errstate(over="ignore"):
        ka[0], kb[0] = H[0] | _ONE, H[1]
        s = _slot(tab, ka[0], kb[0])
        tab[2 * (-1 - s)], tab[2 * (-1 - s) + 1] = ka[0], kb[0]
    st[_NTAB] = st[_PEAK] = 1
    adapt = chunk is None  # chunks of about CHUNK_SECONDS, so the deadline is kept within that
    chunk = chunk or (CHUNK_COMPILED if is_compiled else CHUNK_PYTHON)
    stop = ""
    code = CHUNK
    while True:
        now = time.perf_counter()
        if now >= deadline:
            stop = "time"
            break
        stop_at = int(st[_NODES]) + chunk
        if node_cap >= 0:
            stop_at = min(stop_at, node_cap)
        before = int(st[_NODES])
        with deferred(), np.errstate(over="ignore"):
            code = fn["search"](st, tab, max_slots, stop_at, S, L, Z, H, stk, frame, path, ka, kb, fb, tmp)
        if code == GROW:
            if 2 * (st[_NTAB] + 1) > len(tab) // 2 and len(tab) // 2 < max_slots:
                new = np.zeros(2 * len(tab), dtype=np.uint64)
                with np.errstate(over="ignore"):
                    fn["rehash"](tab, new)
                tab = new
            if st[_SP] + frame > len(stk):
                stk = np.concatenate([stk, np.zeros(max(len(stk), frame), dtype=np.int64)])
            if st[_DEPTH] + 2 > len(path):
                path, fb, ka, kb = (np.concatenate([a, np.zeros_like(a)]) for a in (path, fb, ka, kb))
            continue
        if code == MEMORY:
            stop = "memory"
            break
        if code != CHUNK:
            break
        if node_cap >= 0 and st[_NODES] >= node_cap:
            stop = "nodes"
            break
        spent = time.perf_counter() - now
        if adapt and int(st[_NODES]) - before >= chunk:
            chunk = int(min(max(chunk * CHUNK_SECONDS / max(spent, 1e-4), 256), 1 << 22))
    depth = int(st[_DEPTH])
    return dict(
        won=code == WON,
        complete=code == COMPLETE,
        stop=stop,
        moves=[int(x) for x in path[:depth]] if code == WON else [],
        nodes=int(st[_NODES]),
        hits=int(st[_HITS]),
        peak_bytes=int(st[_PEAK]) * 2 * SLOT_BYTES,
        clears=int(st[_CLEARS]),
        compiled=is_compiled,
    )


def warm_up() -> float:
    """Compile (or load from numba's cache) the kernel and run it on a tiny deal; the seconds it took."""
    t0 = time.perf_counter()
    if compiled() is not None:
        from ..deals import deal
        from ..engine import Engine

        p = pack(Engine(deal("gaps-basic-variant", 1, overrides={"ranks": 5})))
        run(p, deadline=time.perf_counter() + 60, node_cap=-1, memory_bytes=1 << 20)
    return time.perf_counter() - t0
