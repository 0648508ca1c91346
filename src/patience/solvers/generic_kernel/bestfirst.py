"""Greedy best-first search on the generic kernel's packed state: ``planning``'s greedy mode, compiled.

The same search as :func:`patience.solvers.planning.search` with ``SearchConfig("greedy")`` (FIFO ties, or
``lifo``), written on the arrays of :mod:`.kernel` so numba compiles it (plain Python with numba off):

* **Nodes** are parallel arrays ``parent``, ``move``, ``flip`` (what ``_apply`` returned, for ``_undo``) and
  ``depth``; node 0 is the root. One packed state walks the tree: expanding a node undoes the current
  node's moves up to the deepest common ancestor and applies the moves down to it (:func:`_goto`), as
  ``planning``'s ``_Tree.goto`` does with the engine.
* **Open list**: a bucket queue, one bucket per value of the informed heuristic times two (an integer:
  every term of ``heuristics._suits_informed`` is a multiple of 0.5) plus ``P`` (the least value is ``-P``),
  each bucket a list linked through ``nxt``; pops take the lowest non-empty bucket's oldest node (FIFO,
  planning's default) or newest (LIFO). Node ids grow in push order and a node's id is the counter
  ``planning`` gives it, so this is ``heapq``'s order on ``(h, counter)`` (or ``(h, -counter)``), without
  the binary heap's sift through a large array at every pop.
* **Children** (:func:`_children`): the legal moves of ``_gen`` in the engine's order; a forced move
  (``safe_deal``, then ``safe_home``) alone, else the moves that ``partial_pile`` and ``no_return`` keep
  (:meth:`patience.solvers.dominance.Dominances.forced` / ``prune``, through the kernel's packed tests).
* **Duplicates**: every generated state's 128-bit kernel key goes into the kernel's open-addressing table
  (:func:`.kernel._slot`); a state met again is dropped (greedy never reopens). The goal (every card home)
  is tested when a state is generated, after the duplicate test, as ``planning`` does.
* **Weighted A*** (``priority``): a node's bucket is ``ha * (h2 + P) + gd * depth``; greedy is (1, 0),
  (1, 1) is ``g + 2 h`` (weighted A*, weight 2), with duplicates dropped as in greedy (no reopening), so
  only the order of expansion changes and a complete search keeps the same states.
* **Heuristics** (:func:`_h2`): ``heuristics._suits_informed`` (suit foundations) and
  ``heuristics._runs_informed`` (run foundations, Spider), the two the kernel's games use, times two.

With the same heuristic, the same children in the same order, the same keys (up to 2**-128 collisions) and
the same tie-breaking, it expands the same nodes in the same order as ``planning``'s greedy search (tests
compare the counts). The loop runs in chunks of expansions and resumes exactly (all state in arrays, scalars
in ``st``): between chunks Python checks the clock and grows the arrays within the memory budget.

The rule fields ``L`` reach the compiled loop as a tuple, not an array: numba then keeps them in registers
instead of reloading them from memory after every store into the state (every index into ``L`` in the
kernel is a constant). Measured on MS FreeCell 1-50 and 11982 (CPU, one process, load 5-6): 20-35% less
time per expansion (about 7-10 us an expansion on FreeCell, ~2.5x the time of a ``dfs-jit`` node, which
does no walk and no heuristic); ``dfs-jit`` itself gained nothing measurable from the same change.

Where the time goes (``perf`` samples of the compiled loop, benchmarks/profile_bestfirst.py: MS FreeCell
1-200, FIFO, at most 20,000 expansions a deal, 366,893 expansions, 3.3 children and 4.4 walk steps each;
benchmarks/out/planning_jit_speed.md), before and after compiling without numba's reference counting
(``compiled``) and the bucket queue:

=================================================  ======  =====
share of the loop's samples                        before  after
=================================================  ======  =====
numba's array refcounts (``NRT_incref/decref``)    61%     0
apply/undo (children's and the walk's)             13%     41%
move generation (``_gen``, ``_card_moves``)         7%     21%
heuristic (``_h2_suits``)                           8%     16%
the loop (keys, table, open list inlined)           8%     14%
the walk's own steps (``_goto``)                    2%      5%
dominances (``_children``, ``_safe_home``)          1%      3%
=================================================  ======  =====

7.02 s -> 4.50 s for the same expansions (52,290 -> 81,622 a second, load 5.4-5.7).

Since then numba inlines the kernel's move helpers (``kernel._INLINED``) and this module's own (``_INLINED``)
into the loop: a call it does not inline copies the 54 rule fields and 7 words an array. On the same kind of
run (MS 1-200, FIFO, 20,000 expansions a deal at most, load 1.5-2.5): 223k-265k, then 559k-613k, then
740k-755k expansions a second (benchmarks/out/kernel_inline.md).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Generator
from typing import Any

import numpy as np

from ...interrupt import deferred
from . import kernel as K
from .extend import jit_on_kernel
from .kernel import (
    _BASE,
    _F,
    _FH,
    _H,
    _MAXRED,
    _NC,
    _NCARDS,
    _NSUITS,
    _OCELL,
    _ODOWN,
    _OFLEN,
    _OFND,
    _OHGT,
    _ONE,
    _ONFND,
    _OPILE,
    _ORANK,
    _OSLEN,
    _OSUIT,
    _OWLEN,
    _OWST,
    _P,
    _R,
    STK,
    WST,
    _apply,
    _gen,
    _key,
    _partial_ok,
    _returns_home,
    _safe_home,
    _slot,
    _store,
    _suit_heights,
    _undo,
)

__all__ = ["HEURISTICS", "buckets", "compiled", "entry_points", "run", "steps", "warm_up"]

HEURISTICS = {"suits": 0, "runs": 1}  # heuristics.pick_heuristic's names the kernel's games get
# st[] fields.
(_CUR, _NNODES, _NHEAP, _EXP, _GENC, _NTAB, _FHOME, _FPART, _FDEAL, _FRET, _WNODE, _WMOVE, _NAV, _MAXD,
 _BEST, _LO) = range(16)  # fmt: skip
NST = 16
CHUNK, WON, COMPLETE, GROW = 0, 1, 2, 3
DEPTH_SPAN = 4096  # depths with buckets of their own in a weighted search (buckets)


# The informed heuristics, times two ------------------------------------------------------------------------
def _h2_suits(S, L, C, need):
    """2 x ``heuristics._suits_informed``: cards not home, blockers (cards above a lower rank in their pile;
    the waste too without redeals), the cards above each suit's next foundation card, face-down cards,
    occupied cells, empty piles. ``need``: scratch of one int per suit. One pass over each pile's cards."""
    P, H, R = L[_P], L[_H], L[_R]
    op, oh, orank, osuit = L[_OPILE], L[_OHGT], L[_ORANK], L[_OSUIT]
    # _next_card_depth: need[s] is the card code wanted by suit s's foundation, or -1.
    ns = L[_NSUITS]
    for s in range(ns):
        need[s] = L[_BASE]
    for fi in range(L[_F]):
        fl = S[L[_OFLEN] + fi]
        if fl:
            top = S[L[_OFND] + fi * L[_FH] + fl - 1]
            r = C[orank + top]
            need[C[osuit + top]] = r + 1 if r < R else 0
    for s in range(ns):
        need[s] = s * R + need[s] - 1 if need[s] else -1
    inv = 0
    depth = 0
    down = 0
    empty = 0
    for i in range(P):
        n = S[oh + i]
        if n == 0:
            empty += 1
        down += S[L[_ODOWN] + i]
        low = 1 << 30
        o = op + i * H
        for k in range(n):
            c = S[o + k]
            r = C[orank + c]
            if r > low:
                inv += 1
            elif r < low:
                low = r
            if need[C[osuit + c]] == c:
                depth += n - 1 - k
    if L[_MAXRED] == 0:
        low = 1 << 30
        for k in range(S[L[_OWLEN]]):
            r = C[orank + S[L[_OWST] + k]]
            if r > low:
                inv += 1
            elif r < low:
                low = r
    h = 4 * (L[_NCARDS] - S[L[_ONFND]]) + 6 * inv + 2 * depth + 4 * down - empty
    for c in range(L[_NC]):
        if S[L[_OCELL] + c] >= 0:
            h += 1
    return h


