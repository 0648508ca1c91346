"""Klaver 2022's special FreeCell starting layouts: one suit, or one colour, dealt as deep as possible.

**What the thesis states** (Klaver 2022, section 5.4, the paragraph after Figure 19; Figure 19 is the lost
13-card state with the King of clubs on the Ace of clubs): "putting all the cards from one suit as deep as
possible with the King covering the Ace" gives "zero out of a million games being unsolvable, contrasted
with about twelve games out of a million being unsolvable with the default layout"; and "all the suits of
one colour as deep as possible. One suit is placed down in order, with the King above the Ace. Then the
other suit of the same colour is placed in order on top of those cards, with the King above the Ace" gives
"eighty-five out of a million, however none of those unsolvable games reached a higher target number than
the highest from the default games" (the default games' highest targets are Figure 20).

**What we had to choose** (the thesis names no suit, fill order or shuffle):

- *Deep positions*: the standard deal's places ordered by depth, then stack: the bottom row (depth 0,
  stacks 0..7), then depth 1, and so on (row-major, the order in which FreeCell deals its cards). A layout's
  fixed cards take the first of these places in order: one suit's Ace..King fills the bottom row with
  Ace..8 (stacks 0-7) and depth 1 of stacks 0-4 with 9..King: laid down in order, so the King lies above
  the Ace's row ("in order, with the King above the Ace") and covers the 5 (stack 4); the 9 covers the
  Ace. The thesis's "King covering the Ace" could also mean the King directly on its Ace (Figure 19's
  pair); we keep the plain rank order the colour layout's description spells out, for both layouts. The
  colour layout continues with the second suit at the next places: its Ace..3 at depth 1 of stacks 5-7,
  4..J at depth 2, Q and K at depth 3 of stacks 0-1. Filling stack by stack is not offered: it is not
  "as deep as possible" (one suit would stand in two stacks, 7 and 6 deep).
- *The other reading* is offered as ``suit-deep-king-on-ace`` and ``colour-deep-king-on-ace``
  (``king_on_ace``): each suit takes the same places, its King on the place directly above its Ace and
  2..Q at its other places in order (clubs: A, 2..8 along the bottom row, K on the A, 9..Q at depth 1 of
  stacks 1-4; spades: A at depth 1 of stack 5, K on it, 2..Q at the rest). For one suit this is the frame
  the thesis kept fixed in its maximal-lost-game search ("the top row of cards that all have the same
  suit, and the King on top of the Ace", :func:`patience.analysis.freecell_lost.klaver_frame`).
- *Suits*: clubs for one suit (Figure 19's suit), clubs then spades for one colour. FreeCell's rules treat
  the suits alike (a colour swap or a suit swap within a colour maps deals to deals of the same verdict and
  highest target), so the choice changes which deals are drawn, not the rates.
- *The rest*: the other cards (in suit, then rank order) shuffled uniformly by our portable Fisher-Yates
  (:func:`patience.rng.shuffle_in_place` over ``stream(seed, "klaver-layout:<name>")``) and dealt into
  the places the fixed cards leave, stack by stack (:func:`patience.analysis.freecell_lost.framed_deal`;
  after a uniform shuffle any fixed fill order gives the same distribution), so deal ``seed`` of a layout
  is the same on every machine.

The census (:func:`run_layout_census`) is :func:`patience.analysis.freecell_census.run_census` over seeds
``first..first+n-1`` with :class:`BoardFilter` as its filter (``fc-solve -l lg`` on each board, one process a
board, about 2 ms; its "solved" skips a board, its "unsolved" or "intractable" makes a candidate) and our
complete search as the verdict on every candidate (``dfs-jit``, then ``planning``), so "lost" means
UNSOLVABLE from our search, and a lost deal's highest target is exact.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..cards import Card
from .freecell_census import Census, FilterError, FilterMissing, Summary, run_census
from .freecell_lost import Config, Pos, _instance, _shape, framed_deal

if TYPE_CHECKING:
    import random

    from ..instance import Instance

__all__ = [
    "KLAVER_SPECIAL",
    "LAYOUTS",
    "BadPreset",
    "BoardFilter",
    "SpecialLayout",
    "deal_layout",
    "deep_places",
    "layout_frame",
    "open_census",
    "run_layout_census",
]

SOLVER = "fc-solve"
STANDARD = Config()


@dataclass(frozen=True)
class SpecialLayout:
    """A starting layout: ``suits`` (in this order, each Ace..top rank) at the deepest places, the rest
    shuffled; no suits is the default layout (every card shuffled). ``king_on_ace``: each suit's top rank
    directly on its Ace, the other ranks in order at the suit's other places. ``klaver``: the key of the
    thesis's figure for it in :data:`KLAVER_SPECIAL`."""

    name: str
    suits: tuple[int, ...]
    thesis: str
    king_on_ace: bool = False
    klaver: str = ""

    def __post_init__(self) -> None:
        if len(set(self.suits)) != len(self.suits):
            raise ValueError(f"layout {self.name}: a suit twice in {self.suits}")
        if not self.klaver:
            object.__setattr__(self, "klaver", self.name)


