"""Shrink a game's rule-set to a small generalized deck that keeps every rule feature.

Small deals (8-20 cards) are what exhaustive oracles, metamorphic tests and quick experiments need:
``shrink(rules)`` returns ``--set`` style overrides (for :func:`patience.rules.apply_overrides` and
:func:`patience.deals.deal`) derived from the rule-set alone, never from a game's name, so a new model
file is covered without a table to edit.

What changes is only sizes: suits (two at most; alternate-colour building keeps four, two black and
two red, since generalized suit ``s`` has the colour of standard suit ``s mod 4`` and with one suit of
a colour every card could be built on one card only), decks (two at most, so
duplicate cards stay), ranks, tableau piles, free cells, reserve, stock and the stock's draw count.
Everything else (build policy and direction, group moves, face-down cards, worrying back, wrap, the
empty-pile policy, stock destination and redeals, holes and their start cards, Gaps rows and redeals)
is the original rule. Areas scale with the deck's card ratio ``f``: reserve and stock by ``f`` (kept
non-empty when the game has them), free cells and the number of piles by ``f ** slack``. Cells and
piles are the slack of a game: it does not grow with the deck, so ``slack`` 1 keeps the pile height and
makes most small deals lost, 0.25 keeps many short piles and makes most won; 0.5 (default) sits between.
Where some cells are dealt to and some are free (Seahaven), one of each is kept.
"""

from __future__ import annotations

import math
from typing import Any

from .rules import RuleError, RuleSet, apply_overrides

__all__ = ["ShrinkError", "shrink", "shrink_rules"]

TARGET_CARDS = 14
MIN_CARDS = 8
MAX_CARDS = 20
SLACK = 0.5
MIN_PILES = 3  # fewer piles leave building games almost no tableau-to-tableau play (kept if fewer)


class ShrinkError(ValueError):
    """No small rule-set keeps these rules' features (the message says why)."""


def shrink_rules(
    rules: RuleSet, cards: int = TARGET_CARDS, slack: float = SLACK, suits: int | None = None
) -> RuleSet:
    """The shrunk rule-set itself (``rules`` with :func:`shrink`'s overrides applied)."""
    return apply_overrides(rules, shrink(rules, cards, slack, suits))


def shrink(
    rules: RuleSet, cards: int = TARGET_CARDS, slack: float = SLACK, suits: int | None = None
) -> dict[str, Any]:
    """Overrides giving a deck of about ``cards`` cards (within 8..20) with the same rule features.

    ``slack`` (see the module docstring) sets how fast piles and cells shrink; ``suits`` caps the
    number of suits below the default (two, four for red-black building; never below two for it).
    Raises :class:`ShrinkError` when no size in that window is legal for these rules.

    >>> from patience.rules import load_game
    >>> shrink(load_game("freecell").rules)  # red-black building keeps its four suits: 4 x 3 = 12 cards
    {'ranks': 3, 'cells': 2, 'piles': 4}
    """
    best: tuple[float, dict[str, Any]] | None = None
    for over, score in _candidates(rules, cards, slack, suits):
        try:
            apply_overrides(rules, over)
        except RuleError:
            continue
        if best is None or score < best[0]:
            best = (score, over)
    if best is None:
        raise ShrinkError(f"no legal rule-set of {MIN_CARDS}..{MAX_CARDS} cards keeps these rules")
    return _minimal(rules, best[1])


def _minimal(rules: RuleSet, over: dict[str, Any]) -> dict[str, Any]:
    """Drop overrides that equal the original value, so the result reads as what changed."""
    base = {
        "suits": rules.deck.suits,
        "ranks": rules.deck.ranks,
        "decks": rules.deck.decks,
        "deck.dealt": rules.deck.dealt,
        "piles": rules.tableau.piles,
        "cells": rules.cells.count,
        "cells.prefilled": rules.cells.prefilled,
        "reserve": rules.reserve.size,
        "stock": rules.stock.size,
        "draw": rules.stock.deal_count,
        "tableau.sizes": list(rules.tableau.sizes),
    }
    return {k: v for k, v in over.items() if base.get(k) != v}


