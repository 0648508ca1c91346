"""The ``cpsat-gaps`` backend: bounds, model, solve with the formulation's parameters, verdict, moves.

Verdicts: a plan is SOLVED. An infeasible model is UNSOLVABLE only when the horizon is proven
(fixed-suit first column, :mod:`.bounds`); under any-two it is UNKNOWN (no proof). A model over
:data:`~.model.MAX_MODEL_LITERALS` is not built (UNKNOWN, a memory guard); the time limit covers
building the model too.

Parameters of "steps" and "foata" (measured: docs/cpsat-gaps-notes.md): presolve, probing,
linearization, symmetry detection and SAT inprocessing off, and a fixed search branching on ``mv``
forward in time, a move before no move (a depth-first search over plans with clause learning).
"events" runs with CP-SAT's defaults (1 worker), "visits" with them but no LP (``linearization_level =
0``).

Decision orders (``orders``): within a step the fixed search tries the moves by card (``"card"``, the
default) or by target cell (``"target"``). The order decides which plays the depth-first search meets
first, so each order wins and refutes different deals (docs/cpsat-gaps-notes.md). Several orders run
side by side, one model and thread each (:mod:`patience.solvers.race`); the first verdict stops the
others. Each order's search is complete, so its verdict stands alone; two that disagree are an ERROR.
With ``split`` > 1 several threads share each order's search instead, cube by cube (:mod:`.split`).

Win probe (``probe``, a Foata depth D; 0: none): one thread first asks the model for a win within D
steps (:func:`win_probe`: assumptions, no second model), for at most :data:`PROBE_SHARE` of the time
left, then joins the cubes. Why: under the 80-step escape ("won, or still moving") the goal never
prunes, so the search follows every dead play; closed, the goal prunes the plays that can no longer
win. At D = 60 (measured against 40, 50, 70 and 80 on 10 won 4 x 13 deals, 1 worker, 15 s) it wins 6
of them in 7-12 s, where the complete search needs more than 30 s on two cores. Its refutation proves
nothing (a win may need more steps), so on a lost deal it only costs that thread's time
(docs/cpsat-gaps-notes.md). Under a first horizon shorter than its depth, the probe runs *beside* it:
on the next horizon's model, built at once (and then used for that horizon), while the other thread
searches the short one's cubes. So a short first stage does not delay the probe. A probe out of its
time on a model is not asked again on that model, where the same fixed search would repeat its path for
less time; it is asked again on another one (the proven horizon's).

Every SOLVED result is decoded into engine moves, each replayed as legal in an
:class:`~patience.engine.Engine`, then checked by :func:`patience.validate.replay` in
:meth:`patience.solvers.base.Backend.solve`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, replace
from functools import partial
from typing import Any

from ortools.sat.python import cp_model

from ...engine import GRID, Engine
from ...instance import Instance
from ...interrupt import solve_cpsat
from ...rules import RuleSet
from ..base import Backend, Limits, Reason, Result, Status
from ..race import race
from .bounds import Bounds, bounds
from .data import GapsDeal, family_supports
from .model import FORMULATIONS, MAX_MODEL_LITERALS, ModelVars, OutOfTime, build_model, decode
from .split import first_moves, solve_split

__all__ = ["FOATA_DEPTHS", "ORDERS", "CpSatGaps", "CpSatGapsOptions", "to_moves"]

# "foata" first tries these horizons under the proven one, with the goal "won or still moving" (foata.py,
# constraint 5): measured on 4 x 13 lost deals 2, 6, 11, 41 at 80 steps, 1.5-12.7 s against 5.0-22.2 s
# at the proven horizon (docs/cpsat-gaps-notes.md). 55 first, with the reach cut and the probe beside it
# (``split=2 probe=60``): 73 of the 100 portable 4 x 13 deals at 30 s against 71 with 80 alone, in the same
# machine state (lost 15, 47, 48 and won 77 gained, won 33 and 92 lost at 27-29 s).
FOATA_DEPTHS = (55, 80)

# The win probe (``probe``) gets this share of the time left when it starts: the wins it finds at depth 60
# take 7-12 s of a 30 s limit (module docstring), and a refuted probe ends sooner on the deals measured.
PROBE_SHARE = 0.5

# The fixed search's order of the moves within a step (module docstring): the sort key of (step, card,
# cell).
ORDERS: dict[str, Any] = {"card": lambda k: k, "target": lambda k: (k[0], k[2], k[1])}


def _parameters(
    v: ModelVars, seconds: float, workers: int, search: str = "fixed", order: str = "card"
) -> cp_model.CpSolver:
    """CP-SAT parameters per formulation (measured choices: module docstring); ``search`` "auto" leaves
    the branching of "steps" to CP-SAT (the rest unchanged); ``order``: the fixed search's order of the
    moves in a step (:data:`ORDERS`)."""
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.max_time_in_seconds = max(seconds, 0.01)
    p.num_workers = workers
    if v.formulation in ("steps", "foata"):
        # Presolve, probing, symmetry detection and inprocessing cost seconds on this large clausal model
        # and pay nothing back; forward search in time (a DFS with clause learning) refutes best.
        p.cp_model_presolve = False
        p.cp_model_probing_level = 0
        p.linearization_level = 0
        p.symmetry_level = 0
        p.use_sat_inprocessing = False
        if v.fixed_search and v.mv and search == "fixed":
            if not v.strategy:  # once a model: split solves one model once a cube
                decisions = [v.mv[k] for k in sorted(v.mv, key=ORDERS[order])]
                v.model.add_decision_strategy(decisions, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
                v.strategy = order
            if v.strategy != order:
                raise ValueError(f"the model already branches in order {v.strategy!r}, not {order!r}")
            p.search_branching = cp_model.FIXED_SEARCH
    elif v.formulation == "visits":
        p.linearization_level = 0  # measured on 4 x 8 deals 0, 4, 5: faster without the LP
    return solver


def _decides(v: ModelVars, solver: cp_model.CpSolver) -> bool:
    """A solution decides the deal unless it is a play still moving at a short horizon (foata.py, 5)."""
    return v.last_any is None or not solver.boolean_value(v.last_any)


def win_probe(depth: int) -> Callable[[ModelVars], list[Any]]:
    """The assumptions of the win probe at Foata ``depth`` on a "foata" model: steps ``depth`` on are
    empty (so every later one is, constraint 3) and, under a shorter horizon, the play does not end still
    moving; so a solution is a win within ``depth`` steps."""

    def ask(v: ModelVars) -> list[Any]:
        return [~v.any_steps[depth]] + ([~v.last_any] if v.last_any is not None else [])

    return ask


def to_moves(inst: Instance, plan: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """Replay the plan in an Engine (each move must be legal there) and return the JSON moves."""
    eng = Engine(inst)
    out = []
    for c, p in plan:
        move = (GRID, eng.grid.index(c), GRID, p, 1)
        if not eng.is_legal(move):
            raise RuntimeError(f"decoded move of card {c} into cell {p} is not legal in the engine")
        out.append(eng.move_to_json(move))
        eng.apply(move)
    return out


@dataclass(frozen=True)
class CpSatGapsOptions:
    """Options of ``cpsat-gaps``: ``formulation`` one of :data:`FORMULATIONS`; ``two_moves``: moves
    allowed to each 2 under any-two (no proof, so infeasibility there is UNKNOWN); ``workers``: CP-SAT
    search workers; ``order_cut``: the order cut of the steps model (:func:`_order_cut`); ``search``:
    "fixed" (steps, foata: forward in time, a move first) or "auto" (CP-SAT's own branching);
    ``normal_form``: the Foata cut of "foata" (False: plain parallel steps, an ablation); ``card_cuts``:
    the per-card move bounds in "foata" (off: they cost conflict rate and pruned nothing measured);
    ``settle``: the forced-settle cut of "foata" (:mod:`.settle`; fixed-suit; off is an ablation);
    ``reach``: the reach cut of "foata" under a short horizon (:mod:`.reach`; fixed-suit; off: ablation);
    ``split``: threads that share each order's search, cube by cube (:mod:`.split`; fixed search);
    ``probe``: the Foata depth of a win probe solved first, by one thread (0: none; module docstring);
    ``orders``: the fixed search's move orders in a step (:data:`ORDERS`), side by side when several
    (module docstring; a comma-separated string is read too)."""

    formulation: str = FORMULATIONS[0]
    _: KW_ONLY
    two_moves: int = 2
    workers: int = 1
    order_cut: bool = False
    search: str = "fixed"
    normal_form: bool = True
    card_cuts: bool = False
    settle: bool = True
    reach: bool = True
    split: int = 1
    probe: int = 0
    orders: tuple[str, ...] = ("card",)

    def __post_init__(self) -> None:
        if isinstance(self.orders, str):
            object.__setattr__(self, "orders", tuple(self.orders.split(",")))
        bad = [o for o in self.orders if o not in ORDERS]
        if bad or not self.orders:
            raise ValueError(f"unknown order {bad[0] if bad else ''!r} ({', '.join(ORDERS)})")
        if len(self.orders) > 1 and (self.formulation not in ("steps", "foata") or self.search != "fixed"):
            raise ValueError("several orders need the fixed search of 'steps' or 'foata'")
        if self.formulation not in FORMULATIONS:
            raise ValueError(f"unknown formulation {self.formulation!r} ({', '.join(FORMULATIONS)})")
        if self.split < 1:
            raise ValueError(f"split must be at least 1 (threads), not {self.split}")
        if self.split > 1 and (self.formulation not in ("steps", "foata") or self.search != "fixed"):
            raise ValueError("split needs the fixed search of 'steps' or 'foata'")
        if self.probe < 0:
            raise ValueError(f"probe must be a Foata depth (0: none), not {self.probe}")
        if self.probe and (self.formulation != "foata" or self.search != "fixed"):
            raise ValueError("probe needs the fixed search of 'foata'")
        if self.search not in ("fixed", "auto"):
            raise ValueError(f"unknown search {self.search!r} (fixed, auto)")


class CpSatGaps(Backend):
    """CP-SAT backend for Gaps without redeals (module docstring; options: :class:`CpSatGapsOptions`)."""

    name = "cpsat-gaps"
    Options = CpSatGapsOptions
    options: CpSatGapsOptions

    def supports(self, rules: RuleSet) -> bool:
        """Gaps grids of one deck without redeals."""
        return family_supports(rules)

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        """Decide the deal; SOLVED moves are replayed in the engine (``Backend.solve`` validates them)."""
        opts = self.options
        t0 = time.perf_counter()
        deal = GapsDeal.from_instance(instance)
        b = bounds(deal, opts.two_moves)
        stats: dict[str, float] = {"horizon": float(b.horizon), "horizon_proven": float(b.proven)}
        if deal.won():
            return self._solved(instance, [], stats)
        size = b.horizon * sum(len(b.reach[c]) for c in deal.cards)
        if opts.formulation in ("steps", "foata") and size > MAX_MODEL_LITERALS:
            msg = f"model too large: {size} literals, over the limit of {MAX_MODEL_LITERALS}"
            return Result(Status.UNKNOWN, None, stats, self.name, msg, Reason.MEMORY)  # a size guard
        deadline = t0 + limits.seconds
        if len(opts.orders) == 1:
            return self._decide(instance, deal, b, opts.orders[0], deadline, stats)
        runs = [partial(self._decide, instance, deal, b, o, deadline, dict(stats)) for o in opts.orders]
        return self._pick(race(runs))

    def _pick(self, results: list[Result]) -> Result:
        """The verdict of orders run side by side (module docstring): a plan or a proof, else the first
        order's UNKNOWN; an ERROR, or a plan beside a proof of none, is an ERROR."""
        for i, r in enumerate(results):
            r.stats["order_index"] = float(i)
        errors = [r for r in results if r.status is Status.ERROR]
        solved = [r for r in results if r.status is Status.SOLVED]
        lost = [r for r in results if r.status is Status.UNSOLVABLE]
        if errors:
            return errors[0]
        if solved and lost:
            plan, proof = (self.options.orders[results.index(r)] for r in (solved[0], lost[0]))
            msg = f"the orders disagree: {plan!r} found a plan where {proof!r} proved there is none"
            return Result(Status.ERROR, None, lost[0].stats, self.name, msg)
        return (solved or lost or results)[0]

    def _decide(
        self,
        instance: Instance,
        deal: GapsDeal,
        b: Bounds,
        order: str,
        deadline: float,
        stats: dict[str, float],
        until: threading.Event | None = None,
    ) -> Result:
        """The horizons of the formulation, each built and solved with the fixed search's ``order``
        until a verdict; ``until`` (set) stops the solve (:func:`~patience.interrupt.solve_cpsat`)."""
        opts = self.options
        horizons = [b.horizon]
        if opts.formulation == "foata":
            horizons = [d for d in FOATA_DEPTHS if d < b.horizon] + horizons
        probe_open = True  # the probe asks the same question at every horizon: until it is answered
        spent: set[int] = set()  # the horizons of the models a probe ran out of its time on
        ahead: dict[int, ModelVars] = {}  # the next horizon's model, built early for the probe beside
        refuted: dict[tuple[Any, ...], set[tuple[bool, ...]]] = {}  # cubes refuted so far, by their keys
        for i, horizon in enumerate(horizons):
            if until is not None and until.is_set():
                msg = "stopped: another order ended"
                return Result(Status.UNKNOWN, None, stats, self.name, msg, Reason.TIME)
            t_build = time.perf_counter()
            beside = None  # a probe deeper than this horizon runs on the next one's model (module docstring)
            try:
                v = ahead.pop(horizon, None) or self._build(deal, b, horizon, deadline)
                after = horizons[i + 1] if i + 1 < len(horizons) else 0
                if probe_open and horizon <= opts.probe < after:
                    beside = ahead[after] = self._build(deal, b, after, deadline)
            except OutOfTime:
                return Result(
                    Status.UNKNOWN, None, stats, self.name, "time limit (building the model)", Reason.TIME
                )
            stats["build_seconds"] = stats.get("build_seconds", 0.0) + time.perf_counter() - t_build
            left = deadline - time.perf_counter()
            if left <= 0:
                return Result(
                    Status.UNKNOWN, None, stats, self.name, "time limit (building the model)", Reason.TIME
                )
            if opts.split > 1 or opts.probe:
                # A probe that ran out of its time on a model is not asked again on it: the fixed search
                # would go down the same path for less time (deal 33: 13.5 s beside 55, then 6.7 s at 80).
                probe_on = (beside or v).horizon
                status, v, solver, found = self._split(
                    instance, v, order, deadline, until, probe_open and probe_on not in spent, beside, refuted
                )
                if solver is None:  # every cube infeasible, or no time left for one
                    solver = cp_model.CpSolver()
            else:
                solver = _parameters(v, left, opts.workers, opts.search, order)
                status = solve_cpsat(solver, v.model, until)
                found = {
                    "conflicts": solver.num_conflicts,
                    "branches": solver.num_branches,
                    "cpsat_seconds": solver.wall_time,
                }
            if "probe" in found:  # refuted: closed; out of its time: asked again on another model only
                stats["probe"] = found.pop("probe")
                probe_open = stats["probe"] != 0.0
                if stats["probe"] == -1.0:
                    spent.add(probe_on)
            for key, value in found.items():
                stats[key] = stats.get(key, 0.0) + float(value)
            stats["model_horizon"] = float(v.horizon)  # the probe beside: the next horizon's model
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                if not _decides(v, solver):
                    continue  # a play still moving after `horizon` steps: no verdict, a longer horizon
                return self._solved(instance, decode(v, solver), stats)
            if status == cp_model.INFEASIBLE:
                if b.proven:
                    return Result(Status.UNSOLVABLE, None, stats, self.name)
                msg = f"no plan within horizon {b.horizon} (unproven horizon under any-two: no verdict)"
                return Result(Status.UNKNOWN, None, stats, self.name, msg, Reason.INCOMPLETE)
            if status == cp_model.UNKNOWN:
                return Result(Status.UNKNOWN, None, stats, self.name, "time limit", Reason.TIME)
            return Result(
                Status.UNKNOWN, None, stats, self.name, f"cp-sat status {solver.status_name(status)}"
            )
        raise AssertionError("the last horizon is the proven one: its model has no escape")

    def _build(self, deal: GapsDeal, b: Bounds, horizon: int, deadline: float) -> ModelVars:
        """The model of the options' formulation and cuts at ``horizon`` (``OutOfTime`` past ``deadline``)."""
        opts = self.options
        return build_model(
            deal,
            b,
            opts.formulation,
            horizon=horizon,
            order_cut=opts.order_cut,
            deadline=deadline,
            normal_form=opts.normal_form,
            card_cuts=opts.card_cuts,
            settle=opts.settle,
            reach=opts.reach,
        )

    def _split(
        self,
        instance: Instance,
        v: ModelVars,
        order: str,
        deadline: float,
        until: threading.Event | None,
        probe: bool,
        beside: ModelVars | None = None,
        refuted: dict[tuple[Any, ...], set[tuple[bool, ...]]] | None = None,
    ) -> tuple[int, ModelVars, cp_model.CpSolver | None, dict[str, float]]:
        """The model ``v`` solved by ``split`` threads, cube by cube (:mod:`.split`; one thread: one cube,
        the whole model), after the win probe when ``probe`` and the option ask for one. The other threads'
        copies are clones of the model's proto, sharing its literals (they are indices): 0.04 s against
        1.1 s to build one again (4 x 13 deal 44, 80 steps). ``refuted``: the cubes refuted at the shorter
        horizons of this deal, by their keys; a longer one skips them (:mod:`.split`)."""
        opts = self.options
        t_build = time.perf_counter()
        models = [v] + [replace(v, model=v.model.clone()) for _ in range(opts.split - 1)]
        built = time.perf_counter() - t_build

        def solver_for(m: ModelVars) -> cp_model.CpSolver | None:
            left = deadline - time.perf_counter()
            return _parameters(m, left, opts.workers, opts.search, order) if left > 0 else None

        keys = first_moves(instance, v) if opts.split > 1 else []
        ask = None
        if probe and 0 < opts.probe < (beside or v).horizon:
            ask = (win_probe(opts.probe), PROBE_SHARE * (deadline - time.perf_counter()))
        done = None if refuted is None else refuted.setdefault(tuple(keys), set())
        status, model, solver, found = solve_split(
            models, keys, solver_for, until, ask, _decides, beside, refuted=done
        )
        return status, model, solver, {**found, "build_seconds": built}

    def _solved(self, inst: Instance, plan: list[tuple[int, int]], stats: dict[str, float]) -> Result:
        """SOLVED with the plan as JSON moves (each checked legal in the engine by to_moves)."""
        moves = to_moves(inst, plan)
        stats["plan_length"] = float(len(moves))
        return Result(Status.SOLVED, tuple(moves), stats, self.name)
