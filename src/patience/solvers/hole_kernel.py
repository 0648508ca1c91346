"""The hole search loop, written once: run compiled by numba when it is installed, as plain Python if not.

:func:`patience.solvers.dfs_hole.hole_search` builds the start state and calls :func:`run`, which runs
:func:`search` (the one loop, for one hole or several) either compiled (:func:`compiled`: ``numba.njit``
of the same function, its helpers registered with ``numba.extending.register_jitable``) or uncompiled:
the same function object called from Python on lists (one helper has a compiled twin: :func:`_home`,
the hash, whose unsigned 64-bit product numba computes natively). Both take the same moves in the same
order and return the same verdict, solution, node count, best state (and moves to it), cut and hit
counts, even the same table layout; only the speed differs (figures in benchmarks/out/hole_kernel.md).
This module imports neither numba nor numpy: :func:`compiled` loads them at the first compiled run
(about a second with the machine code cached).

The search (prunes and their proofs: :mod:`.dfs_hole`). A state is the height of every pile, the top
rank of every hole, the stock cards dealt (Golf) and a count per rank of the free cells' cards (Worm
Hole: the cells as a multiset), packed into one integer ``key`` (fixed-width bit fields) that each move
updates in O(1). A move ``mv = src * D + dst`` (:func:`search`) plays the top card of pile ``i`` (or a
cell's card) to hole ``j``, a pile's top card to a free cell, or the stock's next card onto hole 0.
Moves from a state come hole by hole; within a hole, sorted ascending and popped from the end, so the
first tried is: with one hole, a rank that keeps the walk going in the same direction (Wolter; on PySol
Black Hole deals 24, 64, 136, 53, 21, 11, 30 this cut the nodes to win from 2.09M to 1.05M, deal 136:
363k -> 5.6k), then taller piles first (a cell's card ranks as a one-card pile), then the higher pile
index. After every hole's moves come the moves to a free cell (same order), and the stock's deal last.
With no cell and no stock the kernel makes exactly the moves, nodes and table of the plain hole search.

The transposition table holds dead states only: an open-addressing hash set of keys (linear probing, at
most half full, 0 marks an empty slot: no state below the root has key 0, its hole tops are cards) that
the caller doubles from 64k slots up to the memory budget; when full at that size it is cleared. Every
key in it is a dead state (every move takes a card off the tableau or the stock for good, so the state
graph is acyclic and a state on the path is never met below itself), so clearing only costs
re-searching dead subtrees: it changes node counts, never the verdict or the solution (DFS meets the
first winning leaf in the same order whatever the table forgets).

All search state lives in arrays (``st`` holds the scalars), so the loop runs in chunks of nodes and a
chunk resumes exactly where the last one stopped: between chunks :func:`.chunked.drive` (the loop the
other kernels share) checks the deadline (numba has no clock) and Ctrl-C, and grows the table. The
compiled kernel is cached (``cache=True``): its compile (tens of seconds) is paid once per machine and
after each edit of this file; later processes load it from ``__pycache__``. The first compiled run of a
process loads it through :data:`KERNELS` (:mod:`.jit_budget`): only with the time for a load, or for a
compile when numba's cache lacks it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from ..holes import HoleRanks
from .chunked import CHUNK, COMPLETE, GROW, WON, drive  # search()'s return codes and its chunk loop
from .jit_budget import Kernels
from .jit_cache import HAVE_NUMBA  # numba installed and not switched off (the kernels import it from here)

__all__ = [
    "HAVE_NUMBA", "KERNELS", "SLOT_BYTES", "compiled", "entry_points", "fits", "run", "search", "warm_up",
]  # fmt: skip

SLOT_BYTES = 8  # one int64 per hash slot; the table is kept at most half full
_MIN_SLOTS = 1 << 16
CHUNK_COMPILED = 1 << 17  # nodes per call of the compiled kernel (~30 ms)
CHUNK_PYTHON = 2048  # nodes per call uncompiled (~10 ms): the deadline is checked between calls
# st[] fields: the loop's scalar state, kept in an array so that a chunk can resume.
# _BLEN: length of best_path, the moves to the first state with _BEST cards on the holes;
# _GEN: the moves of the state at the current depth are still to be generated; _DEALT: stock cards dealt.
_KEY, _TALL, _REMOVED, _BEST, _BLEN, _NODES, _HITS, _CUTS, _DEPTH, _SP, _NTAB, _PEAK, _GEN, _DEALT = range(14)
_NST = 14
_MUL = 0x9E3779B97F4A7C15  # 2**64 / golden ratio, odd
_M64 = (1 << 64) - 1


def _home(key, m):
    """The home slot of ``key`` in a table of ``m + 1`` slots: ``x ^ (x >> 31)`` masked by ``m``, where
    ``x = key * _MUL mod 2**64`` (a multiplicative hash in unsigned 64-bit arithmetic).

    Compiled, :func:`_home_numba` computes the same in uint64, where the product wraps (int64 overflow is
    undefined in numba); here Python's exact product is masked. Keys wider than 64 bits (uncompiled only)
    are folded first.
    """
    while key >> 64:
        key = (key & _M64) ^ (key >> 64)
    x = (key * _MUL) & _M64
    return (x ^ (x >> 31)) & m


def _home_numba(key, m):
    """numba's implementation of :func:`_home` (registered by :func:`compiled` with ``overload``)."""
    import numpy as np

    mul, s31 = np.uint64(_MUL), np.uint64(31)

    def home(key, m):
        x = np.uint64(key) * mul
        x ^= x >> s31
        return np.int64(x & np.uint64(m))

    return home


