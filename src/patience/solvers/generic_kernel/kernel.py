"""The generic search kernel, written once: compiled by numba when it is installed, plain Python if not.

Every function here works on the packed arrays of :mod:`.pack` and mirrors one piece of the engine:

* ``_gen`` is :meth:`patience.engine.moves.LegalMoves.legal_moves` for the rule features of
  :func:`patience.solvers.generic_kernel.unsupported_features`, move for move and **in the same order** (each
  card's build targets are listed in the order the engine's ``build_targets`` set yields them);
* ``_apply`` / ``_undo`` are :meth:`Engine.apply` / :meth:`Engine.undo` (a face-down card turned up is the
  ``flip`` returned by ``_apply``);
* ``_key`` is :meth:`Engine.key` (or, with colour hash ids, the streamliner's ``Pruner.colour_key``) as a
  128-bit hash, two independent 64-bit lanes kept up to date move by move: a pile hashes its cards by position
  (a Zobrist-style XOR of mixed (position, card) words, plus its face-down count), the piles are summed as a
  multiset (Engine.key sorts them), the free cells are summed as a multiset, the foundations are XORed by
  index (top card and height, as the key lists them), the reserve by position. Equal engine keys give equal
  kernel keys by construction; unequal ones collide with probability about 2**-128 per pair (a table of n
  states: n * 2**-128 per lookup), which is what a complete search's UNSOLVABLE rests on besides the proven
  prunes.
* ``search`` is :func:`patience.solvers.dfs.search`: the same children (streamliners when asked, then the
  proven dominances ``safe_deal``, ``safe_home`` (its receivers packed from ``Dominances.receivers``, the
  closure test under worrying back included, and ``alt_receivers``, the closure as a second way to pass
  without it), ``partial_pile`` and ``no_return`` of
  :mod:`patience.solvers.dominance` with the switches the caller derives from ``Dominances(engine,
  names).on``, then the move order of ``Pruner.score``, stable,
  best popped first), the same path/dead-state rejection, so with a table that never fills it visits the same
  nodes in the same order as ``dfs`` (tests compare node counts).

With ``L[_KPLUS]`` (a waste stock with unlimited redeals, :mod:`patience.solvers.stock_access`) the stock is
searched as :class:`~patience.solvers.stock_access.StockAccess` does: ``_gen`` lists the waste plays of every
reachable position ``p`` as ``(WST, p, ...)`` instead of the turns and the redeal, ``_apply`` turns to ``p``
first (its "flip" is the waste's size before, for ``_undo``), the stock part of the key is the sequence and,
outside the turns' cycle, the split, and ``run`` expands a win's plays into the real turns.

The transposition table is an open-addressing set of 128-bit keys (two uint64 per slot, linear probing, at
most half full, slot 0-marker: the first lane's low bit is forced to 1). It holds the states on the path and
the dead ones alike (both are rejected, as ``dfs`` rejects ``path_keys`` and its dead table); the caller
doubles it up to the memory budget, and when it is full at that size it is cleared and the path's keys put
back: forgetting dead states only costs re-searching them, never a verdict (the path is kept, so a cycle of
moves cannot loop).

All state lives in arrays (``st`` holds the loop's scalars), so the loop runs in chunks of nodes and resumes
exactly: between chunks Python checks the clock and Ctrl-C and grows the arrays. The compiled functions are
cached (``cache=True``); the first compile on a machine takes tens of seconds (``warm_up`` reports it).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ..chunked import CHUNK, COMPLETE, GROW, MEMORY, MIN_SLOTS, SLOT_BYTES, WON, drive, grown, table_slots
from ..hole_kernel import HAVE_NUMBA  # numba installed and not switched off: one check for both kernels

__all__ = ["HAVE_NUMBA", "compiled", "entry_points", "run", "warm_up"]

# Areas, as patience.engine.areas numbers them.
TAB, FND, CEL, RES, STK, WST = 0, 1, 2, 3, 4, 5
# L[] fields: sizes, rule features and the offsets of the regions of S (state) and C (constants).
(
    _P, _H, _NC, _NR, _F, _FH, _N, _R, _NCARDS, _NSUITS,
    _BUILD, _UPDOWN, _BWRAP, _WBASE, _BASE, _GROUP, _EMPTY, _FWRAP, _REMOV, _RSTACK,
    _OPILE, _OHGT, _ODOWN, _OCELL, _ORES, _ORLEN, _OFND, _OFLEN, _OTOPM, _ONFND,
    _ORANK, _OSUIT, _OCOL, _OBTS, _OBTL, _OHID, _ORCS, _ORCL, _OFPOS, _NS, _NCST,
    _DEAL, _MAXRED, _OSTK, _OSLEN, _OWST, _OWLEN, _ORED, _STKTAB, _ORDKEY, _FRUNS, _KPLUS, _OACS, _OACL,
) = range(54)  # fmt: skip
NL = 54
ALL_PILES = 0xFFFF  # the index of a deal onto every pile (the engine's -1)
# Build policies, group moves and space policies as numbers (pack.py maps the rule-set's strings).
BUILD = {"none": 0, "any-suit": 1, "alternate-colour": 2, "same-suit": 3}
GROUP = {"none": 0, "build": 1, "same-suit": 2, "whole-pile": 3}
EMPTY_POLICY = {"any": 0, "kings": 1, "none": 2, "reserve-first": 3, "reserve-then-waste": 4}
# st[] fields of search().
_DEPTH, _SP, _NODES, _BEST, _HITS, _NTAB, _PEAK, _GEN, _FHOME, _FPART, _CLEARS, _FDEAL, _FRET = range(13)
NST = 13

# splitmix64's finaliser (a bijection on 64-bit words) and the seeds of the two key lanes' parts (pile
# cards, face-down counts, cells, foundations, reserve, stock and redeals, waste), as uint64 so numba keeps
# the arithmetic unsigned.
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)
_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_ONE = np.uint64(1)
SEEDS = np.array(
    [
        0x243F6A8885A308D3, 0x13198A2E03707344, 0xA4093822299F31D0, 0x082EFA98EC4E6C89, 0x452821E638D01377,
        0x2FFD72DBD01ADFB7, 0xB8E1AFED6A267E96,
        0xBE5466CF34E90C6C, 0xC0AC29B7C97C50DD, 0x3F84D5B5B5470917, 0x9216D5D98979FB1B, 0xD1310BA698DFB5AC,
        0xBA7C9045F12C7F99, 0x24A19947B3916CF7,
    ],
    dtype=np.uint64,
)  # fmt: skip


def _mix(x):
    """splitmix64's finaliser of the uint64 ``x``."""
    x = (x ^ (x >> _S30)) * _M1
    x = (x ^ (x >> _S27)) * _M2
    return x ^ (x >> _S31)


def _zcard(Z, lane, part, k, hv):
    """The hash word of hash id ``hv`` at position ``k`` (or of foundation/field ``k``) in a key part."""
    return _mix(np.uint64((k << 32) | hv) + Z[lane * 7 + part])


def _pack(src, si, dst, di, cnt):
    """One move ``(src, si, dst, di, cnt)`` as an int64: areas in 3 bits each, indices and count in 16."""
    return src | (dst << 3) | (si << 6) | (di << 22) | (cnt << 38)


