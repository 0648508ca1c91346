"""A Gaps deal as numbers: the flat dealt grid, row-major, width ``R``, ``EMPTY`` for a gap.

Notation: ``R`` ranks, so a row has ``R`` cells holding ``R - 1`` cards (the aces are removed) and gaps;
cell ``p`` is row ``p // R``, column ``p % R``; card code ``c = suit * R + rank - 1``, so the same-suit
predecessor of a card of rank >= 3 is ``c - 1``. A move takes a card into a gap: into a gap in column 0
a 2 (of the row's suit when fixed), into any other gap the successor of its left neighbour (nothing
after a King, nothing after a gap). Won: every row holds 2..R of one suit from column 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...engine import EMPTY, Engine
from ...instance import Instance
from ..registry import gaps_family

__all__ = ["GapsDeal", "family_supports"]

family_supports = gaps_family  # Gaps grids of one deck without redeals (registry.gaps_family)


@dataclass(frozen=True)
class GapsDeal:
    """A Gaps deal as numbers: the flat grid (row-major, width R, ``EMPTY`` for a gap)."""

    R: int
    rows: int
    fixed: bool  # first column takes only the row's suit (basic variant)
    grid: tuple[int, ...]

    @classmethod
    def from_instance(cls, inst: Instance) -> GapsDeal:
        """Read the dealt grid through the engine (codes as in :class:`Engine`)."""
        eng = Engine(inst)
        return cls(eng.R, eng.rows, eng.fixed_suit_twos, tuple(eng.grid))

    @property
    def cards(self) -> list[int]:
        """Card codes on the grid, by suit then rank."""
        return sorted(c for c in self.grid if c != EMPTY)

    def rank(self, c: int) -> int:
        """Rank of card ``c`` (2..R)."""
        return c % self.R + 1

    def suit(self, c: int) -> int:
        """Suit of card ``c``."""
        return c // self.R

    def goal(self, c: int, row: int) -> int:
        """The cell of card ``c`` in a won grid whose row ``row`` holds its suit."""
        return row * self.R + self.rank(c) - 2

    def won(self) -> bool:
        """True when the dealt grid is already won."""
        R = self.R
        for r in range(self.rows):
            row = self.grid[r * R : (r + 1) * R]
            if row[-1] != EMPTY or row[0] == EMPTY or self.rank(row[0]) != 2:
                return False
            if any(row[k] != row[0] + k for k in range(R - 1)):
                return False
        return True
