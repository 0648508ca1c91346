"""The ``cpsat`` backend: presearch, then the CP-SAT model in two stages, then max cards on a loss.

1. The presearch (:mod:`.presearch`) may return a win; a loss from it is never a verdict.
2. Two CP-SAT stages (``probe_after``, default 3 s): the cheap parameters of :mod:`.params` for the
   first 3 s, then, if undecided, the same model again with ``cp_model_probing_level = 2`` for the time
   left. Probing presolve (failed-literal probing) shrinks the position domains a lot but costs 1-3 s,
   which would dominate the median; on the hard deals it is what decides them. A deal on which the
   presearch spent ``probe_nodes`` (20,000) nodes or more without a win starts with the probing stage:
   the DFS's effort is a cheap sign of a hard deal. Measurements: docs/cpsat-hole-notes.md. The
   "steps" model (several holes, :mod:`.steps`) has no probing stage (its fixed search has nothing to
   probe): :func:`.steps.solve_steps` runs its fixed-search orders one after the other instead.
   So does a deck past ``large_cards`` (72) tableau cards: at 104 cards the probing presolve alone
   outlasts a 30 s limit, while the cheap stage decides the deals dfs loses at once in 5-8 s.
3. With ``cubes_after`` set, a deck past ``large_cards`` with one hole and no cell runs the decision
   model for ``cubes_after`` seconds only, then the cube search of :mod:`.cubes` (the decision model of
   the position after a few greedy plays) for a win in the time left; with ``lns_after`` set, the
   prefix LNS of :mod:`.lns` (max-cards model of the position after a fixed prefix of the best
   sequence) instead, after ``lns_after`` seconds. Both are off by default: at load ~2 the cubes
   decided fewer deals than the whole-deal model alone (63 against 69 of 90), and the LNS cost All in
   a Row its slow verdicts (docs/cpsat-hole-notes.md). With ``beside`` (and ``workers`` >= 2) the win
   stage (the cubes, or the LNS when ``lns_after`` is set) runs instead on one worker beside the
   decision model, both for the whole limit (:mod:`patience.solvers.race`).
4. UNSOLVABLE only from CP-SAT's infeasibility proof, or from the max-cards model's proven bound below
   the deck on the whole deal (the LNS's empty prefix); then, with ``max_cards``, the longest removal
   sequence in the time left (:mod:`.maxcards`). A time limit is UNKNOWN.

Every SOLVED result is decoded into engine moves, each replayed as legal in an
:class:`~patience.engine.Engine` (:func:`~.decode.to_moves`), and then checked by
:func:`patience.validate.replay` in :meth:`patience.solvers.base.Backend.solve` before it is reported.
"""

from __future__ import annotations

import time
from dataclasses import KW_ONLY, dataclass
from functools import partial
from typing import Any

from ortools.sat.python import cp_model

from ...instance import Instance
from ...interrupt import solve_cpsat
from ...rules import RuleSet
from ..base import Backend, Limits, MaxCards, Reason, Result, Status
from ..race import race
from .cubes import cube_search
from .data import HoleDeal, family_supports
from .decode import decode, hint_order, to_moves
from .lns import lns_search
from .maxcards import max_cards_removed
from .model import build_model
from .params import parameters, solver_stats
from .presearch import presearch
from .steps import solve_steps

__all__ = ["MULTI_HOLE_FACTOR", "CpSatBlackHole", "CpSatOptions"]

# Several holes: the presearch gets this many times the node budget (CP-SAT rarely decides them).
MULTI_HOLE_FACTOR = 25


