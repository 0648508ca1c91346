"""CP-SAT models for the Gaps family without redeals (Gaps basic variant, Gaps one deal, generalized).

Supported rules (:func:`family_supports`): a Gaps grid (``gaps.rows`` > 0), one deck, no redeal; both
first-column policies (``fixed-suit``: row r takes only the 2 of suit r; ``any-two``). Other Gaps rules
answer UNSUPPORTED.

Notation: ``R`` ranks, so a row has ``R`` cells holding ``R - 1`` cards (the aces are removed) and gaps;
cell ``p`` is row ``p // R``, column ``p % R``; card code ``c = suit * R + rank - 1``, so the same-suit
predecessor of a card of rank >= 3 is ``c - 1``. A move takes a card into a gap: into a gap in column 0
a 2 (of the row's suit when fixed), into any other gap the successor of its left neighbour (nothing
after a King, nothing after a gap). Won: every row holds 2..R of one suit from column 0.

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

Formulation "steps" (time-indexed planning, the default)
--------------------------------------------------------
Horizon ``T = H``, steps ``t = 0..T-1``, states ``t = 0..T``.

* ``at[t, c, p]`` (bool): card c is in cell p in state t; the constant 0 for ``t < arr(c, p)`` and the
  deal at t = 0.
* ``mv[t, c, p]`` (bool, for ``p`` in ``dest(c)``, ``t + 1 >= arr(c, p)``): step t moves c into p.
* ``row[s, r]`` (bool, a permutation matrix): suit s ends in row r.

Constraints: (1) ``exactly_one(not any[t], mv[t, ...])``: at most one move a step, and ``any[t + 1] ->
any[t]`` (idle steps only at the end; sound, dropping idle steps keeps a plan legal); (2) precondition
``mv[t, c, p] -> at[t, c - 1, p - 1]`` for rank >= 3 (the domain of p already encodes column 0 for 2s
and not column 0 for the rest); (3) ``at_most_one(at[t, ., p], mv[t, ., p])``: one card a cell, and the
target of a move is a gap; (4) frame axioms as clauses, ``mv[t, c, p] -> at[t + 1, c, p]``, ``at[t, c,
p] -> at[t + 1, c, p] or (some mv[t, c, .])``, ``at[t + 1, c, p] -> at[t, c, p] or mv[t, c, p]``, with
``exactly_one(at[t + 1, c, .])``; (5) goal ``row[s, r] -> at[T, c, r R + rank(c) - 2]``.
Cuts: ``sum_t mv[t, c, .] <= ub(c)`` and ``<= moves(c - 1) + [c not dealt right of c - 1]`` (Lemma 1);
the arrival pruning above. Optional (``order_cut``): partial-order reduction, two consecutive moves that
commute come in increasing card order (:func:`_order_cut` proves it sound); measured neutral to
negative (4 x 8 lost deals 4, 5, 7: 7.7 / 14.3 / 11.3 s with it, 8.2 / 6.5 / 29.4 s without, load ~3.5)
and it doubles the build time, so it is off. Tried and dropped: "an idle step only in a won grid" (T x
cards extra clauses) made the same three deals 2-4x slower.

Parameters (measured on 4 x 8 deal 4, load ~3.8): the default CP-SAT spent 26 s of 30 in presolve
(probing) with 0 conflicts; without presolve, probing, linearization, symmetry detection and SAT
inprocessing, and with a fixed search branching on ``mv`` forward in time, a move before no move
(a depth-first search over plans with clause learning), the same deal is refuted in ~7 s.

Formulation "events" (per-card move events)
-------------------------------------------
Lemma 1 gives each card a fixed number of optional move *events* ``k = 1..ub(c)``.

* ``act[c, k]`` (bool): card c makes at least k moves; ``act[c, k + 1] -> act[c, k]``.
* ``time[c, k]`` in ``1..H``: the step of its k-th move; ``loc[c, k]`` in ``dest(c)``: where it lands
  (``loc[c, 0]`` the dealt cell, ``time[c, 0] = 0``); ``end[c, k]`` = ``time[c, k + 1]`` when that event
  happens, else ``H + 1``. Card c occupies ``loc[c, k]`` during ``[time[c, k], end[c, k])``.
* ``sel[c, k, j]`` (bool, rank >= 3): the k-th move of c lands right of c - 1 lying where its j-th move
  put it: ``sum_j sel[c, k, j] = act[c, k]`` and ``sel -> act[c - 1, j], time[c - 1, j] < time[c, k] <
  end[c - 1, j], loc[c, k] = loc[c - 1, j] + 1``.

Constraints: the rectangles ``[loc, loc + 1) x [time, end)`` of present segments do not overlap
(``NoOverlap2D``: one card a cell, and the target of a move is a gap at that step); the unit intervals
``[time[c, k], time[c, k] + 1)`` of active events do not overlap (one move per step); a move changes
the cell (``loc[c, k] != loc[c, k - 1]``); the last segment of every card ends in its goal cell
``R row[s] + rank - 2`` with ``row`` a permutation (``AddAllDifferent``).
Cuts: (a) compaction: every active time is ``<=`` the number of active events (sound: deleting idle
steps keeps a plan legal, so the event times can be taken to be exactly 1..M); (b) the chosen ``j``
strictly increases with k (two consecutive moves of c right of the same segment of c - 1 would land
in the cell c already occupies), and ``j >= 1`` for the first move of a card dealt right of c - 1 —
Lemma 1 inside the model; (c) the per-card bounds ``ub`` are the event counts. Default CP-SAT
parameters (1 worker).

Measured (basic variant, ``portable`` deals from seed 0, 30 s a deal, 1 worker, load 3.8-4.1 on 2
shared cores; every verdict agreed with dfs):

    ======  ===================  =========================  =========================  ==========
    grid    deals (won)          steps: decided, med / max  events: decided, med / max  dfs median
    ======  ===================  =========================  =========================  ==========
    3 x 4   0-9 (7)              10/10, 0.02 / 0.03 s       10/10, 0.04 / 0.09 s       < 0.01 s
    4 x 5   0-9 (4)              10/10, 0.10 / 0.18 s       10/10, 0.10 / 1.23 s       < 0.01 s
    4 x 6   0-9 (3)              10/10, 0.24 / 0.82 s       10/10, 0.81 / 5.84 s       < 0.01 s
    4 x 8   0-7 (2)              8/8, 0.95 / 29.1 s         3/8, 8.0 / 16.9 s          0.03 s
    4 x 13  0-5 (0)              2/6, 12.0 / 21.5 s         1/6, 0.09 s                1.25 s
    ======  ===================  =========================  =========================  ==========

4 x 13 (the real basic variant, horizons 267-312, build 2.5-10 s in Python): steps proves deals 0 and 4
lost (deal 4 by the arrival pruning alone: events 0.09 s); deals 1, 2, 3, 5 stay unknown at 30 s
although dfs refutes them in 0.7-2.4 s (a time-indexed model relearns each state at every step).
Of the won deals 8, 10, 12 steps solves 10 (91 moves, 12.5 s) and not 8 and 12; a shorter horizon
(120, 160) did not find them either. So CP-SAT stops deciding within 30 s between 4 x 8 and 4 x 13.

So "steps" is the default; "events" builds in a fraction of the time and is competitive on small lost
deals, but its scheduling relaxation proves little on 4 x 8 and larger.

Every SOLVED result is decoded into engine moves, each replayed as legal in an
:class:`~patience.engine.Engine`, then checked by :func:`patience.validate.replay` in
:meth:`patience.solvers.base.Backend.solve`.
"""

