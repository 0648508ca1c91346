"""Cards removed over lost and won deals: Wolter 2014 (Black Hole and All in a Row), sections 5.1, 5.2, 8.

For each deal, the most cards any play moves to the foundations: a won deal moves them all; a lost deal
the maximum the complete search saw, exact only when no cut could hide a better play. ``dfs-max`` (the
``dfs`` backend with ``exact_max``: lost hole deals are searched again without the rank-reachability and
walk-degree cuts) gives it for every lost deal it decides; a deal left undecided, or lost with only a
lower bound, is counted apart and left out of the histogram and the mean.

Two counting conventions, named in every output (:data:`CONVENTIONS`):

* ``moved``: cards moved during play. Black Hole's starting Ace of Spades does not count, so a win is
  51; an All in a Row win is 52. Wolter's Black Hole and All in a Row histogram axes, and his All in a
  Row mean (47.68).
* ``home``: cards on the foundations at the end, the dealt starting cards included: a Black Hole win is
  52 (as ``patience report`` plots it), a Binary Star win 104. Wolter's Binary Star mean (96.1 "of the
  104 cards", counting its two starting cards) is in this convention, and his Black Hole mean (46.27) is
  read in it too (``analysis.published.WOLTER["mean_removed_convention"]`` says why).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..rules import RuleSet

__all__ = ["CONVENTIONS", "Removed", "removed_from_rows", "run_removed"]

CONVENTIONS: dict[str, str] = {
    "moved": "cards moved during play (starting cards on the holes not counted; Black Hole win = 51)",
    "home": "cards on the foundations at the end, dealt starting cards included (Black Hole win = 52)",
}

BACKEND = "dfs-max"


@dataclass
class Removed:
    """Per-deal most cards removed (``moved`` convention) of one game's deals, with the counts apart."""

    game: str
    dealt_home: int  # cards the deal puts on the foundations (Black Hole: 1)
    win_moved: int  # cards a win moves (the deck less the dealt foundation cards)
    won: int = 0
    lost: int = 0
    undecided: int = 0  # unknown or error
    inexact: int = 0  # lost, but the most cards removed is only a lower bound
    moved: dict[int, int] = field(default_factory=dict)  # most cards moved -> deals (won and lost)
    seconds: float = 0.0  # solving time over all deals, as stored (a resumed run counts earlier work too)

    @property
    def counted(self) -> int:
        """Deals in the histogram (won, and lost with the exact maximum)."""
        return sum(self.moved.values())

    def histogram(self, convention: str = "moved", lost_only: bool = False) -> dict[int, int]:
        """Deals by most cards removed in ``convention``; ``lost_only`` drops the wins' bar."""
        shift = _shift(self, convention)
        return {
            k + shift: v for k, v in sorted(self.moved.items()) if not (lost_only and k == self.win_moved)
        }

    def mean(self, convention: str = "moved") -> float:
        """Mean most cards removed over the counted deals."""
        n = self.counted
        return sum(k * v for k, v in self.moved.items()) / n + _shift(self, convention) if n else float("nan")

    def mean_interval(self, convention: str = "moved", z: float = 1.96) -> tuple[float, float]:
        """Normal-approximation 95% interval of the mean (sample standard deviation / sqrt(n))."""
        n = self.counted
        if n < 2:
            return (float("nan"), float("nan"))
        m = self.mean("moved")
        var = sum(v * (k - m) ** 2 for k, v in self.moved.items()) / (n - 1)
        half = z * (var / n) ** 0.5
        return (self.mean(convention) - half, self.mean(convention) + half)


def _shift(r: Removed, convention: str) -> int:
    if convention not in CONVENTIONS:
        raise ValueError(f"unknown convention {convention!r} (one of {', '.join(CONVENTIONS)})")
    return r.dealt_home if convention == "home" else 0


def _sizes(rules: RuleSet) -> tuple[int, int]:
    dealt = rules.n_initial_foundation_cards
    return dealt, rules.deck.cards - dealt


def removed_from_rows(game: str, rules: RuleSet, rows: Iterable[Any]) -> Removed:
    """A :class:`Removed` from result rows (``status`` and ``stats`` as the results store keeps them)."""
    dealt, win = _sizes(rules)
    out = Removed(game, dealt, win)
    for row in rows:
        out.seconds += float(getattr(row, "seconds", 0.0) or 0.0)
        if row.status == "solved":
            out.won += 1
            out.moved[win] = out.moved.get(win, 0) + 1
        elif row.status == "unsolvable":
            best, bound = row.stats.get("max_cards_removed"), row.stats.get("max_cards_bound")
            if best is None or best != bound:
                out.inexact += 1
                continue
            out.lost += 1
            out.moved[int(best)] = out.moved.get(int(best), 0) + 1
        else:
            out.undecided += 1
    return out


def run_removed(
    game: str,
    seeds: range,
    *,
    limit_s: float = 10.0,
    generator: str = "portable",
    overrides: dict[str, Any] | None = None,
    store: Any = None,
    executor: Any = None,
) -> Removed:
    """Solve ``seeds`` with ``dfs-max`` into ``store`` (a results store, resumable; None: in memory) and
    count the cards removed."""
    from ..experiments.runner import Job, run_job
    from ..rules import load_game

    overrides = dict(overrides or {})
    rules = load_game(game, overrides).rules
    job = Job(game, seeds, BACKEND, limit_s, generator, overrides)
    if store is None:
        import tempfile

        from ..experiments.store import open_store

        with tempfile.TemporaryDirectory() as tmp, open_store(f"{tmp}/removed.sqlite") as st:
            rows = run_job(job, st, executor)
    else:
        rows = run_job(job, store, executor)
    return removed_from_rows(game, rules, rows)
