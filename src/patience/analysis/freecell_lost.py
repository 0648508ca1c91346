"""Klaver 2022's FreeCell lost-game research: highest target reached, maximal lost games, fewest free cells.

Configurations are Klaver's ``stacks-ranks-suits-cells`` (``5-7-4-2``: five stacks, seven ranks, four suits,
two free cells; ``8-13-4-4`` is the standard game), played by our ``freecell`` model with ``--set
piles=... ranks=... suits=... cells=...``: single-card moves, no worrying back, any card to a space, as the
thesis's program (a supermove is a sequence of single moves, so it reaches no other state).

**Highest target reached** of a lost deal (Klaver's Figures 20-21): the most cards on the foundations over
every state reachable from the deal. It is the ``max_cards`` a complete ``dfs`` / ``dfs-jit`` search reports
with an UNSOLVABLE verdict. That figure is exact for FreeCell: the search visits every state the proven
dominances leave, and the only dominance that applies to FreeCell, ``safe_home``, keeps the most cards home
(its proof in :mod:`patience.solvers.dominance` turns any play into one with at least as many cards home at
every step); ``partial_pile``, the one dominance that loses it, needs group moves and no free cells, so it
never applies here (the backends report no ``max_cards`` when it fires). The tests compare it with a
breadth-first search of every state, no dominance at all, on small deals.

**Upper bound** of a lost game's highest target (:func:`upper_bound`): ``suits x ranks - stacks - cells - 1``.
Proof: with at most ``stacks + cells`` cards in play some stack or cell is empty whenever some stack holds
two cards or more, so the top card of such a stack can move there; repeating this spreads the cards one to a
place, every card is then free and they all go home in rank order. So a lost state keeps at least
``stacks + cells + 1`` cards in play. (The thesis writes the bound as ``suits x ranks - (stacks + cells)`` but
quotes 39 for the standard game, which is this bound; its maximal lost games, ``8-10-4-1`` with 30 cards
home, reach this one.) A **maximal lost game** is a lost deal whose highest target is the bound.

**Maximal lost game search** (:func:`anneal`): Klaver's "simulated annealing like" card swaps. The deal keeps
Klaver's fixed frame (the bottom row one suit in rank order, Ace first, that suit's top card on its Ace:
no card of that suit goes home before the top card leaves the Ace for a free cell or space, which is how a
maximal lost game ends, that suit's cards filling every place). Each step tries ``candidates`` random swaps
of two other cards (``scan``: more, until one beats the current deal, as Klaver tried most of them), scores
each by a complete search (lost: its highest target; won or undecided within the limit: not a candidate),
and makes the best lost swap, or now and then (``explore``) one of the next best score, so it can leave a
local maximum (even when the best swap is worse than the deal it has); after ``stall`` steps without
progress it returns to the best deal found. It stops at the bound. On 8-10-4-1 and 6-10-4-3 it stalls
far below the bound (20 and 15 of 30 in nine minutes); :mod:`.freecell_unwind` deals the final blocked
position backwards keeping every state lost instead (``benchmarks/out/klaver_unwind.md``).

**Fewest free cells** (:func:`fewest_cells`): the deal solved with ``cells = 0, 1, 2, ...`` until it is won
(more cells never lose a won deal: the extra cells may stay empty).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from ..deals import deal
from ..instance import Instance, Layout
from ..solvers.base import Limits, Status, solve

__all__ = [
    "AnnealResult",
    "CellsAnswer",
    "Config",
    "Survey",
    "Verdict",
    "anneal",
    "fewest_cells",
    "highest_target",
    "klaver_frame",
    "start_frame",
    "survey",
    "upper_bound",
    "with_cells",
]

DEFAULT_BACKEND = "dfs-jit"
"""The compiled dfs: same search and node counts as ``dfs``, ten times faster on FreeCell."""

Progress = Callable[[int, int], None]  # (done, total)


@dataclass(frozen=True)
class Config:
    """A FreeCell configuration in Klaver's order: stacks, ranks (cards per suit), suits, free cells."""

    stacks: int = 8
    ranks: int = 13
    suits: int = 4
    cells: int = 4

    def __post_init__(self) -> None:
        for name in ("stacks", "ranks", "suits"):
            if getattr(self, name) < 1:
                raise ValueError(f"config: {name} must be at least 1, got {getattr(self, name)}")
        if self.cells < 0:
            raise ValueError(f"config: cells must be at least 0, got {self.cells}")

    @classmethod
    def parse(cls, text: str) -> Config:
        """``"5-7-4-2"`` (stacks-ranks-suits-cells) -> Config; a ValueError names what is wrong."""
        parts = text.strip().split("-")
        if len(parts) != 4 or not all(p.isdigit() and len(p) <= 4 for p in parts):
            raise ValueError(f"config {text!r}: expected STACKS-RANKS-SUITS-CELLS, e.g. 5-7-4-2")
        return cls(*(int(p) for p in parts))

    @property
    def label(self) -> str:
        """Klaver's name for it: ``stacks-ranks-suits-cells``."""
        return f"{self.stacks}-{self.ranks}-{self.suits}-{self.cells}"

    @property
    def cards(self) -> int:
        """Cards in the deck."""
        return self.suits * self.ranks

    @property
    def overrides(self) -> dict[str, int]:
        """Rule overrides of the ``freecell`` model (``--set``)."""
        return {"piles": self.stacks, "ranks": self.ranks, "suits": self.suits, "cells": self.cells}

    @classmethod
    def of(cls, instance: Instance) -> Config:
        """The configuration of a freecell-family instance."""
        r = instance.rules
        return cls(r.tableau.piles, r.deck.ranks, r.deck.suits, r.cells.count)


