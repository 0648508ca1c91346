"""Unplayable Klondike openings: the colour count, a brute-force count, and the engine agree."""

from __future__ import annotations

import dataclasses

import pytest

from patience.cards import Card
from patience.deals import deal
from patience.instance import Instance
from patience.play.unplayable import brute_force_count, is_unplayable, openings, unplayable_count


@pytest.mark.parametrize(("ranks", "open_cards", "reachable"), [(4, 3, 2), (5, 3, 3), (5, 4, 2), (6, 3, 3)])
def test_colour_count_equals_brute_force_on_small_decks(ranks: int, open_cards: int, reachable: int) -> None:
    got = unplayable_count(ranks, open_cards, reachable)
    assert got == brute_force_count(ranks, open_cards, reachable)
    assert 0 < got < openings(ranks, open_cards, reachable)


def test_donkersteeg_figure() -> None:
    """Section 3.1.1: 72,099,595,172,416 of 28,837,689,349,669,200 openings, about 0.25002%."""
    assert openings() == 28_837_689_349_669_200
    assert unplayable_count() == 72_099_595_172_416
    assert round(100 * unplayable_count() / openings(), 5) == 0.25002


def _exposed(stock: tuple[Card, ...], k: int = 3) -> list[Card]:
    """The stock cards the turns of ``k`` leave on the waste top (the stock's top is last)."""
    out, left = [], len(stock)
    while left:
        take = min(k, left)
        left -= take
        out.append(stock[left])
    return out


def _predicate(inst: Instance) -> bool:
    """The definition in cards: no Ace open or exposed, no open card on another, no exposed card on one."""
    tops = [p[-1] for p in inst.layout.tableau]
    exposed = _exposed(inst.layout.stock)

    def fits(a: Card, b: Card) -> bool:
        return a.rank == b.rank - 1 and a.colour != b.colour

    return (
        all(c.rank != 1 for c in tops + exposed)
        and not any(fits(a, b) for a in tops for b in tops)
        and not any(fits(a, b) for a in exposed for b in tops)
    )


def _rigged(seed: int) -> Instance:
    """A deal whose open and exposed cards are 15 cards of one colour, no Ace: none fits on another."""
    cards = [c for p in deal("klondike", seed).layout.tableau for c in p] + list(
        deal("klondike", seed).layout.stock
    )
    one = [c for c in cards if c.colour == cards[0].colour and c.rank != 1][:15]
    rest = [c for c in cards if c not in one]
    tableau = tuple(tuple(rest.pop() for _ in range(i)) + (one[i],) for i in range(7))
    exposed = {21 - 3 * k: one[7 + k] for k in range(8)}  # the turns of 3 leave stock[21], [18], ..., [0]
    stock = tuple(exposed[i] if i in exposed else rest.pop() for i in range(24))
    assert not rest
    lay = dataclasses.replace(deal("klondike", seed).layout, tableau=tableau, stock=stock)
    return Instance.build("klondike", lay)


def test_engine_agrees_with_the_definition() -> None:
    for seed in range(1, 301):
        inst = deal("klondike", seed)
        assert is_unplayable(inst) == _predicate(inst)
    unplayable = 0
    for seed in range(1, 6):
        rigged = _rigged(seed)
        assert _predicate(rigged) and is_unplayable(rigged)
        # One exposed card swapped with a card of the other colour that fits on an open card: playable.
        lay = rigged.layout
        tops = [p[-1] for p in lay.tableau]
        fit = next(c for c in lay.stock for t in tops if c.rank == t.rank - 1 and c.colour != t.colour)
        a, b = lay.stock.index(fit), 21
        stock = list(lay.stock)
        stock[a], stock[b] = stock[b], stock[a]
        other = Instance.build("klondike", dataclasses.replace(lay, stock=tuple(stock)))
        assert not _predicate(other) and not is_unplayable(other)
        unplayable += 1
    assert unplayable == 5
