"""Inverted deals: Wolter 2014 (Black Hole and All in a Row), sections 3.2 and 4.

Wolter's inversion reverses every tableau pile (``8 A J 3`` becomes ``3 J A 8``). A win of a hole game
with one hole, no cells and no stock is a sequence of all the tableau cards, neighbours one rank apart,
in which every card comes before the cards below it in its pile. Read backwards it is a sequence of the
same cards, neighbours still one rank apart, in which every card comes before the cards *above* it:
a win of the reversed piles. So:

* All in a Row (the hole starts empty): the reversed deal, a deal of the same game, is won exactly when
  the original is (:func:`invert` is an involution; :func:`forward_moves` turns the inverted deal's win
  back into the original's, which the validator replays).
* Black Hole (the hole starts with the Ace of Spades): the original's sequence starts next to the
  starting card, so the inverted game starts with an *empty* hole and must *end* on a card that fits the
  starting card (a Two or a King). That is not a rule of any game model, so :func:`solve_inverted`
  searches the inverted game itself (any one-hole deal, with or without a starting card), in Python;
  :func:`solve_inverted_kernel` hands the same game to the compiled hole kernel
  (:mod:`patience.solvers.hole_kernel`) with one extra card that stands for the end condition (proof
  there), and is what :func:`decide_inverted` uses.

What inversion keeps: the verdict and the number of cards; not the most cards removed of a lost deal
(a play of the inverted deal that stops early is no play of the original), as Wolter notes. His use:
deals his solver could not settle forward were often settled backwards (section 5: 53 hard Black Hole
deals of a million, 4 won and 49 lost by inversion). :func:`settle` does the same with ``dfs``.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..holes import HoleRanks, hole_game_problem
from ..instance import Instance
from ..rules import RuleSet

__all__ = [
    "Inverted",
    "Settled",
    "decide_inverted",
    "forward_moves",
    "invert",
    "inversion_problem",
    "settle",
    "solve_inverted",
    "solve_inverted_kernel",
]


def inversion_problem(rules: RuleSet) -> str | None:
    """Why deals of ``rules`` cannot be inverted here, or None: one hole, no cells, no stock."""
    why = hole_game_problem(rules)
    if why is None and rules.foundations.count != 1:
        why = f"it has {rules.foundations.count} holes (inversion here takes one)"
    if why is None and rules.foundations.start_dealt:
        why = "its hole starts with a dealt card"
    return why


def _check(instance: Instance) -> None:
    why = inversion_problem(instance.rules)
    if why:
        raise ValueError(f"{instance.game}: cannot invert: {why}")


def invert(instance: Instance) -> Instance:
    """The deal with every tableau pile reversed, same game and rules (an involution).

    For a hole that starts empty this is Wolter's inverted deal; for a hole with a starting card the
    inverted *game* also differs (see :func:`solve_inverted`).
    """
    _check(instance)
    layout = dataclasses.replace(instance.layout, tableau=tuple(p[::-1] for p in instance.layout.tableau))
    return Instance.build(instance.game, layout, instance.overrides, {"inverted": instance.sha256})


def forward_moves(instance: Instance, inverted_cards: list[tuple[int, Card]]) -> list[dict[str, Any]]:
    """The original deal's moves from a win of the inverted deal, given as (pile, card) in play order."""
    deck = instance.deck
    return [
        {"card": deck.text(c), "from": f"tableau:{p}", "to": "foundation:0", "count": 1}
        for p, c in reversed(inverted_cards)
    ]


@dataclass(frozen=True)
class Inverted:
    """Outcome of :func:`solve_inverted`: ``won`` True/False, or None when the limit came first."""

    won: bool | None
    moves: list[dict[str, Any]] | None  # the original deal's winning moves (replayed by the validator)
    nodes: int
    seconds: float