def _h2_runs(S, L, C):
    """2 x ``heuristics._runs_informed``: cards not home, breaks in same-suit descending order, face-down
    cards."""
    P, H = L[_P], L[_H]
    op, oh, orank, osuit = L[_OPILE], L[_OHGT], L[_ORANK], L[_OSUIT]
    breaks = 0
    down = 0
    for i in range(P):
        o = op + i * H
        for k in range(1, S[oh + i]):
            a, b = S[o + k - 1], S[o + k]
            if C[osuit + a] != C[osuit + b] or C[orank + b] != C[orank + a] - 1:
                breaks += 1
        down += S[L[_ODOWN] + i]
    return 2 * (L[_NCARDS] - S[L[_ONFND]] + 2 * breaks + 2 * down)


def _h2(S, L, C, kind, need):
    """The informed heuristic ``kind`` (:data:`HEURISTICS`) of the state, times two."""
    if kind == 1:
        return _h2_runs(S, L, C)
    return _h2_suits(S, L, C, need)


# Children, the walk, the open list -------------------------------------------------------------------------
def _children(S, L, C, out, flags, home, st):
    """The moves to search from the current state at ``out[0:n]``, in the engine's order; return ``n``.

    ``flags``: safe_deal, safe_home, partial_pile, no_return (``Dominances.on``): a forced move is the only
    child (``Dominances.forced``), else the moves the prunes keep (``Dominances.prune``).
    """
    n = _gen(S, L, C, out, 0)
    if n == 0:
        return 0
    if flags[0] and S[L[_OWLEN]] == 0 and S[L[_OSLEN]]:
        for q in range(n):
            m = out[q]
            if (m & 7) == STK and ((m >> 3) & 7) == WST:
                out[0] = m
                st[_FDEAL] += 1
                return 1
    if flags[1]:
        q = _safe_home(S, L, C, out, 0, n, home)
        if q >= 0:
            out[0] = out[q]
            st[_FHOME] += 1
            return 1
    if flags[2]:
        k = 0
        for q in range(n):
            m = out[q]
            if _partial_ok(S, L, C, m):
                out[k] = m
                k += 1
        st[_FPART] += n - k
        n = k
    if flags[3]:
        _suit_heights(S, L, C, home)
        k = 0
        for q in range(n):
            m = out[q]
            if not _returns_home(S, L, C, m, home):
                out[k] = m
                k += 1
        st[_FRET] += n - k
        n = k
    return n


