"""Explanations of lost deals: a small set of facts of the deal that already make it lost, in words.

Every pile precedence ("X lies on Y") and hole start is an assumption literal of the model
(``build_model(facts=True)``); CP-SAT's infeasibility core is shrunk by deletion. The model is built
without the same-rank cuts, which slow the deletion trials (docs/cpsat-hole-notes.md).
"""

from __future__ import annotations

import time
from typing import Any

from ortools.sat.python import cp_model

from ...instance import Instance
from ...interrupt import solve_cpsat
from .data import HoleDeal
from .model import build_model
from .params import parameters

__all__ = ["explain"]


def explain(inst: Instance, seconds: float = 10.0) -> list[str] | None:
    """A small set of facts of a lost deal that already make it lost, in words.

    Every pile precedence ("X lies on Y") and hole start is an assumption literal; CP-SAT's
    ``sufficient_assumptions_for_infeasibility`` gives a subset that is infeasible on its own, which is then
    shrunk by deletion (drop a fact, keep it dropped while the rest stays infeasible) in the time left.
    The first proof runs in two stages as the backend does (cheap, then probing; :mod:`.backend`); each
    deletion trial gets at least as long as that proof took. Every set returned was proven infeasible.
    Returns None when the deal is winnable or the time runs out before infeasibility is proven.
    CP-SAT runs with one worker: assumption cores need it.
    """
    t0 = time.perf_counter()
    deal = HoleDeal.from_instance(inst)
    v = build_model(deal, facts=True, symmetry=False)  # the cuts slow the deletion trials (module docstring)
    keys = list(v.facts)

    def left() -> float:
        return seconds - (time.perf_counter() - t0)

    def infeasible(subset: list[Any], budget: float, probing: int = 0) -> tuple[bool | None, list[Any]]:
        m = v.model
        m.clear_assumptions()
        m.add_assumptions([v.facts[key][0] for key in subset])
        solver = parameters(budget, 1, v.formulation, probing)  # cores need a single worker
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