# Card relations (Engine._down_one, can_build, _in_sequence, _fits_foundation, _accepts_empty) -------------
def _down_one(L, C, lower, upper, wrap):
    rl = C[L[_ORANK] + lower]
    ru = C[L[_ORANK] + upper]
    if L[_WBASE] and ru == L[_BASE]:
        return False
    return rl == ru - 1 or (wrap and ru == 1 and rl == L[_R])


def _can_build(L, C, card, onto):
    b = L[_BUILD]
    if b == 0:
        return False
    w = L[_BWRAP] != 0
    if not _down_one(L, C, card, onto, w) and not (L[_UPDOWN] and _down_one(L, C, onto, card, w)):
        return False
    if b == 3:
        return C[L[_OSUIT] + card] == C[L[_OSUIT] + onto]
    if b == 2:
        return C[L[_OCOL] + card] != C[L[_OCOL] + onto]
    return True


def _in_seq(L, C, card, onto):
    if L[_GROUP] == 2:
        return C[L[_OSUIT] + card] == C[L[_OSUIT] + onto] and _down_one(L, C, card, onto, L[_BWRAP] != 0)
    return _can_build(L, C, card, onto)


def _fits_found(S, L, C, card):
    """Index of the foundation that takes ``card`` (the first fitting pile, else the first empty one for the
    base rank), or -1."""
    r = C[L[_ORANK] + card]
    s = C[L[_OSUIT] + card]
    R = L[_R]
    first_empty = -1
    for i in range(L[_F]):
        fl = S[L[_OFLEN] + i]
        if fl:
            top = S[L[_OFND] + i * L[_FH] + fl - 1]
            if C[L[_OSUIT] + top] == s:
                tr = C[L[_ORANK] + top]
                if r == tr + 1 or (L[_FWRAP] and tr == R and r == 1):
                    return i
        elif first_empty < 0:
            first_empty = i
    if first_empty >= 0 and r == L[_BASE]:
        return first_empty
    return -1


def _accepts_empty(S, L, C, card):
    p = L[_EMPTY]
    if p == 0 or (p >= 3 and S[L[_ORLEN]] == 0):
        return True  # reserve-then-waste (4): the caller lets only waste cards reach a space
    if p == 1:
        return C[L[_ORANK] + card] == L[_R]
    return False


# Move generation ----------------------------------------------------------------------------------------
def _redealt(S, L, w, p):
    """1 when the turns from waste size ``w`` to position ``p`` turn the waste over (as
    :func:`patience.solvers.stock_access.split_moves` plays them), else 0; the stock and waste hold their
    cards as before the play."""
    n = S[L[_OSLEN]] + S[L[_OWLEN]]
    return 1 if p < w or (p < n and (p - w) % L[_DEAL] != 0) else 0


def _qcard(S, L, j):
    """Card ``j`` (0-based) of the stock and waste as one sequence: the waste bottom to top, then the stock in
    the order it deals."""
    wl = S[L[_OWLEN]]
    if j < wl:
        return S[L[_OWST] + j]
    return S[L[_OSTK] + S[L[_OSLEN]] - 1 - (j - wl)]


def _resplit(S, L, p):
    """Turn stock cards onto the waste, or waste cards back, until the waste holds ``p`` cards (the sequence
    of :func:`_qcard` unchanged); return the waste's size before. The caller refreshes the hash."""
    os_, ow = L[_OSTK], L[_OWST]
    sl, wl = S[L[_OSLEN]], S[L[_OWLEN]]
    old = wl
    while wl < p:
        sl -= 1
        S[ow + wl] = S[os_ + sl]
        wl += 1
    while wl > p:
        wl -= 1
        S[os_ + sl] = S[ow + wl]
        sl += 1
    S[L[_OSLEN]], S[L[_OWLEN]] = sl, wl
    return old


def _to_spaces(S, L, out, pos, area, si, cnt, space, ordered):
    """Moves of ``cnt`` cards to the first empty pile ``space`` or, while the piles are ordered (a stock deals
    onto them), to every empty pile."""
    if not ordered:
        out[pos] = _pack(area, si, TAB, space, cnt)
        return pos + 1
    for j in range(space, L[_P]):
        if S[L[_OHGT] + j] == 0:
            out[pos] = _pack(area, si, TAB, j, cnt)
            pos += 1
    return pos


def _card_moves(S, L, C, out, pos, area, si, card, space, free, tall, waste_only, ordered):
    """The single-card moves of one source card (to a foundation, onto piles, to the spaces, to a cell)."""
    fi = -1 if L[_FRUNS] else _fits_found(S, L, C, card)
    if fi >= 0:
        out[pos] = _pack(area, si, FND, fi, 1)
        pos += 1
    to_tab = not (L[_GROUP] == 3 and area == TAB and tall) and (not waste_only or area == WST)
    if L[_BUILD] != 0 and to_tab:
        for q in range(C[L[_OBTS] + card], C[L[_OBTS] + card + 1]):
            m = S[L[_OTOPM] + C[L[_OBTL] + q]]
            j = 0
            while m:
                if m & 1 and (area != TAB or j != si):
                    out[pos] = _pack(area, si, TAB, j, 1)
                    pos += 1
                m >>= 1
                j += 1
    if space >= 0 and to_tab and _accepts_empty(S, L, C, card) and (ordered or area != TAB or tall):
        pos = _to_spaces(S, L, out, pos, area, si, 1, space, ordered)
    if free >= 0 and area != CEL:
        out[pos] = _pack(area, si, CEL, free, 1)
        pos += 1
    return pos