def solve_inverted(instance: Instance, seconds: float = 10.0, max_nodes: int | None = None) -> Inverted:
    """Decide ``instance`` by searching its inverted game (module doc): reversed piles, an empty hole,
    and, if the hole had a starting card, a last card that fits it. Depth-first with a table of dead
    states (pile heights and hole top); no other cut. A win is turned into the original's moves and
    replayed by the validator before it is returned."""
    from ..solvers.dfs_hole import degree_ok
    from ..validate import replay

    _check(instance)
    t0 = time.perf_counter()
    deadline = t0 + seconds
    ranks = HoleRanks.of(instance.rules)
    start = instance.layout.foundations[0]
    end_rank = start[-1].rank if start else 0  # the inverted sequence must end next to it
    piles = [p[::-1] for p in instance.layout.tableau]  # inverted deal: the old bottom card is on top
    heights = [len(p) for p in piles]
    left = sum(heights)
    count = [0] * (ranks.R + 1)  # cards of each rank left, for the walk-degree test
    for p in piles:
        for c in p:
            count[c.rank] += 1
    fit_end = {r for r in range(1, ranks.R + 1) if end_rank == 0 or ranks.fits(end_rank, r)}
    dead: set[tuple[tuple[int, ...], int]] = set()
    path: list[tuple[int, Card]] = []
    nodes = 0

    class _Stop(Exception):
        pass

    def search(top: int) -> bool:
        nonlocal nodes, left
        if left == 0:
            return end_rank == 0 or ranks.fits(end_rank, top)
        key = (tuple(heights), top)
        if key in dead:
            return False
        if top and not degree_ok(count, top, ranks.R, ranks.wrap, fit_end & _bottoms(piles, heights)):
            return False  # the cards left cannot form one walk from here to a permitted last rank
        nodes += 1
        if (max_nodes is not None and nodes > max_nodes) or (
            nodes & 1023 == 0 and time.perf_counter() > deadline
        ):
            raise _Stop
        tried: set[tuple[int, int]] = set()
        for i, h in enumerate(heights):
            if not h:
                continue
            card = piles[i][h - 1]
            if top and not ranks.fits(card.rank, top):
                continue
            if h == 1 and (card.rank, 1) in tried:
                continue  # one-card piles of one rank lead to equal states (Wolter's rule 2)
            tried.add((card.rank, h))
            heights[i] -= 1
            left -= 1
            count[card.rank] -= 1
            path.append((i, card))
            if search(card.rank):
                return True
            path.pop()
            count[card.rank] += 1
            heights[i] += 1
            left += 1
        dead.add(key)
        return False

    try:
        won: bool | None = search(0)
    except _Stop:
        won = None
    except RecursionError:
        won = None
    moves = None
    if won:
        moves = forward_moves(instance, path)
        report = replay(instance, moves)
        if not (report.ok and report.won):
            raise AssertionError(f"inverted win does not replay on the original: {report.message()}")
    return Inverted(won, moves, nodes, time.perf_counter() - t0)


def solve_inverted_kernel(
    instance: Instance,
    seconds: float = 10.0,
    max_nodes: int | None = None,
    *,
    memory_mb: float = 512,
    jit: bool | None = None,
    prunes: Iterable[str] | None = None,
) -> Inverted:
    """Decide ``instance`` on its inverted game (as :func:`solve_inverted`) with the compiled hole kernel.

    The kernel plays ranks on one hole by an adjacency it is given, so the end condition becomes a card:
    a *terminal* card of an extra rank ``R + 1``, alone in an extra pile, that fits on a hole topped by
    any rank next to the starting card (``ranks.fits(end, t)``) and on which nothing fits (it is not
    offered on the empty hole either). Proof of equivalence: a win of the inverted game, ``c1 .. cn``
    with ``cn`` next to the starting card, followed by the terminal card is a win of the kernel's game;
    conversely in a kernel win the terminal card is played last (nothing fits on it, and every card must
    be played), on a top next to the starting card, so the moves before it are a win of the inverted
    game. The kernel's prunes used here hold for any adjacency (their proofs in
    :mod:`patience.solvers.dfs_hole` use only equal ranks and the steps given: ``last_card``,
    ``one_card``, ``reach``); ``degree`` assumes ranks on a line or cycle and is off. Without a starting
    card no terminal card is added (any last card). A win is turned into the original's moves and
    replayed by the validator before it is returned; ``seconds`` includes loading the compiled kernel.
    ``prunes``: names of :data:`patience.solvers.dfs_hole.HOLE_PRUNES` to use (None: all that apply;
    ``degree`` never applies here), for ablation tests.
    """
    from ..solvers import hole_kernel
    from ..solvers.dfs_hole import USE_JIT, hole_prunes
    from ..validate import replay

    _check(instance)
    use = hole_prunes(prunes)
    t0 = time.perf_counter()
    ranks = HoleRanks.of(instance.rules)
    R = ranks.R
    start = instance.layout.foundations[0]
    end_rank = start[-1].rank if start else 0
    cards = [p[::-1] for p in instance.layout.tableau]  # inverted piles, bottom first
    piles = [[c.rank for c in p] for p in cards]
    Rk = R
    nexts: list[tuple[int, ...]] = [tuple(range(1, R + 1))]
    nexts += [tuple(r for r in range(1, R + 1) if ranks.fits(r, t)) for t in range(1, R + 1)]
    if end_rank:
        Rk = R + 1  # the terminal card's rank
        piles.append([Rk])
        nexts = [n + ((Rk,) if t and ranks.fits(end_rank, t) else ()) for t, n in enumerate(nexts)]
        nexts.append(())
    adj = [()] + nexts[1:]
    P = len(piles)
    hb = max(max(len(p) for p in piles).bit_length(), 1)
    r = hole_kernel.run(
        piles, [0], 0, nexts, adj, [hb * i for i in range(P)], [hb * P],
        t0 + seconds, max_nodes if max_nodes is not None else -1, Rk, memory_mb * (1 << 20),
        reach="reach" in use, degree=False, wrap=ranks.wrap, last_card="last_card" in use,
        one_card="one_card" in use, equal_holes=True,
        jit=USE_JIT if jit is None else jit,
    )  # fmt: skip
    won: bool | None = True if r["won"] else False if r["complete"] else None
    moves = None
    if won:
        heights = [len(p) for p in cards]
        played: list[tuple[int, Card]] = []
        for src, _ in r["path"]:
            if src < len(cards):  # the terminal card's pile is the last one
                heights[src] -= 1
                played.append((src, cards[src][heights[src]]))
        moves = forward_moves(instance, played)
        report = replay(instance, moves)
        if not (report.ok and report.won):
            raise AssertionError(f"inverted win does not replay on the original: {report.message()}")
    return Inverted(won, moves, r["nodes"], time.perf_counter() - t0)


