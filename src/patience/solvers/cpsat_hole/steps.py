"""Formulation "steps" of the Black Hole family: one state per step (pile heights, hole tops).

The state of a hole game without a cell after t plays is exactly the number of cards gone from each pile
and the rank on top of each hole; every state is reached after the same number of plays (t = cards
gone), so a time-indexed model loses nothing to re-reaching a state at another step (unlike Gaps, where
idle and reordered plans re-reach states). The model picks, per step, a card and a hole; a fixed search
forward in time is a depth-first search over plays with
clause learning. It tries first a (card, hole) pair whose rank keeps the direction of the hole's last
play (up or down; Wolter's heuristic, dfs's first choice too), taller piles first, then any card, taller
piles first, hole 0 before hole 1. Measured (docs/cpsat-hole-notes.md): the direction hint found wins of
PySol Binary Star #2, #7, #9, #13 in 29-2,684 conflicts, none of which were found within 15 s without it.

Variables (``t = 0..n-1`` steps, states ``t = 0..n``):

* ``play[t, p]``: step t takes the top card of pile p (exactly one p per step);
* ``gone[p, t, j]``: at least j cards of pile p have gone after t steps (unary counter, j = 1..height);
* ``rank[t, r]``: rank r is played at step t (exactly one r);
* ``into[t, h]``: step t goes to hole h (exactly one h); ``top[h, t, a]``: hole h shows rank a after t
  steps (``a = 0``: still empty).

Constraints: the counters advance only on the played pile, one card at a time, never past the pile's
height; ``play[t, p]`` with exactly ``j - 1`` cards of p gone plays the rank of p's j-th card from the
top; the card fits the top of the hole it goes to (``fits``: rank one up or down, wrapping, King rules)
and becomes its top, the other holes keep theirs. After n steps every pile is empty (n plays, each
taking a card that is still there).

Symmetry: two holes with the same top rank are interchangeable from then on (fitting sees only the top
rank), so when holes h < g show the same rank the step goes to h rather than g. Sound: in any winning
plan, swap the labels of h and g from the first step that breaks this onwards; the result is again a
winning plan, and repeating it fixes the steps one by one in time order.

Soundness and completeness: a solution read step by step plays a top card (the counters) onto a hole
it fits; every winning sequence of plays gives a solution. So infeasibility proves the deal lost.
"""

from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from .data import HoleDeal

__all__ = ["build_steps", "decode_steps", "piles_of"]


def piles_of(deal: HoleDeal) -> list[list[int]]:
    """Cards of each pile, bottom to top."""
    piles: list[list[int]] = []
    for c in range(deal.n):
        if deal.below[c] < 0:
            piles.append([])
        piles[-1].append(c)
    return piles