def _gen(S, L, C, out, base):
    """Write the legal moves at ``out[base:]`` in the engine's order; return how many."""
    P, H = L[_P], L[_H]
    op, oh = L[_OPILE], L[_OHGT]
    space = -1
    for i in range(P):
        if S[oh + i] == 0:
            space = i
            break
    rlen = S[L[_ORLEN]]
    if L[_EMPTY] >= 3 and rlen and space >= 0:
        # Canfield-style spaces: while the reserve has cards, an empty pile takes its top at once.
        out[base] = _pack(RES, rlen - 1, TAB, space, 1)
        return 1
    waste_only = space >= 0 and L[_EMPTY] == 4
    ordered = L[_STKTAB] != 0 and S[L[_OSLEN]] > 0  # Engine.piles_ordered
    free = -1
    for c in range(L[_NC]):
        if S[L[_OCELL] + c] < 0:
            free = c
            break
    pos = base
    for i in range(P):
        h = S[oh + i]
        if h:
            card = S[op + i * H + h - 1]
            pos = _card_moves(S, L, C, out, pos, TAB, i, card, space, free, h > 1, waste_only, ordered)
    for c in range(L[_NC]):
        card = S[L[_OCELL] + c]
        if card >= 0:
            pos = _card_moves(S, L, C, out, pos, CEL, c, card, space, free, False, waste_only, ordered)
    if rlen:
        if L[_RSTACK]:
            card = S[L[_ORES] + rlen - 1]
            pos = _card_moves(S, L, C, out, pos, RES, rlen - 1, card, space, free, False, waste_only, ordered)
        else:
            for k in range(rlen):
                pos = _card_moves(
                    S, L, C, out, pos, RES, k, S[L[_ORES] + k], space, free, False, waste_only, ordered
                )
    wlen = S[L[_OWLEN]]
    kplus = L[_KPLUS] != 0
    if wlen and not kplus:
        card = S[L[_OWST] + wlen - 1]
        pos = _card_moves(S, L, C, out, pos, WST, 0, card, space, free, False, waste_only, ordered)
    building = L[_BUILD] != 0
    group = L[_GROUP]
    if group != 0 and building and not waste_only:
        for i in range(P):
            n = S[oh + i]
            lowest = S[L[_ODOWN] + i]
            k = n - 1
            while k > lowest and _in_seq(L, C, S[op + i * H + k], S[op + i * H + k - 1]):
                k -= 1
            for start in range(k, n - 1):
                if group == 3 and start != 0:
                    continue
                cnt = n - start
                bottom = S[op + i * H + start]
                for q in range(C[L[_OBTS] + bottom], C[L[_OBTS] + bottom + 1]):
                    m = S[L[_OTOPM] + C[L[_OBTL] + q]]
                    j = 0
                    while m:
                        if m & 1 and j != i:
                            out[pos] = _pack(TAB, i, TAB, j, cnt)
                            pos += 1
                        m >>= 1
                        j += 1
                if space >= 0 and (start > 0 or ordered) and _accepts_empty(S, L, C, bottom):
                    pos = _to_spaces(S, L, out, pos, TAB, i, cnt, space, ordered)
    if L[_FRUNS]:
        # Complete runs King..Ace of one suit go home as one move, to the first empty foundation (Spider).
        slot = -1
        for fi in range(L[_F]):
            if S[L[_OFLEN] + fi] == 0:
                slot = fi
                break
        R = L[_R]
        if slot >= 0:
            for i in range(P):
                n = S[oh + i]
                o = op + i * H
                if n - S[L[_ODOWN] + i] < R or C[L[_ORANK] + S[o + n - 1]] != 1:
                    continue
                start = n - R
                ok = C[L[_ORANK] + S[o + start]] == R
                for k in range(start + 1, n):
                    if not ok:
                        break
                    a, b = S[o + k], S[o + k - 1]
                    ok = C[L[_OSUIT] + a] == C[L[_OSUIT] + b] and C[L[_ORANK] + a] == C[L[_ORANK] + b] - 1
                if ok:
                    out[pos] = _pack(TAB, i, FND, slot, R)
                    pos += 1
    if L[_REMOV] and not waste_only and not L[_FRUNS]:
        for fi in range(L[_F]):
            fl = S[L[_OFLEN] + fi]
            if fl == 0:
                continue
            card = S[L[_OFND] + fi * L[_FH] + fl - 1]
            if building:
                for j in range(P):
                    h = S[oh + j]
                    if h and _can_build(L, C, card, S[op + j * H + h - 1]):
                        out[pos] = _pack(FND, fi, TAB, j, 1)
                        pos += 1
            if space >= 0 and _accepts_empty(S, L, C, card):
                pos = _to_spaces(S, L, out, pos, FND, fi, 1, space, ordered)
    slen = S[L[_OSLEN]]
    if kplus:
        # Stock access (patience.solvers.stock_access): the waste card at every reachable position p, as
        # the move (WST, p, ...); no turns or redeals.
        n, k = slen + wlen, L[_DEAL]
        if n:
            if wlen >= 1:
                pos = _card_moves(S, L, C, out, pos, WST, wlen, _qcard(S, L, wlen - 1), space, free, False,
                                  waste_only, ordered)  # fmt: skip
            q = wlen + k
            while q < n:
                pos = _card_moves(S, L, C, out, pos, WST, q, _qcard(S, L, q - 1), space, free, False,
                                  waste_only, ordered)  # fmt: skip
                q += k
            if wlen < n:
                pos = _card_moves(S, L, C, out, pos, WST, n, _qcard(S, L, n - 1), space, free, False,
                                  waste_only, ordered)  # fmt: skip
            end = n if wlen % k else wlen
            q = k
            while q < end:
                pos = _card_moves(S, L, C, out, pos, WST, q, _qcard(S, L, q - 1), space, free, False,
                                  waste_only, ordered)  # fmt: skip
                q += k
    elif slen:
        if L[_STKTAB]:
            out[pos] = _pack(STK, 0, TAB, ALL_PILES, min(P, slen))
        else:
            out[pos] = _pack(STK, 0, WST, 0, min(L[_DEAL], slen))
        pos += 1
    elif wlen and (L[_MAXRED] < 0 or S[L[_ORED]] < L[_MAXRED]):
        out[pos] = _pack(WST, 0, STK, 0, wlen)
        pos += 1
    return pos - base


# Apply / undo with the key kept up to date ----------------------------------------------------------------
def _hid(L, C, card):
    return C[L[_OHID] + card]


def _repile(S, L, HS, Z, i):
    """Refresh pile ``i``'s term of the piles' multiset sum in both lanes (after its cards or down count)."""
    P = L[_P]
    d = np.uint64(S[L[_ODOWN] + i])
    ordered = L[_ORDKEY] != 0 and L[_STKTAB] != 0 and S[L[_OSLEN]] > 0  # the key keeps the pile order
    for lane in range(2):
        b = lane * (2 * P + 5)
        x = HS[b + i] ^ (d * Z[lane * 7 + 1])
        if ordered:
            x ^= _zcard(Z, lane, 1, i + 1, 0)
        new = _mix(x)
        HS[b + 2 * P] = HS[b + 2 * P] - HS[b + P + i] + new
        HS[b + P + i] = new


def _settop(S, L, i, on):
    """Set (``on``) or clear pile ``i``'s bit in the top-card mask of its top card, if it has one."""
    h = S[L[_OHGT] + i]
    if h:
        t = L[_OTOPM] + S[L[_OPILE] + i * L[_H] + h - 1]
        if on:
            S[t] |= 1 << i
        else:
            S[t] &= ~(1 << i)


def _pile_xor(S, L, C, HS, Z, i, k, card):
    """Toggle card ``card`` at position ``k`` of pile ``i`` in the pile's hash (both lanes)."""
    hv = _hid(L, C, card)
    P = L[_P]
    for lane in range(2):
        HS[lane * (2 * P + 5) + i] ^= _zcard(Z, lane, 0, k, hv)


def _transfer(S, L, C, HS, Z, a, b, cnt):
    """Move the top ``cnt`` cards of pile ``a`` onto pile ``b``, keeping their order."""
    H, op, oh = L[_H], L[_OPILE], L[_OHGT]
    ha, hb = S[oh + a], S[oh + b]
    _settop(S, L, a, False)
    _settop(S, L, b, False)
    for k in range(cnt):
        card = S[op + a * H + ha - cnt + k]
        _pile_xor(S, L, C, HS, Z, a, ha - cnt + k, card)
        S[op + b * H + hb + k] = card
        _pile_xor(S, L, C, HS, Z, b, hb + k, card)
    S[oh + a] = ha - cnt
    S[oh + b] = hb + cnt
    _settop(S, L, a, True)
    _settop(S, L, b, True)


def _pile_pop(S, L, C, HS, Z, i):
    h = S[L[_OHGT] + i] - 1
    card = S[L[_OPILE] + i * L[_H] + h]
    _settop(S, L, i, False)
    _pile_xor(S, L, C, HS, Z, i, h, card)
    S[L[_OHGT] + i] = h
    _settop(S, L, i, True)
    return card


