"""The hole search loops of :mod:`.dfs_hole` compiled with numba (optional: pure Python stays the fallback).

:func:`patience.solvers.dfs_hole.hole_search` calls :func:`hole_jit` when numba imports and the packed
state fits 63 bits (pile heights and hole tops: 43 bits for All in a Row, 38 for Black Hole, 59 for
Binary Star); otherwise, or with ``PATIENCE_NO_JIT=1`` in the environment, it runs its Python loops.
``_kernel`` is a line-by-line port of the one-hole loop :func:`patience.solvers.dfs_hole._single_hole`,
``_kernel_multi`` of the several-holes loop in ``hole_search``: the same moves in the same order
(Wolter's direction rule for one hole, taller piles first), the same prunes switched by the same names
(:data:`~patience.solvers.dfs_hole.HOLE_PRUNES`: last-card, one-card-pile, equal holes, rank reachability,
walk degree; proofs in :mod:`.dfs_hole`), the same node count, the same best state (and moves to it) and
the same first solution. Only the transposition table differs:

* an open-addressing hash set of 64-bit keys (linear probing, at most half full) that doubles from 64k
  slots up to the memory budget; when full at that size it is cleared. Every key in it is a dead state
  (entered states are acyclic: every move removes a card, so a state on the path is never met again
  below itself), so clearing only costs re-searching dead subtrees: it changes node counts, never the
  verdict or the solution (DFS meets the first winning leaf in the same order whatever the table skips).

numba has no clock, so the kernel runs in chunks of nodes; between chunks Python checks the deadline
(and the node limit, which the chunk end never overshoots). All state lives in arrays, so a chunk
resumes exactly where the last one stopped. Compiled with ``cache=True``: the compile (a few seconds)
is paid once per machine, later processes load it from ``__pycache__``.
"""

from __future__ import annotations

import os
import time

import numpy as np

from ..interrupt import deferred

try:  # pragma: no cover - depends on the environment
    if os.environ.get("PATIENCE_NO_JIT"):
        raise ImportError("PATIENCE_NO_JIT set")
    from numba import njit

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    HAVE_NUMBA = False

    def njit(*args, **kwargs):  # type: ignore[no-redef]
        """Stand-in so the module imports without numba (the kernel is then never called)."""

        def wrap(f):
            return f

        return wrap if not args or not callable(args[0]) else args[0]


__all__ = ["HAVE_NUMBA", "READY", "SLOT_BYTES", "hole_jit", "warm_up"]

READY = False  # True once the kernel has run in this process (compiled or loaded from the cache)

SLOT_BYTES = 8  # one int64 per hash slot; the table is kept at most half full
_MIN_SLOTS = 1 << 16
# st[] fields: the kernel's scalar state, kept in an array so a chunk can resume.
# _BLEN: length of best_path, the moves to the first state with _BEST cards on the holes.
_T, _KEY, _TALL, _REMOVED, _BEST, _NODES, _HITS, _CUTS, _DEPTH, _SP, _NTAB, _PEAK, _SLOTS, _BLEN = range(14)
_NST = 14
# Kernel return codes.
CHUNK, WON, COMPLETE = 0, 1, 2
_MUL = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def _reach_ok(count, t, adj, adjn, R, seen, todo):  # pragma: no cover - compiled
    """:func:`patience.solvers.dfs_hole.rank_reach_ok` for one hole top ``t``."""
    for r in range(R + 1):
        seen[r] = False
    n = 0
    if t:
        seen[t] = True
        todo[0] = t
        n = 1
    while n:
        n -= 1
        r = todo[n]
        for k in range(adjn[r]):
            s = adj[r, k]
            if not seen[s] and count[s]:
                seen[s] = True
                todo[n] = s
                n += 1
    for r in range(1, R + 1):
        if count[r] and not seen[r]:
            return False
    return True


@njit(cache=True)
def _walk_ok(deg, R, wrap):  # pragma: no cover - compiled
    """:func:`patience.solvers.dfs_hole._walk_edges_ok`."""
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


@njit(cache=True)
def _degree_ok(count, t, R, wrap, ends, base):  # pragma: no cover - compiled
    """:func:`patience.solvers.dfs_hole.degree_ok` with ``ends[x]`` true for the bottom ranks."""
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


