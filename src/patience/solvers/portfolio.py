"""``portfolio``: complete backends run one after another on the same deal, each with a share of the time.

Why: on the rearrangement games dfs and planning decide different deals, and which decides fast follows
the rule features. The stages are the first row of :data:`STAGES_BY_RULES` whose predicate holds, each
row scored from per-deal logs of both backends alone at 10 s (benchmarks/portfolio_from_log.py; figures
and commands in benchmarks/out/portfolio.md):

- free cells and no stock (FreeCell, Baker's Game, Eight Off, Fore Cell, Seahaven Towers, Siegecraft,
  Stronghold): planning-jit for half the limit, then dfs-jit. On Solvitaire's seeds 1-20 of those 9 games
  it leaves 2 of 180 deals undecided, as dfs-jit first did, in a third of the mean time (0.36 s a deal
  against 1.10; dfs-jit alone leaves 18); on MS FreeCell 1-1000 planning-jit alone decides all 1000 in 32
  s, dfs-jit alone 982 in 540 s. dfs-jit's half wins deals planning's guidance misses (MS 2198, 4199
  and 17947 in 0.1-0.3 s after planning-jit's 5 s; benchmarks/out/auto_ms_1-32000.md).
- complete-run foundations (Spider's rule: the ``-runs`` games): planning-jit for 90% of the limit, then
  dfs-jit. On Solvitaire's seeds 51-70 of the five ``-runs`` games, logged alone at 10 s, planning-jit
  decides 46 of 100 deals and dfs-jit 5, all five among planning-jit's; the split leaves 54 undecided
  where the last row's (dfs-jit first) leaves 63: a complete run is the goal planning's runs heuristic
  counts towards, while depth-first search wanders (benchmarks/out/portfolio.md, last section).
- the rest: dfs-jit for 60% of the limit, then planning-jit: on Solvitaire's seeds 1-20 of 15 games 12 of
  300 deals undecided, against 20 for dfs-jit alone and 49 for planning-jit alone (Solvitaire 57): dfs
  settles many deals at once (its proven dominances cut deep), planning's guidance most of the rest.

``auto`` picks this backend for rearrangement games. The stages ``dfs-jit`` and ``planning-jit`` are the
searches of dfs and planning compiled node for node, on the games their kernel covers, and dfs and planning
on the others (:attr:`PortfolioOptions.fallbacks`), and wherever the kernels would run as plain Python
(numba off, or a cold cache with no time to compile), which is slower than dfs's and planning's own Python.

Soundness: each stage is a complete backend behind the contract. A stage's SOLVED is handed back as the
portfolio's and replayed by the validator in the portfolio's own :meth:`~.base.Backend.solve` (once: the stage
runs through :meth:`~.base.Backend.run_unvalidated`), and its UNSOLVABLE is that backend's proof (a complete
search with only the dominances proven in :mod:`.dominance`), so the first verdict is the answer; an UNKNOWN
stage only passes the rest of the time on. Nothing is shared between stages (no table, no bound), so no
stage's prune can leak into another's proof. The stages are chosen from the rule-set alone, before any search,
so their order changes which stage answers and how fast, never what a verdict rests on.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..instance import Instance
from ..rules import RuleSet
from .base import Backend, Limits, MaxCards, Result, Status, _admits, get_solver
from .registry import BACKENDS, engine_supports

__all__ = [
    "STAGES_BY_RULES",
    "Portfolio",
    "PortfolioOptions",
    "Stages",
    "free_cells_without_stock",
    "runs_foundations",
]


Stages = tuple[tuple[str, float], ...]


def free_cells_without_stock(rules: RuleSet) -> bool:
    """FreeCell-like rule-sets: free cells and no stock (FreeCell, Baker's Game, Eight Off, Seahaven...)."""
    return rules.cells.count > 0 and rules.stock.size == 0


def runs_foundations(rules: RuleSet) -> bool:
    """Spider-like rule-sets: only a complete same-suit run King..Ace goes home (the ``-runs`` games)."""
    return rules.foundations.kind == "runs"


def any_rules(rules: RuleSet) -> bool:
    """Every rule-set: the table's last row."""
    return True


# Which stages run, by rule features: the first row whose predicate holds (module docstring's figures).
STAGES_BY_RULES: tuple[tuple[Callable[[RuleSet], bool], Stages], ...] = (
    (free_cells_without_stock, (("planning-jit", 0.5), ("dfs-jit", 0.5))),
    (runs_foundations, (("planning-jit", 0.9), ("dfs-jit", 0.1))),
    (any_rules, (("dfs-jit", 0.6), ("planning-jit", 0.4))),
)


@dataclass(frozen=True)
class PortfolioOptions:
    """The stages: (registered backend, share of the time limit), run in order. Time a stage leaves
    unused passes to the next; the last stage gets everything left. ``stages`` given: those, on every
    rule-set; else the first row of ``by_rules`` whose predicate holds for the deal's rules."""

    stages: Stages | None = None
    by_rules: tuple[tuple[Callable[[RuleSet], bool], Stages], ...] = STAGES_BY_RULES
    # A stage whose backend does not support the rules, or would run uncompiled, runs this one in its place
    # (the same search in Python).
    fallbacks: tuple[tuple[str, str], ...] = (("dfs-jit", "dfs"), ("planning-jit", "planning"))

    def __post_init__(self) -> None:
        if self.stages is None and not self.by_rules:
            raise ValueError("stages: at least one (backend, share) pair, or a by_rules row")
        for stages in [self.stages] if self.stages is not None else [s for _, s in self.by_rules]:
            _check(stages)
        for name, instead in self.fallbacks:
            if instead not in BACKENDS or instead == "portfolio":
                raise ValueError(f"fallbacks: {instead!r} (for {name}) is not a registered backend")

    def stages_for(self, rules: RuleSet) -> Stages:
        """The stages run on ``rules``: ``stages`` if given, else the first matching ``by_rules`` row
        (none matching: the last row's)."""
        if self.stages is not None:
            return self.stages
        return next((s for when, s in self.by_rules if when(rules)), self.by_rules[-1][1])

    def backend(self, name: str, rules: RuleSet, seconds: float | None = None) -> str | None:
        """Who runs stage ``name`` under ``rules``: itself, else its fallback (None: neither admits them).
        Given the stage's ``seconds``, the fallback also runs in place of a compiled backend that would run
        uncompiled (numba off, or no time to compile its kernels: :meth:`.jit_budget.Kernels.compiles`),
        where the fallback's own Python search is faster than the kernel run as plain Python."""
        instead = dict(self.fallbacks).get(name)
        if instead is not None and seconds is not None and _admits(BACKENDS[instead], rules):
            kernels = get_solver(name).kernels
            if kernels is not None and not kernels.compiles(seconds, instead):
                return instead
        for candidate in (name, instead):
            if candidate is not None and _admits(BACKENDS[candidate], rules):
                return candidate
        return None


def _check(stages: Stages) -> None:
    """ValueError unless ``stages`` is non-empty, of registered backends, with shares adding up to <= 1."""
    if not stages:
        raise ValueError("stages: at least one (backend, share) pair")
    for name, share in stages:
        if name not in BACKENDS or name == "portfolio":
            raise ValueError(f"stages: {name!r} is not a registered backend other than portfolio")
        if not 0 < share <= 1:
            raise ValueError(f"stages: share of {name} must be in (0, 1], got {share}")
    if sum(share for _, share in stages) > 1 + 1e-9:
        raise ValueError("stages: the shares add up to more than 1")


class Portfolio(Backend):
    """Run the stages of :class:`PortfolioOptions` until one decides the deal (module docstring)."""

    name = "portfolio"
    Options = PortfolioOptions
    options: PortfolioOptions

    def supports(self, rules: RuleSet) -> bool:
        """Rules every stage supports, asked of the stages' registry entries (their light checks: no
        backend module is imported to answer)."""
        return engine_supports(rules) and all(
            self.options.backend(n, rules) is not None for n, _ in self.options.stages_for(rules)
        )

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        """First decided stage's result; else UNKNOWN with the last stage's reason and the best max cards."""
        deadline = time.perf_counter() + limits.seconds
        stats: dict[str, float] = {}
        best: MaxCards | None = None
        result = Result(Status.UNKNOWN, message="no stage ran")
        stages = self.options.stages_for(instance.rules)
        last = len(stages) - 1
        for i, (name, share) in enumerate(stages):
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            seconds = left if i == last else min(left, limits.seconds * share)
            name = self.options.backend(name, instance.rules, seconds) or name
            # A stage's win is handed back as this backend's, which Backend.solve replays: once, not twice.
            result = get_solver(name).run_unvalidated(instance, replace(limits, seconds=seconds))
            for key, value in result.stats.items():
                stats[f"{name}_{key}"] = value
            if result.max_cards is not None and (best is None or result.max_cards.best > best.best):
                best = result.max_cards
            if result.status is not Status.UNKNOWN:
                stats["stage"] = i
                break
        stats["nodes"] = sum(v for k, v in stats.items() if k.endswith("_nodes"))
        max_cards = result.max_cards if result.status is Status.SOLVED else best
        return replace(result, stats=stats, max_cards=max_cards)