from __future__ import annotations

import time
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from ..engine import EMPTY, GRID, Engine
from ..instance import Instance
from ..interrupt import solve_cpsat
from ..rules import RuleSet
from .base import Backend, Limits, Reason, Result, Status
from .registry import gaps_family

__all__ = [
    "FORMULATIONS",
    "Bounds",
    "CpSatGaps",
    "CpSatGapsOptions",
    "GapsDeal",
    "bounds",
    "build_model",
    "family_supports",
]

FORMULATIONS = ("steps", "events")  # the first is the default (measured: module docstring)


family_supports = gaps_family  # Gaps grids of one deck without redeals (registry.gaps_family)


# Data ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GapsDeal:
    """A Gaps deal as numbers: the flat grid (row-major, width R, ``EMPTY`` for a gap)."""

    R: int
    rows: int
    fixed: bool  # first column takes only the row's suit (basic variant)
    grid: tuple[int, ...]

    @classmethod
    def from_instance(cls, inst: Instance) -> GapsDeal:
        """Read the dealt grid through the engine (codes as in :class:`Engine`)."""
        eng = Engine(inst)
        return cls(eng.R, eng.rows, eng.fixed_suit_twos, tuple(eng.grid))

    @property
    def cards(self) -> list[int]:
        """Card codes on the grid, by suit then rank."""
        return sorted(c for c in self.grid if c != EMPTY)

    def rank(self, c: int) -> int:
        """Rank of card ``c`` (2..R)."""
        return c % self.R + 1

    def suit(self, c: int) -> int:
        """Suit of card ``c``."""
        return c // self.R

    def goal(self, c: int, row: int) -> int:
        """The cell of card ``c`` in a won grid whose row ``row`` holds its suit."""
        return row * self.R + self.rank(c) - 2

    def won(self) -> bool:
        """True when the dealt grid is already won."""
        R = self.R
        for r in range(self.rows):
            row = self.grid[r * R : (r + 1) * R]
            if row[-1] != EMPTY or row[0] == EMPTY or self.rank(row[0]) != 2:
                return False
            if any(row[k] != row[0] + k for k in range(R - 1)):
                return False
        return True


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
    return Bounds(init, dest, reach, ub, right, deal.fixed, arr)


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


