"""Max cards removed: the longest legal removal sequence of a deal, with CP-SAT's proven bound.

The model is :func:`~.model.build_model` with ``optional=True`` (cards may stay; maximise the cards
removed); CP-SAT's objective bound is the proven upper bound reported as ``Result.max_cards``. The
sequence found is replayed by the validator before it is returned.
"""

from __future__ import annotations

from typing import Any

from ortools.sat.python import cp_model

from ...instance import Instance
from ...interrupt import solve_cpsat
from ...validate import replay
from .data import HoleDeal
from .decode import decode, hint_order, to_moves
from .model import build_model
from .params import parameters, solver_stats

__all__ = ["max_cards_removed"]


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
    ``incumbent``: a known sequence (events, e.g. the presearch's longest), the solution hint
    (one hole) and returned instead when CP-SAT finds nothing longer in time (with several holes it often
    finds nothing at all).
    """
    deal = HoleDeal.from_instance(inst)
    v = build_model(deal, formulation, optional=True)
    m = v.model
    m.maximize(v.length if v.length is not None else sum(~s for s in v.skip))
    if incumbent:
        hint_order(v, incumbent)
    solver = parameters(seconds, workers, v.formulation)
    status = solve_cpsat(solver, m)
    stats = solver_stats(solver, "max_")
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
