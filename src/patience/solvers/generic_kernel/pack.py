"""An engine state and its rule features as the kernel's int64 arrays, and the way back.

:func:`pack` reads an :class:`~patience.engine.Engine` (its current state, its per-card tables and the build
targets it computes) into ``S`` (the state: piles, heights, face-down counts, cells, reserve, foundations, the
mask of piles topped by each card, cards home), ``L`` (sizes, rule features, offsets of the regions; field
names in :mod:`.kernel`) and ``C`` (constants: rank, suit and colour of each card code, each card's build
targets in the engine's order, the hash id of each card, and the ``safe_home`` receivers and foundation
positions of :class:`patience.solvers.dominance.Dominances`). :class:`Packed` drives one packed state with
the kernel's functions (tests walk it side by side with the engine). Moves convert one to one: a kernel move
is :func:`.kernel._pack` of the engine's 5-tuple.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...engine import EMPTY, Engine, Move
from ..dominance import Dominances
from ..stock_access import applies as stock_access_applies
from . import kernel as K

__all__ = ["Packed", "engine_key_classes", "from_move", "pack", "to_move"]


def to_move(m: int) -> Move:
    """The engine's move tuple of kernel move ``m``."""
    m = int(m)
    di = (m >> 22) & 0xFFFF
    return (m & 7, (m >> 6) & 0xFFFF, (m >> 3) & 7, -1 if di == K.ALL_PILES else di, m >> 38)


def from_move(move: Move) -> int:
    """The kernel's int64 of engine move ``move``."""
    src, si, dst, di, cnt = move
    return src | (dst << 3) | (si << 6) | ((di & 0xFFFF) << 22) | (cnt << 38)


def _flat(lists: list[tuple[int, ...]]) -> tuple[list[int], list[int]]:
    """CSR form of a list of lists: (starts with a final end, the items)."""
    starts, items = [0], []
    for xs in lists:
        items.extend(xs)
        starts.append(len(items))
    return starts, items


@dataclass
class Packed:
    """One packed state and the constants of its rules (:func:`pack`), with the kernel's functions."""

    S: np.ndarray
    L: np.ndarray
    C: np.ndarray
    frame: int  # the most moves one state can have
    jit: bool = True
    HS: np.ndarray = field(init=False)
    fn: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        self.fn = K.functions(self.jit)
        self.HS = np.zeros(2 * (2 * int(self.L[K._P]) + 5), dtype=np.uint64)
        with np.errstate(over="ignore"):
            self.fn["init_hash"](self.S, self.L, self.C, self.HS, K.SEEDS)
        self._out = np.zeros(self.frame + 1, dtype=np.int64)

    @property
    def compiled(self) -> bool:
        """Do the compiled functions drive this state?"""
        return self.fn["search"] is not K.search

    def moves(self) -> list[int]:
        """The legal moves, in the engine's order."""
        n = self.fn["gen"](self.S, self.L, self.C, self._out, 0)
        return [int(x) for x in self._out[:n]]

    def apply(self, m: int) -> int:
        """Play ``m``; the flip to hand back to :meth:`undo`."""
        with np.errstate(over="ignore"):
            return int(self.fn["apply"](self.S, self.L, self.C, self.HS, K.SEEDS, np.int64(m)))

    def undo(self, m: int, flip: int) -> None:
        """Take back ``m``."""
        with np.errstate(over="ignore"):
            self.fn["undo"](self.S, self.L, self.C, self.HS, K.SEEDS, np.int64(m), np.int64(flip))

    def key(self) -> tuple[int, int]:
        """The 128-bit state key as kept up to date by the moves."""
        return int(K._key(self.L, self.HS, 0)), int(K._key(self.L, self.HS, 1))

    def fresh_key(self) -> tuple[int, int]:
        """The state key computed from scratch (equal to :meth:`key` unless an update is wrong)."""
        hs = np.zeros_like(self.HS)
        with np.errstate(over="ignore"):
            self.fn["init_hash"](self.S.copy(), self.L, self.C, hs, K.SEEDS)
        return int(K._key(self.L, hs, 0)), int(K._key(self.L, hs, 1))

    def snapshot(self) -> tuple:
        """The state as ``Engine.snapshot()`` gives it (piles, face-down counts, foundations, cells, reserve,
        stock, waste, an empty grid, redeals used)."""
        S, L = self.S, self.L
        P, H, F, FH = (int(L[x]) for x in (K._P, K._H, K._F, K._FH))
        op, oh, of, ofl = (int(L[x]) for x in (K._OPILE, K._OHGT, K._OFND, K._OFLEN))
        piles = tuple(tuple(int(c) for c in S[op + i * H : op + i * H + S[oh + i]]) for i in range(P))
        found = tuple(tuple(int(c) for c in S[of + i * FH : of + i * FH + S[ofl + i]]) for i in range(F))
        down = tuple(int(x) for x in S[L[K._ODOWN] : L[K._ODOWN] + P])
        cells = tuple(int(x) for x in S[L[K._OCELL] : L[K._OCELL] + L[K._NC]])
        reserve = tuple(int(x) for x in S[L[K._ORES] : L[K._ORES] + S[L[K._ORLEN]]])
        stock = tuple(int(x) for x in S[L[K._OSTK] : L[K._OSTK] + S[L[K._OSLEN]]])
        waste = tuple(int(x) for x in S[L[K._OWST] : L[K._OWST] + S[L[K._OWLEN]]])
        return piles, down, found, cells, reserve, stock, waste, (), int(S[L[K._ORED]])

    def top_masks_ok(self) -> bool:
        """Is the mask of piles topped by each card consistent with the piles? (a test helper)"""
        piles = self.snapshot()[0]
        want = [0] * int(self.L[K._N])
        for i, p in enumerate(piles):
            if p:
                want[p[-1]] |= 1 << i
        o = int(self.L[K._OTOPM])
        return [int(x) for x in self.S[o : o + len(want)]] == want


