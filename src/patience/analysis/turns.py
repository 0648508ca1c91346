"""Direction changes of a hole game's play line, and a line with as few as a search budget finds.

A *direction change* (Wolter 2014, 3.1.1; Parlett) is a rank step that reverses the previous one, as in
``7 6 7``: with ranks wrapping King-Ace, a step from ``a`` to ``a + 1 (mod R)`` goes up, any other
adjacent step down. Wolter's solver "prefers avoiding direction changes" (his section 4) and he reads his
gathered decks as "mostly sorted" because of it (section 7); :func:`few_turns_line` gives the shuffle
study (:mod:`.shuffles`) a line with the fewest changes it can find, to test that reading.

:func:`few_turns_line` searches one-hole games without cells or stock (Black Hole, All in a Row) for a
line that puts ``target`` cards on the hole with at most ``B`` changes, by depth-first search with the
budget ``B`` left as part of the state (a dead-state table keeps, per state and direction, the largest
budget that failed), lowering ``B`` below each line it finds (branch and bound) until none is found
(the last line is then a fewest-changes one) or ``max_nodes`` run out (the best line so far). The prunes
of :mod:`patience.solvers.dfs_hole` ``last_card`` and ``one_card`` are used: their proofs swap two cards
of equal rank or piles of equal content, which leaves the rank sequence, hence the changes, unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine import FOUNDATION, TABLEAU, Engine, Move
from ..instance import Instance

__all__ = ["FewTurns", "direction_changes", "few_turns_line", "line_turns"]


def _step(a: int, b: int, R: int) -> int:
    """+1 when rank ``b`` is one above ``a`` (King-Ace wrapping), else -1."""
    return 1 if b == a % R + 1 else -1


def direction_changes(ranks: Sequence[int], R: int) -> int:
    """Direction changes along a hole's rank sequence (consecutive ranks must be adjacent)."""
    out, last = 0, 0
    for a, b in zip(ranks, ranks[1:], strict=False):
        d = _step(a, b, R)
        out += last != 0 and d != last
        last = d
    return out


def line_turns(inst: Instance, moves: Sequence[dict[str, Any]]) -> int:
    """Direction changes of a JSON line, summed over the holes: each hole's starting cards, then the
    cards the line puts on it (read off the moves' cards)."""
    seqs = [[c.rank for c in hole] for hole in inst.layout.foundations]
    for m in moves:
        area, _, j = str(m["to"]).partition(":")
        if area == "foundation":
            seqs[int(j)].append(inst.deck.parse(m["card"]).rank)
    return sum(direction_changes(s, inst.rules.deck.ranks) for s in seqs)


@dataclass
class FewTurns:
    """A line found by :func:`few_turns_line`: its moves, direction changes, and whether it is proven
    fewest (the search ran out of lines with fewer), with the nodes spent."""

    moves: list[Move]
    turns: int
    optimal: bool
    nodes: int


def few_turns_line(
    engine: Engine, target: int, incumbent: list[Move] | None = None, max_nodes: int = 200_000
) -> FewTurns | None:
    """A line from the engine's start putting ``target`` cards on its one hole with the fewest direction
    changes found in ``max_nodes`` nodes (``incumbent``: a line known to reach ``target``, the bound to
    beat and the answer when nothing better is found). None when no line is known."""
    if len(engine.found) != 1 or any(engine.cells) or engine.stock:
        raise ValueError("few_turns_line: one hole, no free cells, no stock")
    R, rank = engine.R, engine.rank
    piles = [[rank[c] for c in p] for p in engine.piles]
    hole = [rank[c] for c in engine.found[0]]
    ok = engine.hole_ok
    start = len(hole)
    best: FewTurns | None = None
    if incumbent is not None:
        best = FewTurns(list(incumbent), direction_changes(_ranks(piles, hole, incumbent), R), False, 0)
    h = [len(p) for p in piles]
    P = len(piles)
    hb = max(max(h, default=0).bit_length(), 1)
    failed: dict[tuple[int, int, int], int] = {}  # (heights key, top, direction) -> largest budget failed
    path: list[int] = []
    nodes = 0

    def dfs(key: int, top: int, last: int, removed: int, budget: int) -> bool:
        nonlocal nodes
        if removed >= target:
            return True
        nodes += 1
        if nodes > max_nodes:
            raise _OutOfNodes
        memo = (key, top, last)
        if failed.get(memo, -1) >= budget:
            return False
        fits = ok[top] if top else range(1, R + 1)
        tall_ranks = {piles[i][h[i] - 1] for i in range(P) if h[i] > 1}
        seen_single: set[int] = set()
        cand = []
        for i in range(P):
            if not h[i]:
                continue
            r = piles[i][h[i] - 1]
            if r not in fits:
                continue
            if h[i] == 1:
                if r in tall_ranks or r in seen_single:
                    continue  # dfs_hole's last_card and one_card prunes
                seen_single.add(r)
            d = _step(top, r, R) if top else 0
            cost = 1 if last and d != last else 0
            if cost <= budget:
                cand.append((cost, -h[i], i, r, d))
        cand.sort()
        for cost, _, i, r, d in cand:
            h[i] -= 1
            path.append(i)
            if dfs(key - (1 << (hb * i)), r, d, removed + 1, budget - cost):
                return True
            path.pop()
            h[i] += 1
        failed[memo] = budget
        return False

    key0 = sum(x << (hb * i) for i, x in enumerate(h))
    top0 = hole[-1] if hole else 0
    budget = best.turns - 1 if best is not None else 4 * R * len(piles)
    try:
        while budget >= 0:
            path.clear()
            h[:] = [len(p) for p in piles]
            if not dfs(key0, top0, 0, start, budget):
                if best is not None:
                    best.optimal = True
                break
            moves: list[Move] = [(TABLEAU, i, FOUNDATION, 0, 1) for i in path]
            best = FewTurns(moves, direction_changes(_ranks(piles, hole, moves), R), False, 0)
            budget = best.turns - 1
        else:
            if best is not None:
                best.optimal = True
    except _OutOfNodes:
        pass
    if best is not None:
        best.nodes = nodes
    return best


class _OutOfNodes(Exception):
    """The node budget ran out (internal)."""


def _ranks(piles: list[list[int]], hole: list[int], moves: list[Move]) -> list[int]:
    """The hole's rank sequence after ``moves`` (tableau-to-hole moves) from the start."""
    h = [len(p) for p in piles]
    out = list(hole)
    for m in moves:
        h[m[1]] -= 1
        out.append(piles[m[1]][h[m[1]]])
    return out
