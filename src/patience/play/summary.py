"""Summaries of played games: win rate with a Wilson interval, how games ended, cards home, moves per win.

The interval is :func:`patience.experiments.stats.estimate`'s (conservative: a game cut by the time limit,
``time``, counts as a loss for the lower bound and as a win for the upper, as ``estimate`` treats unknowns).
Cards home are grouped as in Donkersteeg 2010's Figures 6.1 and 6.3 (0, 1-5, 6-10, ..., all home).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..experiments.stats import Estimate, estimate
from .game import ENDS, GameRecord

__all__ = ["PlaySummary", "home_bins", "summarize"]


def home_bins(n_cards: int) -> list[tuple[int, int]]:
    """Groups of cards-home counts (inclusive ranges): 0, 1-5, 6-10, 11-20, 21-39, 40..n-1, n."""
    edges = [(0, 0), (1, 5), (6, 10), (11, 20), (21, 39), (40, n_cards - 1)]
    out = [(lo, min(hi, n_cards - 1)) for lo, hi in edges if lo <= n_cards - 1]
    return out + [(n_cards, n_cards)]


@dataclass(frozen=True)
class PlaySummary:
    """What ``patience play`` prints."""

    games: int
    estimate: Estimate
    ends: dict[str, int]
    home: dict[str, int]  # "lo-hi" -> games
    home_mean: float
    moves_per_win: dict[str, float]  # mean, median, min, max (empty without wins)
    seconds_per_game: float

    def to_json(self) -> dict[str, Any]:
        e = self.estimate
        lo, hi = e.percent()
        return {
            "games": self.games,
            "won": e.wins,
            "lost": e.losses,
            "unknown": e.unknowns,
            "win_rate_percent": 100 * e.wins / self.games if self.games else None,
            "wilson95_percent": [lo, hi],
            "ends": self.ends,
            "cards_home": self.home,
            "cards_home_mean": self.home_mean,
            "moves_per_win": self.moves_per_win,
            "seconds_per_game": self.seconds_per_game,
        }


def summarize(records: Sequence[GameRecord], n_cards: int) -> PlaySummary:
    """Summary of ``records`` (games of one deck of ``n_cards`` cards)."""
    ends = Counter(r.end for r in records)
    wins = ends["won"]
    unknown = ends["time"]
    est = estimate(wins, len(records) - wins - unknown, unknown)
    home: dict[str, int] = {}
    for lo, hi in home_bins(n_cards):
        key = str(lo) if lo == hi else f"{lo}-{hi}"
        home[key] = sum(lo <= r.home <= hi for r in records)
    win_moves = [r.moves for r in records if r.won]
    mpw: dict[str, float] = {}
    if win_moves:
        mpw = {
            "mean": statistics.fmean(win_moves),
            "median": statistics.median(win_moves),
            "min": min(win_moves),
            "max": max(win_moves),
        }
    return PlaySummary(
        games=len(records),
        estimate=est,
        ends={k: ends[k] for k in ENDS if ends[k]},
        home=home,
        home_mean=statistics.fmean(r.home for r in records) if records else 0.0,
        moves_per_win=mpw,
        seconds_per_game=statistics.fmean(r.seconds for r in records) if records else 0.0,
    )