def _pile_push(S, L, C, HS, Z, i, card):
    h = S[L[_OHGT] + i]
    _settop(S, L, i, False)
    S[L[_OPILE] + i * L[_H] + h] = card
    _pile_xor(S, L, C, HS, Z, i, h, card)
    S[L[_OHGT] + i] = h + 1
    _settop(S, L, i, True)


def _fterm_xor(S, L, HS, Z, fi):
    """Toggle foundation ``fi``'s (top card, height) word in both lanes' foundation hash."""
    fl = S[L[_OFLEN] + fi]
    top = S[L[_OFND] + fi * L[_FH] + fl - 1] if fl else -1
    P = L[_P]
    for lane in range(2):
        HS[lane * (2 * P + 5) + 2 * P + 2] ^= _zcard(Z, lane, 3, fi, ((top + 1) << 13) | fl)


def _found_push(S, L, HS, Z, fi, card):
    _fterm_xor(S, L, HS, Z, fi)
    fl = S[L[_OFLEN] + fi]
    S[L[_OFND] + fi * L[_FH] + fl] = card
    S[L[_OFLEN] + fi] = fl + 1
    S[L[_ONFND]] += 1
    _fterm_xor(S, L, HS, Z, fi)


def _found_pop(S, L, HS, Z, fi):
    _fterm_xor(S, L, HS, Z, fi)
    fl = S[L[_OFLEN] + fi] - 1
    card = S[L[_OFND] + fi * L[_FH] + fl]
    S[L[_OFLEN] + fi] = fl
    S[L[_ONFND]] -= 1
    _fterm_xor(S, L, HS, Z, fi)
    return card


def _cell_set(S, L, C, HS, Z, c, card):
    """Put ``card`` in cell ``c`` (``card`` -1: empty it), keeping the cells' multiset sum."""
    P = L[_P]
    old = S[L[_OCELL] + c]
    for lane in range(2):
        b = lane * (2 * P + 5) + 2 * P + 1
        if old >= 0:
            HS[b] = HS[b] - _zcard(Z, lane, 2, 0, _hid(L, C, old))
        if card >= 0:
            HS[b] = HS[b] + _zcard(Z, lane, 2, 0, _hid(L, C, card))
    S[L[_OCELL] + c] = card


def _reserve_hash(S, L, C, HS, Z):
    """Recompute the reserve's hash (by position: the engine's key lists the reserve in order)."""
    P = L[_P]
    n = S[L[_ORLEN]]
    for lane in range(2):
        acc = Z[lane * 7 + 4] ^ Z[lane * 7 + 4]
        for k in range(n):
            acc ^= _zcard(Z, lane, 4, k, _hid(L, C, S[L[_ORES] + k]))
        HS[lane * (2 * P + 5) + 2 * P + 3] = acc


def _stock_hash(S, L, C, HS, Z):
    """Recompute the stock and waste hash, in order, with the redeals used when they are limited (with stock
    access: the sequence of :func:`_qcard` and the waste's size only outside the turns' cycle)."""
    P = L[_P]
    if L[_KPLUS]:
        wl = S[L[_OWLEN]]
        n = S[L[_OSLEN]] + wl
        split = 0 if wl % L[_DEAL] == 0 or wl == n else wl
        for lane in range(2):
            acc = Z[lane * 7 + 5] ^ Z[lane * 7 + 5]
            for j in range(n):
                acc ^= _zcard(Z, lane, 5, j, _hid(L, C, _qcard(S, L, j)))
            if split:
                acc ^= _zcard(Z, lane, 6, 65535, split)
            HS[lane * (2 * P + 5) + 2 * P + 4] = acc
        return
    for lane in range(2):
        acc = Z[lane * 7 + 5] ^ Z[lane * 7 + 5]
        for k in range(S[L[_OSLEN]]):
            acc ^= _zcard(Z, lane, 5, k, _hid(L, C, S[L[_OSTK] + k]))
        for k in range(S[L[_OWLEN]]):
            acc ^= _zcard(Z, lane, 6, k, _hid(L, C, S[L[_OWST] + k]))
        if L[_MAXRED] >= 0:
            acc ^= _zcard(Z, lane, 5, 65535, S[L[_ORED]])
        HS[lane * (2 * P + 5) + 2 * P + 4] = acc


def _take(S, L, C, HS, Z, area, i):
    """Take the top card of a cell, the reserve (index ``i``), a foundation or a pile; return it."""
    if area == TAB:
        return _pile_pop(S, L, C, HS, Z, i)
    if area == CEL:
        card = S[L[_OCELL] + i]
        _cell_set(S, L, C, HS, Z, i, -1)
        return card
    if area == RES:
        o = L[_ORES]
        card = S[o + i]
        n = S[L[_ORLEN]]
        for k in range(i, n - 1):
            S[o + k] = S[o + k + 1]
        S[L[_ORLEN]] = n - 1
        _reserve_hash(S, L, C, HS, Z)
        return card
    if area == WST:
        n = S[L[_OWLEN]] - 1
        S[L[_OWLEN]] = n
        _stock_hash(S, L, C, HS, Z)
        return S[L[_OWST] + n]
    return _found_pop(S, L, HS, Z, i)


def _put(S, L, C, HS, Z, area, i, card):
    """Put ``card`` on a pile, a foundation, in a cell, or back into the reserve at index ``i``."""
    if area == TAB:
        _pile_push(S, L, C, HS, Z, i, card)
    elif area == FND:
        _found_push(S, L, HS, Z, i, card)
    elif area == CEL:
        _cell_set(S, L, C, HS, Z, i, card)
    elif area == WST:
        n = S[L[_OWLEN]]
        S[L[_OWST] + n] = card
        S[L[_OWLEN]] = n + 1
        _stock_hash(S, L, C, HS, Z)
    else:
        o = L[_ORES]
        n = S[L[_ORLEN]]
        for k in range(n, i, -1):
            S[o + k] = S[o + k - 1]
        S[o + i] = card
        S[L[_ORLEN]] = n + 1
        _reserve_hash(S, L, C, HS, Z)


def _turn(S, L, C, HS, Z, cnt, back):
    """Deal ``cnt`` stock cards onto the waste one by one (``back``: take them back)."""
    os_, ow = L[_OSTK], L[_OWST]
    sl, wl = S[L[_OSLEN]], S[L[_OWLEN]]
    for _ in range(cnt):
        if back:
            wl -= 1
            S[os_ + sl] = S[ow + wl]
            sl += 1
        else:
            sl -= 1
            S[ow + wl] = S[os_ + sl]
            wl += 1
    S[L[_OSLEN]], S[L[_OWLEN]] = sl, wl
    _stock_hash(S, L, C, HS, Z)


def _deal_piles(S, L, C, HS, Z, cnt, back):
    """Deal one stock card onto each of the first ``cnt`` piles (``back``: take them back); every pile's key
    term is refreshed, as the piles' order stops mattering when the stock runs out."""
    o = L[_OSTK]
    sl = S[L[_OSLEN]]
    if back:
        for j in range(cnt - 1, -1, -1):
            S[o + sl] = _pile_pop(S, L, C, HS, Z, j)
            sl += 1
    else:
        for j in range(cnt):
            sl -= 1
            _pile_push(S, L, C, HS, Z, j, S[o + sl])
    S[L[_OSLEN]] = sl
    _stock_hash(S, L, C, HS, Z)
    for j in range(L[_P]):
        _repile(S, L, HS, Z, j)


