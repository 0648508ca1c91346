"""The Monte Carlo player's playouts in compiled code: one call plays every playout of a decision.

:class:`~.players.MonteCarloPlayer` spends nearly all its time in random playouts (a Klondike draw-3 game,
profiled: 80% in the engine's move generation, 8% in the move-set filter, 3% applying moves, 2% sampling
worlds; the profile of seed 1: 24.2 of 30.0 s in ``Engine.legal_moves``, 2.3 in ``_in_set``, 0.75 in
``apply``, 0.61 in ``sample_world``). Here the playouts run on the generic search kernel's packed arrays
(:mod:`patience.solvers.generic_kernel`): its ``_gen`` (the engine's legal moves in the engine's order) and
``_apply``, called from :func:`decide`, which numba compiles (the kernel's helpers are registered jitable by
:func:`patience.solvers.generic_kernel.kernel.compiled`); with numba off the same functions run as Python.
Measured (CPU, load 7): a playout move costs about 4 us; ``_gen`` of a Klondike position 1.3 us (1.9
with the moves out of the foundations, which :func:`_moves` skips unless needed), ``_apply`` and
``_undo`` of a stock turn 0.75 us (they keep the kernel's 128-bit key, unused here); a draw-3 game
0.12-0.28 s against about 1 s with the engine; ``decide`` is 77% of a game's time (seed 1).

What the kernel is given (:func:`pack_view`): the observation, never the deal. The cards the player sees
go where it sees them; the hidden places (face-down tableau cards, the stock while unseen) get the unseen
cards (:func:`patience.play.observation.unseen_cards`), and each playout deals them anew into those places
(a Fisher-Yates shuffle, Donkersteeg's 'reshuffle'). Only 'shuffled-once' packs the true state, which the
game loop hands that mode by name.

Random numbers: each playout draws from its own slice of an array ``u`` of uniforms in [0, 1): with ``h``
hidden places, playout ``j`` of candidate ``i`` (``b = (i * playouts + j) * (h + depth)``) shuffles with
``u[b : b + h - 1]`` (for ``k`` from ``h - 1`` down to 1, swap card ``k`` with card ``floor(u * (k + 1))``,
the loop of ``random.shuffle``) and picks its ``t``-th random move as ``moves[floor(u[b + h + t] * n)]``.
:class:`Uniforms` and :func:`sample_world_u` do the same for the engine's reference playout
(:func:`patience.play.players._playout`), so both give the same moves and results (tested), and a player
plays the same game with either.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine import Engine, Move
from ..rules import RuleSet
from ..solvers.generic_kernel import kernel as K
from ..solvers.generic_kernel import kernel_supports
from ..solvers.generic_kernel.extend import jit_on_kernel
from ..solvers.generic_kernel.kernel import _apply, _gen
from ..solvers.generic_kernel.pack import from_move, pack
from .observation import HIDDEN, Observation, World, unseen_cards

__all__ = [
    "MOVE_SET_CODES", "Uniforms", "View", "compiled", "decide", "functions", "pack_view", "sample_world_u",
    "supports",
]  # fmt: skip

MOVE_SET_CODES = {"all": 0, "no-worry": 1, "donkersteeg": 2}
"""The move sets of :data:`patience.play.players.MOVE_SETS` (resolved, never ``auto``) as kernel codes."""

# X[] fields: the player's constants beside the kernel's L (suit foundations of one deck, a dealt base).
_XSUITHOME, _XDEALT = 0, 1
NX = 2


# Compiled helpers --------------------------------------------------------------------------------------
def _fits_home(S, L, C, X, card):
    """``players._fits_home``: may ``card`` go straight to its suit's foundation?"""
    if not X[_XSUITHOME]:
        return False
    F, FH, of, ofl = L[K._F], L[K._FH], L[K._OFND], L[K._OFLEN]
    base = 1
    if X[_XDEALT]:
        for fi in range(F):
            if S[ofl + fi]:
                base = C[L[K._ORANK] + S[of + fi * FH]]
                break
    step = (C[L[K._ORANK] + card] - base) % L[K._R]
    suit = C[L[K._OSUIT] + card]
    home = 0
    for fi in range(F):
        fl = S[ofl + fi]
        if fl and C[L[K._OSUIT] + S[of + fi * FH]] == suit:
            home = fl  # one deck: at most one foundation of a suit
    return home == step


