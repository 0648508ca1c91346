"""Backend ``planner``: an external PDDL planner (Fast Downward, pyperplan) run through unified-planning.

Not to be confused with backend ``planning`` (:mod:`.planning`), our own best-first search over engine
states: this module writes the deal as PDDL and hands it to a planner outside patience.

Optional: install the extra (``pip install .[planners]``: unified-planning with up-fast-downward and
up-pyperplan). Without it :meth:`ExternalPlanner.supports` is false and nothing else in patience needs
it. The deal is exported with :mod:`patience.pddl`, read back with unified-planning's PDDL reader, solved
by the first available engine (Fast Downward, then pyperplan), and the plan is mapped back to engine
moves (:func:`patience.pddl.plan_to_moves`) that :meth:`patience.solvers.base.Backend.solve` validates.

Verdicts: a plan is SOLVED. The PDDL domain leaves out nothing the engine allows for the supported
rule-sets, but a planner's "no plan" is reported UNSOLVABLE only when the engine says the result is
proven (``UNSOLVABLE_PROVEN``); otherwise UNKNOWN, as is a timeout.
"""

from __future__ import annotations

import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

from ..engine import moves_to_json
from ..instance import Instance
from ..pddl import PddlError, export, plan_to_moves
from ..rules import RuleSet
from .base import Backend, Limits, Reason, Result, Status
from .registry import PLANNER_ENGINES, available_engines, planner_supports

__all__ = ["ExternalPlanner", "PlannerOptions", "available_engines"]

ENGINES = PLANNER_ENGINES  # unified-planning engine names, in preference order -> their modules
# unified-planning's PlanGenerationResultStatus names -> why the deal stays undecided
_REASONS = {"TIMEOUT": Reason.TIME, "MEMOUT": Reason.MEMORY, "UNSOLVABLE_INCOMPLETELY": Reason.INCOMPLETE}


@dataclass(frozen=True)
class PlannerOptions:
    """Options of the ``planner`` backend: ``engine``, one of :data:`ENGINES` (None: the first installed)."""

    engine: str | None = None


class ExternalPlanner(Backend):
    """Runs a classical planner on the PDDL export of a deal."""

    name = "planner"
    Options = PlannerOptions
    options: PlannerOptions

    def supports(self, rules: RuleSet) -> bool:
        """PDDL-exportable rules and an installed planner."""
        return planner_supports(rules)

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        """Export, plan, map back; SOLVED plans are validated by ``Backend.solve``."""
        t0 = time.perf_counter()
        engines = available_engines()
        engine = self.options.engine or (engines[0] if engines else None)
        if engine is None:
            return Result(Status.UNSUPPORTED, backend=self.name, message="install the planners extra")
        try:
            task = export(instance)
        except PddlError as err:
            return Result(Status.UNSUPPORTED, backend=self.name, message=str(err))
        from unified_planning.engines import PlanGenerationResultStatus as PS
        from unified_planning.io import PDDLReader
        from unified_planning.shortcuts import OneshotPlanner, get_environment

        get_environment().credits_stream = None
        with tempfile.TemporaryDirectory(prefix="patience-pddl-") as tmp:
            dom, prob = Path(tmp, "domain.pddl"), Path(tmp, "problem.pddl")
            dom.write_text(task.domain)
            prob.write_text(task.problem)
            problem = PDDLReader().parse_problem(str(dom), str(prob))
            t_read = time.perf_counter() - t0
            left = max(limits.seconds - (time.perf_counter() - t0), 0.1)
            with OneshotPlanner(name=engine) as planner, warnings.catch_warnings():
                warnings.simplefilter("ignore")  # pyperplan warns that it ignores the timeout
                res = planner.solve(problem, timeout=left)
        stats = {"read_seconds": t_read, "planner_seconds": time.perf_counter() - t0 - t_read}
        if res.status in (PS.SOLVED_SATISFICING, PS.SOLVED_OPTIMALLY) and res.plan is not None:
            actions = [(a.action.name, [str(p) for p in a.actual_parameters]) for a in res.plan.actions]
            try:
                moves = plan_to_moves(instance, actions)
            except PddlError as err:
                return Result(Status.ERROR, None, stats, self.name, f"{engine}: {err}")
            stats["plan_length"] = len(moves)
            return Result(Status.SOLVED, moves_to_json(instance, moves), stats, self.name, engine)
        if res.status == PS.UNSOLVABLE_PROVEN:
            return Result(Status.UNSOLVABLE, None, stats, self.name, f"{engine}: proven")
        reason = _REASONS.get(res.status.name)
        return Result(Status.UNKNOWN, None, stats, self.name, f"{engine}: {res.status.name.lower()}", reason)