def _slot(tab, key):
    """Index of ``key`` in the table if present, else ``-1 - (the empty slot where it goes)``."""
    m = len(tab) - 1
    i = _home(key, m)
    while True:
        v = tab[i]
        if v == key:
            return i
        if v == 0:
            return -1 - i
        i = (i + 1) & m


def _rehash(old, new):
    """Insert the keys of table ``old`` into the empty, larger table ``new``."""
    for v in old:
        if v:
            new[-1 - _slot(new, v)] = v


def _push_sorted(cand, n, mvs, sp, low, D, to):
    """Sort ``cand[:n]`` ascending (priority bits above ``low``) and push each as the move
    ``(cand & low) * D + to`` at ``mvs[sp:]``; return the new stack top (insertion sort: n is small)."""
    for a in range(1, n):
        v = cand[a]
        b = a - 1
        while b >= 0 and cand[b] > v:
            cand[b + 1] = cand[b]
            b -= 1
        cand[b + 1] = v
    for a in range(n):
        mvs[sp + a] = (cand[a] & low) * D + to
    return sp + n


def _reach_ok(count, tops, F, adj, adjn, R, seen, todo, stock, dealt, S):
    """Is every rank with cards left reachable from a hole top or a stock card still to be dealt?
    (:func:`.dfs_hole.rank_reach_ok`)

    ``adj[r * R + k]`` for ``k < adjn[r]``: the ranks one step from ``r``; ``stock[dealt:S]`` the ranks
    of the stock cards left; ``seen`` (R + 1 flags) and ``todo`` (R + 2 ranks) are scratch space.
    """
    for r in range(R + 1):
        seen[r] = False
    n = 0
    for j in range(F + S - dealt):
        t = tops[j] if j < F else stock[dealt + j - F]
        if t and not seen[t]:
            seen[t] = True
            todo[n] = t
            n += 1
    while n:
        n -= 1
        r = todo[n]
        for k in range(adjn[r]):
            s = adj[r * R + k]
            if not seen[s] and count[s]:
                seen[s] = True
                todo[n] = s
                n += 1
    for r in range(1, R + 1):
        if count[r] and not seen[r]:
            return False
    return True