def build_steps(v: Any, prunes: bool = True) -> None:
    """Fill ``v.model`` (module docstring); ``v.play``, ``v.into`` and ``v.decisions`` are set."""
    m, deal = v.model, v.deal
    if deal.cells:
        raise ValueError("the steps formulation has no free cell (use table or circuit)")
    n, k, R = deal.n, deal.k, deal.R
    piles = piles_of(deal)
    P = len(piles)
    ranks = range(0, R + 1)
    # Literals or the constants 0/1 (folded into the clauses). gone[p][j]: the current state; j = 0 is 1.
    gone: list[list[Any]] = [[1] + [0] * len(piles[p]) for p in range(P)]
    top: list[list[Any]] = [[int(a == deal.hole_rank[h]) for a in ranks] for h in range(k)]
    decisions: list[Any] = []
    up: list[Any] = [1] * k  # the last play on the hole went up (search only)
    for t in range(n):
        play = [m.new_bool_var(f"play_{t}_{p}") for p in range(P)]
        m.add_exactly_one(play)
        rank = {r: m.new_bool_var(f"rank_{t}_{r}") for r in range(1, R + 1)}
        m.add_exactly_one(rank.values())
        into = [m.new_bool_var(f"into_{t}_{h}") for h in range(k)]
        m.add_exactly_one(into)
        v.play.extend(((t, p), play[p]) for p in range(P))
        v.into.extend(((t, h), into[h]) for h in range(k))
        nxt_gone = []
        step_cards: list[tuple[int, int, Any]] = []
        lit_of: dict[int, Any] = {}  # card -> card[t, c]
        rank_of: dict[Any, int] = {}
        for p in range(P):
            L = len(piles[p])
            g, pl = gone[p], play[p]
            _clause(m, [~pl, _neg(g[L])])  # the pile still has a card
            new: list[Any] = [1]
            for j in range(1, L + 1):
                if j > t + 1:
                    new.append(0)
                    continue
                x = m.new_bool_var(f"gone_{p}_{t + 1}_{j}")
                # x <-> g[j] or (pl and g[j - 1])
                _clause(m, [_neg(g[j]), x])
                _clause(m, [~pl, _neg(g[j - 1]), x])
                _clause(m, [~x, g[j], pl])
                _clause(m, [~x, g[j - 1]])
                new.append(x)
            cards_p = []
            for j in range(1, min(L, t + 1) + 1):
                # card[t, c]: playing p with exactly j - 1 cards gone plays its j-th card from the top.
                c = piles[p][L - j]
                x = m.new_bool_var(f"card_{t}_{c}")
                _clause(m, [~x, pl])
                _clause(m, [~x, g[j - 1]])
                _clause(m, [~x, _neg(g[j])])
                _clause(m, [~x, rank[deal.rank[c]]])
                _clause(m, [~pl, _neg(g[j - 1]), g[j], x])
                cards_p.append(x)
                lit_of[c] = x
                rank_of[x] = deal.rank[c]
                step_cards.append((-(L - j), p, x))  # search: most cards left under it first
            _clause(m, [~pl, *cards_p])
            nxt_gone.append(new)
        gone = nxt_gone
        if prunes:
            _wolter(m, deal, piles, gone, lit_of)
        # A rank is played only if it fits some hole (the case split of into[t, .] made explicit).
        for r in range(1, R + 1):
            _clause(m, [~rank[r], *[top[h][a] for h in range(k) for a in ranks if deal.fits(r, a)]])
        new_top = []
        for h in range(k):
            nt = [m.new_bool_var(f"top_{h}_{t + 1}_{a}") for a in ranks]
            m.add_exactly_one(nt)
            m.add(nt[0] == 0)  # a hole is never empty after a step
            for r in range(1, R + 1):
                fits = [top[h][a] for a in ranks if deal.fits(r, a)]
                _clause(m, [~into[h], ~rank[r], *fits])
                _clause(m, [~into[h], ~rank[r], nt[r]])
            for a in ranks:
                _clause(m, [into[h], _neg(top[h][a]), nt[a]])
            new_top.append(nt)
        keeps, up = _direction_hint(m, deal, step_cards, rank_of, into, rank, top, up)
        # Symmetry: holes showing the same rank; the step goes to the lower one.
        for h in range(k):
            for g2 in range(h + 1, k):
                for a in ranks:
                    _clause(m, [_neg(top[h][a]), _neg(top[g2][a]), ~into[g2]])
        top = new_top
        decisions.extend(x for *_, x in sorted(keeps, key=lambda e: e[:3]))
        decisions.extend(x for _, _, x in sorted(step_cards, key=lambda e: e[:2]))
        decisions.extend(into)
    for p in range(P):
        _clause(m, [gone[p][len(piles[p])]])
    v.decisions = decisions
    m.add_decision_strategy(decisions, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)