def pack(
    engine: Engine,
    colour: bool = False,
    dominances: Dominances | None = None,
    jit: bool = True,
    stock_access: bool = True,
) -> Packed:
    """The engine's current state and rules as kernel arrays.

    ``colour``: hash cards outside the foundations by rank and colour (the streamliner's colour key) instead
    of by card. ``dominances``: whose ``safe_home`` receivers to pack (default: every applicable rule).
    ``stock_access`` False: the stock turns card by card even where :mod:`..stock_access` applies.
    """
    e = engine
    rules = e.rules
    t = rules.tableau
    P, NC, NR, F = len(e.piles), len(e.cells), rules.reserve.size, len(e.found)
    ncards, N, R = e.n_cards, e.deck.n_codes, e.R
    NS = len(e.stock) + len(e.waste)  # stock and waste hold these cards between them
    H = FH = ncards
    sizes = [
        ("pile", P * H), ("hgt", P), ("down", P), ("cell", NC), ("res", NR), ("rlen", 1), ("fnd", F * FH),
        ("flen", F), ("topm", N), ("nfnd", 1), ("stk", NS), ("slen", 1), ("wst", NS), ("wlen", 1), ("red", 1),
    ]  # fmt: skip
    off: dict[str, int] = {}
    n = 0
    for name, size in sizes:
        off[name] = n
        n += size
    dom = dominances if dominances is not None else Dominances(e)
    bts, btl = _flat([tuple(e.build_targets(c)) if e.build != "none" else () for c in range(N)])
    hid = [e.rank[c] * 2 + e.colour[c] for c in range(N)] if colour else list(range(N))
    rcs, rcl = _flat(list(dom.receivers))
    # The second test (without worrying back); a card's own code never passes it (it is not home yet).
    acs, acl = _flat(dom.alt_receivers or [(c,) for c in range(N)])
    consts = [
        ("rank", e.rank), ("suit", e.suit), ("col", e.colour), ("bts", bts), ("btl", btl), ("hid", hid),
        ("rcs", rcs), ("rcl", rcl), ("fpos", dom.fpos), ("acs", acs), ("acl", acl),
    ]  # fmt: skip
    coff: dict[str, int] = {}
    items: list[int] = []
    for name, xs in consts:
        coff[name] = len(items)
        items.extend(int(x) for x in xs)
    C = np.array(items, dtype=np.int64)

    # stock access: every stock card may be played, each a source
    kplus = stock_access and stock_access_applies(rules)
    L = np.zeros(K.NL, dtype=np.int64)
    fields = {
        K._P: P, K._H: H, K._NC: NC, K._NR: NR, K._F: F, K._FH: FH, K._N: N, K._R: R, K._NCARDS: ncards,
        K._NSUITS: e.deck.suits, K._BUILD: K.BUILD[t.build], K._UPDOWN: int(e.build_updown),
        K._BWRAP: int(e.build_wrap), K._WBASE: int(e.wrap_base), K._BASE: e.base_rank,
        K._GROUP: K.GROUP[t.group_moves], K._EMPTY: K.EMPTY_POLICY[t.empty], K._FWRAP: int(e.fwrap),
        K._REMOV: int(e.removable), K._RSTACK: int(e.reserve_stacked),
        K._OPILE: off["pile"], K._OHGT: off["hgt"], K._ODOWN: off["down"], K._OCELL: off["cell"],
        K._ORES: off["res"], K._ORLEN: off["rlen"], K._OFND: off["fnd"], K._OFLEN: off["flen"],
        K._OTOPM: off["topm"], K._ONFND: off["nfnd"], K._ORANK: coff["rank"], K._OSUIT: coff["suit"],
        K._OCOL: coff["col"], K._OBTS: coff["bts"], K._OBTL: coff["btl"], K._OHID: coff["hid"],
        K._ORCS: coff["rcs"], K._ORCL: coff["rcl"], K._OFPOS: coff["fpos"], K._NS: n, K._NCST: len(C),
        K._OACS: coff["acs"], K._OACL: coff["acl"],
        K._DEAL: rules.stock.deal_count, K._MAXRED: e.max_redeals, K._OSTK: off["stk"], K._OSLEN: off["slen"],
        K._OWST: off["wst"], K._OWLEN: off["wlen"], K._ORED: off["red"],
        K._STKTAB: int(e.stock_to == "tableau"), K._ORDKEY: int(not colour), K._FRUNS: int(e.fkind == "runs"),
        K._KPLUS: int(kplus),
    }  # fmt: skip
    for k, v in fields.items():
        L[k] = v
    S = state_array(e, L)
    frame = (P + NC + NR + 1 + (NS if kplus else 0)) * (2 * P + 3)
    frame += ncards * (2 * P + 1) + F * (2 * P + 1) + P + 2
    return Packed(S, L, C, frame, jit)


