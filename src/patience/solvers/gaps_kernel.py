"""The Gaps search loop, written once: compiled by numba when it is installed, plain Python if not.

It is :func:`patience.solvers.dfs.search` on a Gaps grid, over int64 arrays instead of an
:class:`~patience.engine.Engine`:

* ``_gen`` is :meth:`patience.engine.moves.LegalMoves.legal_moves` of a grid move for move and in the same
  order (gaps ascending; a column-0 gap takes the row's fixed-suit 2, or every suit's 2 in suit order; any
  other gap the same-suit successor of its left neighbour, nothing right of a gap or a King; when no gap can
  be filled, the grid is not won and redeals remain, the redeal alone);
* ``_apply`` / ``_undo`` are :meth:`Engine.apply` / :meth:`Engine.undo`: a card's move is undone by the
  reverse move; a redeal (:meth:`GapsGrid._redeal`) saves the grid for its undo and lays the loose cards out
  in the permutation :func:`pack` precomputed from the deal's seeded shuffle;
* ``_won`` is :meth:`GapsGrid._gaps_won`;
* the key is :meth:`Engine.key` of a Gaps grid (the grid, cell by cell, and the redeals used) as a 128-bit
  Zobrist hash: two independent 64-bit lanes, each the XOR over cells of a random word per (cell, card or
  gap) and one word for the redeals used, updated per changed cell. Equal grids give equal keys; unequal ones
  collide with probability about 2**-127 per pair, which is what a complete search's UNSOLVABLE rests on (as
  in :mod:`.generic_kernel.kernel`).
* ``search``: ``dfs``'s loop for Gaps. No proven dominance applies to a Gaps grid
  (:func:`patience.solvers.dominance.applicable` gives none, and dfs plays no streamliner on it), and
  ``Pruner.score`` ranks every grid move alike (11), so dfs's children are the legal moves in the engine's
  order, popped from the end. Here too: no prune at all, the same order, the same path and dead-state
  rejection, so while the table never fills it visits the same nodes as ``dfs`` (tests compare counts).

The table is :mod:`.generic_kernel.kernel`'s, its functions shared (``_slot``, ``_store``, ``_refill``,
``_rehash``): an open-addressing set of 128-bit keys, linear probing, at most half full, doubled by the caller
up to the memory budget, cleared with the path's keys put back when full at that size (forgetting dead states
costs re-searching them, never a verdict). All state lives in arrays, so the loop runs in chunks and resumes
exactly; between chunks Python checks the clock and Ctrl-C. Compiled with ``cache=True`` (the cache dropped
when ``kernel.py`` changes: :func:`.generic_kernel.extend.drop_stale_cache`) and ``_nrt=False`` (nothing
allocates); ``PATIENCE_NO_JIT=1`` runs the same functions uncompiled.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from . import kernel_runner
from .generic_kernel.kernel import _mix, _refill, _rehash, _slot, _store  # the table and its hash, shared
from .hole_kernel import HAVE_NUMBA
from .kernel_runner import CHUNK, COMPLETE, GROW, MEMORY, WON
from .kernel_runner import CLEARS as _CLEARS
from .kernel_runner import DEPTH as _DEPTH
from .kernel_runner import GEN as _GEN
from .kernel_runner import HITS as _HITS
from .kernel_runner import NODES as _NODES
from .kernel_runner import NTAB as _NTAB
from .kernel_runner import PEAK as _PEAK
from .kernel_runner import SP as _SP
from .registry import GAPS_KERNEL_MAX_REDEALS as MAX_REDEALS

__all__ = ["HAVE_NUMBA", "Packed", "compiled", "entry_points", "pack", "run", "to_move", "warm_up"]

# L[] fields: ranks (cells a row), cells, suits, fixed-suit 2s, gaps, card codes, redeals allowed; offsets in
# S of where each card lies, the gaps, the redeals used, the grids saved by redeals, scratch; in L of the
# redeal permutations (from NL on).
_R, _N, _NS, _FIXED, _NG, _NCODE, _REDEALS, _OWHERE, _OGAPS, _OUSED, _OSAVE, _OTMP, _OPERM = range(13)
NL = 13
GAP = -1  # the engine's EMPTY
REDEAL = -1  # the packed redeal move
# The permutation table holds redeals x (cells + 1) x cells int64: MAX_REDEALS caps it (registry predicate).
_ONE = np.uint64(1)
_ZSEED = 0x5A17_6A95  # the Zobrist words' seed: any fixed value (keys are compared within one search)


class Packed:
    """A Gaps engine state as arrays: ``S`` (grid, where each card lies, the gaps), ``L`` (sizes and
    offsets), ``Z`` (the Zobrist words, lane-major, ``(cell * (codes + 1) + card + 1)``) and ``frame``, the
    most moves one state can have."""

    def __init__(self, S: np.ndarray, L: np.ndarray, Z: np.ndarray, frame: int) -> None:
        self.S, self.L, self.Z, self.frame = S, L, Z, frame


def pack(engine: Any) -> Packed:
    """The engine's Gaps grid packed for :func:`run`, with the permutation each redeal applies to ``k`` loose
    cards in code order (:func:`patience.rng.gaps_redeal_shuffle` is Fisher-Yates with draws fixed by the
    deal's sha256, the redeal's number and ``k`` alone, so the table is the shuffle of ``0..k-1``)."""
    from ..rng import gaps_redeal_shuffle

    R, n, ncode = engine.R, len(engine.grid), engine.deck.n_codes
    gaps = sorted(engine.gap_cells)
    redeals = engine.gaps_redeals - engine.redeals_used
    if redeals and (len(gaps) != engine.rows or engine.redeals_used or engine.gaps_redeals > MAX_REDEALS):
        raise ValueError("gaps_kernel: redeals need one gap a row, none used yet, at most MAX_REDEALS")
    perms = np.zeros(redeals * (n + 1) * n, dtype=np.int64)
    for k in range(redeals):
        for cnt in range(n + 1):
            at = (k * (n + 1) + cnt) * n
            perms[at : at + cnt] = gaps_redeal_shuffle(engine.instance.sha256, k + 1, list(range(cnt)))
    S = np.zeros(n + ncode + len(gaps) + 1 + redeals * n + 2 * n, dtype=np.int64)
    S[:n], S[n : n + ncode], S[n + ncode : n + ncode + len(gaps)] = engine.grid, engine.where, gaps
    L = np.zeros(NL, dtype=np.int64)
    L[_R], L[_N], L[_NS], L[_FIXED], L[_NG], L[_NCODE], L[_REDEALS] = (
        R,
        n,
        engine.deck.suits,
        engine.fixed_suit_twos,
        len(gaps),
        ncode,
        redeals,
    )
    L[_OWHERE], L[_OGAPS] = n, n + ncode
    L[_OUSED] = n + ncode + len(gaps)
    L[_OSAVE] = L[_OUSED] + 1
    L[_OTMP] = L[_OSAVE] + redeals * n
    L[_OPERM] = NL
    L = np.concatenate([L, perms])
    # 64 uniform random bits a word (the table forces lane 0's low bit to 1: 127 bits of key are random):
    # a word per (lane, cell, card or gap), then one per (lane, redeals used)
    size = 2 * n * (ncode + 1) + 2 * (redeals + 1)
    Z = np.random.default_rng(_ZSEED).integers(0, 1 << 64, size=size, dtype=np.uint64)
    frame = max(len(gaps) * (1 if engine.fixed_suit_twos else engine.deck.suits), 1)
    return Packed(S, L, Z, frame)


def to_move(m: int) -> tuple[int, int, int, int, int]:
    """A packed move as the engine's grid move ``(GRID, from, GRID, to, 1)`` or its ``REDEAL``."""
    from ..engine.areas import GRID
    from ..engine.areas import REDEAL as ENGINE_REDEAL

    return ENGINE_REDEAL if m == REDEAL else (GRID, m >> 16, GRID, m & 0xFFFF, 1)


