"""Streamliners and move ordering for the generic DFS, each selected by rule-set features.

Complete search cuts only with the proven dominances of :mod:`.dominance`. Streamlined search (Blake &
Gent's streamliners; unproven, so a failure proves nothing) adds:

* always play to a foundation when any card can go there;
* suits abstracted to colours in the state key (:meth:`Pruner.colour_key`) for alternate-colour building;
* Wolter's Thirty Six rule for rank-only building: a card already on its same-suit predecessor only
  ever moves to a foundation.

Move ordering follows Wolter's Thirty Six solver, generalised (:meth:`Pruner.score`), in one of two
:data:`ORDERS`: ``wolter`` tries tableau moves before cards from a free cell, the reserve or the waste;
``solvitaire`` (the default) tries those cards first, right after the foundation moves, as Solvitaire's move
generation orders its kinds of move. Order changes which win is found first and how fast, never a verdict:
a complete search tries every kept move either way.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from ..engine import CELL, EMPTY, FOUNDATION, STOCK, TABLEAU, WASTE, Engine, Move
from ..rules import RuleSet

__all__ = ["DEFAULT_ORDER", "ORDERS", "Features", "Pruner", "check_order", "features", "feeds_first"]

ORDERS = ("solvitaire", "wolter")
DEFAULT_ORDER = "solvitaire"  # benchmarks/out/move_order.md


def check_order(order: str) -> None:
    """ValueError naming ``order`` unless it is one of :data:`ORDERS` (the searches' options ask this)."""
    if order not in ORDERS:
        raise ValueError(f"order must be one of {', '.join(ORDERS)}, got {order!r}")


def feeds_first(order: str) -> bool:
    """Does ``order`` try cards from cells, the reserve and the waste before tableau moves (``solvitaire``)?
    The one answer :meth:`Pruner.score` and the compiled kernel's ``_score`` (its flag) both read."""
    check_order(order)
    return order == "solvitaire"


@dataclass(frozen=True)
class Features:
    """Which streamliners apply to a rule-set (never chosen by game name)."""

    colour_streamliner: bool  # suits -> colours in the streamlined key
    same_suit_stay: bool  # Wolter's Thirty Six streamliner (rank-only building)


def features(rules: RuleSet) -> Features:
    """Decide from the rule-set which streamliners apply."""
    t = rules.tableau
    suits_home = rules.foundations.kind == "suits" and not rules.gaps.rows
    return Features(
        colour_streamliner=suits_home and t.build == "alternate-colour",
        same_suit_stay=suits_home and t.build == "any-suit" and t.group_moves != "none",
    )


class Pruner:
    """Per-engine helpers: streamliner filters, the colour key and the move order."""

    def __init__(self, engine: Engine, feats: Features, order: str = DEFAULT_ORDER) -> None:
        self.e = engine
        self.f = feats
        self.feed_first = feeds_first(order)

    # Streamliners --------------------------------------------------------------------------------
    def stays_home_suit(self, m: Move) -> bool:
        """Wolter's Thirty Six rule (streamliner): True when ``m`` moves a card off its same-suit
        predecessor to somewhere other than a foundation (such moves are skipped)."""
        if m[0] != TABLEAU or m[2] == FOUNDATION:
            return False
        e = self.e
        p = e.piles[m[1]]
        start = len(p) - m[4]
        if start <= e.down[m[1]]:
            return False
        c, below = p[start], p[start - 1]
        return e.suit[c] == e.suit[below] and e.rank[below] == e.rank[c] + 1

    def colour_key(self) -> Hashable:
        """State key with suits reduced to colours outside the foundations (a streamliner)."""
        e = self.e
        rc = self._rc
        piles = sorted((tuple(rc[c] for c in p), d) for p, d in zip(e.piles, e.down, strict=True))
        cells = tuple(sorted(rc[c] if c != EMPTY else -1 for c in e.cells))
        found = tuple(f[-1] if f else -1 for f in e.found) + tuple(map(len, e.found))
        return (
            tuple(piles),
            cells,
            found,
            tuple(rc[c] for c in e.reserve),
            tuple(rc[c] for c in e.stock),
            tuple(rc[c] for c in e.waste),
            e.redeals_used if e.max_redeals >= 0 else 0,
        )

    @property
    def _rc(self) -> list[int]:
        got = getattr(self, "_rc_cache", None)
        if got is None:
            e = self.e
            got = [e.rank[c] * 2 + e.colour[c] for c in range(e.deck.n_codes)]
            self._rc_cache = got
        return got

    # Move ordering -------------------------------------------------------------------------------
    def score(self, m: Move) -> int:
        """Lower is tried first: Wolter's Thirty Six order, generalised to every tableau game.

        0 to a foundation; 1 a stock deal onto an empty waste; 2 a move that empties a tableau pile onto a
        card; 3/4/5 a card not sitting on a card it builds on, onto a same-suit card / another card / an empty
        pile; 6 a card from a cell, the reserve or the waste onto the tableau (1 in the ``solvitaire`` order:
        before every tableau move); 7/8/9 a card sitting on a card it builds on, onto a same-suit card /
        another card / an empty pile; 10 to a free cell; 11 anything else (deals onto a waste, redeals,
        worrying back).
        """
        src, si, dst, di, cnt = m
        e = self.e
        if e.row_distances:
            # Accordion: the leftmost pile first, the nearer target first. Measured on Solvitaire's seeds
            # 21-40 at 10 s (load ~10, interleaved): 19 won in 52 s against 15 in 107 s for the engine's
            # order (rightmost first); planning, whose ties follow the engine's order, does better with that.
            return len(e.piles) * si + (si - di)
        if dst == FOUNDATION:
            return 0
        if src == STOCK:
            return 1 if not e.waste else 11
        if dst == CELL:
            return 10
        if dst != TABLEAU or src == FOUNDATION or src == WASTE and dst == STOCK:
            return 11
        if src != TABLEAU:
            return 1 if self.feed_first else 6
        p = e.piles[si]
        start = len(p) - cnt
        target = e.piles[di]
        if start == 0 and target:
            return 2
        c = p[start]
        seated = start > e.down[si] and e.can_build(c, p[start - 1])
        base = 7 if seated else 3
        if not target:
            return base + 2
        return base if e.suit[target[-1]] == e.suit[c] else base + 1
