"""GSR riffle shuffles against their known distribution; dealing by rows and columns; gathering."""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

import pytest
from scipy.stats import chisquare

from patience.analysis.shuffles import (
    _gathered,
    deal_order,
    riffle,
    riffle_probability,
    rising_sequences,
    study,
)
from patience.deals import deal
from patience.instance import hole_start_cards
from patience.solvers.base import Limits, solve


def test_one_riffle_probabilities() -> None:
    """One riffle of n cards: identity (n + 1) / 2^n, each 2-rising-sequence permutation 1 / 2^n."""
    n = 5
    perms = list(permutations(range(n)))
    p = {q: riffle_probability(q, 1) for q in perms}
    assert p[tuple(range(n))] == (n + 1) / 2**n
    assert all(p[q] == 1 / 2**n for q in perms if rising_sequences(q) == 2)
    assert all(p[q] == 0 for q in perms if rising_sequences(q) > 2)
    assert sum(p.values()) == pytest.approx(1.0)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_riffles_match_their_distribution(k: int) -> None:
    n, draws = 4, 40_000
    rng = random.Random(k)
    seen = Counter(tuple(_k_riffles(list(range(n)), k, rng)) for _ in range(draws))
    perms = [q for q in permutations(range(n)) if riffle_probability(q, k) > 0]
    assert set(seen) <= set(perms)  # nothing impossible ever comes out
    expected = [riffle_probability(q, k) * draws for q in perms]
    result = chisquare([seen[q] for q in perms], expected)
    assert result.pvalue > 1e-4, result


def _k_riffles(cards: list[int], k: int, rng: random.Random) -> list[int]:
    for _ in range(k):
        cards = riffle(cards, rng)
    return cards


def test_deal_by_rows_and_columns() -> None:
    order = deal("black-hole", 1).deck.cards()  # clubs A-K, diamonds, hearts, spades
    (start,) = hole_start_cards(deal("black-hole", 1).rules)
    rest = [c for c in order if c != start]
    cols = deal_order("black-hole", order, "columns")
    rows = deal_order("black-hole", order, "rows")
    assert cols.layout.foundations == rows.layout.foundations == ((start,),)
    assert list(cols.layout.tableau[0]) == rest[:3] and list(cols.layout.tableau[16]) == rest[48:]
    assert [p[0] for p in rows.layout.tableau] == rest[:17]
    assert [p[-1] for p in rows.layout.tableau] == rest[34:]
    with pytest.raises(ValueError, match="rows or columns"):
        deal_order("black-hole", order, "diagonals")


def test_gathering_keeps_every_card_in_play_order() -> None:
    inst = deal("black-hole", 1)
    res = solve(inst, "dfs", Limits(seconds=30))
    assert res.solution is not None
    got = _gathered(inst, list(res.solution))
    assert Counter(got) == Counter(inst.deck.cards())
    assert got[0] == inst.layout.foundations[0][0] and got[1:] == [
        inst.deck.parse(m["card"]) for m in res.solution
    ]


def test_study_counts_every_game() -> None:
    pts = study("all-in-a-row", "gathered", "rows", [1, 7], 6, overrides={"suits": 3, "ranks": 8, "piles": 6})
    assert [p.k for p in pts] == [1, 7] and all(p.n == 6 for p in pts)
    lo, hi = pts[0].interval()
    assert 0 <= lo <= pts[0].won / 6 <= hi <= 1


def test_on_game_hears_every_verdict_in_order() -> None:
    heard: list[tuple[int, str]] = []
    small = {"suits": 3, "ranks": 8, "piles": 6}
    pts = study(
        "all-in-a-row",
        "gathered",
        "rows",
        [2, 3],
        5,
        overrides=small,
        on_game=lambda k, s: heard.append((k, s)),
    )
    assert [k for k, _ in heard] == [2] * 5 + [3] * 5
    assert [sum(s == "solved" for k, s in heard if k == p.k) for p in pts] == [p.won for p in pts]
