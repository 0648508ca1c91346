"""The common solver interface: Status, Limits, Result, the Solver protocol and the backend registry.

Every backend is one module with a class satisfying :class:`Solver`. :func:`solve` is the single entry
point: it checks support, runs the backend, and turns a claimed win into ``SOLVED`` only after the
independent validator (:func:`patience.validate.replay`) accepts the moves; a rejected solution becomes
``ERROR`` with the validator's message, never a verdict.
"""

from __future__ import annotations

import enum
import importlib
import time
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ..engine import unsupported
from ..instance import Instance
from ..rules import RuleSet
from ..validate import replay

__all__ = [
    "BACKENDS",
    "Limits",
    "Result",
    "Solver",
    "Status",
    "available_backends",
    "get_solver",
    "solve",
]


class Status(enum.Enum):
    """Verdict of a solver run. Only SOLVED and UNSOLVABLE are verdicts about the deal."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"  # a limit was hit
    UNSUPPORTED = "unsupported"  # the backend does not handle these rules
    ERROR = "error"  # the backend failed, or its solution did not validate


@dataclass(frozen=True)
class Limits:
    """Resource limits; hitting any of them gives UNKNOWN."""

    seconds: float = 30.0
    nodes: int | None = None
    memory_mb: int | None = None


@dataclass(frozen=True)
class Result:
    """Outcome of one solver run on one instance (DESIGN section 4)."""

    status: Status
    solution: tuple[dict[str, Any], ...] | None = None
    stats: dict[str, float] = field(default_factory=dict)
    backend: str = ""
    message: str = ""

    def to_json(self) -> dict[str, Any]:
        """JSON form used by ``--json`` output and result files."""
        out: dict[str, Any] = {
            "status": self.status.value,
            "backend": self.backend,
            "stats": dict(self.stats),
        }
        if self.message:
            out["message"] = self.message
        if self.solution is not None:
            out["moves"] = list(self.solution)
        return out


class Solver(Protocol):
    """What a backend module provides."""

    name: str

    def supports(self, rules: RuleSet) -> bool:
        """True when this backend can decide deals of these rules."""
        ...

    def solve(self, instance: Instance, limits: Limits) -> Result:
        """Solve one deal within the limits (moves as DESIGN section 5 JSON objects)."""
        ...


# name -> (module, class). Imported lazily so a missing optional dependency breaks only its backend.
# Backends are registered here as they land; order is the preference order of "auto".
BACKENDS: dict[str, tuple[str, str]] = {
    "cpsat": ("patience.solvers.cpsat_blackhole", "CpSatBlackHole"),
    "dfs": ("patience.solvers.dfs", "DfsSolver"),
    "cpsat-gaps": ("patience.solvers.cpsat_gaps", "CpSatGaps"),  # after dfs: auto keeps dfs for Gaps
    "csp": ("patience.solvers.csp", "CspBlackHole"),
    "cpsat-only": ("patience.solvers.cpsat_blackhole", "CpSatOnly"),  # cpsat without its DFS presearch
    "planning": ("patience.solvers.planning", "PlanningSolver"),
    "planner": ("patience.solvers.planner", "ExternalPlanner"),  # optional extra [planners]
}


def available_backends() -> list[str]:
    """Names of the registered backends."""
    return list(BACKENDS)


def get_solver(name: str) -> Solver:
    """Instantiate a backend by name; unknown names raise ValueError listing the valid ones."""
    if name not in BACKENDS:
        valid = ", ".join(["auto", *BACKENDS]) if BACKENDS else "none registered yet"
        raise ValueError(f"unknown backend {name!r} (valid: {valid})")
    module, cls = BACKENDS[name]
    return getattr(importlib.import_module(module), cls)()


def _pick_auto(rules: RuleSet) -> Solver | None:
    """The first backend that says it ``prefers`` these rules, else the first that supports them.

    Planning prefers rearrangement games (tableau building); for the rest, registry order decides.
    """
    solvers = [get_solver(name) for name in BACKENDS]
    for solver in solvers:
        prefers = getattr(solver, "prefers", None)
        if prefers is not None and prefers(rules):
            return solver
    return next((s for s in solvers if s.supports(rules)), None)


def solve(instance: Instance, backend: str = "auto", limits: Limits | None = None) -> Result:
    """Solve ``instance`` with a backend; SOLVED only after the validator replays the moves."""
    limits = limits or Limits()
    missing = unsupported(instance.rules)
    if missing:
        return Result(Status.UNSUPPORTED, backend=backend, message="engine lacks: " + ", ".join(missing))
    solver = _pick_auto(instance.rules) if backend == "auto" else get_solver(backend)
    if solver is None:
        return Result(
            Status.UNSUPPORTED,
            backend=backend,
            message=f"no backend supports {instance.game} yet (registered: {available_backends() or 'none'})",
        )
    if not solver.supports(instance.rules):
        return Result(
            Status.UNSUPPORTED, backend=solver.name, message=f"{solver.name} does not support {instance.game}"
        )
    t0 = time.perf_counter()
    try:
        result = solver.solve(instance, limits)
    except MemoryError:
        return Result(Status.UNKNOWN, backend=solver.name, message="memory out")
    stats = dict(result.stats)
    stats.setdefault("seconds", time.perf_counter() - t0)
    result = replace(result, stats=stats, backend=solver.name)
    if result.status is Status.SOLVED:
        report = replay(instance, list(result.solution or ()))
        if not (report.ok and report.won):
            return replace(
                result,
                status=Status.ERROR,
                message=f"{solver.name} returned a solution the validator rejects: {report.message()}",
            )
    return result
