"""The row-game (Accordion) search loop, written once: compiled by numba when it is installed, plain Python if
not.

It is :func:`patience.solvers.dfs.search` on a row game, over int64 arrays instead of an
:class:`~patience.engine.Engine`. What can happen next in a row game depends only on the piles left, in
order, and their top cards (:meth:`Engine.key`), so that is the whole packed state:

* the row is a doubly linked list over the dealt piles' indices (``nxt``/``prv``, with a head and a tail
  sentinel) and ``top[i]`` is pile ``i``'s top card. A move takes pile ``i`` off the list (its own links are
  kept, so the undo puts it back in O(1), as in dancing links) and gives its top to the pile it lands on;
* ``_gen`` is :meth:`patience.engine.moves.LegalMoves._row_moves` ordered as ``dfs`` tries them
  (``Pruner.score`` for a row game: the leftmost pile first, then the nearer target first), pushed so that
  the first to try is popped first;
* the key is :meth:`Engine.key` of a row game (the tops in row order) as a 128-bit hash: two independent
  64-bit lanes, each the XOR of a random word per pair of neighbours ``(left, right)`` in the row, the first
  pile paired with a start mark and the last with an end mark, updated per changed pair (O(1) a move).

  *Claim*: in a one-deck game the pair set determines the sequence, so equal keys of the engine give equal
  pair sets and unequal ones unequal pair sets. *Proof*: a card code names one card of a one-deck deal, and
  every card is in one pile, so the tops are distinct codes. Then the first top is the one paired with the
  start mark, and each next top is the one its predecessor is paired with on its right (unique, since the
  predecessor appears once as a left element); the walk ends at the end mark. With several decks two tops
  may share a code and two sequences can share a pair set (``a b a c a`` and ``a c a b a``), so
  :func:`patience.solvers.registry.row_kernel_supports` asks for one deck. Unequal pair sets collide with
  probability about 2**-127 per pair of states, which is what a complete search's UNSOLVABLE rests on (as in
  :mod:`.generic_kernel.kernel`).
* ``search``: ``dfs``'s loop for a row game. No proven dominance applies to a row game
  (:func:`patience.solvers.dominance.applicable` gives none: no foundations, no stock) and no streamliner
  changes it, so here too: no prune, the same order, the same path and dead-state rejection; while the table
  never fills it visits the same nodes as ``dfs`` with ``streamline_share=0`` (tests compare counts). The
  loop is :mod:`.gaps_kernel`'s with this module's move functions: numba does not cache a function that takes
  other compiled functions as arguments (measured: a cache miss in every process), so each kernel keeps its
  own copy of the loop rather than recompiling a shared one per process.

The table and the chunked runner are shared (:mod:`.generic_kernel.kernel`'s ``_slot``, ``_store``,
``_refill``, ``_rehash``; :mod:`.kernel_runner`). Compiled with ``cache=True`` (the cache dropped when
``kernel.py`` changes) and ``_nrt=False`` (nothing allocates); ``PATIENCE_NO_JIT=1`` runs the same functions
uncompiled.
"""

from __future__ import annotations

import time
import warnings
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

__all__ = ["HAVE_NUMBA", "Packed", "compiled", "entry_points", "pack", "run", "to_move", "warm_up"]

# L[] fields: piles dealt, card codes, distances; from NL on the distances (ascending), then the match table
# (code x code: may a pile topped by the first move onto one topped by the second).
_N, _NCODE, _ND = range(3)
NL = 3
# S[] offsets are fixed by N = L[_N]: top[0:N], prv[N:2N+2], nxt[2N+2:3N+4], then the count of piles left.
# Sentinels: the head is node N, the tail node N + 1 (of prv and nxt).
NONE = -1  # a sentinel's "card" in the pair words: the start or end mark
_ONE = np.uint64(1)
_ZSEED = 0x0ACC_0D10  # the pair words' seed: any fixed value (keys are compared within one search)


class Packed:
    """A row game's state as arrays: ``S`` (tops and the row's links), ``L`` (sizes, distances, the match
    table), ``Z`` (the pair words, ``((lane * (codes + 1) + left + 1) * (codes + 1) + right + 1)``) and
    ``frame``, the most moves one state can have."""

    def __init__(self, S: np.ndarray, L: np.ndarray, Z: np.ndarray, frame: int) -> None:
        self.S, self.L, self.Z, self.frame = S, L, Z, frame