def _walk_ok(deg, R, wrap):
    """Is ``e[k - 1] + e[k] = deg[k]`` (k = 1..R) solvable in non-negative integers?

    The feasibility half of :func:`patience.holes.walk_steps` (tests check the two agree), with no
    allocation so that it compiles: on a path ``e[0] = e[R] = 0``; on a cycle (``wrap``) ``e[0] = e[R] =
    X`` and each ``e[k]`` is ``a[k] +- X``, bounding ``X`` from below (odd ``k``) or above (even ``k``).
    """
    if not wrap:
        e = 0
        for k in range(1, R):
            e = deg[k] - e
            if e < 0:
                return False
        return deg[R] == e
    a = 0
    lo = 0
    hi = 1 << 62  # no upper bound yet
    for k in range(1, R):
        a = deg[k] - a
        if k % 2:
            if a < hi:
                hi = a
        elif -a > lo:
            lo = -a
    a = deg[R] - a
    if R % 2:
        if a % 2:
            return False
        x = a // 2
        return lo <= x and x <= hi
    return a == 0 and lo <= hi


def _degree_ok(count, t, R, wrap, ends, base):
    """Can the remaining cards form one walk from hole top ``t``? (:func:`.dfs_hole.degree_ok`)

    ``ends[x]``: rank ``x`` may end the walk (the bottom card of a non-empty pile); ``base`` (R + 1
    ints) is scratch space.
    """
    n = 0
    for r in range(1, R + 1):
        n += count[r]
    if n == 0:
        return True
    for r in range(R + 1):
        base[r] = 2 * count[r]
    base[t] += 1
    for x in range(1, R + 1):
        if not count[x] or not ends[x]:
            continue
        base[x] -= 1
        ok = _walk_ok(base, R, wrap)
        base[x] += 1
        if ok:
            return True
    return False