def _goto(S, L, C, HS, Z, st, parent, move, flip, depth, fwd, node):
    """Walk the packed state from node ``st[_CUR]`` to ``node`` through their deepest common ancestor."""
    a = st[_CUR]
    b = node
    if a == b:
        return
    nf = 0
    steps = 0
    while depth[b] > depth[a]:
        fwd[nf] = b
        nf += 1
        b = parent[b]
    while depth[a] > depth[b]:
        _undo(S, L, C, HS, Z, move[a], flip[a])
        a = parent[a]
        steps += 1
    while a != b:
        _undo(S, L, C, HS, Z, move[a], flip[a])
        a = parent[a]
        fwd[nf] = b
        nf += 1
        b = parent[b]
        steps += 1
    for q in range(nf - 1, -1, -1):
        x = fwd[q]
        _apply(S, L, C, HS, Z, move[x])
    st[_NAV] += steps + nf
    st[_CUR] = node


def buckets(L, ha: int = 1, gd: int = 0) -> int:
    """The open list's bucket count: above every ``ha * (_h2 + P)``, plus :data:`DEPTH_SPAN` depths of ``gd``
    (deeper nodes share the last bucket: only their order changes). ``_h2_suits`` is at most 4n + 6n
    (blockers: at most one a card) + 2 * suits * n (each suit's next card has at most n cards above it) + 4n
    (face-down) + the cells, and at least -P (empty piles); ``_h2_runs`` is at most 2(n + 2n + 2n); n: the
    cards."""
    n = int(L[_NCARDS])
    return ha * (2 * int(L[_P]) + int(L[_NC]) + (14 + 2 * int(L[_NSUITS])) * n + 10 * n) + gd * DEPTH_SPAN + 1


def _open_push(head, tail, nxt, b, node, lifo):
    """Put ``node`` into bucket ``b``: at the end of its list (FIFO) or at the front (LIFO)."""
    if lifo or head[b] < 0:
        nxt[node] = head[b]
        head[b] = node
        if nxt[node] < 0:
            tail[b] = node
    else:
        nxt[node] = -1
        nxt[tail[b]] = node
        tail[b] = node