def _in_set(S, L, C, X, buf, n, ms):
    """``players._in_set`` without its fallback: keep the moves of ``buf[:n]`` in move set ``ms``, in
    order; return how many are kept (0: none is in the set, and ``buf`` is unchanged)."""
    if ms == 0:
        return n
    H, op, oh, od = L[K._H], L[K._OPILE], L[K._OHGT], L[K._ODOWN]
    k = 0
    for q in range(n):
        m = buf[q]
        src = m & 7
        ok = src != K.FND
        if ok and ms == 2 and src == K.TAB and ((m >> 3) & 7) == K.TAB:
            si, cnt = (m >> 6) & 0xFFFF, m >> 38
            h = S[oh + si]
            if cnt < h - S[od + si]:
                ok = _fits_home(S, L, C, X, S[op + si * H + h - cnt - 1])
        if ok:
            buf[k] = m
            k += 1
    return k


def _down_sum(S, L):
    t = 0
    for i in range(L[K._P]):
        t += S[L[K._ODOWN] + i]
    return t


def _moves(S, L, Lq, C, X, buf, ms):
    """``players._in_set`` of the legal moves: those of move set ``ms`` in the engine's order, or every
    legal move if none is in the set; return how many. ``Lq``: ``L`` without worrying back, whose moves
    no set but ``all`` (0) keeps, so they are generated only for the fallback (the other moves keep
    their order: ``_gen`` lists moves out of a foundation after every other move but the stock's)."""
    if ms == 0:
        return _gen(S, L, C, buf, 0)
    n = _gen(S, Lq, C, buf, 0)
    k = _in_set(S, L, C, X, buf, n, ms) if n else 0
    if k:
        return k
    return _gen(S, L, C, buf, 0)


def _playout(S, L, Lq, C, X, HS, Z, buf, first, u, ui, depth, stall, ms, out):
    """``players._playout`` on packed state ``S``: play ``first``, then random moves of move set ``ms``
    (the ``t``-th: ``floor(u[ui + t] * n)``) until won, no move, ``depth`` moves or more than ``stall``
    moves in a row that turn no card up and send none home. ``out``: (most cards home, cards sent home,
    other moves). ``Lq``: see :func:`_moves`."""
    nf = L[K._ONFND]
    total = L[K._NCARDS]
    start = S[nf]
    _apply(S, L, C, HS, Z, first)
    best = S[nf]
    hidden = _down_sum(S, L)
    quiet = 0
    other = 0 if ((first >> 3) & 7) == K.FND else 1
    for _ in range(depth):
        n = _moves(S, L, Lq, C, X, buf, ms)
        if n == 0:
            break
        r = np.int64(u[ui] * n)
        ui += 1
        m = buf[min(r, n - 1)]
        _apply(S, L, C, HS, Z, m)
        home = S[nf]
        h = _down_sum(S, L)
        if home > best or h < hidden:
            quiet = 0
            if home > best:
                best = home
            hidden = h
        else:
            quiet += 1
            if quiet > stall:
                break
        if ((m >> 3) & 7) != K.FND:
            other += 1
        if home == total:
            break
    out[0] = best
    out[1] = best - start
    out[2] = other


def _retop(S, L):
    """Recompute the mask of piles topped by each card (after hidden places were filled)."""
    o = L[K._OTOPM]
    for c in range(L[K._N]):
        S[o + c] = 0
    H, op, oh = L[K._H], L[K._OPILE], L[K._OHGT]
    for i in range(L[K._P]):
        h = S[oh + i]
        if h:
            S[o + S[op + i * H + h - 1]] |= 1 << i


def decide(
    S0, L, Lq, C, X, Z, hid, unseen, cands, playouts, depth, stall, ms, u, res, S, HS, buf, cards, one
):
    """Every playout of one decision: for each candidate move of ``cands`` (packed), ``playouts`` playouts
    from ``S0`` with the unseen cards ``unseen`` dealt anew into the places ``hid`` of ``S`` (none: the state
    as packed). ``res[(i * playouts + j), :]``: (most cards home, cards sent home, other moves) of playout
    ``j`` of candidate ``i``. Stops at the first playout that wins (the player plays its move at once);
    returns how many playouts were played. ``Lq``: ``L`` without worrying back (:func:`_moves`).
    ``S``, ``HS``, ``buf``, ``cards``, ``one``: scratch arrays from :func:`scratch`, so nothing here
    allocates and the function compiles without numba's reference counting."""
    nh = len(hid)
    stride = nh + depth
    done = 0
    for i in range(len(cands)):
        for j in range(playouts):
            for q in range(len(S0)):
                S[q] = S0[q]
            b = (i * playouts + j) * stride
            if nh:
                for k in range(nh):
                    cards[k] = unseen[k]
                t = b
                for k in range(nh - 1, 0, -1):
                    r = min(np.int64(u[t] * (k + 1)), k)
                    t += 1
                    x = cards[k]
                    cards[k] = cards[r]
                    cards[r] = x
                for k in range(nh):
                    S[hid[k]] = cards[k]
                _retop(S, L)
            _playout(S, L, Lq, C, X, HS, Z, buf, cands[i], u, b + nh, depth, stall, ms, one)
            row = i * playouts + j
            res[row, 0] = one[0]
            res[row, 1] = one[1]
            res[row, 2] = one[2]
            done += 1
            if one[0] >= L[K._NCARDS]:
                return done
    return done