def search(
    st, tab, max_slots, stop_at, piles, H, h, count, mask, bits, hbit, tops, tshift, F,
    nexts, nextn, adj, adjn, same_dir, bottom, R, P, total,
    reach, degree, wrap, last_card, one_card, equal_holes,
    cells, NC, cbit, fit, stock, S, sbit, D,
    mvs, fbase, path, olds, cidx, best_path, cand, seen, todo, base, ends,
):  # fmt: skip
    """Search until a win (WON), the end of the search space (COMPLETE), ``st[_NODES] >= stop_at``
    (CHUNK) or a table too small for the next state (GROW: the caller doubles ``tab`` and calls again).

    Arrays (lists uncompiled): ``piles[i * H + k]`` rank of the k-th card of pile ``i``, ``h`` heights,
    ``count[r]`` cards of rank ``r`` on the tableau and in the cells, ``mask[r]`` bit ``i`` set when pile
    ``i`` is topped by rank ``r``, ``bits[i] = 1 << i``, ``hbit[i]`` and ``tshift[j]``: the bit fields of
    pile ``i``'s height and hole ``j``'s top in the key, ``tops`` hole tops (0: empty), ``nexts[t * R +
    k]`` for ``k < nextn[t]`` the ranks that fit on top ``t`` (all for ``t = 0``), ``adj`` likewise for
    rank steps (reach), ``same_dir[p * (R + 1) + t]`` the rank that keeps the direction ``p -> t``,
    ``bottom[i]`` pile ``i``'s bottom rank. Free cells: ``cells[c]`` the rank in cell ``c`` (0: empty),
    ``NC`` of them, ``cbit[r]`` the key's step for a card of rank ``r`` in a cell (a count per rank: the
    cells as a multiset), ``fit[t * (R + 1) + r]`` rank ``r`` fits on top ``t``. Stock: ``stock[k]`` the
    rank of the k-th card dealt, ``S`` cards, ``st[_DEALT]`` dealt so far, ``sbit`` its key step. The
    move stack: ``mvs[fbase[d]:…]`` the moves left at depth ``d``, ``path[d]`` and ``olds[d]`` the move
    played at depth ``d`` and the hole top it covered, ``cidx[d]`` the cell a card went to; the rest is
    scratch space. A move is ``src * D + dst``: ``src`` a pile ``i < P``, cell ``P + c`` or the stock
    ``P + NC``; ``dst`` a hole ``j < F`` or ``F`` for a free cell (``D = F + 1`` with cells, else ``F``).
    Prune switches: ``reach``, ``degree`` (one hole only), ``last_card``, ``one_card``, ``equal_holes``.
    """
    key = st[_KEY]
    tall = st[_TALL]  # bit i set when pile i holds two cards or more
    removed = st[_REMOVED]
    best = st[_BEST]
    blen = st[_BLEN]
    nodes = st[_NODES]
    hits = st[_HITS]
    cuts = st[_CUTS]
    depth = st[_DEPTH]
    sp = st[_SP]
    ntab = st[_NTAB]
    peak = st[_PEAK]
    gen = st[_GEN]
    dealt = st[_DEALT]
    sb = 1  # bits of a source index (pile or cell) in a candidate move
    while (1 << sb) <= P + NC:
        sb += 1
    low = (1 << sb) - 1
    hs = sb + 8  # bit of the "keeps the direction" flag, above any height
    code = CHUNK
    while True:
        if gen:
            if 2 * (ntab + 1) > len(tab) and len(tab) < max_slots:
                code = GROW  # checked after each new state (the only time ntab grows); gen stays set
                break
            # The moves of the state at this depth, each group's best last (popped first): the stock's
            # deal is tried last, then tableau cards to a free cell, then the holes' moves hole by hole.
            gen = 0
            if dealt < S:
                mvs[sp] = (P + NC) * D
                sp += 1
            if NC:
                free = False
                for c in range(NC):
                    if cells[c] == 0:
                        free = True
                if free:
                    n = 0
                    for rr in range(1, R + 1):
                        m = mask[rr]
                        if m == 0:
                            continue
                        mt = m & tall
                        q = 0
                        while mt:
                            if mt & 1:
                                cand[n] = (h[q] << sb) | q
                                n += 1
                            mt >>= 1
                            q += 1
                        if last_card and m & tall:
                            continue  # Wolter rule 1, to a cell as to a hole
                        ms = m & ~tall
                        q = 0
                        while ms:
                            if ms & 1:
                                cand[n] = (1 << sb) | q
                                n += 1
                                if one_card:
                                    break  # Wolter rule 2
                            ms >>= 1
                            q += 1
                    sp = _push_sorted(cand, n, mvs, sp, low, D, F)
            keep = 0  # the rank that keeps the walk's direction (one hole, below the root)
            if F == 1 and depth:
                keep = same_dir[olds[depth - 1] * (R + 1) + tops[0]]
            for jj in range(F):
                t = tops[jj]
                dup = False
                if equal_holes:
                    for k in range(jj):
                        if tops[k] == t:
                            dup = True
                if dup:
                    continue  # an equal (or equally empty) hole was offered already
                n = 0
                for k in range(nextn[t]):
                    rr = nexts[t * R + k]
                    m = mask[rr]
                    if m == 0:
                        continue
                    flag = (1 << hs) if rr == keep else 0
                    mt = m & tall
                    q = 0
                    while mt:
                        if mt & 1:
                            cand[n] = flag | (h[q] << sb) | q
                            n += 1
                        mt >>= 1
                        q += 1
                    if last_card and m & tall:
                        continue  # Wolter rule 1: no last card while a taller pile offers the rank
                    ms = m & ~tall  # one-card piles
                    q = 0
                    while ms:
                        if ms & 1:
                            cand[n] = flag | (1 << sb) | q
                            n += 1
                            if one_card:
                                break  # Wolter rule 2: the first one-card pile stands for all
                        ms >>= 1
                        q += 1
                for c in range(NC):  # a cell's card, ranked as a one-card pile
                    rr = cells[c]
                    if rr == 0 or not fit[t * (R + 1) + rr]:
                        continue
                    dup = False
                    if one_card:
                        for k in range(c):
                            if cells[k] == rr:
                                dup = True
                    if not dup:
                        cand[n] = ((1 << hs) if rr == keep else 0) | (1 << sb) | (P + c)
                        n += 1
                sp = _push_sorted(cand, n, mvs, sp, low, D, jj)
        if sp == fbase[depth]:
            # No move left here: back to the parent state.
            if depth == 0:
                code = COMPLETE
                break
            depth -= 1
            mv = path[depth]
            if D == 1:
                i = mv
                j = 0
            else:
                i = mv // D
                j = mv - i * D
            if i < P:  # the card goes back on its pile
                hi = h[i]
                bit = bits[i]
                if hi:
                    mask[piles[i * H + hi - 1]] ^= bit
                    if hi == 1:
                        tall |= bit
                h[i] = hi + 1
                key += hbit[i]
            if j == F:  # it came off the pile into a cell
                c = cidx[depth]
                r = cells[c]
                cells[c] = 0
                key -= cbit[r]
                mask[r] |= bits[i]
                continue
            r = tops[j]
            old = olds[depth]
            tops[j] = old
            key += (old - r) << tshift[j]
            removed -= 1
            if i < P:
                mask[r] |= bits[i]
                count[r] += 1
            elif i < P + NC:
                cells[i - P] = r
                key += cbit[r]
                count[r] += 1
            else:
                dealt -= 1
                key -= sbit
            continue
        # Play the next move.
        sp -= 1
        mv = mvs[sp]
        if D == 1:
            i = mv
            j = 0
        else:
            i = mv // D
            j = mv - i * D
        r = 0
        if i < P:  # a pile's top card
            hi = h[i] - 1
            r = piles[i * H + hi]
            h[i] = hi
            bit = bits[i]
            mask[r] ^= bit
            if hi:
                mask[piles[i * H + hi - 1]] |= bit
                if hi == 1:
                    tall ^= bit
            key -= hbit[i]
        test = False
        if j == F:  # to the first free cell (the cells are a multiset: any free one is the same)
            c = 0
            while cells[c]:
                c += 1
            cells[c] = r
            cidx[depth] = c
            key += cbit[r]
            old = olds[depth - 1] if depth else 0  # the hole's last step, for the direction heuristic
        else:
            if i >= P + NC:  # the stock's next card
                r = stock[dealt]
                dealt += 1
                key += sbit
                test = True  # a stock card left: a rank may no longer be dealt
            else:
                if i >= P:  # a cell's card
                    r = cells[i - P]
                    cells[i - P] = 0
                    key -= cbit[r]
                count[r] -= 1
            old = tops[j]
            tops[j] = r
            removed += 1
            key += (r - old) << tshift[j]
            # A rank ran out (or the hole left one that had): the only times connectivity changes.
            test = test or count[r] == 0 or (old != 0 and count[old] == 0)
        nodes += 1
        if removed > best:
            best = removed
            best_path[:depth] = path[:depth]  # at most `total` improvements a search: cheap copies
            best_path[depth] = mv
            blen = depth + 1
            if removed == total:
                path[depth] = mv
                olds[depth] = old
                depth += 1
                code = WON
                break
        s = _slot(tab, key)
        dead = False
        if s >= 0:
            hits += 1
            dead = True
        elif (reach or degree) and test:
            if reach:
                empty = False
                for k in range(F):
                    if tops[k] == 0:
                        empty = True
                if not empty:
                    dead = not _reach_ok(count, tops, F, adj, adjn, R, seen, todo, stock, dealt, S)
            if not dead and degree and dealt == S:  # one walk only once the stock is out
                # The last card is alone when played: a pile's bottom card or, with cells, any card (one
                # can wait in a cell).
                for x in range(R + 1):
                    ends[x] = NC > 0
                for k in range(P):
                    if h[k]:
                        ends[bottom[k]] = True
                dead = not _degree_ok(count, tops[0], R, wrap, ends, base)
            if dead:
                cuts += 1
        path[depth] = mv
        olds[depth] = old
        depth += 1
        fbase[depth] = sp
        if dead:
            gen = 0  # an empty frame: the next turn of the loop undoes the move
        else:
            if 2 * (ntab + 1) > len(tab):
                # Full at the memory budget (the caller grew it up to there): forget the dead states.
                for q in range(len(tab)):
                    tab[q] = 0
                ntab = 0
                s = _slot(tab, key)
            tab[-1 - s] = key
            ntab += 1
            if ntab > peak:
                peak = ntab
            gen = 1
        if nodes >= stop_at:
            break
    st[_KEY] = key
    st[_TALL] = tall
    st[_REMOVED] = removed
    st[_BEST] = best
    st[_BLEN] = blen
    st[_NODES] = nodes
    st[_HITS] = hits
    st[_CUTS] = cuts
    st[_DEPTH] = depth
    st[_SP] = sp
    st[_NTAB] = ntab
    st[_PEAK] = peak
    st[_GEN] = gen
    st[_DEALT] = dealt
    return code


