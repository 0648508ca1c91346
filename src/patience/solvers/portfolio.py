"""``portfolio``: complete backends run one after another on the same deal, each with a share of the time.

Why: on the rearrangement games dfs and planning decide different deals. Scored from the cross-check's
logged times (benchmarks/portfolio_from_log.py; figures in benchmarks/out/portfolio.md), "dfs-jit for 3 s,
then planning-jit for 7 s" leaves, on Solvitaire's seeds 1-20 of 15 games where we were behind or close, 31
of 300 deals undecided, against 40 for the best split of dfs-jit and the Python planning (7 s / 3 s), 48
for dfs-jit alone and 57 for planning-jit alone (Solvitaire: 57): dfs settles many deals at once (its
proven dominances cut deep), planning's guidance, compiled, most of the rest.
``auto`` picks this backend for rearrangement games.
The stages are ``dfs-jit`` and ``planning-jit``, the searches of dfs and planning compiled node for node,
on the games their kernel covers, and dfs and planning on the others (:attr:`PortfolioOptions.fallbacks`).

Soundness: each stage is a complete backend behind the contract. A stage's SOLVED was replayed by the
validator, and its UNSOLVABLE is that backend's proof (a complete search with only the dominances proven
in :mod:`.dominance`), so the first verdict is the answer; an UNKNOWN stage only passes the rest of the
time on. Nothing is shared between stages (no table, no bound), so no stage's prune can leak into
another's proof.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from ..instance import Instance
from ..rules import RuleSet
from .base import Backend, Limits, MaxCards, Result, Status, _admits, get_solver
from .registry import BACKENDS, engine_supports

__all__ = ["Portfolio", "PortfolioOptions"]


@dataclass(frozen=True)
class PortfolioOptions:
    """The stages: (registered backend, share of the time limit), run in order. Time a stage leaves
    unused passes to the next; the last stage gets everything left."""

    stages: tuple[tuple[str, float], ...] = (("dfs-jit", 0.6), ("planning-jit", 0.4))
    # A stage whose backend does not support the rules runs this one in its place (same search, uncompiled).
    fallbacks: tuple[tuple[str, str], ...] = (("dfs-jit", "dfs"), ("planning-jit", "planning"))

    def __post_init__(self) -> None:
        if not self.stages:
            raise ValueError("stages: at least one (backend, share) pair")
        for name, share in self.stages:
            if name not in BACKENDS or name == "portfolio":
                raise ValueError(f"stages: {name!r} is not a registered backend other than portfolio")
            if not 0 < share <= 1:
                raise ValueError(f"stages: share of {name} must be in (0, 1], got {share}")
        if sum(share for _, share in self.stages) > 1 + 1e-9:
            raise ValueError("stages: the shares add up to more than 1")
        for name, instead in self.fallbacks:
            if instead not in BACKENDS or instead == "portfolio":
                raise ValueError(f"fallbacks: {instead!r} (for {name}) is not a registered backend")

    def backend(self, name: str, rules: RuleSet) -> str | None:
        """Who runs stage ``name`` under ``rules``: itself, else its fallback (None: neither admits them)."""
        for candidate in (name, dict(self.fallbacks).get(name)):
            if candidate is not None and _admits(BACKENDS[candidate], rules):
                return candidate
        return None


class Portfolio(Backend):
    """Run the stages of :class:`PortfolioOptions` until one decides the deal (module docstring)."""

    name = "portfolio"
    Options = PortfolioOptions
    options: PortfolioOptions

    def supports(self, rules: RuleSet) -> bool:
        """Rules every stage supports, asked of the stages' registry entries (their light checks: no
        backend module is imported to answer)."""
        return engine_supports(rules) and all(
            self.options.backend(n, rules) is not None for n, _ in self.options.stages
        )

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        """First decided stage's result; else UNKNOWN with the last stage's reason and the best max cards."""
        deadline = time.perf_counter() + limits.seconds
        stats: dict[str, float] = {}
        best: MaxCards | None = None
        result = Result(Status.UNKNOWN, message="no stage ran")
        last = len(self.options.stages) - 1
        for i, (name, share) in enumerate(self.options.stages):
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            seconds = left if i == last else min(left, limits.seconds * share)
            name = self.options.backend(name, instance.rules) or name
            result = get_solver(name).solve(instance, replace(limits, seconds=seconds))
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
