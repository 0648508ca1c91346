"""Figures from a results store, as PNG files (matplotlib, Agg backend).

Games, rule overrides and generators are kept apart: every figure has one panel per deal set (game, rule
overrides, generator), titled in words (``Black Hole, 2 suits, 5 ranks: portable deals``), and within a
panel one line per backend and time limit. Time axes are logarithmic.

* ``winrate.png``: the win rate of each backend and limit with its conservative Wilson 95% interval
  (the text of :meth:`~.stats.Estimate.text`), and the published rate of the game where one exists.
* ``times.png``: the distribution of solve times per backend (log scale).
* ``backends.png``: per deal, backend A's seconds against backend B's (log-log, the diagonal is equal time),
  coloured by verdicts: both won, both lost, one undecided, or a conflict. Only with two backends or more
  on the same deals.
* ``cards_removed.png``: per game, a histogram of the most cards removed to the foundation
  (stats ``max_cards_removed`` or ``best_foundation``; solved deals count the whole deck), the bimodal
  plot of Wolter's Black Hole study. Only written when some row carries such a stat.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Any

from ..deals import DealError, deal
from ..rules import RuleError, load_game
from .runner import summarize
from .store import Row

__all__ = [
    "CARDS_STATS",
    "cards_removed",
    "deal_set_title",
    "group_rows",
    "label",
    "make_report",
    "rules_words",
]

CARDS_STATS = ("max_cards_removed", "best_foundation")

GroupKey = tuple[str, str, str, str, float]


def group_rows(rows: list[Row]) -> dict[GroupKey, list[Row]]:
    """Rows by (game, rules, generator, backend, limit_s)."""
    out: dict[GroupKey, list[Row]] = defaultdict(list)
    for r in rows:
        out[(r.game, r.rules, r.generator, r.backend, r.limit_s)].append(r)
    return dict(out)


SetKey = tuple[str, str, str]  # (game, rules, generator): one set of deals

# Rule parameters in words: short name -> (words before the value, words after it).
_WORDS: dict[str, tuple[str, str]] = {
    "suits": ("", "suits"),
    "ranks": ("", "ranks"),
    "decks": ("", "decks"),
    "piles": ("", "piles"),
    "cells": ("", "free cells"),
    "reserve": ("reserve of", ""),
    "stock": ("stock of", ""),
    "draw": ("draw", ""),
    "redeals": ("", "redeals"),
    "holes": ("", "holes"),
    "rows": ("", "rows"),
    "build": ("build", ""),
    "wrap": ("wrap", ""),
}
_GENERATORS = {
    "portable": "portable deals",
    "pysol": "PySol deals",
    "ms": "Microsoft deals",
    "solvitaire": "Solvitaire deals",
    "planted": "planted wins",
    "sorted": "sorted decks",
    "random": "random family",
}


def game_words(game: str) -> str:
    """``black-hole`` -> ``Black Hole``."""
    return " ".join(w.capitalize() for w in game.split("-"))


def rules_words(rules: str) -> str:
    """Rule overrides (the store's canonical JSON) in words, in the order ``--set`` lists them:
    ``{"cells": 2, "piles": 6}`` -> ``6 piles, 2 free cells``; a dotted path is written
    ``tableau.empty kings``.

    >>> rules_words('{"cells": 2, "piles": 6, "tableau.empty": "kings"}')
    '6 piles, 2 free cells, tableau.empty kings'
    """
    parts = []
    order = list(_WORDS)  # deck first, then the layout, as --set lists them; dotted paths last
    for k, v in sorted(
        json.loads(rules).items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order else 99, kv[0])
    ):
        value = {True: "yes", False: "no"}.get(v, v) if isinstance(v, bool) else v
        before, after = _WORDS.get(k, (k, ""))
        parts.append(" ".join(str(x) for x in (before, value, after) if x != ""))
    return ", ".join(parts)


def generator_words(generator: str) -> str:
    """``planted:8`` -> ``planted wins, 8 swaps``; ``pysol`` -> ``PySol deals``."""
    name, _, swaps = generator.partition(":")
    words = _GENERATORS.get(name, f"{name} deals")
    return f"{words}, {swaps} swaps" if swaps else words


def deal_set_title(key: SetKey) -> str:
    """A panel title: ``Black Hole, 2 suits, 5 ranks: portable deals``."""
    game, rules, generator = key
    extra = rules_words(rules)
    return f"{game_words(game)}{', ' + extra if extra else ''}: {generator_words(generator)}"


def label(key: GroupKey) -> str:
    """One group in words: its deal set, backend and time limit."""
    return f"{deal_set_title(key[:3])} · {key[3]}, {key[4]:g} s limit"


def _removable(row: Row) -> int | None:
    """Cards a win moves to the foundations: those not already there in the deal of ``row``."""
    try:
        inst = deal(row.game, row.seed, row.generator, json.loads(row.rules) or None)
    except (DealError, RuleError):
        return None
    lay = inst.layout
    grid = sum(c is not None for r in lay.grid for c in r)
    cells = sum(c is not None for c in lay.cells)
    return sum(map(len, lay.tableau)) + cells + len(lay.reserve) + len(lay.stock) + len(lay.waste) + grid


def cards_removed(rows: list[Row]) -> list[int]:
    """Cards removed per deal: the stat when present; a solved deal without it counts every card it had
    to move (all 51 in Black Hole)."""
    out = []
    sizes: dict[tuple[str, str, str], int | None] = {}
    for r in rows:
        v = next((r.stats[k] for k in CARDS_STATS if k in r.stats), None)
        if v is None and r.status == "solved":
            key = (r.game, r.rules, r.generator)
            if key not in sizes:  # the same for every deal of a game and its rules
                sizes[key] = _removable(r)
            v = sizes[key]
        if v is not None:
            out.append(int(v))
    return out


def _reference(game: str, rules: str, generator: str = "portable") -> float | None:
    """The game's published win rate, for its own rules and deals dealt at random (not a family's)."""
    from ..families import FAMILIES

    if json.loads(rules) or generator.partition(":")[0] in FAMILIES:
        return None
    try:
        return load_game(game).file.reference.win_rate
    except (RuleError, AttributeError):
        return None


def _sets(rows: list[Row]) -> dict[SetKey, list[Row]]:
    out: dict[SetKey, list[Row]] = defaultdict(list)
    for r in rows:
        out[(r.game, r.rules, r.generator)].append(r)
    return dict(sorted(out.items()))


def make_report(rows: list[Row], out_dir: str | Path) -> list[Path]:
    """Write the PNG figures for ``rows`` into ``out_dir``; returns the files written."""
    import matplotlib

    matplotlib.use("Agg")

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if not rows:
        return []
    sets = _sets(rows)
    written = [_winrate(sets, out / "winrate.png"), _times(sets, out / "times.png")]
    written += [
        p for p in (_backends(sets, out / "backends.png"), _cards(sets, out / "cards_removed.png")) if p
    ]
    return written


def _figure(panels: int, height: float, width: float = 9.0) -> tuple[Any, list[Any]]:
    """A figure of ``panels`` stacked panels, laid out so no label is clipped."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(panels, 1, figsize=(width, height), squeeze=False, layout="constrained")
    return fig, list(axes[:, 0])