# search()'s arguments after (st, tab, max_slots, stop_at), by name.
_ARGS = search.__code__.co_varnames[4 : search.__code__.co_argcount]
_COMPILED: tuple[Callable[..., Any], Callable[..., Any]] | None = None


def compiled() -> tuple[Callable[..., Any], Callable[..., Any]] | None:
    """``(search, _rehash)`` compiled by numba (loaded from its cache after the first compile on a
    machine), or None when numba is off (:data:`HAVE_NUMBA`) or fails to import."""
    global _COMPILED
    if _COMPILED is None and HAVE_NUMBA:
        try:
            from numba import njit
            from numba.extending import overload, register_jitable
        except ImportError:  # pragma: no cover - a broken numba install
            return None
        overload(_home)(_home_numba)
        for helper in (_slot, _push_sorted, _reach_ok, _walk_ok, _degree_ok):
            register_jitable(helper)  # callable from compiled code; the Python function is unchanged
        _COMPILED = (njit(cache=True)(search), njit(cache=True)(_rehash))
    return _COMPILED


def fits(P: int, hshift_top: int, R: int, F: int = 1) -> bool:
    """Can the compiled kernel run this deal: masks in 62 bits and the packed key in 63?"""
    return P <= 62 and hshift_top + F * R.bit_length() <= 62