@njit(cache=True)
def _slot(tab, key):  # pragma: no cover - compiled
    """Index of ``key`` in the table if present, else ``-1 - (the empty slot where it goes)``."""
    size = tab.shape[0]
    m = size - 1
    x = np.uint64(key) * _MUL  # multiplicative hash, high bits folded down
    x ^= x >> np.uint64(31)
    i = np.int64(x & np.uint64(m))
    while True:
        v = tab[i]
        if v == key:
            return i
        if v == 0:
            return -1 - i
        i = (i + 1) & m


@njit(cache=True)
def _grow(tab):  # pragma: no cover - compiled
    new = np.zeros(tab.shape[0] * 2, dtype=np.int64)
    for v in tab:
        if v:
            new[-1 - _slot(new, v)] = v
    return new


@njit(cache=True)
def _save_best(best_path, path, depth, mv):  # pragma: no cover - compiled
    """Copy the path to a new best state (path[:depth] then ``mv``) into ``best_path``; its length."""
    best_path[:depth] = path[:depth]  # at most total improvements per search: the copies are cheap
    best_path[depth] = mv
    return depth + 1


@njit(cache=True)
def _kernel(
    st, tab, max_slots, stop_at, piles, h, count, mask, bits, hbit, tsh, bottom,
    nexts, nextn, adj, adjn, same_dir, reach, degree, wrap, R, total, P,
    mvs, fbase, path, olds, cand, seen, todo, base, ends, best_path, last_card, one_card,
):  # fmt: skip  # pragma: no cover - compiled
    """Run the search until a win, the end of the search space, or ``st[_NODES] >= stop_at``."""
    t = st[_T]
    key = st[_KEY]
    tall = st[_TALL]
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
    sb = 1
    while (1 << sb) <= P:
        sb += 1
    low = (1 << sb) - 1
    hs = sb + 8
    code = CHUNK
    while True:
        if sp == fbase[depth]:
            if depth == 0:
                code = COMPLETE
                break
            depth -= 1
            i = path[depth]
            r = t
            t = olds[depth]
            hi = h[i]
            bit = bits[i]
            if hi:
                mask[piles[i, hi - 1]] ^= bit
                if hi == 1:
                    tall |= bit
            mask[r] |= bit
            h[i] = hi + 1
            count[r] += 1
            removed -= 1
            key += hbit[i] + ((t - r) << tsh)
            continue
        sp -= 1
        i = mvs[sp]
        hi = h[i] - 1
        r = piles[i, hi]
        old = t
        bit = bits[i]
        mask[r] ^= bit
        if hi:
            mask[piles[i, hi - 1]] |= bit
            if hi == 1:
                tall ^= bit
        h[i] = hi
        t = r
        count[r] -= 1
        removed += 1
        key += ((r - old) << tsh) - hbit[i]
        nodes += 1
        if removed > best:
            best = removed
            blen = _save_best(best_path, path, depth, i)
            if removed == total:
                path[depth] = i
                olds[depth] = old
                depth += 1
                code = WON
                break
        s = _slot(tab, key)
        dead = False
        if s >= 0:
            hits += 1
            dead = True
        elif (reach or degree) and (count[r] == 0 or (old != 0 and count[old] == 0)):
            if reach:
                dead = not _reach_ok(count, r, adj, adjn, R, seen, todo)
            if not dead and degree:
                for x in range(R + 1):
                    ends[x] = False
                for k in range(P):
                    if h[k]:
                        ends[bottom[k]] = True
                dead = not _degree_ok(count, r, R, wrap, ends, base)
            if dead:
                cuts += 1
        if dead:
            t = old
            h[i] = hi + 1
            if hi:
                mask[piles[i, hi - 1]] ^= bit
                if hi == 1:
                    tall |= bit
            mask[r] |= bit
            count[r] += 1
            removed -= 1
            key += hbit[i] + ((old - r) << tsh)
        else:
            if 2 * (ntab + 1) > tab.shape[0]:
                if tab.shape[0] < max_slots:
                    tab = _grow(tab)
                else:
                    tab[:] = 0  # full at the memory budget: forget the dead states (sound, see module doc)
                    ntab = 0
                s = _slot(tab, key)
            tab[-1 - s] = key
            ntab += 1
            if ntab > peak:
                peak = ntab
            path[depth] = i
            olds[depth] = old
            depth += 1
            fbase[depth] = sp
            # Moves from the new state, best last (popped first); see dfs_hole._single_hole.gen.
            keep = same_dir[old, t]
            n = 0
            for k in range(nextn[t]):
                rr = nexts[t, k]
                m = mask[rr]
                if m == 0:
                    continue
                flag = (1 << hs) if rr == keep else 0
                mt = m & tall
                for j in range(P):
                    if (mt >> j) & 1:
                        cand[n] = flag | (h[j] << sb) | j
                        n += 1
                if last_card and mt:
                    continue  # Wolter rule 1
                ms = m & ~tall  # one-card piles
                for j in range(P):
                    if (ms >> j) & 1:
                        cand[n] = flag | (1 << sb) | j
                        n += 1
                        if one_card:
                            break  # Wolter rule 2
            for a in range(1, n):  # insertion sort, ascending
                v = cand[a]
                b = a - 1
                while b >= 0 and cand[b] > v:
                    cand[b + 1] = cand[b]
                    b -= 1
                cand[b + 1] = v
            for a in range(n):
                mvs[sp + a] = cand[a] & low
            sp += n
        if nodes >= stop_at:
            break
    st[_T] = t
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
    st[_SLOTS] = tab.shape[0]
    return code, tab