def _direction_hint(
    m: cp_model.CpModel,
    deal: HoleDeal,
    step_cards: list[tuple[int, int, Any]],
    rank_of: dict[Any, int],
    into: list[Any],
    rank: dict[int, Any],
    top: list[list[Any]],
    up: list[Any],
) -> tuple[list[tuple[int, int, int, Any]], list[Any]]:
    """The search's first choices at one step: (card, hole) pairs whose rank keeps the hole's direction.

    ``up[h]``: the last play on hole h went up (state, carried to the next step, returned); ``keep``
    literals only imply their card, hole and direction, so they restrict nothing (a hint for the fixed
    search, which tries them first, taller piles first; Wolter's heuristic, as dfs orders its moves).
    """
    R, k = deal.R, deal.k
    ranks = range(0, R + 1)
    keeps: list[tuple[int, int, int, Any]] = []
    new_up = []
    for h in range(k):
        u = m.new_bool_var("")
        for a in range(1, R + 1):
            for r in range(1, R + 1):
                if r == _succ(a, R, deal.wrap):
                    _clause(m, [~into[h], _neg(top[h][a]), ~rank[r], u])
                elif r == _pred(a, R, deal.wrap):
                    _clause(m, [~into[h], _neg(top[h][a]), ~rank[r], ~u])
        _clause(m, [into[h], _neg(up[h]), u])
        _clause(m, [into[h], up[h], ~u])
        new_up.append(u)
    # cont[h][r]: rank r on hole h would keep its direction (an implication is all a hint needs).
    cont = [[m.new_bool_var("") for _ in ranks] for _ in range(k)]
    for h in range(k):
        for r in range(1, R + 1):
            below, above = _pred(r, R, deal.wrap), _succ(r, R, deal.wrap)
            _clause(m, [~cont[h][r], _neg(up[h]), top[h][below] if below > 0 else 0])
            _clause(m, [~cont[h][r], up[h], top[h][above] if above > 0 else 0])
    for key0, key1, x in step_cards:
        for h in range(k):
            kl = m.new_bool_var("")
            _clause(m, [~kl, x])
            _clause(m, [~kl, into[h]])
            _clause(m, [~kl, cont[h][rank_of[x]]])
            keeps.append((key0, key1, -h, kl))
    return keeps, new_up


def _wolter(
    m: cp_model.CpModel, deal: HoleDeal, piles: list[list[int]], gone: list[list[Any]], lit_of: dict[int, Any]
) -> None:
    """Wolter's rules 1-2 (``last_card``, ``one_card``; proofs in :mod:`..dfs_hole`) at one step.

    ``gone`` is the state before the step. A pile's last card x is not played while a card of its rank
    tops a pile of two or more cards, nor while a lower-numbered pile holds a single card of its rank.
    As constraints on a whole plan they are sound by the usual forward argument: in a winning plan, fix
    the first step that breaks one by the exchange its proof gives (the steps before it are unchanged),
    and repeat at the next step.
    """

    def on_top(q: int, i: int) -> list[Any]:
        """Literals whose disjunction says: card i (from the bottom) of pile q is not on top now."""
        j = len(piles[q]) - i  # its place from the top
        return [_neg(gone[q][j - 1]), gone[q][j]]

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
                    _clause(m, [~x, *on_top(q, i)])
            if q < p and deal.rank[other[0]] == r:
                _clause(m, [~x, *on_top(q, 0)])


def _succ(a: int, R: int, wrap: bool) -> int:
    return a + 1 if a < R else (1 if wrap else -1)


def _pred(a: int, R: int, wrap: bool) -> int:
    return a - 1 if a > 1 else (R if wrap else -1)


def _neg(x: Any) -> Any:
    """Negation of a literal or of a constant 0/1."""
    return 1 - x if isinstance(x, int) else ~x


def _clause(m: cp_model.CpModel, lits: list[Any]) -> None:
    """Add ``or(lits)``; the constants 0/1 among them are folded in."""
    rest = []
    for x in lits:
        if isinstance(x, int):
            if x:
                return
        else:
            rest.append(x)
    m.add_bool_or(rest) if rest else m.add_bool_or([m.new_constant(0)])


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