def _candidates(
    rules: RuleSet, target: int, slack: float, max_suits: int | None
) -> list[tuple[dict[str, Any], float]]:
    """Every (overrides, score) pair worth trying; lower scores are closer to the target shape."""
    d = rules.deck
    # Red-black building keeps two suits of each colour: with one, a card has a single possible
    # parent and choices between parents (Blake & Gent's partial-pile moves among them) never arise.
    red_black = rules.tableau.build == "alternate-colour"
    suits = min(d.suits, 4 if red_black else 2, max(max_suits or d.suits, 2 if red_black else 1))
    decks = min(d.decks, 2)
    n0 = d.cards
    out: list[tuple[dict[str, Any], float]] = []
    for ranks in range(3, d.ranks + 1):
        n = suits * ranks * decks
        base: dict[str, Any] = {"suits": suits, "ranks": ranks, "decks": decks}
        if d.dealt:  # only part of the deck is dealt (the rest set aside): the same share of the small one
            n = round(n * d.dealt / (d.suits * d.ranks * d.decks))
            base["deck.dealt"] = n
        if not MIN_CARDS <= n <= MAX_CARDS:
            continue
        size_cost = abs(n - target)
        if rules.gaps.rows:
            out.append((base, size_cost))
            continue
        f = n / n0
        for over, shape_cost in _layouts(rules, suits * decks, n, f, slack):
            out.append(({**base, **over}, size_cost + shape_cost))
    return out


def _scaled(x: int, f: float) -> int:
    """``x * f`` rounded, at least 1 when ``x`` is."""
    return 0 if x == 0 else max(1, round(x * f))


def _layouts(
    rules: RuleSet, piles_home: int, n: int, f: float, slack: float
) -> list[tuple[dict[str, Any], float]]:
    """Area sizes for an ``n``-card deck (``f`` of the original) with ``piles_home`` suits x decks,
    each with a shape cost."""
    t, c, st = rules.tableau, rules.cells, rules.stock
    g = f**slack
    cells = _scaled(c.count, g)
    prefilled = min(cells, round(c.prefilled * cells / c.count)) if c.count else 0
    if 0 < c.prefilled < c.count:  # some cells dealt to, some free (Seahaven): keep one of each
        cells = max(cells, 2)
        prefilled = min(max(prefilled, 1), cells - 1)
    reserve = _scaled(rules.reserve.size, f)
    stock = _scaled(st.size, f)
    # Cards the rules put home before play, at the new size.
    fo = rules.foundations
    if fo.kind == "hole":
        home = fo.count if fo.start_dealt else len(fo.start)
    elif fo.initial == "aces":
        home = piles_home
    else:
        home = 1 if fo.initial == "one" else 0
    tab = n - home - prefilled - reserve - stock
    p0 = t.piles
    out: list[tuple[dict[str, Any], float]] = []
    common: dict[str, Any] = {"cells": cells, "cells.prefilled": prefilled}

    def areas(res: int, sto: int) -> dict[str, Any]:
        return {**common, "reserve": res, "stock": sto, "draw": max(1, min(st.deal_count, sto))}

    # Stock and reserve may give up (or take) a few cards so the tableau keeps enough piles.
    shifts = [(r, s) for r in _shift(reserve) for s in _shift(stock)]

    if t.deal == "triangle":
        # Pile i holds i+1 cards, so the pile count fixes the tableau; stock or reserve takes the rest.
        for piles in range(min(p0, MIN_PILES), p0 + 1):
            need = piles * (piles + 1) // 2
            extra = tab - need
            res, sto = reserve, stock
            if st.size:
                sto += extra
            elif rules.reserve.size:
                res += extra
            elif extra:
                continue
            if (st.size and sto < 1) or (rules.reserve.size and res < 1):
                continue
            cost = abs(piles - p0 * g) + abs(extra) / 2
            out.append(({**areas(res, sto), "piles": piles}, cost))
        return out
    for res, sto in shifts:
        left = tab + reserve - res + stock - sto
        moved = abs(res - reserve) / max(reserve, 1) + abs(sto - stock) / max(stock, 1)
        for piles in range(min(p0, MIN_PILES), min(p0, left) + 1):
            cost = abs(piles - p0 * g) + moved
            if t.equal_piles and left % piles:
                continue
            over = {**areas(res, sto), "piles": piles}
            if t.deal == "sizes":
                over["tableau.sizes"] = _resample(t.sizes, piles, left)
            out.append((over, cost))
    return out


def _shift(x: int) -> list[int]:
    """Sizes near ``x`` for an area of ``x`` cards (an absent area stays absent)."""
    return [x] if x == 0 else [y for y in range(x - 3, x + 4) if y >= 1]


def _resample(sizes: tuple[int, ...], piles: int, total: int) -> list[int]:
    """Pile sizes of the same profile (e.g. 8,8,8,7,...,1) for ``piles`` piles holding ``total`` cards."""
    k = len(sizes)
    raw = [sizes[min(k - 1, int((i + 0.5) * k / piles))] for i in range(piles)]
    scale = total / sum(raw)
    out = [max(1, math.floor(x * scale)) for x in raw]
    # Hand out (or take back) the rounding difference, largest original piles first.
    order = sorted(range(piles), key=lambda i: -raw[i])
    i = 0
    while sum(out) != total and i < 10 * piles * max(total, 1):
        j = order[i % piles]
        if sum(out) < total:
            out[j] += 1
        elif out[j] > 1:
            out[j] -= 1
        i += 1
    return out
