"""The reach cut: a relaxation of "every card can still get home", a theorem and its cut in "foata".

Notation (cells, card codes, ``R``): :mod:`.data`; ``reach`` (the cells a card can ever stand in):
:mod:`.bounds`. Fixed-suit first column (a 2 moves only into column 0 of its suit's row). A won grid
puts each suit in one row (a 2 dealt in column 0 of another row stays there), so the *home* of a card
is ``goal(c, row)`` for the row of its suit in that won grid (the model's row literals, :mod:`.model`).

The relaxation (per grid s)
---------------------------
Let ``F(s)`` be the least set of pairs ``(c, p)``, ``p`` in ``reach[c]``, with

* ``(c, p)`` in F when c lies in p in s;
* ``(c, p)`` in F when its *predecessor condition* holds (a 2: p is in column 0; rank >= 3: p is not in
  column 0 and ``(c - 1, p - 1)`` is in F) and p is *free*: a gap in s, or ``(e, q)`` is in F for the
  card e lying in p in s and some cell ``q != p``.

*Lemma 1 (soundness).* If card c stands in cell p in some grid reachable from s, then ``(c, p)`` is in
F(s). By induction on the moves of a play from s: each grid's pairs are in F. A move of c into p needs
c - 1 in p - 1 (rank >= 3; a 2 moves only into column 0, of its own row under fixed-suit), in F by
induction, and p empty: p was a gap in s, or the card e of s in p stood in some q != p earlier, in F by
induction. So a grid from which a won grid is reachable has every card's cell of that won grid in F.

*Lemma 2 (levels).* Compute F by levels: ``F0`` = the pairs of s; ``F(k)``, cards in code order (suit,
then rank, so c - 1 before c): ``(c, p)`` is in F(k) when it is in F(k - 1), or its predecessor
condition holds in F(k) and p is free in F(k - 1). Then ``F(M + 1) = F(s)``, M the number of cards that
can move at all (``reach`` has another cell). Proof: each F(k) is within F (each pair derived), and
F(k) is the closure of F(k - 1) under the suit chains with the free cells of F(k - 1) fixed (one pass in
code order does it). If the free cells of F(k - 1) are those of F(k - 2), F(k) is the closure of an
already closed set, F(k - 1), so F(k - 1) is a fixpoint, hence F (it is within F and closed). The free
cells only grow, and only by cells whose card can move (a card that cannot never stands elsewhere), so
they grow at most M times: by level M + 1 the fixpoint is reached.

*Use in the model.* Under a horizon T below the proven one, "foata" asks "won in state T, or the last
step still moves" (foata.py, constraint 5). Every winning play's first T steps (or its whole normal
form, when shorter) is still a solution when the model also asks that, for the rows it ends in, every
card's home is in the M + 1-level F of state T: state T lies on a winning play (or is won), so Lemmas 1
and 2 give it. So infeasibility still proves the deal lost, and a solution is still a legal play (a cut
only removes). The encoding is one-way: a level's literal implies its support (so it is true only when
derived); the exact set memberships satisfy every clause, and the cut asks, under each row literal, for
the home literals of the last level. Why: the escape ("still moving") keeps the goal from pruning dead-end
plays; this cut does not depend on it, and propagation back from it cuts the plays whose grid can no
longer get every card home. Measured on lost 4 x 13 deal 24, 80 steps, 1 worker: 3.8k conflicts
against 29.8k without it (docs/cpsat-gaps-notes.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...engine import EMPTY
from .bounds import Bounds
from .data import GapsDeal
from .timeline import clause, is_const

__all__ = ["levels", "reach_cut", "relaxed_reach"]


def levels(deal: GapsDeal, b: Bounds) -> int:
    """Levels that reach the fixpoint from any grid (Lemma 2): the cards that can move, plus one."""
    return sum(len(b.reach[c]) > 1 for c in deal.cards) + 1


def relaxed_reach(deal: GapsDeal, b: Bounds, grid: tuple[int, ...], k: int) -> set[tuple[int, int]]:
    """The level-``k`` set ``F(k)`` of ``grid`` (module docstring; the model encodes the same levels). A
    level that adds no pair is the fixpoint (the next level's free cells are the same), so it stops."""
    have = {(c, p) for p, c in enumerate(grid) if c != EMPTY}
    for _ in range(k):
        before = have
        have = set(before)
        free = {p for p, e in enumerate(grid) if e == EMPTY or any(o in before for o in _others(b, e, p))}
        for c in deal.cards:
            for p in b.reach[c]:
                pre = _predecessor(deal, c, p)
                if (c, p) not in have and p in free and (pre is True or pre in have):
                    have.add((c, p))
        if len(have) == len(before):
            break
    return have


def reach_cut(
    v: Any,
    at_t: dict[tuple[int, int], Any],
    goal: list[tuple[Any, int, int]],
    on_time: Callable[[Any], None] = lambda v: None,
) -> None:
    """Add the reach cut on the state ``at_t`` to ``v.model``: for each ``(lit, c, g)`` of ``goal``
    ("lit: card c ends in cell g", the rows of the won grid), lit implies ``(c, g)`` in the last level of
    the one-way leveled encoding (module docstring). ``on_time(v)`` is called once a level (the build's
    deadline check: the levels take ~0.2-0.5 s on 4 x 13)."""
    m, deal, b = v.model, v.deal, v.b
    ncells = deal.rows * deal.R
    occupants: dict[int, list[tuple[int, Any]]] = {}
    for (e, p), x in at_t.items():
        if not is_const(x, 0):
            occupants.setdefault(p, []).append((e, x))
    gap = {p: _not_any(m, [x for _, x in occupants.get(p, [])]) for p in range(ncells)}
    have: dict[tuple[int, int], Any] = {(c, p): at_t.get((c, p), 0) for c in deal.cards for p in b.reach[c]}
    for _ in range(levels(deal, b)):
        on_time(v)
        before = have
        free = {}
        for p in range(ncells):
            gone = [_left(m, x, [before[k] for k in _others(b, e, p)]) for e, x in occupants.get(p, ())]
            free[p] = _or(m, [gap[p], *gone])
        have = dict(before)
        for c in deal.cards:
            for p in b.reach[c]:
                key = _predecessor(deal, c, p)
                pre = int(key) if isinstance(key, bool) else have.get(key, 0)
                old = before[(c, p)]
                if is_const(old, 1) or is_const(pre, 0) or is_const(free[p], 0):
                    continue  # no new derivation: the level keeps the literal before
                r = m.new_bool_var("")  # r -> old or (pre and free), as two clauses
                clause(m, [~r, old, pre])
                clause(m, [~r, old, free[p]])
                have[(c, p)] = r
    for lit, c, g in goal:
        clause(m, [~lit, have.get((c, g), 0)])


def _others(b: Bounds, e: int, p: int) -> list[tuple[int, int]]:
    """The pairs of card e in cells other than p: e in F at one of them frees p (module docstring), for
    both the sets and the model."""
    return [(e, q) for q in b.reach[e] if q != p]


def _predecessor(deal: GapsDeal, c: int, p: int) -> bool | tuple[int, int]:
    """The predecessor condition of ``(c, p)`` (module docstring), for both the sets and the model: the
    pair ``(c - 1, p - 1)`` that must be in F, or True / False when it holds / fails whatever F is (a 2:
    p in column 0; a card of rank >= 3 never enters column 0)."""
    if deal.rank(c) == 2:
        return p % deal.R == 0
    return (c - 1, p - 1) if p % deal.R else False


def _or(m: Any, lits: list[Any]) -> Any:
    """A literal that implies ``or(lits)`` (one-way; constants 0/1 folded)."""
    if any(is_const(x, 1) for x in lits):
        return 1
    rest = [x for x in lits if not isinstance(x, int)]
    if not rest:
        return 0
    if len(rest) == 1:
        return rest[0]
    x = m.new_bool_var("")
    m.add_bool_or([~x, *rest])
    return x


def _left(m: Any, here: Any, elsewhere: list[Any]) -> Any:
    """A literal that implies ``here and or(elsewhere)`` (one-way; constants 0/1 folded): the card that
    lies in a cell in state T stands in another one at the level before."""
    if is_const(here, 0) or not any(not is_const(x, 0) for x in elsewhere):
        return 0
    if any(is_const(x, 1) for x in elsewhere):
        return here
    x = m.new_bool_var("")
    clause(m, [~x, here])
    m.add_bool_or([~x, *(y for y in elsewhere if not isinstance(y, int))])
    return x


def _not_any(m: Any, lits: list[Any]) -> Any:
    """A literal that implies none of ``lits`` holds (one-way; constants folded)."""
    if any(is_const(x, 1) for x in lits):
        return 0
    rest = [x for x in lits if not isinstance(x, int)]
    if not rest:
        return 1
    g = m.new_bool_var("")
    for x in rest:
        m.add_implication(g, ~x)
    return g
