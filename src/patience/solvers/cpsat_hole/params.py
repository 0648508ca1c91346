"""CP-SAT parameters of the Black Hole family models and the solver statistics they report.

Chosen by measurement (docs/cpsat-hole-notes.md): ``cp_model_probing_level = 0`` for the cheap stage
(2 for the probing stage of :mod:`.backend`), SAT inprocessing off for the table model, one worker; the
steps model (several holes) without presolve, probing, linearization or inprocessing, and with its fixed
search (the model's decision strategy). Decks past ``large_cards`` (72) tableau cards: one stage without
probing and without the LP relaxation (at 104 cards probing presolve alone outlasts a 30 s limit); the
whole deal's table model there with SAT inprocessing (its long proofs need ~30 % fewer conflicts), the
short solves of the cubes and the LNS without.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

__all__ = ["parameters", "solver_stats"]


def parameters(
    seconds: float,
    workers: int,
    formulation: str = "table",
    probing: int = 0,
    large: bool = False,
    inprocessing: bool = False,
) -> cp_model.CpSolver:
    """A solver for ``seconds`` with ``workers`` workers and the given probing level (module docstring).

    ``large``: a deck past :data:`~.backend.CpSatOptions.large_cards` cards; the table and circuit models
    then search without the LP relaxation (``linearization_level = 0``; measured at 104 cards).
    """
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(seconds, 0.01)
    solver.parameters.num_workers = workers
    solver.parameters.cp_model_probing_level = probing
    if formulation == "steps":
        # A depth-first search over plays with clause learning (measured: docs/cpsat-hole-notes.md):
        # presolve and its relatives cost seconds on this clausal model and pay nothing back.
        p = solver.parameters
        p.cp_model_presolve = False
        p.cp_model_probing_level = 0
        p.linearization_level = 0
        p.symmetry_level = 0
        p.use_sat_inprocessing = False
        p.search_branching = cp_model.FIXED_SEARCH
    elif formulation == "table":
        # SAT inprocessing (vivification) costs ~0.6 s a deal on the table model and decides nothing up
        # to 72 cards, nor in the cubes' 6 s solves (All in a Row 8x13 #20 unknown at 40 s with it, won
        # in 12 s without); at 104 the whole deal's long proofs pay for it (#3: 99.6k conflicts, 32.4 s,
        # against 141k, 44-51 s). The circuit model needs it anyway (measured: 2-3x slower without).
        solver.parameters.use_sat_inprocessing = inprocessing
    if large and formulation != "steps":
        solver.parameters.linearization_level = 0
    return solver


def solver_stats(solver: cp_model.CpSolver, prefix: str = "") -> dict[str, float]:
    """Conflicts, branches and wall time of a finished solve, keys prefixed by ``prefix``."""
    return {
        f"{prefix}conflicts": float(solver.num_conflicts),
        f"{prefix}branches": float(solver.num_branches),
        f"{prefix}cpsat_seconds": float(solver.wall_time),
    }