_HELPERS = (_fits_home, _in_set, _moves, _down_sum, _playout, _retop)


@functools.cache
def compiled() -> Callable[..., Any] | None:
    """:func:`decide` compiled by numba (once a process), or None when numba is off (:data:`K.HAVE_NUMBA`)."""
    return jit_on_kernel(decide, _HELPERS, __file__, _nrt=False)


def scratch(view: View, rk: _Rules) -> tuple[np.ndarray, ...]:
    """The working arrays of :func:`decide` (state, key, move buffer, unseen cards, one playout's result)."""
    L = rk.L
    return (
        np.empty_like(view.S),
        np.zeros(2 * (2 * int(L[K._P]) + 5), dtype=np.uint64),  # the kernel keeps a key; a playout ignores it
        np.zeros(rk.frame + 1, dtype=np.int64),
        view.unseen.copy(),
        np.zeros(3, dtype=np.int64),
    )


def functions(jit: bool = True) -> Callable[..., Any]:
    """:func:`decide`, compiled when ``jit`` and numba allow."""
    got = compiled() if jit else None
    return got if got is not None else decide


def supports(rules: RuleSet) -> bool:
    """Can the kernel play these rules' playouts? (the generic kernel covers them, no Gaps grid)"""
    return kernel_supports(rules)


# Packing an observation --------------------------------------------------------------------------------
@dataclass
class View:
    """One decision's packed position: ``S`` (the state, hidden places holding the unseen cards in sorted
    order), the places ``hid`` (indices into ``S``) and the cards ``unseen`` to deal into them."""

    S: np.ndarray
    hid: np.ndarray
    unseen: np.ndarray


@dataclass
class _Rules:
    """A game's packed constants: ``L``, ``C`` (from a template deal), the player's ``X``, the move frame."""

    L: np.ndarray
    Lq: np.ndarray  # L without worrying back (see _moves)
    C: np.ndarray
    X: np.ndarray
    frame: int
    ns: int  # room for stock and waste cards in S


_RULES: dict[tuple[str, str], _Rules] = {}


def _rules(template: Engine, key: tuple[str, str], suit_home: bool, dealt_base: bool) -> _Rules:
    """The packed constants of ``template``'s rules (cached by game key); its state sizes the stock and
    waste region (the deal's stock and waste: no covered game puts cards back into them)."""
    got = _RULES.get(key)
    if got is None:
        p = pack(template)
        p.L[K._KPLUS] = 0  # a player turns the stock card by card: no stock-access moves
        X = np.array([int(suit_home), int(dealt_base)], dtype=np.int64)
        Lq = p.L.copy()
        Lq[K._REMOV] = 0
        got = _RULES[key] = _Rules(p.L, Lq, p.C, X, p.frame, len(template.stock) + len(template.waste))
    return got


