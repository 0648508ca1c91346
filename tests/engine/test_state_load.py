"""Engine.load is the inverse of Engine.snapshot: a loaded engine moves exactly as the original."""

from __future__ import annotations

import random

import pytest

from patience.deals import deal
from patience.engine import Engine

GAMES = ["klondike", "freecell", "canfield", "gaps-basic-variant", "black-hole", "spider-1-suit"]


@pytest.mark.parametrize("game", GAMES)
def test_load_of_a_snapshot_plays_on_identically(game: str) -> None:
    """After 60 random moves, an engine of another deal loaded with the snapshot has the same snapshot,
    key and legal moves, and stays equal over 40 more moves and their undos."""
    rng = random.Random(7)
    e = Engine(deal(game, 3))
    for _ in range(60):
        moves = e.legal_moves()
        if not moves:
            break
        e.apply(rng.choice(moves))
    other = Engine(deal(game, 4))
    other.load(e.snapshot())
    assert other.snapshot() == e.snapshot() and other.key() == e.key()
    start = e.snapshot()
    for _ in range(40):
        moves = e.legal_moves()
        assert other.legal_moves() == moves
        if not moves:
            break
        m = rng.choice(moves)
        e.apply(m)
        other.apply(m)
        assert other.snapshot() == e.snapshot()
    while other._undo:
        other.undo()
    assert other.snapshot() == start


def test_load_refuses_a_snapshot_of_other_rules() -> None:
    e = Engine(deal("klondike", 1))
    with pytest.raises(ValueError, match="do not fit"):
        e.load(Engine(deal("freecell", 1, "ms")).snapshot())
