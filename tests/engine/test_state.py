"""Engine properties: apply/undo is exact, the validator agrees with the engine on legality."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patience.deals import deal
from patience.engine import CELL, FOUNDATION, RESERVE, STOCK, TABLEAU, WASTE, Engine, unsupported
from patience.rules import list_games, load_game
from patience.validate import replay

GAMES = [g.name for g in list_games() if not unsupported(g.rules)]
TABLEAU_GAMES = [g.name for g in list_games() if not unsupported(g.rules) and not g.rules.gaps.rows]
SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _walk(engine: Engine, rng: random.Random, steps: int) -> list[tuple]:
    """Play random legal moves, returning (move, snapshot-before) pairs."""
    played = []
    for _ in range(steps):
        moves = engine.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        played.append((move, engine.snapshot(), engine.move_to_json(move)))
        engine.apply(move)
    return played


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(seed=st.integers(1, 10**6), walk=st.integers(0, 2**32))
def test_apply_undo_restores_exact_state(game: str, seed: int, walk: int) -> None:
    engine = Engine(deal(game, seed))
    played = _walk(engine, random.Random(walk), 80)
    for _move, before, _json in reversed(played):
        engine.undo()
        assert engine.snapshot() == before


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(seed=st.integers(1, 10**6), walk=st.integers(0, 2**32))
def test_validator_accepts_every_engine_move(game: str, seed: int, walk: int) -> None:
    inst = deal(game, seed)
    engine = Engine(inst)
    played = _walk(engine, random.Random(walk), 80)
    report = replay(inst, [j for _m, _s, j in played])
    assert report.ok, report.message()
    assert report.won == engine.is_won()
    assert report.foundation_cards == engine.foundation_cards()


def _random_move(engine: Engine, rng: random.Random) -> tuple[int, int, int, int, int]:
    """A random, usually illegal, move between existing places."""
    areas = [
        (TABLEAU, len(engine.piles)),
        (FOUNDATION, len(engine.found)),
        (CELL, len(engine.cells)),
        (RESERVE, len(engine.reserve)),
        (WASTE, 1 if engine.waste else 0),
    ]
    areas = [(a, n) for a, n in areas if n]
    src, ns = rng.choice(areas)
    dst, nd = rng.choice([(a, n) for a, n in areas if a in (TABLEAU, FOUNDATION, CELL)])
    return (src, rng.randrange(ns), dst, rng.randrange(nd), rng.choice([1, 1, 1, 2, 3]))


@pytest.mark.parametrize("game", TABLEAU_GAMES)
@SETTINGS
@given(seed=st.integers(1, 10**6), walk=st.integers(0, 2**32))
def test_validator_and_engine_agree_on_random_moves(game: str, seed: int, walk: int) -> None:
    """Validator accepts a random move exactly when the engine calls it legal."""
    inst = deal(game, seed)
    engine = Engine(inst)
    rng = random.Random(walk)
    played = _walk(engine, rng, rng.randrange(40))
    prefix = [j for _m, _s, j in played]
    for _ in range(20):
        move = _random_move(engine, rng)
        try:
            as_json = engine.move_to_json(move)
        except IndexError:
            continue  # no card at that source
        if move[0] in (TABLEAU, FOUNDATION) and move[4] > len(
            (engine.piles if move[0] == TABLEAU else engine.found)[move[1]]
        ):
            continue
        verdict = replay(inst, [*prefix, as_json])
        assert verdict.ok == engine.is_legal(move), (as_json, verdict.message())


def test_stock_moves_are_legal_and_undo() -> None:
    inst = deal("klondike", 7)
    engine = Engine(inst)
    before = engine.snapshot()
    deals = [m for m in engine.legal_moves() if m[0] == STOCK]
    assert deals == [(STOCK, 0, WASTE, 0, 3)]
    engine.apply(deals[0])
    assert len(engine.waste) == 3
    engine.undo()
    assert engine.snapshot() == before


def test_black_hole_moves_follow_rank_adjacency() -> None:
    engine = Engine(deal("black-hole", 1, "pysol"))
    hole = engine.rank[engine.found[0][-1]]
    assert hole == 1
    for _src, si, _dst, _di, _cnt in engine.legal_moves():
        assert engine.rank[engine.piles[si][-1]] in (2, 13)


def test_key_ignores_pile_order_and_suits_in_black_hole() -> None:
    a = Engine(deal("black-hole", 1, "pysol"))
    b = Engine(deal("black-hole", 1, "pysol"))
    b.piles.reverse()
    assert a.key() == b.key()
    b.piles[0][0] = b.piles[0][0]  # same card: trivially equal
    f = Engine(deal("freecell", 1, "ms"))
    g = Engine(deal("freecell", 1, "ms"))
    g.piles.reverse()
    assert f.key() == g.key()
    assert f.snapshot() != g.snapshot()


def test_won_state_detected() -> None:
    """Tiny all-in-a-row deal played out by exhaustive search reaches a won state when one exists."""
    inst = deal("all-in-a-row", 3, overrides={"suits": 1, "ranks": 4, "piles": 2})
    engine = Engine(inst)

    def search() -> bool:
        if engine.is_won():
            return True
        for m in engine.legal_moves():
            engine.apply(m)
            if search():
                return True
            engine.undo()
        return False

    assert isinstance(search(), bool)
    won = engine.is_won()
    assert won == (engine.foundation_cards() == 4)


def test_generalized_rules_reach_engine() -> None:
    rules = load_game("freecell", {"suits": 6, "ranks": 20, "cells": 2}).rules
    engine = Engine(deal("freecell", 5, overrides={"suits": 6, "ranks": 20, "cells": 2}))
    assert engine.n_cards == 120 == rules.deck.suits * rules.deck.ranks
    assert len(engine.cells) == 2


def test_pile_order_matters_while_the_stock_deals_onto_the_tableau() -> None:
    """A deal gives its k-th card to pile k, so piles are not interchangeable while the stock lasts: the key
    keeps their order and every empty pile is a target. Sorting them lost East Haven 2x6 deal 71 (won)."""
    over = {"suits": 2, "ranks": 6, "piles": 3, "stock": 6}
    e = Engine(deal("east-haven", 71, "portable", over))
    assert e.piles_ordered()
    key = e.key()
    e.piles.reverse()
    e.down.reverse()
    assert e.key() != key
    e.piles[0][:] = []
    e.piles[2][:] = []
    targets = {m[3] for m in e.legal_moves() if m[2] == TABLEAU and m[0] != STOCK and not e.piles[m[3]]}
    assert targets == {0, 2}
    e.stock.clear()  # no deal left: piles are interchangeable again
    assert not e.piles_ordered()
    targets = {m[3] for m in e.legal_moves() if m[2] == TABLEAU and not e.piles[m[3]]}
    assert targets == {0}


def test_deal_onto_tableau_deal_that_sorted_piles_lost_is_won() -> None:
    """East Haven 2x6 deal 71: an exhaustive search over exact states and every empty target wins it; dfs
    and planning called it UNSOLVABLE while the key sorted the piles."""
    from patience.solvers.base import Limits, Status, solve

    inst = deal("east-haven", 71, "portable", {"suits": 2, "ranks": 6, "piles": 3, "stock": 6})
    for backend in ("dfs", "planning"):
        assert solve(inst, backend, Limits(seconds=20)).status is Status.SOLVED, backend
