"""TEMPLATE: a minimal backend to copy when adding a new one (CPMpy's solvers/TEMPLATE.py habit).

Not registered: nothing imports this module. To add a backend ``mine``:

1. Copy this file to ``solvers/mine.py``; rename ``TemplateBackend`` and ``TemplateOptions``.
2. Write a support predicate over the rules in :mod:`.registry` (rule features only, never a game's
   name, and no import of ortools, numba or your module: ``auto`` and the command line's refusal
   message ask every backend), and return it from ``supports``.
3. Write ``_solve``; see its docstring for what to return. Do NOT write ``solve``: the final
   :meth:`patience.solvers.base.Backend.solve` refuses unsupported rules (``_solve`` is not called),
   times the run (``stats["seconds"]``), turns MemoryError into UNKNOWN, and replays every claimed win
   through the validator (ERROR if it does not replay). Defining ``solve`` is a TypeError.
4. Register it in :data:`.registry.BACKENDS`: ``Entry("mine", "patience.solvers.mine", "MineBackend",
   your_predicate, requires=("some_package",))``. A variant is an entry with preset ``options``.
5. Tests in ``tests/solvers/test_mine.py``; the matrix tests (test_matrix, test_oracle) pick up every
   registered backend by itself.

The search below is a plain depth-first search over :class:`patience.engine.Engine` with a set of
visited states: complete (a loss it reports was proven by exhausting the states), no pruning.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..engine import Engine, Move, moves_to_json
from ..instance import Instance
from ..rules import RuleSet
from .base import Backend, Limits, MaxCards, Reason, Result, Status
from .registry import engine_supports

__all__ = ["TemplateBackend", "TemplateOptions"]


@dataclass(frozen=True)
class TemplateOptions:
    """Options, passed as ``get_solver(name, **options)`` or ``TemplateBackend(**options)``; an unknown
    name is a ValueError naming the valid ones. Validate values in ``__post_init__``."""

    check_every: int = 256  # nodes between two looks at the clock

    def __post_init__(self) -> None:
        if self.check_every < 1:
            raise ValueError(f"check_every must be >= 1, got {self.check_every}")


class TemplateBackend(Backend):
    """Plain depth-first search with duplicate detection (module docstring)."""

    name = "template"  # the registry name; get_solver gives an instance its entry's name
    Options = TemplateOptions
    options: TemplateOptions

    def supports(self, rules: RuleSet) -> bool:
        """Every rule-set the engine plays (the predicate the registry entry would carry)."""
        return engine_supports(rules)

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        """Decide the deal within ``limits``.

        Return SOLVED with the moves as JSON objects (:func:`patience.engine.moves_to_json`), UNSOLVABLE
        only with a proof (here: every reachable state seen), else UNKNOWN with a :class:`Reason` and a
        short message ("time limit", "node limit"). ``max_cards``: the most cards moved home, when known.
        """
        deadline = time.perf_counter() + limits.seconds
        engine = Engine(instance)
        dealt_home = engine.foundation_cards()
        seen = {engine.key()}  # states already expanded or on the path
        stack: list[list[Move]] = [engine.legal_moves()]  # untried moves of each state on the path
        path: list[Move] = []
        nodes, best = 0, dealt_home
        while stack and not engine.is_won():  # (the deal may be won as dealt)
            if not stack[-1]:  # every move of this state tried: back up
                stack.pop()
                if path:
                    path.pop()
                    engine.undo()
                continue
            move = stack[-1].pop()
            engine.apply(move)
            nodes += 1
            best = max(best, engine.foundation_cards())
            key = engine.key()
            if key in seen and not engine.is_won():
                engine.undo()
            else:
                seen.add(key)
                path.append(move)
                stack.append(engine.legal_moves())
            if engine.is_won():
                break
            if limits.nodes is not None and nodes >= limits.nodes:
                return Result(Status.UNKNOWN, None, {"nodes": nodes}, "", "node limit", Reason.NODES)
            if nodes % self.options.check_every == 0 and time.perf_counter() >= deadline:
                return Result(Status.UNKNOWN, None, {"nodes": nodes}, "", "time limit", Reason.TIME)
        stats = {"nodes": float(nodes), "states": float(len(seen))}
        if engine.is_won():
            return Result(Status.SOLVED, tuple(moves_to_json(instance, path)), stats)
        most = best - dealt_home  # exact: the search saw every reachable state
        return Result(Status.UNSOLVABLE, None, stats, max_cards=MaxCards(most, most))
