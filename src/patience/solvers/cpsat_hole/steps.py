"""Formulation "steps" of the Black Hole family: one state per step (pile heights, hole tops).

The state of a hole game without a cell after t plays is exactly the number of cards gone from each pile
and the rank on top of each hole; every state is reached after the same number of plays (t = cards
gone), so a time-indexed model loses nothing to re-reaching a state at another step (unlike Gaps, where
idle and reordered plans re-reach states). The model picks, per step, a card and a hole; a fixed search
forward in time is a depth-first search over plays with clause learning (CP-SAT makes no restarts
under it), where unit propagation through the later steps tests each play. It tries first a (card,
hole) pair whose rank keeps the direction of the hole's last play (up or down; Wolter's heuristic),
taller piles first, then any card, taller piles first, hole 0 before hole 1. Ties between equally tall
piles decide a lot, and the conflicts to a win under one order are heavy tailed: :func:`solve_steps`
runs stages, the lower pile first (``"direction"``, up to 8,000 conflicts), the higher pile first
(``"direction-hi"``, 4,000), then ties in a shuffled order (``"direction-r1"`` ... ``-r12``, 3,000
each), until a verdict or the time limit (measured on PySol Binary Star: a shuffled order often wins in
under 100 conflicts a deal where the first two need more than 8,000; docs/cpsat-hole-notes.md).

Variables (``t = 0..n-1`` steps, states ``t = 0..n``):

* ``play[t, p]``: step t takes the top card of pile p (exactly one p per step);
* ``gone[p, t, j]``: at least j cards of pile p have gone after t steps (unary counter, j = 1..height);
  only for ``j <= t`` (no more than t cards are gone after t steps: the constant 0 above that);
* ``card[t, c]``: step t plays card c (only for cards that can be on top then: at most t cards above);
* ``rank[t, r]``: rank r is played at step t (exactly one r);
* ``into[t, h]``: step t goes to hole h (exactly one h); ``top[h, t, a]``: hole h shows rank a after t
  steps (``a = 0``: still empty, until a step goes to it; an earlier version had every hole non-empty
  after step 0, which made every deal with two empty holes infeasible).

Constraints: the counters advance only on the played pile, one card at a time, never past the pile's
height; ``play[t, p]`` with exactly ``j - 1`` cards of p gone plays the rank of p's j-th card from the
top; the card fits the top of the hole it goes to (``fits``: rank one up or down, wrapping, King rules)
and becomes its top, the other holes keep theirs. After n steps every pile is empty (n plays, each
taking a card that is still there).

Symmetry: two holes with the same top rank are interchangeable from then on (fitting sees only the top
rank), so when holes h < g show the same rank the step goes to h rather than g. Sound: in any winning
plan, swap the labels of h and g from the first step that breaks this onwards; the result is again a
winning plan, and repeating it fixes the steps one by one in time order.

Implied constraints (each cuts no winning plan; theorem and proof in its function, tested against
brute force and on every state of every win of small decks in tests/solvers/cpsat_hole/test_steps.py):
Wolter's rules 1-2 (:func:`_wolter`), rank reachability (:func:`_reach`: a rank with cards left must
be reachable from a hole top through ranks with cards left) and buried cards (:func:`_blocked`: a card
still there needs a hole top, or a card still there and not below it, that it fits on).

Soundness and completeness: a solution read step by step plays a top card (the counters) onto a hole
it fits; every winning sequence of plays gives a solution. So infeasibility proves the deal lost.

The model is written as clauses over CP-SAT literal indices (``i``, or ``-i - 1`` for its negation)
straight into the proto (:class:`_Cnf`): the model API's per-call cost was most of the build (Binary
Star: 4.8-6.8 s before, 2.7-3.0 s after, with the reach and buried-card constraints added; load ~6).
"""

from __future__ import annotations

import random
import time
from functools import lru_cache
from typing import Any

from ortools.sat.python import cp_model

from ...interrupt import solve_cpsat
from .data import HoleDeal
from .params import parameters, solver_stats