def search(st, tab, S, L, C, HS, Z, parent, move, flip, depth, nxt, head, tail, out, fwd, home, need, flags,
           kind, lifo, frame, stop_at, ha, gd):  # fmt: skip
    """Best-first search, a node in bucket ``ha * (h2 + P) + gd * depth`` (greedy: 1, 0), until a win (WON:
    ``st[_WNODE]`` and ``st[_WMOVE]``), an empty open list (COMPLETE), ``st[_EXP] >= stop_at`` (CHUNK) or
    arrays too small for one more expansion (GROW: the caller enlarges them and calls again)."""
    total = L[_NCARDS]
    nnodes = st[_NNODES]
    nheap = st[_NHEAP]
    ntab = st[_NTAB]
    lo = st[_LO]
    code = CHUNK
    top = len(head) - 1
    if nnodes == 0:  # the root: its key in the table, node 0 in the open list
        a = _key(L, HS, 0) | _ONE
        b = _key(L, HS, 1)
        _store(tab, -1 - _slot(tab, a, b), a, b)
        ntab = 1
        nnodes = 1
        # clamped only for memory safety (buckets)
        lo = min(max(ha * (_h2(S, L, C, kind, need) + L[_P]), 0), top)
        _open_push(head, tail, nxt, lo, 0, lifo)
        nheap = 1
    while True:
        if nheap == 0:
            code = COMPLETE
            break
        if st[_EXP] >= stop_at:
            break
        if nnodes + frame > len(parent) or 2 * (ntab + frame) > len(tab) // 2 or st[_MAXD] + 2 > len(fwd):
            code = GROW
            break
        while head[lo] < 0:
            lo += 1
        node = head[lo]
        head[lo] = nxt[node]
        nheap -= 1
        _goto(S, L, C, HS, Z, st, parent, move, flip, depth, fwd, node)
        st[_EXP] += 1
        n = _children(S, L, C, out, flags, home, st)
        d1 = depth[node] + 1
        won = False
        for q in range(n):
            m = out[q]
            st[_GENC] += 1
            f = _apply(S, L, C, HS, Z, m)
            a = _key(L, HS, 0) | _ONE
            b = _key(L, HS, 1)
            s = _slot(tab, a, b)
            if s >= 0:
                _undo(S, L, C, HS, Z, m, f)
                continue
            fc = S[L[_ONFND]]
            if fc > st[_BEST]:
                st[_BEST] = fc
            if fc == total:
                _undo(S, L, C, HS, Z, m, f)
                st[_WNODE] = node
                st[_WMOVE] = m
                won = True
                break
            bk = min(max(ha * (_h2(S, L, C, kind, need) + L[_P]) + gd * d1, 0), top)
            _undo(S, L, C, HS, Z, m, f)
            _store(tab, -1 - s, a, b)
            ntab += 1
            parent[nnodes] = node
            move[nnodes] = m
            flip[nnodes] = f
            depth[nnodes] = d1
            _open_push(head, tail, nxt, bk, nnodes, lifo)
            if bk < lo:
                lo = bk
            nheap += 1
            nnodes += 1
        if d1 > st[_MAXD]:
            st[_MAXD] = d1
        if won:
            code = WON
            break
    st[_NNODES] = nnodes
    st[_NHEAP] = nheap
    st[_LO] = lo
    st[_NTAB] = ntab
    return code


# Compilation and the chunked runner ---------------------------------------------------------------------
_HELPERS = (_h2_suits, _h2_runs, _h2, _children, _goto, _open_push)
# All of them inlined into the loop (kernel._INLINED: a call copies 54 rule fields and 7 words an array):
# greedy FIFO on MS 1-200, 304,041 expansions, 480k-628k -> 740k-755k a second (load about 1.5).
_INLINED = frozenset(h.__name__ for h in _HELPERS)


@functools.cache
def compiled() -> Callable[..., Any] | None:
    """:func:`search` compiled by numba (once a process), or None when numba is off (:data:`K.HAVE_NUMBA`).

    Without numba's reference counting (``_nrt=False``: the loop allocates nothing, so it needs none):
    every kernel helper LLVM does not inline (``_apply``, ``_undo``, ``_gen``, ...) otherwise increfs and
    decrefs each array it is passed, on every call (module docstring: the profile)."""
    return jit_on_kernel(search, _HELPERS, __file__, inline=_INLINED, _nrt=False)


