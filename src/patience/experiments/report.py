"""Figures from a results store, as PNG files (matplotlib, Agg backend).

* ``winrate.png``: the win rate of each (game, rules, generator, backend, limit) group with its
  conservative Wilson 95% interval, and the published rate of the game where one exists.
* ``times.png``: the distribution of solve times per backend (log scale).
* ``cards_removed.png``: per game, a histogram of the most cards removed to the foundation
  (stats ``max_cards_removed`` or ``best_foundation``; solved deals count the whole deck), the bimodal
  plot of Wolter's Black Hole study. Only written when some row carries such a stat.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from ..deals import DealError, deal
from ..rules import RuleError, load_game
from .runner import summarize
from .store import Row

__all__ = ["CARDS_STATS", "cards_removed", "group_rows", "label", "make_report"]

CARDS_STATS = ("max_cards_removed", "best_foundation")

GroupKey = tuple[str, str, str, str, float]


def group_rows(rows: list[Row]) -> dict[GroupKey, list[Row]]:
    """Rows by (game, rules, generator, backend, limit_s)."""
    out: dict[GroupKey, list[Row]] = defaultdict(list)
    for r in rows:
        out[(r.game, r.rules, r.generator, r.backend, r.limit_s)].append(r)
    return dict(out)


def label(key: GroupKey) -> str:
    game, rules, generator, backend, limit_s = key
    ov = json.loads(rules)
    extra = " " + ",".join(f"{k}={v}" for k, v in sorted(ov.items())) if ov else ""
    return f"{game}{extra} · {backend} {limit_s:g}s · {generator}"


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


def _reference(game: str, rules: str) -> float | None:
    if json.loads(rules):
        return None
    try:
        return load_game(game).file.reference.win_rate
    except (RuleError, AttributeError):
        return None


def make_report(rows: list[Row], out_dir: str | Path) -> list[Path]:
    """Write the PNG figures for ``rows`` into ``out_dir``; returns the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    groups = group_rows(rows)
    if not groups:
        return written

    # Win rate with conservative intervals, one line per group.
    keys = sorted(groups)
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.45 * len(keys)))
    refs_drawn: set[str] = set()
    for i, key in enumerate(keys):
        s = summarize(groups[key])
        lo, hi = s.estimate.percent()
        mid = s.estimate.decided_rate
        x = 100 * mid if mid is not None else (lo + hi) / 2
        ax.errorbar([x], [i], xerr=[[x - lo], [hi - x]], fmt="o", color="C0", capsize=4)
        ax.annotate(
            f"n={s.n}, ?={s.estimate.unknowns}",
            (hi, i),
            xytext=(6, -3),
            textcoords="offset points",
            fontsize=8,
        )
        ref = _reference(key[0], key[1])
        if ref is not None:
            ax.plot(
                [ref],
                [i],
                marker="|",
                markersize=18,
                color="C3",
                label=None if key[0] in refs_drawn else f"{key[0]} published {ref:g}%",
            )
            refs_drawn.add(key[0])
    ax.set_yticks(range(len(keys)), [label(k) for k in keys], fontsize=8)
    ax.set_xlabel("win rate % (conservative Wilson 95% interval; unknowns as losses / wins)")
    ax.set_ylim(-0.7, len(keys) - 0.3)
    ax.margins(x=0.12)
    if refs_drawn:
        ax.legend(fontsize=8, loc="best")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    written.append(_save(fig, out / "winrate.png"))

    # Time distribution per backend (log-spaced bins).
    import numpy as np

    by_backend: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        if r.seconds is not None and r.seconds > 0:
            by_backend[r.backend].append(r.seconds)
    if by_backend:
        fig, ax = plt.subplots(figsize=(8, 4.5))
        allt = [t for ts in by_backend.values() for t in ts]
        lo, hi = max(min(allt), 1e-5), max(max(allt), 1e-4)
        bins = np.logspace(np.log10(lo) - 0.05, np.log10(hi) + 0.05, 40)
        for b, ts in sorted(by_backend.items()):
            med = float(np.median(ts))
            ax.hist(
                ts, bins=bins, histtype="step", linewidth=1.6, label=f"{b} (n={len(ts)}, median {med:.3g}s)"
            )
        ax.set_xscale("log")
        ax.set_xlabel("seconds per deal")
        ax.set_ylabel("deals")
        ax.set_title("solve time per backend")
        ax.legend(fontsize=8)
        fig.tight_layout()
        written.append(_save(fig, out / "times.png"))

    # Cards removed, per game (and rules), pooling backends.
    per_game: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for r in rows:
        per_game[(r.game, r.rules)].append(r)
    panels = []
    for (game, rules), rs in sorted(per_game.items()):
        if any(k in r.stats for r in rs for k in CARDS_STATS):
            # One row per deal: prefer a row that carries the stat.
            best: dict[tuple[str, int], Row] = {}
            for r in rs:
                k = (r.generator, r.seed)
                if k not in best or any(s in r.stats for s in CARDS_STATS):
                    best[k] = r
            panels.append((game, rules, cards_removed(list(best.values()))))
    if panels:
        fig, axes = plt.subplots(len(panels), 1, figsize=(8, 3.2 * len(panels)), squeeze=False)
        for ax, (game, rules, values) in zip(axes[:, 0], panels, strict=True):
            top = max(values)
            ax.hist(values, bins=np.arange(-0.5, top + 1.5, 1), color="C2")
            ax.set_yscale("log")
            ax.set_xlabel("most cards removed to the foundation")
            ax.set_ylabel("deals")
            ov = json.loads(rules)
            ax.set_title(f"{game}{' ' + json.dumps(ov) if ov else ''}: {len(values)} deals")
        fig.tight_layout()
        written.append(_save(fig, out / "cards_removed.png"))
    return written


def _save(fig: Any, path: Path) -> Path:
    import matplotlib.pyplot as plt

    tmp = path.with_name(f".{path.name}.tmp.png")
    fig.savefig(tmp, dpi=110)
    plt.close(fig)
    tmp.replace(path)
    return path