__all__ = ["CONFLICTS", "ORDERS", "build_steps", "decode_steps", "piles_of", "solve_steps"]

# The fixed search orders of the stages of solve_steps, and the conflicts each stage may take (the last
# value for every later stage; the last stage runs to the time limit). Measured: docs/cpsat-hole-notes.md.
ORDERS = ("direction", "direction-hi", *(f"direction-r{i}" for i in range(1, 13)))
CONFLICTS = (8000, 4000, 3000)

Lit = int | bool  # a literal index, or the constant True / False (folded into the clauses)


def piles_of(deal: HoleDeal) -> list[list[int]]:
    """Cards of each pile, bottom to top."""
    piles: list[list[int]] = []
    for c in range(deal.n):
        if deal.below[c] < 0:
            piles.append([])
        piles[-1].append(c)
    return piles


class _Cnf:
    """Boolean variables and clauses over literal indices, written to a CP-SAT proto at once."""

    def __init__(self) -> None:
        self.n = 0
        self.ors: list[list[int]] = []
        self.ands: list[tuple[int, list[int]]] = []  # (e, lits): e implies every literal
        self.ones: list[list[int]] = []  # exactly one
        self.false = False  # an empty clause was added

    def new(self) -> int:
        """A fresh Boolean variable."""
        self.n += 1
        return self.n - 1

    def clause(self, lits: list[Lit]) -> None:
        """``or(lits)``, constants folded."""
        out = []
        for x in lits:
            if x is True:
                return
            if x is not False:
                out.append(x)
        if out:
            self.ors.append(out)
        else:
            self.false = True

    def implies(self, e: int, lits: list[Lit]) -> None:
        """``e -> and(lits)``, constants folded."""
        out = []
        for x in lits:
            if x is False:
                self.ors.append([-e - 1])
                return
            if x is not True:
                out.append(x)
        if out:
            self.ands.append((e, out))

    def exactly_one(self, lits: list[int]) -> None:
        """Exactly one of ``lits`` (literal indices, no constants)."""
        self.ones.append(lits)

    def write(self, m: cp_model.CpModel) -> None:
        """Append the variables (indices from 0: ``m`` must have none yet) and constraints to ``m``."""
        proto = m.Proto()
        if len(proto.variables):
            raise ValueError("the clauses index the model's variables from 0")
        proto.merge_text_format("variables { domain: [0, 1] }\n" * self.n)
        add = proto.constraints.add
        for c in self.ors:
            add().bool_or.literals.extend(c)
        for e, lits in self.ands:
            ct = add()
            ct.enforcement_literal.append(e)
            ct.bool_and.literals.extend(lits)
        for lits in self.ones:
            add().exactly_one.literals.extend(lits)
        if self.false:
            m.add_bool_or([m.new_constant(0)])


def neg(x: Lit) -> Lit:
    """Negation of a literal index or of a constant."""
    if x is True or x is False:
        return not x
    return -x - 1


