"""Hole games (the Black Hole family): the domain rules every backend and the families share, stated once.

* :func:`hole_game_problem` / :func:`is_hole_game`: is a rule-set a hole game, where every card goes
  from the tableau (or a free cell, or a stock dealt onto a hole) to a hole? Users differ only in the
  free cells and the stock they handle, named parameters (``free_cells``, ``stock``), never a copy of
  the test.
* :class:`HoleRanks`: may a card of rank ``r`` go on a hole whose top has rank ``t``
  (:meth:`HoleRanks.fits`), the rank steps a hole's walk can take (:meth:`HoleRanks.table`), and the
  rank above (:meth:`HoleRanks.succ`).
* :func:`walk_steps`: the rank-walk edge equation ``x[r-1] + x[r] = d[r]`` behind the walk-degree test
  of the hole search (:func:`patience.solvers.dfs_hole.degree_ok`) and the Euler pruning of the planted
  family (:mod:`patience.families`). The hole search kernel keeps an allocation-free copy of its
  yes/no answer that numba can compile (:func:`patience.solvers.hole_kernel._walk_ok`; a test checks
  the two agree on every small input).

The validator (:mod:`patience.validate`) keeps its own copy of the hole rule on purpose: it shares no
rule code with the engine, so it can catch a mistake here.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import RuleSet

__all__ = ["HoleRanks", "hole_game_problem", "is_hole_game", "walk_steps"]


def hole_game_problem(rules: RuleSet, free_cells: int | None = 0, stock: bool = False) -> str | None:
    """Why ``rules`` are not a hole game, or None when they are.

    A hole game: the only moves take a tableau top card (or a free cell's card) to a hole. Exactly:
    ``foundations.kind == "hole"``; not a Gaps grid; ``tableau.build == "none"`` and ``tableau.empty ==
    "none"`` (the tableau takes no card, so no card moves between piles and no hole card comes back:
    ``foundations.removable`` is then moot, the validator lets a foundation card return to the tableau
    only); no reserve; no card dealt to a cell; at most ``free_cells`` free cells (``None``: any number,
    each starting empty); no stock, or with ``stock`` a stock that deals one card at a time onto the
    (first) hole (Golf: ``stock.deal_to == "hole"``, whatever its rank; no waste, so no redeal).

    ``free_cells`` and ``stock`` are the features in which users differ: the engine's hole fast path
    takes neither (``0``, no stock), the CP-SAT model one free cell (Worm Hole) and no stock, the hole
    search any free cells and a stock (:func:`patience.solvers.dfs_hole.hole_search_problem`), the
    families any cells (a cell stays unused in a planted win).
    """
    f, t = rules.foundations, rules.tableau
    if rules.gaps.rows:
        return "it is a Gaps game"
    if f.kind != "hole":
        return f"its foundations are not holes (foundations.kind={f.kind})"
    if t.build != "none":
        return f"its tableau builds (tableau.build={t.build})"
    if t.empty != "none":
        return f"its empty piles take cards (tableau.empty={t.empty})"
    if rules.stock.size and not stock:
        return f"it has a stock ({rules.stock.size} cards)"
    if rules.stock.size and rules.stock.deal_to != "hole":
        return f"its stock deals to the {rules.stock.deal_to} (stock.deal_to), not to a hole"
    if rules.reserve.size:
        return f"it has a reserve ({rules.reserve.size} cards)"
    if rules.cells.prefilled:
        return f"it deals {rules.cells.prefilled} card(s) to the cells"
    if free_cells is not None and rules.cells.count > free_cells:
        return f"it has {rules.cells.count} free cell(s), at most {free_cells} supported here"
    return None


def is_hole_game(rules: RuleSet, free_cells: int | None = 0, stock: bool = False) -> bool:
    """True when :func:`hole_game_problem` finds nothing (same conditions, same ``free_cells`` and
    ``stock``)."""
    return hole_game_problem(rules, free_cells, stock) is None


@dataclass(frozen=True)
class HoleRanks:
    """The rank rule of hole foundations: ranks ``1..R``, ``wrap`` (K-A), ``king_blocks`` (Golf)."""

    R: int
    wrap: bool = False
    king_blocks: bool = False

    @classmethod
    def of(cls, rules: RuleSet) -> HoleRanks:
        """The rank rule of a rule-set's foundations."""
        f = rules.foundations
        return cls(rules.deck.ranks, f.wrap, f.king_blocks)

    def succ(self, rank: int) -> int | None:
        """The rank one above ``rank``: King to Ace only with ``wrap``; None above the top rank."""
        if rank < self.R:
            return rank + 1
        return 1 if self.wrap else None

    def fits(self, r: int, t: int) -> bool:
        """May a card of rank ``r`` go on a hole whose top card has rank ``t`` (``t == 0``: empty hole)?

        True exactly when the hole is empty, or (unless ``king_blocks`` and ``t == R``: nothing goes on
        a King) ``r`` is one rank above or below ``t``, where with ``wrap`` the Ace and the top rank are
        one apart (``(r - t) mod R`` is 1 or ``R - 1``).
        """
        if t == 0:
            return True
        if self.king_blocks and t == self.R:
            return False
        R = self.R
        return r == t + 1 or r == t - 1 or (self.wrap and (r - t) % R in (1, R - 1))

    def onward(self, p: int, t: int) -> int:
        """The rank that carries a walk's step ``p -> t`` on in the same direction, counted around the
        cycle of ranks (Wolter's move order: the hole search tries it first, the greedy playouts of
        :mod:`patience.solvers.cpsat_hole.lns` prefer it); 0 when ``p -> t`` is not one rank up or down
        (or either is 0). Whether that rank may follow ``t`` is :meth:`fits`'s to say."""
        R = self.R
        if not (p and t):
            return 0
        step = (t - p) % R
        if step == 1:
            return t % R + 1
        if step == R - 1:
            return (t - 2) % R + 1
        return 0

    def table(self) -> list[frozenset[int]]:
        """``table()[t]``: the ranks that fit on a hole topped by rank ``t`` (index 0: unused, empty)."""
        R = self.R
        return [frozenset()] + [
            frozenset(r for r in range(1, R + 1) if self.fits(r, t)) for t in range(1, R + 1)
        ]


def walk_steps(d: list[int], R: int, wrap: bool) -> tuple[list[int], list[int], int, int | None] | None:
    """Non-negative solutions of the rank-walk edge equation, or None when there is none.

    Ranks ``1..R`` lie on a path, or on a cycle when ``wrap`` (edge ``R`` joins ``R`` and 1). A set of
    walks over ranks, each step between adjacent ranks, uses edge ``k`` (ranks ``k``, ``k + 1``) some
    ``x[k] >= 0`` times, and ``x[r - 1] + x[r] = d[r]`` for every rank ``r`` (``d[r]``: the step ends at
    ``r``, twice each visit less one per walk starting or ending there; ``d[0]`` unused). On a path
    ``x[0] = x[R] = 0``; on a cycle ``x[0] = x[R] = X`` (the K-A edge).

    Returns ``(a, sign, lo, hi)``: the solutions are ``x[k] = a[k-1] + sign[k-1] * X`` for ``k = 1..R``
    and every integer ``X`` in ``[lo, hi]`` (``hi`` None: unbounded above). On a path ``X`` is 0
    (``lo == hi == 0``, ``sign`` all 0, and ``a[R-1] == 0`` is ``x[R]``). The system has one unknown
    after the first, so this is exact: None proves no such walks exist.
    """
    if not wrap:
        a, x = [], 0
        for r in range(1, R):
            x = d[r] - x
            if x < 0:
                return None
            a.append(x)
        if d[R] != x:
            return None
        return a + [0], [0] * R, 0, 0
    # Cycle: x[r] = a[r] + sign[r] * X.
    a_s, sign_s, a, sign, lo, hi = [], [], 0, 1, 0, None
    for r in range(1, R):
        a, sign = d[r] - a, -sign
        a_s.append(a)
        sign_s.append(sign)
        if sign > 0:  # a + X >= 0
            lo = max(lo, -a)
        else:  # a - X >= 0
            hi = a if hi is None else min(hi, a)
    a, sign = d[R] - a, -sign  # x[R] = a + sign * X must equal X
    if sign < 0:  # a - X = X
        if a % 2:
            return None
        x = a // 2
        if x < lo or (hi is not None and x > hi):
            return None
        return a_s + [0], sign_s + [1], x, x
    if a != 0 or (hi is not None and lo > hi):  # a + X = X: any X in range
        return None
    return a_s + [0], sign_s + [1], lo, hi