# Model --------------------------------------------------------------------------------------------
@dataclass
class ModelVars:
    """Handles on a built model (tuple-keyed dicts, see the module docstring)."""

    model: cp_model.CpModel
    deal: GapsDeal
    b: Bounds
    formulation: str
    horizon: int
    order_cut: bool = False  # partial-order cut (steps)
    decisions: list[Any] = field(default_factory=list)  # fixed search order (steps)
    mv: dict[tuple[int, int, int], Any] = field(default_factory=dict)  # mv[(t, c, p)] (steps)
    act: dict[tuple[int, int], Any] = field(default_factory=dict)  # act[(c, k)] (events)
    time: dict[tuple[int, int], Any] = field(default_factory=dict)  # time[(c, k)] (events)
    loc: dict[tuple[int, int], Any] = field(default_factory=dict)  # loc[(c, k)] (events)
    deadline: float = float("inf")  # perf_counter() time by which building must end (OutOfTime)


class OutOfTime(Exception):
    """Model building ran past its deadline (the time limit covers building, not only the search)."""


MAX_MODEL_LITERALS = 20_000_000  # steps: horizon x reachable (card, cell) pairs; 4 x 13 needs under 1M


def _on_time(v: ModelVars) -> None:
    if time.perf_counter() > v.deadline:
        raise OutOfTime


def build_model(
    deal: GapsDeal,
    b: Bounds,
    formulation: str = "steps",
    horizon: int | None = None,
    order_cut: bool = False,
    deadline: float = float("inf"),
) -> ModelVars:
    """Build the CP-SAT model (module docstring); ``horizon`` defaults to the bound ``b.horizon``.

    Raises :class:`OutOfTime` once ``perf_counter()`` passes ``deadline`` (checked every step or card).
    """
    if formulation not in FORMULATIONS:
        raise ValueError(f"unknown formulation {formulation!r} ({', '.join(FORMULATIONS)})")
    T = b.horizon if horizon is None else horizon
    v = ModelVars(cp_model.CpModel(), deal, b, formulation, T, order_cut, deadline=deadline)
    if formulation == "steps":
        _steps(v)
    else:
        _events(v)
    return v


def _goal_rows(v: ModelVars) -> dict[tuple[int, int], Any]:
    """row[(s, r)]: suit s ends in row r (a permutation matrix); impossible pairs fixed to 0."""
    m, deal, b = v.model, v.deal, v.b
    row: dict[tuple[int, int], Any] = {}
    for s in range(deal.rows):
        for r in range(deal.rows):
            lit = m.new_bool_var(f"row_{s}_{r}")
            row[(s, r)] = lit
            cards = [c for c in deal.cards if deal.suit(c) == s]
            if any(deal.goal(c, r) not in b.reach[c] for c in cards):
                m.add(lit == 0)
    for s in range(deal.rows):
        m.add_exactly_one(row[(s, r)] for r in range(deal.rows))
        m.add_exactly_one(row[(r, s)] for r in range(deal.rows))
    return row


