"""The backend contract: Status, Limits, Result, the :class:`Backend` base class and the validated solve().

Every backend is one module with a subclass of :class:`Backend` that writes only ``_solve()``. The
public :meth:`Backend.solve` is final (a subclass that defines ``solve`` is a TypeError when the class is
made) and does, once for every backend, what no backend may skip (unified-planning's ``solve``/``_solve``):

* checks support (:func:`unsupported_reason`'s check: hidden cards, rules the engine cannot play, the
  backend's own :meth:`Backend.supports`) and returns UNSUPPORTED without calling ``_solve``;
* times the run: ``stats["seconds"]`` is set here and nowhere else;
* turns a MemoryError into UNKNOWN with :attr:`Reason.MEMORY`;
* replays every claimed win through the independent validator (:func:`patience.validate.replay`):
  SOLVED only if it replays, else ERROR with the validator's message, never a verdict.

:func:`solve` is the single entry point: a registry name (or ``auto``) -> the backend -> its ``solve``.
Backends are listed in :mod:`.registry`; options are a frozen dataclass per backend
(:attr:`Backend.Options`), passed through :func:`get_solver` (``get_solver("dfs", streamline_share=0)``).
A new backend starts from ``solvers/TEMPLATE.py``.
"""

from __future__ import annotations

import abc
import enum
import time
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar

import msgspec

from ..engine import unsupported
from ..instance import Instance
from ..memguard import MEMORY_OUT, TIME_LIMIT, MemoryGuard
from ..rules import RuleSet, list_games
from ..validate import replay
from .registry import BACKENDS, Entry

__all__ = [
    "BACKENDS",
    "Backend",
    "Entry",
    "Limits",
    "MaxCards",
    "NoOptions",
    "Reason",
    "Result",
    "Solver",
    "Status",
    "available_backends",
    "get_solver",
    "guard_result",
    "hides_cards",
    "make_options",
    "solve",
    "stopped",
    "supporting_backends",
    "unsupported_reason",
]


class Status(enum.Enum):
    """Verdict of a solver run. Only SOLVED and UNSOLVABLE are verdicts about the deal."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"  # a limit was hit, or the method ended without a proof (see Reason)
    UNSUPPORTED = "unsupported"  # the backend does not handle these rules
    ERROR = "error"  # the backend failed, or its solution did not validate


class Reason(enum.Enum):
    """Why a run ended UNKNOWN: which limit stopped it, or that the method cannot prove a loss."""

    TIME = "time"
    NODES = "nodes"
    MEMORY = "memory"
    INCOMPLETE = "incomplete"  # the method ended without a verdict it can prove (unproven horizon, planner)
    INTERRUPTED = "interrupted"  # Ctrl-C


@dataclass(frozen=True)
class MaxCards:
    """The most cards a play of the deal moves home: ``best`` reached by a sequence found, ``bound`` a
    proven upper bound (``best == bound``: the optimum is proven)."""

    best: int
    bound: int

    def __post_init__(self) -> None:
        if not 0 <= self.best <= self.bound:
            raise ValueError(f"max cards: need 0 <= best <= bound, got best={self.best} bound={self.bound}")

    @property
    def proven(self) -> bool:
        """True when ``best`` is the proven optimum."""
        return self.best == self.bound


@dataclass(frozen=True)
class Limits:
    """Resource limits; hitting any of them gives UNKNOWN."""

    seconds: float = 30.0
    nodes: int | None = None
    memory_mb: int | None = None


@dataclass(frozen=True)
class Result:
    """Outcome of one solver run on one instance.

    ``reason``: why an UNKNOWN is unknown (only with UNKNOWN). ``max_cards``: the most cards moved home
    (:class:`MaxCards`); :meth:`Backend.solve` also writes it to ``stats`` as ``max_cards_removed`` and
    ``max_cards_bound``, the keys the store, the report and the command line read.
    """

    status: Status
    solution: tuple[dict[str, Any], ...] | None = None
    stats: dict[str, float] = field(default_factory=dict)
    backend: str = ""
    message: str = ""
    reason: Reason | None = None
    max_cards: MaxCards | None = None

    def __post_init__(self) -> None:
        if self.reason is not None and self.status is not Status.UNKNOWN:
            raise ValueError(f"a reason ({self.reason.value}) is for UNKNOWN results, not {self.status.name}")

    def to_json(self) -> dict[str, Any]:
        """JSON form used by ``--json`` output and result files."""
        out: dict[str, Any] = {
            "status": self.status.value,
            "backend": self.backend,
            "stats": dict(self.stats),
        }
        if self.message:
            out["message"] = self.message
        if self.reason is not None:
            out["reason"] = self.reason.value
        if self.max_cards is not None:
            out["max_cards"] = {"best": self.max_cards.best, "bound": self.max_cards.bound}
        if self.solution is not None:
            out["moves"] = list(self.solution)
        return out


def guard_result(guard: MemoryGuard, backend: str, seconds: float) -> Result | None:
    """The UNKNOWN result of a run the guard stopped (memory out, or its deadline passed), with the
    seconds it ran; None when the KeyboardInterrupt was not the guard's (a real Ctrl-C)."""
    if guard.timed_out:
        message, reason = TIME_LIMIT, Reason.TIME
    elif guard.tripped:
        message, reason = MEMORY_OUT, Reason.MEMORY
    else:
        return None
    return Result(Status.UNKNOWN, stats={"seconds": seconds}, backend=backend, message=message, reason=reason)


