"""The common solver interface: Status, Limits, Result, the Solver protocol and the backend registry.

Every backend is one module with a class satisfying :class:`Solver`. :func:`solve` is the single entry
point: it checks support, runs the backend, and turns a claimed win into ``SOLVED`` only after the
independent validator (:func:`patience.validate.replay`) accepts the moves; a rejected solution becomes
``ERROR`` with the validator's message, never a verdict.

What no backend may decide is stated here once: :func:`hides_cards` (hidden-information rule-sets) and
:func:`unsupported_reason`, which :func:`solve` checks before any backend runs and which the command line
calls to refuse an unsupported game/backend pair before any work starts.
"""

from __future__ import annotations

import enum
import importlib
import time
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import msgspec

from ..engine import unsupported
from ..instance import Instance
from ..rules import RuleSet, list_games
from ..validate import replay

__all__ = [
    "BACKENDS",
    "Limits",
    "Result",
    "Solver",
    "Status",
    "available_backends",
    "get_solver",
    "hides_cards",
    "solve",
    "supporting_backends",
    "unsupported_reason",
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


def _load(name: str) -> Solver | None:
    """A backend instance, or None when its module cannot be imported (a missing optional extra)."""
    try:
        return get_solver(name)
    except ImportError:
        return None


def _supports(solver: Solver, rules: RuleSet) -> bool:
    """``solver.supports(rules)``; a backend whose check needs a missing optional package says no."""
    try:
        return bool(solver.supports(rules))
    except ImportError:
        return False


def hides_cards(rules: RuleSet) -> bool:
    """True for hidden-information rule-sets (``thoughtful: false``): the player does not see every card.

    Every backend searches with every card known, so its verdict is about the thoughtful game: reported
    for these rules it would be a wrong claim. No backend decides them (playing them is another problem).
    """
    return not rules.thoughtful


def _thoughtful_counterpart(rules: RuleSet) -> str | None:
    """The registered game whose rules are exactly ``rules`` with every card known, if there is one."""
    seen = msgspec.structs.replace(rules, thoughtful=True)
    return next((g.name for g in list_games() if g.rules == seen), None)


def supporting_backends(rules: RuleSet) -> list[str]:
    """Registered backends that decide deals of ``rules``, in registry order.

    Empty for rules the engine cannot play or that hide cards. A backend whose module or support check
    needs a missing optional package (e.g. ``planner`` without unified-planning) is not listed.
    """
    if unsupported(rules) or hides_cards(rules):
        return []
    return [name for name in BACKENDS if (s := _load(name)) is not None and _supports(s, rules)]


def _resolve(rules: RuleSet, game: str, backend: str) -> tuple[Solver | None, str | None]:
    """The backend that will solve ``rules`` (auto's choice or the named one), or why none can."""
    if hides_cards(rules):
        hint = _thoughtful_counterpart(rules)
        fix = f"try {hint}" if hint else "try --set thoughtful=true (the same game with every card known)"
        return None, f"{game} hides cards (thoughtful: false); solvers decide only thoughtful games: {fix}"
    missing = unsupported(rules)
    if missing:
        return None, f"no backend supports {game} with these rules: engine lacks " + ", ".join(missing)
    # An unknown backend name is a ValueError from get_solver, not a reason.
    solver = _pick_auto(rules) if backend == "auto" else get_solver(backend)
    if solver is None:
        return None, f"no backend supports {game} with these rules"
    if _supports(solver, rules):
        return solver, None
    others = supporting_backends(rules)
    tail = f"backends that do: {', '.join(others)}" if others else "no backend does"
    return None, f"{solver.name} does not support {game}; {tail}"


def unsupported_reason(rules: RuleSet, game: str, backend: str = "auto") -> str | None:
    """Why ``backend`` cannot decide deals of ``game`` with ``rules``, as one line; None when it can.

    The single check behind :func:`solve`'s UNSUPPORTED and the command line's exit code 2: hidden
    cards, rules the engine cannot play, a named backend that does not support the rules (naming those
    that do). ``backend`` is ``auto`` or a registered name (get_solver raises ValueError otherwise).
    """
    return _resolve(rules, game, backend)[1]


def _pick_auto(rules: RuleSet) -> Solver | None:
    """The first backend that says it ``prefers`` these rules, else the first that supports them.

    Planning prefers rearrangement games (tableau building); for the rest, registry order decides.
    Backends whose module cannot be imported are skipped.
    """
    solvers = [s for name in BACKENDS if (s := _load(name)) is not None]
    for solver in solvers:
        prefers = getattr(solver, "prefers", None)
        if prefers is not None and prefers(rules):
            return solver
    return next((s for s in solvers if _supports(s, rules)), None)


def solve(instance: Instance, backend: str = "auto", limits: Limits | None = None) -> Result:
    """Solve ``instance`` with a backend; SOLVED only after the validator replays the moves.

    UNSUPPORTED, before any backend runs, for everything :func:`unsupported_reason` names.
    """
    limits = limits or Limits()
    solver, reason = _resolve(instance.rules, instance.game, backend)
    if solver is None:
        return Result(Status.UNSUPPORTED, backend=backend, message=reason or "")
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