def _redeal(S, L, C, HS, Z, back):
    """Turn the waste over into the (empty) stock, counting a redeal (``back``: undo that)."""
    os_, ow = L[_OSTK], L[_OWST]
    if back:
        n = S[L[_OSLEN]]  # the stock is the waste reversed, and empty before the redeal
        for k in range(n):
            S[ow + k] = S[os_ + n - 1 - k]
        S[L[_OWLEN]], S[L[_OSLEN]] = n, 0
        S[L[_ORED]] -= 1
    else:
        n = S[L[_OWLEN]]
        for k in range(n):
            S[os_ + k] = S[ow + n - 1 - k]
        S[L[_OSLEN]], S[L[_OWLEN]] = n, 0
        S[L[_ORED]] += 1
    _stock_hash(S, L, C, HS, Z)


def _apply(S, L, C, HS, Z, m):
    """Play move ``m``; return 1 when it turned a face-down card up (the undo needs it), else 0."""
    src, dst = m & 7, (m >> 3) & 7
    si, di, cnt = (m >> 6) & 0xFFFF, (m >> 22) & 0xFFFF, m >> 38
    if src == WST and dst != STK and L[_KPLUS]:
        # Stock access: turn to position si, then play the waste's top; the old waste size is the "flip".
        old = _resplit(S, L, si)
        S[L[_ORED]] += _redealt(S, L, old, si)
        _put(S, L, C, HS, Z, dst, di, _take(S, L, C, HS, Z, WST, 0))
        if dst == TAB:
            _repile(S, L, HS, Z, di)
        return old
    if src == STK:
        if dst == TAB:
            _deal_piles(S, L, C, HS, Z, cnt, False)
        else:
            _turn(S, L, C, HS, Z, cnt, False)
        return 0
    if dst == STK:
        _redeal(S, L, C, HS, Z, False)
        return 0
    if src == TAB and dst == TAB:
        _transfer(S, L, C, HS, Z, si, di, cnt)
    elif cnt > 1:  # a complete run home (foundations of kind runs)
        o = L[_OPILE] + si * L[_H]
        h = S[L[_OHGT] + si]
        for k in range(cnt):
            _found_push(S, L, HS, Z, di, S[o + h - cnt + k])
        for _ in range(cnt):
            _pile_pop(S, L, C, HS, Z, si)
    else:
        _put(S, L, C, HS, Z, dst, di, _take(S, L, C, HS, Z, src, si))
    flip = 0
    if src == TAB:
        h = S[L[_OHGT] + si]
        if h and h == S[L[_ODOWN] + si]:
            S[L[_ODOWN] + si] = h - 1
            flip = 1
        _repile(S, L, HS, Z, si)
    if dst == TAB:
        _repile(S, L, HS, Z, di)
    return flip


def _undo(S, L, C, HS, Z, m, flip):
    """Take back move ``m`` (``flip``: what :func:`_apply` returned)."""
    src, dst = m & 7, (m >> 3) & 7
    si, di, cnt = (m >> 6) & 0xFFFF, (m >> 22) & 0xFFFF, m >> 38
    if src == WST and dst != STK and L[_KPLUS]:
        _put(S, L, C, HS, Z, WST, 0, _take(S, L, C, HS, Z, dst, di))
        if dst == TAB:
            _repile(S, L, HS, Z, di)
        _resplit(S, L, flip)
        S[L[_ORED]] -= _redealt(S, L, flip, si)
        _stock_hash(S, L, C, HS, Z)
        return
    if src == STK:
        if dst == TAB:
            _deal_piles(S, L, C, HS, Z, cnt, True)
        else:
            _turn(S, L, C, HS, Z, cnt, True)
        return
    if dst == STK:
        _redeal(S, L, C, HS, Z, True)
        return
    if flip:
        S[L[_ODOWN] + si] += 1
    if src == TAB and dst == TAB:
        _transfer(S, L, C, HS, Z, di, si, cnt)
    elif cnt > 1:  # a complete run back from its foundation
        o = L[_OFND] + di * L[_FH]
        fl = S[L[_OFLEN] + di]
        for k in range(cnt):
            _pile_push(S, L, C, HS, Z, si, S[o + fl - cnt + k])
        for _ in range(cnt):
            _found_pop(S, L, HS, Z, di)
    else:
        _put(S, L, C, HS, Z, src, si, _take(S, L, C, HS, Z, dst, di))
    if src == TAB:
        _repile(S, L, HS, Z, si)
    if dst == TAB:
        _repile(S, L, HS, Z, di)


def _init_hash(S, L, C, HS, Z):
    """Compute every hash word of ``HS`` from the state ``S`` (the moves then keep them up to date)."""
    P, H = L[_P], L[_H]
    for q in range(len(HS)):
        HS[q] = HS[q] ^ HS[q]
    for i in range(P):
        for k in range(S[L[_OHGT] + i]):
            _pile_xor(S, L, C, HS, Z, i, k, S[L[_OPILE] + i * H + k])
        _repile(S, L, HS, Z, i)
    for c in range(L[_NC]):
        card = S[L[_OCELL] + c]
        if card >= 0:
            S[L[_OCELL] + c] = -1
            _cell_set(S, L, C, HS, Z, c, card)
    for fi in range(L[_F]):
        _fterm_xor(S, L, HS, Z, fi)
    _reserve_hash(S, L, C, HS, Z)
    _stock_hash(S, L, C, HS, Z)


def _key(L, HS, lane):
    """One 64-bit lane of the state key."""
    b = lane * (2 * L[_P] + 5) + 2 * L[_P]
    return HS[b] ^ HS[b + 1] ^ HS[b + 2] ^ HS[b + 3] ^ HS[b + 4]


# The transposition table (the Gaps kernel's too) --------------------------------------------------------
def _slot(tab, ka, kb):
    """Index of the 128-bit key (``ka``, ``kb``) in ``tab`` (pairs of uint64) if there, else
    ``-1 - (the empty slot where it goes)``. ``ka`` has its low bit set, so 0 marks an empty slot."""
    m = len(tab) // 2 - 1
    i = np.int64(_mix(ka) & np.uint64(m))
    while True:
        v = tab[2 * i]
        if v == ka and tab[2 * i + 1] == kb:
            return i
        if v == 0:
            return -1 - i
        i = (i + 1) & m


def _store(tab, e, ka, kb):
    """Store the key (``ka``, ``kb``) in the empty slot ``e`` (``-1 - _slot(...)`` of a key not there)."""
    tab[2 * e] = ka
    tab[2 * e + 1] = kb


