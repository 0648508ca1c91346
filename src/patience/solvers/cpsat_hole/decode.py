"""Between a model and moves: a solution's events, the engine moves they make, and events as a hint.

An *event* is ``(time, kind, card, hole)``: kind 0 parks ``card`` in the free cell, kind 1 moves it to
``hole``; a removal sequence is a sorted list of them (the presearch and the max-cards incumbent use the
same form). Every decoded move is checked legal in an :class:`~patience.engine.Engine` before it is
written out; :meth:`patience.solvers.base.Backend.solve` then validates the whole solution.
"""

from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from ...engine import CELL, FOUNDATION, TABLEAU, Engine
from ...instance import Instance
from .data import HoleDeal
from .model import ModelVars
from .steps import decode_steps

__all__ = ["decode", "hint_order", "order_events", "to_moves"]


def order_events(order: list[int]) -> list[Any]:
    """The events of a one-hole removal sequence without a cell (cards in play order)."""
    return [(t, 1, c, 0) for t, c in enumerate(order)]


def hint_order(v: ModelVars, events: list[Any]) -> None:
    """Hint a (partial) one-hole removal sequence (events): positions, and arcs or cards at each step.
    Several holes get no hint."""
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


def decode(v: ModelVars, solver: cp_model.CpSolver) -> list[tuple[int, int, int, int]]:
    """Events ``(time, kind, card, hole)`` of a solution, sorted; kind 0 = park in the cell, 1 = to hole."""
    if v.formulation == "steps":
        return decode_steps(v, solver)
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