def upper_bound(cfg: Config) -> int:
    """Most cards a lost game can have home: ``suits x ranks - stacks - cells - 1`` (proof: module doc)."""
    return max(cfg.cards - cfg.stacks - cfg.cells - 1, 0)


# One deal --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Verdict:
    """One deal's verdict; ``most`` is its exact highest target when lost (None otherwise)."""

    seed: int | None
    status: str  # solved, unsolvable, unknown, ...
    most: int | None
    nodes: int
    seconds: float


_WARMED: set[str] = set()


def warm(backend: str) -> None:
    """Load the backend's compiled kernel once per process on a tiny deal, so that loading (seconds,
    tens of seconds when numba compiles) does not eat the first real deal's time limit."""
    if backend not in _WARMED:
        solve(deal("freecell", 1, overrides={"ranks": 3}), backend, Limits(seconds=600))
        _WARMED.add(backend)


def highest_target(instance: Instance, backend: str = DEFAULT_BACKEND, seconds: float = 60.0,
                   seed: int | None = None) -> Verdict:  # fmt: skip
    """Solve ``instance`` with a complete backend; when lost, its highest target reached (exact)."""
    warm(backend)
    r = solve(instance, backend, Limits(seconds=seconds))
    most = None
    if r.status is Status.UNSOLVABLE:
        if r.max_cards is None or not r.max_cards.proven:
            raise RuntimeError(f"{backend}: a loss without an exact max_cards (a prune that loses it fired)")
        most = r.max_cards.best
    nodes, secs = int(r.stats.get("nodes", 0)), float(r.stats.get("seconds", 0.0))
    return Verdict(seed, r.status.value, most, nodes, secs)


def _survey_one(args: tuple[Config, int, str, float]) -> Verdict:
    cfg, seed, backend, seconds = args
    return highest_target(deal("freecell", seed, overrides=cfg.overrides), backend, seconds, seed)


