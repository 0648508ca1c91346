"""No first move: the binomial formula against every arrangement of small decks, and the engine."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import pytest

from patience.analysis.first_move import has_first_move, no_first_move, simulate, top_cards_fit
from patience.deals import deal
from patience.instance import hole_start_cards
from patience.rules import load_game


@pytest.mark.parametrize(
    "overrides", [{"suits": 2, "ranks": 5, "piles": 3}, {"suits": 1, "ranks": 7, "piles": 3}]
)
def test_formula_equals_every_arrangement(overrides: dict) -> None:
    game = load_game("black-hole", overrides)
    rules = game.rules
    deck = deal("black-hole", 1, overrides=overrides).deck
    (start,) = hole_start_cards(rules)
    cards = [c for c in deck.cards() if c != start]
    sizes = rules.tableau_sizes()
    ends = [sum(sizes[: i + 1]) - 1 for i in range(len(sizes))]
    stuck = sum(1 for p in permutations(cards) if not top_cards_fit(rules, [p[e] for e in ends]))
    total = sum(1 for _ in permutations(cards))
    got = no_first_move(rules)
    assert got.probability == Fraction(stuck, total)
    assert 0 < stuck < total


def test_black_hole_figure() -> None:
    """Wolter 5.1: 28,513 per million (C(43, 17) / C(51, 17))."""
    got = no_first_move(load_game("black-hole").rules)
    assert (got.tops, got.tableau, got.fitting) == (17, 51, 8)
    assert round(got.per_million) == 28_513


def test_all_in_a_row_always_has_a_first_move() -> None:
    assert no_first_move(load_game("all-in-a-row").rules).probability == 0
    assert simulate("all-in-a-row", 30) == (0, 30)


def test_non_hole_games_are_refused() -> None:
    with pytest.raises(ValueError, match="foundations are not holes"):
        no_first_move(load_game("freecell").rules)


@pytest.mark.parametrize(
    ("game", "overrides"),
    [("black-hole", {}), ("black-hole", {"suits": 2, "ranks": 5, "piles": 3}), ("binary-star", {})],
)
def test_engine_agrees_with_the_top_cards(game: str, overrides: dict) -> None:
    seen = set()
    for seed in range(1, 301):
        inst = deal(game, seed, overrides=overrides)
        fits = top_cards_fit(inst.rules, [p[-1] for p in inst.layout.tableau])
        assert has_first_move(inst) == fits
        seen.add(fits)
    assert seen == {True, False} or game == "binary-star"
