"""Rank-adjacency counts: the transfer count equals a listing of every sequence on small decks."""

from __future__ import annotations

import pytest

from patience.analysis.adjacency import adjacency_counts, brute_force, direction_changes

RANK = {r: i for i, r in enumerate("A23456789TJQK")}


@pytest.mark.parametrize(
    ("suits", "ranks"), [(2, 3), (2, 4), (3, 3), (3, 4), (4, 3), (2, 5), (3, 5), (2, 6), (4, 4), (1, 7)]
)
def test_wrap_counts_equal_brute_force(suits: int, ranks: int) -> None:
    got = adjacency_counts(suits, ranks, wrap=True)
    assert got == brute_force(suits, ranks, wrap=True)
    assert got.total > 0 and sum(got.by_changes) == got.total


@pytest.mark.parametrize(("suits", "ranks"), [(2, 4), (3, 4), (4, 3), (2, 5), (3, 3), (1, 6)])
def test_path_counts_equal_brute_force_from_every_start(suits: int, ranks: int) -> None:
    for start in range(ranks):
        got = adjacency_counts(suits, ranks, wrap=False, start=start)
        assert got == brute_force(suits, ranks, wrap=False, start=start)


def test_wrap_start_rank_only_rotates_the_end_table() -> None:
    a, b = adjacency_counts(3, 5, start=0), adjacency_counts(3, 5, start=2)
    assert a.total == b.total and a.by_changes == b.by_changes
    assert b.by_end == a.by_end[-2:] + a.by_end[:-2]
    assert b == brute_force(3, 5, start=2)


def test_direction_changes_of_wolters_example() -> None:
    """Wolter 3.1.1's sequence with the most direction changes (K -> A is a step up)."""
    seq = [RANK[c] for c in "A2A232323434545456567676787898989T9TJTJTJQJQKQKQKAKA"]
    assert len(seq) == 52 and direction_changes(seq, 13) == 38


def test_suit_factor_and_circular() -> None:
    c = adjacency_counts(4, 3)
    assert c.suit_factor == 24**3
    assert c.circular == c.by_end[1] + c.by_end[2]  # every rank of 3 but the Ace is next to the Ace


def test_no_sequence_starts_at_an_ace_without_wrap() -> None:
    """Why Black Hole needs K-A (Wolter 1): from an end rank with S > 2 the crossing numbers cannot close."""
    assert adjacency_counts(4, 13, wrap=False).total == 0 == brute_force(4, 5, wrap=False).total
    assert adjacency_counts(2, 4, wrap=False, start=0).total == 1  # one sequence, ending on the 4


def test_bad_decks_are_refused() -> None:
    for args in ((4, 2, True, 0), (0, 5, True, 0), (4, 5, True, 5)):
        with pytest.raises(ValueError, match="deck|start"):
            adjacency_counts(args[0], args[1], wrap=args[2], start=args[3])


@pytest.mark.slow
def test_wolters_figures() -> None:
    """Wolter 3.1: 212,047,876 rank sequences from an Ace, 22.56% circular, at most 38 changes."""
    c = adjacency_counts(4, 13)
    assert c.total == 212_047_876
    assert c.by_end[1] == c.by_end[12] == 23_914_844 and c.by_end[0] == 6_374_376
    assert round(100 * c.circular / c.total, 2) == 22.56
    assert c.max_changes == 38
    assert c.suit_factor == 876_488_338_465_357_824
