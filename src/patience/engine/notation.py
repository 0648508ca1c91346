"""JSON move notation: a move as text a person can read and the validator replays (docs/design.md).

``{"card": "7H", "from": "tableau:3", "to": "foundation:0", "count": 1}``: ``card`` is the (deepest)
card the move takes, read off the state before the move; locations are ``AREA`` or ``AREA:INDEX``
(``grid:ROW:COLUMN`` for Gaps). Stock moves carry no card. A Gaps redeal also records the grid it leaves.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..instance import Instance
from .areas import (
    AREA_NAMES,
    CELL,
    EMPTY,
    FOUNDATION,
    GRID,
    INDEXED,
    REDEAL,
    RESERVE,
    STOCK,
    TABLEAU,
    WASTE,
    Move,
    MoveError,
)

__all__ = ["MoveNotation", "moves_to_json"]


class MoveNotation:
    """Reading and writing JSON moves, mixed into :class:`~.state.Engine` (reads its state lists)."""

    def moved_card(self, move: Move) -> int | None:
        """Code of the (deepest) card a move takes, before it is applied; None for stock turns."""
        src, si, dst, _di, cnt = move
        if src == TABLEAU:
            return self.piles[si][-cnt]
        if src == CELL:
            return self.cells[si]
        if src == RESERVE:
            return self.reserve[si]
        if src == WASTE and dst != STOCK:
            return self.waste[-1]
        if src == FOUNDATION:
            return self.found[si][-cnt]
        if src == GRID:
            return self.grid[si] if si >= 0 else None
        if src == STOCK and cnt == 1 and dst != TABLEAU:
            return self.stock[-1]
        return None

    def move_to_json(self, move: Move) -> dict[str, Any]:
        """The JSON form of a move (module docstring), read before the move is applied."""
        src, si, dst, di, cnt = move
        if move == REDEAL:
            return self._redeal_to_json()
        out: dict[str, Any] = {}
        card = self.moved_card(move)
        if card is not None:
            out["card"] = self.deck.text(self.deck.card(card))
        out["from"] = _loc(src, si, self.R)
        out["to"] = _loc(dst, di, self.R)
        out["count"] = cnt
        return out

    def _redeal_to_json(self) -> dict[str, Any]:
        """A redeal with what it gathers and the grid it leaves, so a reader can follow the solution."""
        kept = sum(self.gaps_sequence(r) for r in range(self.rows))
        self.apply(REDEAL)
        k, text, R = self.redeals_used, self.deck.text, self.R
        grid = [
            [None if c == EMPTY else text(self.deck.card(c)) for c in self.grid[r * R : (r + 1) * R]]
            for r in range(self.rows)
        ]
        self.undo()
        count = self.n_cards - self.deck.decks * self.deck.suits - kept
        return {"from": "grid", "to": "grid", "count": count, "redeal": k, "grid": grid}

    def move_from_json(self, data: dict[str, Any]) -> Move:
        """Parse a JSON move against the current state (checks its card, not its legality)."""
        try:
            src, si = _parse_loc(data["from"], self.R)
            dst, di = _parse_loc(data["to"], self.R)
        except (KeyError, TypeError, ValueError) as err:
            raise MoveError(f"bad move {data!r}: {err}") from None
        cnt = data.get("count", 1)
        if not isinstance(cnt, int) or cnt < 1:
            raise MoveError(f"bad move {data!r}: count must be a positive integer")
        move = REDEAL if src == GRID and si < 0 else (src, si, dst, di, cnt)
        if "card" in data:
            try:
                actual = self.moved_card(move)
            except IndexError:
                actual = None
            if actual is None or self.deck.text(self.deck.card(actual)) != self.deck.text(
                self.deck.parse(data["card"])
            ):
                raise MoveError(f"bad move {data!r}: that card is not there")
        return move

    def play_json(self, moves: Iterable[dict[str, Any]]) -> None:
        """Apply JSON moves that are legal in the engine (raises MoveError on the first that is not)."""
        for k, m in enumerate(moves):
            move = self.move_from_json(m)
            if not self.is_legal(move):
                raise MoveError(f"move {k}: {m} is not legal here")
            self.apply(move)


def moves_to_json(instance: Instance, moves: Iterable[Move]) -> tuple[dict[str, Any], ...]:
    """JSON moves, read off a fresh engine as ``moves`` are replayed from the start."""
    from .state import Engine  # the engine class is built from this module's mixin

    e = Engine(instance)
    out = []
    for m in moves:
        out.append(e.move_to_json(m))
        e.apply(m)
    return tuple(out)


def _loc(area: int, index: int, width: int) -> str:
    if area == GRID:
        return f"grid:{index // width}:{index % width}"
    if area in INDEXED and index >= 0:
        return f"{AREA_NAMES[area]}:{index}"
    return AREA_NAMES[area]


def _parse_loc(text: str, width: int) -> tuple[int, int]:
    parts = text.split(":")
    area = AREA_NAMES.index(parts[0])
    if area == GRID:
        if len(parts) == 1:
            return REDEAL[:2]
        return area, int(parts[1]) * width + int(parts[2])
    if len(parts) == 1:
        return area, (-1 if area == TABLEAU else 0)
    return area, int(parts[1])
