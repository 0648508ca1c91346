"""Statistics against known values: textbook Wilson intervals and Blake & Gent's published intervals."""

import pytest

from patience.experiments.stats import (
    conservative_interval,
    difference_interval,
    estimate,
    percentiles,
    wilson,
)


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        (5, 10, 0.2366, 0.7634),  # Newcombe 1998 / any textbook
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (81, 263, 0.2553, 0.3662),  # Newcombe 1998, Table I example
    ],
)
def test_wilson_known_values(k, n, low, high):
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=1e-4)
    assert hi == pytest.approx(high, abs=1e-4)


@pytest.mark.parametrize(
    ("wins", "losses", "unknowns", "digits", "published"),
    [
        # Blake & Gent 2019, Table 1 and Table 2: (solved, unsolvable, unknown) -> published bounds.
        (8_694_457, 1_305_543, 0, 3, (86.923, 86.966)),  # Black Hole 86.944 ± 0.022
        (819_363, 180_241, 396, 3, (81.860, 82.052)),  # Klondike [Th.] 81.956 ± 0.096
        (193_335, 806_370, 295, 3, (19.256, 19.441)),  # 1C/8P FreeCell 19.348 ± 0.093
        (35_605, 13_671, 724, 2, (70.81, 73.05)),  # Canfield (Parlett's counts) 70.81-73.05
        (9_782, 0, 218, 3, (97.514, 100.0)),  # Spider [Th.] 97.514-100
        (454, 546, 0, 2, (42.33, 48.50)),  # Accordion 42.33-48.50
    ],
)
def test_conservative_interval_reproduces_blake_gent(wins, losses, unknowns, digits, published):
    assert estimate(wins, losses, unknowns).percent(digits) == pytest.approx(published, abs=1e-9)


def test_unknowns_widen_both_sides():
    lo0, hi0 = conservative_interval(80, 20, 0)
    lo, hi = conservative_interval(80, 10, 10)
    assert lo == pytest.approx(wilson(80, 100)[0])  # unknowns as losses
    assert hi == pytest.approx(wilson(90, 100)[1])  # unknowns as wins
    assert lo <= lo0 and hi > hi0


def test_estimate_text_and_contains():
    e = estimate(8_694_457, 1_305_543)
    assert e.text() == "86.945% (95% CI 86.923-86.966%)"  # Blake & Gent: 86.944 ± 0.022
    assert e.contains(86.944) and not e.contains(87.0)
    assert e.decided_rate == pytest.approx(0.8694457)
    assert estimate(0, 0, 3).decided_rate is None


def test_empty_sample_and_bad_counts():
    assert conservative_interval(0, 0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_percentiles():
    p = percentiles(range(101))
    assert p == {"p50": 50.0, "p90": 90.0, "p99": 99.0, "max": 100.0}
    assert percentiles([]) == {}


def _wilson_by_hand(k: int, n: int, confidence: float) -> tuple[float, float]:
    """Wilson's closed form (Wilson 1927): centre and half-width around the observed rate."""
    from statistics import NormalDist

    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5
    return (max(0.0, centre - half), min(1.0, centre + half))


@pytest.mark.parametrize(("k", "n"), [(1, 1), (3, 7), (50, 100), (999, 1000), (12_345, 100_000)])
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_wilson_matches_the_closed_form(k, n, confidence):
    assert wilson(k, n, confidence) == pytest.approx(_wilson_by_hand(k, n, confidence), abs=1e-9)


@pytest.mark.parametrize(("k", "n"), [(0, 1), (1, 1), (3, 7), (50, 100), (999, 1000), (12_345, 100_000)])
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_wilson_matches_scipy(k, n, confidence):
    """Our closed form equals scipy's Wilson interval (the library we no longer import at run time)."""
    from scipy.stats import binomtest

    ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    assert wilson(k, n, confidence) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_higher_confidence_is_wider():
    lo95, hi95 = wilson(30, 100)
    lo99, hi99 = wilson(30, 100, 0.99)
    assert lo99 < lo95 < 0.3 < hi95 < hi99


def test_bounds_are_rounded_outwards():
    e = estimate(1, 2)  # Wilson 95%: [0.0615, 0.7923]
    lo, hi = e.percent(1)
    assert lo <= 100 * e.low < lo + 0.1 and hi - 0.1 < 100 * e.high <= hi
    assert (lo, hi) == (6.1, 79.3)
    assert estimate(0, 0, 5).percent() == (0.0, 100.0)  # all unknown: nothing is known


@pytest.mark.parametrize(
    "counts,text",
    [
        ((26, 4, 0), "86.7% (95% CI 70.3-94.7%)"),  # the example: 26 of 30
        ((500, 500, 0), "50.0% (95% CI 46.9-53.1%)"),  # width 6.2 points: one decimal
        ((1, 999, 0), "0.10% (95% CI 0.01-0.57%)"),  # width 0.56: two
        ((26, 2, 2), "92.9% (95% CI 70.3-98.2%)"),  # wins of the decided; unknowns widen both ends
    ],
)
def test_estimate_text_is_rate_then_interval_with_the_digits_it_needs(counts, text):
    assert estimate(*counts).text() == text


@pytest.mark.parametrize(
    ("a", "n", "b", "m", "low", "high"),
    [  # Newcombe 1998, Table II, method 10 (hybrid score)
        (56, 70, 48, 80, 0.0524, 0.3339),
        (9, 10, 3, 10, 0.1705, 0.8090),
        (6, 7, 2, 7, 0.0582, 0.8062),
        (5, 56, 0, 29, -0.0381, 0.1926),
    ],
)
def test_difference_interval_known_values(a, n, b, m, low, high):
    lo, hi = difference_interval(a, n, b, m)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


def test_difference_interval_is_antisymmetric_and_holds_the_difference():
    lo, hi = difference_interval(870, 1000, 17_400, 20_000)
    assert lo < 870 / 1000 - 17_400 / 20_000 < hi
    assert difference_interval(17_400, 20_000, 870, 1000) == pytest.approx((-hi, -lo))
