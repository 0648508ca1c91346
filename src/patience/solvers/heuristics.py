"""Domain heuristics over engine states, picked by rule-set features (never by game name).

Each heuristic is a pair of functions of an :class:`~patience.engine.Engine` in its current state:

* ``admissible(e)``: a lower bound on the moves still needed (A* with weight 1 uses it, so its plans
  are the shortest in the searched graph). Every move puts at most one card home, except a Spider run
  that puts ``ranks`` cards home at once, so ``ceil(cards not home / cards per home move)`` is a bound.
* ``informed(e)``: a sharper but inadmissible estimate for greedy best-first and weighted A*. For suit
  foundations it adds, to the cards not home, the cards lying above a lower-ranked card in their pile
  (each must move out of the way before that card can go home: Heineman's and Klaver's "blockers"),
  the cards lying above the next foundation card of each suit (Donkersteeg's "next card protection"),
  the face-down cards (each is a card that must be uncovered), and a small charge for every occupied free
  cell and a small credit for every empty pile (room to manoeuvre).

:func:`safe_foundation_move` is the dominance that all search modes use: a card whose possible
"builders" (cards that could be placed on it) are all home already, or are aces, loses nothing by going
home at once (Klaver 2022 section 4, Donkersteeg 2010 section 4.5 "safe heuristics"). It is switched on
only where that argument holds (see :func:`safe_moves_sound`). Dealing the stock onto an empty waste is
safe in every game with a waste (Wolter 2014, Thirty Six: "deal card to an empty waste (safe move)").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engine import CELL, EMPTY, FOUNDATION, STOCK, TABLEAU, Engine, Move

__all__ = ["Heuristic", "pick_heuristic", "safe_foundation_move", "safe_moves_sound", "SafeMoves"]


@dataclass(frozen=True)
class Heuristic:
    """A named pair of estimates (see the module docstring)."""

    name: str
    admissible: Callable[[Engine], int]
    informed: Callable[[Engine], float]


def pick_heuristic(e: Engine) -> Heuristic:
    """The heuristic for the engine's rule-set: suit foundations, holes, runs (Spider) or Gaps rows."""
    if e.rows:
        return Heuristic("gaps", _zero, _gaps_misplaced)
    if e.fkind == "runs":
        per = e.R

        def adm_runs(x: Engine) -> int:
            return -(-(x.n_cards - x.foundation_cards()) // per)

        return Heuristic("runs", adm_runs, _runs_informed)
    if e.fkind == "hole":
        return Heuristic("hole", _not_home, _hole_informed)
    return Heuristic("suits", _not_home, _suits_informed)


def _zero(e: Engine) -> int:
    return 0


def _not_home(e: Engine) -> int:
    return e.n_cards - e.foundation_cards()


def _inversions(e: Engine) -> int:
    """Cards lying above a card of lower rank in the same pile (they must move before it goes home).

    Without redeals the waste counts as one more pile: a card buried there comes back only by playing
    every card above it.
    """
    rank = e.rank
    blocked = 0
    piles = e.piles if e.max_redeals else [*e.piles, e.waste]  # no redeal: the waste is a dead pile
    for p in piles:
        low = 1 << 30
        for c in p:
            r = rank[c]
            if r > low:
                blocked += 1
            elif r < low:
                low = r
    return blocked


def _next_card_depth(e: Engine) -> int:
    """Cards above the next card each suit foundation needs, wherever it lies in the tableau."""
    rank, suit, R = e.rank, e.suit, e.R
    S = e.deck.suits
    need = [e.base_rank] * S
    for f in e.found:
        if f:
            top = f[-1]
            r = rank[top]
            need[suit[top]] = r + 1 if r < R else 0
    wanted = {s * R + r - 1 for s, r in enumerate(need) if r}
    if not wanted:
        return 0
    total = 0
    for p in e.piles:
        n = len(p)
        for k, c in enumerate(p):
            if c in wanted:
                total += n - 1 - k
    return total


def _suits_informed(e: Engine) -> float:
    h = 2.0 * (e.n_cards - e.foundation_cards()) + 3.0 * _inversions(e) + _next_card_depth(e)
    h += 2.0 * sum(e.down)
    if e.cells:
        h += 0.5 * sum(1 for c in e.cells if c != EMPTY)
    h -= 0.5 * sum(1 for p in e.piles if not p)
    return h


def _hole_informed(e: Engine) -> float:
    return float(e.n_cards - e.foundation_cards())


def _runs_informed(e: Engine) -> float:
    """Cards not home plus the breaks in same-suit descending order, plus face-down cards."""
    rank, suit = e.rank, e.suit
    breaks = 0
    for p in e.piles:
        for k in range(1, len(p)):
            a, b = p[k - 1], p[k]
            if suit[a] != suit[b] or rank[b] != rank[a] - 1:
                breaks += 1
    return float(e.n_cards - e.foundation_cards() + 2 * breaks + 2 * sum(e.down))


def _gaps_misplaced(e: Engine) -> float:
    """Cards outside the correct prefix of their row (2, 3, 4, ... of one suit from column 0)."""
    R, grid, rank, suit = e.R, e.grid, e.rank, e.suit
    good = 0
    for r in range(e.rows):
        row = grid[r * R : (r + 1) * R]
        s = suit[row[0]] if row[0] != EMPTY else -1
        for k in range(R - 1):
            c = row[k]
            if c == EMPTY or rank[c] != k + 2 or suit[c] != s:
                break
            good += 1
    return float(e.rows * (R - 1) - good)


# Safe foundation moves -------------------------------------------------------------------------
def safe_moves_sound(e: Engine) -> bool:
    """Rule features under which :func:`safe_foundation_move` never loses a win.

    Suit foundations built up from the ace, one deck, no wrap-around, no worrying back (a card home
    could be needed back as a builder target), building only downwards, and spaces not reserved for a
    reserve (Canfield forces reserve cards into spaces, so emptying a pile is not free there).
    """
    return (
        e.fkind == "suits"
        and e.deck.decks == 1
        and e.base_rank == 1
        and not e.fwrap
        and not e.removable
        and not e.build_updown
        and not e.build_wrap
        and e.empty_policy != "reserve-first"
    )


class SafeMoves:
    """Finds a safe foundation move in a state; ``None`` when there is none or the rules forbid it."""

    def __init__(self, e: Engine) -> None:
        self.on = safe_moves_sound(e)
        # Dealing onto an empty waste: only a deal ever touches stock and waste, and a won game deals
        # every stock card, so a winning plan's first deal can be moved to the front (Wolter 2014).
        self.deal_first = e.stock_to == "waste"
        # Blake & Gent 2019, Appendix C (Theorem 1): with red-black building, suit foundations, one pack
        # and no free cells, a part of a built pile need only move when the card it uncovers can go home.
        self.partial_rule = (
            e.build == "alternate-colour"
            and e.group != "none"
            and e.fkind == "suits"
            and e.deck.decks == 1
            and e.base_rank == 1
            and not e.fwrap
            and not e.cells
            and not e.build_updown
            and not e.build_wrap
        )
        n = e.deck.n_codes
        # builders[c]: codes of the cards that could be placed on card c in the tableau.
        self.builders: list[tuple[int, ...]] = [() for _ in range(n)]
        if self.on and e.build != "none":
            acc: list[list[int]] = [[] for _ in range(n)]
            for x in range(n):
                for c in e.build_targets(x):
                    acc[c].append(x)
            self.builders = [tuple(b) for b in acc]

    def prune(self, e: Engine, moves: list[Move]) -> list[Move]:
        """The moves left after the dominances that discard (rather than force) moves."""
        return _prune_partial(self, e, moves) if self.partial_rule else moves

    def find(self, e: Engine, moves: list[Move]) -> Move | None:
        """A deal onto an empty waste, or a foundation move of a tableau/cell card all of whose builders
        are home or aces."""
        if self.deal_first and not e.waste and e.stock:
            for m in moves:
                if m[0] == STOCK:
                    return m
        if not self.on:
            return None
        home: list[int] | None = None
        rank, suit = e.rank, e.suit
        for m in moves:
            if m[2] != FOUNDATION or m[0] not in (TABLEAU, CELL) or m[4] != 1:
                continue
            card = e.piles[m[1]][-1] if m[0] == TABLEAU else e.cells[m[1]]
            if rank[card] <= 2:
                return m
            if home is None:
                home = [0] * e.deck.suits
                for f in e.found:
                    if f:
                        home[suit[f[-1]]] = rank[f[-1]]
            if all(rank[x] == 1 or home[suit[x]] >= rank[x] for x in self.builders[card]):
                return m
        return None


def _prune_partial(self: SafeMoves, e: Engine, moves: list[Move]) -> list[Move]:
    """Drop tableau moves of part of a built pile whose uncovered card cannot go home now."""
    rank, suit = e.rank, e.suit
    home: list[int] | None = None
    out = []
    for m in moves:
        if m[0] == TABLEAU and m[2] == TABLEAU:
            p = e.piles[m[1]]
            start = len(p) - m[4]
            if start > e.down[m[1]]:  # the card under the group is face up: a partial move
                under = p[start - 1]
                if home is None:
                    home = [0] * e.deck.suits
                    for f in e.found:
                        if f:
                            home[suit[f[-1]]] = rank[f[-1]]
                if home[suit[under]] != rank[under] - 1:
                    continue
        out.append(m)
    return out


def safe_foundation_move(e: Engine, moves: list[Move]) -> Move | None:
    """One-off form of :meth:`SafeMoves.find` (builds the builder table each call)."""
    return SafeMoves(e).find(e, moves)