def _rehash(old, new):
    """Insert the keys of table ``old`` into the empty, larger table ``new``."""
    for q in range(len(old) // 2):
        if old[2 * q]:
            _store(new, -1 - _slot(new, old[2 * q], old[2 * q + 1]), old[2 * q], old[2 * q + 1])


def _refill(tab, ka, kb, depth):
    """Empty the full table and put back the keys of the path's states ``ka[:depth + 1]``, ``kb[:depth + 1]``
    (forgetting dead states costs re-searching them, never a verdict); the keys it then holds."""
    for q in range(len(tab)):
        tab[q] = tab[q] ^ tab[q]
    n = 0
    for d in range(depth + 1):
        _store(tab, -1 - _slot(tab, ka[d], kb[d]), ka[d], kb[d])
        n += 1
    return n


# The search's children: streamliners, dominances, move order ---------------------------------------------
def _moved_card(S, L, m):
    src, si, cnt = m & 7, (m >> 6) & 0xFFFF, m >> 38
    if src == TAB:
        return S[L[_OPILE] + si * L[_H] + S[L[_OHGT] + si] - cnt]
    if src == CEL:
        return S[L[_OCELL] + si]
    if src == RES:
        return S[L[_ORES] + si]
    if src == WST:
        if L[_KPLUS]:
            return _qcard(S, L, si - 1)  # stock access: the card at position si
        return S[L[_OWST] + S[L[_OWLEN]] - 1]
    return S[L[_OFND] + si * L[_FH] + S[L[_OFLEN] + si] - cnt]


def _suit_heights(S, L, C, home):
    """Fill ``home[s]`` with the cards of suit ``s`` on the foundations (suit foundations: a pile's bottom
    card names its suit; 0 for a suit with no pile started)."""
    for s in range(L[_NSUITS]):
        home[s] = 0
    for fi in range(L[_F]):
        fl = S[L[_OFLEN] + fi]
        if fl:
            home[C[L[_OSUIT] + S[L[_OFND] + fi * L[_FH]]]] = fl


def _safe_home(S, L, C, stk, base, n, home):
    """Dominance ``safe_home`` (:meth:`patience.solvers.dominance.Dominances._safe_home`): the index of the
    first foundation move from a pile, a cell or the reserve of a card all of whose possible builders are
    home (under ``reserve-then-waste`` spaces, from a pile of two or more cards only), or -1."""
    filled = False
    for q in range(n):
        m = stk[base + q]
        src, dst = m & 7, (m >> 3) & 7
        waste_ok = src == WST and L[_DEAL] == 1 and L[_STKTAB] == 0  # one card a turn: see the dominance
        if dst != FND or not (src == TAB or src == CEL or src == RES or waste_ok):
            continue
        if L[_EMPTY] == 4 and (src != TAB or S[L[_OHGT] + ((m >> 6) & 0xFFFF)] < 2):
            continue  # reserve-then-waste spaces: a card lying on another in the tableau only
        card = _moved_card(S, L, m)
        if not filled:
            _suit_heights(S, L, C, home)
            filled = True
        if _all_home(L, C, home, L[_ORCS], L[_ORCL], card) or _all_home(L, C, home, L[_OACS], L[_OACL], card):
            return q
    return -1


def _all_home(L, C, home, starts, items, card):
    """Is every card of ``card``'s list home (``Dominances.receivers`` packed at ``starts``, ``items`` of
    ``C``, or ``alt_receivers``, the second way to pass)? ``home``: the cards home of each suit now."""
    for x in range(C[starts + card], C[starts + card + 1]):
        y = C[items + x]
        if home[C[L[_OSUIT] + y]] <= C[L[_OFPOS] + y]:
            return False
    return True


def _partial_ok(S, L, C, m):
    """Dominance ``partial_pile`` (:meth:`patience.solvers.dominance.Dominances._partial_ok`)."""
    if (m & 7) != TAB or ((m >> 3) & 7) != TAB:
        return True
    si, cnt = (m >> 6) & 0xFFFF, m >> 38
    h = S[L[_OHGT] + si]
    start = h - cnt
    if start <= 0 or start - 1 < S[L[_ODOWN] + si]:
        return True
    o = L[_OPILE] + si * L[_H]
    below = S[o + start - 1]
    if not _can_build(L, C, S[o + start], below):
        return True
    return _fits_found(S, L, C, below) >= 0


def _returns_home(S, L, C, m, home):
    """Dominance ``no_return`` (:meth:`patience.solvers.dominance.Dominances._returns_home`): ``m`` takes a
    card off its foundation into a state where ``safe_home``'s test passes for it. ``home``: the cards home
    of each suit now."""
    if (m & 7) != FND:
        return False
    si = (m >> 6) & 0xFFFF
    w = S[L[_OFND] + si * L[_FH] + S[L[_OFLEN] + si] - 1]
    sw = C[L[_OSUIT] + w]
    for x in range(C[L[_ORCS] + w], C[L[_ORCS] + w + 1]):
        y = C[L[_ORCL] + x]
        sy = C[L[_OSUIT] + y]
        h = home[sy] - 1 if sy == sw else home[sy]
        if h <= C[L[_OFPOS] + y]:
            return False
    return True


def _stays_home_suit(S, L, C, m):
    """Wolter's Thirty Six streamliner (``Pruner.stays_home_suit``): a card leaves its same-suit predecessor
    for somewhere other than a foundation."""
    if (m & 7) != TAB or ((m >> 3) & 7) == FND:
        return False
    si, cnt = (m >> 6) & 0xFFFF, m >> 38
    start = S[L[_OHGT] + si] - cnt
    if start <= S[L[_ODOWN] + si]:
        return False
    o = L[_OPILE] + si * L[_H]
    c, below = S[o + start], S[o + start - 1]
    return C[L[_OSUIT] + c] == C[L[_OSUIT] + below] and C[L[_ORANK] + below] == C[L[_ORANK] + c] + 1


def _score(S, L, C, m, feed_first):
    """``Pruner.score``: lower is tried first (``feed_first``: the ``solvitaire`` order)."""
    src, dst = m & 7, (m >> 3) & 7
    si, di, cnt = (m >> 6) & 0xFFFF, (m >> 22) & 0xFFFF, m >> 38
    if dst == FND:
        return 0
    if src == STK:
        return 1 if S[L[_OWLEN]] == 0 else 11
    if dst == CEL:
        return 10
    if dst != TAB or src == FND:
        return 11
    if src != TAB:
        return 1 if feed_first else 6
    H, op, oh = L[_H], L[_OPILE], L[_OHGT]
    start = S[oh + si] - cnt
    th = S[oh + di]
    if start == 0 and th:
        return 2
    c = S[op + si * H + start]
    seated = start > S[L[_ODOWN] + si] and _can_build(L, C, c, S[op + si * H + start - 1])
    b = 7 if seated else 3
    if th == 0:
        return b + 2
    return b if C[L[_OSUIT] + S[op + di * H + th - 1]] == C[L[_OSUIT] + c] else b + 1


def _children(S, L, C, stk, sp, scr, tmp, home, flags, st):
    """Generate, cut and order the moves of the current state at ``stk[sp:]``; return the new stack top.

    ``flags``: streamline (play to a foundation first), stay (Wolter's streamliner), safe_home, partial_pile,
    safe_deal and (when given) no_return and the ``solvitaire`` move order (:mod:`..dfs_prune`).
    """
    n = _gen(S, L, C, stk, sp)
    if n == 0:
        return sp
    chosen = -1
    if flags[0]:
        for q in range(n):
            if ((stk[sp + q] >> 3) & 7) == FND:
                chosen = q
                break
    if chosen < 0 and flags[4] and S[L[_OWLEN]] == 0 and S[L[_OSLEN]]:
        # Dominance safe_deal (Dominances._safe_deal): a deal onto an empty waste is played alone.
        for q in range(n):
            m = stk[sp + q]
            if (m & 7) == STK and ((m >> 3) & 7) == WST:
                chosen = q
                st[_FDEAL] += 1
                break
    if chosen < 0 and flags[2]:
        chosen = _safe_home(S, L, C, stk, sp, n, home)
        if chosen >= 0:
            st[_FHOME] += 1
    if chosen >= 0:
        stk[sp] = stk[sp + chosen]
        return sp + 1
    if flags[3]:
        k = 0
        for q in range(n):
            m = stk[sp + q]
            if _partial_ok(S, L, C, m):
                stk[sp + k] = m
                k += 1
        st[_FPART] += n - k
        n = k
    if len(flags) > 5 and flags[5]:
        _suit_heights(S, L, C, home)
        k = 0
        for q in range(n):
            m = stk[sp + q]
            if not _returns_home(S, L, C, m, home):
                stk[sp + k] = m
                k += 1
        st[_FRET] += n - k
        n = k
    if flags[1]:
        k = 0
        for q in range(n):
            m = stk[sp + q]
            if not _stays_home_suit(S, L, C, m):
                stk[sp + k] = m
                k += 1
        n = k
    # Stable order by score, highest first (Python's sort(key=score, reverse=True)); popped from the end.
    # A counting sort on the 12 scores: home[] (free here) counts, then gives each score's first slot.
    feed_first = len(flags) > 6 and flags[6]
    for s in range(12):
        home[s] = 0
    for q in range(n):
        tmp[q] = stk[sp + q]
        s = _score(S, L, C, tmp[q], feed_first)
        scr[q] = s
        home[s] += 1
    k = sp
    for s in range(11, -1, -1):
        c = home[s]
        home[s] = k
        k += c
    for q in range(n):
        s = scr[q]
        stk[home[s]] = tmp[q]
        home[s] += 1
    return sp + n


def search(st, tab, max_slots, stop_at, S, L, C, HS, Z, stk, frame, path, flips, ka, kb, fb, scr, tmp, home,
           flags):  # fmt: skip
    """Depth-first search until a win (WON), the end of the search space (COMPLETE), ``st[_NODES] >= stop_at``
    (CHUNK), arrays too small for the next state (GROW: the caller enlarges ``tab``, ``stk`` or the depth
    arrays and calls again) or a path that alone fills the table at its largest (MEMORY).

    ``stk[fb[d]:…]``: the moves left at depth ``d``; ``path[d]``, ``flips[d]``: the move played at depth ``d``
    and its flip; ``ka[d]``, ``kb[d]``: the key of the state at depth ``d`` (the root at 0); ``frame``: the
    most moves one state can have.
    """
    depth = st[_DEPTH]
    sp = st[_SP]
    nodes = st[_NODES]
    best = st[_BEST]
    hits = st[_HITS]
    ntab = st[_NTAB]
    peak = st[_PEAK]
    gen = st[_GEN]
    total = L[_NCARDS]
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
            sp = _children(S, L, C, stk, sp, scr, tmp, home, flags, st)
        if sp == fb[depth]:
            if depth == 0:
                code = COMPLETE
                break
            depth -= 1
            _undo(S, L, C, HS, Z, path[depth], flips[depth])
            continue
        sp -= 1
        m = stk[sp]
        f = _apply(S, L, C, HS, Z, m)
        nodes += 1
        fc = S[L[_ONFND]]
        if fc > best:
            best = fc
        if fc == total:
            path[depth] = m
            flips[depth] = f
            depth += 1
            code = WON
            break
        a = _key(L, HS, 0) | _ONE
        b = _key(L, HS, 1)
        s = _slot(tab, a, b)
        if s >= 0:
            hits += 1
            _undo(S, L, C, HS, Z, m, f)
        else:
            if 2 * (ntab + 1) > len(tab) // 2:  # full at the memory budget: keep only the path's states
                ntab = _refill(tab, ka, kb, depth)
                st[_CLEARS] += 1
                if 2 * (ntab + 1) > len(tab) // 2:
                    _undo(S, L, C, HS, Z, m, f)
                    code = MEMORY
                    break
                s = _slot(tab, a, b)
            _store(tab, -1 - s, a, b)
            ntab += 1
            if ntab > peak:
                peak = ntab
            path[depth] = m
            flips[depth] = f
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
    st[_BEST] = best
    st[_HITS] = hits
    st[_NTAB] = ntab
    st[_PEAK] = peak
    st[_GEN] = gen
    return code


# Compilation and the chunked runner ---------------------------------------------------------------------
_HELPERS = (
    _mix, _zcard, _pack, _down_one, _can_build, _in_seq, _fits_found, _accepts_empty, _card_moves, _gen, _hid,
    _repile, _settop, _pile_xor, _transfer, _pile_pop, _pile_push, _fterm_xor, _found_push, _found_pop,
    _cell_set, _reserve_hash, _stock_hash, _qcard, _resplit, _redealt, _take, _put, _turn, _deal_piles,
    _redeal, _to_spaces, _apply, _undo, _init_hash, _key, _slot, _store, _rehash, _refill, _moved_card,
    _suit_heights, _safe_home, _all_home, _partial_ok, _returns_home, _stays_home_suit, _score, _children,
)  # fmt: skip
# Helpers numba inlines into every caller (``inline="always"``, in its own IR, before LLVM): a call that is
# not inlined passes each array as 7 words and the tuple ``L`` as 54, so the moves' small helpers cost more in
# argument copies than in work. These are the ones that pay (benchmarks/out/kernel_inline.md); inlining more,
# or ``_apply`` and ``_undo`` themselves, only lengthens the compile.
_INLINED = frozenset({
    "_transfer", "_take", "_put", "_repile", "_pile_pop", "_pile_push", "_cell_set", "_found_push",
    "_found_pop", "_card_moves", "_to_spaces",
})  # fmt: skip
_COMPILED: dict[str, Callable[..., Any]] | None = None
COMPILE_SECONDS = 0.0  # time the first compiled() call took in this process (compile or cache load)


def compiled() -> dict[str, Callable[..., Any]] | None:
    """The kernel functions compiled by numba, by name (``search``, ``rehash``, ``gen``, ``apply``, ``undo``,
    ``init_hash``), or None when numba is off (:data:`HAVE_NUMBA`) or fails to import."""
    global _COMPILED, COMPILE_SECONDS
    if _COMPILED is None and HAVE_NUMBA:
        t0 = time.perf_counter()
        try:
            from numba import njit
            from numba.core.errors import NumbaIRAssumptionWarning
        except ImportError:  # pragma: no cover - a broken numba install
            return None
        # numba's "internal pedantic check" flags the loop variables of every inlined helper as out of scope
        # (hundreds of lines a compile); the compiled searches visit the Python ones' states (tests).
        warnings.filterwarnings("ignore", category=NumbaIRAssumptionWarning)
        register(_HELPERS, _INLINED)
        # Without numba's reference counting: nothing here allocates, and with it every helper LLVM does not
        # inline increfs and decrefs each array it is passed, on every call (61% of planning-jit's loop:
        # bestfirst's docstring).
        jit = njit(cache=True, _nrt=False)
        _COMPILED = {
            "search": jit(search),
            "rehash": jit(_rehash),
            "gen": jit(_gen),
            "apply": jit(_apply),
            "undo": jit(_undo),
            "init_hash": jit(_init_hash),
        }
        COMPILE_SECONDS = time.perf_counter() - t0
    return _COMPILED


def register(helpers: tuple[Callable[..., Any], ...], inline: frozenset[str]) -> None:
    """Make ``helpers`` callable from compiled code (the Python functions are unchanged), those named in
    ``inline`` inlined into every caller (:data:`_INLINED`); numba must be importable."""
    from numba.extending import register_jitable

    for helper in helpers:
        if helper.__name__ in inline:
            register_jitable(inline="always")(helper)
        else:
            register_jitable(helper)


def functions(jit: bool = True) -> dict[str, Callable[..., Any]]:
    """The kernel functions by name: compiled when ``jit`` and numba allow, else the Python ones."""
    got = compiled() if jit else None
    if got is not None:
        return got
    return {"search": search, "rehash": _rehash, "gen": _gen, "apply": _apply, "undo": _undo,
            "init_hash": _init_hash}  # fmt: skip


def run(
    S: np.ndarray,
    L: np.ndarray,
    C: np.ndarray,
    *,
    frame: int,
    flags: tuple[bool, ...],
    deadline: float,
    node_cap: int,
    memory_bytes: float,
    jit: bool = True,
    chunk: int | None = None,
) -> dict:
    """Search from the packed state ``S`` (left as it was on return), rules ``L``/``C`` (:mod:`.pack`).

    ``frame``: the most moves one state can have; ``flags``: (streamline, stay, safe_home, partial_pile,
    safe_deal[, no_return[, solvitaire order]]); ``node_cap`` < 0: no node limit. Returns won, complete, stop
    ("time", "nodes", "memory" or ""), moves (packed, the win's), nodes, best (most cards home seen), hits,
    peak_bytes, fired_home, fired_partial, fired_deal, fired_return, clears (times the full table was emptied)
    and compiled.
    """
    fn = functions(jit)
    is_compiled = fn["search"] is not search
    split0 = (int(S[L[_OWLEN]]), int(S[L[_OWLEN]] + S[L[_OSLEN]]))  # the waste's size and the stock's cards
    S = S.copy()
    HS = np.zeros(2 * (2 * int(L[_P]) + 5), dtype=np.uint64)
    with np.errstate(over="ignore"):
        fn["init_hash"](S, L, C, HS, SEEDS)
    max_slots = table_slots(memory_bytes)
    tab = np.zeros(2 * MIN_SLOTS, dtype=np.uint64)
    depth_n = 1024
    stk = np.zeros(max(4 * frame, 4096), dtype=np.int64)
    path, flips, fb = (np.zeros(depth_n, dtype=np.int64) for _ in range(3))
    ka, kb = np.zeros(depth_n, dtype=np.uint64), np.zeros(depth_n, dtype=np.uint64)
    scr, tmp = np.zeros(frame + 1, dtype=np.int64), np.zeros(frame + 1, dtype=np.int64)
    home = np.zeros(max(int(L[_NSUITS]), 12), dtype=np.int64)  # suits' cards home; the sort's 12 counts
    fl = np.array(flags, dtype=np.bool_)
    st = np.zeros(NST, dtype=np.int64)
    st[_BEST] = S[L[_ONFND]]
    st[_GEN] = 1
    with np.errstate(over="ignore"):
        ka[0] = _key(L, HS, 0) | _ONE
        kb[0] = _key(L, HS, 1)
        _store(tab, -1 - _slot(tab, ka[0], kb[0]), ka[0], kb[0])
    st[_NTAB] = st[_PEAK] = 1

    def search_chunk(stop_at: int) -> int:
        return fn["search"](
            st, tab, max_slots, stop_at, S, L, C, HS, SEEDS, stk, frame, path, flips, ka, kb, fb, scr,
            tmp, home, fl,
        )  # fmt: skip

    def grow() -> None:
        nonlocal tab, stk, path, flips, fb, ka, kb
        depth, sp = int(st[_DEPTH]), int(st[_SP])
        arrays = (path, flips, fb, ka, kb)
        tab, stk, arrays = grown(tab, int(st[_NTAB]), max_slots, fn["rehash"], stk, sp, frame, depth, arrays)
        path, flips, fb, ka, kb = arrays

    code, stop = drive(
        search_chunk,
        grow,
        lambda: int(st[_NODES]),
        deadline=deadline,
        node_cap=node_cap,
        compiled=is_compiled,
        chunk=chunk,
        most=1 << 20,
    )
    depth = int(st[_DEPTH])
    moves = [int(x) for x in path[:depth]] if code == WON else []
    if L[_KPLUS] and moves:
        moves = _expand(split0, int(L[_DEAL]), moves)
    return dict(
        won=code == WON,
        complete=code == COMPLETE,
        stop=stop,
        moves=moves,
        nodes=int(st[_NODES]),
        best=int(st[_BEST]),
        hits=int(st[_HITS]),
        peak_bytes=int(st[_PEAK]) * 2 * SLOT_BYTES,
        fired_home=int(st[_FHOME]),
        fired_partial=int(st[_FPART]),
        fired_deal=int(st[_FDEAL]),
        fired_return=int(st[_FRET]),
        clears=int(st[_CLEARS]),
        compiled=is_compiled,
    )


def _expand(split0: tuple[int, int], k: int, moves: list[int]) -> list[int]:
    """The moves of a win with each stock-access play preceded by its turns and redeals; ``split0``: the
    waste's size and the stock and waste's cards at the start, ``k`` the cards a turn deals."""
    from ..stock_access import split_moves

    w, n = split0
    out = []
    for m in moves:
        src, dst, si = m & 7, (m >> 3) & 7, (m >> 6) & 0xFFFF
        if src == WST and dst != STK:
            out.extend(_pack(a, b, c, d, e) for a, b, c, d, e in split_moves(w, n, k, si))
            out.append(m & ~(0xFFFF << 6))  # the waste's top: index 0
            w, n = si - 1, n - 1
        else:
            out.append(m)
    return out


ENTRY_POINTS = ("search", "init_hash", "rehash")  # the compiled functions a search calls (run)


def entry_points() -> list[Callable[..., Any]]:
    """:data:`ENTRY_POINTS` compiled (numba's dispatchers, each compiled by :func:`warm_up`), or none when
    numba is off: what :mod:`..jit_cache` checks before a load."""
    fn = compiled()
    return [] if fn is None else [fn[name] for name in ENTRY_POINTS]


def warm_up() -> float:
    """Compile (or load from numba's cache) the kernel and run it on a tiny deal, and the table's rehash (a
    tiny deal never grows its table); the seconds it took."""
    t0 = time.perf_counter()
    fn = compiled()
    if fn is not None:
        from ...deals import deal
        from .pack import pack

        p = pack(_engine(deal("freecell", 1, overrides={"ranks": 3})))
        flags = (False, False, True, False, False)
        deadline = time.perf_counter() + 60
        run(p.S, p.L, p.C, frame=p.frame, flags=flags, deadline=deadline, node_cap=-1, memory_bytes=1 << 20)
        fn["rehash"](np.zeros(4, dtype=np.uint64), np.zeros(8, dtype=np.uint64))
    return time.perf_counter() - t0


def _engine(instance: Any) -> Any:
    from ...engine import Engine

    return Engine(instance)