@njit(cache=True)
def _reach_tops(count, tops, F, adj, adjn, R, seen, todo):  # pragma: no cover - compiled
    """:func:`patience.solvers.dfs_hole.rank_reach_ok` for several hole tops."""
    for r in range(R + 1):
        seen[r] = False
    n = 0
    for j in range(F):
        t = tops[j]
        if t and not seen[t]:
            seen[t] = True
            todo[n] = t
            n += 1
    while n:
        n -= 1
        r = todo[n]
        for k in range(adjn[r]):
            s = adj[r, k]
            if not seen[s] and count[s]:
                seen[s] = True
                todo[n] = s
                n += 1
    for r in range(1, R + 1):
        if count[r] and not seen[r]:
            return False
    return True


@njit(cache=True)
def _kernel_multi(
    st, tab, max_slots, stop_at, piles, h, count, mask, bits, hbit, tops, tshift, F,
    nexts, nextn, adj, adjn, reach, R, total, P, mvs, fbase, path, olds, cand, seen, todo, best_path,
    last_card, one_card, equal_holes,
):  # fmt: skip  # pragma: no cover - compiled
    """The several-holes loop of :func:`patience.solvers.dfs_hole.hole_search`; moves are ``i * F + j``."""
    key = st[_KEY]
    tall = st[_TALL]
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
    sb = 1
    while (1 << sb) <= P:
        sb += 1
    low = (1 << sb) - 1
    code = CHUNK
    while True:
        if sp == fbase[depth]:
            if depth == 0:
                code = COMPLETE
                break
            depth -= 1
            mv = path[depth]
            i = mv // F
            j = mv - i * F
            r = tops[j]
            old = olds[depth]
            tops[j] = old
            hi = h[i]
            bit = bits[i]
            if hi:
                mask[piles[i, hi - 1]] ^= bit
                if hi == 1:
                    tall |= bit
            mask[r] |= bit
            h[i] = hi + 1
            count[r] += 1
            removed -= 1
            key += hbit[i] + ((old - r) << tshift[j])
            continue
        sp -= 1
        mv = mvs[sp]
        i = mv // F
        j = mv - i * F
        hi = h[i] - 1
        r = piles[i, hi]
        old = tops[j]
        h[i] = hi
        tops[j] = r
        bit = bits[i]
        mask[r] ^= bit
        if hi:
            mask[piles[i, hi - 1]] |= bit
            if hi == 1:
                tall ^= bit
        count[r] -= 1
        removed += 1
        key += ((r - old) << tshift[j]) - hbit[i]
        nodes += 1
        if removed > best:
            best = removed
            blen = _save_best(best_path, path, depth, mv)
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
        elif reach and (count[r] == 0 or (old != 0 and count[old] == 0)):
            empty = False
            for k in range(F):
                if tops[k] == 0:
                    empty = True
            if not empty and not _reach_tops(count, tops, F, adj, adjn, R, seen, todo):
                cuts += 1
                dead = True
        if dead:
            tops[j] = old
            h[i] = hi + 1
            if hi:
                mask[piles[i, hi - 1]] ^= bit
                if hi == 1:
                    tall |= bit
            mask[r] |= bit
            count[r] += 1
            removed -= 1
            key += hbit[i] + ((old - r) << tshift[j])
        else:
            if 2 * (ntab + 1) > tab.shape[0]:
                if tab.shape[0] < max_slots:
                    tab = _grow(tab)
                else:
                    tab[:] = 0
                    ntab = 0
                s = _slot(tab, key)
            tab[-1 - s] = key
            ntab += 1
            if ntab > peak:
                peak = ntab
            path[depth] = mv
            olds[depth] = old
            depth += 1
            fbase[depth] = sp
            # Moves from the new state as dfs_hole.hole_search's gen(): hole by hole, each taller last.
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
                    m = mask[nexts[t, k]]
                    if m == 0:
                        continue
                    mt = m & tall
                    for q in range(P):
                        if (mt >> q) & 1:
                            cand[n] = (h[q] << sb) | q
                            n += 1
                    if last_card and mt:
                        continue  # Wolter rule 1
                    ms = m & ~tall  # one-card piles
                    for q in range(P):
                        if (ms >> q) & 1:
                            cand[n] = (1 << sb) | q
                            n += 1
                            if one_card:
                                break  # Wolter rule 2
                for a in range(1, n):
                    v = cand[a]
                    b = a - 1
                    while b >= 0 and cand[b] > v:
                        cand[b + 1] = cand[b]
                        b -= 1
                    cand[b + 1] = v
                for a in range(n):
                    mvs[sp + a] = (cand[a] & low) * F + jj
                sp += n
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
    st[_SLOTS] = tab.shape[0]
    return code, tab