def build_steps(
    v: Any,
    prunes: bool = True,
    reach: bool = True,
    blocked: bool = True,
    orders: tuple[str, ...] = ORDERS,
) -> None:
    """Fill ``v.model`` (module docstring); ``v.play``, ``v.into`` and ``v.decisions`` are set.

    ``prunes``: Wolter's rules 1-2 (:func:`_wolter`); ``reach``: the rank-reachability constraints
    (:func:`_reach`); ``blocked``: the buried-card constraints (:func:`_blocked`); ``orders``: the fixed
    search order of each stage of :func:`solve_steps` (:func:`_hints`), one decision list each in
    ``v.decisions``; the model's own search strategy is the first.
    """
    m, deal = v.model, v.deal
    if deal.cells:
        raise ValueError("the steps formulation has no free cell (use table or circuit)")
    n, k, R = deal.n, deal.k, deal.R
    piles = piles_of(deal)
    P = len(piles)
    ranks = range(0, R + 1)
    fits = [[r >= 1 and deal.fits(r, a) for a in ranks] for r in ranks]  # fits[r][a]
    cnf = _Cnf()
    reach_ok = reach and _reach_applies(deal)
    # gone[p][j]: the current state; j = 0 is True.
    gone: list[list[Lit]] = [[True] + [False] * len(piles[p]) for p in range(P)]
    top: list[list[Lit]] = [[a == deal.hole_rank[h] for a in ranks] for h in range(k)]
    decisions: list[list[int]] = [[] for _ in orders]
    plays: list[tuple[tuple[int, int], int]] = []
    intos: list[tuple[tuple[int, int], int]] = []
    up: list[Lit] = [True] * k  # the last play on the hole went up (search only)
    for t in range(n):
        play = [cnf.new() for _ in range(P)]
        cnf.exactly_one(play)
        rank: list[Lit] = [False] + [cnf.new() for _ in range(R)]
        cnf.exactly_one(rank[1:])  # type: ignore[arg-type]
        into = [cnf.new() for _ in range(k)]
        cnf.exactly_one(into)
        plays.extend(((t, p), play[p]) for p in range(P))
        intos.extend(((t, h), into[h]) for h in range(k))
        nxt_gone = []
        step_cards: list[tuple[int, int, int, int]] = []  # (cards left under it, pile, card, literal)
        lit_of: dict[int, int] = {}  # card -> card[t, c]
        for p in range(P):
            L = len(piles[p])
            g, pl = gone[p], play[p]
            cnf.clause([-pl - 1, neg(g[L])])  # the pile still has a card
            new: list[Lit] = [True]
            for j in range(1, L + 1):
                if j > t + 1:
                    new.append(False)
                    continue
                x = cnf.new()
                # x <-> g[j] or (pl and g[j - 1])
                cnf.clause([neg(g[j]), x])
                cnf.clause([-pl - 1, neg(g[j - 1]), x])
                cnf.clause([-x - 1, g[j], pl])
                cnf.clause([-x - 1, g[j - 1]])
                new.append(x)
            cards_p: list[Lit] = [-pl - 1]
            for j in range(1, min(L, t + 1) + 1):
                # card[t, c]: playing p with exactly j - 1 cards gone plays its j-th card from the top.
                c = piles[p][L - j]
                x = cnf.new()
                cnf.implies(x, [pl, g[j - 1], neg(g[j]), rank[deal.rank[c]]])
                cnf.clause([-pl - 1, neg(g[j - 1]), g[j], x])
                cards_p.append(x)
                lit_of[c] = x
                step_cards.append((L - j, p, c, x))
            cnf.clause(cards_p)
            nxt_gone.append(new)
        if prunes:
            _wolter(cnf, deal, piles, gone, lit_of)
        # A rank is played only if it fits some hole (the case split of into[t, .] made explicit).
        for r in range(1, R + 1):
            cnf.clause([-rank[r] - 1, *[top[h][a] for h in range(k) for a in ranks if fits[r][a]]])
        new_top = []
        for h in range(k):
            ih = into[h]
            nt: list[Lit] = [_still_empty(cnf, top[h][0], ih)] + [cnf.new() for _ in range(R)]
            cnf.exactly_one([x for x in nt if x is not False])  # type: ignore[misc]
            for r in range(1, R + 1):
                cnf.clause([-ih - 1, -rank[r] - 1, *[top[h][a] for a in ranks if fits[r][a]]])
                cnf.clause([-ih - 1, -rank[r] - 1, nt[r]])
            for a in range(1, R + 1):
                cnf.clause([ih, neg(top[h][a]), nt[a]])
            new_top.append(nt)
        firsts, up = _hints(cnf, deal, orders, step_cards, into, rank, top, up)
        # Symmetry: holes showing the same rank; the step goes to the lower one.
        for h in range(k):
            for g2 in range(h + 1, k):
                for a in ranks:
                    cnf.clause([neg(top[h][a]), neg(top[g2][a]), -into[g2] - 1])
        gone, top = nxt_gone, new_top
        if reach_ok and t + 1 < n:
            _reach(cnf, deal, piles, gone, top)
        if blocked and t + 1 < n:
            _blocked(cnf, deal, piles, gone, top)
        rest = [x for *_, x in sorted(step_cards, key=lambda e: (-e[0], e[1]))] + into
        for d, first in zip(decisions, firsts, strict=True):
            d.extend(first)
            d.extend(rest)
    for p in range(P):
        cnf.clause([gone[p][len(piles[p])]])
    cnf.write(m)
    lit = m.get_bool_var_from_proto_index
    v.play = [(key, lit(i)) for key, i in plays]
    v.into = [(key, lit(i)) for key, i in intos]
    v.decisions = decisions
    set_order(m, decisions[0])


