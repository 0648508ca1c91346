"""Unplayable Klondike openings: Donkersteeg 2010 section 3.1.1's exact count, by colour counting.

An opening is unplayable when no move but turning the stock is ever possible in the first pass: no Ace
among the open tableau cards and the stock cards the turns expose, no open tableau card fits on another,
and no exposed stock card fits on an open tableau card (Latif 2004, as the thesis cites). With 7 open cards
and 8 exposed stock cards (draw 3 of 24) the thesis gives 72,099,595,172,416 unplayable choices of the
C(52,7) x C(45,8) = 28,837,689,349,669,200, about 0.25002%.

:func:`unplayable_count` counts them without listing cards: only ranks and colours matter. Rank by rank
(2 up to the top; Aces are out) it chooses how many red and black open cards of that rank there are (0-2
each, C(2, k) ways); two open cards clash when they are one rank apart in opposite colours; every open card
forbids the two cards one rank below it in the other colour as exposed stock cards. The exposed stock cards
are then any ``reachable`` of the cards left that are neither Aces, open, nor forbidden: C(left, reachable)
ways. :func:`brute_force_count` lists every choice on small decks to check it, and
:func:`is_unplayable` asks the engine itself about a dealt Klondike game (turning the stock through once).
"""

from __future__ import annotations

from itertools import combinations
from math import comb

from ..engine import STOCK, WASTE, Engine
from ..instance import Instance

__all__ = ["brute_force_count", "is_unplayable", "main", "openings", "simulate", "unplayable_count"]


def openings(ranks: int = 13, open_cards: int = 7, reachable: int = 8) -> int:
    """All choices of the open tableau cards and the exposed stock cards of a 4-suit deck."""
    n = 4 * ranks
    return comb(n, open_cards) * comb(n - open_cards, reachable)


def unplayable_count(ranks: int = 13, open_cards: int = 7, reachable: int = 8) -> int:
    """Unplayable choices (see the module docstring) for a 4-suit deck of ``ranks`` ranks, two per colour.

    >>> unplayable_count()
    72099595172416
    """
    # state: (open cards chosen, red open at this rank, black open at this rank, forbidden stock cards)
    states: dict[tuple[int, bool, bool, int], int] = {(0, False, False, 0): 1}
    for r in range(2, ranks + 1):
        nxt: dict[tuple[int, bool, bool, int], int] = {}
        for (used, red_below, black_below, forb), ways in states.items():
            for red in range(3):
                for black in range(3):
                    if used + red + black > open_cards:
                        continue
                    if (red and black_below) or (black and red_below):
                        continue  # a black card of rank r - 1 fits on a red r, or a red on a black: a move
                    f = forb
                    if r > 2:  # rank r - 1 cards of the other colour may not be exposed (Aces are out anyway)
                        f += 2 * (red > 0) + 2 * (black > 0)
                    key = (used + red + black, red > 0, black > 0, f)
                    nxt[key] = nxt.get(key, 0) + ways * comb(2, red) * comb(2, black)
        states = nxt
    left = 4 * (ranks - 1) - open_cards
    return sum(
        ways * comb(left - forb, reachable)
        for (used, _, _, forb), ways in states.items()
        if used == open_cards
    )


def _cards(ranks: int) -> list[tuple[int, int]]:
    """The cards (rank, suit) of a 4-suit deck."""
    return [(r, s) for s in range(4) for r in range(1, ranks + 1)]


def _fits(lower: tuple[int, int], upper: tuple[int, int]) -> bool:
    """May ``lower`` be built on ``upper``: one rank below, other colour (colour = suit parity here)?"""
    return lower[0] == upper[0] - 1 and lower[1] % 2 != upper[1] % 2


def brute_force_count(ranks: int, open_cards: int, reachable: int) -> int:
    """:func:`unplayable_count` by listing every choice of cards (small decks only)."""
    deck = _cards(ranks)
    total = 0
    for t in combinations(deck, open_cards):
        if any(c[0] == 1 for c in t) or any(_fits(a, b) for a in t for b in t):
            continue
        rest = [c for c in deck if c not in t and c[0] != 1 and not any(_fits(c, b) for b in t)]
        total += sum(1 for _ in combinations(rest, reachable))
    return total


def is_unplayable(instance: Instance) -> bool:
    """Ask the engine: is turning the stock the only move, all through the first pass? (Klondike-like
    rules with a stock dealt to the waste.)"""
    e = Engine(instance)
    while True:
        moves = e.legal_moves()
        if any(m[0] != STOCK and not (m[0] == WASTE and m[2] == STOCK) for m in moves):
            return False  # a move other than a turn or a redeal
        if not e.stock:
            return True
        e.apply(next(m for m in moves if m[0] == STOCK and m[2] == WASTE))


def simulate(n: int, seed: int = 1, overrides: dict[str, int] | None = None) -> int:
    """How many of the Klondike deals ``seed .. seed + n - 1`` (portable generator) :func:`is_unplayable`."""
    from ..deals import deal

    return sum(is_unplayable(deal("klondike", s, "portable", overrides)) for s in range(seed, seed + n))


def main(argv: list[str] | None = None) -> None:
    """``python -m patience.play.unplayable [N]``: the exact count beside a simulation of N deals."""
    import sys

    from ..experiments.stats import estimate

    n = int((argv if argv is not None else sys.argv[1:] or ["20000"])[0])
    exact, total = unplayable_count(), openings()
    hits = simulate(n)
    print(f"exact: {exact:,} of {total:,} openings = {100 * exact / total:.5f}%")
    print(f"simulated: {hits} of {n} deals (seeds 1..{n}): {estimate(hits, n - hits).text()}")


if __name__ == "__main__":
    main()
