"""One fixed search shared by several threads: cubes over the first step's legal moves.

Two move orders side by side (``orders``) both search the whole deal, so on a lost deal the second core
only races the first. Here the threads split one search instead: a *cube* fixes, for every move legal
in the dealt grid, whether the plan's first (Foata) step makes it; the cubes are every such assignment,
so they partition the plans, and each is the same model solved under assumptions
(``CpModel.add_assumptions``), one model per thread. Cubes are taken from a shared queue in the fixed
search's own order (moves first), so a cheap cube never waits behind a costly one.

Verdicts: a solution of any cube is a solution of the model (the assumptions only add constraints);
every cube infeasible makes the model infeasible, since the cubes cover every assignment of those
literals (the moves illegal in the dealt grid are false in every solution anyway). A cube still open at
the time limit leaves the model undecided. Measured on 4 x 13 lost deals (docs/cpsat-gaps-notes.md).

*Cubes refuted at a shorter horizon* (``refuted``). Under the escape of a horizon T below the proven one
("won in state T, or still moving", foata.py, constraint 5, with the cuts 6 and 7), a cube's infeasibility
already proves that no winning play starts with that first step: a winning play whose Foata form starts
with the cube's moves would give a solution within the cube (its whole form when it has at most T steps,
else its first T steps, still moving in a state that lies on a winning play, so the cuts hold). The
first step's literals are the same moves in every horizon's model, so the cube is the same set of plays
there. So a later, longer horizon skips the cubes an earlier one refuted, and the model is infeasible
(the deal lost) once every cube is refuted at one horizon or another. Measured: docs/cpsat-gaps-notes.md.

A *win probe* (``probe``) is one more item, taken first: the model under assumptions that ask for a win
within a few steps (the backend's ``probe`` option). Its solution is a solution of the model like any
cube's; its infeasibility, or its running out of its own time, proves nothing, and the thread goes on to
the cubes. So the verdicts above are unchanged. A cube whose solution does not decide the deal (``final``:
a play still moving at a short horizon) ends the cubes but not the probe, which stops only once the deal
is decided (a deciding solution, or every cube refuted) or at its own time.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from typing import Any

from ortools.sat.python import cp_model

from ...engine import Engine
from ...instance import Instance
from ...interrupt import solve_cpsat
from ..race import race

__all__ = ["first_moves", "solve_split"]


def first_moves(inst: Instance, v: Any) -> list[tuple[int, int, int]]:
    """The keys ``(0, card, cell)`` of ``v.mv`` (the model of ``inst``) of the moves the engine finds
    legal in the dealt grid (any set of step-0 literals gives complete cubes; these are the ones that
    can be true)."""
    eng = Engine(inst)
    keys = ((0, eng.grid[src], dst) for _a, src, _b, dst, _n in eng.legal_moves())
    return sorted(k for k in keys if k in v.mv)


class _Either(threading.Event):
    """Set when either event is (``is_set`` is all :func:`~patience.interrupt.solve_cpsat` asks)."""

    def __init__(self, a: threading.Event, b: threading.Event | None) -> None:
        super().__init__()
        self.a, self.b = a, b

    def is_set(self) -> bool:
        return self.a.is_set() or (self.b is not None and self.b.is_set())


def solve_split(
    models: list[Any],
    keys: list[tuple[int, int, int]],
    solver_for: Callable[[Any], cp_model.CpSolver | None],
    until: threading.Event | None = None,
    probe: tuple[Callable[[Any], list[Any]], float] | None = None,
    final: Callable[[Any, cp_model.CpSolver], bool] = lambda v, solver: True,
    probe_model: Any | None = None,
    refuted: set[tuple[bool, ...]] | None = None,
) -> tuple[int, Any, cp_model.CpSolver | None, dict[str, float]]:
    """Solve the same model (one copy per thread in ``models``) cube by cube over the literals
    ``v.mv[k]`` of ``keys`` (:func:`first_moves`; module docstring). ``solver_for(v)`` gives a fresh
    solver with the time left (None: no time left). ``probe``: the win probe's assumptions (a function of
    the model) and its seconds, solved first (module docstring). ``final(v, solver)``: whether a cube's
    solution decides the deal (False: it ends the cubes, but the probe goes on; a play still moving at a
    short horizon). ``probe_model``: the model the probe is solved on (default: the thread's own copy;
    a longer horizon than the cubes' model when the probe is deeper). Returns the status (INFEASIBLE
    only when every cube is), the model and solver of the deciding item (else the first to end the
    cubes), and the summed search statistics (``probe``: 1 won, 0 infeasible, -1 undecided; ``skipped``:
    the cubes refuted before). ``refuted``: the cubes (tuples over ``keys``) refuted at a shorter horizon
    of the same deal with the same keys: they are skipped, and the cubes refuted here are added to it
    (module docstring)."""
    done = set() if refuted is None else refuted
    every = list(itertools.product((True, False), repeat=len(keys)))
    queue: list[tuple[bool, ...] | None] = [c for c in every if c not in done]
    queue.reverse()  # popped from the end: all moves first, as the fixed search would
    lock = threading.Lock()
    cubes = len(queue)
    left = [cubes]  # cubes not yet ended (threads out of cubes wait for them)
    refuted_here = [0]  # cubes found infeasible here: with those of ``done``, all of them decide the deal
    if probe is not None:
        queue.append(None)  # the probe, popped first; not a cube (left counts the cubes)
    found: list[tuple[bool, int, Any, cp_model.CpSolver | None]] = []  # (decides, status, model, solver)
    stats = {"conflicts": 0.0, "branches": 0.0, "cpsat_seconds": 0.0, "cubes": 0.0}
    stats["skipped"] = float(len(every) - cubes)
    decided = threading.Event()  # a deciding solution, or every cube infeasible: the probe stops too
    if not cubes:  # every cube refuted before: no winning play (module docstring)
        return (cp_model.INFEASIBLE, models[0], None, stats)

    def work(v: Any, stop: threading.Event) -> None:
        halt = _Either(stop, until)
        while not halt.is_set():
            with lock:
                empty = not queue
                cube = None if empty else queue.pop()  # None: the probe
            if empty:
                while left[0] and not halt.is_set():
                    stop.wait(0.01)
                return
            w = probe_model if cube is None and probe_model is not None else v  # this item's model
            w.model.clear_assumptions()
            if cube is None:  # the probe (only queued with one)
                assert probe is not None
                w.model.add_assumptions(probe[0](w))
            else:
                assume = [w.mv[k] if on else ~w.mv[k] for k, on in zip(keys, cube, strict=True)]
                w.model.add_assumptions(assume)
            solver = solver_for(w)
            if solver is not None and probe is not None and cube is None:
                p = solver.parameters
                p.max_time_in_seconds = min(p.max_time_in_seconds, max(probe[1], 0.01))
            # The probe outlives cubes that end undecided; it stops only once the deal is decided.
            status = cp_model.UNKNOWN
            if solver is not None:
                status = solve_cpsat(solver, w.model, _Either(decided, until) if cube is None else halt)
            won = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
            with lock:
                if solver is not None:
                    stats["conflicts"] += solver.num_conflicts
                    stats["branches"] += solver.num_branches
                    stats["cpsat_seconds"] += solver.wall_time
                if cube is None:
                    stats["probe"] = 1.0 if won else 0.0 if status == cp_model.INFEASIBLE else -1.0
                    stats["probe_seconds"] = solver.wall_time if solver is not None else 0.0
                else:
                    left[0] -= 1
                    if status == cp_model.INFEASIBLE:
                        refuted_here[0] += 1
                        done.add(cube)
                    stats["cubes"] += 1
                decides = won and (cube is None or solver is not None and final(w, solver))
                ends = won or (cube is not None and status != cp_model.INFEASIBLE)
                if ends:
                    found.append((decides, status, w, solver))
                if decides or refuted_here[0] == cubes:
                    decided.set()
            if ends:
                return  # a solution, or time out: the race stops the other threads' cubes

    race([lambda stop, v=v: work(v, stop) for v in models])
    for v in [*models, *([probe_model] if probe_model is not None else [])]:
        v.model.clear_assumptions()
    for _decides, status, v, solver in sorted(found, key=lambda f: not f[0]):  # a deciding one first
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return status, v, solver, stats
    if refuted_here[0] < cubes:
        return (cp_model.UNKNOWN, *(found[0][2:] if found else (models[0], None)), stats)
    return (cp_model.INFEASIBLE, models[0], None, stats)
