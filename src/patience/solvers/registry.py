"""The backend registry: a name -> where its class lives, its preset options and a light support check.

"Which backends decide these rules?" (``auto``, :func:`patience.solvers.base.supporting_backends`, the
command line's refusal message) is answered here without importing a backend module: importing them
loads ortools, numba, python-constraint or unified-planning. Each :class:`Entry` carries a predicate
over the rule-set, written with the rule-set and engine modules only, and the backend class uses the
same predicate for its own :meth:`~patience.solvers.base.Backend.supports`, so the two cannot drift.
The class is imported (by :func:`patience.solvers.base.get_solver`) only to solve.

A variant of a backend is an entry with preset options, not a subclass: ``cpsat-only`` is the
``cpsat`` class with ``presearch_nodes=0``. The order of :data:`BACKENDS` is ``auto``'s preference
order after the ``prefers`` predicates (unified-planning's preference list, CPMpy's base_solvers()).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine import unsupported
from ..holes import is_hole_game
from ..rules import RuleSet
from .generic_kernel import kernel_supports

__all__ = [
    "BACKENDS",
    "CSP_MAX_CARDS",
    "GAPS_KERNEL_MAX_REDEALS",
    "PLANNER_ENGINES",
    "Entry",
    "available_engines",
    "csp_supports",
    "engine_supports",
    "gaps_family",
    "gaps_kernel_supports",
    "hole_family",
    "hole_prefers",
    "importable",
    "planner_supports",
    "rearrangement_prefers",
    "row_kernel_supports",
    "several_holes_prefers",
]

CSP_MAX_CARDS = 20  # python-constraint takes up to ~10 s on a lost 16-card deal
# unified-planning engine names, in preference order, with the module that provides each.
PLANNER_ENGINES = {"fast-downward": "up_fast_downward", "pyperplan": "up_pyperplan"}


# Support predicates (rule features only: no game names, no heavy imports) -------------------------
def engine_supports(rules: RuleSet) -> bool:
    """Every rule-set the engine implements (dfs, planning)."""
    return not unsupported(rules)


def hole_prefers(rules: RuleSet) -> bool:
    """Hole games as the hole search takes them (any free cells, a stock dealt onto the hole:
    :func:`patience.solvers.dfs_hole.hole_search_problem`): ``auto`` picks dfs for them.

    Measured (benchmarks/out/dfs_summary.md): on PySol deals 1-200 the hole search decides Black Hole
    in 1.6 s and All in a Row in 4.7 s in all (numba kernel), cpsat takes 92 s and 258 s with 2
    unknown; on Binary Star 1-10 dfs decides 8, cpsat none within 10 s. Worm Hole, Solvitaire's seeds
    1-50 at 10 s: dfs wins all 50 in 2.8 s, cpsat in 80.6 s (benchmarks/out/golf_wormhole.md).
    """
    return not unsupported(rules) and is_hole_game(rules, free_cells=None, stock=True)


def rearrangement_prefers(rules: RuleSet) -> bool:
    """Rearrangement games (tableau building; not Gaps or hole games): ``auto`` picks ``portfolio``
    (dfs-jit and planning-jit, in an order set by rule features; dfs, planning off their kernel:
    solvers/portfolio.py), the first entry that prefers them."""
    return not unsupported(rules) and not rules.gaps.rows and rules.tableau.build != "none"


def several_holes_prefers(rules: RuleSet) -> bool:
    """Hole games with several holes (Binary Star): ``auto`` picks ``hole-portfolio``, the hole search for
    half the time, then the CP-SAT model alone (``cpsat-only``) for the rest.

    Measured (PySol Binary Star 1-100, 30 s, 2 processes on 2 cores at load ~10): dfs decides 87 and
    ``cpsat`` (5M nodes of the same search, then the model) 92, each deciding deals the other leaves
    (dfs wins 5 of cpsat's unknowns in 2.7-21 s; the model wins 10 of dfs's in 4-10 s); no verdict differs.
    This portfolio on the same deals and machine: 94 decided (84 won, 10 lost).
    """
    return hole_family(rules) and rules.foundations.count >= 2 and not unsupported(rules)


def hole_family(rules: RuleSet) -> bool:
    """The Black Hole family (:func:`patience.holes.is_hole_game`) with at most one free cell (Worm
    Hole's, empty at the start). A hole's start card, given or dealt (Golf's), is read off the deal."""
    return is_hole_game(rules, free_cells=1)


def csp_supports(rules: RuleSet) -> bool:
    """Hole games (no free cell) with one hole and a deck of at most :data:`CSP_MAX_CARDS` cards."""
    d = rules.deck
    small = d.suits * d.ranks * d.decks <= CSP_MAX_CARDS
    return is_hole_game(rules) and rules.foundations.count == 1 and small


def gaps_family(rules: RuleSet) -> bool:
    """Gaps grids of one deck without redeals (either first-column policy)."""
    g, d = rules.gaps, rules.deck
    return g.rows > 0 and g.redeals == 0 and d.decks == 1 and g.rows == d.suits


GAPS_KERNEL_MAX_REDEALS = 16  # gaps-jit's table of redeal permutations grows with the redeals allowed


def gaps_kernel_supports(rules: RuleSet) -> bool:
    """Gaps grids of one deck (either first-column policy), with redeals (at most
    :data:`GAPS_KERNEL_MAX_REDEALS`) only as dealt, one gap a row: ``gaps-jit``'s compiled search
    (solvers/gaps_kernel.py), auto's pick for them."""
    g, d = rules.gaps, rules.deck
    redeals_ok = g.redeals == 0 or (g.rows == d.suits and g.redeals <= GAPS_KERNEL_MAX_REDEALS)
    return g.rows > 0 and d.decks == 1 and redeals_ok and not unsupported(rules)


def row_kernel_supports(rules: RuleSet) -> bool:
    """Row games (Accordion) of one deck: ``row-jit``'s compiled search (solvers/row_kernel.py, whose key
    needs distinct top cards), auto's pick for them.

    Measured (Solvitaire's seeds 1-50 of Accordion at 10 s, benchmarks/out/crosscheck_rowjit_*.md): the
    Python dfs left 3 deals undecided at 1.2-1.5 M nodes, which the kernel decides in under a second."""
    return bool(rules.row.distances) and rules.deck.decks == 1 and not unsupported(rules)


@functools.cache
def importable(pkg: str) -> bool:
    """Can top-level package ``pkg`` be imported? Asked of the import system once a process (nothing is
    imported): ``find_spec`` walks sys.path, and ``auto`` asks for every deal (1 ms of a 6 ms MS FreeCell
    solve). A test that fakes the import system calls ``importable.cache_clear()``."""
    return importlib.util.find_spec(pkg) is not None


def available_engines() -> list[str]:
    """The planners of :data:`PLANNER_ENGINES` whose packages are installed (empty without the extra)."""
    if not importable("unified_planning"):
        return []
    return [name for name, mod in PLANNER_ENGINES.items() if importable(mod)]


def planner_supports(rules: RuleSet) -> bool:
    """PDDL-exportable rules (:func:`patience.pddl.unsupported_reason`) and an installed planner."""
    from ..pddl import unsupported_reason  # the PDDL writer: pure Python, no planner imported

    return unsupported_reason(rules) is None and bool(available_engines())


def _never(rules: RuleSet) -> bool:
    return False


# Entries ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """One registered backend: ``module.cls`` built with ``options`` (preset name/value pairs; callers
    may add more or override them).

    ``supports``/``prefers``: light predicates over the rules (module docstring); ``supports=None`` means
    "ask the class", which imports its module (for backends registered by tests or plug-ins).
    ``requires``: top-level packages the module imports; a missing one means the entry supports nothing,
    found with ``importlib.util.find_spec`` (which imports nothing). Entries are picklable (module-level
    predicates), so a task can carry its backend to a worker that does not share this registry.
    """

    name: str
    module: str
    cls: str
    supports: Callable[[RuleSet], bool] | None = None
    prefers: Callable[[RuleSet], bool] = _never
    options: tuple[tuple[str, Any], ...] = ()
    requires: tuple[str, ...] = ()

    def installed(self) -> bool:
        """True when every package in ``requires`` can be imported (nothing is imported to find out)."""
        return all(importable(pkg) for pkg in self.requires)

    def load(self) -> type:
        """The backend class (imports its module; ImportError when an optional package is missing)."""
        return getattr(importlib.import_module(self.module), self.cls)


_CPSAT = "patience.solvers.cpsat_hole.backend"
_GAPS = "patience.solvers.cpsat_gaps.backend"

# name -> entry; the order is the preference order of "auto" (after the prefers predicates).
BACKENDS: dict[str, Entry] = {
    e.name: e
    for e in (
        Entry("cpsat", _CPSAT, "CpSatBlackHole", hole_family, requires=("ortools",)),
        # the hole search, then CP-SAT's model alone: auto's choice for several holes (several_holes_prefers)
        Entry(
            "hole-portfolio",
            "patience.solvers.portfolio",
            "Portfolio",
            hole_family,
            several_holes_prefers,
            options=(("stages", (("dfs", 0.5), ("cpsat-only", 0.5))),),
            requires=("ortools",),
        ),
        Entry("dfs", "patience.solvers.dfs", "DfsSolver", engine_supports, hole_prefers),
        # dfs's Gaps search compiled (solvers/gaps_jit.py): auto's choice for Gaps without redeals
        Entry(
            "gaps-jit",
            "patience.solvers.gaps_jit",
            "GapsJitSolver",
            gaps_kernel_supports,
            gaps_kernel_supports,
        ),
        # dfs's row-game search compiled (solvers/row_jit.py): auto's choice for Accordion
        Entry(
            "row-jit", "patience.solvers.row_jit", "RowJitSolver", row_kernel_supports, row_kernel_supports
        ),
        # after dfs: auto keeps dfs (or gaps-jit) for Gaps
        Entry("cpsat-gaps", _GAPS, "CpSatGaps", gaps_family, requires=("ortools",)),
        Entry("csp", "patience.solvers.csp", "CspBlackHole", csp_supports, requires=("constraint",)),
        # cpsat without its DFS presearch: CP-SAT's own verdicts, to compare with dfs
        Entry(
            "cpsat-only",
            _CPSAT,
            "CpSatBlackHole",
            hole_family,
            options=(("presearch_nodes", 0),),
            requires=("ortools",),
        ),
        # dfs-jit then planning-jit (dfs, planning off their kernel) on one deal, each a share of the time
        Entry("portfolio", "patience.solvers.portfolio", "Portfolio", engine_supports, rearrangement_prefers),
        # our best-first search over engine states (solvers/planning.py); auto's choice without portfolio
        Entry(
            "planning", "patience.solvers.planning", "PlanningSolver", engine_supports, rearrangement_prefers
        ),
        # an external PDDL planner through unified-planning (solvers/pddl_planner.py; extra [planners])
        Entry("planner", "patience.solvers.pddl_planner", "ExternalPlanner", planner_supports),
        # dfs over the compiled generic kernel, open rearrangement games (solvers/dfs_jit.py, generic_kernel/)
        Entry("dfs-jit", "patience.solvers.dfs_jit", "DfsJitSolver", kernel_supports),
        # planning's greedy best-first search over the compiled generic kernel (solvers/planning_jit.py)
        Entry("planning-jit", "patience.solvers.planning_jit", "PlanningJitSolver", kernel_supports),
        # dfs with exact_max: lost hole deals searched again without reach/degree for the exact most
        # cards removed (Wolter 2014's histograms; patience analyze removed)
        Entry(
            "dfs-max", "patience.solvers.dfs", "DfsSolver", engine_supports, options=(("exact_max", True),)
        ),
    )
}
