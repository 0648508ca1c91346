"""Report helpers: cards removed per deal, and the figures from a store."""

import json

import pytest

from patience.experiments import report
from patience.experiments.report import (
    cards_removed,
    deal_set_title,
    generator_words,
    make_report,
    rules_words,
)
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


# Figures: deal sets apart, titles in words, log time axes, the backend scatter, nothing clipped -----------


def test_deal_sets_in_words() -> None:
    assert rules_words("{}") == ""
    assert rules_words(json.dumps({"cells": 2, "piles": 6})) == "6 piles, 2 free cells"
    assert generator_words("planted:8") == "planted wins, 8 swaps"
    assert generator_words("ms") == "Microsoft deals"
    title = deal_set_title(("black-hole", json.dumps({"suits": 2, "ranks": 5}), "pysol"))
    assert title == "Black Hole, 2 suits, 5 ranks: PySol deals"


def _rows() -> list[Row]:
    """Two backends on the same 12 Black Hole deals, FreeCell with 2 cells, and a planted family."""
    rows = []
    for seed in range(1, 13):
        won = seed % 4 != 0
        rows.append(Row("black-hole", "{}", "portable", seed, "dfs", 10.0, "solved" if won else "unsolvable",
                        0.001 * seed, {"max_cards_removed": 51 if won else 20 + seed}))  # fmt: skip
        status = "unknown" if seed == 5 else ("solved" if won else "unsolvable")
        rows.append(Row("black-hole", "{}", "portable", seed, "cpsat-only", 10.0, status, 0.05 * seed, {}))
        rows.append(Row("freecell", '{"cells": 2}', "portable", seed, "planning", 1.0,
                        "solved" if seed < 9 else "unknown", 0.02 * seed, {}))  # fmt: skip
        rows.append(Row("black-hole", "{}", "planted:8", seed, "dfs", 10.0, "solved", 0.002 * seed, {}))
    return rows


def _inside(fig) -> list[str]:
    """Panels whose drawn labels, ticks, titles or legend stick out of the figure: clipped ones."""
    fig.canvas.draw()
    renderer, box = fig.canvas.get_renderer(), fig.bbox
    out = []
    for ax in fig.axes:
        if ax.get_visible():
            b = ax.get_tightbbox(renderer)
            if b.x0 < box.x0 - 1 or b.x1 > box.x1 + 1 or b.y0 < box.y0 - 1 or b.y1 > box.y1 + 1:
                out.append(f"{ax.get_title(loc='left')}: {b} outside {box}")
    return out


def test_report_figures_keep_sets_apart_in_words_on_log_time_axes(tmp_path, monkeypatch) -> None:
    seen: dict[str, tuple[list[str], list]] = {}
    save = report._save

    def checking_save(fig, path):
        axes = [a for a in fig.axes if a.get_visible()]
        seen[path.name] = (
            _inside(fig),
            [(a.get_title(loc="left"), a.get_xscale(), a.get_yscale()) for a in axes],
        )
        return save(fig, path)

    monkeypatch.setattr(report, "_save", checking_save)
    written = make_report(_rows(), tmp_path)
    assert sorted(p.name for p in written) == [
        "backends.png",
        "cards_removed.png",
        "times.png",
        "winrate.png",
    ]
    assert all(p.stat().st_size > 5000 for p in written)
    for name, (clipped, _) in seen.items():
        assert clipped == [], (name, clipped)
    sets = {
        "Black Hole: portable deals",
        "Black Hole: planted wins, 8 swaps",
        "FreeCell, 2 free cells: portable deals",
    }
    titles = {t for t, *_ in seen["winrate.png"][1]}
    assert {t.replace("Freecell", "FreeCell") for t in titles} == sets and not any("{" in t for t in titles)
    assert all(x == "log" for _, x, _ in seen["times.png"][1]) and len(seen["times.png"][1]) == 3
    # the scatter: one panel, for the one set with two backends on the same deals, log-log
    ((title, xs, ys),) = seen["backends.png"][1]
    assert title.startswith("Black Hole: portable deals\n12 deals") and xs == ys == "log"


@pytest.mark.parametrize("backends", [("dfs",), ("dfs", "cpsat-only")])
def test_backend_scatter_only_with_two_backends_on_the_same_deals(tmp_path, backends) -> None:
    rows = [
        r for r in _rows() if r.generator == "portable" and r.game == "black-hole" and r.backend in backends
    ]
    names = {p.name for p in make_report(rows, tmp_path)}
    assert ("backends.png" in names) == (len(backends) == 2)
