"""python-constraint backend for small Black Hole family deals: an independent third opinion.

Model (Wolter 2014, section 3; one hole, no free cell): a variable ``pos[c]`` per tableau card, the step at
which it goes to the hole, all different; for every ordered pair of cards ``(c, d)`` where ``d`` does not
fit on ``c``, ``pos[d] != pos[c] + 1``; only a card that fits the hole's start card may go first (any card
for an empty hole); and a card goes after the card lying on it (``pos[above] < pos[c]``). (A step-indexed
``card_at[t]`` variant was measured 10-40x slower in this solver.) No symmetry breaking and no
shared code with the CP-SAT model, so agreement between the two is evidence about both.

Plain backtracking with forward checking: :meth:`CspBlackHole.supports` keeps it to decks of at most
:data:`MAX_CARDS` cards (e.g. 4 suits x 5 ranks). python-constraint has no time limit of its own, so the
model's constraint functions check the clock every :data:`_CHECK_EVERY` calls and abandon the search at
the deadline (UNKNOWN, "time limit"), which counts from the start of :meth:`CspBlackHole.solve`.
"""

from __future__ import annotations

import time
from typing import Any

import constraint

from ..engine import FOUNDATION, TABLEAU, Engine, moves_to_json
from ..holes import HoleRanks
from ..instance import Instance
from ..rules import RuleSet
from .base import Backend, Limits, Reason, Result, Status
from .registry import CSP_MAX_CARDS, csp_supports

__all__ = ["MAX_CARDS", "CspBlackHole"]

MAX_CARDS = CSP_MAX_CARDS  # python-constraint takes up to ~10 s on a lost 16-card deal
_CHECK_EVERY = 1024  # constraint calls between two looks at the clock


class _OutOfTime(Exception):
    """Raised from inside python-constraint's search when the deadline passes."""


def _clock(deadline: float) -> Any:
    """A function for constraint checks to call: True, or _OutOfTime once ``deadline`` has passed."""
    calls = 0

    def tick() -> bool:
        nonlocal calls
        calls += 1
        if calls % _CHECK_EVERY == 0 and time.perf_counter() >= deadline:
            raise _OutOfTime
        return True

    return tick


class CspBlackHole(Backend):
    """python-constraint backend: one hole, no cell, at most MAX_CARDS cards. No options."""

    name = "csp"

    def supports(self, rules: RuleSet) -> bool:
        """Hole games (:func:`patience.holes.is_hole_game`, no free cell) with one hole and a tiny deck."""
        return csp_supports(rules)

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        """Find a winning order or prove none exists (complete backtracking search)."""
        t0 = time.perf_counter()
        tick = _clock(t0 + limits.seconds)
        rules = instance.rules
        fits = HoleRanks.of(rules).fits
        cards: list[tuple[int, int, Any]] = []  # (pile, depth, Card)
        for p, pile in enumerate(instance.layout.tableau):
            for j, card in enumerate(pile):
                cards.append((p, j, card))
        n = len(cards)
        hole = instance.layout.foundations[0]
        start = hole[-1].rank if hole else 0

        problem = constraint.Problem()
        # pos[c]: the step at which card c goes to the hole; only a card that fits the start goes first.
        for c, (_, _, card) in enumerate(cards):
            first_ok = fits(card.rank, start)
            problem.addVariable(c, list(range(0 if first_ok else 1, n)))
        # Every step plays one card.
        problem.addConstraint(constraint.AllDifferentConstraint())
        # A card that does not fit on another never follows it directly.
        for c in range(n):
            for d in range(n):
                if c != d and not fits(cards[d][2].rank, cards[c][2].rank):
                    problem.addConstraint(
                        constraint.FunctionConstraint(lambda a, b: tick() and b != a + 1), (c, d)
                    )
        # A card goes after the card lying on it.
        for c in range(n - 1):
            if cards[c + 1][0] == cards[c][0]:
                problem.addConstraint(
                    constraint.FunctionConstraint(lambda below, above: tick() and above < below), (c, c + 1)
                )
        stats = {"cards": float(n)}
        try:
            sol = problem.getSolution()
        except _OutOfTime:
            return Result(Status.UNKNOWN, None, stats, self.name, "time limit", Reason.TIME)
        if not sol:
            return Result(Status.UNSOLVABLE, None, stats, self.name)
        order = sorted(range(n), key=lambda c: sol[c])
        engine = Engine(instance)
        played = []
        for c in order:
            move = (TABLEAU, cards[c][0], FOUNDATION, 0, 1)
            if not engine.is_legal(move):
                return Result(Status.ERROR, None, stats, self.name, f"step {len(played)} is not legal")
            played.append(move)
            engine.apply(move)
        return Result(Status.SOLVED, tuple(moves_to_json(instance, played)), stats, self.name)
