"""Move notation: JSON moves the validator replays (docs/design.md), and the same moves as text.

``{"card": "7H", "from": "tableau:3", "to": "foundation:0", "count": 1}``: ``card`` is the (deepest)
card the move takes, read off the state before the move; locations are ``AREA`` or ``AREA:INDEX``
(``grid:ROW:COLUMN`` for Gaps), counted from 0. Stock moves carry no card. A Gaps redeal also records
the grid it leaves.

Text for people (:func:`move_text`) counts piles, cells, foundations, rows and columns from 1, as the
board printout and move numbers do (``7H tableau 4 -> foundation 1``); the JSON keeps counting from 0.
:data:`NOTATIONS` also writes the moves as the peer solvers print them (:func:`move_in`).
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

__all__ = ["NOTATIONS", "MoveNotation", "move_in", "move_text", "moves_to_json"]


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
        if src == STOCK and cnt == 1 and (dst != TABLEAU or _di >= 0):  # not a deal onto every pile
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
            # Looked up, not built (a Card and its text were most of a 100-move solution's 0.29 ms); a code
            # outside the deck (an empty cell's, in a bad move) still goes through the deck.
            names = self.deck.names()
            out["card"] = names[card] if 0 <= card < len(names) else self.deck.text(self.deck.card(card))
        out["from"] = _LOCS.get((src, si)) or _loc(src, si, self.R)
        out["to"] = _LOCS.get((dst, di)) or _loc(dst, di, self.R)
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
                raise MoveError(f"move {k + 1}: {m} is not legal here")
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


# _loc of the areas other than the grid (whose text depends on the width) at small indices, looked up.
_LOCS: dict[tuple[int, int], str] = {
    (a, i): _loc(a, i, 1) for a in range(len(AREA_NAMES)) if a != GRID for i in range(-1, 64)
}


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


# Text for people --------------------------------------------------------------------------------------


def _human_loc(text: str) -> str:
    """``tableau:3`` -> ``tableau 4``; ``grid:2:4`` -> ``row 3 column 5``; bare areas unchanged."""
    area, *index = text.split(":")
    if area == "grid" and len(index) == 2:
        return f"row {int(index[0]) + 1} column {int(index[1]) + 1}"
    return f"{area} {int(index[0]) + 1}" if index else area


def move_text(m: dict[str, Any]) -> str:
    """A JSON move as people read it, every location counted from 1 (the JSON counts from 0).

    >>> move_text({"card": "7H", "from": "tableau:3", "to": "foundation:0", "count": 1})
    '7H tableau 4 -> foundation 1'
    >>> move_text({"card": "JH", "from": "tableau:1", "to": "tableau:2", "count": 3})
    'JH tableau 2 -> tableau 3 (3 cards)'
    >>> move_text({"from": "stock", "to": "waste", "count": 3})
    'stock -> waste (3 cards)'
    >>> move_text({"card": "4S", "from": "grid:2:4", "to": "grid:0:4"})
    '4S row 3 column 5 -> row 1 column 5'
    >>> move_text({"from": "grid", "to": "grid", "count": 12, "redeal": 1, "grid": []})
    'redeal 1 (12 cards)'
    """
    count = m.get("count", 1)
    cards = f" ({count} cards)" if count != 1 else ""
    if "redeal" in m:
        return f"redeal {m['redeal']}{cards or ' (1 card)'}"
    card = f"{m['card']} " if "card" in m else ""
    return f"{card}{_human_loc(m['from'])} -> {_human_loc(m['to'])}{cards}"


# Peer solvers' notations ------------------------------------------------------------------------------


def _peer_loc(text: str) -> tuple[str, int | None]:
    area, *index = text.split(":")
    return area, (int(index[0]) if len(index) == 1 else None)


def _fcsolve(m: dict[str, Any]) -> str | None:
    """Freecell Solver's ``fc-solve -m`` lines: stacks and freecells counted from 0, as it prints them."""
    (src, si), (dst, di) = _peer_loc(m["from"]), _peer_loc(m["to"])
    count = m.get("count", 1)
    names = {"tableau": "stack", "cell": "freecell"}
    if src not in names or si is None:
        return None
    where = f"{names[src]} {si}"
    if dst == "foundation" and count == 1:
        return f"Move a card from {where} to the foundations"
    if dst in names and di is not None and src == "tableau" and dst == "tableau":
        return f"Move {count} cards from {where} to stack {di}"  # fc-solve writes '1 cards' here too
    if dst in names and di is not None and count == 1 and src != dst:
        return f"Move a card from {where} to {names[dst]} {di}"
    return None


def _bhs(m: dict[str, Any]) -> str | None:
    """black-hole-solver's lines: every move takes a pile's top card to the foundation (the hole)."""
    (src, si), (dst, _di) = _peer_loc(m["from"]), _peer_loc(m["to"])
    if src == "tableau" and si is not None and dst == "foundation" and m.get("count", 1) == 1:
        return f"Move a card from stack {si} to the foundations"
    return None


NOTATIONS = {"fc-solve": _fcsolve, "bhs": _bhs}
"""Peer notations: name -> writer of one JSON move (None when the peer has no such move)."""


def move_in(notation: str, m: dict[str, Any]) -> str:
    """``m`` as the peer solver ``notation`` (a key of :data:`NOTATIONS`) prints it.

    >>> move_in("fc-solve", {"card": "7S", "from": "tableau:0", "to": "cell:1", "count": 1})
    'Move a card from stack 0 to freecell 1'
    >>> move_in("bhs", {"card": "KH", "from": "tableau:12", "to": "foundation:0", "count": 1})
    'Move a card from stack 12 to the foundations'
    >>> move_in("bhs", {"from": "stock", "to": "waste", "count": 1})
    Traceback (most recent call last):
    patience.engine.areas.MoveError: bhs has no notation for stock -> waste
    """
    if notation not in NOTATIONS:
        raise MoveError(f"unknown notation {notation!r}: one of {', '.join(NOTATIONS)}")
    text = NOTATIONS[notation](m)
    if text is None:
        raise MoveError(f"{notation} has no notation for {_human_loc(m['from'])} -> {_human_loc(m['to'])}")
    return text
