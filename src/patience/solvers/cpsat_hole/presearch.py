"""The bounded DFS presearch tried before CP-SAT, and what a win or a loss from it may be used for.

Before CP-SAT, the dfs backend's hole search (:func:`~patience.solvers.dfs_hole.hole_search`: Wolter's
move order and pruning rules, rank reachability, a numba kernel) runs with a node budget
(``presearch_nodes``, default 200,000; :data:`~.backend.MULTI_HOLE_FACTOR` times that for several holes).
What its answers are used for, and why that keeps the backend's verdicts sound:

* A win it finds is replayed and validated like any other and returned (``stats["decided_by_presearch"]``):
  a win is a certificate, whoever finds it.
* A loss is never taken from it: UNSOLVABLE always comes from CP-SAT proving the model infeasible, so a
  lost verdict stays an independent proof that can be checked against the dfs backend (``cpsat-only`` is
  this backend with the presearch off, for exactly that). When the presearch ran to its end without a
  win and CP-SAT then finds one, the two searches disagree and the result is ERROR, never a verdict.
* Its longest sequence is the max-cards optimisation's incumbent: reported when CP-SAT finds nothing
  longer (with several holes the max-cards circuit model often finds no solution at all). As a CP-SAT
  solution hint (``presearch_hint=True``) it is off by default.
* The nodes it spent without a win tell a hard deal: at ``probe_nodes`` or more, CP-SAT starts with its
  probing stage (:mod:`.backend`).

Budget and hint measurements: docs/cpsat-hole-notes.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine import Engine
from ...instance import Instance
from ..dfs_hole import hole_search
from .data import HoleDeal

__all__ = ["Presearch", "presearch"]


@dataclass
class Presearch:
    """What the bounded DFS before CP-SAT found (module docstring)."""

    events: list[Any] | None  # a winning sequence as events (:mod:`.decode`), None when none was found
    best: list[Any]  # the longest sequence seen as events (:mod:`.decode`): the max-cards incumbent and hint
    nodes: int
    lost: bool  # the search ran to its end without a win: the DFS's own proof of a loss


def presearch(inst: Instance, deal: HoleDeal, max_nodes: int, deadline: float) -> Presearch:
    """Bounded :func:`~patience.solvers.dfs_hole.hole_search` from the deal's start (no cell).

    The search is the dfs backend's (Wolter's move order and pruning rules, rank reachability, the
    numba kernel); its moves are turned into cards of ``deal`` here.
    """
    out = hole_search(Engine(inst), deadline, max_nodes, capacity=max_nodes + 64, cells=False)
    first = [0] * (max(deal.pile, default=0) + 1)
    height = [0] * len(first)
    for c in range(deal.n - 1, -1, -1):
        first[deal.pile[c]] = c
        height[deal.pile[c]] += 1

    def cards(moves: list[Any]) -> list[tuple[int, int]]:
        h, got = list(height), []
        for _, p, _, hole, _ in moves:
            h[p] -= 1
            got.append((first[p] + h[p], hole))
        return got

    events = [(t, 1, c, hole) for t, (c, hole) in enumerate(cards(out.moves))] if out.won else None
    best = [(t, 1, c, hole) for t, (c, hole) in enumerate(cards(out.best_moves))]
    return Presearch(events, best, out.nodes, out.complete and not out.won)