def _clause(m: cp_model.CpModel, lits: list[Any]) -> None:
    """Add the clause ``or(lits)``; constant literals (0/1) are folded in."""
    if any(x is True or (isinstance(x, int) and not isinstance(x, bool) and x == 1) for x in lits):
        return
    rest = [x for x in lits if not isinstance(x, int)]
    if not rest:
        m.add_bool_or([m.new_constant(0)])
    else:
        m.add_bool_or(rest)


def _neg(x: Any) -> Any:
    """Negation of a literal or of a constant 0/1."""
    return 1 - x if isinstance(x, int) else ~x


def _steps(v: ModelVars) -> None:
    """Time-indexed model: at[t, c, p], mv[t, c, p], frame axioms as clauses, one move per step."""
    m, deal, b, T = v.model, v.deal, v.b, v.horizon
    cards, R = deal.cards, deal.R
    ncells = deal.rows * R
    arr = b.arrival
    # at[t][(c, p)]: card c in cell p in state t (the constant 0 before its earliest arrival).
    at: list[dict[tuple[int, int], Any]] = []
    at.append({(c, p): int(p == b.init[c]) for c in cards for p in b.reach[c]})
    for t in range(1, T + 1):
        _on_time(v)
        at.append(
            {
                (c, p): m.new_bool_var(f"at_{t}_{c}_{p}") if t >= arr[(c, p)] else 0
                for c in cards
                for p in b.reach[c]
            }
        )
    row = _goal_rows(v)
    goal_lits = [(lit, c, deal.goal(c, r)) for (s, r), lit in row.items() for c in cards if deal.suit(c) == s]
    moves_of: dict[int, list[Any]] = {}
    prev: tuple[Any, Any, Any, Any] | None = None  # (any, who, dst, src) of the previous step
    big = max(cards, default=0) + 2
    for t in range(T):
        _on_time(v)
        now, nxt = at[t], at[t + 1]
        # mv[(c, p)]: step t moves card c into cell p.
        mv = {
            (c, p): m.new_bool_var(f"mv_{t}_{c}_{p}")
            for c in cards
            for p in b.dest[c]
            if t + 1 >= arr[(c, p)]
        }
        for (c, p), lit in mv.items():
            v.mv[(t, c, p)] = lit
        moving: dict[int, list[Any]] = {}
        for (c, _p), lit in mv.items():
            moving.setdefault(c, []).append(lit)
        # At most one move per step; idle steps only at the end.
        any_t = m.new_bool_var(f"any_{t}")
        m.add_exactly_one([~any_t, *mv.values()])
        if prev is not None:
            m.add_implication(any_t, prev[0])
        # A card of rank >= 3 moves right of its predecessor.
        for (c, p), lit in mv.items():
            if deal.rank(c) > 2:
                _clause(m, [~lit, now[(c - 1, p - 1)]])
        # One card a cell; the target of a move is a gap.
        occ = [[now[(c, p)] for c in cards if (c, p) in now] for p in range(ncells)]
        for p in range(ncells):
            terms = [x for x in occ[p] if not isinstance(x, int)] + [
                mv[(c, p)] for c in cards if (c, p) in mv
            ]
            fixed = sum(x for x in occ[p] if isinstance(x, int))
            if fixed:
                for x in terms:
                    m.add(x == 0)
            elif len(terms) > 1:
                m.add_at_most_one(terms)
        # Frame axioms: at' <-> mv or (at and not moving); each card in exactly one cell.
        for c in cards:
            mc = moving.get(c, [])
            for p in b.reach[c]:
                a0, a1, mp = now[(c, p)], nxt[(c, p)], mv.get((c, p), 0)
                _clause(m, [_neg(mp), a1])
                _clause(m, [_neg(a0), a1, *mc])
                _clause(m, [_neg(a1), a0, mp])
            cells = [nxt[(c, p)] for p in b.reach[c] if not isinstance(nxt[(c, p)], int)]
            m.add_exactly_one(cells)
        for c, lits in moving.items():
            moves_of.setdefault(c, []).extend(lits)
        if v.order_cut:
            # Partial-order cut: consecutive independent moves come in increasing card order.
            who = sum(c * lit for (c, _p), lit in mv.items()) + big * (1 - any_t)
            dst = sum(p * lit for (_c, p), lit in mv.items())
            # The cell the step empties: occupied before, empty after, unless it is also the target.
            src = sum(
                p
                * (
                    sum(occ[p])
                    - sum(nxt[(c, q)] for c, q in nxt if q == p)
                    + sum(mv.get((c, p), 0) for c in cards)
                )
                for p in range(ncells)
            )
            if prev is not None:
                _order_cut(m, t, prev, who, dst)
            prev = (any_t, who, dst, src)
        else:
            prev = (any_t, None, None, None)
    # Cuts: per-card move bounds (Lemmas 1-2).
    total = {c: sum(moves_of.get(c, [])) for c in cards}
    for c in cards:
        if c in moves_of:
            m.add(total[c] <= b.ub[c])
            if deal.rank(c) > 2:
                m.add(total[c] <= total[c - 1] + (0 if b.right[c] else 1))
    # Goal.
    for lit, c, g in goal_lits:
        if (c, g) in at[T]:
            _clause(m, [~lit, at[T][(c, g)]])
    # Search order: forward in time, a move before no move (FIXED_SEARCH in _parameters).
    v.decisions = [v.mv[key] for key in sorted(v.mv)]


