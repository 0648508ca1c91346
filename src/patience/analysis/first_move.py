"""Deals with no first move: Wolter 2014 (Black Hole and All in a Row), section 5.1.

In a hole game without cells or stock the first move takes a tableau top card onto a hole, so a deal has
none exactly when no top card fits a hole's starting card. With the tableau shuffled uniformly and every
pile dealt at least one card, the P top cards are a uniform P-subset of the T tableau cards; if F of those
cards fit a hole, the chance of no first move is C(T - F, P) / C(T, P). For Black Hole (17 tops of 51
cards, the eight Twos and Kings fit the Ace of Spades) that is C(43, 17) / C(51, 17), 28,513 per million
(Wolter's figure). A game whose holes start empty (All in a Row) always has a first move.

:func:`no_first_move` reads P, T and F from the rules (the hole rank rule of :mod:`patience.holes`);
:func:`simulate` deals games with the toolkit's generators and asks the engine for legal moves.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from ..cards import Card, Deck
from ..holes import HoleRanks, hole_game_problem
from ..instance import Instance, hole_start_cards
from ..rules import RuleSet

__all__ = ["FirstMove", "has_first_move", "no_first_move", "simulate"]


@dataclass(frozen=True)
class FirstMove:
    """The exact chance of no first move and the numbers it comes from."""

    tops: int  # P: tableau piles (each dealt a card)
    tableau: int  # T: cards dealt to the tableau
    fitting: int  # F: tableau cards that fit some hole's starting card
    probability: Fraction

    @property
    def per_million(self) -> float:
        """Expected deals with no first move in a million (Wolter: 28,513 for Black Hole)."""
        return float(self.probability * 1_000_000)


def _problem(rules: RuleSet) -> str | None:
    why = hole_game_problem(rules)
    if why:
        return why
    if rules.foundations.start_dealt:
        return "its holes start with a dealt card (foundations.start_dealt)"
    if any(size < 1 for size in rules.tableau_sizes()):
        return "some tableau pile is dealt no card"
    return None


def no_first_move(rules: RuleSet) -> FirstMove:
    """The exact chance that a uniformly shuffled deal of ``rules`` has no first move (module doc)."""
    why = _problem(rules)
    if why:
        raise ValueError(f"no first-move formula for these rules: {why}")
    deck = Deck(rules.deck.suits, rules.deck.ranks, rules.deck.decks)
    starts = hole_start_cards(rules)
    holes = HoleRanks.of(rules)
    tableau = list(deck.cards())
    for card in starts:
        tableau.remove(card)
    tops, total = len(rules.tableau_sizes()), len(tableau)
    if len(starts) < rules.foundations.count:  # an empty hole takes any card
        return FirstMove(tops, total, total, Fraction(0))
    fitting = sum(1 for c in tableau if any(holes.fits(c.rank, s.rank) for s in starts))
    return FirstMove(tops, total, fitting, Fraction(comb(total - fitting, tops), comb(total, tops)))


def has_first_move(instance: Instance) -> bool:
    """Does the engine offer any move at the start of this deal?"""
    from ..engine import Engine

    return bool(Engine(instance).legal_moves())


def top_cards_fit(rules: RuleSet, tops: Iterable[Card]) -> bool:
    """Does any of these top cards fit a hole's starting card? (The definition, for the brute force.)"""
    starts = hole_start_cards(rules)
    holes = HoleRanks.of(rules)
    return len(starts) < rules.foundations.count or any(
        holes.fits(c.rank, s.rank) for c in tops for s in starts
    )


def simulate(
    game: str, n: int, seed: int = 1, generator: str = "portable", overrides: dict | None = None
) -> tuple[int, int]:
    """Deal seeds ``seed .. seed + n - 1`` and count those with no first move: ``(count, n)``."""
    from ..deals import deal

    none = sum(1 for s in range(seed, seed + n) if not has_first_move(deal(game, s, generator, overrides)))
    return none, n
