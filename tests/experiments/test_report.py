"""Report helpers: cards removed per deal, and the figures from a store."""

from patience.experiments.report import cards_removed, make_report
from patience.experiments.store import Row


def _row(game, status, seed=1, **stats):
    return Row(game, "{}", "portable", seed, "x", 1.0, status, 0.01 * seed, stats)


def test_cards_removed_uses_stats_and_counts_wins_fully():
    rows = [
        _row("black-hole", "solved"),  # the Ace of Spades starts in the hole: 51 cards to move
        _row("freecell", "solved"),
        _row("black-hole", "unsolvable", max_cards_removed=30),
        _row("black-hole", "unknown", best_foundation=12),
        _row("black-hole", "unknown"),  # no stat, no verdict: left out
    ]
    assert cards_removed(rows) == [51, 52, 30, 12]


def test_report_skips_cards_plot_without_stats(tmp_path):
    rows = [_row("black-hole", s, seed=i) for i, s in enumerate(["solved", "unsolvable", "unknown"], 1)]
    written = make_report(rows, tmp_path)
    assert sorted(p.name for p in written) == ["times.png", "winrate.png"]
    assert make_report([], tmp_path / "empty") == []