def stopped(stop: str, stats: dict[str, float], backend: str) -> Result:
    """The UNKNOWN result of a search that stopped at a limit: ``stop`` is "time", "nodes" or "memory" (the
    searches' own word), given as its message and reason; any other word is the message, without a reason."""
    message = {"memory": MEMORY_OUT, "nodes": "node limit", "time": TIME_LIMIT}.get(stop, stop)
    reason = {"memory": Reason.MEMORY, "nodes": Reason.NODES, "time": Reason.TIME}.get(stop)
    return Result(Status.UNKNOWN, None, stats, backend, message, reason)


@dataclass(frozen=True)
class NoOptions:
    """Options of a backend that takes none."""


def make_options(options_cls: type, backend: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``options_cls(*args, **kwargs)``, with a one-line ValueError naming an unknown option and the valid
    ones (a dataclass would raise a TypeError about ``__init__``)."""
    valid = [f.name for f in fields(options_cls)]
    unknown = sorted(set(kwargs) - set(valid))
    if unknown:
        raise ValueError(f"{backend}: unknown option {unknown[0]!r} (valid: {', '.join(valid) or 'none'})")
    positional = [f.name for f in fields(options_cls) if not f.kw_only]
    if len(args) > len(positional):
        raise ValueError(f"{backend}: {len(args)} positional options given, takes {len(positional)}")
    return options_cls(*args, **kwargs)


class Backend(abc.ABC):
    """A solver backend: subclasses set ``name`` and ``Options`` and write ``supports`` and ``_solve``.

    ``Backend(*args, **options)`` builds ``Options(*args, **options)`` into :attr:`options` (an unknown
    option is a ValueError naming it). :meth:`solve` is final: see the module docstring.
    """

    name: str = ""  # the registry name this instance answers to (get_solver sets the entry's)
    Options: ClassVar[type] = NoOptions
    # A compiled backend's kernels (:class:`.jit_budget.Kernels`): whether a solve would run compiled.
    kernels: ClassVar[Any] = None

    def __init__(self, *args: Any, **options: Any) -> None:
        self.options = make_options(self.Options, self.name or type(self).__name__, args, options)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for final in ("solve", "run_unvalidated"):
            if final in cls.__dict__:
                where = f"{cls.__name__} overrides Backend.{final}"
                raise TypeError(f"{where}: write _solve instead (solvers/base.py)")

    @abc.abstractmethod
    def supports(self, rules: RuleSet) -> bool:
        """True when this backend can decide deals of these rules (no hidden-card or engine check needed:
        :meth:`solve` makes those)."""

    def prefers(self, rules: RuleSet) -> bool:
        """Should ``auto`` pick this backend for these rules before registry order? Default: no."""
        return False

    @abc.abstractmethod
    def _solve(self, instance: Instance, limits: Limits) -> Result:
        """Decide one deal within the limits; a SOLVED result carries the moves as JSON objects.

        Called only for supported rules. Need not set ``seconds`` or ``backend``, nor validate the moves.
        """

    def solve(self, instance: Instance, limits: Limits) -> Result:
        """Check support, time :meth:`_solve`, and validate its solution (module docstring). Final."""
        result = self.run_unvalidated(instance, limits)
        if result.status is Status.SOLVED:
            report = replay(instance, list(result.solution or ()))
            if not (report.ok and report.won):
                return replace(
                    result,
                    status=Status.ERROR,
                    message=f"{self.name} returned a solution the validator rejects: {report.message()}",
                )
        return result

    def run_unvalidated(self, instance: Instance, limits: Limits) -> Result:
        """:meth:`solve` without the replay of a win: only for a backend whose own ``_solve`` runs other
        backends and hands back their result, which its own :meth:`solve` then replays (portfolio: one
        replay of 100 moves is 1.4 ms of a 6 ms MS FreeCell solve). Final."""
        reason = _refusal(instance.rules, instance.game, self.name, self.supports)
        if reason is not None:
            return Result(Status.UNSUPPORTED, backend=self.name, message=reason)
        t0 = time.perf_counter()
        try:
            result = self._solve(instance, limits)
        except MemoryError:
            result = Result(Status.UNKNOWN, message=MEMORY_OUT, reason=Reason.MEMORY)
        stats = {**result.stats, "seconds": time.perf_counter() - t0}
        if result.max_cards is not None:  # the keys the store, report and CLI read
            stats["max_cards_removed"] = float(result.max_cards.best)
            stats["max_cards_bound"] = float(result.max_cards.bound)
        return replace(result, stats=stats, backend=self.name)


Solver = Backend  # the former protocol's name


def available_backends() -> list[str]:
    """Names of the registered backends."""
    return list(BACKENDS)


def _entry(name: str) -> Entry:
    """The registry entry of ``name``; unknown names raise ValueError listing the valid ones."""
    if name not in BACKENDS:
        valid = ", ".join(["auto", *BACKENDS])
        raise ValueError(f"unknown backend {name!r} (valid: {valid})")
    return BACKENDS[name]


def get_solver(name: str | Entry, **options: Any) -> Backend:
    """Build a backend by registry name (or entry): its class with the entry's preset options, then
    ``options``. Unknown names and unknown options raise ValueError naming the valid ones."""
    entry = name if isinstance(name, Entry) else _entry(name)
    cls = entry.load()
    if not (isinstance(cls, type) and issubclass(cls, Backend)):
        raise TypeError(f"backend {entry.name!r}: {entry.module}.{entry.cls} is not a solvers.base.Backend")
    solver = cls(**{**dict(entry.options), **options})
    solver.name = entry.name  # a preset (cpsat-only) answers to its own name
    return solver


def _admits(entry: Entry, rules: RuleSet) -> bool:
    """Does ``entry`` support ``rules``? Its light predicate; without one, its class (imported). A
    backend whose packages are missing, or whose check needs a missing optional package, says no."""
    try:
        if not entry.installed():
            return False
        if entry.supports is not None:
            return bool(entry.supports(rules))
        return bool(get_solver(entry).supports(rules))
    except ImportError:
        return False


def _ask(supports: Any, rules: RuleSet) -> bool:
    """``supports(rules)``; a check that needs a missing optional package says no."""
    try:
        return bool(supports(rules))
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
    """Registered backends that decide deals of ``rules``, in registry order (no backend imported).

    Empty for rules the engine cannot play or that hide cards. A backend whose packages or support
    check need a missing optional package (e.g. ``planner`` without unified-planning) is not listed.
    """
    if unsupported(rules) or hides_cards(rules):
        return []
    return [name for name, entry in BACKENDS.items() if _admits(entry, rules)]


def _game_refusal(rules: RuleSet, game: str) -> str | None:
    """Why no backend at all decides ``game`` with ``rules`` (hidden cards, engine gaps), or None."""
    if hides_cards(rules):
        hint = _thoughtful_counterpart(rules)
        fix = f"try {hint}" if hint else "try --set thoughtful=true (the same game with every card known)"
        return f"{game} hides cards (thoughtful: false); solvers decide only thoughtful games: {fix}"
    missing = unsupported(rules)
    if missing:
        return f"no backend supports {game} with these rules: engine lacks " + ", ".join(missing)
    return None


def _refusal(rules: RuleSet, game: str, name: str, supports: Any) -> str | None:
    """The one support check: why backend ``name`` (its check ``supports``) cannot decide ``game``."""
    reason = _game_refusal(rules, game)
    if reason is not None or _ask(supports, rules):
        return reason
    others = supporting_backends(rules)
    tail = f"backends that do: {', '.join(others)}" if others else "no backend does"
    return f"{name} does not support {game}; {tail}"


def _resolve(rules: RuleSet, game: str, backend: str | Entry) -> tuple[Entry | None, str | None]:
    """The entry that will solve ``rules`` (auto's choice or the named one), or why none can."""
    reason = _game_refusal(rules, game)
    if reason is not None:
        return None, reason
    # An unknown backend name is a ValueError from _entry, not a reason.
    if isinstance(backend, Entry):
        entry: Entry | None = backend
    else:
        entry = _pick_auto(rules) if backend == "auto" else _entry(backend)
    if entry is None:
        return None, f"no backend supports {game} with these rules"
    reason = _refusal(rules, game, entry.name, lambda r: _admits(entry, r))
    return (None, reason) if reason is not None else (entry, None)


def unsupported_reason(rules: RuleSet, game: str, backend: str = "auto") -> str | None:
    """Why ``backend`` cannot decide deals of ``game`` with ``rules``, as one line; None when it can.

    The single check behind :func:`solve`'s UNSUPPORTED and the command line's exit code 2: hidden
    cards, rules the engine cannot play, a named backend that does not support the rules (naming those
    that do). ``backend`` is ``auto`` or a registered name (a ValueError otherwise). Imports no backend.
    """
    return _resolve(rules, game, backend)[1]


def _pick_auto(rules: RuleSet) -> Entry | None:
    """The first entry whose ``prefers`` holds for these rules, else the first that supports them.

    dfs prefers hole games, planning rearrangement games (tableau building); for the rest, registry
    order decides. Entries whose packages are missing are skipped. No backend module is imported.
    """
    installed = [e for e in BACKENDS.values() if e.installed()]
    for entry in installed:
        if _ask(entry.prefers, rules):
            return entry
    return next((e for e in installed if _admits(e, rules)), None)


def solve(instance: Instance, backend: str | Entry = "auto", limits: Limits | None = None) -> Result:
    """Solve ``instance`` with a backend (``auto``, a registry name, or an :class:`Entry` carried to a
    worker); SOLVED only after the validator replays the moves (:meth:`Backend.solve`).

    UNSUPPORTED, before any backend is built, for everything :func:`unsupported_reason` names.

    >>> from patience.deals import deal
    >>> tiny = deal("black-hole", 1, overrides={"suits": 2, "ranks": 5, "piles": 3})
    >>> result = solve(tiny, "dfs", Limits(seconds=10))
    >>> result.status, len(result.solution)
    (<Status.SOLVED: 'solved'>, 9)
    >>> result.solution[0]
    {'card': '5C', 'from': 'tableau:2', 'to': 'foundation:0', 'count': 1}
    """
    limits = limits or Limits()
    entry, reason = _resolve(instance.rules, instance.game, backend)
    if entry is None:
        name = backend.name if isinstance(backend, Entry) else backend
        return Result(Status.UNSUPPORTED, backend=name, message=reason or "")
    return get_solver(entry).solve(instance, limits)