def set_order(m: cp_model.CpModel, decisions: list[int]) -> None:
    """Make ``decisions`` (literal indices, each tried true first, in order) the model's fixed search."""
    proto = m.Proto()
    proto.search_strategy.clear()
    strategy = proto.search_strategy.add()
    strategy.variables.extend(decisions)  # one call (30,000 exprs one by one took 0.3 s a stage)
    strategy.variable_selection_strategy = cp_model.CHOOSE_FIRST
    strategy.domain_reduction_strategy = cp_model.SELECT_MAX_VALUE


def solve_steps(
    v: Any, seconds: float, workers: int, conflicts: tuple[int, ...] = CONFLICTS
) -> tuple[Any, cp_model.CpSolver, dict[str, float]]:
    """Solve in stages, one per order of ``v.decisions``, until a verdict or ``seconds`` run out.

    Stage i may take ``conflicts[i]`` conflicts (the last value for later stages; the last stage has no
    conflict limit) within the time left. Returns (status, the last solver, conflicts / branches /
    seconds summed over the stages, and the number of stages run). Every stage searches the same model,
    so any stage's verdict is the model's. Why stages: the time to a win under a fixed order is heavy
    tailed, and orders that differ only in how ties between equally tall piles are broken win different
    deals (docs/cpsat-hole-notes.md); conflict budgets make each stage's outcome independent of the load.
    """
    t0 = time.perf_counter()
    stats: dict[str, float] = {}
    status = cp_model.UNKNOWN
    last = len(v.decisions) - 1
    for i, decisions in enumerate(v.decisions):
        left = seconds - (time.perf_counter() - t0)
        if left <= 0.05 and i:
            break
        set_order(v.model, decisions)
        solver = parameters(left, workers, "steps")
        if i < last:
            solver.parameters.max_number_of_conflicts = conflicts[min(i, len(conflicts) - 1)]
        status = solve_cpsat(solver, v.model)
        for key, value in solver_stats(solver).items():
            stats[key] = stats.get(key, 0.0) + value
        stats["stages"] = i + 1.0
        if status != cp_model.UNKNOWN:
            break
    return status, solver, stats


def _still_empty(cnf: _Cnf, empty: Lit, into: int) -> Lit:
    """Hole still empty after the step: it was empty and the step went elsewhere (False if never)."""
    if empty is False:
        return False
    x = cnf.new()
    cnf.clause([-x - 1, empty])
    cnf.clause([-x - 1, -into - 1])
    cnf.clause([x, neg(empty), into])
    return x