def _winrate(sets: dict[SetKey, list[Row]], path: Path) -> Path:
    """One panel per deal set, one interval per backend and limit, the published rate beside."""
    runs = {key: group_rows(rs) for key, rs in sets.items()}
    fig, axes = _figure(len(sets), sum(1.0 + 0.5 * len(g) for g in runs.values()) + 0.6)
    for ax, (key, groups) in zip(axes, runs.items(), strict=True):
        keys = sorted(groups)
        for i, g in enumerate(keys):
            s = summarize(groups[g])
            lo, hi = s.estimate.percent(1)
            mid = s.estimate.decided_rate
            x = 100 * mid if mid is not None else (lo + hi) / 2
            ax.errorbar([x], [i], xerr=[[x - lo], [hi - x]], fmt="o", color="C0", capsize=4)
            unknown = f", {s.estimate.unknowns} undecided" if s.estimate.unknowns else ""
            text = f"{s.estimate.text()} of {s.n} deals{unknown}"
            ax.annotate(text, (50, i), xytext=(0, 7), textcoords="offset points", ha="center", fontsize=8)
        ref = _reference(*key)
        if ref is not None:
            ax.axvline(ref, color="C3", linewidth=1.2, label=f"published {ref:g}%")
            ax.legend(fontsize=8, loc="lower left")
        ax.set_yticks(range(len(keys)), [f"{g[3]}, {g[4]:g} s" for g in keys], fontsize=9)
        ax.set_ylim(-0.6, len(keys) - 0.2)
        ax.set_xlim(0, 100)
        ax.set_title(deal_set_title(key), fontsize=10, loc="left")
        ax.grid(axis="x", alpha=0.3)
    axes[-1].set_xlabel("win rate % (conservative Wilson 95% interval: undecided deals as losses / wins)")
    return _save(fig, path)