def _bottoms(piles: list[tuple[Card, ...]], heights: list[int]) -> set[int]:
    """Ranks of the bottom cards of the piles not yet empty: the last card played is one of them."""
    return {p[0].rank for p, h in zip(piles, heights, strict=True) if h}


@dataclass(frozen=True)
class Settled:
    """One deal: the forward ``dfs`` verdict at a node limit, and the inverted deal's verdict."""

    seed: int
    forward: str  # solved, unsolvable or unknown
    inverted: bool | None  # None: not tried, or the inverted search hit its limit too
    forward_seconds: float
    inverted_seconds: float


def decide_inverted(
    instance: Instance, seconds: float, nodes: int | None = None
) -> tuple[bool | None, float]:
    """The verdict of the inverted deal: ``dfs`` on :func:`invert` when the hole starts empty (the
    inverted deal is a deal of the same game), else :func:`solve_inverted_kernel`; within ``seconds``
    and ``nodes`` (None: only the time limit)."""
    from ..solvers.base import Limits, solve

    if not instance.layout.foundations[0]:
        got = solve(invert(instance), "dfs", Limits(seconds=seconds, nodes=nodes))
        won = {"solved": True, "unsolvable": False}.get(got.status.value)
        return won, float(got.stats.get("seconds", 0.0))
    r = solve_inverted_kernel(instance, seconds, nodes)
    return r.won, r.seconds


def settle(
    game: str,
    seeds: range,
    *,
    forward_nodes: int,
    inverted_seconds: float = 10.0,
    generator: str = "portable",
    overrides: dict[str, Any] | None = None,
    every: bool = False,
) -> list[Settled]:
    """Wolter's use of inversion: solve each deal forward with ``dfs`` under a node limit, and decide
    the inverted deal of every deal the forward search left undecided, with the same node limit and
    ``inverted_seconds`` (``every``: of every deal, to check that the verdicts agree)."""
    from ..deals import deal
    from ..solvers.base import Limits, solve

    out = []
    for s in seeds:
        inst = deal(game, s, generator, overrides)
        fwd = solve(inst, "dfs", Limits(seconds=600, nodes=forward_nodes))
        inv, inv_s = None, 0.0
        if every or fwd.status.value == "unknown":
            inv, inv_s = decide_inverted(inst, inverted_seconds, forward_nodes)
        out.append(Settled(s, fwd.status.value, inv, float(fwd.stats.get("seconds", 0.0)), inv_s))
    return out