# Highest target histogram (Figures 20-21) --------------------------------------------------------------
@dataclass
class Survey:
    """Deals ``first..first+n-1`` of a configuration: verdicts, and the lost ones' highest targets."""

    config: Config
    first: int
    verdicts: list[Verdict] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def counts(self) -> Counter[str]:
        """Deals by status."""
        return Counter(v.status for v in self.verdicts)

    @property
    def histogram(self) -> dict[int, int]:
        """Lost deals by highest target reached, every value from 0 to the largest seen."""
        got = Counter(v.most for v in self.verdicts if v.most is not None)
        top = max(got, default=-1)
        return {k: got.get(k, 0) for k in range(top + 1)}

    def loss_interval(self) -> tuple[float, float]:
        """Conservative Wilson 95% interval of the loss rate (unknowns count both ways)."""
        from ..experiments.stats import conservative_interval

        c = self.counts
        lost, won = c["unsolvable"], c["solved"]
        return conservative_interval(lost, won, len(self.verdicts) - lost - won)

    def to_json(self) -> dict[str, Any]:
        """Machine-readable summary (histogram keys as strings, as JSON needs)."""
        c = self.counts
        lo, hi = self.loss_interval()
        return {
            "config": self.config.label,
            "first": self.first,
            "deals": len(self.verdicts),
            "won": c["solved"],
            "lost": c["unsolvable"],
            "unknown": len(self.verdicts) - c["solved"] - c["unsolvable"],
            "loss_rate_interval": [lo, hi],
            "upper_bound": upper_bound(self.config),
            "histogram": {str(k): v for k, v in self.histogram.items()},
            "lost_seeds": [v.seed for v in self.verdicts if v.most is not None],
            "seconds": self.seconds,
        }