def _times(sets: dict[SetKey, list[Row]], path: Path) -> Path:
    """One panel per deal set: the solve-time distribution of each backend and limit, log-spaced bins."""
    import numpy as np
    from matplotlib.ticker import MaxNLocator

    fig, axes = _figure(len(sets), 0.4 + 2.8 * len(sets), 8.0)
    for ax, (key, rs) in zip(axes, sets.items(), strict=True):
        times = [r.seconds for r in rs if r.seconds is not None and r.seconds > 0]
        if not times:
            ax.text(0.5, 0.5, "no times recorded", ha="center", transform=ax.transAxes)
        else:
            lo, hi = max(min(times), 1e-5), max(max(times), 1e-4)
            bins = np.logspace(math.log10(lo) - 0.05, math.log10(hi) + 0.05, 40)
            for (*_, backend, limit_s), g in sorted(group_rows(rs).items()):
                ts = [r.seconds for r in g if r.seconds is not None and r.seconds > 0]
                if ts:
                    med = float(np.median(ts))
                    name = f"{backend}, {limit_s:g} s limit (n={len(ts)}, median {med:.3g} s)"
                    ax.hist(ts, bins=bins, histtype="step", linewidth=1.6, label=name)
            ax.legend(fontsize=8)
        ax.set_xscale("log")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel("deals")
        ax.set_title(deal_set_title(key), fontsize=10, loc="left")
    axes[-1].set_xlabel("seconds per deal (log scale)")
    return _save(fig, path)


_VERDICT_COLOURS = {
    "both won": "C2",
    "both lost": "C0",
    "undecided by one or both": "0.6",
    "conflict": "C3",
}


def _verdict(a: str, b: str) -> str:
    decided = {"solved", "unsolvable"}
    if a in decided and b in decided:
        return "conflict" if a != b else ("both won" if a == "solved" else "both lost")
    return "undecided by one or both"


def _backends(sets: dict[SetKey, list[Row]], path: Path) -> Path | None:
    """Per deal, the seconds of backend A against backend B, for every pair of backends on a deal set."""
    from itertools import combinations

    pairs = []
    for key, rs in sets.items():
        by: dict[str, dict[int, Row]] = defaultdict(dict)
        for r in rs:
            if r.seconds is not None:
                by[f"{r.backend} ({r.limit_s:g} s)"][r.seed] = r
        for a, b in combinations(sorted(by), 2):
            seeds = sorted(set(by[a]) & set(by[b]))
            if seeds:
                pairs.append((key, a, b, [(by[a][s], by[b][s]) for s in seeds]))
    if not pairs:
        return None
    cols = min(2, len(pairs))
    nrows = math.ceil(len(pairs) / cols)
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(
        nrows, cols, figsize=(5.2 * cols, 4.6 * nrows), squeeze=False, layout="constrained"
    )
    flat = list(axes.flat)
    for ax, (key, a, b, deals) in zip(flat, pairs, strict=False):
        xs = [max(ra.seconds, 1e-4) for ra, _ in deals]
        ys = [max(rb.seconds, 1e-4) for _, rb in deals]
        kinds = [_verdict(ra.status, rb.status) for ra, rb in deals]
        for kind, colour in _VERDICT_COLOURS.items():
            pts = [(x, y) for x, y, k in zip(xs, ys, kinds, strict=True) if k == kind]
            if pts:
                ax.scatter(
                    *zip(*pts, strict=True), s=14, color=colour, alpha=0.75, label=f"{kind} ({len(pts)})"
                )
        lo, hi = min(xs + ys) / 1.5, max(xs + ys) * 1.5
        ax.plot([lo, hi], [lo, hi], color="k", linewidth=0.8, linestyle="--", label="equal time")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
        ax.set_aspect("equal")
        ax.set_xlabel(f"{a}: seconds")
        ax.set_ylabel(f"{b}: seconds")
        ax.set_title(f"{deal_set_title(key)}\n{len(deals)} deals", fontsize=9, loc="left")
        ax.legend(fontsize=7, loc="upper left")
    for ax in flat[len(pairs) :]:
        ax.set_visible(False)
    return _save(fig, path)


def _cards(sets: dict[SetKey, list[Row]], path: Path) -> Path | None:
    """Cards removed, per deal set, pooling backends (one row per deal, preferring one with the stat)."""
    import numpy as np

    panels = []
    for key, rs in sets.items():
        if any(k in r.stats for r in rs for k in CARDS_STATS):
            best: dict[int, Row] = {}
            for r in rs:
                if r.seed not in best or any(s in r.stats for s in CARDS_STATS):
                    best[r.seed] = r
            values = cards_removed(list(best.values()))
            if values:
                panels.append((key, values))
    if not panels:
        return None
    fig, axes = _figure(len(panels), 0.4 + 2.8 * len(panels), 8.0)
    for ax, (key, values) in zip(axes, panels, strict=True):
        ax.hist(values, bins=np.arange(-0.5, max(values) + 1.5, 1), color="C2")
        ax.set_yscale("log")
        ax.set_ylabel("deals")
        ax.set_title(f"{deal_set_title(key)} ({len(values)} deals)", fontsize=10, loc="left")
    axes[-1].set_xlabel("most cards removed to the foundation")
    return _save(fig, path)


def _save(fig: Any, path: Path) -> Path:
    import matplotlib.pyplot as plt

    tmp = path.with_name(f".{path.name}.tmp.png")
    fig.savefig(tmp, dpi=110)
    plt.close(fig)
    tmp.replace(path)
    return path