def pack(engine: Any) -> Packed:
    """The engine's row packed for :func:`run`: the piles left (the empty ones are off the list)."""
    n, ncode = len(engine.piles), engine.deck.n_codes
    S = np.zeros(3 * n + 5, dtype=np.int64)
    prv, nxt = n, 2 * n + 2
    left = [i for i, p in enumerate(engine.piles) if p]
    for i in left:
        S[i] = engine.piles[i][-1]
    chain = [n, *left, n + 1]  # head, the piles, tail
    for a, b in zip(chain, chain[1:], strict=False):
        S[nxt + a], S[prv + b] = b, a
    S[3 * n + 4] = len(left)
    match = engine.row_match
    rank, suit, colour = engine.rank, engine.suit, engine.colour
    table = [
        "any" in match
        or ("same-suit" in match and suit[a] == suit[b])
        or ("same-rank" in match and rank[a] == rank[b])
        or ("alternate-colour" in match and colour[a] != colour[b])
        for a in range(ncode)
        for b in range(ncode)
    ]  # the engine's test (LegalMoves._row_moves), tabled
    dist = sorted(engine.row_distances)
    L = np.array([n, ncode, len(dist), *dist, *table], dtype=np.int64)
    Z = np.random.default_rng(_ZSEED).integers(0, 1 << 64, size=2 * (ncode + 1) ** 2, dtype=np.uint64)
    return Packed(S, L, Z, max(len(left) * len(dist), 1))


def to_move(m: int) -> tuple[int, int, int, int]:
    """A packed move as ``(pile, onto)``: the dealt indices of the pile moved and the pile it lands on."""
    return (m >> 16) & 0xFFFF, m & 0xFFFF


def _card(S, L, x):
    """The top card of node ``x``, ``NONE`` for the head and the tail."""
    return S[x] if x < L[_N] else NONE


def _w(L, Z, lane, a, b):
    """The word of the neighbours ``a`` then ``b`` (cards, or ``NONE`` for the start/end mark) of one lane."""
    c = L[_NCODE] + 1
    return Z[(lane * c + a + 1) * c + b + 1]


def _flip(L, Z, H, a, b):
    """Toggle the pair ``(a, b)`` in both key lanes."""
    for lane in range(2):
        H[lane] ^= _w(L, Z, lane, a, b)


def _gen(S, L, stk, sp):
    """Push the legal moves (``pile << 16 | onto``) at ``stk[sp:]``, the first to try on top; the new top.
    The pile at row place ``k`` may go ``d`` places left for each ``d <= k``: walked from the tail, the
    farthest target first."""
    n, nd = L[_N], L[_ND]
    prv = n
    head = n
    cm = NL + nd
    nc = L[_NCODE]
    i = S[prv + n + 1]
    while i != head:
        a = S[i]
        for e in range(nd - 1, -1, -1):
            d = L[NL + e]
            j = i
            for _ in range(d):
                j = S[prv + j]
                if j == head:
                    break
            if j == head:
                continue
            if L[cm + a * nc + S[j]]:
                stk[sp] = (i << 16) | j
                sp += 1
        i = S[prv + i]
    return sp


def _apply(S, L, Z, H, m):
    """Play ``m`` (pile ``i`` onto pile ``j``); the record ``_undo`` takes: ``m`` with ``j``'s old top."""
    n = L[_N]
    prv, nxt = n, 2 * n + 2
    i, j = (m >> 16) & 0xFFFF, m & 0xFFFF
    a, b = S[i], S[j]
    p, q = S[prv + i], S[nxt + i]
    cp, cq = _card(S, L, p), _card(S, L, q)
    _flip(L, Z, H, cp, a)  # i leaves the row: (p, i), (i, q) become (p, q)
    _flip(L, Z, H, a, cq)
    _flip(L, Z, H, cp, cq)
    S[nxt + p] = q
    S[prv + q] = p
    cl, cr = _card(S, L, S[prv + j]), _card(S, L, S[nxt + j])
    _flip(L, Z, H, cl, b)  # j's top b becomes a
    _flip(L, Z, H, b, cr)
    _flip(L, Z, H, cl, a)
    _flip(L, Z, H, a, cr)
    S[j] = a
    S[3 * n + 4] -= 1
    return m | (b << 32)


def _undo(S, L, Z, H, r):
    """Take back the move recorded as ``r`` (:func:`_apply`'s record), in the reverse order of its steps."""
    n = L[_N]
    prv, nxt = n, 2 * n + 2
    i, j, b = (r >> 16) & 0xFFFF, r & 0xFFFF, r >> 32
    a = S[j]
    cl, cr = _card(S, L, S[prv + j]), _card(S, L, S[nxt + j])
    _flip(L, Z, H, cl, a)
    _flip(L, Z, H, a, cr)
    _flip(L, Z, H, cl, b)
    _flip(L, Z, H, b, cr)
    S[j] = b
    p, q = S[prv + i], S[nxt + i]  # i's own links were kept
    S[nxt + p] = i
    S[prv + q] = i
    S[i] = a
    cp, cq = _card(S, L, p), _card(S, L, q)
    _flip(L, Z, H, cp, cq)
    _flip(L, Z, H, cp, a)
    _flip(L, Z, H, a, cq)
    S[3 * n + 4] += 1