def pack_view(
    obs: Observation,
    rules: RuleSet,
    template: Engine,
    suit_home: bool,
    dealt_base: bool,
    truth: World | None = None,
) -> tuple[View, _Rules]:
    """The observation packed for :func:`decide` (``truth``: 'shuffled-once' packs the true state instead,
    with no hidden places). ``template``: an engine of the same rules (its tables, never its cards)."""
    if truth is not None:
        piles, down, found, cells, reserve, stock, waste, _grid, red = truth
        hid_list: list[int] = []
        unseen: list[int] = []
    else:
        piles, down, found, cells, reserve, stock, waste, red = (
            obs.piles, obs.down, obs.foundations, obs.cells, obs.reserve, obs.stock, obs.waste,
            obs.redeals_used,
        )  # fmt: skip
        unseen = unseen_cards(obs, rules)
    rk = _rules(template, (obs.game, obs.overrides), suit_home, dealt_base)
    if len(stock) + len(waste) > rk.ns:
        raise ValueError(f"play: {len(stock) + len(waste)} stock and waste cards, the deal had {rk.ns}")
    L = rk.L
    S = np.zeros(int(L[K._NS]), dtype=np.int64)
    H = int(L[K._H])
    op, oh, od = int(L[K._OPILE]), int(L[K._OHGT]), int(L[K._ODOWN])
    hid_list = []
    it = iter(unseen)
    for i, p in enumerate(piles):
        for k, c in enumerate(p):
            if c == HIDDEN:
                hid_list.append(op + i * H + k)
                c = next(it)
            S[op + i * H + k] = c
        S[oh + i] = len(p)
        S[od + i] = down[i]
    oc = int(L[K._OCELL])
    S[oc : oc + len(cells)] = cells
    ores = int(L[K._ORES])
    S[ores : ores + len(reserve)] = reserve
    S[L[K._ORLEN]] = len(reserve)
    of, ofl, fh = int(L[K._OFND]), int(L[K._OFLEN]), int(L[K._FH])
    for i, f in enumerate(found):
        S[of + i * fh : of + i * fh + len(f)] = f
        S[ofl + i] = len(f)
    S[L[K._ONFND]] = sum(len(f) for f in found)
    ostk = int(L[K._OSTK])
    for k, c in enumerate(stock):
        if c == HIDDEN:
            hid_list.append(ostk + k)
            c = next(it)
        S[ostk + k] = c
    S[L[K._OSLEN]] = len(stock)
    ow = int(L[K._OWST])
    S[ow : ow + len(waste)] = waste
    S[L[K._OWLEN]] = len(waste)
    S[L[K._ORED]] = red
    if next(it, None) is not None or len(hid_list) != len(unseen):
        raise ValueError("observation: hidden places and unseen cards differ in number")
    _retop(S, L)
    view = View(S, np.array(hid_list, dtype=np.int64), np.array(unseen, dtype=np.int64))
    return view, rk


def run(
    view: View,
    rk: _Rules,
    cands: Sequence[Move],
    playouts: int,
    depth: int,
    stall: int,
    move_set: str,
    u: np.ndarray,
    jit: bool = True,
) -> np.ndarray:
    """Play the decision's playouts (:func:`decide`); the rows played, each (most home, sent home, other)."""
    fn = functions(jit)
    res = np.zeros((len(cands) * playouts, 3), dtype=np.int64)
    cm = np.array([from_move(m) for m in cands], dtype=np.int64)
    with np.errstate(over="ignore"):
        done = fn(view.S, rk.L, rk.Lq, rk.C, rk.X, K.SEEDS, view.hid, view.unseen, cm, playouts, depth, stall,
                  MOVE_SET_CODES[move_set], u, res, *scratch(view, rk))  # fmt: skip
    return res[: int(done)]


# The engine's side of the same random numbers -----------------------------------------------------------
class Uniforms:
    """A stand-in for ``random.Random`` in :func:`patience.play.players._playout`: ``choice`` takes the
    next uniform of ``u`` from ``start`` on and picks ``seq[floor(u * len(seq))]``, as :func:`decide` does."""

    def __init__(self, u: np.ndarray, start: int) -> None:
        self.u = u
        self.i = start

    def choice(self, seq: Sequence[Any]) -> Any:
        n = len(seq)
        r = min(int(self.u[self.i] * n), n - 1)
        self.i += 1
        return seq[r]


def sample_world_u(obs: Observation, rules: RuleSet, u: np.ndarray, start: int) -> World:
    """:func:`patience.play.observation.sample_world` with the shuffle :func:`decide` does: the sorted unseen
    cards shuffled with ``u[start:]`` (Fisher-Yates, as ``random.shuffle``), dealt into the hidden places."""
    cards = unseen_cards(obs, rules)
    t = start
    for k in range(len(cards) - 1, 0, -1):
        r = min(int(u[t] * (k + 1)), k)
        t += 1
        cards[k], cards[r] = cards[r], cards[k]
    it = iter(cards)
    piles = tuple(tuple(next(it) if c == HIDDEN else c for c in p) for p in obs.piles)
    stock = tuple(next(it) if c == HIDDEN else c for c in obs.stock)
    return (piles, obs.down, obs.foundations, obs.cells, obs.reserve, stock, obs.waste, (), obs.redeals_used)