def _order_cut(m: cp_model.CpModel, t: int, prev: tuple[Any, Any, Any, Any], who: Any, dst: Any) -> None:
    """Step t moves a lower card than step t - 1 only when the two moves depend on each other.

    Moves A (card c from a to p) then B (card d from b to q) commute when d is not c + 1 (B lands
    right of c), c is not d + 1 (A needed d where it was) and q != a (B fills the cell A emptied): B's
    target was then already a gap and its predecessor already in place before A, A's target is still a
    gap and its predecessor still in place after B, and both orders give the same grid. Of the winning
    plans of a given length the one whose sequence of card codes is lexicographically least has no
    such pair in decreasing order (swapping it gives a smaller one), so the cut keeps a win.
    """
    _, who0, _, src0 = prev
    lower = m.new_bool_var(f"lower_{t}")
    m.add(who >= who0).only_enforce_if(~lower)
    succ = m.new_bool_var(f"pred_of_prev_{t}")
    m.add(who == who0 - 1).only_enforce_if(succ)
    refill = m.new_bool_var(f"refill_{t}")
    m.add(dst == src0).only_enforce_if(refill)
    m.add_bool_or([~lower, succ, refill])


def _events(v: ModelVars) -> None:
    """Per-card move events: occupancy rectangles, predecessor segments, goal cells."""
    m, deal, b, H = v.model, v.deal, v.b, v.horizon
    cards, R = deal.cards, deal.R
    n_events = sum(b.ub.values())
    count = m.new_int_var(0, n_events, "events")
    act_all: list[Any] = []
    end: dict[tuple[int, int], Any] = {}
    rects_x: list[Any] = []
    rects_y: list[Any] = []
    steps: list[Any] = []
    for c in cards:
        _on_time(v)
        v.act[(c, 0)] = 1
        v.time[(c, 0)] = 0
        v.loc[(c, 0)] = b.init[c]
        for k in range(1, b.ub[c] + 1):
            a = m.new_bool_var(f"act_{c}_{k}")
            v.act[(c, k)] = a
            v.time[(c, k)] = m.new_int_var(1, max(H, 1), f"time_{c}_{k}")
            v.loc[(c, k)] = m.new_int_var_from_domain(cp_model.Domain.from_values(b.dest[c]), f"loc_{c}_{k}")
            act_all.append(a)
            if k > 1:
                m.add_implication(a, v.act[(c, k - 1)])
                m.add(v.time[(c, k)] > v.time[(c, k - 1)]).only_enforce_if(a)
            # A move changes the cell.
            m.add(v.loc[(c, k)] != v.loc[(c, k - 1)]).only_enforce_if(a)
            # Compaction: event times are 1..(number of events).
            m.add(v.time[(c, k)] <= count).only_enforce_if(a)
            steps.append(m.new_optional_fixed_size_interval_var(v.time[(c, k)], 1, a, f"step_{c}_{k}"))
        for k in range(b.ub[c] + 1):
            e = m.new_int_var(1, H + 1, f"end_{c}_{k}")
            end[(c, k)] = e
            if k < b.ub[c]:
                nxt = v.act[(c, k + 1)]
                m.add(e == v.time[(c, k + 1)]).only_enforce_if(nxt)
                m.add(e == H + 1).only_enforce_if(~nxt)
            else:
                m.add(e == H + 1)
            pres = v.act[(c, k)]
            start = v.time[(c, k)]
            size = m.new_int_var(0, H + 1, f"seg_len_{c}_{k}")
            if k == 0:
                rects_y.append(m.new_interval_var(start, size, e, f"seg_t_{c}_{k}"))
                rects_x.append(m.new_fixed_size_interval_var(v.loc[(c, k)], 1, f"seg_p_{c}_{k}"))
            else:
                rects_y.append(m.new_optional_interval_var(start, size, e, pres, f"seg_t_{c}_{k}"))
                rects_x.append(
                    m.new_optional_fixed_size_interval_var(v.loc[(c, k)], 1, pres, f"seg_p_{c}_{k}")
                )
    m.add(count == sum(act_all))
    # One card a cell at a time (and so the target of a move is a gap then); one move per step.
    m.add_no_overlap_2d(rects_x, rects_y)
    m.add_no_overlap(steps)
    # A card of rank >= 3 lands right of its predecessor, which lies in one of its segments then.
    for c in cards:
        _on_time(v)
        if deal.rank(c) == 2 or not b.ub[c]:
            continue
        jprev: Any = None
        for k in range(1, b.ub[c] + 1):
            a, tk, lk = v.act[(c, k)], v.time[(c, k)], v.loc[(c, k)]
            sels = []
            jexpr = 0
            for j in range(b.ub[c - 1] + 1):
                if k == 1 and j == 0 and b.right[c]:
                    continue  # the cell right of c - 1 holds c itself (cut b)
                if j == 0 and b.init[c - 1] + 1 not in b.dest[c]:
                    continue
                s = m.new_bool_var(f"sel_{c}_{k}_{j}")
                sels.append(s)
                jexpr += j * s
                if j:
                    m.add_implication(s, v.act[(c - 1, j)])
                    m.add(v.time[(c - 1, j)] < tk).only_enforce_if(s)
                m.add(tk < end[(c - 1, j)]).only_enforce_if(s)
                m.add(lk == v.loc[(c - 1, j)] + 1).only_enforce_if(s)
            m.add(sum(sels) == a)
            # Cut b: successive moves use strictly later segments of c - 1.
            if jprev is not None:
                m.add(jexpr >= jprev + 1).only_enforce_if(a)
            jprev = jexpr
    # Goal: the last segment of every card is its goal cell in its suit's row.
    rows = [m.new_int_var(0, deal.rows - 1, f"row_of_{s}") for s in range(deal.rows)]
    m.add_all_different(rows)
    perm = _goal_rows(v)
    for (s, r), lit in perm.items():
        m.add(rows[s] == r).only_enforce_if(lit)
    for c in cards:
        _on_time(v)
        goal = rows[deal.suit(c)] * R + deal.rank(c) - 2
        for k in range(b.ub[c] + 1):
            last = [v.act[(c, k + 1)]] if k < b.ub[c] else []
            ct = m.add(v.loc[(c, k)] == goal)
            if k == 0:
                if last:
                    ct.only_enforce_if(~last[0])
            else:
                ct.only_enforce_if([v.act[(c, k)], *[~x for x in last]])


