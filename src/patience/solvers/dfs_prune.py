"""Dominances, streamliners and move ordering for the generic DFS, each selected by rule-set features.

Complete search may only cut with rules proven sound here (each function says why):

* :meth:`Pruner.safe_home` -- a foundation move that provably never hurts is played alone;
* :meth:`Pruner.partial_ok` -- Blake & Gent's Theorem 1, the partial-pile-move restriction, only
  under the theorem's conditions.

Streamlined search (Blake & Gent's streamliners; unproven, so a failure proves nothing) adds:

* always play to a foundation when any card can go there;
* suits abstracted to colours in the state key (:meth:`Pruner.colour_key`) for alternate-colour building;
* Wolter's Thirty Six rule for rank-only building: a card already on its same-suit predecessor only
  ever moves to a foundation.

Move ordering follows Wolter's Thirty Six solver, generalised (:meth:`Pruner.order`).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from ..engine import CELL, EMPTY, FOUNDATION, RESERVE, STOCK, TABLEAU, WASTE, Engine, Move
from ..rules import RuleSet

__all__ = ["Features", "Pruner", "features"]


@dataclass(frozen=True)
class Features:
    """Which techniques apply to a rule-set (never chosen by game name)."""

    safe_home: bool  # the safe-foundation-move dominance is sound
    partial_restriction: bool  # Blake & Gent Theorem 1 applies
    colour_streamliner: bool  # suits -> colours in the streamlined key
    same_suit_stay: bool  # Wolter's Thirty Six streamliner (rank-only building)


def features(rules: RuleSet) -> Features:
    """Decide from the rule-set which dominances and streamliners apply."""
    t, f, d = rules.tableau, rules.foundations, rules.deck
    suits_home = f.kind == "suits" and not rules.gaps.rows
    safe_home = (
        suits_home
        and not f.removable  # worrying back could bring a lower card back onto the moved one
        and d.decks == 1
        and t.empty != "reserve-first"  # an early space would force a reserve card into it
        and not (rules.stock.size and rules.stock.deal_to == "tableau")  # deals cover the piles
    )
    # Theorem 1 (Blake & Gent, Appendix C): a standard single pack; red-black building down; suit
    # foundations built up; moves of incomplete built piles; a tableau card can only go to another
    # tableau pile or a foundation (so no free cells).
    partial = (
        suits_home
        and (d.suits, d.ranks, d.decks) == (4, 13, 1)
        and t.build == "alternate-colour"
        and t.direction == "down"
        and t.group_moves == "build"
        and rules.cells.count == 0
    )
    return Features(
        safe_home=safe_home,
        partial_restriction=partial,
        colour_streamliner=suits_home and t.build == "alternate-colour",
        same_suit_stay=suits_home and t.build == "any-suit" and t.group_moves != "none",
    )


class Pruner:
    """Per-engine helpers: dominance tests, streamliner filters and the move order."""

    def __init__(self, engine: Engine, feats: Features) -> None:
        self.e = engine
        self.f = feats
        R = engine.R
        n = engine.deck.n_codes
        # receivers[c]: codes that may be built onto c in the tableau.
        self.receivers: list[tuple[int, ...]] = [() for _ in range(n)]
        if engine.build != "none":
            for x in range(n):
                for c in engine.build_targets(x):
                    self.receivers[c] += (x,)
        # Foundation position of each code (0 for the base rank).
        self.fpos = [(engine.rank[c] - engine.base_rank) % R for c in range(n)]

    # Dominance ---------------------------------------------------------------------------------
    def _home_count(self) -> dict[int, int]:
        """Cards home per suit (suit foundations, one deck)."""
        e = self.e
        return {e.suit[f[0]]: len(f) for f in e.found if f}

    def safe_home(self, moves: list[Move]) -> Move | None:
        """A foundation move that is safe to play before anything else, or None.

        Conditions (see :func:`features`): suit foundations that cannot be worried back, one deck,
        no reserve-first spaces, no stock dealt onto the tableau; the card leaves a tableau top, a
        free cell or the reserve (never the waste: that would change how later deals group the
        waste, the bug Blake & Gent found in Wolter's Canfield solver); and every card that could
        ever be built onto it is already on a foundation.

        Proof that the move dominates: take any winning sequence ``s`` from the current state and
        drop from it every move of the card ``c`` (and ``c`` from the groups it tops). Nothing can
        ever be put on ``c`` (its receivers are home for good), so ``c`` only ever tops a group and
        its removal leaves every group valid (a whole pile stays a whole pile). Every source stays
        uncovered, every target card stays on top, every empty pile or free cell stays empty, and
        every foundation move still finds its predecessor home (``c`` is home all along); face-down
        cards only turn up earlier. So after playing ``c`` home the shortened sequence wins, with
        at least as many cards home at each step (so the most cards removed is kept too).
        """
        e = self.e
        home = None
        for m in moves:
            if m[2] != FOUNDATION or m[0] not in (TABLEAU, CELL, RESERVE):
                continue
            if home is None:
                home = self._home_count()
            card = e.moved_card(m)
            if card is None:
                continue
            ok = True
            for x in self.receivers[card]:
                if home.get(e.suit[x], 0) <= self.fpos[x]:
                    ok = False
                    break
            if ok:
                return m
        return None

    def safe_deal(self, moves: list[Move]) -> Move | None:
        """A stock deal onto an empty waste, which is safe to play first (Wolter's Thirty Six rule 2).

        Proof: stock cards are only reached through deals, and while the waste is empty no move
        touches the stock or the waste. Any winning sequence must deal this group of cards (they
        must go home), and the moves before that deal commute with it, so the deal can be moved to
        the front: the same moves in another order, no longer.
        """
        e = self.e
        if e.waste or not e.stock or e.stock_to != "waste":
            return None
        for m in moves:
            if m[0] == STOCK:
                return m
        return None

    def partial_ok(self, m: Move) -> bool:
        """Blake & Gent Theorem 1: may this tableau-to-tableau move go ahead?

        A move of part of a built pile (the card under the moved group is face up and the group's
        bottom card is built on it) is allowed only when that uncovered card can go straight to a
        foundation. The theorem (proof in Blake & Gent, Appendix C) shows that every deal won under
        the plain rules is also won under this restriction, when its conditions hold (checked in
        :func:`features`): one standard pack, red-black building down, suit foundations built up,
        partial built piles movable, and tableau cards movable only to the tableau or foundations.
        Its proof rewrites a winning sequence without making it longer, from any position, so the
        restriction is a property of the state and combines with the transposition table.
        """
        if m[0] != TABLEAU or m[2] != TABLEAU:
            return True
        e = self.e
        p = e.piles[m[1]]
        start = len(p) - m[4]
        if start <= 0 or start - 1 < e.down[m[1]]:
            return True  # the whole face-up part moves
        below = p[start - 1]
        if not e.can_build(p[start], below):
            return True  # the group is a whole built pile
        return e._fits_foundation(below) >= 0

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

        0 to a foundation; 1 a stock deal onto an empty waste; 2 a move that empties a tableau pile
        onto a card; 3/4/5 a card not sitting on a card it builds on, onto a same-suit card / another
        card / an empty pile; 6 a card from a cell, the reserve or the waste onto the tableau;
        7/8/9 a card sitting on a card it builds on, onto a same-suit card / another card / an empty
        pile; 10 to a free cell; 11 anything else (deals onto a waste, redeals, worrying back).
        """
        src, si, dst, di, cnt = m
        e = self.e
        if dst == FOUNDATION:
            return 0
        if src == STOCK:
            return 1 if not e.waste else 11
        if dst == CELL:
            return 10
        if dst != TABLEAU or src == FOUNDATION or src == WASTE and dst == STOCK:
            return 11
        if src != TABLEAU:
            return 6
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