def _init_hash(S, L, Z, H):
    """Both key lanes of the row from scratch."""
    H[0] = H[0] ^ H[0]
    H[1] = H[1] ^ H[1]
    n = L[_N]
    x = n
    while x != n + 1:
        y = S[2 * n + 2 + x]
        _flip(L, Z, H, _card(S, L, x), _card(S, L, y))
        x = y


def search(st, tab, max_slots, stop_at, S, L, Z, H, stk, frame, path, ka, kb, fb, tmp):
    """Depth-first search until a win (WON: one pile left), the end of the search space (COMPLETE),
    ``st[_NODES] >= stop_at`` (CHUNK), arrays too small for the next state (GROW) or a path that alone fills
    the table at its largest (MEMORY). ``stk[fb[d]:…]``: the moves left at depth ``d``; ``path[d]``: the
    record of the move played at depth ``d``; ``ka[d]``, ``kb[d]``: the key at depth ``d``. ``tmp`` is
    unused (the runner's calling convention)."""
    left = 3 * L[_N] + 4
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
            sp = _gen(S, L, stk, sp)
        if sp == fb[depth]:
            if depth == 0:
                code = COMPLETE
                break
            depth -= 1
            _undo(S, L, Z, H, path[depth])
            continue
        sp -= 1
        r = _apply(S, L, Z, H, stk[sp])
        nodes += 1
        if S[left] == 1:
            path[depth] = r
            depth += 1
            code = WON
            break
        a = H[0] | _ONE
        b = H[1]
        s = _slot(tab, a, b)
        if s >= 0:
            hits += 1
            _undo(S, L, Z, H, r)
        else:
            if 2 * (ntab + 1) > len(tab) // 2:  # full at the memory budget: keep only the path's states
                ntab = _refill(tab, ka, kb, depth)
                st[_CLEARS] += 1
                if 2 * (ntab + 1) > len(tab) // 2:
                    _undo(S, L, Z, H, r)
                    code = MEMORY
                    break
                s = _slot(tab, a, b)
            _store(tab, -1 - s, a, b)
            ntab += 1
            if ntab > peak:
                peak = ntab
            path[depth] = r
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
_HELPERS = (_mix, _slot, _store, _refill, _card, _w, _flip, _gen, _apply, _undo, _init_hash)
_INLINED = frozenset({"_card", "_w", "_flip"})  # a call numba does not inline copies each array it is passed
_COMPILED: dict[str, Callable[..., Any]] | None = None


def compiled() -> dict[str, Callable[..., Any]] | None:
    """The kernel functions compiled by numba (``search``, ``rehash``, ``init_hash``), or None when numba is
    off (:data:`HAVE_NUMBA`) or fails to import."""
    global _COMPILED
    if _COMPILED is None and HAVE_NUMBA:
        try:
            from numba import njit
            from numba.core.errors import NumbaIRAssumptionWarning
        except ImportError:  # pragma: no cover - a broken numba install
            return None
        # numba's pedantic check flags the inlined helpers' variables (as in generic_kernel.kernel.compiled)
        warnings.filterwarnings("ignore", category=NumbaIRAssumptionWarning)
        from .generic_kernel.extend import cache_dir, drop_stale_cache
        from .generic_kernel.kernel import register

        register(_HELPERS, _INLINED)
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
    return kernel_runner.run(
        fn, p.S.copy(), p.L, p.Z, p.frame, np.zeros(1, dtype=np.int64), deadline=deadline, node_cap=node_cap,
        memory_bytes=memory_bytes, compiled=fn["search"] is not search, chunk=chunk,
    )  # fmt: skip


def entry_points() -> list[Callable[..., Any]]:
    """The compiled functions a search calls (numba's dispatchers, each compiled by :func:`warm_up`), or
    none when numba is off: what :mod:`.jit_cache` checks before a load."""
    fn = compiled()
    return [] if fn is None else list(fn.values())


def warm_up() -> float:
    """Compile (or load from numba's cache) the kernel, run it on a small deal, and the table's rehash (a
    small deal never grows its table); the seconds it took."""
    t0 = time.perf_counter()
    fn = compiled()
    if fn is not None:
        from ..deals import deal
        from ..engine import Engine

        p = pack(Engine(deal("accordion-knuth", 1)))
        run(p, deadline=time.perf_counter() + 60, node_cap=-1, memory_bytes=1 << 20)
        fn["rehash"](np.zeros(4, dtype=np.uint64), np.zeros(8, dtype=np.uint64))
    return time.perf_counter() - t0