def _z(L, Z, lane, cell, card):
    """The Zobrist word of ``card`` (``GAP``: a gap) in ``cell``, of one key lane."""
    return Z[(lane * L[_N] + cell) * (L[_NCODE] + 1) + card + 1]


def _gen(S, L, stk, sp, tmp):
    """Push the legal moves (``from << 16 | to``) in the engine's order at ``stk[sp:]``; the new top."""
    R, ng, og, ow = L[_R], L[_NG], L[_OGAPS], L[_OWHERE]
    start = sp
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
    if sp == start and S[L[_OUSED]] < L[_REDEALS] and not _won(S, L):  # stuck: the redeal is the move
        stk[sp] = REDEAL
        sp += 1
    return sp


def _zr(L, Z, lane, used):
    """The Zobrist word of ``used`` redeals used, of one key lane."""
    return Z[2 * L[_N] * (L[_NCODE] + 1) + lane * (L[_REDEALS] + 1) + used]


def _apply(S, L, Z, H, m):
    """Play the packed move ``m`` (a card to a gap, or the redeal)."""
    if m == REDEAL:
        _redeal(S, L, Z, H)
    else:
        _move(S, L, Z, H, m)


def _undo(S, L, Z, H, m):
    """Take back the packed move ``m``: a card's move is undone by the reverse move."""
    if m == REDEAL:
        _unredeal(S, L, Z, H)
    else:
        _move(S, L, Z, H, ((m & 0xFFFF) << 16) | (m >> 16))


