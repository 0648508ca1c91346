"""Specialised DFS for hole games (Black Hole, All in a Row, Binary Star, Golf, Worm Hole): integer arrays.

Selected by rule features, never by name: :func:`hole_search_problem` (:func:`patience.holes.
hole_game_problem` with any free cells and a stock dealt onto a hole: hole foundations, a tableau that
takes no card, no reserve). The moves: a tableau top card or a free cell's card to a hole whose top card
is one rank away, a tableau top card to a free cell, and the stock's next card onto the (first) hole
whatever its rank (Golf). So a state is the height of every pile, the top rank of every hole, the number
of stock cards dealt and the ranks in the cells as a multiset (suits never matter; neither does which
cell holds a card, as every cell takes any card and gives it to any hole), packed into one integer
that each move updates in O(1). Every move takes a card off the tableau or the stock for good (into a
hole, or into a cell it leaves only for a hole), so the state graph is acyclic: no state can reach
itself and the path needs no protection. The loop itself, move order and transposition table are in
:mod:`.hole_kernel` (one source, run compiled by numba or as plain Python); this module states the
prunes, builds the start state and turns the kernel's answer into moves.

Prunes (Wolter 2014, section 4, and Shlomi Fish's reachability test). Each has a name in
:data:`HOLE_PRUNES`; ``hole_search(prunes=...)`` and ``DfsSolver(hole_prunes=...)`` switch any of them
off (ablation tests against a brute force, with and without stock and cells: the verdict must not
change). Conditions and proofs, here and nowhere else; every one holds for any holes, wrap and
``king_blocks`` unless it says otherwise:

* ``last_card`` (Wolter rule 1): never move the last card ``x`` of a pile (to a hole or to a cell) while
  a card ``y`` of the same rank tops a pile of two or more cards. Proof: take any play sequence that
  moves ``x`` now and ``y`` at a later step (``y`` stays on top of its pile until it moves, since
  nothing is ever put on the tableau). Swap the two cards: move ``y`` now where ``x`` went, and later
  ``x`` where ``y`` went. The rank sequence on each hole and the ranks in the cells are unchanged (so
  every step still fits, whatever the rank rule), every move in between is still there (it touches
  neither ``x``'s pile, empty in the original, nor ``y``, still on top there; the stock and the cells
  are the same), ``y`` leaving earlier only uncovers a card sooner, and ``x`` has nothing below it and
  nothing can be put on it, so moving it later is legal. Afterwards the states are equal. If the
  sequence never moves ``y``, move ``y`` instead of ``x`` and continue identically. So the state after
  ``y`` dominates. (Not applied to a cell's card: there the copy would hold the cell longer.)
* ``one_card`` (Wolter rule 2): of several one-card piles whose cards have the same rank, only the
  first is moved (to a hole, or to a cell); of several cells holding the same rank, only the first is
  played. Proof: the states after either move are equal up to suits, pile order and cell order, which
  no rule of these games looks at.
* ``equal_holes``: of several holes with equal top ranks (or several empty holes), only the first is
  tried. Proof: the states after playing a card on either are equal up to the order of the holes,
  which no rule looks at (the engine's move list and the validator treat holes alike). Off with a stock
  and two or more holes: the stock deals onto the first hole only, so the holes are not alike.
* ``reach``: :func:`rank_reach_ok` (rank reachability) cuts a state when some rank with cards left (on
  the tableau or in a cell) can no longer be reached from a hole top or a stock card still to come;
  tested when a rank runs out (or a hole leaves a rank that has run out) and after each stock deal.
  Any number of holes, once none is empty; with ``king_blocks`` too (the steps are followed in their
  direction: nothing after a King). Proof in :func:`rank_reach_ok`.
* ``degree``: :func:`degree_ok` (the walk-degree test) cuts a state when the remaining cards (tableau
  and cells) cannot form one walk over ranks from the hole top; one hole only, at least 3 ranks, and
  only once the stock is dealt out (a deal jumps to any rank); tested at the same moments as ``reach``.
  Proof in :func:`degree_ok`.

Testing ``reach`` and ``degree`` at fewer moments than they could be tested only cuts less: each cut
is proven for the state it is applied to. ``last_card``, ``one_card`` and ``equal_holes`` are *state
dominances*: a pruned move leads to a state from which every play can be copied from a kept sibling,
so they keep both the verdict and the most cards that can be removed. ``reach`` and ``degree`` only keep
the verdict: they cut states that cannot be won but may still allow more cards to be removed, so
``max_cards_removed`` is exact only when neither fired (``reach_cuts`` counts both).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..engine import CELL, EMPTY, FOUNDATION, STOCK, TABLEAU, Engine, Move
from ..holes import hole_game_problem
from ..rules import RuleSet
from . import hole_kernel
from .dfs_table import DeadTable

__all__ = [
    "HOLE_PRUNES",
    "USE_JIT",
    "HoleOutcome",
    "degree_ok",
    "hole_prunes",
    "hole_search",
    "hole_search_problem",
    "rank_reach_ok",
]

HOLE_PRUNES: dict[str, str] = {
    "last_card": "Wolter rule 1: no last card of a pile while a same-rank card tops a taller pile",
    "one_card": "Wolter rule 2: of same-rank one-card piles only the first",
    "equal_holes": "of holes with equal tops (or empty) only the first",
    "reach": "rank reachability from the hole tops and the stock's ranks",
    "degree": "one hole, no stock left: the remaining ranks must admit one walk (3+ ranks)",
}
"""The prunes of the hole search by name (conditions and proofs in the module docstring)."""


def hole_search_problem(rules: RuleSet) -> str | None:
    """Why the hole search cannot take ``rules``, or None when it can: hole games
    (:func:`patience.holes.hole_game_problem`) with any number of free cells (empty at the start) and a
    stock dealt onto the hole (Golf)."""
    return hole_game_problem(rules, free_cells=None, stock=True)


def hole_prunes(names: Iterable[str] | None) -> frozenset[str]:
    """The prune names asked for (None: all of :data:`HOLE_PRUNES`); an unknown name is a ValueError."""
    if names is None:
        return frozenset(HOLE_PRUNES)
    got = frozenset(names)
    bad = sorted(got - set(HOLE_PRUNES))
    if bad:
        raise ValueError(f"unknown hole prune {bad[0]!r} (known: {', '.join(HOLE_PRUNES)})")
    return got


# Run the search compiled (:func:`.hole_kernel.compiled`, loaded at the first compiled run: numba takes
# ~0.2 s to import) when numba is installed; tests and ``bench_dfs.py --no-jit`` set this False to run the
# same kernel uncompiled (``PATIENCE_NO_JIT=1`` in the environment does the same).
USE_JIT = hole_kernel.HAVE_NUMBA and not os.environ.get("PATIENCE_NO_JIT")
# Until the compiled kernel has run once in this process, the kernel first runs uncompiled for this many
# nodes: loading numba and the cached kernel costs ~1 s, while most deals are decided within a few
# thousand nodes.
PRELUDE_NODES = 50_000


# Bytes a dead state is charged against the memory budget (``capacity`` entries) and in ``peak_mb``. The
# kernel's table uses less: 16 compiled (two int64 slots, at most half full), about 48 uncompiled (two
# list slots and an int); 82 (a Python dict entry and int) is kept so that budgets keep their meaning.
HOLE_ENTRY_BYTES = 82


@dataclass
class HoleOutcome:
    """What one hole search found: ``won`` with moves, ``complete`` when the search space ran out."""

    won: bool = False
    complete: bool = False
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    best: int = 0  # most cards on the holes reached (counting the starting cards)
    best_moves: list[Move] = field(default_factory=list)  # moves from the start to the first such state
    reach_cuts: int = 0
    table: DeadTable | None = None
    stop: str = ""  # "time", "nodes" or "memory" when a limit ended the search
    compiled: bool = False  # the kernel ran compiled by numba (after an uncompiled prelude, if any)
    jit_s: float = 0.0  # of the time, compiling or loading the compiled kernel (first compiled run only)


def rank_reach_ok(
    count: list[int], tops: list[int], adj: list[tuple[int, ...]], stock: list[int] | None = None
) -> bool:
    """Can every remaining rank still be reached? False proves the state lost (rank reachability).

    ``count[r]``: cards of rank ``r`` on the tableau and in the free cells; ``tops``: the hole tops (none
    empty); ``adj[t]``: every rank that may be played on a hole topped by ``t``; ``stock``: the ranks of
    the stock cards still to be dealt onto a hole (in any order: only the set is used).

    Soundness: a card leaves the tableau or a cell only onto a hole whose top ``t`` at that moment lets
    it (a rank in ``adj[t]``). A hole's top at any later moment is a top now, a stock card dealt since
    (the stock deals whatever the top) or a card played since from the tableau or a cell, whose rank
    has ``count > 0`` now (counts only fall). So, by induction over the plays, every later top and every
    card ever played has a rank reachable from the seeds (the tops and the stock's ranks) by steps of
    ``adj`` through ranks with ``count > 0`` now. If some rank with cards left is not, no sequence of
    moves plays its cards, and the deal is lost from this state. Holds for any number of holes, cells
    and stock cards; ``adj`` must contain every legal step, and may be one-way (``king_blocks``: nothing
    may be played on a King, so no step leaves it; the search follows each step's direction).
    """
    R = len(count) - 1
    flat = [0] * ((R + 1) * R)
    for r in range(1, R + 1):
        flat[r * R : r * R + len(adj[r])] = adj[r]
    adjn = [len(adj[r]) if r else 0 for r in range(R + 1)]
    left = list(stock or ())
    seen, todo = [False] * (R + 1), [0] * (R + 2)
    return hole_kernel._reach_ok(count, tops, len(tops), flat, adjn, R, seen, todo, left or [0], 0, len(left))


def degree_ok(count: list[int], t: int, R: int, wrap: bool, ends: set[int] | None = None) -> bool:
    """Can the remaining cards still form one walk over ranks from hole top ``t``? False proves a loss.

    ``count[r]``: cards of rank ``r`` on the tableau and in the free cells; ``ends``: the ranks the last
    card can have (every pile's bottom card; with free cells any card, as any card may wait in a cell to
    be played last). Only for one hole with no stock left (a deal would jump to any rank, breaking the
    walk).

    Soundness: the plays on a single hole visit ranks ``t = v0, v1, ..., vn``, each step between
    adjacent ranks. Let ``e[k]`` count the steps over the edge between ranks ``k`` and ``k + 1``
    (edge ``R`` joins ``R`` and ``1`` when ranks wrap). A walk enters and leaves every visit except
    at its two ends, so for each rank ``r``: ``e[r - 1] + e[r] = 2 * count[r] + [r == t] - [r == end]``,
    where the end is the rank of the last card played: some rank with cards left, and (``ends``) the
    rank of the bottom card of some non-empty pile, since the last card is alone when played (with
    free cells, any card: it may wait in a cell while its pile is cleared). This linear system has at
    most one solution on a line or an odd cycle (a one-parameter family on an even cycle); if for every
    possible end it has no solution in non-negative integers, no order of plays removes the remaining
    cards. Tableau order is ignored, so this is only a necessary condition. With ``king_blocks`` the
    walks are fewer (no step from a King), so the condition stays necessary.
    """
    ok_ends = [ends is None or x in ends for x in range(R + 1)]
    return hole_kernel._degree_ok(count, t, R, wrap, ok_ends, [0] * (R + 1))


def hole_search(
    engine: Engine,
    deadline: float,
    max_nodes: int | None,
    capacity: int,
    reach: bool = True,
    table: DeadTable | None = None,
    jit: bool | None = None,
    prelude: int | None = None,
    prunes: Iterable[str] | None = None,
    cells: bool = True,
) -> HoleOutcome:
    """Depth-first search of a hole game from the engine's current state (:func:`.hole_kernel.search`).

    Moves are tried from taller piles first (Wolter's heuristic; with one hole, a rank that keeps the
    walk's direction first). ``prunes`` names the prunes of :data:`HOLE_PRUNES` to use (None: all; each
    applies only under the conditions of the module docstring); ``reach=False`` drops ``reach`` and
    ``degree``. ``capacity``: dead states the table may hold (its memory budget, at
    :data:`HOLE_ENTRY_BYTES` each; a full table is cleared, which costs nodes, never the answer).

    ``jit`` (default :data:`USE_JIT`) runs the kernel compiled when numba loads and the packed state fits
    63 bits, else uncompiled: same moves, same order, same answer and node count. Before the compiled
    kernel is loaded, the uncompiled kernel first searches up to ``prelude`` nodes (default
    :data:`PRELUDE_NODES`, 0 once the compiled kernel has run in this process); if that does not decide,
    the compiled kernel searches again from the start with the nodes left (node counts add up; DFS order
    is the same, so the answer is the one either alone would give).

    ``best_moves`` leads from the start to the first state (in search order) with ``best`` cards on the
    holes; it equals ``moves`` when the search wins. ``cells=False`` searches as if the rules had no free
    cell (CP-SAT's presearch: its wins are wins, and its moves are tableau-to-hole moves only).
    """
    use = hole_prunes(prunes)
    if not reach:
        use -= {"reach", "degree"}
    if jit is None:
        jit = USE_JIT
    if jit:
        if prelude is None:
            prelude = 0 if hole_kernel.KERNELS.ready else PRELUDE_NODES
        if prelude > 0:
            if max_nodes is not None and max_nodes <= prelude:
                return hole_search(
                    engine, deadline, max_nodes, capacity, table=table, jit=False, prunes=use, cells=cells
                )
            first = hole_search(
                engine, deadline, prelude, capacity, table=table, jit=False, prunes=use, cells=cells
            )
            if first.won or first.complete or first.stop != "nodes":
                return first
            rest = None if max_nodes is None else max_nodes - first.nodes
            out = hole_search(
                engine,
                deadline,
                rest,
                capacity,
                table=first.table,
                jit=True,
                prelude=0,
                prunes=use,
                cells=cells,
            )
            out.nodes += first.nodes
            out.reach_cuts += first.reach_cuts
            if first.best >= out.best:  # both searches start from the engine's state
                out.best, out.best_moves = first.best, first.best_moves
            return out
    R = engine.R
    rank = engine.rank
    piles = [[rank[c] for c in p] for p in engine.piles]
    P = len(piles)
    F = len(engine.found)
    tops = [rank[f[-1]] if f else 0 for f in engine.found]
    cells = [0 if c == EMPTY else rank[c] for c in engine.cells] if cells else []
    NC = len(cells)
    stock = [rank[c] for c in reversed(engine.stock)]  # next card to deal first
    S = len(stock)
    on_holes = engine.foundation_cards()
    if table is None:
        table = DeadTable(capacity, refresh=False)
    out = HoleOutcome(best=on_holes, table=table)
    if on_holes == engine.n_cards:
        out.won = out.complete = True
        return out
    adj = [()] + [tuple(sorted(engine.hole_ok[t])) for t in range(1, R + 1)]
    # Packed state: pile heights, hole tops, then the stock cards dealt and a count per rank in the cells,
    # each in a fixed-width bit field.
    hb = max(max((len(p) for p in piles), default=0).bit_length(), 1)
    tb = R.bit_length()
    sshift = hb * P + tb * F
    r = hole_kernel.run(
        piles,
        tops,
        on_holes,
        [tuple(range(1, R + 1))] + adj[1:],
        adj,
        [hb * i for i in range(P)],
        [hb * P + tb * j for j in range(F)],
        deadline,
        max_nodes if max_nodes is not None else -1,
        R,
        table.capacity * HOLE_ENTRY_BYTES,
        # Each prune under the conditions of the module docstring.
        reach="reach" in use,
        degree="degree" in use and F == 1 and R >= 3,
        wrap=engine.fwrap,
        last_card="last_card" in use,
        one_card="one_card" in use,
        equal_holes="equal_holes" in use and not (S and F > 1),  # the stock deals to hole 0 only
        cells=cells,
        stock=stock,
        cshift=sshift + S.bit_length(),
        sshift=sshift,
        jit=jit,
    )
    out.won, out.complete, out.stop = r["won"], r["complete"], r["stop"]
    out.nodes, out.best, out.reach_cuts, out.compiled = r["nodes"], r["best"], r["cuts"], r["compiled"]
    out.jit_s += r["jit_s"]
    table.hits += r["hits"]
    # The dfs backend reports peak_mb as peak * HOLE_ENTRY_BYTES: express the hash table in those units.
    table.peak = max(table.peak, -(-r["peak_bytes"] // HOLE_ENTRY_BYTES))
    out.best_moves = _moves(r["best_path"], P, NC, F, cells)
    if out.won:
        out.moves = _moves(r["path"], P, NC, F, cells)
    return out


def _moves(path: list[tuple[int, int]], P: int, NC: int, F: int, cells: list[int]) -> list[Move]:
    """The kernel's (source, destination) pairs as engine moves (:func:`.hole_kernel.run`): a card to a
    free cell goes to the first empty one, as in the kernel."""
    free = [c == 0 for c in cells]
    out: list[Move] = []
    for src, dst in path:
        if src < P:
            area, si = TABLEAU, src
        elif src < P + NC:
            area, si = CELL, src - P
            free[si] = True
        else:
            area, si = STOCK, 0
        if dst == F:
            c = free.index(True)
            free[c] = False
            out.append((area, si, CELL, c, 1))
        else:
            out.append((area, si, FOUNDATION, dst, 1))
    return out