def _hints(
    cnf: _Cnf,
    deal: HoleDeal,
    orders: tuple[str, ...],
    step_cards: list[tuple[int, int, int, int]],
    into: list[int],
    rank: list[Lit],
    top: list[list[Lit]],
    up: list[Lit],
) -> tuple[list[list[int]], list[Lit]]:
    """The search's first choices at one step for each order, as literals that only imply their card
    and hole (so they restrict nothing), and the next ``up``.

    ``"direction"``: (card, hole) pairs whose rank keeps the hole's direction (``up[h]``: the last play
    on hole h went up; state carried to the next step and returned), taller piles first (Wolter's
    heuristic), then the lower pile, hole 1 before hole 0; ``"direction-hi"``: the same pairs, the higher
    pile first among equally tall ones. ``"dfs"``: every (card, hole) pair in dfs's order (hole by hole
    from the last, taller piles first, then the higher pile). ``"none"``: no hint.
    """
    R, k = deal.R, deal.k
    bad = {o for o in orders if not _known_order(o)}
    if bad:
        raise ValueError(f"unknown search order {sorted(bad)[0]!r}")
    keys: dict[str, list[tuple[tuple[int, ...], int]]] = {o: [] for o in orders}
    if "dfs" in orders:
        for left, p, _c, x in step_cards:
            for h in range(k):
                mv = cnf.new()
                cnf.implies(mv, [x, into[h]])
                keys["dfs"].append(((-h, -left, -p), mv))
    new_up: list[Lit] = up
    P = sum(b < 0 for b in deal.below)
    ties = [(o, _ties(o, P)) for o in orders if o.startswith("direction")]
    if ties:
        new_up = []
        for h in range(k):
            u = cnf.new()
            ih = -into[h] - 1
            for a in range(1, R + 1):
                ta = neg(top[h][a])
                s, d = _succ(a, R, deal.wrap), _pred(a, R, deal.wrap)
                if s > 0:
                    cnf.clause([ih, ta, -rank[s] - 1, u])  # type: ignore[operator]
                if d > 0 and d != s:
                    cnf.clause([ih, ta, -rank[d] - 1, -u - 1])  # type: ignore[operator]
            cnf.clause([into[h], neg(up[h]), u])
            cnf.clause([into[h], up[h], -u - 1])
            new_up.append(u)
        # cont[h][r]: rank r on hole h would keep its direction (an implication is all a hint needs).
        cont = [[0] * (R + 1) for _ in range(k)]
        for h in range(k):
            for r in range(1, R + 1):
                below, above = _pred(r, R, deal.wrap), _succ(r, R, deal.wrap)
                x = cont[h][r] = cnf.new()
                cnf.clause([-x - 1, neg(up[h]), top[h][below] if below > 0 else False])
                cnf.clause([-x - 1, up[h], top[h][above] if above > 0 else False])
        for left, p, c, x in step_cards:
            for h in range(k):
                kl = cnf.new()
                cnf.implies(kl, [x, into[h], cont[h][deal.rank[c]]])
                for o, tie in ties:
                    keys[o].append(((-left, tie[p], -h), kl))
    return [[x for _, x in sorted(keys[o])] for o in orders], new_up


def _known_order(o: str) -> bool:
    """Is ``o`` an order :func:`_hints` knows?"""
    return o in ("direction", "direction-hi", "dfs", "none") or (o[:11] == "direction-r" and o[11:].isdigit())


def _ties(o: str, P: int) -> list[int]:
    """Per pile, its place among equally tall piles in direction order ``o`` (lower tried first)."""
    if o == "direction":
        return list(range(P))
    if o == "direction-hi":
        return [-p for p in range(P)]
    return _shuffled(int(o[11:]), max(64, P))[:P]


@lru_cache(maxsize=64)
def _shuffled(seed: int, n: int) -> list[int]:
    """``range(n)`` shuffled by ``random.Random(seed)``: the tie-break of order ``direction-r<seed>``."""
    x = list(range(n))
    random.Random(seed).shuffle(x)
    return x


def _wolter(
    cnf: _Cnf, deal: HoleDeal, piles: list[list[int]], gone: list[list[Lit]], lit_of: dict[int, int]
) -> None:
    """Wolter's rules 1-2 (``last_card``, ``one_card``; proofs in :mod:`..dfs_hole`) at one step.

    ``gone`` is the state before the step. A pile's last card x is not played while a card of its rank
    tops a pile of two or more cards, nor while a lower-numbered pile holds a single card of its rank.
    As constraints on a whole plan they are sound by the usual forward argument: in a winning plan, fix
    the first step that breaks one by the exchange its proof gives (the steps before it are unchanged),
    and repeat at the next step.
    """
    for p, pile in enumerate(piles):
        x = lit_of.get(pile[0])
        if x is None:
            continue
        r = deal.rank[pile[0]]
        for q, other in enumerate(piles):
            if q == p:
                continue
            for i in range(1, len(other)):
                if deal.rank[other[i]] == r:
                    j = len(other) - i  # card i (from the bottom) of pile q is not on top now
                    cnf.clause([-x - 1, neg(gone[q][j - 1]), gone[q][j]])
            if q < p and deal.rank[other[0]] == r:
                j = len(other)
                cnf.clause([-x - 1, neg(gone[q][j - 1]), gone[q][j]])


