"""Shortening a won line by its shortcuts: the fewest moves from the start to the end of the line when, from
each of its states, any legal move may jump to a later state of the line.

A depth-first win is the search's path, not a good line: ``dfs-jit`` wins of a million moves happen
(Stronghold 2: 1,410,448), and their JSON and the validator's replay then cost more than the search. The
line's states are all distinct (the search rejects states on its path), so a table maps each state's 128-bit
key to its index in the line. Walking the line backwards, every legal move of state ``i`` is tried; the one
that reaches a line state ``j > i`` with the fewest moves left after ``j`` (``dist``) is kept, with
``dist[i] = 1 + dist[j]`` (the line's own next move is one choice): a shortest path over the forward
shortcuts, exact for them (not over every route the rules allow). Then a forward walk plays the kept moves.
When that pass would take more than ``max_work`` moves applied (projected from its first states: a line of a
million moves, whose pass took 9 s on Stronghold 2), a cheaper greedy pass runs instead: from the current
state, the move to the furthest later line state (Stronghold 2: 1.8 s, 4789 moves; the shortest pass: 767);
past the budget again, the line is kept.
Measured on paths of Wolter's move order (commit c9693b3's message): FreeCell 1, 32,036 moves -> 308 (greedy:
820); Stronghold 3, 10,949 -> 200 (greedy 510); on today's default order: benchmarks/out/bench_shorten.md.

**Why it stays a legal win.** The kernel's key is :meth:`Engine.key`: the tableau piles as a multiset (their
order is kept only while a stock still deals onto them), the free cells as a multiset, everything else by
position. A state reached by a shortcut therefore equals the line's state ``j`` up to a renaming of piles and
cells; :func:`_match` finds that renaming by content (it fails, and the original line is kept, if the key
collided), and later moves chosen on the line's states are played through it (:func:`_translate`). A renamed
move is legal where the original was: the rules never depend on a pile's or cell's index except through that
order, which the key keeps. The result is not trusted on that argument alone: the backend's answer is
replayed by the independent validator like any other.

It runs on the packed state of :func:`.pack.pack` with card hash ids (never the colour streamliner's) and the
stock turned card by card (``stock_access`` off), so the line is the engine's real moves.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ...engine import Engine, Move
from . import kernel as K
from .extend import jit_on_kernel
from .kernel import (
    _H,
    _NC,
    _OCELL,
    _ODOWN,
    _OHGT,
    _OPILE,
    _P,
    ALL_PILES,
    CEL,
    TAB,
    _apply,
    _gen,
    _hid,
    _key,
    _slot,
    _store,
    _undo,
)

__all__ = ["MAX_WORK_COMPILED", "MAX_WORK_PYTHON", "compiled", "entry_points", "shorten", "warm_up"]

MAX_WORK_COMPILED = 2_000_000  # moves applied, per pass (compiled: 0.3-1 µs each, load 0-4)
MAX_WORK_PYTHON = 20_000  # uncompiled: a few seconds
FAILED, OVER_BUDGET = -1, -2


def _same_pile(S, T, L, C, q, k):
    """Does pile ``q`` of ``S`` hold what pile ``k`` of ``T`` holds (the same cards by hash id, face down as
    many)?"""
    h = T[L[_OHGT] + k]
    if S[L[_OHGT] + q] != h or S[L[_ODOWN] + q] != T[L[_ODOWN] + k]:
        return False
    a, b = L[_OPILE] + q * L[_H], L[_OPILE] + k * L[_H]
    for x in range(h):
        if _hid(L, C, S[a + x]) != _hid(L, C, T[b + x]):
            return False
    return True


def _match(S, T, L, C, pt, pc, used):
    """Fill ``pt`` (pile ``k`` of ``T`` is pile ``pt[k]`` of ``S``) and ``pc`` (the same for cells); False
    when the states differ by more than that renaming (a key collision)."""
    P, NC = L[_P], L[_NC]
    for q in range(P):
        used[q] = 0
    for k in range(P):
        found = -1
        for q in range(P):
            if not used[q] and _same_pile(S, T, L, C, q, k):
                found = q
                break
        if found < 0:
            return False
        used[found] = 1
        pt[k] = found
    for q in range(NC):
        used[q] = 0
    for k in range(NC):
        t = T[L[_OCELL] + k]
        found = -1
        for q in range(NC):
            s = S[L[_OCELL] + q]
            if not used[q] and (s == t or (s >= 0 and t >= 0 and _hid(L, C, s) == _hid(L, C, t))):
                found = q
                break
        if found < 0:
            return False
        used[found] = 1
        pc[k] = found
    return True


def _translate(m, pt, pc):
    """Move ``m`` of the line with its piles and cells renamed (``pt``, ``pc``); other areas keep indices."""
    src, dst = m & 7, (m >> 3) & 7
    si, di = (m >> 6) & 0xFFFF, (m >> 22) & 0xFFFF
    if src == TAB:
        si = pt[si]
    elif src == CEL:
        si = pc[si]
    if dst == TAB and di != ALL_PILES:
        di = pt[di]
    elif dst == CEL:
        di = pc[di]
    return (m & ~((0xFFFF << 6) | (0xFFFF << 22))) | (si << 6) | (di << 22)


def search(
    S, T, L, C, HS, HT, Z, line, n, tab, vals, out, buf, pt, pc, used, max_work, dp, dist, cj, cm, flips
):
    """Shorten ``line[:n]`` from state ``S`` (``T``: a copy of it, ``HS``/``HT`` their hashes) into ``out``;
    its length, or ``FAILED`` (a key collision) or ``OVER_BUDGET``. ``tab``/``vals``: an empty key table
    of at least twice ``n + 1`` slots and its values. ``dp``: the fewest moves over the line's shortcuts
    (``dist``, ``cj``, ``cm``, ``flips``: arrays of ``n + 1``), else the greedy furthest shortcut."""
    # Index every state of the line by its key (its last index, if a state recurs): T walks the line.
    work = n
    if work > max_work:
        return OVER_BUDGET
    for i in range(n + 1):
        if i:
            flips[i - 1] = _apply(T, L, C, HT, Z, line[i - 1])
        ka = _key(L, HT, 0) | np.uint64(1)
        kb = _key(L, HT, 1)
        s = _slot(tab, ka, kb)
        if s < 0:
            s = -1 - s
            _store(tab, s, ka, kb)
        vals[s] = i
    if dp:
        # T walks the line back; from each state i, the move to the later line state j with the fewest
        # moves left (dist) after it: a shortest path over the line's forward shortcuts.
        dist[n] = 0
        probe = min(n, max(1024, n >> 6))  # after this many states, project the whole pass's work
        for i in range(n - 1, -1, -1):
            _undo(T, L, C, HT, Z, line[i], flips[i])
            cnt = _gen(T, L, C, buf, 0)
            work += cnt + 1
            if work > max_work or (n - i == probe and n + (work - n) * n // probe > max_work):
                return OVER_BUDGET
            bd, bj, bm = dist[i + 1] + 1, i + 1, line[i]
            for x in range(cnt):
                m = buf[x]
                flip = _apply(T, L, C, HT, Z, m)
                s = _slot(tab, _key(L, HT, 0) | np.uint64(1), _key(L, HT, 1))
                if s >= 0 and vals[s] > i + 1 and dist[vals[s]] + 1 < bd:
                    bd, bj, bm = dist[vals[s]] + 1, vals[s], m
                _undo(T, L, C, HT, Z, m, flip)
            dist[i], cj[i], cm[i] = bd, bj, bm
    else:
        # T starts over from the start state (S, untouched so far).
        for q in range(len(S)):
            T[q] = S[q]
        for q in range(len(HS)):
            HT[q] = HS[q]
    # The walk: S plays the chosen moves, T follows the line to the state S is at (up to pt, pc).
    for k in range(L[_P]):
        pt[k] = k
    for k in range(L[_NC]):
        pc[k] = k
    i = 0
    o = 0
    while i < n:
        if dp:
            best = cj[i]
            bm = _translate(cm[i], pt, pc)
        else:
            cnt = _gen(S, L, C, buf, 0)
            work += cnt
            if work > max_work:
                return OVER_BUDGET
            best = i + 1
            bm = -1
            for x in range(cnt):
                m = buf[x]
                flip = _apply(S, L, C, HS, Z, m)
                s = _slot(tab, _key(L, HS, 0) | np.uint64(1), _key(L, HS, 1))
                if s >= 0 and vals[s] > best:
                    best = vals[s]
                    bm = m
                _undo(S, L, C, HS, Z, m, flip)
            if bm < 0:
                bm = _translate(line[i], pt, pc)
        _apply(S, L, C, HS, Z, bm)
        out[o] = bm
        o += 1
        while i < best:
            _apply(T, L, C, HT, Z, line[i])
            i += 1
        if not _match(S, T, L, C, pt, pc, used):
            return FAILED
    return o


_HELPERS = (_same_pile, _match, _translate)


@functools.cache
def compiled() -> Callable[..., Any] | None:
    """:func:`search` compiled by numba (once a process), or None when numba is off."""
    return jit_on_kernel(search, _HELPERS, __file__, _nrt=False)


def shorten(
    engine: Engine, moves: Sequence[Move], jit: bool = True, max_work: int | None = None
) -> list[Move]:
    """``moves``, a line of legal moves from ``engine``'s current state (left as it was), shortened: legal
    moves to a state of the same key, never more (module docstring); the line itself when shortening fails
    or would take more than ``max_work`` moves applied (default: :data:`MAX_WORK_COMPILED`, plus twice the
    line for the greedy pass, or :data:`MAX_WORK_PYTHON` uncompiled)."""
    from .pack import from_move, pack, to_move

    n = len(moves)
    if n < 2:
        return list(moves)
    fn = compiled() if jit else None
    line = np.array([from_move(m) for m in moves], dtype=np.int64)
    p = pack(engine, stock_access=False, jit=fn is not None)
    # Compiled, the default budget of the greedy pass is for the moves it tries: its index pass and its walk
    # apply the line once each besides (cheap: Stronghold 2's 1.4M-move path took 1.8 s in all).
    extra = 2 * n if fn and max_work is None else 0
    if max_work is None:
        max_work = MAX_WORK_COMPILED if fn else MAX_WORK_PYTHON
    for dp in (True, False):  # the shortest over the shortcuts, else (over the budget) the greedy walk
        got = _run(fn or search, p, line, n, max_work if dp else max_work + extra, dp)
        if got is not None:
            return [to_move(m) for m in got]
    return list(moves)


def _run(fn: Callable[..., Any], p: Any, line: np.ndarray, n: int, max_work: int, dp: bool) -> Any:
    """One run of :func:`search` on fresh arrays from the packed start state ``p``: the moves, or None."""
    S, L, C = p.S.copy(), p.L, p.C
    T = S.copy()
    HS = np.zeros(2 * (2 * int(L[K._P]) + 5), dtype=np.uint64)
    with np.errstate(over="ignore"):
        K.functions(fn is not search)["init_hash"](S, L, C, HS, K.SEEDS)
    HT = HS.copy()
    slots = 1 << max(4, (2 * (n + 1) - 1).bit_length())
    tab, vals = np.zeros(2 * slots, dtype=np.uint64), np.zeros(slots, dtype=np.int64)
    out = np.zeros(n, dtype=np.int64)
    buf = np.zeros(p.frame + 1, dtype=np.int64)
    size = max(int(L[K._P]), int(L[K._NC]), 1)
    pt, pc, used = (np.zeros(size, dtype=np.int64) for _ in range(3))
    dist, cj, cm, flips = (np.zeros(n + 1, dtype=np.int64) for _ in range(4))
    with np.errstate(over="ignore"):
        got = fn(S, T, L, C, HS, HT, K.SEEDS, line, n, tab, vals, out, buf, pt, pc, used, max_work, dp, dist,
                 cj, cm, flips)  # fmt: skip
    return out[:got] if got >= 0 else None


def entry_points() -> list[Callable[..., Any]]:
    """The compiled function (numba's dispatcher, compiled by :func:`warm_up`), or none when numba is off:
    what :mod:`..jit_cache` checks before a load."""
    fn = compiled()
    return [] if fn is None else [fn]


def warm_up() -> float:
    """Compile (or load from numba's cache) :func:`search` and run it on a tiny line; the seconds it took."""
    import time

    t0 = time.perf_counter()
    if compiled() is not None:
        from ...deals import deal

        e = Engine(deal("freecell", 1, overrides={"ranks": 2}))
        shorten(e, _some_line(e))
    return time.perf_counter() - t0


def _some_line(engine: Engine) -> list[Move]:
    """A short line of legal moves from ``engine``'s state (left as it was): the warm-up's input."""
    line: list[Move] = []
    for _ in range(4):
        legal = engine.legal_moves()
        if not legal:
            break
        engine.apply(legal[0])
        line.append(legal[0])
    for _ in line:
        engine.undo()
    return line
