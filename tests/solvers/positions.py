"""Hand-built positions shared by the solver tests (dominances, heuristics)."""

from __future__ import annotations

from patience.engine import Engine
from patience.instance import Instance


def freecell_position(piles: list[list[str]]) -> Engine:
    """A hand-dealt FreeCell deal of 2 suits (clubs, diamonds) x 3 ranks in 3 piles of 2, 1 free cell."""
    return Engine(
        Instance.from_json(
            {"format": "patience-instance/1", "game": "freecell",
             "rules": {"suits": 2, "ranks": 3, "piles": 3, "cells": 1},
             "deck": {"suits": 2, "ranks": 3, "decks": 1},
             "layout": {"tableau": piles, "foundations": [[], []], "cells": [None]}}
        )
    )  # fmt: skip
