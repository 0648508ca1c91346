"""Forced settles: a stubborn-set theorem for fixed-suit Gaps, and its cut in the "foata" model.

Notation (cells, card codes, ``R``): :mod:`.data`; Foata normal form and independence: :mod:`.foata`.
A card is *settled* when it lies in its home cell in its own suit's row (row = suit under fixed-suit)
and every card of lower rank of its suit is settled too (the 2 in column 0 of its suit's row): a
correct run from column 0. A settled card never moves again (its only target is the cell it holds).

Theorem (forced settle; fixed-suit)
-----------------------------------
Let ``s`` be a grid and ``a = (y: r -> h)`` a legal move of ``s`` that *settles* y: ``h`` is y's home,
and y is a 2 or y - 1 is settled. Suppose also that no play from ``s`` can put ``y + 1`` right of
``y`` while y stays in r: y is a King, or r is in the last column, or ``y + 1`` already lies in
``r + 1``, or ``y + 1`` never stands in ``r + 1`` in any grid reachable from the deal (``reach`` of
:mod:`.bounds`). Then every play from ``s`` to a won grid has ``a`` in the first step of its Foata
normal form.

*Proof.* Call a move *outside* when it does not move y. Along any sequence of outside moves from s:

1. a stays legal: y stays in r; y - 1 is settled so it never moves; h can only be filled by the
   successor of its left neighbour y - 1 (or, for a 2, only by that 2 under fixed-suit), which is y.
2. each outside move b is independent of a (foata.py: different cards, and neither writes a cell the
   other reads or writes). a reads h - 1 and writes r and h. b does not leave r (y is there), h (a
   gap) or h - 1 (y - 1 is settled); b does not fill r (occupied), h (only y can) or h - 1
   (occupied); b does not read r, for the only move that reads r is y + 1 into r + 1, excluded by the
   hypothesis on y + 1 (y + 1 already in r + 1 cannot move: its only target is the cell it holds);
   and b does not read h, which stays a gap (a card right of a gap never moves).

A won grid has no legal move (its gaps are right of the Kings and column 0 is full), so by 1 a
winning play ``w`` from s cannot consist of outside moves only: it moves y, and its first move of y
is a itself (y's only legal target while y - 1 stays is h). Write ``w = u a v`` with u outside. By 2, a
is independent of every move of u, so a is a minimal move of the trace of w: it lies in the first step
of the trace's Foata normal form.

*Use in the model.* Deleting the first Foata step of a trace leaves the Foata normal form of the rest,
its steps shifted by one (a move's step is the length of the longest chain of dependent moves ending
in it, and every longest chain starts in the first step). So, in the Foata normal form of any winning
play, for every step t, a forced settle of the grid before step t lies in step t: the clause "forced
settle legal in state t => its move in step t" holds for every winning plan and is added at every step
of "foata" (:func:`settle_cut`). Under a horizon T below the proven one (foata.py, constraint 5) the
first T steps of a winning play's normal form satisfy it as well, so infeasibility still proves the
deal lost. Plans found are legal plays either way (the cut only removes solutions).

The condition on y + 1 is needed: without it, settling at once loses a winnable grid in 150 of 3,728
such (grid, move) pairs on 4 x 5 deals 0-39 (docs/cpsat-gaps-notes.md); the gap y leaves behind was
the one y + 1 needed. The test suite checks the theorem's consequence (a grid with a forced settle is
won exactly when the grid after it is) on every reachable grid of small deals, and the cut by ablation.
It holds for the fixed-suit first column only (any-two lets other 2s fill column 0), so the backend
adds it only there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...engine import EMPTY
from .data import GapsDeal
from .timeline import clause, is_const, neg

__all__ = ["forced_settles", "settle_cut"]


def _settled(grid: tuple[int, ...], R: int, rows: int) -> set[int]:
    """The settled cards of ``grid`` (module docstring): each row's correct run of its own suit."""
    out: set[int] = set()
    for row in range(rows):
        for k in range(R - 1):
            if grid[row * R + k] != row * R + 1 + k:
                break
            out.add(row * R + 1 + k)
    return out


def forced_settles(
    deal: GapsDeal, grid: tuple[int, ...], never: Callable[[int, int], bool] | None = None
) -> list[tuple[int, int]]:
    """The forced settles ``(card, home cell)`` of ``grid`` (the theorem); ``never(c, p)`` True when
    card c is proven never to stand in cell p (default: nothing is). Fixed-suit only."""
    R = deal.R
    settled = _settled(grid, R, deal.rows)
    where = {c: p for p, c in enumerate(grid) if c != EMPTY}
    out = []
    for y, r in where.items():
        h = deal.goal(y, deal.suit(y))
        if r == h or grid[h] != EMPTY or (deal.rank(y) > 2 and y - 1 not in settled):
            continue
        if deal.rank(y) == R or r % R == R - 1 or grid[r + 1] == y + 1 or (never and never(y + 1, r + 1)):
            out.append((y, h))
    return out


def settle_cut(v: Any, now: dict[tuple[int, int], Any], mv: dict[tuple[int, int], Any]) -> None:
    """Add the forced-settle clauses of the step from state ``now`` with moves ``mv`` to ``v.model``:
    for each settle move ``(y, h)`` and each cell r of y, "y in r, y - 1 settled, h empty, and y + 1 in
    r + 1 unless r + 1 needs no such check => the move is in this step" (module docstring)."""
    m, deal, reach = v.model, v.deal, v.b.reach
    settled: dict[int, Any] = {}
    for c in deal.cards:  # by suit then rank, so c - 1 comes first
        if deal.rank(c) == deal.R:
            continue  # only a settle of c + 1 reads it, and a King has none
        below = 1 if deal.rank(c) == 2 else settled.get(c - 1, 0)
        settled[c] = _and(m, now.get((c, deal.goal(c, deal.suit(c))), 0), below)
    occupants: dict[int, list[Any]] = {}
    for (_c, p), x in now.items():
        occupants.setdefault(p, []).append(x)
    for (y, h), lit in mv.items():
        if h != deal.goal(y, deal.suit(y)):
            continue
        below = 1 if deal.rank(y) == 2 else settled.get(y - 1, 0)
        occ = occupants.get(h, [])
        if is_const(below, 0) or any(is_const(x, 1) for x in occ):
            continue  # y - 1 is never settled in this state, or h is surely occupied
        for r in reach[y]:
            here = now.get((y, r), 0)
            if r == h or is_const(here, 0):
                continue
            check: list[Any] = []  # the literal "y + 1 lies in r + 1", when the theorem needs it
            if deal.rank(y) < deal.R and r % deal.R != deal.R - 1 and r + 1 in reach.get(y + 1, ()):
                right = now.get((y + 1, r + 1), 0)
                if is_const(right, 0):
                    continue  # y + 1 may come right of y later, and is not there now
                check = [] if is_const(right, 1) else [right]
            clause(m, [neg(here), neg(below), *(neg(x) for x in check), *occ, lit])


def _and(m: Any, a: Any, b: Any) -> Any:
    """A literal equal to ``a and b`` (constants 0/1 folded)."""
    if is_const(a, 0) or is_const(b, 0):
        return 0
    if is_const(a, 1):
        return b
    if is_const(b, 1):
        return a
    x = m.new_bool_var("")
    m.add_implication(x, a)
    m.add_implication(x, b)
    m.add_bool_or([~a, ~b, x])
    return x