def run(
    piles: Sequence[Sequence[int]],
    tops: Sequence[int],
    on_holes: int,
    nexts: Sequence[Sequence[int]],
    adj: Sequence[Sequence[int]],
    hshift: Sequence[int],
    tshift: Sequence[int],
    deadline: float,
    node_cap: int,
    R: int,
    memory_bytes: float,
    *,
    reach: bool = True,
    degree: bool = True,
    wrap: bool = True,
    last_card: bool = True,
    one_card: bool = True,
    equal_holes: bool = True,
    cells: Sequence[int] = (),
    stock: Sequence[int] = (),
    cshift: int = 0,
    sshift: int = 0,
    jit: bool = True,
    chunk: int | None = None,
) -> dict:
    """Search from piles of ranks ``piles`` (bottom first) and hole tops ``tops`` (0: empty) with
    ``on_holes`` cards on the holes: compiled when ``jit`` and :func:`compiled` and :func:`fits` allow,
    else uncompiled (the same moves, nodes and answer).

    ``nexts[t]``: the ranks that fit on hole top ``t`` (``nexts[0]``: every rank), ``adj[t]`` the rank
    steps for reachability; ``hshift``/``tshift``: the key's bit field of each pile height and hole top;
    ``node_cap`` < 0: no node limit. The prune switches are those of :data:`.dfs_hole.HOLE_PRUNES`
    (``degree`` for one hole only). ``cells``: the free cells' ranks (0: empty), kept in the key from
    bit ``cshift`` as a count per rank; ``stock``: the ranks of the stock, next card first, each dealt
    onto hole 0, the number dealt kept in the key from bit ``sshift``. Returns won, complete, stop
    ("time", "nodes" or ""), path (source and destination of each move: a pile ``i < P``, a cell ``P +
    c`` or the stock ``P + NC``; a hole ``j < F`` or ``F`` for a free cell), nodes, best (cards on the
    holes at the best state), best_path (as path, to the first such state), hits, cuts, peak_bytes and
    compiled (which of the two ran).
    """
    P, F, NC, S = len(piles), len(tops), len(cells), len(stock)
    D = F + 1 if NC else F
    h = [len(p) for p in piles]
    H = max(max(h, default=1), 1)
    total = sum(h) + on_holes + S + sum(1 for c in cells if c)
    depth_max = total + 2 if not NC else 2 * total + 2  # a card may stop in a cell on its way
    count = [0] * (R + 1)
    for c in cells:
        if c:
            count[c] += 1
    mask = [0] * (R + 1)
    tall = 0
    flat = [0] * (P * H)
    for i, p in enumerate(piles):
        flat[i * H : i * H + len(p)] = p
        for r in p:
            count[r] += 1
        if p:
            mask[p[-1]] |= 1 << i
        if len(p) > 1:
            tall |= 1 << i
    nexts_a, nextn, adj_a, adjn = [0] * ((R + 1) * R), [0] * (R + 1), [0] * ((R + 1) * R), [0] * (R + 1)
    for r in range(R + 1):
        nexts_a[r * R : r * R + len(nexts[r])] = nexts[r]
        nextn[r] = len(nexts[r])
        adj_a[r * R : r * R + len(adj[r])] = adj[r]
        adjn[r] = len(adj[r])
    onward = HoleRanks(R, wrap).onward  # the move order's direction rule (one home: holes.HoleRanks)
    same = [onward(p_, t_) for p_ in range(R + 1) for t_ in range(R + 1)]
    cb = NC.bit_length()
    cbit = [0] + [1 << (cshift + (r - 1) * cb) if NC else 0 for r in range(1, R + 1)]
    fit = [0] * ((R + 1) * (R + 1))
    for t_ in range(R + 1):
        for r_ in nexts[t_]:
            fit[t_ * (R + 1) + r_] = 1
    key = sum(h[i] << hshift[i] for i in range(P)) + sum(tops[j] << tshift[j] for j in range(F))
    key += sum(cbit[c] for c in cells)
    st = [0] * _NST
    st[_KEY], st[_TALL], st[_REMOVED], st[_BEST], st[_GEN] = key, tall, on_holes, on_holes, 1
    a = dict(
        piles=flat, H=H, h=h, count=count, mask=mask, bits=[1 << i for i in range(P)],
        hbit=[1 << s for s in hshift], tops=list(tops), tshift=list(tshift), F=F, nexts=nexts_a,
        nextn=nextn, adj=adj_a, adjn=adjn, same_dir=same, bottom=[p[0] if p else 0 for p in piles], R=R,
        P=P, total=total, reach=reach, degree=degree and F == 1, wrap=wrap, last_card=last_card,
        one_card=one_card, equal_holes=equal_holes, cells=list(cells) or [0], NC=NC, cbit=cbit, fit=fit,
        stock=list(stock) or [0], S=S, sbit=1 << sshift if S else 0, D=D,
    )  # fmt: skip
    # Scratch space, zeroed: the move stack, the path, the best path and the prunes' work arrays.
    frame = F * (P + NC) + (P if NC else 0) + (1 if S else 0)  # moves from one state at most
    zeros = dict(
        mvs=depth_max * frame + frame, fbase=depth_max, path=depth_max, olds=depth_max,
        cidx=depth_max, best_path=depth_max, cand=P + NC + 1, todo=R + 2, base=R + 1,
    )  # fmt: skip
    flags = dict(seen=R + 1, ends=R + 1)
    max_slots = _MIN_SLOTS
    while max_slots * 2 * SLOT_BYTES <= memory_bytes:
        max_slots *= 2
    slots = min(_MIN_SLOTS, max_slots)
    wide = max(cshift + cb * R if NC else 0, sshift + S.bit_length() if S else 0)  # cell and stock fields
    # The kernel's first load (or compile) is work the time guard cannot cut: KERNELS decides if it fits.
    use = jit and fits(P, max(hshift, default=0), R, F) and wide <= 62
    use = use and (_WARMING or KERNELS.admits(deadline - time.perf_counter()))
    kernels = compiled() if use else None
    jit_s = 0.0  # compiling (or loading from numba's cache) the kernel, on its first compiled run here
    if kernels is not None and not _WARMING:
        jit_s = KERNELS.warm(True)
    if kernels is not None:
        import numpy as np

        step, rehash = kernels
        for name, v in a.items():  # lists become int64 arrays
            if isinstance(v, list):
                a[name] = np.array(v, dtype=np.int64)
        a.update((name, np.zeros(n, dtype=np.int64)) for name, n in zeros.items())
        a.update((name, np.zeros(n, dtype=np.bool_)) for name, n in flags.items())
        st_a, tab = np.array(st, dtype=np.int64), np.zeros(slots, dtype=np.int64)

        def grow(tab: Any) -> Any:
            new = np.zeros(2 * len(tab), dtype=np.int64)
            rehash(tab, new)
            return new

        chunk = chunk or CHUNK_COMPILED
    else:
        a.update((name, [0] * n) for name, n in zeros.items())
        a.update((name, [False] * n) for name, n in flags.items())
        step, st_a, tab = search, st, [0] * slots

        def grow(tab: Any) -> Any:
            new = [0] * (2 * len(tab))
            _rehash(tab, new)
            return new

        chunk = chunk or CHUNK_PYTHON
    args = [a[name] for name in _ARGS]
    path, best_path = a["path"], a["best_path"]

    def one_chunk(stop_at: int) -> int:
        return int(step(st_a, tab, max_slots, stop_at, *args))

    def grown() -> None:  # a GROW swaps in a doubled table
        nonlocal tab
        tab = grow(tab)

    code, stop = drive(
        one_chunk, grown, lambda: int(st_a[_NODES]), deadline=deadline, node_cap=node_cap,
        compiled=kernels is not None, chunk=chunk,
    )  # fmt: skip
    st_out = [int(x) for x in st_a]
    moves = list(path[: st_out[_DEPTH]]) if code == WON else []
    best_moves = list(best_path[: st_out[_BLEN]])
    if kernels is not None:  # numpy ints to Python ints
        moves, best_moves = [int(x) for x in moves], [int(x) for x in best_moves]
    return dict(
        won=code == WON,
        complete=code == COMPLETE,
        stop=stop,
        path=[divmod(mv, D) for mv in moves],
        nodes=st_out[_NODES],
        best=st_out[_BEST],
        best_path=[divmod(mv, D) for mv in best_moves],
        hits=st_out[_HITS],
        cuts=st_out[_CUTS],
        peak_bytes=st_out[_PEAK] * 2 * SLOT_BYTES,
        compiled=kernels is not None,
        jit_s=jit_s,
    )