_NODE_BYTES = 4 + 8 + 4 + 4 + 4  # parent, move, flip, depth, nxt (the open list's links)
_SLOT_BYTES = 16
_MIN_NODES = 1 << 12  # a 256 KiB table to start: most deals need no more, and zeroed pages cost
CHUNK_COMPILED = 1 << 10  # expansions in the first call; later calls aim at CHUNK_SECONDS each
CHUNK_PYTHON = 32
CHUNK_SECONDS = 0.03


def _bytes(nodes: int, slots: int) -> int:
    return nodes * _NODE_BYTES + slots * _SLOT_BYTES


def run(S: np.ndarray, L: np.ndarray, C: np.ndarray, **kw: Any) -> dict:
    """Greedy best-first search from the packed state ``S`` (not changed) to its end (:func:`steps`'s
    arguments and result)."""
    gen = steps(S, L, C, **kw)
    while True:
        try:
            next(gen)
        except StopIteration as end:
            return end.value


def steps(
    S: np.ndarray,
    L: np.ndarray,
    C: np.ndarray,
    *,
    frame: int,
    flags: tuple[bool, bool, bool, bool],
    heuristic: str,
    lifo: bool,
    deadline: float,
    node_cap: int,
    memory_bytes: float,
    jit: bool = True,
    priority: tuple[int, int] = (1, 0),
    chunk: int = 0,
) -> Generator[tuple[int, int, int], None, dict]:
    """Greedy best-first search from the packed state ``S`` (not changed), rules ``L``/``C`` (:mod:`.pack`),
    yielding (expansions, generated, navigation) after each chunk (so two searches can take turns:
    planning-jit's ``race``); the generator's value is the result. ``chunk`` > 0: that many expansions a
    chunk, so turns fall at the same nodes at any load; 0: chunks sized to about :data:`CHUNK_SECONDS`.

    ``flags``: (safe_deal, safe_home, partial_pile, no_return); ``heuristic``: a key of :data:`HEURISTICS`;
    ``priority``: ``(ha, gd)``, a node's bucket ``ha * (h2 + P) + gd * depth`` ((1, 0): greedy; (1, 1):
    weighted A* with weight 2 on the informed heuristic, without reopening: :func:`weighted`);
    ``node_cap`` < 0: no limit on expansions; ``memory_bytes``: the most the node arrays, the open list and
    the table may take together (their next doubling included). Returns won, complete, stop ("time", "nodes",
    "memory" or ""), moves (packed, the win's, from the root), expansions, generated, states, open,
    navigation, best (most cards home in a generated state), fired_home, fired_partial, fired_deal,
    fired_return, peak_bytes and compiled.
    """
    fn = compiled() if jit else None
    is_compiled = fn is not None
    fn = fn or search
    kind = HEURISTICS[heuristic]
    split0 = (int(S[L[K._OWLEN]]), int(S[L[K._OWLEN]] + S[L[K._OSLEN]]))
    S = S.copy()
    HS = np.zeros(2 * (2 * int(L[_P]) + 5), dtype=np.uint64)
    init_hash = K.functions(is_compiled)["init_hash"]
    with np.errstate(over="ignore"):
        init_hash(S, L, C, HS, K.SEEDS)
    cap = _MIN_NODES
    while cap < 4 * frame:
        cap *= 2
    parent = np.zeros(cap, dtype=np.int32)
    move = np.zeros(cap, dtype=np.int64)
    flip = np.zeros(cap, dtype=np.int32)
    depth = np.zeros(cap, dtype=np.int32)
    nxt = np.zeros(cap, dtype=np.int32)
    ha, gd = priority
    head = np.full(buckets(L, ha, gd), -1, dtype=np.int32)
    tail = np.full(len(head), -1, dtype=np.int32)
    tab = np.zeros(2 * 4 * cap, dtype=np.uint64)
    fwd = np.zeros(1024, dtype=np.int64)
    out = np.zeros(frame + 1, dtype=np.int64)
    home = np.zeros(max(int(L[_NSUITS]), 1), dtype=np.int64)
    need = np.zeros(max(int(L[_NSUITS]), 1), dtype=np.int64)
    fl = np.array(flags, dtype=np.bool_)
    Lt = tuple(int(x) for x in L)  # numba keeps a tuple's fields in registers (module docstring)
    st = np.zeros(NST, dtype=np.int64)
    st[_BEST] = S[L[_ONFND]]
    won = bool(S[L[_ONFND]] == L[_NCARDS])
    fixed = chunk > 0
    chunk = chunk if fixed else CHUNK_COMPILED if is_compiled else CHUNK_PYTHON
    stop = ""
    code = WON if won else CHUNK
    rehash = K.functions(is_compiled)["rehash"]
    while not won:
        now = time.perf_counter()
        if now >= deadline:
            stop = "time"
            break
        stop_at = int(st[_EXP]) + chunk
        if node_cap >= 0:
            if st[_EXP] >= node_cap:
                stop = "nodes"
                break
            stop_at = min(stop_at, node_cap)
        before = int(st[_EXP])
        with deferred(), np.errstate(over="ignore"):
            code = fn(st, tab, S, Lt, C, HS, K.SEEDS, parent, move, flip, depth, nxt, head, tail, out, fwd,
                      home, need, fl, kind, lifo, frame, stop_at, ha, gd)  # fmt: skip
        if code == GROW:
            grow_nodes = st[_NNODES] + frame > len(parent)
            grow_tab = 2 * (st[_NTAB] + frame) > len(tab) // 2
            nodes, slots = len(parent), len(tab) // 2
            after = _bytes(2 * nodes if grow_nodes else nodes, 2 * slots if grow_tab else slots)
            transient = _bytes(nodes if grow_nodes else 0, slots if grow_tab else 0)  # old arrays meanwhile
            if (grow_nodes or grow_tab) and after + transient > memory_bytes:
                stop = "memory"
                break
            if grow_nodes:
                parent, move, flip, depth, nxt = (
                    np.concatenate([x, np.zeros_like(x)]) for x in (parent, move, flip, depth, nxt)
                )
            if grow_tab:
                new = np.zeros(2 * len(tab), dtype=np.uint64)
                with np.errstate(over="ignore"):
                    rehash(tab, new)
                tab = new
            if st[_MAXD] + 2 > len(fwd):
                fwd = np.concatenate([fwd, np.zeros_like(fwd)])
            continue
        if code != CHUNK:
            break
        spent = time.perf_counter() - now
        if not fixed and int(st[_EXP]) - before >= chunk:
            chunk = int(min(max(chunk * CHUNK_SECONDS / max(spent, 1e-4), 16), 1 << 20))
        yield int(st[_EXP]), int(st[_GENC]), int(st[_NAV])
    moves: list[int] = []
    if code == WON and not won:
        node = int(st[_WNODE])
        moves = [int(st[_WMOVE])]
        while node > 0:
            moves.append(int(move[node]))
            node = int(parent[node])
        moves.reverse()
        if L[K._KPLUS]:
            moves = K._expand(split0, int(L[K._DEAL]), moves)
    return dict(
        won=code == WON,
        complete=code == COMPLETE,
        stop=stop,
        moves=moves,
        expansions=int(st[_EXP]),
        generated=int(st[_GENC]),
        states=int(st[_NTAB]),
        open=int(st[_NHEAP]),
        navigation=int(st[_NAV]),
        best=int(st[_BEST]),
        fired_home=int(st[_FHOME]),
        fired_partial=int(st[_FPART]),
        fired_deal=int(st[_FDEAL]),
        fired_return=int(st[_FRET]),
        peak_bytes=_bytes(len(parent), len(tab) // 2),
        compiled=is_compiled,
    )


def entry_points() -> list[Callable[..., Any]]:
    """The compiled functions a search calls (:func:`search` and the kernel's hash and table rehash; numba's
    dispatchers, each compiled by :func:`warm_up`), or none when numba is off: what :mod:`..jit_cache`
    checks before a load."""
    fn = compiled()
    if fn is None:
        return []
    kernel = K.functions()
    return [fn, kernel["init_hash"], kernel["rehash"]]


def warm_up() -> float:
    """Compile (or load from numba's cache) the search and run it on a tiny deal, and the kernel's table
    rehash (a tiny deal never grows its table); the seconds it took."""
    t0 = time.perf_counter()
    if compiled() is not None:
        from ...deals import deal
        from ...engine import Engine
        from .pack import pack

        p = pack(Engine(deal("freecell", 1, overrides={"ranks": 3})))
        run(p.S, p.L, p.C, frame=p.frame, flags=(False, True, False, False), heuristic="suits", lifo=False,
            deadline=time.perf_counter() + 60, node_cap=-1, memory_bytes=1 << 26)  # fmt: skip
        K.functions()["rehash"](np.zeros(4, dtype=np.uint64), np.zeros(8, dtype=np.uint64))
    return time.perf_counter() - t0