def state_array(engine: Engine, L: np.ndarray) -> np.ndarray:
    """The engine's current state as the kernel's state array ``S``, laid out by the offsets in ``L`` (from
    :func:`pack` of a state of the same rules with as many stock and waste cards); the state part of
    :func:`pack`, which the hindsight player's searches also call with a layout packed once a game."""
    e = engine
    S = np.zeros(int(L[K._NS]), dtype=np.int64)
    H, FH = int(L[K._H]), int(L[K._FH])
    op, oh, od, otop = (int(L[x]) for x in (K._OPILE, K._OHGT, K._ODOWN, K._OTOPM))
    for i, p in enumerate(e.piles):
        S[op + i * H : op + i * H + len(p)] = p
        S[oh + i] = len(p)
        S[od + i] = e.down[i]
        if p:
            S[otop + p[-1]] |= 1 << i
    oc = int(L[K._OCELL])
    S[oc : oc + len(e.cells)] = [EMPTY if c == EMPTY else c for c in e.cells]
    ores = int(L[K._ORES])
    S[ores : ores + len(e.reserve)] = e.reserve
    S[L[K._ORLEN]] = len(e.reserve)
    of, ofl = int(L[K._OFND]), int(L[K._OFLEN])
    for i, f in enumerate(e.found):
        S[of + i * FH : of + i * FH + len(f)] = f
        S[ofl + i] = len(f)
    S[L[K._ONFND]] = e.foundation_cards()
    ost, owst = int(L[K._OSTK]), int(L[K._OWST])
    S[ost : ost + len(e.stock)] = e.stock
    S[L[K._OSLEN]] = len(e.stock)
    S[owst : owst + len(e.waste)] = e.waste
    S[L[K._OWLEN]] = len(e.waste)
    S[L[K._ORED]] = e.redeals_used
    return S


def engine_key_classes(engine: Engine, colour: bool = False) -> Hashable:
    """The key the kernel's key stands for: ``Engine.key()``, or the colour streamliner's key."""
    if colour:
        from ..dfs_prune import Pruner, features

        return Pruner(engine, features(engine.rules)).colour_key()
    return engine.key()