def survey(cfg: Config, first: int, n: int, backend: str = DEFAULT_BACKEND, seconds: float = 60.0,
           workers: int = 0, progress: Progress | None = None) -> Survey:  # fmt: skip
    """Solve portable deals ``first..first+n-1`` of ``cfg``; ``workers`` processes (0: in this process)."""
    t0 = time.perf_counter()
    out = Survey(cfg, first)
    tasks = [(cfg, s, backend, seconds) for s in range(first, first + n)]
    if workers <= 0:
        results: Iterable[Verdict] = map(_survey_one, tasks)
        pool = None
    else:
        pool = ProcessPoolExecutor(max_workers=workers)
        results = pool.map(_survey_one, tasks, chunksize=max(1, min(64, n // (8 * workers) or 1)))
    try:
        for i, v in enumerate(results, 1):
            out.verdicts.append(v)
            if progress is not None:
                progress(i, n)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    out.seconds = time.perf_counter() - t0
    return out


# Fewest free cells ------------------------------------------------------------------------------------------
def with_cells(instance: Instance, cells: int) -> Instance:
    """The same tableau with ``cells`` empty free cells (the instance must start with its cells empty)."""
    if any(c is not None for c in instance.layout.cells):
        raise ValueError("fewest cells: the deal must start with empty free cells")
    overrides = {**instance.overrides, "cells": cells}
    layout = Layout(tableau=instance.layout.tableau, foundations=instance.layout.foundations,
                    cells=(None,) * cells)  # fmt: skip
    return Instance.build(instance.game, layout, overrides, instance.source)


@dataclass(frozen=True)
class CellsAnswer:
    """Verdicts by number of free cells; ``fewest`` is the answer when every smaller count was lost."""

    tried: tuple[tuple[int, Verdict], ...]

    @property
    def fewest(self) -> int | None:
        """Fewest cells that win, proven (every fewer count lost), else None."""
        for k, v in self.tried:
            if v.status == "solved":
                return k
            if v.status != "unsolvable":
                return None
        return None

    @property
    def at_least(self) -> int:
        """Cells proven necessary: one more than the largest count proven lost below any unknown."""
        need = 0
        for k, v in self.tried:
            if v.status != "unsolvable":
                break
            need = k + 1
        return need


def fewest_cells(instance: Instance, max_cells: int = 10, backend: str = DEFAULT_BACKEND,
                 seconds: float = 60.0, progress: Progress | None = None) -> CellsAnswer:  # fmt: skip
    """Solve the deal with 0, 1, ... free cells up to the first win (or ``max_cells``, or an unknown)."""
    tried: list[tuple[int, Verdict]] = []
    for k in range(max_cells + 1):
        v = highest_target(with_cells(instance, k), backend, seconds)
        tried.append((k, v))
        if progress is not None:
            progress(k + 1, max_cells + 1)
        if v.status != "unsolvable":
            break
    return CellsAnswer(tuple(tried))


# Maximal lost games: Klaver's card swaps ------------------------------------------------------------------
Piles = list[list[Card]]
Pos = tuple[int, int]


def klaver_frame(cfg: Config, suit: int = 3) -> dict[Pos, Card]:
    """Klaver's fixed cards: ``suit``'s Ace, 2, 3, ... along the bottom row (stack 0 first) and its top rank
    on its Ace (stack 0, second card). Positions are (stack, depth from the bottom)."""
    frame: dict[Pos, Card] = {(0, 0): Card(1, suit), (0, 1): Card(cfg.ranks, suit)}
    for s in range(1, min(cfg.stacks, cfg.ranks - 1)):
        frame[(s, 0)] = Card(s + 1, suit)
    return frame


def start_frame(piles: Sequence[Sequence[Card]]) -> dict[Pos, Card]:
    """Klaver's frame as a given deal has it: when stack 0 starts with an Ace covered by its suit's top
    card, those two and every bottom card of that suit; else nothing (every card may move)."""
    p0 = piles[0] if piles else ()
    if len(p0) < 2 or p0[0].rank != 1 or p0[1].suit != p0[0].suit or p0[1].rank <= p0[0].rank:
        return {}
    if any(c.suit == p0[0].suit and c.rank > p0[1].rank for p in piles for c in p):
        return {}
    frame = {(0, 0): p0[0], (0, 1): p0[1]}
    frame.update({(s, 0): p[0] for s, p in enumerate(piles) if s and p and p[0].suit == p0[0].suit})
    return frame


def _shape(cfg: Config) -> list[int]:
    base, extra = divmod(cfg.cards, cfg.stacks)
    return [base + (1 if i < extra else 0) for i in range(cfg.stacks)]


def framed_deal(cfg: Config, rng: random.Random, frame: dict[Pos, Card]) -> Piles:
    """A random deal of ``cfg`` with the cards of ``frame`` at their places (the others shuffled)."""
    shape = _shape(cfg)
    fixed = set(frame.values())
    rest = [Card(r, s) for s in range(cfg.suits) for r in range(1, cfg.ranks + 1) if Card(r, s) not in fixed]
    rng.shuffle(rest)
    it = iter(rest)
    return [[frame.get((p, d)) or next(it) for d in range(h)] for p, h in enumerate(shape)]


def _instance(cfg: Config, piles: Piles, source: dict[str, Any] | None = None) -> Instance:
    layout = Layout(tableau=tuple(tuple(p) for p in piles), foundations=((),) * cfg.suits,
                    cells=(None,) * cfg.cells)  # fmt: skip
    return Instance.build("freecell", layout, cfg.overrides, source)


@dataclass
class AnnealResult:
    """What a swap search found: the best lost deal, its highest target, and how the search went."""

    config: Config
    best: Instance | None
    best_most: int
    start_most: int
    bound: int
    steps: int = 0
    evaluations: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    trace: list[tuple[int, int, int]] = field(default_factory=list)  # (step, current, best)
    seconds: float = 0.0

    @property
    def maximal(self) -> bool:
        """True when the best deal reaches the upper bound (a maximal lost game)."""
        return self.best is not None and self.best_most == self.bound


def _start(cfg: Config, rng: random.Random, frame: dict[Pos, Card], score: Callable[[Piles], int | None],
           tries: int) -> tuple[Piles, int] | None:  # fmt: skip
    for _ in range(tries):
        piles = framed_deal(cfg, rng, frame)
        got = score(piles)
        if got is not None:
            return piles, got
    return None


def anneal(cfg: Config, start: Instance | None = None, seed: int = 1, steps: int = 100,
           candidates: int = 40, scan: bool = False, explore: float = 0.1, stall: int = 20,
           backend: str = DEFAULT_BACKEND,
           check_seconds: float = 10.0, seconds: float | None = None, start_tries: int = 2000,
           frame: dict[Pos, Card] | None = None,
           progress: Callable[[int, int, int, int], None] | None = None) -> AnnealResult:  # fmt: skip
    """Search for a lost deal of ``cfg`` with as many cards home as possible by Klaver's card swaps.

    ``start``: a lost deal to start from (its frame, :func:`start_frame`, stays put), else random deals
    with Klaver's frame until a lost one (``start_tries``). Each step scores ``candidates`` random swaps
    of two unframed cards (with ``scan``, more until one beats the current deal or none is left) by
    complete search (``check_seconds`` each; won or undecided: rejected) and makes
    the best lost one (ties at random), or with probability ``explore`` one of the next best score (Klaver:
    "the best score is the most likely to be picked, but there is still a small chance that a swap with a
    worse score is picked, to prevent getting stuck in local maxima"); after ``stall`` steps without a new
    best (0: never) it goes back to the best deal found. Stops at the bound, after ``steps`` or ``seconds``.
    ``progress(step, steps, current, best)`` after each step.
    """
    t0 = time.perf_counter()
    rng = random.Random(seed)
    bound = upper_bound(cfg)
    cache: dict[tuple, int | None] = {}
    res = AnnealResult(cfg, None, -1, -1, bound)

    def score(piles: Piles) -> int | None:
        key = tuple(tuple(p) for p in piles)
        if key in cache:
            return cache[key]
        v = highest_target(_instance(cfg, piles), backend, check_seconds)
        res.evaluations += 1
        res.statuses[v.status] += 1
        cache[key] = v.most
        return v.most

    if start is not None:
        if Config.of(start) != cfg:
            raise ValueError(f"start deal is {Config.of(start).label}, not {cfg.label}")
        piles = [list(p) for p in start.layout.tableau]
        if frame is None:
            frame = start_frame(piles)
        cur = score(piles)
        if cur is None:
            raise ValueError("start deal is not lost (or not decided within the check limit)")
    else:
        frame = klaver_frame(cfg) if frame is None else frame
        got = _start(cfg, rng, frame, score, start_tries)
        if got is None:
            res.seconds = time.perf_counter() - t0
            return res
        piles, cur = got
    free = [(p, d) for p, pile in enumerate(piles) for d in range(len(pile)) if (p, d) not in frame]
    res.best, res.best_most, res.start_most = _instance(cfg, piles), cur, cur
    res.trace.append((0, cur, cur))
    since = 0
    for step in range(1, steps + 1):
        if res.best_most >= bound or (seconds is not None and time.perf_counter() - t0 >= seconds):
            break
        res.steps = step
        lost: list[tuple[int, Pos, Pos]] = []
        pairs = [(a, b) for i, a in enumerate(free) for b in free[i + 1 :]]
        rng.shuffle(pairs)
        for i, ((p1, d1), (p2, d2)) in enumerate(pairs):
            if i >= candidates and (not scan or any(m > cur for m, _, _ in lost)):
                break
            if seconds is not None and time.perf_counter() - t0 >= seconds:
                break
            piles[p1][d1], piles[p2][d2] = piles[p2][d2], piles[p1][d1]
            got_most = score(piles)
            piles[p1][d1], piles[p2][d2] = piles[p2][d2], piles[p1][d1]
            if got_most is not None:
                lost.append((got_most, (p1, d1), (p2, d2)))
                if got_most >= bound:
                    break
        if lost:
            levels = sorted({m for m, _, _ in lost}, reverse=True)
            level = levels[1] if len(levels) > 1 and rng.random() < explore else levels[0]
            cur, (p1, d1), (p2, d2) = rng.choice([c for c in lost if c[0] == level])
            piles[p1][d1], piles[p2][d2] = piles[p2][d2], piles[p1][d1]
            if cur > res.best_most:
                res.best, res.best_most, since = _instance(cfg, piles), cur, 0
        since += 1
        if stall and since >= stall and res.best is not None:  # back to the best deal found
            piles = [list(p) for p in res.best.layout.tableau]
            cur, since = res.best_most, 0
        res.trace.append((step, cur, res.best_most))
        if progress is not None:
            progress(step, steps, cur, res.best_most)
    res.seconds = time.perf_counter() - t0
    return res


def describe(piles: Sequence[Sequence[Card]]) -> str:
    """Rows of the deal, first row the bottom cards, as the thesis prints them."""
    rows = max((len(p) for p in piles), default=0)
    return "\n".join(" ".join(f"{str(p[r]):>3}" if len(p) > r else "   " for p in piles) for r in range(rows))
