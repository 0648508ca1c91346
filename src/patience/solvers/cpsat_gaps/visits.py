"""Formulation "visits": a Gaps plan as a set of move events with fixed card and cell, ordered in time.

Notation and the bounds ``dest``, ``arr``, ``ub`` and ``mult``: :mod:`.bounds`. Lemma 3 there bounds
how often card x can enter cell p, so every play is a set of *events* ``e = (x, p, i)``, ``i <
mult(x, p)``, each used at most once. Unlike "steps" (a state per step) and "events" (a variable cell
per move), an event's card and cell are constants: the model only chooses which events happen and in
which order, and moves of different gaps that commute are not ordered against each other at all.

Variables
---------
* ``act[e]`` (bool): event e happens; ``time[e]`` in ``max(1, arr(x, p))..N`` (``N`` = number of
  events, so every plan fits: renumber its moves 1..M, M <= N) its step. Active times are distinct
  (``NoOverlap`` of the unit intervals ``[time, time + 1)``).
* A *stay* of card x is its dealt cell over ``[0, end0[x])`` or an event's cell over ``[time[e],
  end[e])``; the stays of x partition time: per card an ``AddCircuit`` over a depot node (the deal) and
  its events (self-loop = the event does not happen; the depot's self-loop: x never moves). An arc
  ``u -> e`` sets ``end[u] = time[e]`` and ``time[e] > time[u]`` (u's stay ends with the move e); an
  arc ``e -> depot`` makes e's stay the last (``end[e] = N + 1``).
* ``sel[e, s]`` (bool, rank >= 3): event e = (x, p, i) lands right of x - 1 during its stay s in p - 1:
  ``sum_s sel = act[e]``, ``sel -> present(s), start(s) < time[e] < end(s)``.

Constraints
-----------
1. One card a cell: per cell a ``NoOverlap`` of its stays (the dealt card's and the events'); so the
   target of a move is a gap then.
2. Entries of the same (x, p) come in order of i, in strictly later stays of x - 1 (Lemma 3's proof),
   and two consecutive events of x are never in the same cell (x would move into the cell it holds).
3. Goal: the last stay of every card is its goal cell ``R row[s] + rank - 2`` with ``row`` a
   permutation of the suits (as in "steps").
4. Cuts: ``moves(x) <= ub(x)`` and ``moves(x) <= moves(x - 1) + [x not dealt right of x - 1]``
   (Lemma 1); ``time[e] >= arr(x, p)`` (the arrival relaxation, sound for move numbers 1..M).

Soundness: a solution replays in time order: x leaves its previous stay exactly at ``time[e]`` (the
circuit), x - 1 lies in p - 1 then (``sel``; stays partition time), p is a gap then (constraint 1),
and at the end every card is in its goal: a won grid. Completeness: every winning play gives a
solution (moves numbered 1..M, entries of (x, p) numbered in time order, at most ``mult`` of them by
Lemma 3), so infeasibility proves the deal lost when the bounds are proven (fixed-suit).
"""

from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

__all__ = ["build_visits"]


