"""CP-SAT models for the Black Hole family: Black Hole, All in a Row, Binary Star, Worm Hole, generalized.

The family is recognised by rule-set features, never by name (:func:`family_supports`: a hole game by
:func:`patience.holes.is_hole_game` with at most one, initially empty, free cell): foundations of kind
``hole``, a tableau that takes no card, no stock or reserve, holes that are never emptied again. Any
deck (S suits x R ranks x D decks), any piles, any number of holes, each starting empty or on a card,
wrap on or off (``foundations.wrap``), ``king_blocks`` (Golf's "nothing on a King") are all handled by
one model.

A win is a sequence of every tableau card into the holes; each hole receives a chain of cards where every
card fits on the previous one (rank one up or down, K-A when wrapping), and a card leaves its pile only
after every card above it (Wolter 2014, section 3; Gent et al.).

Model ("circuit", the default)
------------------------------
Data: cards ``c = 0..n-1`` (tableau cards, pile by pile, bottom to top), ``above[c]`` the card lying
directly on ``c`` (``-1`` for a top card), holes ``h = 0..k-1`` with their start rank (0 = empty).

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

Max cards removed: the same circuit with a self-loop literal ``skip[c]`` on every card (a skipped card
is not removed), ``not skip[c] -> not skip[above[c]]``, precedences enforced only between removed cards,
maximise the number of removed cards. CP-SAT's objective bound is the proven bound (``Result.max_cards``).

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
unchanged); tested against the cut-free model on random subsets. ``explain`` still builds without it,
by measurement: the cuts speed up its first infeasibility proof (All in a Row #7: 25.7 s -> 18.6 s) but
slow every deletion trial (Black Hole #1, #77, #29: 3.7, 8.9, 5.7 s -> 5.8, 12.8, 8.3 s; same sizes).

Formulation "table" (the default for one hole, with or without a cell): ``pos[c]`` a permutation
(``AddInverse`` with ``card_at[t]``), ``rank_at[t] = ranks[card_at[t]]`` (``AddElement``), an
``AddAllowedAssignments`` table of allowed consecutive rank pairs, the first rank restricted by the start
card; the same leave times, precedences and cuts. Max cards: ``removed`` cards, the table enforced only
for steps ``t + 1 < removed`` and precedences only for removed cards; maximise ``removed``. With a cell
(Worm Hole, table only) a card that is not removed may still be parked for good, to free the card under
it: it leaves before step ``removed`` and its cell interval then runs to the end, so nothing else is
parked after it (5 of 16 lost 1x7 Worm Hole test deals need this to reach the brute-force optimum).

With several holes (``formulation="table"``, decision only) the sequence is global in time and each step
also picks a hole: ``hole_at[t]`` and ``top[h][t]`` (rank on hole h after step t, 0 while an empty hole
is empty), tied by one table per step and hole over ``(hole_at[t], top[h][t-1], rank_at[t], top[h][t])``
(either the card goes to h, fits its top and becomes the top, or h keeps its top). The permutation is
channelled through Booleans instead of ``AddInverse``: with ``AddInverse``, CP-SAT 9.15's presolve proved
a winnable 6-card two-hole deal infeasible (a solver bug; the channelled model agrees with brute force on
120 random small Binary Star deals). Measured on PySol Binary Star 1-4 (30 s, load ~3): neither this
nor the circuit decides deals 1-3; the circuit proves deal 4 lost in 0.65 s against 6.1 s, so "auto"
keeps the circuit for several holes. The same-rank cuts stay sound: the swap exchanges the two cards'
(time, hole) pairs and the holes only see ranks.

Measured (benchmarks/out/blackhole_formulations.txt; PySol Black Hole deals 1-40, 10 s limit, 1 worker,
load ~5 on 2 cores): table median 0.29 s, p90 0.45 s, max 0.55 s, all 40 decided; circuit median 7.6 s
with 17 of 40 unknown. So "table" is used whenever there is one hole and "circuit" only for several holes
(Binary Star). Parameters: ``cp_model_probing_level = 0`` and, for the table model,
``use_sat_inprocessing = False`` (inprocessing alone cost ~0.6 s a deal: median 0.81 s -> 0.24 s on
deals 1-15 at load 0.05); one worker beats two on this machine (median 0.29 s vs 0.58 s). The optional
rank-degree constraints (``degree=True``: each rank's number of neighbours in the sequence) are implied
by the model and did not speed up the hard lost All in a Row deals, so they are off.

Presearch (``presearch_nodes``, default 200,000; 25 times that for several holes): before CP-SAT, the
dfs backend's hole search (:func:`~patience.solvers.dfs_hole.hole_search`: Wolter's move order and
pruning rules, rank reachability, a numba kernel) runs with that node budget. A win it finds is
replayed and validated like any other and returned (``stats["decided_by_presearch"]``): a win is a
certificate, whoever finds it. A loss is never taken from it: UNSOLVABLE always comes from CP-SAT
proving the model infeasible, so a lost verdict stays an independent proof that can be checked against
the dfs backend (``cpsat-only`` is this backend with the presearch off, for exactly that). When the
presearch ran to its end without a win and CP-SAT then finds one, the two searches disagree and the
result is ERROR, never a verdict. The presearch's longest sequence is the max-cards optimisation's
incumbent: reported when CP-SAT finds nothing longer (with several holes the max-cards circuit model often
finds no solution at all: Binary Star PySol #4, lost in 34 presearch nodes, got 0 cards in 30 s). As a
CP-SAT solution hint (``presearch_hint=True``) it slowed CP-SAT as often as it
helped (All in a Row #24 0.57 s -> 2.16 s, #60 2.07 -> 7.14 s, #8 7.20 -> 2.31 s; load ~3.9), so that
is off. Budget: the kernel searches about 4-6 M nodes/s; 200,000 nodes wins 261 of the 272 won All in
a Row deals among PySol 1-400 and 342 of 350 Black Hole ones (measured with the dfs search alone).

Two CP-SAT stages (``probe_after``, default 3 s): the cheap parameters above for the first 3 s, then, if
undecided, the same model again with ``cp_model_probing_level = 2`` for the time left. Probing presolve
(failed-literal probing) shrinks the position domains a lot (All in a Row #7: 2522 -> 1728 values,
parity-like holes such as ``pos[3D] in {28, 30, 32, ...}``) but costs 1-3 s, which would dominate the
median; on the hard deals it is what decides them (All in a Row #7, lost, 1.16 M black-hole-solver
states: unknown at 20 s without probing, 4-7 s with it; #156 won: 10+ s -> 2.8-3.1 s; load ~3).
A deal on which the presearch spent ``probe_nodes`` (20,000) nodes or more without a win starts with the
probing stage: the DFS's effort is a cheap sign of a hard deal. Measured on 45 lost All in a Row deals
(PySol 1-137 and the five slowest lost ones up to #166; load ~2): total CP-SAT time 44.2 s with the fixed 3 s
cheap stage, 30.0 s probing first on every deal, 28.3 s with the 20,000-node rule (medians 0.33-0.35 s
each); #7 7.9 s -> 4.9 s, #118 5.0 -> 2.1 s, #67 4.3 -> 0.9 s.

At scale (benchmarks/out/blackhole_cpsat_20261123_1448*; PySol deals 1-1000, 10 s, load 1-2): the model
alone (``cpsat-only``) decides Black Hole 876 won / 123 lost / 1 unknown (median 0.267 s, p90 0.481 s)
and All in a Row 690 / 310 / 0 (median 0.488 s, p90 1.55 s, max 7.6 s), agreeing with black-hole-solver
on every deal both decided. The unknown one, Black Hole #559, is won (dfs: 2,876 nodes) yet the table
model finds no win in 60 s, with or without the cuts, with the degree constraints or with 2 workers; the
circuit model finds one in 2.1 s. On the other 26 deals that took the table model over 3 s the circuit
decides only 3 within 10 s, so switching formulation per deal was not adopted. With the presearch
(``cpsat``): 877 / 123 / 0 (median 0.003 s) and 690 / 310 / 0 (median 0.006 s).

Every SOLVED result is decoded into engine moves, replayed in an :class:`~patience.engine.Engine` (each
move must be legal there) and then checked by :func:`patience.validate.replay` in
:meth:`patience.solvers.base.Backend.solve` before it is reported.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field
from functools import cached_property
from typing import Any

from ortools.sat.python import cp_model

from ..engine import CELL, FOUNDATION, TABLEAU, Engine
from ..holes import HoleRanks
from ..instance import Instance
from ..interrupt import solve_cpsat
from ..rules import RuleSet
from ..validate import replay
from .base import Backend, Limits, MaxCards, Reason, Result, Status
from .dfs_hole import hole_search
from .registry import hole_family

__all__ = [
    "CpSatBlackHole",
    "CpSatOptions",
    "HoleDeal",
    "build_model",
    "explain",
    "family_supports",
    "max_cards_removed",
]


family_supports = hole_family  # the Black Hole family, at most one free cell (registry.hole_family)


# Data ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class HoleDeal:
    """The numbers a hole-game model needs, read from an instance."""

    R: int
    wrap: bool
    king_blocks: bool
    cells: int
    rank: tuple[int, ...]  # rank of card c (1..R)
    code: tuple[int, ...]  # deck code of card c
    pile: tuple[int, ...]  # tableau pile of card c
    above: tuple[int, ...]  # card lying directly on c, -1 when c is a top card
    below: tuple[int, ...]  # card directly under c, -1 when c is a bottom card
    hole_rank: tuple[int, ...]  # rank of each hole's top card at the start, 0 when empty
    texts: tuple[str, ...] = field(default=())  # card c as text
    hole_texts: tuple[str, ...] = field(default=())  # each hole's start card as text ("" when empty)

    @property
    def n(self) -> int:
        """Tableau cards."""
        return len(self.rank)

    @property
    def k(self) -> int:
        """Holes."""
        return len(self.hole_rank)

    @cached_property
    def fits(self) -> Callable[[int, int], bool]:
        """``fits(r, t)``: may rank ``r`` go on a hole topped by rank ``t`` (0: empty)? (HoleRanks.fits)"""
        return HoleRanks(self.R, self.wrap, self.king_blocks).fits

    @classmethod
    def from_instance(cls, inst: Instance) -> HoleDeal:
        """Read the cards of ``inst`` (which must satisfy :func:`family_supports`)."""
        deck = inst.deck
        R = inst.rules.deck.ranks
        rank, code, pile, above, below, texts = [], [], [], [], [], []
        for p, cards in enumerate(inst.layout.tableau):
            first = len(rank)
            for j, card in enumerate(cards):
                c = first + j
                rank.append(card.rank)
                code.append(deck.code(card))
                pile.append(p)
                texts.append(deck.text(card))
                below.append(c - 1 if j > 0 else -1)
                above.append(c + 1 if j + 1 < len(cards) else -1)
        holes = tuple(f[-1].rank if f else 0 for f in inst.layout.foundations)
        hole_texts = tuple(deck.text(f[-1]) if f else "" for f in inst.layout.foundations)
        f = inst.rules.foundations
        return cls(
            R, f.wrap, f.king_blocks, inst.rules.cells.count, tuple(rank), tuple(code), tuple(pile),
            tuple(above), tuple(below), holes, tuple(texts), hole_texts,
        )  # fmt: skip


# Model --------------------------------------------------------------------------------------------
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


def build_model(
    deal: HoleDeal,
    formulation: str = "auto",
    *,
    optional: bool = False,
    symmetry: bool = True,
    facts: bool = False,
    degree: bool = False,
) -> ModelVars:
    """Build the CP-SAT model of ``deal`` (see the module docstring).

    ``formulation``: "table" (one hole), "circuit" (any holes) or "auto" (table when there is one hole).
    ``optional``: the max-cards model (cards may stay, maximise removed cards; no cell). ``facts``: every
    pile precedence and hole start is guarded by an assumption literal (``ModelVars.facts``).
    """
    if formulation == "auto":
        formulation = "table" if deal.k == 1 else "circuit"
    if formulation not in ("table", "circuit"):
        raise ValueError(f"unknown formulation {formulation!r} (auto, table, circuit)")
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


# Presearch ----------------------------------------------------------------------------------------
@dataclass
class Presearch:
    """What the bounded DFS before CP-SAT found (see the module docstring, "Presearch")."""

    events: list[Any] | None  # a winning sequence as decode() events, None when none was found
    best: list[Any]  # the longest sequence seen as decode() events: the max-cards incumbent and hint
    nodes: int
    lost: bool  # the search ran to its end without a win: the DFS's own proof of a loss


def presearch(inst: Instance, deal: HoleDeal, max_nodes: int, deadline: float) -> Presearch:
    """Bounded :func:`~patience.solvers.dfs_hole.hole_search` from the deal's start (no cell).

    The search is the dfs backend's (Wolter's move order and pruning rules, rank reachability, the
    numba kernel); its moves are turned into cards of ``deal`` here.
    """
    out = hole_search(Engine(inst), deadline, max_nodes, capacity=max_nodes + 64)
    first = [0] * (max(deal.pile, default=0) + 1)
    height = [0] * len(first)
    for c in range(deal.n - 1, -1, -1):
        first[deal.pile[c]] = c
        height[deal.pile[c]] += 1

    def cards(moves: list[Any]) -> list[tuple[int, int]]:
        h, got = list(height), []
        for _, p, _, hole, _ in moves:
            h[p] -= 1
            got.append((first[p] + h[p], hole))
        return got

    events = [(t, 1, c, hole) for t, (c, hole) in enumerate(cards(out.moves))] if out.won else None
    best = [(t, 1, c, hole) for t, (c, hole) in enumerate(cards(out.best_moves))]
    return Presearch(events, best, out.nodes, out.complete and not out.won)


# Solving ------------------------------------------------------------------------------------------
def _parameters(
    seconds: float, workers: int, formulation: str = "table", probing: int = 0
) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(seconds, 0.01)
    solver.parameters.num_workers = workers
    solver.parameters.cp_model_probing_level = probing
    if formulation == "table":
        # SAT inprocessing (vivification) costs ~0.6 s a deal on the table model and decides nothing;
        # the circuit model, on the other hand, needs it (measured: 2-3x slower without).
        solver.parameters.use_sat_inprocessing = False
    return solver


def _hint_order(v: ModelVars, events: list[Any]) -> None:
    """Hint a (partial) one-hole removal sequence (decode() events): positions, and arcs or cards at each
    step. Several holes get no hint."""
    m, n = v.model, v.deal.n
    if v.deal.k != 1:
        return
    order = [c for _, _, c, _ in events]
    if v.formulation == "table":
        for t, c in enumerate(order):
            m.add_hint(v.time[c], t)
            m.add_hint(v.card_at[t], c)
        return
    prev = n  # hole node H_0
    for t, c in enumerate(order):
        m.add_hint(v.ord_[c], t + 1)
        lit = v.arc.get((prev, c))
        if lit is not None:
            m.add_hint(lit, 1)
        prev = c


def decode(v: ModelVars, solver: cp_model.CpSolver) -> list[tuple[int, int, int]]:
    """Events ``(time, kind, card, hole)`` of a solution, sorted; kind 0 = park in the cell, 1 = to hole."""
    deal, n, k = v.deal, v.deal.n, v.deal.k
    val = solver.value
    hole_of = [-1] * n
    if v.formulation == "circuit":
        succ = {u: w for (u, w), lit in v.arc.items() if solver.boolean_value(lit)}
        h, u = 0, n
        for _ in range(n + k):
            w = succ.get(u)
            if w is None:
                break
            if w >= n:
                h = w - n
                if h == 0:
                    break
            else:
                hole_of[w] = h
            u = w
    elif v.hole_at:
        hole_of = [val(v.hole_at[val(v.time[c])]) for c in range(n)]
    else:
        hole_of = [0 if not v.skip or not solver.boolean_value(v.skip[c]) else -1 for c in range(n)]
    events = []
    for c in range(n):
        if hole_of[c] < 0:
            # Not removed (max-cards model); with a cell it may have been parked for good.
            if deal.cells and solver.boolean_value(v.parked[c]):
                events.append((val(v.leave[c]), 0, c, -1))
            continue
        t = val(v.time[c])
        if deal.cells:
            lv = val(v.leave[c])
            if solver.boolean_value(v.parked[c]):
                events.append((lv, 0, c, hole_of[c]))
            events.append((2 * t, 1, c, hole_of[c]))
        else:
            events.append((t, 1, c, hole_of[c]))
    events.sort()
    return events


def to_moves(inst: Instance, deal: HoleDeal, events: list[Any]) -> list[dict[str, Any]]:
    """Replay events in an Engine (each must be legal there) and return the JSON moves."""
    eng = Engine(inst)
    in_cell: dict[int, int] = {}
    moves: list[dict[str, Any]] = []
    for _, kind, c, h in events:
        if kind == 0:
            move = (TABLEAU, deal.pile[c], CELL, 0, 1)
            in_cell[c] = 0
        elif c in in_cell:
            move = (CELL, in_cell.pop(c), FOUNDATION, h, 1)
        else:
            move = (TABLEAU, deal.pile[c], FOUNDATION, h, 1)
        if eng.moved_card(move) != deal.code[c] or not eng.is_legal(move):
            raise RuntimeError(f"decoded move {move} for card {deal.texts[c]} is not legal in the engine")
        moves.append(eng.move_to_json(move))  # the engine's one JSON writer, read before the move
        eng.apply(move)
    return moves


def _order_events(order: list[int]) -> list[Any]:
    return [(t, 1, c, 0) for t, c in enumerate(order)]


def _solver_stats(solver: cp_model.CpSolver, prefix: str = "") -> dict[str, float]:
    return {
        f"{prefix}conflicts": float(solver.num_conflicts),
        f"{prefix}branches": float(solver.num_branches),
        f"{prefix}cpsat_seconds": float(solver.wall_time),
    }


def max_cards_removed(
    inst: Instance,
    seconds: float = 10.0,
    workers: int = 1,
    formulation: str = "auto",
    incumbent: list[Any] | None = None,
) -> tuple[int, int, list[dict[str, Any]], dict[str, float]]:
    """Longest legal removal sequence of a deal: the most cards it moves to the holes.

    Returns ``(cards removed, proven upper bound, validated JSON moves, stats)``; the bound equals the
    count when CP-SAT proves optimality. With a free cell the moves may end with a card parked there.
    ``incumbent``: a known sequence (decode() events, e.g. the presearch's longest), the solution hint
    (one hole) and returned instead when CP-SAT finds nothing longer in time (with several holes it often
    finds nothing at all).
    """
    deal = HoleDeal.from_instance(inst)
    v = build_model(deal, formulation, optional=True)
    m = v.model
    m.maximize(v.length if v.length is not None else sum(~s for s in v.skip))
    if incumbent:
        _hint_order(v, incumbent)
    solver = _parameters(seconds, workers, v.formulation)
    status = solve_cpsat(solver, m)
    stats = _solver_stats(solver, "max_")
    found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    bound = deal.n if not found else int(min(deal.n, solver.best_objective_bound))
    events = decode(v, solver) if found else []
    if incumbent and len(incumbent) > sum(kind == 1 for _, kind, _, _ in events):
        events, status = list(incumbent), cp_model.FEASIBLE
        stats["max_from_presearch"] = 1.0
    if not events:
        return 0, bound, [], stats
    moves = to_moves(inst, deal, events)
    report = replay(inst, moves)
    if not report.ok:
        raise RuntimeError(f"max-cards sequence rejected by the validator: {report.message()}")
    best = sum(kind == 1 for _, kind, _, _ in events)
    return best, best if status == cp_model.OPTIMAL else bound, moves, stats


# Several holes: the presearch gets this many times the node budget (CP-SAT rarely decides them).
MULTI_HOLE_FACTOR = 25


@dataclass(frozen=True)
class CpSatOptions:
    """Options of the ``cpsat`` backend (``cpsat-only`` is ``presearch_nodes=0``).

    ``formulation``: the model (:func:`build_model`; ``auto`` picks by the deal). ``max_cards``: on a lost
    deal, also optimise the longest removal sequence in the time left. ``presearch_nodes``: node budget of
    the DFS tried before CP-SAT (0 = pure CP-SAT; MULTI_HOLE_FACTOR times as many for several holes, where
    CP-SAT rarely decides). ``symmetry``/``degree``: the model's symmetry cuts and walk-degree constraints.
    ``workers``: CP-SAT search workers. ``probe_after``: seconds of the cheap first CP-SAT stage before the
    probing stage (None: one cheap stage for the whole limit). ``probe_nodes``: when the presearch used at
    least this many nodes without a win, the deal is hard and CP-SAT starts with the probing stage.
    ``presearch_hint``: give CP-SAT the presearch's longest sequence as a solution hint.
    """

    formulation: str = "auto"
    _: KW_ONLY
    max_cards: bool = True
    presearch_nodes: int = 200_000
    symmetry: bool = True
    degree: bool = False
    workers: int = 1
    probe_after: float | None = 3.0
    probe_nodes: int = 20_000
    presearch_hint: bool = False


class CpSatBlackHole(Backend):
    """CP-SAT backend for the Black Hole family (module docstring; options: :class:`CpSatOptions`)."""

    name = "cpsat"
    Options = CpSatOptions
    options: CpSatOptions

    def supports(self, rules: RuleSet) -> bool:
        """The Black Hole family, by rule features."""
        return family_supports(rules)

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        """Decide the deal; SOLVED moves are replayed in the engine (``Backend.solve`` validates them)."""
        opts = self.options
        t0 = time.perf_counter()
        deal = HoleDeal.from_instance(instance)
        stats: dict[str, float] = {"cards": float(deal.n)}
        longest: list[Any] = []  # the presearch's longest sequence (events)
        pre_lost = False
        if opts.presearch_nodes and not deal.cells:
            budget = opts.presearch_nodes * (1 if deal.k == 1 else MULTI_HOLE_FACTOR)
            pre = presearch(instance, deal, budget, t0 + limits.seconds / 2)
            stats["presearch_nodes"] = float(pre.nodes)
            longest, pre_lost = pre.best, pre.lost
            if pre_lost:
                stats["presearch_lost"] = 1.0  # CP-SAT must now prove the loss on its own (or disagree)
            if pre.events is not None:
                stats["decided_by_presearch"] = 1.0
                return self._solved(instance, deal, pre.events, stats)
        formulation = opts.formulation
        v = build_model(deal, formulation, symmetry=opts.symmetry, degree=opts.degree)
        if longest and opts.presearch_hint:
            _hint_order(v, longest)
        stats["build_seconds"] = time.perf_counter() - t0
        left = limits.seconds - (time.perf_counter() - t0)
        status = cp_model.UNKNOWN
        # A deal the presearch found hard goes straight to the probing stage (module docstring).
        hard = opts.probe_after is not None and stats.get("presearch_nodes", 0) >= opts.probe_nodes
        if not hard:
            first = left if opts.probe_after is None else min(left, opts.probe_after)
            solver = _parameters(first, opts.workers, v.formulation)
            status = solve_cpsat(solver, v.model)
            stats.update(_solver_stats(solver))
        left = limits.seconds - (time.perf_counter() - t0)
        if status == cp_model.UNKNOWN and left > 0.05:
            # Second stage: the same model with probing presolve (module docstring, "Parameters").
            solver = _parameters(left, opts.workers, v.formulation, probing=2)
            status = solve_cpsat(solver, v.model)
            for key, value in _solver_stats(solver).items():
                stats[key] = stats.get(key, 0.0) + value
            stats["probing_stage"] = 1.0
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if pre_lost:
                # Two independent searches disagree: a bug in one of them, never a verdict to pick from.
                msg = "CP-SAT found a win where the complete presearch found none"
                return Result(Status.ERROR, None, stats, self.name, msg)
            return self._solved(instance, deal, decode(v, solver), stats)
        if status == cp_model.INFEASIBLE:
            most = None
            if opts.max_cards:
                left = limits.seconds - (time.perf_counter() - t0)
                if left > 0.05:
                    best, bound, _moves, mstats = max_cards_removed(
                        instance, left, opts.workers, incumbent=longest
                    )
                    stats.update(mstats)
                    most = MaxCards(best, bound)
            return Result(Status.UNSOLVABLE, None, stats, self.name, max_cards=most)
        if status == cp_model.UNKNOWN:
            return Result(Status.UNKNOWN, None, stats, self.name, "time limit", Reason.TIME)
        return Result(Status.UNKNOWN, None, stats, self.name, f"cp-sat status {solver.status_name(status)}")

    def _solved(self, inst: Instance, deal: HoleDeal, events: list[Any], stats: dict[str, float]) -> Result:
        """SOLVED with the decoded events as JSON moves (each checked legal in the engine by to_moves)."""
        moves = to_moves(inst, deal, events)
        return Result(Status.SOLVED, tuple(moves), stats, self.name, max_cards=MaxCards(deal.n, deal.n))


# Explanations -------------------------------------------------------------------------------------
def explain(inst: Instance, seconds: float = 10.0) -> list[str] | None:
    """A small set of facts of a lost deal that already make it lost, in words.

    Every pile precedence ("X lies on Y") and hole start is an assumption literal; CP-SAT's
    ``sufficient_assumptions_for_infeasibility`` gives a subset that is infeasible on its own, which is then
    shrunk by deletion (drop a fact, keep it dropped while the rest stays infeasible) in the time left.
    The first proof runs in two stages as :meth:`CpSatBlackHole.solve` does (cheap, then probing); each
    deletion trial gets at least as long as that proof took. Every set returned was proven infeasible.
    Returns None when the deal is winnable or the time runs out before infeasibility is proven.
    CP-SAT runs with one worker: assumption cores need it.
    """
    t0 = time.perf_counter()
    deal = HoleDeal.from_instance(inst)
    v = build_model(deal, facts=True, symmetry=False)  # the cuts slow the deletion trials (docstring)
    keys = list(v.facts)

    def left() -> float:
        return seconds - (time.perf_counter() - t0)

    def infeasible(subset: list[Any], budget: float, probing: int = 0) -> tuple[bool | None, list[Any]]:
        m = v.model
        m.clear_assumptions()
        m.add_assumptions([v.facts[key][0] for key in subset])
        solver = _parameters(budget, 1, v.formulation, probing)  # cores need a single worker
        status = solve_cpsat(solver, m)
        if status == cp_model.INFEASIBLE:
            core = set(solver.sufficient_assumptions_for_infeasibility())
            return True, [key for key in subset if v.facts[key][0].index in core]
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return False, []
        return None, []

    verdict, core = infeasible(keys, min(seconds, 3.0))
    if verdict is None and left() > 0.05:
        verdict, core = infeasible(keys, left(), probing=2)
    if not verdict:
        return None
    trial_budget = max(2.0, time.perf_counter() - t0)
    # Deletion-based shrinking.
    i = 0
    while i < len(core) and left() > 0.05:
        trial = core[:i] + core[i + 1 :]
        got, sub = infeasible(trial, min(left(), trial_budget))
        if got:
            core = [key for key in trial if key in set(sub)] or trial
        else:
            i += 1
    return [v.facts[key][1] for key in core]
