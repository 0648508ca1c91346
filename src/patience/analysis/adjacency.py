"""Rank-adjacency permutations: Wolter 2014 (Black Hole and All in a Row), section 3.1, counted exactly.

**What is counted.** A *rank sequence* of a deck of S suits x R ranks is a sequence of its S*R ranks in
which every rank occurs S times and consecutive ranks differ by one; with ``wrap`` (the Black Hole rules:
a King goes on an Ace and an Ace on a King) ranks R and 1 are adjacent too. Wolter's 212,047,876 counts
the rank sequences of 4 x 13 with wrap that *start with an Ace* (his end-card table, which adds up to that
number, is over them); by the rotation symmetry of the ranks every start rank has as many. A *card
sequence* tells the suits apart: each rank sequence gives (S!)^R of them (the S cards of a rank in any
order over its S places), Wolter's 24^13 = 876,488,338,465,357,824. A sequence is *circular* when its last
rank is adjacent to its first (Wolter: 22.56%). A *direction change* is a place where the sequence turns
from going up to going down or back (``767``, ``454``; with wrap K -> A is a step up, A -> K down).

**How.** No sequence is listed. A rank sequence is a walk on the rank graph (a path, or a cycle with wrap)
that visits every rank S times. Lift the walk to the integers (each step +1 or -1, start at 0): the lifted
walk lives on a path, a tree, and a walk on a tree is exactly a choice, at every vertex, of the order of its
departures (up or down) whose last departure leads toward the end (BEST theorem on a tree: the arborescence
is unique). Between two visits to a vertex the walk makes an excursion to one side and comes back from that
side, so the k+1-th arrival comes from the side of the k-th departure: a direction change at a vertex is a
pair of equal consecutive departures (the first arrival coming from the side of the start). So the count,
with its direction changes, is a product of small per-vertex factors over the lifted visit profile. Without
wrap the profile is fixed by the start and end ranks. With wrap it is summed by a transfer over the R rank
columns of the lift (the lifts of one rank lie R apart, in up to 2S layers): the state is the number of
crossings of each lifted edge at the cut, whether each layer is before, inside or after the visited
interval (so the visited vertices form one interval), and whether the end was placed; the layers' crossing
numbers at the wrap edge are guessed at the start and matched at the end.
:func:`brute_force` lists the sequences on small decks for the tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from math import factorial

__all__ = ["AdjacencyCounts", "adjacency_counts", "brute_force", "direction_changes"]

UP, DOWN = 1, -1
Poly = tuple[int, ...]  # coefficients by number of direction changes


@dataclass(frozen=True)
class AdjacencyCounts:
    """Rank sequences of a ``suits`` x ``ranks`` deck starting with rank ``start`` (0 = Ace).

    ``by_end[r]``: sequences ending with rank r; ``by_changes[c]``: sequences with c direction changes.
    """

    suits: int
    ranks: int
    wrap: bool
    start: int
    by_end: tuple[int, ...]
    by_changes: tuple[int, ...]

    @property
    def total(self) -> int:
        """Rank sequences from ``start`` (Wolter's 212,047,876 for 4 x 13 with wrap, start Ace)."""
        return sum(self.by_end)

    @property
    def suit_factor(self) -> int:
        """Card sequences per rank sequence: (S!)^R (Wolter's 24^13)."""
        return factorial(self.suits) ** self.ranks

    @property
    def circular(self) -> int:
        """Sequences whose last rank is adjacent to the first (Wolter's 22.56% of them)."""
        return sum(
            self.by_end[r] for r in range(self.ranks) if _adjacent(r, self.start, self.ranks, self.wrap)
        )

    @property
    def max_changes(self) -> int:
        """The most direction changes any sequence has (Wolter: 38)."""
        return max(c for c, n in enumerate(self.by_changes) if n)


def _adjacent(a: int, b: int, ranks: int, wrap: bool) -> bool:
    d = abs(a - b)
    return d == 1 or (wrap and d == ranks - 1)


def _check(suits: int, ranks: int, wrap: bool, start: int) -> None:
    if suits < 1 or ranks < 2:
        raise ValueError(f"deck {suits} x {ranks}: need at least 1 suit and 2 ranks")
    if wrap and ranks < 3:
        raise ValueError(f"deck {suits} x {ranks}: wrap needs at least 3 ranks (K-A adjacency)")
    if not 0 <= start < ranks:
        raise ValueError(f"start rank {start + 1} is not a rank of 1..{ranks}")


def _add(into: dict, key: object, poly: Poly) -> None:
    old = into.get(key)
    if old is None:
        into[key] = poly
        return
    if len(old) < len(poly):
        old, poly = poly, old
    into[key] = tuple(a + (poly[i] if i < len(poly) else 0) for i, a in enumerate(old))


def _mul(a: Poly, b: Poly) -> Poly:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return tuple(out)


@cache
def _departures(ups: int, downs: int, prefix: int, last: int) -> Poly:
    """Orders of ``ups`` up and ``downs`` down departures, by the number of equal neighbours.

    ``prefix`` (UP/DOWN, 0 = none) counts as a departure before the first one; ``last`` (0 = free) is the
    direction the last departure must take.
    """
    if ups < 0 or downs < 0:
        return ()
    if ups + downs == 0:
        return (1,) if last == 0 else ()
    # ways[(u, d, previous)]: polynomials of sequences using u ups and d downs, ending with `previous`
    ways: dict[tuple[int, int, int], Poly] = {(0, 0, prefix): (1,)}
    for used in range(ups + downs):
        for (u, d, prev), poly in [(k, v) for k, v in ways.items() if k[0] + k[1] == used]:
            for step, nu, nd in ((UP, u + 1, d), (DOWN, u, d + 1)):
                if nu > ups or nd > downs:
                    continue
                _add(ways, (nu, nd, step), (0,) + poly if step == prev else poly)
    out: dict[int, Poly] = {}
    for step in (UP, DOWN):
        if last in (0, step) and (ups, downs, step) in ways:
            _add(out, 0, ways[(ups, downs, step)])
    return out.get(0, ())


def _vertex(x: int, e_in: int, e_out: int, is_end: bool) -> Poly:
    """The factor of lifted vertex ``x`` (start at 0) crossed ``e_in`` times below and ``e_out`` above."""
    s_out = (UP if x >= 0 else DOWN) if e_out % 2 else 0  # net direction of edge (x, x+1): odd = on 0..end
    s_in = (UP if x - 1 >= 0 else DOWN) if e_in % 2 else 0
    if (e_out + s_out) % 2 or (e_in - s_in) % 2:
        return ()
    ups, downs = (e_out + s_out) // 2, (e_in - s_in) // 2
    if is_end:
        last = 0
    elif x > 0:
        last = UP if e_out % 2 else DOWN
    elif x < 0:
        last = DOWN if e_in % 2 else UP
    else:
        last = UP if e_out % 2 else DOWN
    prefix = 0 if x == 0 else (DOWN if x > 0 else UP)  # the first arrival comes from the start's side
    return _departures(ups, downs, prefix, last)


def adjacency_counts(
    suits: int = 4, ranks: int = 13, *, wrap: bool = True, start: int = 0
) -> AdjacencyCounts:
    """Exact counts of the rank sequences of ``suits`` x ``ranks`` starting with rank ``start`` (module doc).

    >>> c = adjacency_counts(4, 13)
    >>> c.total, c.max_changes
    (212047876, 38)
    """
    _check(suits, ranks, wrap, start)
    by_end: dict[int, Poly] = _wrap_by_end(suits, ranks) if wrap else _path_by_end(suits, ranks, start)
    if wrap:
        by_end = {(r + start) % ranks: p for r, p in by_end.items()}
    changes: dict[int, Poly] = {}
    for p in by_end.values():
        _add(changes, 0, p)
    hist = changes.get(0, (0,))
    return AdjacencyCounts(
        suits, ranks, wrap, start, tuple(sum(by_end.get(r, ())) for r in range(ranks)), _trim(hist)
    )


def _trim(p: Poly) -> Poly:
    n = len(p)
    while n > 1 and p[n - 1] == 0:
        n -= 1
    return tuple(p[:n])


def _path_by_end(suits: int, ranks: int, start: int) -> dict[int, Poly]:
    """Without wrap the visit profile is S everywhere: the crossing numbers follow from start and end."""
    out: dict[int, Poly] = {}
    for end in range(ranks):
        poly: Poly = (1,)
        e_in = 0
        for r in range(ranks):
            e_out = 2 * suits - e_in - (r == start) - (r == end)
            if e_out < 0 or (r < ranks - 1 and e_out == 0) or (r == ranks - 1 and e_out != 0):
                poly = ()
                break
            poly = _mul(poly, _vertex(r - start, e_in, e_out, r == end))
            if not poly:
                break
            e_in = e_out
        if poly:
            out[end] = poly
    return out


# Layer statuses of the lifted walk: the visited vertices form one interval of the integers.
BEFORE, INSIDE, AFTER = 0, 1, 2


def _wrap_by_end(suits: int, ranks: int) -> dict[int, Poly]:
    """With wrap: the transfer over the rank columns of the lift, start at lifted vertex 0 (rank 0)."""
    layers = list(range(-suits, suits))  # the lifted walk spans at most S*R vertices around 0
    nl = len(layers)
    states: dict[tuple, Poly] = {}
    for wrap_edges, status in _initial_cuts(suits, nl):
        states[(wrap_edges, status, wrap_edges, status, -1)] = (1,)
    for col in range(ranks):
        nxt: dict[tuple, Poly] = {}
        for (w0, s0, e_in, st, end), poly in states.items():
            for e_out, st2, end2, factor in _column(col, ranks, layers, suits, e_in, st, end):
                _add(nxt, (w0, s0, e_out, st2, end2), _mul(poly, factor))
        states = nxt
    out: dict[int, Poly] = {}
    for (w0, s0, e_out, st, end), poly in states.items():
        # the edge leaving column R-1 of layer k is the wrap edge entering column 0 of layer k+1
        if end < 0 or e_out[-1] != 0 or e_out[:-1] != w0[1:] or st[:-1] != s0[1:] or w0[0] != 0:
            continue
        if s0[0] != BEFORE:
            continue
        _add(out, end, poly)
    return out


def _initial_cuts(suits: int, nl: int) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Crossing numbers of the wrap edges into column 0 and the layers' statuses before it."""
    for a in range(nl + 1):
        for b in range(nl + 1 - a):
            status = (BEFORE,) * a + (INSIDE,) * b + (AFTER,) * (nl - a - b)
            if b > suits:
                continue  # at most S lifts of a rank are visited
            for edges in _edge_vectors(b, 2 * suits):
                if 0 in edges[:-1]:
                    continue  # a layer left at column 0 ends the interval: the layers above it are after
                yield (0,) * a + edges + (0,) * (nl - a - b), status


def _edge_vectors(n: int, budget: int) -> Iterator[tuple[int, ...]]:
    if n == 0:
        yield ()
        return
    for first in range(budget + 1):
        for rest in _edge_vectors(n - 1, budget - first):
            yield (first, *rest)


def _column(
    col: int, ranks: int, layers: list[int], suits: int, e_in: tuple, st: tuple, end: int
) -> Iterator[tuple[tuple, tuple, int, Poly]]:
    """Every way to visit the lifts of rank ``col`` S times in all, layer by layer."""
    for e_out, st2, here, factor in _column_options(col > 0, tuple(layers), suits, e_in, st, end >= 0):
        yield e_out, st2, col if here else end, factor


@cache
def _column_options(
    shifted: bool, layers: tuple[int, ...], suits: int, e_in: tuple, st: tuple, placed: bool
) -> tuple[tuple[tuple, tuple, bool, Poly], ...]:
    """:func:`_column` for column 0 (``shifted`` false) or any other: a vertex's factor depends on its
    lifted position only through its sign, whether it is the start, and the sign of the vertex below,
    so every column but the first behaves alike (the representative position ``shifted + 2 k``)."""
    out: list[tuple[tuple, tuple, bool, Poly]] = []

    def rec(i: int, left: int, e_out: tuple, st2: tuple, here_any: bool, factor: Poly) -> None:
        if i == len(layers):
            if left == 0:
                out.append((e_out, st2, here_any, factor))
            return
        x = int(shifted) + 2 * layers[i]
        was = st[i]
        for visit in (False, True):
            if visit and (was == AFTER or (was == INSIDE and e_in[i] == 0)):
                continue  # the visited vertices are one interval
            if not visit:
                if e_in[i] or x == 0:
                    continue
                new = AFTER if was == INSIDE else was
                rec(i + 1, left, (*e_out, 0), (*st2, new), here_any, factor)
                continue
            for here in (False, True) if not (placed or here_any) else (False,):
                base = e_in[i] + (x == 0) + here
                for eo in range(2 * suits + 1):
                    twice = base + eo
                    if twice % 2 or twice == 0:
                        continue
                    n = twice // 2
                    if n > left:
                        break
                    f = _vertex(x, e_in[i], eo, here)
                    if f:
                        rec(i + 1, left - n, (*e_out, eo), (*st2, INSIDE), here_any or here, _mul(factor, f))

    rec(0, suits, (), (), False, (1,))
    return tuple(out)


def direction_changes(seq: list[int] | tuple[int, ...], ranks: int) -> int:
    """Direction changes of a rank sequence (0-based ranks; a step of +1 mod R is up)."""
    steps = [1 if (b - a) % ranks == 1 else -1 for a, b in zip(seq, seq[1:], strict=False)]
    return sum(1 for s, t in zip(steps, steps[1:], strict=False) if s != t)


def brute_force(suits: int, ranks: int, *, wrap: bool = True, start: int = 0) -> AdjacencyCounts:
    """The same counts by listing every sequence (small decks only: the tests' reference)."""
    _check(suits, ranks, wrap, start)
    by_end = [0] * ranks
    by_changes: dict[int, int] = {}
    left = [suits] * ranks
    left[start] -= 1
    seq = [start]

    def walk() -> None:
        if len(seq) == suits * ranks:
            by_end[seq[-1]] += 1
            c = direction_changes(seq, ranks)
            by_changes[c] = by_changes.get(c, 0) + 1
            return
        here = seq[-1]
        nxt = {here + 1, here - 1} if not wrap else {(here + 1) % ranks, (here - 1) % ranks}
        for r in sorted(nxt):
            if 0 <= r < ranks and left[r]:
                left[r] -= 1
                seq.append(r)
                walk()
                seq.pop()
                left[r] += 1

    walk()
    top = max(by_changes, default=0)
    return AdjacencyCounts(
        suits, ranks, wrap, start, tuple(by_end), _trim(tuple(by_changes.get(c, 0) for c in range(top + 1)))
    )