def build_visits(v: Any, goal_rows: Any, on_time: Any, compact: bool = False) -> None:
    """Fill ``v.model`` with the visits formulation (module docstring); events in ``v.events``."""
    m, deal, b = v.model, v.deal, v.b
    cards = deal.cards
    evs = [(c, p, i) for (c, p), k in sorted(b.mult.items()) for i in range(k)]
    N = max(len(evs), 1)
    big = N + 1
    act: dict[tuple[int, int, int], Any] = {}
    tim: dict[tuple[int, int, int], Any] = {}
    end: dict[tuple[int, int, int], Any] = {}
    for e in evs:
        c, p, i = e
        act[e] = m.new_bool_var(f"act_{c}_{p}_{i}")
        lo = max(1, b.arrival.get((c, p), 1))
        tim[e] = m.new_int_var(min(lo, N), N, f"time_{c}_{p}_{i}")
        end[e] = m.new_int_var(1, big, f"end_{c}_{p}_{i}")
        if i:
            prev = (c, p, i - 1)
            m.add_implication(act[e], act[prev])
            m.add(tim[e] > tim[prev]).only_enforce_if(act[e])
    v.events = {e: (act[e], tim[e]) for e in evs}
    count = m.new_int_var(0, N, "moves")
    m.add(count == sum(act.values()))
    if compact:
        # Plans can be renumbered 1..M: every active time is at most the number of moves.
        for e in evs:
            m.add(tim[e] <= count).only_enforce_if(act[e])
    by_card: dict[int, list[tuple[int, int, int]]] = {c: [] for c in cards}
    for e in evs:
        by_card[e[0]].append(e)
    end0 = {c: m.new_int_var(1, big, f"end0_{c}") for c in cards}
    last: dict[Any, Any] = {}  # stay -> literal "this is the card's last stay"
    moves: dict[int, Any] = {}
    for c in cards:
        on_time(v)
        own = by_card[c]
        still = m.new_bool_var(f"still_{c}")
        moves[c] = sum(act[e] for e in own)
        if not own:
            m.add(still == 1)
        arcs: list[tuple[int, int, Any]] = [(0, 0, still)]
        node = {e: k + 1 for k, e in enumerate(own)}
        for e in own:
            arcs.append((node[e], node[e], ~act[e]))
        last[("deal", c)] = still
        m.add(end0[c] == big).only_enforce_if(still)
        for e in own:
            # depot -> e: e is the first move; e -> depot: e's stay is the last.
            if e[1] != b.init[c]:
                lit = m.new_bool_var(f"first_{c}_{e[1]}_{e[2]}")
                arcs.append((0, node[e], lit))
                m.add(end0[c] == tim[e]).only_enforce_if(lit)
            lit = m.new_bool_var(f"final_{c}_{e[1]}_{e[2]}")
            arcs.append((node[e], 0, lit))
            m.add(end[e] == big).only_enforce_if(lit)
            last[e] = lit
            for f in own:
                if f[1] == e[1]:
                    continue  # never into the cell the card holds
                lit = m.new_bool_var(f"next_{c}_{e[1]}_{e[2]}_{f[1]}_{f[2]}")
                arcs.append((node[e], node[f], lit))
                m.add(end[e] == tim[f]).only_enforce_if(lit)
                m.add(tim[f] > tim[e]).only_enforce_if(lit)
        if own:
            m.add_circuit(arcs)
        for e in own:
            m.add(end[e] == big).only_enforce_if(~act[e])  # a fixed value for absent events
    # Stays: (cell, start, end, presence) of the dealt cards and the events.
    stays: dict[int, list[tuple[Any, Any, Any, Any]]] = {}  # card -> [(key, cell, start, end, present)]
    per_cell: dict[int, list[Any]] = {}
    # A stay blocks its cell over [start, end + 1): a card enters only after the last one left, at a
    # strictly later time; moves at equal times are then independent (any order replays).
    for c in cards:
        p0 = b.init[c]
        per_cell.setdefault(p0, []).append(m.new_interval_var(0, end0[c] + 1, end0[c] + 1, f"stay0_{c}"))
    for e in evs:
        c, p, i = e
        size = m.new_int_var(1, big + 1, f"len_{c}_{p}_{i}")
        per_cell.setdefault(p, []).append(
            m.new_optional_interval_var(tim[e], size, end[e] + 1, act[e], f"stay_{c}_{p}_{i}")
        )
    for ivs in per_cell.values():
        if len(ivs) > 1:
            m.add_no_overlap(ivs)
    # Stays of each card in each cell, in time order: the dealt stay first, then entries by i.
    for c in cards:
        lst = []
        lst.append((b.init[c], 0, end0[c], 1))
        for e in by_card[c]:
            lst.append((e[1], tim[e], end[e], act[e]))
        stays[c] = lst
    # A card of rank >= 3 lands right of its predecessor during one of the predecessor's stays.
    for e in evs:
        c, p, i = e
        if deal.rank(c) == 2:
            continue
        cand = [s for s in stays[c - 1] if s[0] == p - 1]
        sels = []
        for k, (_q, st, en, pres) in enumerate(cand):
            s = m.new_bool_var(f"sel_{c}_{p}_{i}_{k}")
            sels.append((k, s))
            if not isinstance(pres, int):
                m.add_implication(s, pres)
            m.add(tim[e] > st).only_enforce_if(s)
            m.add(tim[e] < en).only_enforce_if(s)
        m.add(sum(s for _, s in sels) == act[e])
        if i:
            # Entry i uses a strictly later stay than entry i - 1.
            prev_sels = v.sel[(c, p, i - 1)]
            for k, s in sels:
                for k0, s0 in prev_sels:
                    if k0 >= k:
                        m.add_bool_or([~s, ~s0])
        v.sel[e] = sels
    # Cuts: Lemma 1.
    for c in cards:
        if by_card[c]:
            m.add(moves[c] <= b.ub[c])
            if deal.rank(c) > 2:
                m.add(moves[c] <= moves[c - 1] + (0 if b.right[c] else 1))
    # Goal: every card's last stay is its goal cell in its suit's row.
    row = goal_rows(v)
    for c in cards:
        s = deal.suit(c)
        places = [(("deal", c), b.init[c])] + [(e, e[1]) for e in by_card[c]]
        for key, p in places:
            lit = last[key]
            rows = [r for r in range(deal.rows) if deal.goal(c, r) == p]
            if not rows:
                m.add(lit == 0)
            else:
                m.add_bool_or([row[(s, r)] for r in rows]).only_enforce_if(lit)


def decode_visits(v: Any, solver: cp_model.CpSolver) -> list[tuple[int, int]]:
    """The plan as ``(card, target cell)`` pairs in time order."""
    chosen = sorted(
        (solver.value(t), c, p) for (c, p, _i), (a, t) in v.events.items() if solver.boolean_value(a)
    )
    return [(c, p) for _, c, p in chosen]