@dataclass(frozen=True)
class CpSatOptions:
    """Options of the ``cpsat`` backend (``cpsat-only`` is ``presearch_nodes=0``).

    ``formulation``: the model (:func:`~.model.build_model`; ``auto`` picks by the deal).
    ``max_cards``: on a lost deal, also optimise the longest removal sequence in the time left.
    ``presearch_nodes``: node budget of the DFS tried before CP-SAT (0 = pure CP-SAT; MULTI_HOLE_FACTOR
    times as many for several holes, where CP-SAT rarely decides). ``symmetry``/``degree``: the model's
    symmetry cuts and walk-degree constraints; ``reach``: its
    rank-exhaustion cuts (one hole). ``workers``: CP-SAT search workers. ``probe_after``:
    seconds of the cheap first CP-SAT stage before the probing stage (None: one cheap stage for the whole
    limit). ``probe_nodes``: when the presearch used at least this many nodes without a win, the deal is
    hard and CP-SAT starts with the probing stage. ``presearch_hint``: give CP-SAT the presearch's longest
    sequence as a solution hint. ``large_cards``: a deal with more tableau cards runs one cheap stage for
    the whole limit (no probing stage) and without the LP relaxation (module docstring). ``lns_after``:
    on such a deck (one hole, no cell) the decision model runs this many seconds, then the prefix LNS of
    :mod:`.lns` looks for a win in the time left instead of the cubes (None: no LNS stage).
    ``cubes_after``: on such a deck the decision model runs this many seconds, then the cube search of
    :mod:`.cubes` for a win in the time left (None: no cube stage). ``beside``: on such a deck the win
    stage (the cubes, or the LNS if ``lns_after`` is set) runs on one of the ``workers`` (at least 2)
    beside the decision model on the others, both for the whole limit (:mod:`patience.solvers.race`).
    ``cube_work``: CP-SAT's limit a cube in deterministic time (:func:`~.cubes.cube_search`).
    """

    formulation: str = "auto"
    _: KW_ONLY
    max_cards: bool = True
    presearch_nodes: int = 200_000
    symmetry: bool = True
    degree: bool = False
    reach: bool = False
    workers: int = 1
    probe_after: float | None = 3.0
    probe_nodes: int = 20_000
    presearch_hint: bool = False
    large_cards: int = 72
    lns_after: float | None = None
    cubes_after: float | None = None
    beside: bool = False
    cube_work: float = 6.0

    def __post_init__(self) -> None:
        if self.cube_work <= 0:
            raise ValueError(f"cube_work must be positive, not {self.cube_work}")
        if self.beside and self.workers < 2:
            raise ValueError(f"beside needs workers >= 2 (one for the win stage), not {self.workers}")


