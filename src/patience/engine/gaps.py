"""The Gaps grid: which gaps can be filled, the sequences in place, the seeded redeal, the win test.

Gaps games use the ``grid`` area: ``rows`` rows of ``R`` cells, flat and row-major (cell ``p`` is row
``p // R``, column ``p % R``), the aces removed, ``EMPTY`` for a gap. A gap in column 0 takes a 2 (of the
row's suit when the first column is fixed-suit), any other gap the same-suit successor of its left
neighbour. When no gap can be filled and redeals remain, the only move is :data:`~.areas.REDEAL`: the
cards not in sequence from the left of each row are gathered and laid out again in the seeded order of
:func:`patience.rng.gaps_redeal_shuffle`, one gap right after each row's sequence.
"""

from __future__ import annotations

from ..rng import gaps_redeal_shuffle
from .areas import EMPTY, GRID, Move

__all__ = ["GapsGrid"]


class GapsGrid:
    """The grid's moves and redeal, mixed into :class:`~.state.Engine` (``grid``, ``where`` and
    ``gap_cells`` are its state; apply/undo of a grid move stay with the other areas in ``Engine``)."""

    def _index_grid(self) -> None:
        """Recompute ``where`` and ``gap_cells`` from ``grid`` (after a deal or a redeal)."""
        self.gap_cells = [i for i, c in enumerate(self.grid) if c == EMPTY]
        for i, c in enumerate(self.grid):
            if c != EMPTY:
                self.where[c] = i

    def _gaps_moves(self) -> list[Move]:
        """Gaps: fill a gap with the same-suit successor of its left neighbour (a 2 in column 0)."""
        R, grid, where = self.R, self.grid, self.where
        moves: list[Move] = []
        for g in sorted(self.gap_cells):
            if g % R == 0:
                # The 2 of suit s has code s * R + 1; in the basic variant row r takes suit r only.
                suits = [g // R % self.deck.suits] if self.fixed_suit_twos else range(self.deck.suits)
                moves.extend((GRID, where[s * R + 1], GRID, g, 1) for s in suits)
                continue
            left = grid[g - 1]
            if left == EMPTY or left % R == R - 1:  # right of a gap or a King: dead
                continue
            moves.append((GRID, where[left + 1], GRID, g, 1))  # same suit, one rank higher: code + 1
        return moves

    def gaps_sequence(self, row: int) -> int:
        """Length of the run 2, 3, ... of one suit at the left of Gaps row ``row`` (0 if none)."""
        base, grid = row * self.R, self.grid
        first = grid[base]
        if first == EMPTY or self.rank[first] != 2:
            return 0
        k = 1
        while k < self.R - 1 and grid[base + k] == first + k:  # same suit, next rank: code + 1
            k += 1
        return k

    def _redeal(self) -> None:
        """Gather the cards out of sequence and lay them out again, a gap after each row's sequence."""
        R, grid = self.R, self.grid
        runs = [self.gaps_sequence(r) for r in range(self.rows)]
        keep = {r * R + k for r, n in enumerate(runs) for k in range(n)}
        loose = sorted(c for i, c in enumerate(grid) if c != EMPTY and i not in keep)
        if not self._sha:
            self._sha = self.instance.sha256
        self.redeals_used += 1
        order = iter(gaps_redeal_shuffle(self._sha, self.redeals_used, loose))
        for r, n in enumerate(runs):
            base = r * R
            grid[base + n] = EMPTY
            for k in range(n + 1, R):
                grid[base + k] = next(order)

    def _gaps_won(self) -> bool:
        """Every Gaps row runs 2..top rank in one suit from column 0, its last cell a gap."""
        R, grid, rank, suit = self.R, self.grid, self.rank, self.suit
        for r in range(self.rows):
            row = grid[r * R : (r + 1) * R]
            if row[-1] != EMPTY:
                return False
            s = suit[row[0]] if row[0] != EMPTY else -1
            for k in range(R - 1):
                c = row[k]
                if c == EMPTY or rank[c] != k + 2 or suit[c] != s:
                    return False
        return True