def _set(S, L, Z, H, p, c):
    """Put ``c`` (a card or ``GAP``) in cell ``p``, updating both key lanes and where a card lies."""
    old = S[p]
    if old != c:
        for lane in range(2):
            H[lane] ^= _z(L, Z, lane, p, old) ^ _z(L, Z, lane, p, c)
        S[p] = c
    if c != GAP:
        S[L[_OWHERE] + c] = p


def _redeal(S, L, Z, H):
    """:meth:`GapsGrid._redeal`: the cards out of each row's run 2, 3, ... of one suit from column 0, in code
    order, laid out again in the redeal's permutation, a gap right after each run. The grid before is saved
    for the undo."""
    R, n, ow, og, tmp = L[_R], L[_N], L[_OWHERE], L[_OGAPS], L[_OTMP]
    used = S[L[_OUSED]]
    save = L[_OSAVE] + used * n
    for p in range(n):
        S[save + p] = S[p]
    rows = n // R
    for r in range(rows):  # each row's run (gaps_sequence), in tmp[n + r]
        base = r * R
        first = S[base]
        k = 0
        if first != GAP and first % R == 1:  # rank 2
            k = 1
            while k < R - 1 and S[base + k] == first + k:
                k += 1
        S[tmp + n + r] = k
    cnt = 0
    for c in range(L[_NCODE]):  # the loose cards, in code order, in tmp[:cnt]
        p = S[ow + c]
        if p >= 0 and S[p] == c and p % R >= S[tmp + n + p // R]:
            S[tmp + cnt] = c
            cnt += 1
    perm = L[_OPERM] + (used * (n + 1) + cnt) * n
    q = 0
    for r in range(rows):
        base = r * R
        k = S[tmp + n + r]
        _set(S, L, Z, H, base + k, GAP)
        S[og + r] = base + k
        for j in range(k + 1, R):
            _set(S, L, Z, H, base + j, S[tmp + L[perm + q]])
            q += 1
    for lane in range(2):
        H[lane] ^= _zr(L, Z, lane, used) ^ _zr(L, Z, lane, used + 1)
    S[L[_OUSED]] = used + 1


def _unredeal(S, L, Z, H):
    """Undo the last redeal: the saved grid back, where the cards lie and the gaps from it."""
    n, og = L[_N], L[_OGAPS]
    used = S[L[_OUSED]] - 1
    save = L[_OSAVE] + used * n
    g = 0
    for p in range(n):
        c = S[save + p]
        _set(S, L, Z, H, p, c)
        if c == GAP:
            S[og + g] = p
            g += 1
    for lane in range(2):
        H[lane] ^= _zr(L, Z, lane, used + 1) ^ _zr(L, Z, lane, used)
    S[L[_OUSED]] = used


def _move(S, L, Z, H, m):
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
        H[lane] ^= _zr(L, Z, lane, S[L[_OUSED]])


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
            _undo(S, L, Z, H, path[depth])
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
            _undo(S, L, Z, H, m)
        else:
            if 2 * (ntab + 1) > len(tab) // 2:  # full at the memory budget: keep only the path's states
                ntab = _refill(tab, ka, kb, depth)
                st[_CLEARS] += 1
                if 2 * (ntab + 1) > len(tab) // 2:
                    _undo(S, L, Z, H, m)
                    code = MEMORY
                    break
                s = _slot(tab, a, b)
            _store(tab, -1 - s, a, b)
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
# The table's helpers are the generic kernel's: registered by whichever kernel compiles first (twice is
# harmless), and inlined into this module's cached code, which is dropped when kernel.py changes.
_HELPERS = (
    _mix, _slot, _store, _refill, _z, _zr, _gen, _set, _redeal, _unredeal, _move, _apply, _undo, _won,
    _init_hash,
)  # fmt: skip
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
        from .generic_kernel.extend import cache_dir, drop_stale_cache

        for helper in _HELPERS:
            register_jitable(helper)
        jit = njit(cache=True, _nrt=False)  # nothing allocates (see generic_kernel.kernel.compiled)
        found = {"search": jit(search), "rehash": jit(_rehash), "init_hash": jit(_init_hash)}
        # numba checks only this file's stamp, not the kernel helpers inlined (nothing loads before a call)
        drop_stale_cache(__file__, cache_dir(found["search"]))
        _COMPILED = found
    return _COMPILED


def functions(jit: bool = True) -> dict[str, Callable[..., Any]]:
    """The kernel functions by name: compiled when ``jit`` and numba allow, else the Python ones."""
    got = compiled() if jit else None
    if got is not None:
        return got
    return {"search": search, "rehash": _rehash, "init_hash": _init_hash}


def run(
    p: Packed,
    *,
    deadline: float,
    node_cap: int,
    memory_bytes: float,
    jit: bool = True,
    chunk: int | None = None,
) -> dict:
    """Search from the packed state (``p`` is left as it was) with :func:`.kernel_runner.run`: ``node_cap``
    < 0 is no node limit; the result's moves are packed (:func:`to_move`)."""
    fn = functions(jit)
    tmp = np.zeros(max(int(p.L[_NG]), 1), dtype=np.int64)
    return kernel_runner.run(
        fn, p.S.copy(), p.L, p.Z, p.frame, tmp, deadline=deadline, node_cap=node_cap,
        memory_bytes=memory_bytes, compiled=fn["search"] is not search, chunk=chunk,
    )  # fmt: skip


def entry_points() -> list[Callable[..., Any]]:
    """The compiled functions a search calls (numba's dispatchers, each compiled by :func:`warm_up`), or
    none when numba is off: what :mod:`.jit_cache` checks before a load."""
    fn = compiled()
    return [] if fn is None else list(fn.values())


def warm_up() -> float:
    """Compile (or load from numba's cache) the kernel and run it on a tiny deal, and the table's rehash (a
    tiny deal never grows its table); the seconds it took."""
    t0 = time.perf_counter()
    fn = compiled()
    if fn is not None:
        from ..deals import deal
        from ..engine import Engine

        p = pack(Engine(deal("gaps-basic-variant", 1, overrides={"ranks": 5})))
        run(p, deadline=time.perf_counter() + 60, node_cap=-1, memory_bytes=1 << 20)
        fn["rehash"](np.zeros(4, dtype=np.uint64), np.zeros(8, dtype=np.uint64))
    return time.perf_counter() - t0
