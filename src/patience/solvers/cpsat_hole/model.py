"""The CP-SAT models of the Black Hole family: formulations, constraints, symmetry cuts (proofs here).

A win is a sequence of every tableau card into the holes; each hole receives a chain of cards where every
card fits on the previous one (rank one up or down, K-A when wrapping), and a card leaves its pile only
after every card above it (Wolter 2014, section 3; Gent et al.). Data: :class:`~.data.HoleDeal`.

Formulation "circuit" (any number of holes)
-------------------------------------------
Variables:

* ``arc[(u, v)]``: node ``v`` directly follows node ``u`` in one big circuit whose nodes are the cards and
  one node ``H_h`` per hole. The circuit reads ``H_0, chain of hole 0, H_1, chain of hole 1, ..., H_0``.
  Arcs exist only where the rules allow them: card -> card when the second fits on the first;
  ``H_h`` -> card when the card fits on the hole's start card (any card for an empty hole); card ->
  ``H_h`` and ``H_h -> H_(h+1)`` always (a chain may end anywhere, and may be empty).
* ``ord[v]``: position of node ``v`` in the circuit, ``ord[H_0] = 0``.
* ``time[c]``: when card ``c`` reaches its hole. With one hole it is ``ord[c]``; with several holes the
  chains interleave in time, so ``time`` is a separate variable only ordered along each chain.
* ``leave[c]``: when ``c`` leaves the tableau. Without a cell it is ``time[c]``. With a cell (Worm Hole)
  times are doubled: ``leave[c] = 2 time[c]`` for a direct move; a parked card leaves at an odd time
  ``< 2 time[c]`` and occupies the cell over ``[leave[c], 2 time[c])``.
* ``parked[c]`` (cell only): card ``c`` goes through the cell.

Constraints:

1. ``AddCircuit`` over the arcs: every card is in exactly one chain (Hamiltonian circuit).
2. ``arc[(u, v)] -> ord[v] = ord[u] + 1`` for ``v != H_0``; ``ord[H_h] < ord[H_(h+1)]`` fixes which chain
   belongs to which hole.
3. Several holes: ``arc[(c, d)] -> time[d] > time[c]`` (times only need to be a linear extension; ties
   are between cards with no constraint between them, so any tie order replays).
4. Pile precedence: ``leave[above[c]] < leave[c]``.
5. Cell: ``NoOverlap`` of the optional intervals ``[leave[c], 2 time[c])`` of parked cards (one cell), and
   ``leave[c] = 2 time[c]`` when not parked. A card in the cell can only go to a hole (build is none).

Max cards removed (``optional=True``): the same circuit with a self-loop literal ``skip[c]`` on every
card (a skipped card is not removed), ``not skip[c] -> not skip[above[c]]``, precedences enforced only
between removed cards, maximise the number of removed cards (:mod:`.maxcards`).

Formulation "table" (one hole, with or without a cell; the default there)
-------------------------------------------------------------------------
``pos[c]`` a permutation (``AddInverse`` with ``card_at[t]``), ``rank_at[t] = ranks[card_at[t]]``
(``AddElement``), an ``AddAllowedAssignments`` table of allowed consecutive rank pairs, the first rank
restricted by the start card; the same leave times, precedences and cuts. Max cards: ``removed`` cards,
the table enforced only for steps ``t + 1 < removed`` and precedences only for removed cards; maximise
``removed``. With a cell (Worm Hole, table only) a card that is not removed may still be parked for good,
to free the card under it: it leaves before step ``removed`` and its cell interval then runs to the end,
so nothing else is parked after it (5 of 16 lost 1x7 Worm Hole test deals need this to reach the
brute-force optimum).

With several holes (``formulation="table"``, decision only) the sequence is global in time and each step
also picks a hole: ``hole_at[t]`` and ``top[h][t]`` (rank on hole h after step t, 0 while an empty hole
is empty), tied by one table per step and hole over ``(hole_at[t], top[h][t-1], rank_at[t], top[h][t])``
(either the card goes to h, fits its top and becomes the top, or h keeps its top). The permutation is
channelled through Booleans instead of ``AddInverse``: with ``AddInverse``, CP-SAT 9.15's presolve proved
a winnable 6-card two-hole deal infeasible (a solver bug; the channelled model agrees with brute force on
120 random small Binary Star deals). ``auto`` picks "table" for one hole and "circuit" for several, by
measurement (docs/cpsat-hole-notes.md). The optional rank-degree constraints (``degree=True``: each
rank's number of neighbours in the sequence) are implied by the model and off by default.

Rank exhaustion (one hole; ``reach=True``, off by default)
---------------------------------------------------------
``last[r]``, the time of the last rank-r card, and for every separator ``X`` of the rank graph (one rank
that cuts it, or two ranks that together do: on a wrapping cycle any two non-adjacent ranks) and any two
components ``C, D`` of the graph without ``X``: ``min(max_C last, max_D last) < max_X last``. Theorem
and proof in :func:`_reach_cuts` (after the last card of ``X`` the walk stays in one component); tested
on every win of small generalized decks (tests/solvers/cpsat_hole/test_reach.py). Measured at 104 cards
in docs/cpsat-hole-notes.md.

Symmetry breaking (same-rank swaps)
-----------------------------------
Cards of equal rank are interchangeable in a chain. For each rank, order its cards by a fixed key
(cards with a card below them first, cards at the bottom of a pile last; then by pile and depth): ``c_1 <
c_2 < ...``. For ``i < j`` forbid the state where ``c_j`` leaves before ``c_i`` *and* the two could be
exchanged: ``above(c_i)`` left before ``c_j`` and ``below(c_j)`` leaves after ``c_i``::

    not (leave[c_j] < leave[c_i] and leave[above c_i] < leave[c_j] and leave[below c_j] > leave[c_i])

(a missing above/below makes that condition true). Soundness: in any solution where all three hold,
giving ``c_i`` the (leave, time) pair of ``c_j`` and vice versa is again a solution: chain adjacency only
sees ranks, which are equal; cell intervals are the same set; ``c_i`` leaves at ``leave[c_j]``, after the
card above it (condition 2) and before the card below it (which left after ``leave[c_i] >
leave[c_j]``); ``c_j`` leaves at ``leave[c_i]``, after the card above it (it was before ``leave[c_j]``)
and before the card below it (condition 3). The swap removes the inversion ``(c_i, c_j)`` and exchanging
an inverted pair of a sequence strictly lowers the number of inversions of every rank class against the
fixed key, so repeated swaps terminate in a solution that violates no cut: every solvable deal keeps a
solution. When ``c_i`` has nothing above and ``c_j`` nothing below the cut is the plain ordering
``leave[c_i] < leave[c_j]``. Wolter's pruning rule (never clear a pile's last card while a same-rank
card tops a taller pile) is the special case ``c_j`` = a bottom card. In the max-cards model the cut
applies only when both cards are removed (the swap keeps the removed set). The cut is also sound when
only a subset of the pile precedences is enforced (``build_model(facts=True)``): the swap never breaks a
precedence, enforced or not (the two it could break are exactly conditions 2 and 3, and the start rank is
unchanged); tested against the cut-free model on random subsets. With several holes the swap exchanges
the two cards' (time, hole) pairs and the holes only see ranks, so the cuts stay sound there too.
:func:`~.explain.explain` builds without them: they slow its deletion trials (docs/cpsat-hole-notes.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from .data import HoleDeal
from .steps import build_steps

__all__ = ["ModelVars", "build_model"]


@dataclass
class ModelVars:
    """Handles on the variables of a built model (tuple-keyed dicts, see the module docstring)."""

    model: cp_model.CpModel
    deal: HoleDeal
    formulation: str
    arc: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)  # arc[(u, v)]: v follows u
    ord_: list[Any] = field(default_factory=list)  # ord[v]: circuit position of node v
    time: list[Any] = field(default_factory=list)  # time[c]: when card c reaches its hole
    leave: list[Any] = field(default_factory=list)  # leave[c]: when card c leaves the tableau
    parked: list[Any] = field(default_factory=list)  # parked[c]: card c goes through the cell
    skip: list[Any] = field(default_factory=list)  # skip[c]: card c is not removed (max-cards model)
    card_at: list[Any] = field(default_factory=list)  # card_at[t]: card played at step t (table)
    hole_at: list[Any] = field(default_factory=list)  # hole_at[t]: hole receiving step t (table, k > 1)
    length: Any = None  # cards removed (table max-cards model)
    degree: bool = False  # add the redundant rank-degree constraints (table model)
    facts: dict[Any, tuple[cp_model.IntVar, str]] = field(default_factory=dict)  # explain assumptions
    play: list[Any] = field(default_factory=list)  # ((t, pile), literal): step t plays the pile (steps)
    into: list[Any] = field(default_factory=list)  # ((t, hole), literal): step t goes to the hole (steps)
    decisions: list[Any] = field(default_factory=list)  # fixed search orders, one per stage (steps)


def build_model(
    deal: HoleDeal,
    formulation: str = "auto",
    *,
    optional: bool = False,
    symmetry: bool = True,
    facts: bool = False,
    degree: bool = False,
    wolter: bool = True,
    reach: bool = False,
) -> ModelVars:
    """Build the CP-SAT model of ``deal`` (see the module docstring).

    ``formulation``: "table" (one hole), "circuit" (any holes), "steps" (any holes, no cell, decision only;
    :mod:`.steps`) or "auto" (table for one hole; steps for several, circuit when they have a cell or for
    the max-cards and explain models). ``wolter``: Wolter's rules as constraints of the steps model.
    ``optional``: the max-cards model (cards may stay, maximise removed cards; no cell). ``facts``: every
    pile precedence and hole start is guarded by an assumption literal (``ModelVars.facts``). ``reach``:
    the rank-exhaustion cuts of :func:`_reach_cuts` (one hole, decision models only).
    """
    if formulation == "auto":
        several = "circuit" if optional or facts or deal.cells else "steps"
        formulation = "table" if deal.k == 1 else several
    if formulation not in ("table", "circuit", "steps"):
        raise ValueError(f"unknown formulation {formulation!r} (auto, table, circuit, steps)")
    if formulation == "steps":
        if optional or facts or deal.cells:
            raise ValueError("the steps formulation decides deals without a free cell only")
        v = ModelVars(cp_model.CpModel(), deal, formulation)
        build_steps(v, prunes=wolter)
        return v
    if formulation == "table" and deal.k != 1 and (optional or facts):
        raise ValueError("the max-cards and explain models with several holes use the circuit formulation")
    if optional and deal.cells and formulation != "table":
        raise ValueError("the max-cards model with a free cell uses the table formulation")
    m = cp_model.CpModel()
    v = ModelVars(m, deal, formulation, degree=degree)
    start_guard: dict[int, Any] = {}
    if facts:
        for h in range(deal.k):
            if deal.hole_rank[h]:
                lit = m.new_bool_var(f"fact_hole_{h}")
                start_guard[h] = lit
                where = "the hole" if deal.k == 1 else f"hole {h}"
                v.facts[("hole", h)] = (lit, f"{where} starts on {deal.hole_texts[h]}")
    if formulation == "table":
        _table_part(v, optional, start_guard)
    else:
        _circuit_part(v, optional, start_guard)
    n = deal.n
    # Leaving the tableau: directly when the card reaches its hole, or earlier through the cell.
    gone = v.skip and [~s for s in v.skip]  # max-cards model: card c has left the tableau
    if deal.cells:
        _cell_part(v, 0 if formulation == "table" or deal.k > 1 else 1)
        if optional:
            gone = _forever_parked(v)
    else:
        v.leave = list(v.time)

    # A card leaves its pile only after the card lying on it.
    for c in range(n):
        a = deal.above[c]
        if a < 0:
            continue
        ct = m.add(v.leave[a] < v.leave[c])
        guards = []
        if facts:
            lit = m.new_bool_var(f"fact_cover_{a}_{c}")
            v.facts[("cover", a, c)] = (lit, f"{deal.texts[a]} lies on {deal.texts[c]} (pile {deal.pile[c]})")
            guards.append(lit)
        if optional:
            m.add_implication(gone[c], gone[a])
            guards.append(gone[c])
        if guards:
            ct.only_enforce_if(guards)

    if reach and deal.k == 1 and not optional and not facts:
        _reach_cuts(m, deal, v.time)
    # Same-rank swaps (module docstring): keep the canonical one of each exchangeable pair.
    if symmetry:
        _symmetry_cuts(m, deal, v.leave, v.skip if optional else None)
    return v


def _table_part(v: ModelVars, optional: bool, start_guard: dict[int, Any]) -> None:
    """One hole: a permutation with a table of allowed consecutive rank pairs."""
    m, deal = v.model, v.deal
    n, R = deal.n, deal.R
    # pos[c]: step at which card c goes to the hole; card_at[t]: the card played at step t.
    pos = [m.new_int_var(0, n - 1, f"pos_{c}") for c in range(n)]
    card_at = [m.new_int_var(0, n - 1, f"card_at_{t}") for t in range(n)]
    if deal.k == 1:
        m.add_inverse(pos, card_at)
    else:
        # The permutation through Boolean channels: CP-SAT 9.15's presolve wrongly proved small two-hole
        # models with AddInverse infeasible (a 6-card Binary Star with a solution; found by the tests).
        m.add_all_different(pos)
        m.add_all_different(card_at)
        for c in range(n):
            at = [m.new_bool_var(f"at_{c}_{t}") for t in range(n)]
            m.add_map_domain(pos[c], at)
            for t in range(n):
                m.add(card_at[t] == c).only_enforce_if(at[t])
                m.add(card_at[t] != c).only_enforce_if(~at[t])
    # rank_at[t]: rank of the card played at step t.
    rank_at = [m.new_int_var(1, R, f"rank_at_{t}") for t in range(n)]
    for t in range(n):
        m.add_element(card_at[t], list(deal.rank), rank_at[t])
    v.time, v.card_at = pos, card_at
    # Consecutive plays have ranks that fit (in the max-cards model: while cards are still played).
    pairs = [(r, s) for r in range(1, R + 1) for s in range(1, R + 1) if deal.fits(s, r)]
    if optional:
        # removed: how many cards are played; card c is played when pos[c] < removed.
        length = m.new_int_var(0, n, "removed")
        v.length = length
        for t in range(n - 1):
            on = m.new_bool_var(f"played_{t + 1}")
            m.add(length >= t + 2).only_enforce_if(on)
            m.add(length <= t + 1).only_enforce_if(~on)
            m.add_allowed_assignments([rank_at[t], rank_at[t + 1]], pairs).only_enforce_if(on)
        for c in range(n):
            skip = m.new_bool_var(f"skip_{c}")
            m.add(pos[c] >= length).only_enforce_if(skip)
            m.add(pos[c] < length).only_enforce_if(~skip)
            v.skip.append(skip)
    elif deal.k > 1:
        _holes_part(v, rank_at)
        return
    else:
        for t in range(n - 1):
            m.add_allowed_assignments([rank_at[t], rank_at[t + 1]], pairs)
        if v.degree:
            _degree_part(v, rank_at)
    # The first card fits the hole's start card (guarded by its fact when explaining).
    for r in range(1, R + 1):
        if not deal.fits(r, deal.hole_rank[0]):
            ct = m.add(rank_at[0] != r)
            if 0 in start_guard:
                ct.only_enforce_if(start_guard[0])


def _holes_part(v: ModelVars, rank_at: list[Any]) -> None:
    """Several holes in the table formulation: each step goes to one hole, whose top rank it must fit.

    ``hole_at[t]``: the hole receiving step t; ``top[h][t]``: rank on top of hole h after step t (0 while
    an empty hole is still empty). One table per step and hole over ``(hole_at[t], top[h][t-1],
    rank_at[t], top[h][t])``: either the step goes to h, fits its top and becomes the new top, or it goes
    elsewhere and the top is kept. The state after step t (cards left, hole tops) is then read off
    variables of step t, as in a depth-first search.
    """
    m, deal = v.model, v.deal
    n, k, R = deal.n, deal.k, deal.R
    hole_at = [m.new_int_var(0, k - 1, f"hole_at_{t}") for t in range(n)]
    v.hole_at = hole_at
    top: list[Any] = [None] * k  # None: still the start card (a constant, folded into the tuples)
    for t in range(n):
        new_top = []
        for h in range(k):
            lo = 0 if deal.hole_rank[h] == 0 else 1
            nt = m.new_int_var(lo, R, f"top_{h}_{t}")
            tops = range(lo, R + 1) if top[h] is not None else (deal.hole_rank[h],)
            tuples = [(h, a, r, r) for a in tops for r in range(1, R + 1) if deal.fits(r, a)]
            tuples += [(g, a, r, a) for g in range(k) if g != h for a in tops for r in range(1, R + 1)]
            if top[h] is None:
                # CP-SAT 9.15 presolve wrongly proved a table with a fixed column infeasible: no constants.
                m.add_allowed_assignments([hole_at[t], rank_at[t], nt], [(g, r, b) for g, _, r, b in tuples])
            else:
                m.add_allowed_assignments([hole_at[t], top[h], rank_at[t], nt], tuples)
            new_top.append(nt)
        top = new_top


def _degree_part(v: ModelVars, rank_at: list[Any]) -> None:
    """Redundant: the rank walk uses each rank-adjacency edge e times; a rank's degree is fixed.

    ``edge_at[t]``: the (unordered) rank pair of steps t, t+1. With ``e[E]`` the uses of edge E, every rank
    r satisfies ``sum of e[E] over edges at r (a loop counts twice) = 2 count(r) - [first is r] - [last is
    r]`` (each card has two neighbours in the sequence except the two ends). Implied by the model.
    """
    m, deal = v.model, v.deal
    n, R = deal.n, deal.R
    ranks = range(1, R + 1)
    edges = sorted({tuple(sorted((r, s))) for r in ranks for s in ranks if deal.fits(s, r)})
    index = {e: i for i, e in enumerate(edges)}
    triples = [(r, s, index[tuple(sorted((r, s)))]) for r in range(1, R + 1) for s in range(1, R + 1)
               if deal.fits(s, r)]  # fmt: skip
    uses: list[list[Any]] = [[] for _ in edges]
    for t in range(n - 1):
        edge_at = m.new_int_var(0, len(edges) - 1, f"edge_at_{t}")
        m.add_allowed_assignments([rank_at[t], rank_at[t + 1], edge_at], triples)
        lits = [m.new_bool_var(f"edge_{t}_{i}") for i in range(len(edges))]
        m.add_map_domain(edge_at, lits)
        for i, lit in enumerate(lits):
            uses[i].append(lit)
    first = [m.new_bool_var(f"first_{r}") for r in range(1, R + 1)]
    last = [m.new_bool_var(f"last_{r}") for r in range(1, R + 1)]
    m.add_map_domain(rank_at[0], first, 1)
    m.add_map_domain(rank_at[n - 1], last, 1)
    count = [0] * (R + 1)
    for r in deal.rank:
        count[r] += 1
    for r in range(1, R + 1):
        deg = sum((2 if a == b else 1) * sum(uses[i]) for (a, b), i in index.items() if r in (a, b))
        m.add(deg == 2 * count[r] - first[r - 1] - last[r - 1])


def _circuit_part(v: ModelVars, optional: bool, start_guard: dict[int, Any]) -> None:
    """Any number of holes: one circuit through hole nodes and cards (module docstring)."""
    m, deal = v.model, v.deal
    n, k = deal.n, deal.k
    H = [n + h for h in range(k)]  # hole nodes
    # ord[u]: position of node u in the circuit.
    v.ord_ = [m.new_int_var(0, n + k - 1, f"ord_{u}") for u in range(n + k)]
    m.add(v.ord_[H[0]] == 0)
    arcs: list[tuple[int, int, Any]] = []

    def arc(u: int, w: int) -> Any:
        lit = m.new_bool_var(f"arc_{u}_{w}")
        v.arc[(u, w)] = lit
        arcs.append((u, w, lit))
        return lit

    # Arcs the rules allow: a card after a card it fits on, a first card on a hole, chain ends.
    for c in range(n):
        for d in range(n):
            if c != d and deal.fits(deal.rank[d], deal.rank[c]):
                arc(c, d)
    for h in range(k):
        for c in range(n):
            if deal.fits(deal.rank[c], deal.hole_rank[h]):
                arc(H[h], c)
            elif h in start_guard:
                m.add_implication(start_guard[h], arc(H[h], c).Not())
        for c in range(n):
            arc(c, H[h])
        if k > 1:
            arc(H[h], H[(h + 1) % k])
    if optional:
        v.skip = [m.new_bool_var(f"skip_{c}") for c in range(n)]
        arcs.extend((c, c, v.skip[c]) for c in range(n))
        if k == 1:
            arcs.append((H[0], H[0], m.new_bool_var("nothing_removed")))
    # Every card is in exactly one chain: one circuit through cards and hole nodes.
    m.add_circuit(arcs)
    # An arc advances the circuit position by one; chains are in hole order.
    for (u, w), lit in v.arc.items():
        if w != H[0]:
            m.add(v.ord_[w] == v.ord_[u] + 1).only_enforce_if(lit)
    for h in range(1, k):
        m.add(v.ord_[H[h]] >= v.ord_[H[h - 1]] + 1)
    # Times: the circuit position with one hole; with several, increasing along each chain.
    if k == 1:
        v.time = v.ord_[:n]
        if not optional:
            m.add_all_different(v.time)
    else:
        v.time = [m.new_int_var(0, n - 1, f"time_{c}") for c in range(n)]
        for (u, w), lit in v.arc.items():
            if u < n and w < n:
                m.add(v.time[w] >= v.time[u] + 1).only_enforce_if(lit)


def _cell_part(v: ModelVars, tmin: int) -> None:
    """One free cell: doubled times, parked cards occupy the cell over [leave, 2 time)."""
    m, n = v.model, v.deal.n
    lo, hi = 2 * tmin, 2 * (tmin + n - 1)
    intervals = []
    for c in range(n):
        t2 = 2 * v.time[c]
        park = m.new_bool_var(f"parked_{c}")
        leave = m.new_int_var(lo - 1, hi, f"leave_{c}")
        slot = m.new_int_var(lo // 2 - 1, hi // 2, f"park_slot_{c}")
        m.add(leave == t2).only_enforce_if(~park)
        m.add(leave == 2 * slot + 1).only_enforce_if(park)
        m.add(leave <= t2 - 1).only_enforce_if(park)
        size = m.new_int_var(0, hi - lo + 1, f"in_cell_{c}")
        m.add(size == t2 - leave)
        intervals.append(m.new_optional_interval_var(leave, size, t2, park, f"cell_{c}"))
        v.parked.append(park)
        v.leave.append(leave)
    # One cell: parked cards occupy it one at a time.
    m.add_no_overlap(intervals)


def _forever_parked(v: ModelVars) -> list[Any]:
    """Max-cards model with a cell: a card not removed may still be parked, for good, to free the card
    under it; it leaves before the last removal and its interval ``[leave, 2 pos)`` then covers the
    rest of the sequence, so the cell stays taken. Returns ``gone[c]``: card c has left the tableau."""
    m = v.model
    gone = []
    for c, (skip, park) in enumerate(zip(v.skip, v.parked, strict=True)):
        m.add(v.leave[c] < 2 * v.length).only_enforce_if([skip, park])
        g = m.new_bool_var(f"gone_{c}")
        m.add_bool_or([~skip, park]).only_enforce_if(g)
        m.add_implication(~skip, g)
        m.add_implication(park, g)
        gone.append(g)
    return gone


def rank_separators(deal: HoleDeal) -> list[tuple[tuple[int, ...], list[tuple[int, ...]]]]:
    """The separators of the rank graph used by :func:`_reach_cuts`: ``(X, components)`` pairs.

    The rank graph joins r and s when a card of one may go on the other (``fits`` either way). ``X``
    is one rank whose removal leaves two or more components holding cards, or two ranks neither of which
    alone does so (on a wrapping cycle: any two non-adjacent ranks). ``components`` are the components
    of the graph without ``X`` that hold cards, as tuples of ranks.
    """
    R = deal.R
    present = set(deal.rank)
    adj = {
        r: [s for s in range(1, R + 1) if s != r and (deal.fits(s, r) or deal.fits(r, s))]
        for r in range(1, R + 1)
    }

    def parts(x: set[int]) -> list[tuple[int, ...]]:
        seen: set[int] = set(x)
        out = []
        for r in range(1, R + 1):
            if r in seen:
                continue
            comp, todo = [], [r]
            seen.add(r)
            while todo:
                u = todo.pop()
                comp.append(u)
                for w in adj[u]:
                    if w not in seen:
                        seen.add(w)
                        todo.append(w)
            if present & set(comp):
                out.append(tuple(sorted(comp)))
        return out

    seps = []
    cut = {}
    for a in range(1, R + 1):
        cs = parts({a})
        cut[a] = len(cs) >= 2
        if cut[a]:
            seps.append(((a,), cs))
    for a in range(1, R + 1):
        for b in range(a + 1, R + 1):
            if not cut[a] and not cut[b]:
                cs = parts({a, b})
                if len(cs) >= 2:
                    seps.append(((a, b), cs))
    return seps


def _reach_cuts(m: cp_model.CpModel, deal: HoleDeal, time: list[Any]) -> None:
    """Rank exhaustion (one hole): once the ranks of a separator are used up, the rest stays on one side.

    ``last[r]``: the time of the last card of rank r reaching the hole. For a separator ``X`` of the rank
    graph (:func:`rank_separators`) with components ``C_1, ..., C_m`` holding cards, and ``M = max over X
    of last``, every two components satisfy ``min(max over C_i of last, max over C_j of last) < M``.

    Theorem. With one hole, after step ``M`` no card of a rank in ``X`` is played (all are gone), and the
    plays from ``M + 1`` on form a walk in the rank graph (each fits the one before it on the same hole),
    so they stay inside one component of the graph without ``X``. Hence at most one component has a card
    played after ``M``: all others are done before ``M`` (strictly: ``M`` itself plays a rank of ``X``).
    The hole's start card and a free cell do not matter (times are the order of arrival in the hole, a
    parked card included); with several holes the plays interleave several walks, so not there. It is a
    necessary condition of every win, so adding it keeps every verdict; it is the rank-reachability test
    of the dfs search (:func:`patience.solvers.dfs_hole.rank_reach_ok`) stated over a whole plan.
    """
    by_rank: dict[int, list[int]] = {}
    for c in range(deal.n):
        by_rank.setdefault(deal.rank[c], []).append(c)
    last: dict[int, Any] = {}
    for r, cs in sorted(by_rank.items()):
        last[r] = m.new_int_var(0, 2 * deal.n, f"last_{r}")
        m.add_max_equality(last[r], [time[c] for c in cs])
    done: dict[tuple[int, ...], Any] = {}

    def latest(ranks: tuple[int, ...]) -> Any:
        """A variable equal to the time of the last card among ``ranks`` (which hold cards)."""
        have = [r for r in ranks if r in last]
        if len(have) == 1:
            return last[have[0]]
        if ranks not in done:
            done[ranks] = m.new_int_var(0, 2 * deal.n, f"last_{'_'.join(map(str, ranks))}")
            m.add_max_equality(done[ranks], [last[r] for r in have])
        return done[ranks]

    for x, comps in rank_separators(deal):
        if not any(r in last for r in x):
            m.add_bool_or([m.new_constant(0)])  # the walk never crosses X, yet cards lie on both sides
            return
        big = latest(x)
        for i in range(len(comps)):
            for j in range(i + 1, len(comps)):
                ends = []
                for comp in (comps[i], comps[j]):
                    b = m.new_bool_var("")
                    m.add(latest(comp) < big).only_enforce_if(b)
                    ends.append(b)
                m.add_bool_or(ends)


def _rank_classes(deal: HoleDeal) -> list[list[int]]:
    """Cards of each rank in the cut order: cards with a card below first, bottom cards last."""
    by_rank: dict[int, list[int]] = {}
    for c in range(deal.n):
        by_rank.setdefault(deal.rank[c], []).append(c)
    return [sorted(cs, key=lambda c: (deal.below[c] < 0, deal.pile[c], c)) for cs in by_rank.values()]


def _symmetry_cuts(m: cp_model.CpModel, deal: HoleDeal, leave: list[Any], skip: list[Any] | None) -> None:
    def less(x: Any, y: Any, name: str) -> Any:
        """A literal that is true whenever x < y (half reification is enough for the clause)."""
        b = m.new_bool_var(name)
        m.add(x >= y).only_enforce_if(~b)
        return b

    for cls in _rank_classes(deal):
        for i in range(len(cls)):
            for j in range(i + 1, len(cls)):
                ci, cj = cls[i], cls[j]
                a, b = deal.above[ci], deal.below[cj]
                if a == cj or b == ci:
                    continue  # cj lies directly on ci: precedence already orders them
                clause = [~less(leave[cj], leave[ci], f"inv_{ci}_{cj}")]
                if a >= 0:
                    clause.append(~less(leave[a], leave[cj], f"free_{ci}_{cj}"))
                if b >= 0:
                    clause.append(~less(leave[ci], leave[b], f"late_{ci}_{cj}"))
                if skip is not None:
                    clause += [skip[ci], skip[cj]]
                if len(clause) == 1:
                    m.add(leave[ci] < leave[cj])
                else:
                    m.add_bool_or(clause)
