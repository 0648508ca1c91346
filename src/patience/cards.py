"""Cards and decks: the standard 52-card deck, several decks, and generalized S-suit x R-rank decks.

Text form (docs/design.md): rank ``A 2 3 4 5 6 7 8 9 T J Q K`` (``10`` accepted on input) followed by
suit ``C D H S`` (any case), e.g. ``AS``, ``TD``, ``10h``. Cards outside the standard deck are written
``r:s`` with rank ``1..R`` and suit ``0..S-1``, e.g. ``14:5``.

The engine works on small integers (:meth:`Deck.code`), so every card also has a code
``suit * ranks + (rank - 1)``; equal cards from different decks share a code.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from .text import quoted

__all__ = [
    "RANK_CHARS",
    "SUIT_CHARS",
    "Card",
    "CardError",
    "Deck",
    "colour_of_suit",
    "parse_card",
]

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "CDHS"
_STANDARD_RE = re.compile(r"^(10|[A2-9TJQK])([CDHS])$", re.IGNORECASE)
_GENERAL_RE = re.compile(r"^(\d{1,6}):(\d{1,6})$")  # bounded: int() of 4,300+ digits raises


class CardError(ValueError):
    """A card text or deck parameter that cannot be understood."""


def colour_of_suit(suit: int) -> int:
    """Colour of a suit: 0 black, 1 red.

    Standard suits C D H S are black red red black; generalized suits repeat that pattern
    (suit ``s`` has the colour of standard suit ``s % 4``), so any deck with S >= 2 has both colours.
    """
    return 1 if suit % 4 in (1, 2) else 0


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A card by rank (1-based, ace = 1) and suit (0-based, C D H S for the standard deck)."""

    rank: int
    suit: int

    @property
    def colour(self) -> int:
        """0 for black, 1 for red (see :func:`colour_of_suit`)."""
        return colour_of_suit(self.suit)

    def text(self, standard: bool = True) -> str:
        """Text form: ``AS`` style when ``standard`` and the card fits the standard deck, else ``r:s``."""
        if standard and 1 <= self.rank <= 13 and 0 <= self.suit < 4:
            return RANK_CHARS[self.rank - 1] + SUIT_CHARS[self.suit]
        return f"{self.rank}:{self.suit}"

    def __str__(self) -> str:
        return self.text()


def parse_card(text: str) -> Card:
    """Parse ``AS``, ``td``, ``10H`` or ``14:5`` into a :class:`Card`.

    >>> parse_card("10h")
    Card(rank=10, suit=2)
    >>> parse_card("14:5")
    Card(rank=14, suit=5)
    """
    if not isinstance(text, str):
        raise CardError(f"card must be a string, got {type(text).__name__}")
    return _parse_text(text)


@functools.lru_cache(maxsize=1024)
def _parse_text(text: str) -> Card:
    """:func:`parse_card` of a string, cached: a deal and a replayed solution parse the same few card
    names thousands of times (Cards are immutable; errors are raised, never cached)."""
    s = text.strip()
    m = _STANDARD_RE.match(s)
    if m:
        r, su = m.group(1).upper(), m.group(2).upper()
        rank = 10 if r == "10" else RANK_CHARS.index(r) + 1
        return Card(rank, SUIT_CHARS.index(su))
    m = _GENERAL_RE.match(s)
    if m:
        rank, suit = int(m.group(1)), int(m.group(2))
        if rank < 1:
            raise CardError(f"bad card {quoted(text)}: ranks start at 1")
        return Card(rank, suit)
    raise CardError(f"bad card {quoted(text)}: expected e.g. AS, TD, 10h or rank:suit like 14:5")


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck of ``decks`` copies of every card of ``suits`` suits and ``ranks`` ranks."""

    suits: int = 4
    ranks: int = 13
    decks: int = 1

    def __post_init__(self) -> None:
        for name in ("suits", "ranks", "decks"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise CardError(f"deck.{name}: must be a positive integer, got {value!r}")
        if self.ranks > 999 or self.suits > 999 or self.decks > 99:
            raise CardError("deck: at most 999 suits, 999 ranks and 99 decks")

    @property
    def standard(self) -> bool:
        """True when every card fits the ``AS``-style text form (at most 4 suits and 13 ranks)."""
        return self.suits <= 4 and self.ranks <= 13

    @property
    def size(self) -> int:
        """Number of cards, counting every copy."""
        return self.suits * self.ranks * self.decks

    @property
    def n_codes(self) -> int:
        """Number of distinct card codes (``suits * ranks``)."""
        return self.suits * self.ranks

    def cards(self) -> list[Card]:
        """All cards, copies included, in canonical order: deck, suit, then rank."""
        return [
            Card(r, s) for _ in range(self.decks) for s in range(self.suits) for r in range(1, self.ranks + 1)
        ]

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards())

    def contains(self, card: Card) -> bool:
        """True when ``card`` belongs to this deck."""
        return 1 <= card.rank <= self.ranks and 0 <= card.suit < self.suits

    def code(self, card: Card) -> int:
        """Integer code of a card, ``suit * ranks + rank - 1``."""
        return card.suit * self.ranks + card.rank - 1

    def card(self, code: int) -> Card:
        """Inverse of :meth:`code`."""
        return Card(code % self.ranks + 1, code // self.ranks)

    def text(self, card: Card) -> str:
        """Text form of a card in this deck."""
        return card.text(self.standard)

    def names(self) -> tuple[str, ...]:
        """``names()[code]``: the text of the card with that code (:meth:`code`), for every code; built
        once a deck (cached), so writers of many moves look a name up instead of building a Card."""
        return _code_names(self.suits, self.ranks, self.standard)

    def parse(self, text: str) -> Card:
        """Parse a card and check it belongs to this deck."""
        card = parse_card(text)
        if not self.contains(card):
            raise CardError(f"card {text!r} is not in a deck of {self.suits} suits x {self.ranks} ranks")
        return card


@functools.lru_cache(maxsize=64)
def _code_names(suits: int, ranks: int, standard: bool) -> tuple[str, ...]:
    """:meth:`Deck.names` of a deck of ``suits`` x ``ranks`` (copies share codes, so decks do not matter)."""
    return tuple(Card(c % ranks + 1, c // ranks).text(standard) for c in range(suits * ranks))