_WARMING = False  # warm_up's own run must not warm up again


def entry_points() -> list[Callable[..., Any]]:
    """The compiled functions a search calls (``search`` and the table's rehash; numba's dispatchers, each
    compiled by :func:`warm_up`), or none when numba is off: what :mod:`.jit_cache` checks before a load."""
    return list(compiled() or ())


def warm_up() -> float:
    """Compile (or load from the cache) the kernel on a tiny deal, and the table's rehash (a tiny deal never
    grows its table); returns the seconds it took. Marks :data:`KERNELS` ready (later deals skip
    ``dfs_hole``'s uncompiled prelude)."""
    global _WARMING
    t0 = time.perf_counter()
    kernels = compiled()
    if kernels is not None and not _WARMING:
        _WARMING = True
        try:
            for tops, tshift in (([0], [4]), ([0, 0], [4, 6])):  # one hole, two holes: the same kernel
                run(
                    [[1, 2], [3]], tops, 0, [(1, 2, 3), (2, 3), (1, 3), (1, 2)], [(), (2, 3), (1, 3), (1, 2)],
                    [0, 2], tshift, time.perf_counter() + 60, -1, 3, 1 << 20,
                )  # fmt: skip
            import numpy as np

            kernels[1](np.zeros(4, dtype=np.int64), np.zeros(8, dtype=np.int64))
        finally:
            _WARMING = False
        KERNELS.ready = True
    return time.perf_counter() - t0


# The kernel, loaded once a process (:mod:`.jit_budget`; ``ready`` once it has: ``dfs_hole`` then skips its
# uncompiled prelude). Its compile from a cold cache took 28 s at a load of 5-6 on 2 cores
# (benchmarks/out/cold_cache_guard.md).
KERNELS = Kernels(warm_up, entry_points, compile_s=30.0, name="dfs (the hole kernel)")
