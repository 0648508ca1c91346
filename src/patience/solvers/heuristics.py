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
* A row game (Accordion) has no foundations: every move closes up exactly one pile, so the piles left
  less one is exact as a count of the moves still needed when the deal is won, and a lower bound always.

The dominances every search mode applies (safe foundation moves, dealing onto an empty waste, the
partial-pile restriction) are not heuristics: they live, with their proofs, in :mod:`.dominance`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engine import EMPTY, Engine

__all__ = ["Heuristic", "pick_heuristic"]


@dataclass(frozen=True)
class Heuristic:
    """A named pair of estimates (see the module docstring)."""

    name: str
    admissible: Callable[[Engine], int]
    informed: Callable[[Engine], float]


def pick_heuristic(e: Engine) -> Heuristic:
    """The heuristic for the engine's rule-set: suit foundations, holes, runs (Spider), Gaps rows or a
    row of piles (Accordion)."""
    if e.rows:
        return Heuristic("gaps", _zero, _gaps_misplaced)
    if e.row_distances:
        return Heuristic("row", _row_moves_left, lambda x: float(_row_moves_left(x)))
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


def _row_moves_left(e: Engine) -> int:
    """Piles left in the row less one: each move closes up exactly one pile, and one pile wins."""
    return sum(1 for p in e.piles if p) - 1


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
