"""The CP-SAT models of a Gaps deal: the "steps" and "events" formulations, and decoding a plan.

"visits" (an ordering formulation over move events of fixed card and cell) is in :mod:`.visits`, and
"foata", the default ("steps" with parallel steps in Foata normal form), in :mod:`.foata`.

Notation and the bounds ``ub``, ``dest``, ``reach``, ``arr`` and ``H``: :mod:`.bounds`. "foata" is the
default: it decides the most (4 x 13 deals 1-30 at 30 s: 18 against 2-3 for "steps"; measurements:
docs/cpsat-gaps-notes.md).

Formulation "steps" (time-indexed planning, the default until "foata")
----------------------------------------------------------------------
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
the arrival pruning of :mod:`.bounds`. Optional (``order_cut``): partial-order reduction, two
consecutive moves that commute come in increasing card order (:func:`_order_cut` proves it sound); off
by default, as is "an idle step only in a won grid" (measurements: docs/cpsat-gaps-notes.md).

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
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from .bounds import Bounds
from .data import GapsDeal
from .foata import build_foata, decode_foata
from .timeline import card_cuts, cells_and_frame, move_vars, state_vars
from .timeline import clause as _clause
from .visits import build_visits, decode_visits

__all__ = ["FORMULATIONS", "MAX_MODEL_LITERALS", "ModelVars", "OutOfTime", "build_model", "decode"]

FORMULATIONS = ("foata", "steps", "events", "visits")  # the first is the default (module docstring)


@dataclass
class ModelVars:
    """Handles on a built model (tuple-keyed dicts, see the module docstring)."""

    model: cp_model.CpModel
    deal: GapsDeal
    b: Bounds
    formulation: str
    horizon: int
    order_cut: bool = False  # partial-order cut (steps)
    normal_form: bool = True  # the Foata cut (foata; False: plain parallel steps, an ablation)
    card_cuts: bool = False  # the per-card move bounds in foata (an ablation; steps always has them)
    last_any: Any = None  # foata under a horizon below the proven one: "the last step moves"
    any_steps: list[Any] = field(default_factory=list)  # foata: any_steps[t], "step t moves something"
    fixed_search: bool = False  # steps, foata: the backend's fixed search branches on mv (ORDERS)
    strategy: str = ""  # the order whose decision strategy the model holds (added once, backend.py)
    mv: dict[tuple[int, int, int], Any] = field(default_factory=dict)  # mv[(t, c, p)] (steps)
    act: dict[tuple[int, int], Any] = field(default_factory=dict)  # act[(c, k)] (events)
    time: dict[tuple[int, int], Any] = field(default_factory=dict)  # time[(c, k)] (events)
    loc: dict[tuple[int, int], Any] = field(default_factory=dict)  # loc[(c, k)] (events)
    events: dict[tuple[int, int, int], Any] = field(default_factory=dict)  # (act, time) per event (visits)
    sel: dict[tuple[int, int, int], Any] = field(default_factory=dict)  # predecessor-stay choice (visits)
    deadline: float = float("inf")  # perf_counter() time by which building must end (OutOfTime)


class OutOfTime(Exception):
    """Model building ran past its deadline (the time limit covers building, not only the search)."""


MAX_MODEL_LITERALS = 20_000_000  # steps, foata: horizon x reachable (card, cell) pairs; 4 x 13 needs under 1M


def _on_time(v: ModelVars) -> None:
    if time.perf_counter() > v.deadline:
        raise OutOfTime


def build_model(
    deal: GapsDeal,
    b: Bounds,
    formulation: str = FORMULATIONS[0],
    horizon: int | None = None,
    order_cut: bool = False,
    deadline: float = float("inf"),
    normal_form: bool = True,
    card_cuts: bool = False,
    settle: bool = False,
    reach: bool = False,
) -> ModelVars:
    """Build the CP-SAT model (module docstring); ``horizon`` defaults to the bound ``b.horizon``;
    ``normal_form`` False drops the Foata cut of "foata" and ``card_cuts`` True adds its per-card move
    bounds (:mod:`.foata`); ``settle`` adds its forced-settle cut (:mod:`.settle`) and ``reach`` its reach
    cut (:mod:`.reach`), both on fixed-suit deals only, ignored under any-two.

    Raises :class:`OutOfTime` once ``perf_counter()`` passes ``deadline`` (checked every step or card).
    """
    if formulation not in FORMULATIONS:
        raise ValueError(f"unknown formulation {formulation!r} ({', '.join(FORMULATIONS)})")
    T = b.horizon if horizon is None else horizon
    v = ModelVars(
        cp_model.CpModel(), deal, b, formulation, T, order_cut, normal_form, card_cuts, deadline=deadline
    )
    if formulation == "steps":
        _steps(v)
    elif formulation == "foata":
        fixed = deal.fixed
        build_foata(v, _goal_rows, _on_time, normal_form, card_cuts, settle and fixed, reach and fixed)
    elif formulation == "visits":
        build_visits(v, _goal_rows, _on_time)
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


def _steps(v: ModelVars) -> None:
    """Time-indexed model: at[t, c, p], mv[t, c, p], frame axioms as clauses, one move per step."""
    m, deal, b, T = v.model, v.deal, v.b, v.horizon
    cards, R = deal.cards, deal.R
    ncells = deal.rows * R
    at = state_vars(v, _on_time)  # at[t][(c, p)]: card c in cell p in state t (timeline.py)
    row = _goal_rows(v)
    goal_lits = [(lit, c, deal.goal(c, r)) for (s, r), lit in row.items() for c in cards if deal.suit(c) == s]
    moves_of: dict[int, list[Any]] = {}
    prev: tuple[Any, Any, Any, Any] | None = None  # (any, who, dst, src) of the previous step
    big = max(cards, default=0) + 2
    for t in range(T):
        _on_time(v)
        now, nxt = at[t], at[t + 1]
        mv = move_vars(v, t)  # mv[(c, p)]: step t moves card c into cell p
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
        cells_and_frame(v, now, nxt, mv, moving)  # one card a cell, targets are gaps, frame axioms
        for c, lits in moving.items():
            moves_of.setdefault(c, []).extend(lits)
        if v.order_cut:
            occ = [[now[(c, p)] for c in cards if (c, p) in now] for p in range(ncells)]
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
    card_cuts(m, deal, b, moves_of)
    # Goal.
    for lit, c, g in goal_lits:
        if (c, g) in at[T]:
            _clause(m, [~lit, at[T][(c, g)]])
    # Search order: forward in time, a move before no move (FIXED_SEARCH and ORDERS in backend.py).
    v.fixed_search = True


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


def decode(v: ModelVars, solver: cp_model.CpSolver) -> list[tuple[int, int]]:
    """The plan as ``(card, target cell)`` pairs in order."""
    if v.formulation == "steps":
        chosen = sorted((t, c, p) for (t, c, p), lit in v.mv.items() if solver.boolean_value(lit))
        return [(c, p) for _, c, p in chosen]
    if v.formulation == "visits":
        return decode_visits(v, solver)
    if v.formulation == "foata":
        return decode_foata(v, solver)
    events = []
    for (c, k), a in v.act.items():
        if k and solver.boolean_value(a):
            events.append((solver.value(v.time[(c, k)]), c, solver.value(v.loc[(c, k)])))
    events.sort()
    return [(c, p) for _, c, p in events]
