"""Stock access: a waste stock with unlimited redeals searched as the set of cards it can show, not the turns.

Solvitaire's handling of such a stock (Blake & Gent's "k-plus" moves), for the complete searches ``dfs`` and
``dfs-jit`` (the same nodes in both). Write ``Q`` for the stock and waste as one sequence, the waste bottom
to top followed by the stock in the order it deals (turning cards and turning the waste over both leave
``Q`` as it is), ``n`` for its length, ``w`` for the waste's size (the *split*: the waste shows ``Q[w-1]``)
and ``k`` for the cards a turn deals. With unlimited redeals the waste can be made to show the card at
position ``p`` (1-based) by turns and redeals alone exactly when ``p`` is in :func:`positions`: ``w``
itself, ``w + k``, ``w + 2k``, ... while in the stock, ``n`` (the last turn may deal fewer), and after
turning the waste over, ``k``, ``2k``, ... and ``n``.

* **Moves**: the stock turns and the redeal are not searched; a waste card at any reachable position is
  played directly (one *macro* move: ``(WASTE, p, to, index, 1)``, turns and redeals included). Any play
  in the real moves is such a sequence: the turns and redeals between two other moves only change the
  split, and a move that is neither a turn, a redeal nor a play from the waste does not look at the split
  (no space policy of a game with this stock does: ``waste-then-stock`` spaces come with no redeals). So
  a deal is won in macro moves exactly when it is won in real ones, and a macro win expands to real moves
  (:func:`split_moves`) that the validator replays.
* **Key**: splits ``w`` with ``w % k == 0`` or ``w == n`` reach one another by turns and redeals alone (from
  any of them the next redeal leads to split 0, and from 0 the turns reach every multiple of ``k`` and
  ``n``), so states that differ only there have the same verdict. The key keeps ``Q`` and the split only
  when it is outside that cycle (:func:`canonical`); inside, the reachable positions are the same set too,
  so the merged states have the same macro moves (in another order).

Off with ``DfsOptions(stock_access=False)`` (the ablation tests compare the verdicts); the compiled kernel
follows the same rules (``L[_KPLUS]``, set by :func:`applies`).
"""

from __future__ import annotations

from collections.abc import Hashable

from ..engine import STOCK, WASTE, Engine, Move
from ..rules import RuleSet

__all__ = ["StockAccess", "applies", "canonical", "positions", "split_moves"]


def applies(rules: RuleSet) -> bool:
    """A stock dealt onto a waste with unlimited redeals (Klondike, Canfield, Trigon)."""
    s = rules.stock
    return (
        s.size > 0
        and s.deal_to == "waste"
        and s.redeals < 0
        and s.deal_count >= 1
        and not rules.gaps.rows
        and rules.tableau.empty != "waste-then-stock"
    )


def positions(w: int, n: int, k: int) -> list[int]:
    """The positions (1-based) of ``Q`` the waste can be made to show from split ``w``: the current top,
    then forward turns, the last card, then the turns after a redeal (each once, in this order)."""
    out = [w] if w >= 1 else []
    q = w + k
    while q < n:
        out.append(q)
        q += k
    if w < n:
        out.append(n)
    q = k
    end = n if w % k else w  # from a split inside the cycle the forward turns met the later multiples
    while q < end:
        out.append(q)
        q += k
    return out


def split_moves(w: int, n: int, k: int, p: int) -> list[Move]:
    """The real turns (and redeal) taking the split from ``w`` to ``p`` (``p`` in :func:`positions`)."""
    if not 1 <= p <= n or w > n:
        raise ValueError(f"split_moves: position {p} outside 1..{n} (split {w})")
    out: list[Move] = []
    if p < w or (p < n and (p - w) % k):
        while w < n:  # turn to the end, then turn the waste over
            out.append((STOCK, 0, WASTE, 0, min(k, n - w)))
            w += min(k, n - w)
        out.append((WASTE, 0, STOCK, 0, w))
        w = 0
    while w < p:
        out.append((STOCK, 0, WASTE, 0, min(k, n - w)))
        w += min(k, n - w)
    assert w == p, (w, p)
    return out


def canonical(key: tuple, k: int) -> Hashable:
    """An engine key (``Engine.key`` or the colour streamliner's: stock and waste at 4 and 5) with the stock
    and waste replaced by ``Q`` and the split, the split 0 when it is inside the cycle."""
    stock, waste = key[4], key[5]
    w, n = len(waste), len(stock) + len(waste)
    split = 0 if w % k == 0 or w == n else w
    return (*key[:4], waste + stock[::-1], split, *key[6:])


class StockAccess:
    """The macro moves of :mod:`this module <patience.solvers.stock_access>` over one engine."""

    def __init__(self, engine: Engine) -> None:
        self.e = engine
        self.k = engine.deal_count

    def moves(self) -> list[Move]:
        """The engine's legal moves without turns, redeals and waste plays, then the waste plays of every
        reachable position (in :func:`positions` order; each position's in the engine's order)."""
        e = self.e
        out = [m for m in e.legal_moves() if m[0] != STOCK and m[0] != WASTE]
        stock, waste = e.stock, e.waste
        w, n = len(waste), len(stock) + len(waste)
        if n == 0:
            return out
        q = waste + stock[::-1]
        for p in positions(w, n, self.k):
            e.waste, e.stock = q[:p], q[p:][::-1]
            plays = [m for m in e.legal_moves() if m[0] == WASTE and m[2] != STOCK]
            out.extend((WASTE, p, m[2], m[3], m[4]) for m in plays)
        e.waste, e.stock = waste, stock
        return out

    def real(self, m: Move) -> list[Move]:
        """The engine moves playing ``m`` from the current state (a macro expands; any other is itself)."""
        if m[0] != WASTE:
            return [m]
        e = self.e
        w, n = len(e.waste), len(e.waste) + len(e.stock)
        return [*split_moves(w, n, self.k, m[1]), (WASTE, 0, m[2], m[3], m[4])]