class CpSatBlackHole(Backend):
    """CP-SAT backend for the Black Hole family (module docstring; options: :class:`CpSatOptions`)."""

    name = "cpsat"
    Options = CpSatOptions
    options: CpSatOptions

    def supports(self, rules: RuleSet) -> bool:
        """The Black Hole family, by rule features."""
        return family_supports(rules)

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        """Decide the deal; SOLVED moves are replayed in the engine (``Backend.solve`` validates them)."""
        opts = self.options
        t0 = time.perf_counter()
        deal = HoleDeal.from_instance(instance)
        stats: dict[str, float] = {"cards": float(deal.n)}
        longest: list[Any] = []  # the presearch's longest sequence (events)
        pre_lost = False
        if opts.presearch_nodes and not deal.cells:
            budget = opts.presearch_nodes * (1 if deal.k == 1 else MULTI_HOLE_FACTOR)
            pre = presearch(instance, deal, budget, t0 + limits.seconds / 2)
            stats["presearch_nodes"] = float(pre.nodes)
            longest, pre_lost = pre.best, pre.lost
            if pre_lost:
                stats["presearch_lost"] = 1.0  # CP-SAT must now prove the loss on its own (or disagree)
            if pre.events is not None:
                stats["decided_by_presearch"] = 1.0
                return self._solved(instance, deal, pre.events, stats)
        formulation = opts.formulation
        v = build_model(deal, formulation, symmetry=opts.symmetry, degree=opts.degree, reach=opts.reach)
        if longest and opts.presearch_hint:
            hint_order(v, longest)
        stats["build_seconds"] = time.perf_counter() - t0
        left = limits.seconds - (time.perf_counter() - t0)
        status = cp_model.UNKNOWN
        # A deal the presearch found hard goes straight to the probing stage (module docstring).
        large = deal.n > opts.large_cards
        probe_after = None if large else opts.probe_after
        one_hole = v.formulation == "table" and deal.k == 1 and not deal.cells
        cubes = opts.lns_after is None  # the LNS, when asked for, replaces the cubes
        after = opts.cubes_after if cubes else opts.lns_after
        win_stage = large and (after is not None or opts.beside) and one_hole
        search: Any = lns_search
        if cubes:
            search = partial(cube_search, large_cards=opts.large_cards, cube_work=opts.cube_work)
        stage_name = "cube search" if cubes else "prefix LNS"
        found = None
        hard = probe_after is not None and stats.get("presearch_nodes", 0) >= opts.probe_nodes
        if v.formulation == "steps":
            # No probing stage: the steps model's fixed-search stages (one per order) share the limit.
            status, solver, steps_stats = solve_steps(v, left, opts.workers)
            stats.update(steps_stats)
        elif win_stage and opts.beside:
            # The win stage on one worker beside the decision model on the others (module docstring).
            solver = parameters(left, opts.workers - 1, v.formulation, large=large, inprocessing=large)
            status, found = race(
                [
                    lambda until: solve_cpsat(solver, v.model, until),
                    lambda until: search(deal, left, 1, until=until),
                ]
            )
            stats.update(solver_stats(solver))
        elif not hard:
            first = left if probe_after is None else min(left, probe_after)
            if win_stage:
                first = min(left, after or 0.0)
            solver = parameters(first, opts.workers, v.formulation, large=large, inprocessing=large)
            if first > 0:
                status = solve_cpsat(solver, v.model)
                stats.update(solver_stats(solver))
        left = limits.seconds - (time.perf_counter() - t0)
        if win_stage and not opts.beside and status == cp_model.UNKNOWN and left > 0.05:
            # Then the prefix LNS or the cubes for a win (module docstring, step 3).
            found = search(deal, left, opts.workers)
        if found is not None:
            stats.update(found.stats)
            won = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
            if (found.events is not None and status == cp_model.INFEASIBLE) or (found.lost and won):
                # Two searches disagree (possible only beside): a bug in one, never a verdict to pick.
                msg = f"CP-SAT's status {solver.status_name(status)} contradicts the {stage_name}"
                return Result(Status.ERROR, None, stats, self.name, msg)
            if found.events is not None and not won:
                if pre_lost:
                    msg = f"the {stage_name} found a win where the complete presearch found none"
                    return Result(Status.ERROR, None, stats, self.name, msg)
                return self._solved(instance, deal, found.events, stats)
            if found.lost:
                status = cp_model.INFEASIBLE  # the max-cards model's proven bound on the deal is below n
            left = limits.seconds - (time.perf_counter() - t0)
        if status == cp_model.UNKNOWN and left > 0.05 and v.formulation != "steps" and not large:
            # Second stage: the same model with probing presolve (module docstring).
            solver = parameters(left, opts.workers, v.formulation, probing=2)
            status = solve_cpsat(solver, v.model)
            for key, value in solver_stats(solver).items():
                stats[key] = stats.get(key, 0.0) + value
            stats["probing_stage"] = 1.0
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if pre_lost:
                # Two independent searches disagree: a bug in one of them, never a verdict to pick from.
                msg = "CP-SAT found a win where the complete presearch found none"
                return Result(Status.ERROR, None, stats, self.name, msg)
            return self._solved(instance, deal, decode(v, solver), stats)
        if status == cp_model.INFEASIBLE:
            most = None
            if opts.max_cards:
                left = limits.seconds - (time.perf_counter() - t0)
                if left > 0.05:
                    best, bound, _moves, mstats = max_cards_removed(
                        instance, left, opts.workers, incumbent=longest
                    )
                    stats.update(mstats)
                    most = MaxCards(best, bound)
            return Result(Status.UNSOLVABLE, None, stats, self.name, max_cards=most)
        if status == cp_model.UNKNOWN:
            return Result(Status.UNKNOWN, None, stats, self.name, "time limit", Reason.TIME)
        return Result(Status.UNKNOWN, None, stats, self.name, f"cp-sat status {solver.status_name(status)}")

    def _solved(self, inst: Instance, deal: HoleDeal, events: list[Any], stats: dict[str, float]) -> Result:
        """SOLVED with the decoded events as JSON moves (each checked legal in the engine by to_moves)."""
        moves = to_moves(inst, deal, events)
        return Result(Status.SOLVED, tuple(moves), stats, self.name, max_cards=MaxCards(deal.n, deal.n))