def _reach_applies(deal: HoleDeal) -> bool:
    """:func:`_reach`'s conditions: 3 ranks or more, every step a non-empty top allows is one rank."""
    R = deal.R
    return R >= 3 and all(
        not deal.fits(r, a) or r in (_succ(a, R, deal.wrap), _pred(a, R, deal.wrap))
        for a in range(1, R + 1)
        for r in range(1, R + 1)
    )


def _reach(
    cnf: _Cnf, deal: HoleDeal, piles: list[list[int]], gone: list[list[Lit]], top: list[list[Lit]]
) -> None:
    """Rank reachability at one state (after the step): every rank with cards left can still be played.

    ``left[r]``: some card of rank r is still in the tableau; ``T[x]``: some hole shows rank x.
    ``below[r]``: a hole shows ``r - i`` (``i >= 1``, wrapping) and ranks ``r - i + 1 .. r - 1`` are all
    left; ``above[r]`` the same upwards; ``turn[r]``: a hole shows r and ``r - 1`` or ``r + 1`` is left.
    Clauses: ``left[r] -> below[r] or above[r] or turn[r] or some hole is empty``; ``below[r] -> T[r - 1]
    or (left[r - 1] and below[r - 1])`` (and the mirror for above); ``turn[r] -> T[r]``, ``turn[r] ->
    left[r - 1] or left[r + 1]``.

    Theorem (conditions: :func:`_reach_applies`, 3 ranks or more and every step a non-empty top allows
    one rank up or down; ``king_blocks`` only removes steps): in every state of a winning plan these
    clauses hold with the literals read as defined. Proof: take a rank r with cards left and the first
    later play of an r card, onto hole h. If h is empty now, the clause holds. Else list h's tops from now
    to that play: ``y`` (its top now), then the ranks of the cards played on h meanwhile, then r; each
    step is one rank up or down, and every rank after ``y`` is that of a card still in the tableau now
    (left). Cut the walk at its first visit of r after the start. If ``r != y``, the walk's ranks form an
    arc of the rank line (or cycle) holding y and r, so one of the two monotone paths from y to r lies
    in it; its inner ranks are neither y nor r, so left: ``below[r]`` or ``above[r]`` holds with i its
    length, and the implications hold along it (each inner rank has the same path, one shorter). If
    ``r == y``, h shows r and the walk's first step, ``r - 1`` or ``r + 1`` (distinct from r with 3
    ranks or more), is left: ``turn[r]``. Not a complete encoding of reachability (a cycle of ``below``
    literals can support itself when no rank is exhausted), which soundness does not need. Tested
    against brute force (tests/solvers/cpsat_hole/test_steps.py).
    """
    R, wrap, k = deal.R, deal.wrap, deal.k
    left: list[Lit] = [False] * (R + 1)
    cards: list[list[Lit]] = [[] for _ in range(R + 1)]
    for p, pile in enumerate(piles):
        L = len(pile)
        for i, c in enumerate(pile):
            cards[deal.rank[c]].append(neg(gone[p][L - i]))  # card c still there
    for r in range(1, R + 1):
        still = cards[r]
        if any(x is True for x in still):
            left[r] = True
            continue
        still = [x for x in still if x is not False]
        if not still:
            continue
        x = left[r] = cnf.new()
        for s in still:
            cnf.clause([neg(s), x])
        cnf.clause([-x - 1, *still])
    empty = [top[h][0] for h in range(k)]
    below: list[Lit] = [False] * (R + 1)
    above: list[Lit] = [False] * (R + 1)
    for r in range(1, R + 1):
        if left[r] is not False:
            below[r] = cnf.new() if _pred(r, R, wrap) > 0 else False
            above[r] = cnf.new() if _succ(r, R, wrap) > 0 else False
    for r in range(1, R + 1):
        if left[r] is False:
            continue
        d, s = _pred(r, R, wrap), _succ(r, R, wrap)
        turn: Lit = False
        sides = [left[x] for x in (d, s) if x > 0]
        shows_r = [top[h][r] for h in range(k)]
        if any(x is not False for x in sides) and any(x is not False for x in shows_r):
            turn = cnf.new()
            cnf.clause([-turn - 1, *shows_r])
            cnf.clause([-turn - 1, *sides])
        cnf.clause([neg(left[r]), below[r], above[r], turn, *empty])
        for side, nb in ((below, d), (above, s)):
            if side[r] is False:
                continue
            shows = [top[h][nb] for h in range(k)]
            cnf.clause([neg(side[r]), *shows, left[nb]])
            cnf.clause([neg(side[r]), *shows, side[nb]])