LAYOUTS: dict[str, SpecialLayout] = {
    "default": SpecialLayout("default", (), "every card shuffled (Klaver's 'default layout')"),
    "suit-deep": SpecialLayout(
        "suit-deep", (0,), "clubs A..K at the deepest places (Klaver: one suit as deep as possible)"
    ),
    "colour-deep": SpecialLayout(
        "colour-deep",
        (0, 3),
        "clubs A..K, then spades A..K, deepest (Klaver: one colour as deep as possible)",
    ),
    "suit-deep-king-on-ace": SpecialLayout(
        "suit-deep-king-on-ace",
        (0,),
        "clubs deepest, the King directly on the Ace (Klaver: 'with the King covering the Ace')",
        king_on_ace=True,
        klaver="suit-deep",
    ),
    "colour-deep-king-on-ace": SpecialLayout(
        "colour-deep-king-on-ace",
        (0, 3),
        "clubs, then spades, deepest, each King directly on its Ace (Klaver: one colour as deep as possible)",
        king_on_ace=True,
        klaver="colour-deep",
    ),
}

KLAVER_SPECIAL: dict[str, tuple[int, int, str]] = {  # labelled comparison values only, never results
    "default": (136, 11_000_000, "Klaver 2022, Figure 20: default layout, random deals"),
    "suit-deep": (
        0,
        1_000_000,
        "Klaver 2022, section 5.4: one suit as deep as possible, 'zero out of a million'",
    ),
    "colour-deep": (
        85,
        1_000_000,
        "Klaver 2022, section 5.4: one colour as deep as possible, 'eighty-five out of a million'",
    ),
}


def deep_places(cfg: Config = STANDARD) -> list[Pos]:
    """Every place of the deal as (stack, depth from the bottom), deepest first, then by stack."""
    shape = _shape(cfg)
    return sorted(((s, d) for s, h in enumerate(shape) for d in range(h)), key=lambda p: (p[1], p[0]))


def layout_frame(layout: SpecialLayout, cfg: Config = STANDARD) -> dict[Pos, Card]:
    """The layout's fixed cards at their places: its suits' Ace..top rank, suit after suit, at the
    deepest places (:func:`deep_places`)."""
    if any(not 0 <= s < cfg.suits for s in layout.suits):
        raise ValueError(f"layout {layout.name}: suits {layout.suits} outside 0..{cfg.suits - 1}")
    places = deep_places(cfg)
    if len(layout.suits) * cfg.ranks > len(places):
        raise ValueError(
            f"layout {layout.name}: {len(layout.suits)} suits do not fit in {len(places)} places"
        )
    frame: dict[Pos, Card] = {}
    for i, suit in enumerate(layout.suits):
        mine = places[i * cfg.ranks : (i + 1) * cfg.ranks]
        ranks = list(range(1, cfg.ranks + 1))
        if layout.king_on_ace:
            on_ace = (mine[0][0], mine[0][1] + 1)
            if on_ace not in mine[1:]:
                raise ValueError(f"layout {layout.name}: no place for suit {suit}'s top rank on its Ace")
            mine = [mine[0], on_ace] + [p for p in mine[1:] if p != on_ace]
            ranks = [1, cfg.ranks, *range(2, cfg.ranks)]
        frame.update((p, Card(r, suit)) for p, r in zip(mine, ranks, strict=True))
    return frame


