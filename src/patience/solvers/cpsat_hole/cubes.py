"""Wins by cubes: the decision model of the position after a few greedy plays (one hole, no cell).

At 104 cards the decision model of the whole deal proves the quick losses but seldom finds a win in 30 s,
while the same model of the position after the first 8-20 plays of a randomised greedy playout (a
*cube*: those plays fixed, the hole topped by the last one) often finds one in 2-7 s
(docs/cpsat-hole-notes.md). So this search draws playouts (:func:`.lns.greedy`, the longest of
``tries``, a new seed each) and asks CP-SAT, for a few prefix lengths of each, whether the cards left
can all be removed, within ``cube_work`` of CP-SAT's deterministic time a cube.

What its answers may be used for (soundness):

* A cube with a solution is a win: the prefix (legal greedy plays) followed by the sub-deal's solution,
  replayed as engine moves (:func:`~.decode.to_moves`) and then by the validator in
  :meth:`~patience.solvers.base.Backend.solve`.
* A cube proven infeasible is a dead position, and so is every longer prefix of the same playout: it
  lies in that position's subtree. It is skipped, never a verdict: the cubes tried do not cover every
  first plays, so no loss is ever concluded here.

A position is the set of cards removed and the rank on the hole (the same cards removed in another order
leave the same piles), so a cube already asked is never asked again: the best of 200 playouts often
repeats a prefix (All in a Row 8x13 #22: 10 cubes in 30 s, 5 of them repeats, 3 of those at the full
cube limit), and a later playout through a dead position is dead from there on.
"""

from __future__ import annotations

import threading
import time

from ortools.sat.python import cp_model

from ...interrupt import solve_cpsat
from .data import HoleDeal
from .decode import decode, order_events
from .lns import LnsResult, greedy, sub_deal
from .model import build_model
from .params import parameters

__all__ = ["CUBE_LENGTHS", "cube_search"]

# Prefix lengths tried on each playout, in this order (measured on All in a Row 8x13: wins after 8, 12,
# 16 and 20 greedy plays; docs/cpsat-hole-notes.md).
CUBE_LENGTHS = (12, 16, 8, 20)


def _decide(
    deal: HoleDeal,
    prefix: list[int],
    seconds: float,
    workers: int,
    large_cards: int = 72,
    until: threading.Event | None = None,
    work: float | None = None,
) -> tuple[int, list[int] | None]:
    """CP-SAT's status on the position after ``prefix`` within ``seconds`` (and ``work``, a deterministic
    time limit, when given), and the whole sequence when it is won; a sub-deal past ``large_cards`` cards
    gets the large-deck parameters (:func:`~.params.parameters`)."""
    sub, keep = sub_deal(deal, set(prefix), deal.rank[prefix[-1]])
    v = build_model(sub, "table")
    solver = parameters(seconds, workers, "table", large=sub.n > large_cards)
    if work is not None:
        solver.parameters.max_deterministic_time = work
    status = solve_cpsat(solver, v.model, until)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return status, None
    return status, prefix + [keep[c] for _, _, c, _ in decode(v, solver)]


def cube_search(
    deal: HoleDeal,
    seconds: float,
    workers: int = 1,
    seed: int = 0,
    lengths: tuple[int, ...] = CUBE_LENGTHS,
    cube_work: float = 6.0,
    tries: int = 200,
    large_cards: int = 72,
    until: threading.Event | None = None,
) -> LnsResult:
    """Cubes for a win (module docstring) within ``seconds``; one hole without a cell only.

    ``lengths``: the prefix lengths tried on each playout, in order; ``cube_work``: CP-SAT's limit a
    cube in its *deterministic* time (units of 1.2-2 s each on the 2-core machine measured), so a cube
    gets the same answer on any machine and under any load: a wall-clock 6 s missed the winning cubes of
    All in a Row 8x13 #8, #20 and #30 (5.0-5.6 units, 8.1-8.9 s) on a slower machine, and won #26's (3.5
    units) in 5.9 s or not at all (docs/cpsat-hole-notes.md); ``tries``: greedy playouts a cube's
    playout is the longest of; ``large_cards``: the backend's option of that name; ``until``: once set,
    the search stops (:mod:`patience.solvers.race`). ``lost`` of the result is always False (module
    docstring).
    """
    if deal.k != 1 or deal.cells:
        raise ValueError("the cube search plays one hole without a free cell")
    t0 = time.perf_counter()
    stats = {"cubes": 0.0, "cubes_dead": 0.0, "cubes_repeated": 0.0, "cube_playouts": 0.0}
    best: list[int] = []
    won: list[int] | None = None  # a play removing every card
    asked: dict[tuple[frozenset[int], int], int] = {}  # CP-SAT's status of each cube position asked

    def position(prefix: list[int]) -> tuple[frozenset[int], int]:
        return frozenset(prefix), deal.rank[prefix[-1]]

    def alive_until(play: list[int]) -> int:
        """Prefixes of ``play`` this long or longer are dead: the playout ended, or it passes through a
        position already proven dead."""
        for k in sorted(lengths):
            if 0 < k < len(play) and asked.get(position(play[:k])) == cp_model.INFEASIBLE:
                return k
        return len(play)

    def fresh(play: list[int]) -> bool:
        """Has ``play`` a cube not asked yet?"""
        dead = alive_until(play)
        return any(0 < k < dead and position(play[:k]) not in asked for k in lengths)

    def out() -> bool:
        return seconds - (time.perf_counter() - t0) < 0.05 or (until is not None and until.is_set())

    while won is None and not out():
        play = greedy(deal, tries=tries, seed=seed + int(stats["cube_playouts"]), fresh=fresh)
        stats["cube_playouts"] += 1
        best = max(best, play, key=len)
        if len(play) == deal.n:
            won = play
            break
        dead = alive_until(play)
        for k in lengths:
            if out() or won is not None:
                break
            if not 0 < k < dead:
                continue
            key = position(play[:k])
            if key in asked:
                stats["cubes_repeated"] += 1
                continue
            left = seconds - (time.perf_counter() - t0)
            status, won = _decide(deal, play[:k], left, workers, large_cards, until, cube_work)
            asked[key] = status
            stats["cubes"] += 1
            if won is not None:
                stats["cube_won_after"] = float(k)
            elif status == cp_model.INFEASIBLE:
                stats["cubes_dead"] += 1
                dead = k
    stats["cubes_seconds"] = time.perf_counter() - t0
    events = order_events(won) if won is not None else None
    return LnsResult(events, False, deal.n if won is not None else len(best), stats)
