"""move_to_json and moves_to_json: the card names and locations they look up are the ones the deck and
``_loc`` compute, in every game."""

from __future__ import annotations

import random

import pytest

from patience.cards import Deck
from patience.deals import deal
from patience.engine import CELL, EMPTY, FOUNDATION, REDEAL, Engine, moves_to_json, unsupported
from patience.engine.notation import _loc
from patience.rules import list_games

GAMES = [g.name for g in list_games() if not unsupported(g.rules)]


def _reference(inst, moves):  # type: ignore[no-untyped-def]
    """The JSON moves computed as move_to_json did before its lookups: each card's text through the deck,
    each location through ``_loc``, read before the move is applied (a redeal as move_to_json writes it)."""
    e = Engine(inst)
    out = []
    for m in moves:
        if m == REDEAL:
            out.append(e.move_to_json(m))
        else:
            src, si, dst, di, cnt = m
            d = {}
            card = e.moved_card(m)
            if card is not None:
                d["card"] = e.deck.text(e.deck.card(card))
            d.update({"from": _loc(src, si, e.R), "to": _loc(dst, di, e.R), "count": cnt})
            out.append(d)
        e.apply(m)
    return tuple(out)


@pytest.mark.parametrize("game", GAMES)
def test_moves_to_json_matches_move_to_json(game: str) -> None:
    for seed in (1, 2, 3):
        inst = deal(game, seed)
        engine, rng, moves = Engine(inst), random.Random(seed), []
        for _ in range(60):
            legal = engine.legal_moves()
            if not legal:
                break
            moves.append(rng.choice(legal))
            engine.apply(moves[-1])
        assert moves_to_json(inst, moves) == _reference(inst, moves)


def test_moves_to_json_of_large_and_generalized_decks() -> None:
    for overrides in ({"suits": 6, "ranks": 15}, {"piles": 70, "decks": 2}):
        inst = deal("freecell", 5, overrides=overrides)
        engine, moves = Engine(inst), []
        for _ in range(40):
            legal = engine.legal_moves()
            if not legal:
                break
            moves.append(legal[-1])
            engine.apply(moves[-1])
        assert moves_to_json(inst, moves) == _reference(inst, moves)


def test_moves_to_json_names_an_empty_cell_as_move_to_json_does() -> None:
    inst = deal("freecell", 1)
    assert Engine(inst).cells[0] == EMPTY
    bad = [(CELL, 0, FOUNDATION, 0, 1)]  # from an empty cell: not legal, named all the same
    assert moves_to_json(inst, bad) == _reference(inst, bad) == ({"card": "13:-1", "from": "cell:0",
                                                                   "to": "foundation:0", "count": 1},)


def test_deck_names_are_the_cards_texts() -> None:
    for deck in (Deck(), Deck(4, 13, 2), Deck(6, 15), Deck(2, 5)):
        assert deck.names() == tuple(deck.text(deck.card(c)) for c in range(deck.n_codes))