# Solving ------------------------------------------------------------------------------------------
def _parameters(v: ModelVars, seconds: float, workers: int) -> cp_model.CpSolver:
    """CP-SAT parameters per formulation (measured choices: module docstring)."""
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.max_time_in_seconds = max(seconds, 0.01)
    p.num_workers = workers
    if v.formulation == "steps":
        # Presolve, probing, symmetry detection and inprocessing cost seconds on this large clausal model
        # and pay nothing back; forward search in time (a DFS with clause learning) refutes best.
        p.cp_model_presolve = False
        p.cp_model_probing_level = 0
        p.linearization_level = 0
        p.symmetry_level = 0
        p.use_sat_inprocessing = False
        if v.decisions:
            v.model.add_decision_strategy(v.decisions, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
            p.search_branching = cp_model.FIXED_SEARCH
    return solver


# Decoding -----------------------------------------------------------------------------------------
def decode(v: ModelVars, solver: cp_model.CpSolver) -> list[tuple[int, int]]:
    """The plan as ``(card, target cell)`` pairs in order."""
    if v.formulation == "steps":
        chosen = sorted((t, c, p) for (t, c, p), lit in v.mv.items() if solver.boolean_value(lit))
        return [(c, p) for _, c, p in chosen]
    events = []
    for (c, k), a in v.act.items():
        if k and solver.boolean_value(a):
            events.append((solver.value(v.time[(c, k)]), c, solver.value(v.loc[(c, k)])))
    events.sort()
    return [(c, p) for _, c, p in events]


def to_moves(inst: Instance, plan: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """Replay the plan in an Engine (each move must be legal there) and return the JSON moves."""
    eng = Engine(inst)
    out = []
    for c, p in plan:
        move = (GRID, eng.grid.index(c), GRID, p, 1)
        if not eng.is_legal(move):
            raise RuntimeError(f"decoded move of card {c} into cell {p} is not legal in the engine")
        out.append(eng.move_to_json(move))
        eng.apply(move)
    return out


# Solving ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CpSatGapsOptions:
    """Options of ``cpsat-gaps``: ``formulation`` one of :data:`FORMULATIONS`; ``two_moves``: moves
    allowed to each 2 under any-two (no proof, so infeasibility there is UNKNOWN); ``workers``: CP-SAT
    search workers; ``order_cut``: the order cut of the steps model (:func:`_order_cut`)."""

    formulation: str = "steps"
    _: KW_ONLY
    two_moves: int = 2
    workers: int = 1
    order_cut: bool = False

    def __post_init__(self) -> None:
        if self.formulation not in FORMULATIONS:
            raise ValueError(f"unknown formulation {self.formulation!r} ({', '.join(FORMULATIONS)})")


class CpSatGaps(Backend):
    """CP-SAT backend for Gaps without redeals (module docstring; options: :class:`CpSatGapsOptions`)."""

    name = "cpsat-gaps"
    Options = CpSatGapsOptions
    options: CpSatGapsOptions

    def supports(self, rules: RuleSet) -> bool:
        """Gaps grids of one deck without redeals."""
        return family_supports(rules)

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        """Decide the deal; SOLVED moves are replayed in the engine (``Backend.solve`` validates them)."""
        opts = self.options
        t0 = time.perf_counter()
        deal = GapsDeal.from_instance(instance)
        b = bounds(deal, opts.two_moves)
        stats: dict[str, float] = {"horizon": float(b.horizon), "horizon_proven": float(b.proven)}
        if deal.won():
            return self._solved(instance, [], stats)
        size = b.horizon * sum(len(b.reach[c]) for c in deal.cards)
        if opts.formulation == "steps" and size > MAX_MODEL_LITERALS:
            msg = f"model too large: {size} literals, over the limit of {MAX_MODEL_LITERALS}"
            return Result(Status.UNKNOWN, None, stats, self.name, msg, Reason.MEMORY)  # a size guard
        try:
            v = build_model(deal, b, opts.formulation, order_cut=opts.order_cut, deadline=t0 + limits.seconds)
        except OutOfTime:
            return Result(
                Status.UNKNOWN, None, stats, self.name, "time limit (building the model)", Reason.TIME
            )
        stats["build_seconds"] = time.perf_counter() - t0
        left = limits.seconds - (time.perf_counter() - t0)
        if left <= 0:
            return Result(
                Status.UNKNOWN, None, stats, self.name, "time limit (building the model)", Reason.TIME
            )
        solver = _parameters(v, left, opts.workers)
        status = solve_cpsat(solver, v.model)
        stats.update(
            conflicts=float(solver.num_conflicts),
            branches=float(solver.num_branches),
            cpsat_seconds=float(solver.wall_time),
        )
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return self._solved(instance, decode(v, solver), stats)
        if status == cp_model.INFEASIBLE:
            if b.proven:
                return Result(Status.UNSOLVABLE, None, stats, self.name)
            msg = f"no plan within horizon {b.horizon} (unproven horizon under any-two: no verdict)"
            return Result(Status.UNKNOWN, None, stats, self.name, msg, Reason.INCOMPLETE)
        if status == cp_model.UNKNOWN:
            return Result(Status.UNKNOWN, None, stats, self.name, "time limit", Reason.TIME)
        return Result(Status.UNKNOWN, None, stats, self.name, f"cp-sat status {solver.status_name(status)}")

    def _solved(self, inst: Instance, plan: list[tuple[int, int]], stats: dict[str, float]) -> Result:
        """SOLVED with the plan as JSON moves (each checked legal in the engine by to_moves)."""
        moves = to_moves(inst, plan)
        stats["plan_length"] = float(len(moves))
        return Result(Status.SOLVED, tuple(moves), stats, self.name)
