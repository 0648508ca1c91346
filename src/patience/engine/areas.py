"""What a move is: the areas of a layout, the move tuple and its special values.

A move is a plain 5-tuple ``(src_area, src_index, dst_area, dst_index, count)`` of small integers, so the
search hot loop builds no objects; its JSON form is in :mod:`.notation`.
"""

from __future__ import annotations

__all__ = [
    "AREA_NAMES",
    "CELL",
    "EMPTY",
    "FOUNDATION",
    "GRID",
    "INDEXED",
    "REDEAL",
    "RESERVE",
    "STOCK",
    "TABLEAU",
    "WASTE",
    "Move",
    "MoveError",
]

# Areas of a move.
TABLEAU, FOUNDATION, CELL, RESERVE, STOCK, WASTE, GRID = range(7)
AREA_NAMES = ("tableau", "foundation", "cell", "reserve", "stock", "waste", "grid")
INDEXED = {TABLEAU, FOUNDATION, CELL, RESERVE, GRID}  # areas whose locations carry an index

Move = tuple[int, int, int, int, int]
"""``(src_area, src_index, dst_area, dst_index, count)``; stock deals use index -1 for 'every pile'."""

EMPTY = -1  # an empty free cell or a gap
REDEAL: Move = (GRID, -1, GRID, -1, 1)
"""The Gaps redeal (gather the cards out of sequence, lay them out again in the deal's seeded order)."""


class MoveError(ValueError):
    """A move that cannot be parsed or applied."""
