"""Watching a solution: the positions it passes through, as board text and as one self-contained HTML page.

The positions are computed here, in Python, by replaying the (already validated) moves on the engine; the
page embeds them as JSON and its script only draws position N and steps between them (buttons, ←/→,
Home/End, ``?step=N`` or ``#N`` in the address; ``?keys=→→←`` and ``?click=next,prev`` replay key presses
and button clicks through the page's own listeners, for tests in a headless browser). Everything a person
reads counts from 1: move 1 is the first move, position N is the board after move N (0 is the deal),
piles, cells and foundations are numbered from 1 as on the text board.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

from .cards import Card, Deck
from .engine import EMPTY, Engine
from .engine.notation import move_text
from .formats import to_text
from .instance import Instance, Layout

__all__ = ["Position", "board_text", "page_data", "page_html", "positions"]

SUIT_SYMBOLS = "♣♦♥♠"


@dataclass(frozen=True)
class Position:
    """The board after some moves: its layout and, per tableau pile, how many cards lie face down."""

    layout: Layout
    down: tuple[int, ...]


def _layout(engine: Engine) -> Layout:
    """The engine's current state as a :class:`Layout` (piles bottom to top, None for empty cells)."""
    card = engine.deck.card

    def cards(codes: list[int]) -> tuple[Card, ...]:
        return tuple(card(c) for c in codes)

    R = engine.R
    grid = tuple(
        tuple(None if c == EMPTY else card(c) for c in engine.grid[r * R : (r + 1) * R])
        for r in range(engine.rows)
    )
    return Layout(
        tableau=tuple(cards(p) for p in engine.piles),
        foundations=tuple(cards(f) for f in engine.found),
        cells=tuple(None if c == EMPTY else card(c) for c in engine.cells),
        reserve=cards(engine.reserve),
        stock=cards(engine.stock),
        waste=cards(engine.waste),
        grid=grid if engine.rows else (),
    )


def positions(instance: Instance, moves: list[dict[str, Any]]) -> list[Position]:
    """Position 0 (the deal) and the position after each move: ``len(moves) + 1`` of them.

    The moves must have been replayed by :func:`patience.validate.replay` first (the validator is the
    judge of legality; the engine only plays them out).
    """
    engine = Engine(instance)
    out = [Position(_layout(engine), tuple(engine.down))]
    for m in moves:
        engine.apply(engine.move_from_json(m))
        out.append(Position(_layout(engine), tuple(engine.down)))
    return out


def board_text(instance: Instance, position: Position, header: bool = False) -> str:
    """The board of ``position`` as ``patience show`` prints a deal (:func:`patience.formats.to_text`);
    without ``header``, the first line (game, source, the deal's sha256) is left out."""
    text = to_text(replace(instance, layout=position.layout))
    return text if header else text.split("\n", 1)[1]


# The HTML page --------------------------------------------------------------------------------------------


def _card_label(card: Card, deck: Deck) -> tuple[str, bool]:
    """A card as the page draws it (rank and suit symbol; suits past the fourth add their number) and
    whether it is red."""
    text = deck.text(card)
    rank = str(card.rank) if ":" in text or text[0] == "T" else text[:-1]  # 10, not T
    symbol = SUIT_SYMBOLS[card.suit % 4] + (str(card.suit // 4 + 1) if deck.suits > 4 else "")
    return rank + symbol, card.colour == 1


def page_data(instance: Instance, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """Everything the page shows, as JSON: the card faces, every position's areas, every move's text."""
    deck = instance.deck
    faces: dict[str, list[Any]] = {}

    def c(card: Card | None) -> str | None:
        if card is None:
            return None
        key = deck.text(card)
        if key not in faces:
            label, red = _card_label(card, deck)
            faces[key] = [label, red]
        return key

    states = []
    for pos in positions(instance, moves):
        lay = pos.layout
        states.append(
            {
                "tableau": [[c(x) for x in p] for p in lay.tableau],
                "down": list(pos.down),
                "foundations": [[c(x) for x in p] for p in lay.foundations],
                "cells": [c(x) for x in lay.cells],
                "reserve": [c(x) for x in lay.reserve],
                "stock": [c(x) for x in lay.stock],
                "waste": [c(x) for x in lay.waste],
                "grid": [[c(x) for x in row] for row in lay.grid],
            }
        )
    src = instance.source or {}
    origin = f" ({src.get('generator')} #{src.get('seed')})" if "seed" in src else ""
    rules = ", ".join(f"{k}={v}" for k, v in instance.overrides.items())
    return {
        "title": f"{instance.game}{origin}" + (f" [{rules}]" if rules else ""),
        "sha256": instance.sha256,
        "hole": instance.rules.foundations.kind == "hole",
        "faces": faces,
        "states": states,
        "moves": [[move_text(m), deck.text(deck.parse(m["card"])) if "card" in m else None] for m in moves],
    }


def page_html(instance: Instance, moves: list[dict[str, Any]]) -> str:
    """One self-contained HTML page (inline CSS and script, nothing fetched) that steps through ``moves``."""
    template = resources.files("patience").joinpath("viewer.html").read_text(encoding="utf-8")
    data = page_data(instance, moves)
    text = json.dumps(data, separators=(",", ":"))  # ASCII: the page is ASCII throughout
    text = text.replace("</", "<\\/")  # the JSON sits inside a <script> element
    return template.replace("__TITLE__", _escape(data["title"])).replace("__DATA__", text)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
