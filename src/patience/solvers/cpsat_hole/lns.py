"""Wins by prefix large-neighbourhood search over the max-cards model (one hole, no cell; 104-card decks).

At 104 cards the decision model proves the losses but rarely finds a win, and CP-SAT's own LNS on the
max-cards model of the whole deal climbs too slowly (docs/cpsat-hole-notes.md). This search keeps the
longest removal sequence found so far (first from a randomised greedy playout), frees its last ``k``
steps (``k`` drawn from ``[kmin, kmax]`` times the deck) and lets CP-SAT maximise the cards removed from
the position after the fixed prefix: the max-cards model (:mod:`.maxcards`) of the *sub-deal* (the
cards left in their piles, the hole topped by the prefix's last card), hinted with the old tail. A
tail at least as long replaces the old one. A sub-deal is small, so CP-SAT often proves its bound.

What its answers may be used for (soundness):

* A sequence removing every card is a win: its events are replayed as engine moves
  (:func:`~.decode.to_moves`) and then by the validator in :meth:`~patience.solvers.base.Backend.solve`.
* A prefix whose sub-deal has a proven bound below the cards it holds is dead (CP-SAT's bound on the same
  model of the same position); later neighbourhoods start before it. Only the empty prefix, i.e. the
  max-cards model of the deal itself, makes a loss: ``lost`` is set when that bound is below ``n``.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from ...holes import HoleRanks
from ...interrupt import solve_cpsat
from .data import HoleDeal
from .decode import decode, order_events
from .model import ModelVars, _rank_classes, build_model
from .params import parameters

__all__ = ["LnsResult", "greedy", "lns_search", "sub_deal"]


@dataclass
class LnsResult:
    """What the prefix LNS found (module docstring)."""

    events: list[Any] | None  # a winning sequence as events (:mod:`.decode`), None when none was found
    lost: bool  # the max-cards model of the whole deal proved fewer than n cards removable
    best: int  # the most cards removed by a sequence found
    stats: dict[str, float] = field(default_factory=dict)


def greedy(
    deal: HoleDeal, tries: int = 200, seed: int = 0, fresh: Callable[[list[int]], bool] | None = None
) -> list[int]:
    """The longest of ``tries`` randomised greedy playouts (cards in play order); with ``fresh``, the
    longest that ``fresh`` accepts, if any (the cubes skip playouts whose positions were all asked).

    Each step plays a top card that fits the hole, preferring one after which some card fits (among the
    new tops), then one that keeps the walk's direction (Wolter's order, as the hole search's), then
    the deeper card, with random ties: a cheap start for the search. (The direction won All in a Row
    8x13 #20 from cubes, which none of four other variants had: docs/cpsat-hole-notes.md.)
    """
    rng = random.Random(seed)
    depth = [0] * deal.n
    for c in range(deal.n):
        if deal.below[c] >= 0:
            depth[c] = depth[deal.below[c]] + 1
    start = {deal.pile[c]: c for c in range(deal.n) if deal.above[c] < 0}
    onward = HoleRanks(deal.R, deal.wrap, deal.king_blocks).onward
    best: list[int] = []
    longest: list[int] = []  # the longest of all, returned when ``fresh`` accepts none
    for _ in range(tries):
        tops, hole, seq = dict(start), deal.hole_rank[0], []
        keep = 0  # the rank that keeps the walk's direction (none before two plays)
        while True:
            playable = [c for c in tops.values() if deal.fits(deal.rank[c], hole)]
            if not playable:
                break

            c = max(playable, key=lambda c, tops=tops, keep=keep: _score(deal, tops, depth, c, keep, rng))
            seq.append(c)
            keep = onward(hole, deal.rank[c])
            hole = deal.rank[c]
            if deal.below[c] >= 0:
                tops[deal.pile[c]] = deal.below[c]
            else:
                del tops[deal.pile[c]]
        if len(seq) > len(longest):
            longest = seq
        if len(seq) > len(best) and (fresh is None or fresh(seq)):
            best = seq
    return best or longest


def _score(
    deal: HoleDeal, tops: dict[int, int], depth: list[int], c: int, keep: int, rng: random.Random
) -> Any:
    """Greedy preference of playing top card ``c``: some card fits after it, then its rank is ``keep``
    (the walk's direction), then depth, random ties."""
    after = [x for x in tops.values() if x != c] + ([deal.below[c]] if deal.below[c] >= 0 else [])
    fits_after = any(deal.fits(deal.rank[x], deal.rank[c]) for x in after)
    return fits_after, deal.rank[c] == keep, depth[c] + 6 * rng.random()


def _canonical(deal: HoleDeal, order: list[int]) -> list[int]:
    """The same removal sequence after the same-rank swaps of the model's symmetry cuts (their proof in
    :mod:`.model`), so that it satisfies the cuts and can be a hint."""
    order = list(order)
    classes = _rank_classes(deal)
    late = deal.n + 1  # a card not removed leaves after every removed one
    while True:
        pos = {c: t for t, c in enumerate(order)}
        swap = None
        for cls in classes:
            for i, ci in enumerate(cls):
                for cj in cls[i + 1 :]:
                    a, b = deal.above[ci], deal.below[cj]
                    if a == cj or b == ci or ci not in pos or cj not in pos:
                        continue
                    if (
                        pos[cj] < pos[ci]
                        and (a < 0 or pos.get(a, late) < pos[cj])
                        and (b < 0 or pos[ci] < pos.get(b, late))
                    ):
                        swap = ci, cj
                        break
                if swap:
                    break
            if swap:
                break
        if swap is None:
            return order
        ci, cj = swap
        order[pos[ci]], order[pos[cj]] = cj, ci


def sub_deal(deal: HoleDeal, gone: set[int], top: int) -> tuple[HoleDeal, list[int]]:
    """The position after removing ``gone`` (tops of piles) with the hole topped by rank ``top``: the
    cards left, as a deal, and their indices in ``deal``."""
    keep = [c for c in range(deal.n) if c not in gone]
    index = {c: i for i, c in enumerate(keep)}

    def to(x: int) -> int:
        return index.get(x, -1) if x >= 0 else -1

    sub = HoleDeal(
        deal.R, deal.wrap, deal.king_blocks, 0, tuple(deal.rank[c] for c in keep),
        tuple(deal.code[c] for c in keep), tuple(deal.pile[c] for c in keep),
        tuple(to(deal.above[c]) for c in keep), tuple(to(deal.below[c]) for c in keep),
        (top,), tuple(deal.texts[c] for c in keep), deal.hole_texts,
    )  # fmt: skip
    return sub, keep


def _hint(v: ModelVars, order: list[int]) -> None:
    """Hint a removal sequence of the max-cards table model: positions, cards at each step, length."""
    m, deal = v.model, v.deal
    order = _canonical(deal, order)
    played = set(order)
    for t, c in enumerate(order + [c for c in range(deal.n) if c not in played]):
        m.add_hint(v.time[c], t)
        m.add_hint(v.card_at[t], c)
    m.add_hint(v.length, len(order))


def _tail(
    deal: HoleDeal,
    prefix: list[int],
    old: list[int],
    seconds: float,
    workers: int,
    seed: int,
    until: threading.Event | None = None,
) -> Any:
    """Maximise the cards removed after ``prefix``, hinted with ``old``: ``(tail or None, proven bound,
    conflicts)``; ``until`` stops the solve (:func:`~patience.interrupt.solve_cpsat`)."""
    sub, keep = sub_deal(deal, set(prefix), deal.rank[prefix[-1]] if prefix else deal.hole_rank[0])
    v = build_model(sub, "table", optional=True)
    v.model.maximize(v.length)
    index = {c: i for i, c in enumerate(keep)}
    _hint(v, [index[c] for c in old])
    solver = parameters(seconds, workers, "table", large=True)
    solver.parameters.random_seed = seed
    status = solve_cpsat(solver, v.model, until)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, sub.n, solver.num_conflicts
    tail = [keep[c] for _, _, c, _ in decode(v, solver)]
    return tail, int(solver.best_objective_bound), solver.num_conflicts


def lns_search(
    deal: HoleDeal,
    seconds: float,
    workers: int = 1,
    seed: int = 0,
    kmin: float = 0.3,
    kmax: float = 0.8,
    sub_seconds: float = 5.0,
    until: threading.Event | None = None,
) -> LnsResult:
    """Prefix LNS for a win (module docstring) within ``seconds``; one hole without a cell only.

    ``kmin``/``kmax``: the freed steps as fractions of the deck; ``sub_seconds``: CP-SAT's limit per
    neighbourhood (stopping one at its first improvement was tried and is worse: docs/cpsat-hole-notes.md).
    ``until``: once set, the search stops (:mod:`patience.solvers.race`: another search has the verdict).
    """
    if deal.k != 1 or deal.cells:
        raise ValueError("the prefix LNS plays one hole without a free cell")
    t0 = time.perf_counter()
    n = deal.n
    rng = random.Random(seed)
    best = greedy(deal, seed=seed)
    stats = {"lns_greedy": float(len(best)), "lns_iterations": 0.0, "lns_conflicts": 0.0}
    dead = n + 1  # prefixes of best this long or longer are proven dead
    lost = False
    lo_k, hi_k = max(1, round(kmin * n)), max(1, round(kmax * n))
    while len(best) < n and not lost:
        left = seconds - (time.perf_counter() - t0)
        if left < 0.05 or (until is not None and until.is_set()):
            break
        hi = max(0, min(len(best) - lo_k, dead - 1))
        i = rng.randint(min(max(0, len(best) - hi_k), hi), hi)
        tail, bound, conflicts = _tail(
            deal, best[:i], best[i:], min(sub_seconds, left), workers, seed + 1, until
        )
        seed += 1
        stats["lns_iterations"] += 1
        stats["lns_conflicts"] += conflicts
        if i + bound < n:  # CP-SAT's bound: no sequence after this prefix removes every card
            lost = i == 0
            dead = min(dead, i)
        if tail is not None and i + len(tail) >= len(best):
            if tail != best[i:] and i < dead:
                dead = n + 1  # a new sequence from before the dead prefix: its prefixes are unknown
            best = best[:i] + tail
    stats["lns_best"] = float(len(best))
    stats["lns_seconds"] = time.perf_counter() - t0
    events = order_events(best) if len(best) == n else None
    return LnsResult(events, lost, len(best), stats)
