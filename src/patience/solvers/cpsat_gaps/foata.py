"""Formulation "foata": the time-indexed model with parallel steps in Foata normal form.

Notation and the bounds ``dest``, ``reach``, ``arr``, ``ub`` and ``H``: :mod:`.bounds`; the variables
``at`` and ``mv`` and the frame axioms are those of "steps" (:mod:`.model`). Why: "steps" orders every
pair of moves, so the search meets each set of commuting moves once per interleaving, and its clause
learning does not carry a refuted state across them. Here a step holds a *set* of pairwise independent
moves, and the plan is the unique Foata normal form of its trace, so each trace is met once.

Independence (a theorem on the rules)
-------------------------------------
A move ``(x, q -> g)`` reads the cells ``q`` (holds x), ``g`` (a gap) and, for rank >= 3, ``g - 1``
(holds x - 1), and writes ``q`` and ``g``. Call two moves *independent* when they move different cards,
and neither writes a cell the other reads or writes. Then, in any grid where both are legal, each stays
legal after the other and both orders give the same grid (neither touches what the other reads); and if
b is legal after an independent a, it was legal before a (a wrote nothing b reads). So the set of legal
plays is closed under swapping adjacent independent moves: each play belongs to a Mazurkiewicz *trace*,
and every trace has a unique *Foata normal form* ``V1 V2 ... Vk``: each ``Vi`` a set of pairwise
independent moves, each move of ``V(i+1)`` dependent on some move of ``Vi`` (Cartier-Foata). Every
linearization of it is a legal play of the trace, so each ``Vi`` is legal as a step from the grid before
it, and ``k`` is at most the number of moves, at most ``H``.

Constraints (step t, from state t to state t + 1)
-------------------------------------------------
1. Every move of the step is legal in state t: the precondition ``mv[t, x, g] -> at[t, x - 1, g - 1]``
   and ``at_most_one(at[t, ., g], mv[t, ., g])`` (the target is a gap then, one move a target), as in
   "steps"; the frame axioms and ``exactly_one(at[t + 1, x, .])`` (one move a card).
2. Moves of one step are pairwise independent. With 1, two moves into distinct gaps read and write
   distinct cells unless one moves x - 1 out of the cell the other's x needs (or x + 1 right of the cell
   x leaves): so *x and x - 1 never move in the same step*.
3. Foata: a move ``b = (y, q -> g)`` of step t (t >= 1) depends on a move of step t - 1. Going through
   the cases of dependence, given 1 and 2: the step before moved y itself (into q), or y + 1 (right of
   y, which stayed in q), or y - 1 into ``g - 1``, or some card out of g (g was occupied in state t - 1).
   Other dependences cannot occur between consecutive Foata steps (a cell emptied in a step is not
   filled in it; x and x - 1 never move together). As a clause: ``not mv[t, y, g] or moving[t - 1, y]
   or moving[t - 1, y + 1] or mv[t - 1, y - 1, g - 1] or (some at[t - 1, ., g])``.
   So an empty step is followed only by empty steps (idle steps only at the end, as in "steps").
4. Goal and arrival pruning as in "steps". ``arr(c, p)`` bounds the steps too: its recurrence (the
   move into p needs c - 1 in p - 1 and p emptied in an earlier step) holds step by step. The per-card
   move bounds of "steps" (Lemmas 1-2, linear constraints over a card's moves) are off unless
   ``card_cuts``: every legal play satisfies them (they are theorems on the rules), so dropping them
   keeps each solution a legal play and each infeasibility a proof; on 4 x 13 they pruned nothing
   measurable (lost deals 29 and 38 were refuted with the same 25.6k and 22.1k conflicts with and
   without them) and their integer propagation cost ~10-35% of the conflict rate (docs/cpsat-gaps-notes.md).
5. A shorter horizon first (``T < H``, the backend's :data:`~.backend.FOATA_DEPTHS`): the goal becomes
   "won in state T, or the last step still moves" (``v.last_any``). Infeasible there means no play has
   a Foata form of T steps or more (its first T steps would be a solution) and none of fewer wins:
   every winning play's form has fewer than T steps and would be a solution, so the deal is lost as at
   H. A solution that ends won is a win; one still moving proves nothing, and the backend goes on to H.
   Why: the search meets its dead ends early, yet propagates the idle tail up to T at every leaf (deal
   21: 779 conflicts at 90 steps, 804 at 213, with 6.3M against 19.9M propagations).
6. Forced settles (``settle``, fixed-suit): a settle move that no other move can disturb before it
   (:mod:`.settle`, theorem and proof there) lies in the step after the state where it is legal. Every
   winning play's normal form satisfies it at every step, so a solution is still a legal play, and in 5
   the first T steps of any winning play of T steps or more are still a solution: infeasibility proves
   the deal lost as before. Measured on 4 x 13 lost deals 24, 31, 47 at 80 steps: 29.8k / 47.9k / 34.2k
   conflicts against 42.9k / 73.1k / 64.0k without it (docs/cpsat-gaps-notes.md).

7. The reach cut (``reach``, fixed-suit, only under a horizon T < H): for the rows the won grid would
   have, every card's home lies in a leveled least-fixpoint relaxation of state T (:mod:`.reach`,
   lemmas and proof there). State T of any winning play satisfies it, so as with 6 a solution is a
   legal play and infeasibility proves the deal lost. Unlike the escape of 5 it is a hard requirement,
   so it propagates back into the steps and cuts the plays that can no longer get every card home.
   Measured on lost 4 x 13 deal 24 at 80 steps, 1 worker: 3.8k conflicts against 29.8k without it.

Soundness: a solution is a play (each step linearized in any order, :func:`decode_foata`), replayed and
validated as every SOLVED. Completeness: a winning play of M <= H moves gives its Foata normal form, k
<= M steps padded with idle ones, a solution; so infeasibility proves the deal lost when the bounds
are proven (fixed-suit). ``normal_form=False`` drops constraint 3 (an ablation: plain parallel steps,
also complete and sound; the tests check the verdicts agree); ``card_cuts=True`` puts the per-card bounds
back, ``settle=False`` drops constraint 6 and ``reach=False`` constraint 7 (ablations too).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ortools.sat.python import cp_model

from .reach import reach_cut
from .settle import settle_cut
from .timeline import card_cuts as cut_cards
from .timeline import cells_and_frame, clause, move_vars, state_vars

__all__ = ["build_foata", "decode_foata"]


def build_foata(
    v: Any,
    goal_rows: Callable[[Any], dict[tuple[int, int], Any]],
    on_time: Callable[[Any], None],
    normal_form: bool = True,
    card_cuts: bool = False,
    settle: bool = False,
    reach: bool = False,
) -> None:
    """Fill ``v.model`` with the foata formulation (module docstring); moves in ``v.mv``; ``settle``: the
    forced-settle cut (:mod:`.settle`, fixed-suit only); ``reach``: the reach cut (:mod:`.reach`,
    fixed-suit only)."""
    m, deal, b, T = v.model, v.deal, v.b, v.horizon
    cards = deal.cards
    at = state_vars(v, on_time)
    row = goal_rows(v)
    goal_lits = [(lit, c, deal.goal(c, r)) for (s, r), lit in row.items() for c in cards if deal.suit(c) == s]
    moves_of: dict[int, list[Any]] = {}
    prev: tuple[dict[tuple[int, int], Any], dict[int, Any], Any] | None = None  # (mv, moving, any)
    for t in range(T):
        on_time(v)
        now, nxt = at[t], at[t + 1]
        mv = move_vars(v, t)
        lits_of: dict[int, list[Any]] = {}
        for (c, _p), lit in mv.items():
            lits_of.setdefault(c, []).append(lit)
        moving: dict[int, Any] = {}
        for c, lits in lits_of.items():
            if len(lits) == 1:
                moving[c] = lits[0]
            else:
                x = m.new_bool_var(f"moving_{t}_{c}")
                m.add_exactly_one([~x, *lits])  # at most one move a card a step, x their or (clausal)
                moving[c] = x
        # any[t]: the step moves something; an empty step only after an empty step (or at the end).
        any_t = m.new_bool_var(f"any_{t}")
        m.add_bool_or([~any_t, *mv.values()])
        for lit in mv.values():
            m.add_implication(lit, any_t)
        if prev is not None:
            m.add_implication(any_t, prev[2])
        v.any_steps.append(any_t)
        # 1. A card of rank >= 3 moves right of its predecessor (in state t).
        for (c, p), lit in mv.items():
            if deal.rank(c) > 2:
                clause(m, [~lit, now[(c - 1, p - 1)]])
        # 2. A card and its predecessor never move in the same step.
        for c, x in moving.items():
            if deal.rank(c) > 2 and c - 1 in moving:
                m.add_bool_or([~x, ~moving[c - 1]])
        # 1. One card a cell; the target of a move is a gap in state t; one move a target.
        cells_and_frame(v, now, nxt, mv, lits_of)  # frame axioms: timeline.py
        # 3. Foata: every move depends on a move of the step before.
        if normal_form and prev is not None:
            _foata_cut(v, t, at[t - 1], mv, prev[0], prev[1])
        # 6. A forced settle of state t is a move of step t (a theorem: settle.py).
        if settle:
            settle_cut(v, now, mv)
        prev = (mv, moving, any_t)
        for c, lits in lits_of.items():
            moves_of.setdefault(c, []).extend(lits)
    # 4. The goal; the per-card move bounds (Lemmas 1-2) only with card_cuts (module docstring).
    if card_cuts:
        cut_cards(m, deal, b, moves_of)
    # With a horizon T under the proven H, a plan may also end still moving (constraint 5).
    escape = [prev[2]] if prev is not None and T < b.horizon else []
    v.last_any = escape[0] if escape else None
    for lit, c, g in goal_lits:
        clause(m, [~lit, at[T].get((c, g), 0), *escape])
    # 7. The reach cut on state T (reach.py): only with the escape (at H the goal implies it).
    if reach and escape:
        reach_cut(v, at[T], goal_lits, on_time)
    # Search order: forward in time, a move before no move (FIXED_SEARCH, as "steps").
    v.fixed_search = True


def _foata_cut(
    v: Any,
    t: int,
    before: dict[tuple[int, int], Any],
    mv: dict[tuple[int, int], Any],
    prev_mv: dict[tuple[int, int], Any],
    prev_moving: dict[int, Any],
) -> None:
    """Constraint 3 of the module docstring for step t (``before``: state t - 1)."""
    m, deal = v.model, v.deal
    occupants: dict[int, list[Any]] = {}
    for (_c, p), x in before.items():
        occupants.setdefault(p, []).append(x)
    for (y, g), lit in mv.items():
        occ = occupants.get(g, [])
        if any(isinstance(x, int) and x == 1 for x in occ):
            continue  # g held its dealt card in state t - 1: emptied by the step before
        wit = [~lit, *(x for x in occ if not isinstance(x, int))]
        if y in prev_moving:
            wit.append(prev_moving[y])
        if deal.rank(y) < deal.R and y + 1 in prev_moving:
            wit.append(prev_moving[y + 1])
        if deal.rank(y) > 2 and (y - 1, g - 1) in prev_mv:
            wit.append(prev_mv[(y - 1, g - 1)])
        m.add_bool_or(wit)


def decode_foata(v: Any, solver: cp_model.CpSolver) -> list[tuple[int, int]]:
    """The plan as ``(card, target cell)`` pairs: the steps in order, each in card order (any is legal)."""
    chosen = sorted((t, c, p) for (t, c, p), lit in v.mv.items() if solver.boolean_value(lit))
    return [(c, p) for _, c, p in chosen]
