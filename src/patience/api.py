"""The Python API: what the ``patience`` command does, as functions at the package's top level.

``patience.deal`` deals a game by number, ``patience.load`` reads a deal file in any format,
``patience.solve`` runs a backend (every SOLVED already replayed by the validator),
``patience.validate`` replays moves independently, and ``patience.games`` names the games.
``patience.estimate`` and ``patience.compare`` run batches of seeded deals, as the commands of the same
names do (stored in a results file when ``db`` names one, so a rerun resumes).

>>> import patience
>>> inst = patience.deal("black-hole", 2, "pysol")          # PySol's Black Hole #2
>>> res = patience.solve(inst, backend="auto", limit=10)
>>> res.status.value, res.backend, len(res.moves)
('solved', 'dfs', 51)
>>> patience.validate(inst, res.moves).won
True
>>> patience.deal("freecell", 7, cells=2).rules.cells.count   # rule parameters as keywords
2
>>> "black-hole" in patience.games()
True

Instances, results and reports are the library's own classes (:class:`patience.instance.Instance`,
:class:`patience.solvers.base.Result`, :class:`patience.validate.Report`); nothing here loads a backend
before it is asked to solve.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .instance import Instance
from .solvers.base import Limits, Result, Status
from .validate import Report

if TYPE_CHECKING:
    from .experiments.compare import Comparison
    from .experiments.runner import Summary
    from .experiments.store import Row

__all__ = ["Batch", "SolveResult", "compare", "deal", "estimate", "games", "load", "solve", "validate"]


def deal(
    game: str, seed: int, generator: str = "portable", overrides: dict[str, Any] | None = None, **params: Any
) -> Instance:
    """Deal ``game`` number ``seed`` with a generator (``portable``, ``pysol``, ``ms``, ``solvitaire``, or a
    family such as ``planted:8``); rule parameters as ``overrides`` or keywords (``cells=2``)."""
    from .deals import deal as deal_game

    return deal_game(game, seed, generator, {**(overrides or {}), **params} or None)


def load(
    path: str | Path,
    format: str | None = None,  # noqa: A002 - the name the command line uses
    game: str | None = None,
    overrides: dict[str, Any] | None = None,
    **params: Any,
) -> Instance:
    """A deal file in any format :mod:`patience.formats` reads (our instance JSON, PySol/black-hole-solver
    or fc-solve board text, a Solvitaire deal), ``format`` and ``game`` detected unless given."""
    from .formats import read_deal
    from .instance import InstanceError

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise InstanceError(f"{path}: cannot read ({err})") from None
    return read_deal(text, str(path), format, game, {**(overrides or {}), **params} or None)


@dataclass(frozen=True)
class SolveResult(Result):
    """A :class:`~patience.solvers.base.Result` with the moves as a list (empty unless SOLVED)."""

    @property
    def moves(self) -> list[dict[str, Any]]:
        return list(self.solution or ())

    @property
    def solved(self) -> bool:
        return self.status is Status.SOLVED

    @property
    def seconds(self) -> float | None:
        return self.stats.get("seconds")


def solve(
    instance: Instance,
    backend: str = "auto",
    limit: float = 30.0,
    nodes: int | None = None,
    memory_mb: int | None = None,
    **options: Any,
) -> SolveResult:
    """Solve ``instance`` within ``limit`` seconds (and ``nodes``) with a backend (``auto`` picks one);
    ``options`` go to a named backend (e.g. ``weight=2`` for ``planning``). A backend that does not
    support the game gives UNSUPPORTED, saying which ones do."""
    from .solvers.base import get_solver
    from .solvers.base import solve as solve_with

    limits = Limits(seconds=float(limit), nodes=nodes, memory_mb=memory_mb)
    if options:
        if backend == "auto":
            raise ValueError("options need a named backend, not auto")
        result = get_solver(backend, **options).solve(instance, limits)
    else:
        result = solve_with(instance, backend, limits)
    return SolveResult(**{f.name: getattr(result, f.name) for f in fields(Result)})


def validate(instance: Instance, moves: Any) -> Report:
    """Replay ``moves`` (a list of JSON moves, a result of :func:`solve`, or a solution object) on
    ``instance`` with the independent validator: ``.ok`` (every move legal), ``.won``, ``.message()``."""
    from .validate import replay

    if isinstance(moves, Result):
        moves = list(moves.solution or ())
    elif isinstance(moves, dict):
        moves = moves.get("moves", [])
    return replay(instance, list(moves))


def games() -> list[str]:
    """The names of the registered games (``models/*.json``), sorted."""
    from .rules import list_games

    return sorted(g.name for g in list_games())


@dataclass(frozen=True)
class Batch:
    """The rows of a batch of deals (one per seed, in seed order) and their summary: ``summary.counts``,
    ``summary.estimate`` (the conservative win-rate interval; ``.text()`` prints it) and ``summary.times``."""

    rows: list[Row]
    summary: Summary


def _run(
    game: str,
    backends: tuple[str, ...],
    n: int,
    seed: int,
    limit: float,
    generator: str,
    db: str | Path | None,
    workers: int | None,
    overrides: dict[str, Any],
) -> dict[str, list[Row]]:
    """Solve seeds ``seed..seed+n-1`` with each backend through the experiments runner and its store."""
    from .experiments.executors import make_executor
    from .experiments.runner import Job, run_job
    from .experiments.store import open_store
    from .rules import load_game

    name = load_game(game, overrides or None).name
    store = open_store(db if db is not None else ":memory:")
    executor = make_executor("process", workers)
    try:
        jobs = {b: Job(name, range(seed, seed + n), b, float(limit), generator, overrides) for b in backends}
        return {b: run_job(job, store, executor) for b, job in jobs.items()}
    finally:
        executor.close()
        store.close()


def estimate(
    game: str,
    n: int,
    seed: int = 1,
    backend: str = "auto",
    limit: float = 10.0,
    generator: str = "portable",
    db: str | Path | None = None,
    workers: int | None = 0,
    overrides: dict[str, Any] | None = None,
    **params: Any,
) -> Batch:
    """Solve deals ``seed..seed+n-1`` of ``game`` (``patience estimate``): ``workers`` processes (0: this
    one; None: every CPU), rows kept in the results file ``db`` (None: in memory only).

    >>> b = estimate("black-hole", 4, backend="dfs", limit=5, suits=2, ranks=5, piles=3)
    >>> b.summary.n, sum(b.summary.counts.values())
    (4, 4)
    """
    from .experiments.runner import summarize

    rows = _run(game, (backend,), n, seed, limit, generator, db, workers, {**(overrides or {}), **params})
    only = rows[backend]
    return Batch(only, summarize(only))


def compare(
    game: str,
    backends: tuple[str, ...] | list[str],
    n: int,
    seed: int = 1,
    limit: float = 10.0,
    generator: str = "portable",
    db: str | Path | None = None,
    workers: int | None = 0,
    overrides: dict[str, Any] | None = None,
    **params: Any,
) -> tuple[Comparison, dict[str, list[Row]]]:
    """The same deals with several backends (``patience compare``): the deal-by-deal comparison
    (``.deals``, ``.conflicts``, ``.ratio_summary(b)``) and each backend's rows."""
    from .experiments.compare import compare_rows

    names = tuple(backends)
    if len(names) < 2 or len(set(names)) != len(names):
        raise ValueError(f"backends {names}: give two or more different backends")
    rows = _run(game, names, n, seed, limit, generator, db, workers, {**(overrides or {}), **params})
    return compare_rows(game, names, rows), rows
