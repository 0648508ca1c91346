"""Win-rate statistics: Wilson intervals and Blake & Gent's conservative protocol.

Each deal is winnable or not, so a sample of deals is binomial. With unknowns (timeouts, errors) the
interval is made as wide as any assignment of them could make it: the lower bound is Wilson's lower bound
counting every unknown as a loss, the upper bound is Wilson's upper bound counting every unknown as a win
(Blake & Gent 2019, Methods: Statistics). Reported bounds are rounded outwards (lower down, upper up).
The Wilson bounds are the closed formula with the normal quantile from :class:`statistics.NormalDist`;
they equal scipy's ``binomtest(...).proportion_ci(method="wilson")`` (a test checks), without scipy.stats'
import, which took about a second of every ``estimate`` run.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

__all__ = ["Estimate", "conservative_interval", "difference_interval", "estimate", "percentiles", "wilson"]


def wilson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for ``successes`` out of ``n`` (fractions in [0, 1]).

    >>> [round(x, 4) for x in wilson(5, 10)]
    [0.2366, 0.7634]
    """
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} not in 0..{n}")
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p, z2 = successes / n, z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def conservative_interval(
    wins: int, losses: int, unknowns: int = 0, confidence: float = 0.95
) -> tuple[float, float]:
    """Blake & Gent's interval: unknowns as losses for the lower bound, as wins for the upper."""
    n = wins + losses + unknowns
    if n == 0:
        return (0.0, 1.0)
    return (wilson(wins, n, confidence)[0], wilson(wins + unknowns, n, confidence)[1])


def difference_interval(a: int, n: int, b: int, m: int, confidence: float = 0.95) -> tuple[float, float]:
    """Interval of the difference a/n - b/m of two independent rates: Newcombe's hybrid score interval
    (1998, method 10), built from the two Wilson intervals, so it stays sensible near 0 and 1.

    >>> [round(x, 4) for x in difference_interval(56, 70, 48, 80)]  # Newcombe 1998, Table II (a)
    [0.0524, 0.3339]
    """
    p, q = (a / n if n else 0.0), (b / m if m else 0.0)
    (l1, u1), (l2, u2) = wilson(a, n, confidence), wilson(b, m, confidence)
    d = p - q
    return (d - math.sqrt((p - l1) ** 2 + (u2 - q) ** 2), d + math.sqrt((u1 - p) ** 2 + (q - l2) ** 2))


def _floor(x: float, digits: int) -> float:
    s = 10**digits
    return math.floor(x * s + 1e-9) / s


def _ceil(x: float, digits: int) -> float:
    s = 10**digits
    return math.ceil(x * s - 1e-9) / s


@dataclass(frozen=True)
class Estimate:
    """Win-rate estimate of a sample of deals (rates as fractions)."""

    wins: int
    losses: int
    unknowns: int
    low: float
    high: float
    confidence: float = 0.95

    @property
    def n(self) -> int:
        return self.wins + self.losses + self.unknowns

    @property
    def decided_rate(self) -> float | None:
        """Wins among the decided deals (None when none was decided)."""
        d = self.wins + self.losses
        return self.wins / d if d else None

    def percent(self, digits: int = 3) -> tuple[float, float]:
        """The bounds in percent, rounded outwards to ``digits`` decimals."""
        return (_floor(100 * self.low, digits), _ceil(100 * self.high, digits))

    def text(self, digits: int | None = None) -> str:
        """The one way a win rate is printed: ``"86.7% (95% CI 70.3-94.7%)"``, wins among the decided deals
        then the interval (bounds rounded outwards). ``digits`` defaults to what the interval's width
        calls for: one decimal, more while the width would show fewer than two significant digits.

        >>> estimate(26, 4).text()
        '86.7% (95% CI 70.3-94.7%)'
        >>> estimate(0, 0, 5).text()
        'n/a (95% CI 0.0-100.0%)'
        """
        if digits is None:
            width = 100 * (self.high - self.low)
            digits = 1 if width <= 0 else min(6, max(1, 1 - math.floor(math.log10(width))))
        lo, hi = self.percent(digits)
        rate = self.decided_rate
        point = "n/a" if rate is None else f"{100 * rate:.{digits}f}%"
        level = f"{100 * self.confidence:g}%"
        return f"{point} ({level} CI {lo:.{digits}f}-{hi:.{digits}f}%)"

    def contains(self, percent: float) -> bool:
        """True when the (rounded) interval contains ``percent``."""
        lo, hi = self.percent()
        return lo <= percent <= hi


def estimate(wins: int, losses: int, unknowns: int = 0, confidence: float = 0.95) -> Estimate:
    """An :class:`Estimate` with the conservative interval.

    >>> estimate(819363, 180241, 396).text()  # Klondike [Th.], Blake & Gent Table 1: 81.956 ± 0.096
    '81.97% (95% CI 81.86-82.06%)'
    """
    lo, hi = conservative_interval(wins, losses, unknowns, confidence)
    return Estimate(wins, losses, unknowns, lo, hi, confidence)


def percentiles(values: Iterable[float], qs: tuple[float, ...] = (50, 90, 99, 100)) -> dict[str, float]:
    """Percentiles of ``values`` keyed ``p50``, ``p90``, ... (``max`` for 100); empty input gives {}."""
    arr = np.asarray(list(values), dtype=float)
    if arr.size == 0:
        return {}
    out = {}
    for q in qs:
        out["max" if q == 100 else f"p{q:g}"] = float(np.percentile(arr, q))
    return out
