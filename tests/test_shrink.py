"""shrink: every game in models/ shrinks to a legal 8..20-card rule-set with the same rule features."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from patience.deals import deal
from patience.rules import RuleSet, apply_overrides, list_games, load_game
from patience.shrink import MAX_CARDS, MIN_CARDS, ShrinkError, shrink, shrink_rules

GAMES = [g.name for g in list_games()]

# Fields shrink may change: sizes only. Everything else is a rule feature and must survive.
SIZES = {
    ("deck", "suits"),
    ("deck", "ranks"),
    ("deck", "decks"),
    ("deck", "dealt"),
    ("tableau", "piles"),
    ("tableau", "sizes"),
    ("cells", "count"),
    ("cells", "prefilled"),
    ("reserve", "size"),
    ("stock", "size"),
    ("stock", "deal_count"),
    ("gaps", "rows"),
}


def _features(rules: RuleSet) -> dict[str, Any]:
    data = msgspec.to_builtins(rules)
    for section, name in SIZES:
        data[section].pop(name, None)
    return data


@pytest.mark.parametrize("slack", [0.25, 0.5, 1.0])
@pytest.mark.parametrize("game", GAMES)
def test_shrink_keeps_features_and_deals(game: str, slack: float) -> None:
    rules = load_game(game).rules
    over = shrink(rules, slack=slack)
    small = apply_overrides(rules, over)
    d = small.deck
    assert MIN_CARDS <= d.cards <= MAX_CARDS  # the cards in play (dealt, where part is set aside)
    assert (d.dealt > 0) == (rules.deck.dealt > 0)
    assert _features(small) == _features(rules)
    # Areas a game has stay non-empty, areas it lacks stay absent.
    for name in ("cells", "reserve", "stock"):
        before = getattr(rules, name)
        after = getattr(small, name)
        size = "count" if name == "cells" else "size"
        assert (getattr(after, size) > 0) == (getattr(before, size) > 0)
    assert (small.cells.prefilled > 0) == (rules.cells.prefilled > 0)
    assert small.tableau.piles > 0 or rules.gaps.rows
    if rules.tableau.build == "alternate-colour":
        assert d.suits == min(rules.deck.suits, 4)  # two suits of each colour: a choice of parents
    assert d.decks > 1 or rules.deck.decks == 1  # duplicate cards stay
    # Overrides name only what changed, and the game deals with them.
    assert shrink_rules(rules, slack=slack) == small
    inst = deal(game, 3, "portable", over)
    assert inst.rules == small


def test_shrink_overrides_are_minimal() -> None:
    rules = load_game("freecell").rules
    over = shrink(rules)
    defaults = {"suits": 4, "ranks": 13, "decks": 1, "piles": 8, "cells": 4}
    for key, value in over.items():
        assert defaults.get(key) != value, key
    assert "decks" not in over


def test_slack_orders_pile_counts() -> None:
    """More slack keeps more piles and cells (looser small games), less keeps pile height."""
    rules = load_game("freecell").rules
    loose, tight = shrink_rules(rules, cards=16, slack=0.25), shrink_rules(rules, cards=16, slack=1.0)
    assert loose.deck == tight.deck
    assert loose.tableau.piles > tight.tableau.piles
    assert loose.cells.count > tight.cells.count


def test_cards_target_moves_deck_size() -> None:
    rules = load_game("freecell").rules
    sizes = [shrink_rules(rules, cards=c).deck.ranks for c in (8, 14, 20)]
    assert sizes == sorted(sizes) and sizes[0] < sizes[-1]


@pytest.mark.parametrize(
    "over",
    [
        {"decks": 2},  # red-black building keeps 4 suits and duplicates keep 2 decks: 24 cards at 3 ranks
        {"ranks": 2},  # already below the 3 ranks a small deck keeps
    ],
)
def test_no_small_deck_is_a_shrink_error(over: dict[str, Any]) -> None:
    with pytest.raises(ShrinkError, match=f"no legal rule-set of {MIN_CARDS}..{MAX_CARDS} cards"):
        shrink(load_game("freecell", over).rules)


def test_a_rule_set_already_small_shrinks_to_itself() -> None:
    small = shrink_rules(load_game("freecell").rules)
    assert shrink(small) == {}  # nothing to change: the minimal overrides are empty
    assert shrink_rules(small) == small
