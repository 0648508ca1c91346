"""Metamorphic tests over every game in models/: transformations with a known effect on the verdict.

On the small deals of :mod:`.oracle` (the brute force gives the original verdict):

* **Suit relabelling** (suit ``s`` -> ``s xor 1``: C<->D, H<->S, so colour classes map consistently and
  red-black building is unchanged) keeps the verdict. Suit foundations, a Canfield base and Gaps rows
  of the basic variant (row r takes suit r) move with their suit; hole start cards are relabelled in the
  rules. Not for Gaps with redeals: a redeal's shuffle is seeded by the deal's sha256, so a relabelled
  deal is redealt differently.
* **Pile order** (tableau piles reversed; pile sizes follow as an explicit ``sizes`` deal) keeps the
  verdict. A stock dealing onto the tableau gives its top cards to piles 0, 1, ...: each round of the
  stock is reordered with the piles, and a short last round keeps reaching the same piles (see
  :func:`permute_piles`). Gaps: rows reversed, for the any-two variant without redeals (basic-variant
  rows are tied to suits). Not for row games (Accordion): the row's order is the game.
* **Looser rules never lose a won deal**: one more free cell, one more redeal of a stock dealt to a
  waste, group moves allowed (``build``) where cards are built, and any card to an empty pile. The
  looser deal is the same deal (the same cards in the same places, plus an empty cell); asserted.
  Gaps redeals are not loosened (the redeal shuffle depends on the rules through the sha256), nor row
  games (no cells, and no space: a pile leaves the row).

The transformed deals are solved by dfs (planning too with ``-m slow``), so the relations test the
backends on deals the oracle tests never see. Default: 2 won and 2 lost deals per game for the
symmetries, 3 won deals per loosening; ``-m slow``: all 30.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from patience.cards import Card
from patience.engine import STOCK, TABLEAU, Engine
from patience.instance import Instance, Layout, hole_start_cards
from patience.solvers.base import Limits, Status
from patience.solvers.dfs import DfsSolver
from patience.solvers.planning import PlanningSolver

from .oracle import MIX_SEEDS, game_names, run, small_deal, small_overrides, truth

GAMES = game_names()
LIMITS = Limits(seconds=20.0)
SAMPLE = 2
LOOSE_SAMPLE = 3


def _solvers(slow: bool) -> list[Any]:
    return [DfsSolver(), PlanningSolver()] if slow else [DfsSolver()]


def _seeds(game: str, won: int | None, lost: int | None) -> list[int]:
    w = [s for s in MIX_SEEDS if truth(game, s)][:won]
    lo = [s for s in MIX_SEEDS if not truth(game, s)][:lost]
    return sorted(w + lo)


# Transformations -----------------------------------------------------------------------------------
def relabel_suits(inst: Instance) -> Instance | str:
    """The deal with suit ``s`` renamed ``s xor 1``, or why the relation does not hold here."""
    rules = inst.rules
    S = rules.deck.suits
    if S < 2:
        return "one suit: nothing to relabel"
    if rules.gaps.redeals:
        return "Gaps redeals are seeded by the deal's sha256"
    assert S % 2 == 0 or rules.tableau.build != "alternate-colour"

    def p(s: int) -> int:
        return s ^ 1 if (s ^ 1) < S else s

    def card(c: Card | None) -> Card | None:
        return None if c is None else Card(c.rank, p(c.suit))

    def pile(cs: tuple[Card | None, ...]) -> tuple[Any, ...]:
        return tuple(card(c) for c in cs)

    lay = inst.layout
    found = [pile(f) for f in lay.foundations]
    if rules.foundations.kind == "suits" and found:
        # Foundation k of deck copy k div S holds suit k mod S: it moves with its suit.
        found = [found[(k // S) * S + p(k % S)] for k in range(len(found))]
    grid = [pile(r) for r in lay.grid]
    if grid:
        grid = [grid[p(r)] for r in range(len(grid))]  # row r <-> suit r (basic variant)
    new = Layout(
        tableau=tuple(pile(t) for t in lay.tableau),
        foundations=tuple(found),
        cells=pile(lay.cells),
        reserve=pile(lay.reserve),
        stock=pile(lay.stock),
        waste=pile(lay.waste),
        grid=tuple(grid),
    )
    over = dict(inst.overrides)
    if rules.foundations.kind == "hole" and rules.foundations.start:
        over["foundations.start"] = [inst.deck.text(card(c)) for c in hole_start_cards(rules)]
    return Instance.build(inst.game, new, over)


def permute_piles(inst: Instance) -> Instance | str:
    """The deal with its tableau piles (Gaps: rows) permuted, or why the relation does not hold.

    The permutation reverses the piles; with a stock dealt onto the tableau whose last round reaches
    only the first ``k`` piles, it reverses piles ``0..k-1`` and the others separately (a deal gives
    its top card to pile 0, so the piles a short round reaches must stay those piles), and every
    round of the stock is reordered to match.
    """
    rules, lay = inst.rules, inst.layout
    over = dict(inst.overrides)
    if rules.row.distances:
        return "a row game's piles stand in a row: their order is the game (moves go left by distance)"
    if rules.gaps.rows:
        if rules.gaps.redeals:
            return "Gaps redeals are seeded by the deal's sha256"
        if rules.gaps.first_column == "fixed-suit":
            return "basic-variant rows are tied to suits (see the suit relabelling)"
        return Instance.build(inst.game, Layout(grid=lay.grid[::-1]), over)
    n = len(lay.tableau)
    k = len(lay.stock) % n if rules.stock.size and rules.stock.deal_to == "tableau" else 0
    sigma = list(range(k))[::-1] + list(range(k, n))[::-1]  # an involution
    stock = lay.stock
    if rules.stock.size and rules.stock.deal_to == "tableau":
        top = stock[::-1]  # dealing order: card i of a round goes to pile i
        rounds = [top[i : i + n] for i in range(0, len(top), n)]
        stock = tuple(c for r in rounds for c in (r[sigma[i]] for i in range(len(r))))[::-1]
    tableau = tuple(lay.tableau[sigma[i]] for i in range(n))
    sizes = rules.tableau_sizes()
    new_sizes = tuple(sizes[sigma[i]] for i in range(n))
    if new_sizes != sizes:
        over.update({"tableau.deal": "sizes", "tableau.sizes": list(new_sizes)})
    if tableau == lay.tableau:
        return "the permutation leaves every pile in place"
    new = Layout(
        tableau=tableau,
        foundations=lay.foundations,
        cells=lay.cells,
        reserve=lay.reserve,
        stock=stock,
        waste=lay.waste,
    )
    return Instance.build(inst.game, new, over)


def loosenings(game: str) -> dict[str, dict[str, Any]]:
    """Rule changes that only add moves, by name, for the small rules of ``game``."""
    rules = small_deal(game, 0).rules
    t, st = rules.tableau, rules.stock
    out: dict[str, dict[str, Any]] = {}
    if rules.gaps.rows or rules.row.distances:  # a row game has no cells or spaces to loosen
        return out
    out["one-more-cell"] = {"cells": rules.cells.count + 1}
    if st.size and st.deal_to == "waste" and st.redeals >= 0:
        out["one-more-redeal"] = {"redeals": st.redeals + 1}
    if t.build != "none" and t.group_moves != "build":
        out["group-moves"] = {"tableau.group_moves": "build"}
    if t.empty != "any":
        out["empty-any"] = {"tableau.empty": "any"}
    return out


def _same_deal(tight: Instance, loose: Instance) -> None:
    """The looser deal has the same cards in the same places (plus empty cells)."""
    a, b = tight.layout, loose.layout
    assert (a.tableau, a.foundations, a.reserve, a.stock, a.grid) == (
        b.tableau,
        b.foundations,
        b.reserve,
        b.stock,
        b.grid,
    )
    assert a.cells == b.cells[: len(a.cells)] and not any(b.cells[len(a.cells) :])


# Tests ---------------------------------------------------------------------------------------------
def _check_symmetry(
    game: str, transform: Callable[[Instance], Instance | str], seeds: list[int], slow: bool
) -> None:
    bad = []
    tested = 0
    for seed in seeds:
        inst = small_deal(game, seed)
        new = transform(inst)
        if isinstance(new, str):
            pytest.skip(f"{game}, {transform.__name__}: {new}")
        assert new.layout != inst.layout or inst.rules.deck.suits == 1
        want = Status.SOLVED if truth(game, seed) else Status.UNSOLVABLE
        for solver in _solvers(slow):
            got = run(solver, new, LIMITS)
            tested += 1
            if got.status is not want:
                bad.append(
                    f"{game} --set {small_overrides(game)} seed {seed}, {transform.__name__}: "
                    f"{solver.name} says {got.status.value}, the original deal is {want.value}"
                )
    assert tested and not bad, "\n".join(bad)


@pytest.mark.parametrize("game", GAMES)
def test_suit_relabelling_keeps_verdict(game: str) -> None:
    _check_symmetry(game, relabel_suits, _seeds(game, SAMPLE, SAMPLE), False)


@pytest.mark.parametrize("game", GAMES)
def test_pile_order_keeps_verdict(game: str) -> None:
    _check_symmetry(game, permute_piles, _seeds(game, SAMPLE, SAMPLE), False)


@pytest.mark.parametrize(
    "game",
    [
        g
        for g in GAMES
        if small_deal(g, 0).rules.stock.deal_to == "tableau" and small_deal(g, 0).rules.stock.size
    ],
)
def test_permuted_piles_receive_the_same_stock_cards(game: str) -> None:
    """Dealt out, the stock puts the same cards on each pile of the permuted deal as on its original."""
    inst = small_deal(game, 1)
    new = permute_piles(inst)
    assert not isinstance(new, str)
    a, b = Engine(inst), Engine(new)
    while a.stock:
        a.apply((STOCK, 0, TABLEAU, -1, min(len(a.piles), len(a.stock))))
        b.apply((STOCK, 0, TABLEAU, -1, min(len(b.piles), len(b.stock))))
    assert sorted(map(tuple, a.piles)) == sorted(map(tuple, b.piles))
    assert a.piles != b.piles


def _check_loosening(game: str, won: int | None, slow: bool) -> None:
    rules_changes = loosenings(game)
    if not rules_changes:
        pytest.skip(f"{game}: no loosening applies (Gaps and row games: see module docstring)")
    bad = []
    for seed in _seeds(game, won, 0):
        tight = small_deal(game, seed)
        for name, change in rules_changes.items():
            loose = small_deal(game, seed, change)
            _same_deal(tight, loose)
            for solver in _solvers(slow):
                got = run(solver, loose, LIMITS)
                if got.status is not Status.SOLVED:
                    bad.append(
                        f"{game} --set {small_overrides(game)} seed {seed} is won, but with {change} "
                        f"({name}) {solver.name} says {got.status.value}"
                    )
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("game", GAMES)
def test_looser_rules_never_lose_a_won_deal(game: str) -> None:
    _check_loosening(game, LOOSE_SAMPLE, False)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_metamorphic_relations_on_every_deal(game: str) -> None:
    seeds = list(MIX_SEEDS)
    for transform in (relabel_suits, permute_piles):
        if not isinstance(transform(small_deal(game, 0)), str):
            _check_symmetry(game, transform, seeds, True)
    if loosenings(game):
        _check_loosening(game, None, True)
