"""The numbers a Black Hole family model reads off a deal: cards, ranks, piles, holes.

Cards ``c = 0..n-1`` are the tableau cards, pile by pile, bottom to top; ``above[c]`` is the card lying
directly on ``c`` (``-1`` for a top card), ``below[c]`` the one under it; holes ``h = 0..k-1`` have
their start rank (0 = empty).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from ...holes import HoleRanks
from ...instance import Instance
from ..registry import hole_family

__all__ = ["HoleDeal", "family_supports"]

family_supports = hole_family  # the Black Hole family, at most one free cell (registry.hole_family)


@dataclass(frozen=True)
class HoleDeal:
    """The numbers a hole-game model needs, read from an instance."""

    R: int
    wrap: bool
    king_blocks: bool
    cells: int
    rank: tuple[int, ...]  # rank of card c (1..R)
    code: tuple[int, ...]  # deck code of card c
    pile: tuple[int, ...]  # tableau pile of card c
    above: tuple[int, ...]  # card lying directly on c, -1 when c is a top card
    below: tuple[int, ...]  # card directly under c, -1 when c is a bottom card
    hole_rank: tuple[int, ...]  # rank of each hole's top card at the start, 0 when empty
    texts: tuple[str, ...] = field(default=())  # card c as text
    hole_texts: tuple[str, ...] = field(default=())  # each hole's start card as text ("" when empty)

    @property
    def n(self) -> int:
        """Tableau cards."""
        return len(self.rank)

    @property
    def k(self) -> int:
        """Holes."""
        return len(self.hole_rank)

    @cached_property
    def fits(self) -> Callable[[int, int], bool]:
        """``fits(r, t)``: may rank ``r`` go on a hole topped by rank ``t`` (0: empty)? (HoleRanks.fits)"""
        return HoleRanks(self.R, self.wrap, self.king_blocks).fits

    @classmethod
    def from_instance(cls, inst: Instance) -> HoleDeal:
        """Read the cards of ``inst`` (which must satisfy :func:`family_supports`)."""
        deck = inst.deck
        R = inst.rules.deck.ranks
        rank, code, pile, above, below, texts = [], [], [], [], [], []
        for p, cards in enumerate(inst.layout.tableau):
            first = len(rank)
            for j, card in enumerate(cards):
                c = first + j
                rank.append(card.rank)
                code.append(deck.code(card))
                pile.append(p)
                texts.append(deck.text(card))
                below.append(c - 1 if j > 0 else -1)
                above.append(c + 1 if j + 1 < len(cards) else -1)
        holes = tuple(f[-1].rank if f else 0 for f in inst.layout.foundations)
        hole_texts = tuple(deck.text(f[-1]) if f else "" for f in inst.layout.foundations)
        f = inst.rules.foundations
        return cls(
            R, f.wrap, f.king_blocks, inst.rules.cells.count, tuple(rank), tuple(code), tuple(pile),
            tuple(above), tuple(below), holes, tuple(texts), hole_texts,
        )  # fmt: skip