class _Portable:
    """``rng.shuffle`` by our portable Fisher-Yates, for :func:`framed_deal`."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def shuffle(self, items: list[Any]) -> None:
        from ..rng import shuffle_in_place

        shuffle_in_place(self.rng, items)


def deal_layout(layout: SpecialLayout, seed: int, cfg: Config = STANDARD) -> Instance:
    """Deal ``seed`` of ``layout``: the fixed cards at their places, the others shuffled by our rng
    (module docstring)."""
    from ..rng import stream

    rng = _Portable(stream(seed, f"klaver-layout:{layout.name}"))
    piles = framed_deal(cfg, rng, layout_frame(layout, cfg))  # type: ignore[arg-type]
    return _instance(cfg, piles, {"study": "Klaver 2022 special layout", "layout": layout.name, "seed": seed})


# The filter ---------------------------------------------------------------------------------------------
_SOLVED = "This game is solveable."
_NOT = ("I could not solve this game.", "Iterations count exceeded.")


@dataclass(frozen=True)
class BoardFilter:
    """``fc-solve -l PRESET`` on each board a dealer deals: its unsolved and intractable boards are the
    census's candidates (its "solved" prints a solution, so it is a win; its "unsolved" is not a proof)."""

    layout: SpecialLayout
    preset: str = "lg"

    def __post_init__(self) -> None:
        if shutil.which(SOLVER) is None:
            raise FilterMissing(f"{SOLVER}: not installed (Debian: apt-get install freecell-solver-bin)")

    @property
    def name(self) -> str:
        """How the filter is run and on which boards, stored with the census (a resume must match it)."""
        return f"{SOLVER} -l {self.preset} on each board of layout {self.layout.name}"

    def solves(self, board: str) -> bool:
        """Whether ``fc-solve`` solves the board text; a FilterError when it neither solves nor gives up."""
        done = subprocess.run([SOLVER, "-l", self.preset, "-"], input=board, capture_output=True, text=True,
                              env={**os.environ, "FREECELL_SOLVER_QUIET": "1"})  # fmt: skip
        tail = done.stdout[-300:]
        if done.returncode == 0 and _SOLVED in tail:
            return True
        if done.returncode == 0 and any(t in tail for t in _NOT):
            return False
        why = (done.stderr.strip().splitlines() or tail.strip().splitlines() or ["no output"])[-1]
        raise FilterError(f"{SOLVER} -l {self.preset}: exit {done.returncode}: {why}")

    def unsolved(self, first: int, last: int) -> list[int]:
        """Seeds of ``first..last`` whose boards ``fc-solve`` does not solve."""
        from ..formats import to_fcsolve

        return [n for n in range(first, last + 1) if not self.solves(to_fcsolve(deal_layout(self.layout, n)))]

    def same_deal(self, number: int) -> None:
        """The boards are ours (dealt here and given to ``fc-solve``): nothing to compare."""
        return None


# The census ---------------------------------------------------------------------------------------------
class BadPreset(ValueError):
    """The filter's preset is not one Freecell Solver knows (bad input: found before anything is written)."""


_PRESET = re.compile(r"[A-Za-z0-9_-]{1,40}")