def _blocked(
    cnf: _Cnf, deal: HoleDeal, piles: list[list[int]], gone: list[list[Lit]], top: list[list[Lit]]
) -> None:
    """Buried cards at one state (after the step): a card still there needs a card it fits on.

    For a card x of rank r still in the tableau: some hole is empty, or shows a rank ``a`` with
    ``fits(r, a)``, or some card y of such a rank is still there and not below x in x's pile.
    Theorem (any holes, wrap and ``king_blocks``; no cell): it holds in every state of a winning plan.
    Proof: x is played later onto a hole h. If h is empty now, done. Else the top of h just before that
    play has a rank a with ``fits(r, a)``; it is h's top now, or the rank of a card y played on h since
    now, before x. Such a y is in the tableau now, and not below x in x's pile (cards leave a pile from
    the top, so a card below x leaves after x). Written only for cards with a fitting card below them
    (for the others it is the one-hop case of :func:`_reach`). Tested against brute force
    (tests/solvers/cpsat_hole/test_steps.py).
    """
    k = deal.k
    here: list[Lit] = [False] * deal.n  # card c still in the tableau
    for p, pile in enumerate(piles):
        L = len(pile)
        for i, c in enumerate(pile):
            here[c] = neg(gone[p][L - i])
    empty = [top[h][0] for h in range(k)]
    for x, on, mates in _buried(deal, tuple(map(tuple, piles))):
        if here[x] is not False:
            shows = [top[h][a] for h in range(k) for a in on]
            cnf.clause([neg(here[x]), *empty, *shows, *[here[y] for y in mates]])


@lru_cache(maxsize=4)
def _buried(deal: HoleDeal, piles: tuple[tuple[int, ...], ...]) -> list[tuple[int, list[int], list[int]]]:
    """(x, the ranks x fits on, the cards of those ranks not below x) for every card x with such a card
    below it in its pile (:func:`_blocked`)."""
    out = []
    for pile in piles:
        for i, x in enumerate(pile):
            on = [a for a in range(1, deal.R + 1) if deal.fits(deal.rank[x], a)]
            under = set(pile[:i])
            if any(deal.rank[y] in on for y in under):
                out.append((x, on, [y for y in range(deal.n) if deal.rank[y] in on and y not in under]))
    return out


def _succ(a: int, R: int, wrap: bool) -> int:
    return a + 1 if a < R else (1 if wrap else -1)


def _pred(a: int, R: int, wrap: bool) -> int:
    return a - 1 if a > 1 else (R if wrap else -1)


def decode_steps(v: Any, solver: cp_model.CpSolver) -> list[tuple[int, int, int, int]]:
    """Events ``(time, 1, card, hole)`` of a solution (the form of :func:`.decode.decode`)."""
    piles = piles_of(v.deal)
    height = [len(p) for p in piles]
    pile_at = {t: p for (t, p), lit in v.play if solver.boolean_value(lit)}
    hole_at = {t: h for (t, h), lit in v.into if solver.boolean_value(lit)}
    events = []
    for t in range(v.deal.n):
        p = pile_at[t]
        height[p] -= 1
        events.append((t, 1, piles[p][height[p]], hole_at[t]))
    return events
