"""Per-card move bounds, the horizon and the reachable cells of a Gaps deal (the soundness argument).

Notation (cells ``p``, card codes ``c``, ``R``): :mod:`.data`.

Move bounds and the horizon (the soundness argument)
----------------------------------------------------
*Lemma 1.* A card ``x`` of rank >= 3 only ever moves into the cell right of ``x - 1`` (in the same
row). Right after the move it lies right of ``x - 1``; while ``x - 1`` stays put the cell right of it
holds ``x``, so it is not a gap and ``x`` cannot move again. Hence between two moves of ``x`` the card
``x - 1`` moves at least once: ``moves(x) <= moves(x - 1) + 1``. If ``x`` is *dealt* right of ``x - 1``
the same holds before its first move, so ``moves(x) <= moves(x - 1)``.

*Lemma 2 (fixed-suit).* A 2 moves only into column 0 of its own suit's row. Once there it cannot move
again (the only cell it could enter is the one it occupies), so ``moves(2) <= 1``, and ``moves(2) = 0``
when it is dealt there.

Together: ``ub(2) = [2 not dealt in its row's column 0]``, ``ub(x) = ub(x - 1) + [x not dealt right of
x - 1]`` bounds the moves of every card in *every* legal play, so ``ub(rank k) <= k - 1`` and any plan
has at most ``H = sum of ub <= S R (R - 1) / 2`` moves (312 for 4 x 13). With ``H`` as the horizon an
infeasible model proves the deal lost: UNSOLVABLE. Cards with ``ub = 0`` (a correct prefix 2, 3, ...
from column 0 of its own row, in particular) never move and get no move variables at all.

*Any-two.* A 2 may move between column-0 gaps any number of times and no bound on that is proven here:
the 2s get ``two_moves`` (constructor option, default 2) moves each, Lemma 1 bounds the rest, and an
infeasible model answers UNKNOWN ("infeasible at horizon H, no proof"), never UNSOLVABLE.

Reachable cells and earliest arrivals (a static cut)
----------------------------------------------------
``dest(2)`` is column 0 of its suit's row (fixed) or every column-0 cell (any-two); ``dest(x) = {p + 1 :
p in reach(x - 1), p not in the last column}``; ``reach(x) = {dealt cell} + dest(x)``. Then the earliest
state ``arr(c, p)`` in which card c can stand in cell p is bounded below by the least fixpoint of
``arr(c, p) = max(arr(c - 1, p - 1), leave(p)) + 1`` (``arr(c - 1, dealt cell) = 0``; ``leave(p)`` = 0 for
a dealt gap, else the earliest arrival of p's dealt card anywhere else). Sound by induction on time: the
move into p needs c - 1 in p - 1 and p empty, so p's dealt card has already arrived somewhere. Pairs
with no finite arrival are never reached and are dropped; a card left with no target never moves
(``ub = 0``). This prunes dead gaps (a gap right of a King, a cell whose card can never leave, chains
of these) before any search: many lost deals come out with a horizon of a few moves, or none.

Entries into one cell (the "visits" formulation)
-----------------------------------------------
*Lemma 3.* Let ``entries(x, p)`` count the moves of card x into cell p in a play, and ``stays(x, p) =
entries(x, p) + [x dealt in p]``. For rank >= 3, ``entries(x, p) <= stays(x - 1, p - 1)``. Each move of
x into p needs x - 1 in p - 1 then; between two such moves x left p, by a move into some q != p right of
x - 1 (Lemma 1), so x - 1 was away from p - 1 at that moment: the two moves fall in two different stays
of x - 1 in p - 1. With ``entries(2, home) <= 1`` (Lemma 2) this gives the recursive bound ``mult(x, p)
= mult(x - 1, p - 1) + [x - 1 dealt in p - 1]`` (0 off ``dest``; also at most ``ub(x)``), proven under
fixed-suit. Under any-two a 2 gets ``two_moves`` entries per column-0 cell (the unproven allowance).
Every play is therefore a set of *move events* ``(x, p, i)``, ``i < mult(x, p)``, each used at most
once: 190-245 events on a 4 x 13 deal. So ``ub(x) <= sum_p mult(x, p)`` as well (then Lemma 1 again),
which cuts the horizon ``H`` of 4 x 13 deals from 267-312 to 195-243 (portable deals 1-30).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...engine import EMPTY
from .data import GapsDeal

__all__ = ["Bounds", "bounds"]


@dataclass(frozen=True)
class Bounds:
    """Per-card move bounds and reachable cells (module docstring, Lemmas 1-2)."""

    init: dict[int, int]  # dealt cell of each card
    dest: dict[int, tuple[int, ...]]  # cells a card can move into
    reach: dict[int, tuple[int, ...]]  # dealt cell + dest
    ub: dict[int, int]  # most moves a card can make
    right: dict[int, bool]  # dealt right of its predecessor (Lemma 1, second part)
    proven: bool  # the horizon is proven (fixed-suit); any-two uses the two_moves guess
    arrival: dict[tuple[int, int], int]  # earliest state with card c in cell p (a relaxation)
    mult: dict[tuple[int, int], int]  # most moves of card c into cell p (Lemma 3), pairs with >= 1 only

    @property
    def horizon(self) -> int:
        """Most moves of any plan (a proof only when ``proven``)."""
        return sum(self.ub.values())


def bounds(deal: GapsDeal, two_moves: int = 2) -> Bounds:
    """Move bounds of every card; ``two_moves`` is the (unproven) allowance of a 2 under any-two."""
    R = deal.R
    init = {c: p for p, c in enumerate(deal.grid) if c != EMPTY}
    col0 = tuple(r * R for r in range(deal.rows))
    # Candidate targets by the Lemmas: column 0 for a 2, right of a reachable cell of c - 1 otherwise.
    dest: dict[int, tuple[int, ...]] = {}
    right: dict[int, bool] = {}
    for c in deal.cards:  # by suit then rank: c - 1 comes first
        if deal.rank(c) == 2:
            right[c] = False
            home = deal.suit(c) * R
            if deal.fixed:
                dest[c] = (home,) if init[c] != home else ()
            else:
                dest[c] = col0 if two_moves else ()
        else:
            q = init[c - 1]
            right[c] = init[c] == q + 1 and q % R < R - 1
            reach = {q, *dest[c - 1]}
            dest[c] = tuple(sorted({p + 1 for p in reach if p % R < R - 1}))
    arr = _arrivals(deal, init, dest)
    dest = {c: tuple(p for p in d if (c, p) in arr) for c, d in dest.items()}
    ub: dict[int, int] = {}
    for c in deal.cards:
        if not dest[c]:
            ub[c] = 0
        elif deal.rank(c) == 2:
            ub[c] = 1 if deal.fixed else two_moves
        else:
            ub[c] = ub[c - 1] + (0 if right[c] else 1)
    reach = {c: tuple(sorted({init[c], *dest[c]})) for c in deal.cards}
    arr.update({(c, init[c]): 0 for c in deal.cards})
    mult = _entries(deal, init, dest, ub, two_moves)
    # Lemma 3 also bounds a card's moves by its entries summed over cells; Lemma 1 carries that along.
    into: dict[int, int] = {}
    for (c, _p), k in mult.items():
        into[c] = into.get(c, 0) + k
    for c in deal.cards:
        ub[c] = min(ub[c], into.get(c, 0))
        if deal.rank(c) > 2:
            ub[c] = min(ub[c], ub[c - 1] + (0 if right[c] else 1))
    return Bounds(init, dest, reach, ub, right, deal.fixed, arr, mult)


def _entries(
    deal: GapsDeal, init: dict[int, int], dest: dict[int, tuple[int, ...]], ub: dict[int, int], two_moves: int
) -> dict[tuple[int, int], int]:
    """``mult(c, p)``: most moves of card c into cell p in any play (module docstring, Lemma 3)."""
    mult: dict[tuple[int, int], int] = {}
    for c in deal.cards:  # by suit then rank: c - 1 comes first
        for p in dest[c]:
            if deal.rank(c) == 2:
                k = 1 if deal.fixed else two_moves
            else:
                k = mult.get((c - 1, p - 1), 0) + (1 if init[c - 1] == p - 1 else 0)
            k = min(k, ub[c])
            if k:
                mult[(c, p)] = k
    return mult


def _arrivals(
    deal: GapsDeal, init: dict[int, int], dest: dict[int, tuple[int, ...]]
) -> dict[tuple[int, int], int]:
    """Earliest state in which card c can stand in cell p of ``dest[c]`` (absent: never), a relaxation.

    A move into p at step s needs p empty in state s, so s is at least the first state in which the
    card dealt on p can have left it (its earliest arrival anywhere), and c - 1 in p - 1 in state s:
    ``arr(c, p) = max(arr(c - 1, p - 1), leave(p)) + 1``, computed as a least fixpoint. A cell whose
    dealt card can never move is never a target; a pair that is never reached is dropped.
    """
    inf = 1 << 30
    occupant = {p: c for c, p in init.items()}
    arr: dict[tuple[int, int], int] = {(c, p): inf for c, d in dest.items() for p in d}
    changed = True
    while changed:
        changed = False
        for (c, p), old in arr.items():
            e = occupant.get(p)
            leave = 0 if e is None else min((arr[(e, q)] for q in dest[e]), default=inf)
            if deal.rank(c) == 2:
                pred = 0
            else:
                q = p - 1
                pred = 0 if init[c - 1] == q else arr.get((c - 1, q), inf)
            new = max(pred, leave) + 1
            if new < old:
                arr[(c, p)] = new
                changed = True
    return {key: t for key, t in arr.items() if t < inf}