def open_census(
    layout: SpecialLayout, path: str | Path | None, preset: str = "lg"
) -> tuple[Census, BoardFilter]:
    """The filter and the census of ``layout`` (resumed from ``path`` when it exists). A ValueError names a
    census mismatch; a BadPreset a preset ``fc-solve`` does not know, found by one run on seed 1's board
    before anything is written."""
    if not _PRESET.fullmatch(preset):
        raise BadPreset(f"{preset!r}: expected a Freecell Solver preset name such as lg")
    dfilter = BoardFilter(layout, preset)
    from ..formats import to_fcsolve

    try:
        dfilter.solves(to_fcsolve(deal_layout(layout, 1)))
    except FilterError as err:
        raise BadPreset(f"{preset!r}: {err}") from None
    study = f"Klaver 2022 section 5.4: lost FreeCell deals of layout {layout.name} ({layout.thesis}), by seed"
    if path is None:
        return Census(dfilter.name, study=study), dfilter
    return Census.load(path, dfilter.name, "dfs-jit", study), dfilter


def run_layout_census(census: Census, dfilter: BoardFilter, first: int, n: int, seconds: float,
                      chunk: int = 2000, workers: int = 1,
                      progress: Callable[[str, int, int], None] | None = None) -> Summary:  # fmt: skip
    """Census of seeds ``first..first+n-1`` of the filter's layout: the filter, then our complete search on
    every candidate (:func:`patience.analysis.freecell_census.run_census` with this layout's dealer)."""
    dealer = partial(deal_layout, dfilter.layout)
    return run_census(census, first, first + n - 1, dfilter, seconds, chunk, workers, progress, dealer)


def published_rate(key: str) -> tuple[float, float, float]:
    """Klaver's figure for a layout as (per million, Wilson 95% low, high per million)."""
    from ..experiments.stats import wilson

    k, n, _ = KLAVER_SPECIAL[key]
    lo, hi = wilson(k, n)
    return 1e6 * k / n, 1e6 * lo, 1e6 * hi


def rate_p_value(k1: int, n1: int, k2: int, n2: int) -> float | None:
    """Two-sided p of equal loss rates in two samples (exact: k1 of k1+k2 losses is binomial with
    p = n1/(n1+n2) when the rates are equal); None with no losses at all."""
    if k1 + k2 == 0:
        return None
    from scipy.stats import binomtest

    return float(binomtest(k1, k1 + k2, n1 / (n1 + n2)).pvalue)


def layout_lines(s: Summary, layout: SpecialLayout, filter_name: str, seconds: float) -> list[str]:
    """The census of a layout as text: counts, lost seeds, the rate beside Klaver's, highest targets."""
    lo, hi = s.interval
    rate = 1e6 * len(s.lost) / s.scanned if s.scanned else float("nan")
    lost = ", ".join(f"{n} ({'?' if m is None else m})" for n, m in sorted(s.lost.items())) or "none"
    per = 1e3 * s.filter_seconds / s.scanned if s.scanned else float("nan")
    lines = [
        f"layout {layout.name}: {layout.thesis}",
        f"seeds {s.first}-{s.last}: {s.scanned:,} deals; filter {filter_name} ({per:.2f} ms a board); "
        f"verdicts by our complete search (dfs-jit, then planning), {seconds:g} s a candidate",
        f"filter: {len(s.candidates)} candidates; verdict: lost {len(s.lost)}, missed by the filter "
        f"(we win) {len(s.missed)}"
        + (f" {s.missed}" if s.missed else "")
        + f", undecided {len(s.undecided)}"
        + (f" {s.undecided}" if s.undecided else ""),
        f"lost seeds (highest target): {lost}",
        f"loss rate: {rate:.2f} per million, 95% [{1e6 * lo:.2f}, {1e6 * hi:.2f}]",
    ]
    for key in dict.fromkeys((layout.klaver, "default")):
        if key in KLAVER_SPECIAL:
            k, n, label = KLAVER_SPECIAL[key]
            r, plo, phi = published_rate(key)
            p = rate_p_value(len(s.lost), s.scanned, k, n)
            ptext = f", p = {p:.2g} against ours" if p is not None and s.scanned else ""
            lines.append(f"  published: {r:.2f} per million, 95% [{plo:.2f}, {phi:.2f}] "
                         f"({k} of {n:,}: {label}){ptext}")  # fmt: skip
    known = [m for m in s.lost.values() if m is not None]
    if known:
        lines.append(f"highest target of the lost deals: largest {max(known)}, histogram {s.histogram}")
    return lines