def _root_moves(tops, mask, tall, h, nexts, P, last_card=True, one_card=True, equal_holes=True):
    """The root's move list as dfs_hole orders it (no direction at the root); ``i * F + j``, best last."""
    sb = max(P.bit_length(), 1)
    low = (1 << sb) - 1
    F = len(tops)
    out = []
    for j, t in enumerate(tops):
        if equal_holes and t in tops[:j]:
            continue
        cand = []
        for r in nexts[t]:
            m = int(mask[r])
            if m:
                mt = m & tall
                cand += [(h[q] << sb) | q for q in range(P) if (mt >> q) & 1]
                if last_card and mt:
                    continue
                short = [(1 << sb) | q for q in range(P) if ((m & ~tall) >> q) & 1]
                cand += short[:1] if one_card else short
        out += [(v & low) * F + j for v in sorted(cand)]
    return out


def fits(P: int, hshift_top: int, R: int, F: int = 1) -> bool:
    """Can the kernel run this deal: masks in 62 bits and the packed key in 63?"""
    return P <= 62 and hshift_top + F * R.bit_length() <= 62


def hole_jit(
    piles: list[list[int]],
    h: list[int],
    tops: list[int],
    count: list[int],
    tall: int,
    nexts: list[tuple[int, ...]],
    adj: list[tuple[int, ...]],
    key: int,
    hshift: list[int],
    tshift: list[int],
    deadline: float,
    node_cap: int,
    reach: bool,
    degree: bool,
    wrap: bool,
    R: int,
    total: int,
    removed: int,
    memory_bytes: float,
    chunk: int = 1 << 17,
    last_card: bool = True,
    one_card: bool = True,
    equal_holes: bool = True,
) -> dict:
    """Search with the kernel (one hole, or several); returns won, complete, stop, path (pile and hole
    of each move), nodes, best, best_path (as path, to the first state with best cards on the holes),
    hits, cuts, peak_bytes. ``degree`` applies to one hole only; ``reach``, ``degree``, ``last_card``,
    ``one_card`` and ``equal_holes`` switch the prunes of :data:`patience.solvers.dfs_hole.HOLE_PRUNES`."""
    P = len(piles)
    F = len(tops)
    H = max((len(p) for p in piles), default=1) or 1
    pa = np.zeros((P, H), dtype=np.int64)
    for i, p in enumerate(piles):
        pa[i, : len(p)] = p
    ha = np.array(h, dtype=np.int64)
    ca = np.array(count, dtype=np.int64)
    ma = np.zeros(R + 1, dtype=np.int64)
    for i in range(P):
        if h[i]:
            ma[piles[i][h[i] - 1]] |= 1 << i
    bits = np.array([1 << i for i in range(P)], dtype=np.int64)
    hbit = np.array([1 << s for s in hshift], dtype=np.int64)
    bottom = np.array([p[0] if p else 0 for p in piles], dtype=np.int64)
    na = np.zeros((R + 1, R), dtype=np.int64)
    nn = np.zeros(R + 1, dtype=np.int64)
    aa = np.zeros((R + 1, max(max((len(a) for a in adj), default=1), 1)), dtype=np.int64)
    an = np.zeros(R + 1, dtype=np.int64)
    for r in range(R + 1):
        na[r, : len(nexts[r])] = nexts[r]
        nn[r] = len(nexts[r])
        aa[r, : len(adj[r])] = adj[r]
        an[r] = len(adj[r])
    same = np.zeros((R + 1, R + 1), dtype=np.int64)
    for p_ in range(1, R + 1):
        for t_ in range(1, R + 1):
            step = (t_ - p_) % R
            if step == 1:
                same[p_, t_] = t_ % R + 1
            elif step == R - 1:
                same[p_, t_] = (t_ - 2) % R + 1
    depth_max = total + 2
    mvs = np.zeros(depth_max * P * F + P * F, dtype=np.int64)
    fbase = np.zeros(depth_max, dtype=np.int64)
    path = np.zeros(depth_max, dtype=np.int64)
    olds = np.zeros(depth_max, dtype=np.int64)
    best_path = np.zeros(depth_max, dtype=np.int64)
    cand = np.zeros(P + 1, dtype=np.int64)
    seen = np.zeros(R + 1, dtype=np.bool_)
    todo = np.zeros(R + 2, dtype=np.int64)
    base = np.zeros(R + 1, dtype=np.int64)
    ends = np.zeros(R + 1, dtype=np.bool_)
    ta = np.array(tops, dtype=np.int64)
    tsa = np.array(tshift, dtype=np.int64)
    max_slots = _MIN_SLOTS
    while max_slots * 2 * SLOT_BYTES <= memory_bytes:
        max_slots *= 2
    tab = np.zeros(min(_MIN_SLOTS, max_slots), dtype=np.int64)
    root = _root_moves(list(tops), ma, tall, h, nexts, P, last_card, one_card, equal_holes)
    mvs[: len(root)] = root
    st = np.zeros(_NST, dtype=np.int64)
    st[_T], st[_KEY], st[_TALL], st[_REMOVED], st[_BEST] = tops[0], key, tall, removed, removed
    st[_SP] = len(root)
    stop = ""
    code = CHUNK
    while True:
        stop_at = st[_NODES] + chunk
        if node_cap >= 0:
            stop_at = min(stop_at, node_cap)
        with deferred():  # Ctrl-C inside a chunk: KeyboardInterrupt after it, not numba's SystemError
            if F == 1:
                code, tab = _kernel(
                    st, tab, max_slots, stop_at, pa, ha, ca, ma, bits, hbit, tshift[0], bottom,
                    na, nn, aa, an, same, reach, degree, wrap, R, total, P,
                    mvs, fbase, path, olds, cand, seen, todo, base, ends, best_path, last_card, one_card,
                )  # fmt: skip
            else:
                code, tab = _kernel_multi(
                    st, tab, max_slots, stop_at, pa, ha, ca, ma, bits, hbit, ta, tsa, F,
                    na, nn, aa, an, reach, R, total, P, mvs, fbase, path, olds, cand, seen, todo, best_path,
                    last_card, one_card, equal_holes,
                )  # fmt: skip
        if code != CHUNK:
            break
        if node_cap >= 0 and st[_NODES] >= node_cap:
            stop = "nodes"
            break
        if time.perf_counter() >= deadline:
            stop = "time"
            break
    global READY
    READY = True
    moves = [int(x) for x in path[: st[_DEPTH]]] if code == WON else []
    best_moves = [int(x) for x in best_path[: st[_BLEN]]]
    return dict(
        won=code == WON,
        complete=code == COMPLETE,
        stop=stop,
        path=[divmod(mv, F) for mv in moves] if F > 1 else [(mv, 0) for mv in moves],
        nodes=int(st[_NODES]),
        best=int(st[_BEST]),
        best_path=[divmod(mv, F) for mv in best_moves] if F > 1 else [(mv, 0) for mv in best_moves],
        hits=int(st[_HITS]),
        cuts=int(st[_CUTS]),
        peak_bytes=int(st[_PEAK]) * 2 * SLOT_BYTES,
    )


def warm_up() -> float:
    """Compile (or load from the cache) the kernel on a tiny deal; returns the seconds it took."""
    t0 = time.perf_counter()
    if HAVE_NUMBA:
        for tops, tshift in (([0], [4]), ([0, 0], [4, 6])):  # one hole, two holes
            hole_jit(
                [[1, 2], [3]], [2, 1], tops, [0, 1, 1, 1], 1, [(1, 2, 3), (2, 3), (1, 3), (1, 2)],
                [(), (2, 3), (1, 3), (1, 2)], 2 + (1 << 2), [0, 2], tshift, time.perf_counter() + 60, -1,
                True, True, True, 3, 3, 0, 1 << 20,
            )  # fmt: skip
    return time.perf_counter() - t0
