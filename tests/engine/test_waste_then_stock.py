"""Spaces filled at once from the waste, or the stock (``tableau.empty: waste-then-stock``, Fortune's Favor).

The engine and the independent validator must agree on hand-set positions and move for move on playouts;
on small deals dfs (with and without its dominances) and planning decide as a brute-force search does
that plays only through the validator, so the engine's rules and the dominances are both checked.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from patience.deals import deal
from patience.engine import FOUNDATION, STOCK, TABLEAU, WASTE, Engine, Move
from patience.solvers.base import Limits, Status, get_solver, solve
from patience.solvers.dominance import applicable
from patience.validate import Illegal, _Board

GAME = "fortunes-favor"
SMALL = {"suits": 2, "ranks": 7, "stock": 8, "piles": 2}  # 14 cards: 2 Aces home, 8 stock, 2 piles of 2


def position(tableau: list[str], *, waste: str = "", stock: str = "") -> tuple[Engine, _Board]:
    """An engine and a validator board set to the same position (cards as text, bottom first), the Aces
    home. Only single moves are tested on it, so it need not hold the whole deck."""
    inst = deal(GAME, 1)
    e, b = Engine(inst), _Board(inst)
    parse, code = inst.deck.parse, inst.deck.code

    def cards(text: str) -> list[Any]:
        return [parse(t) for t in text.split()]

    e.piles = [[code(c) for c in cards(p)] for p in tableau]
    e.down = [0] * len(tableau)
    e.waste, e.stock = [code(c) for c in cards(waste)], [code(c) for c in cards(stock)]
    b.piles = [cards(p) for p in tableau]
    b.hidden = [0] * len(tableau)
    b.waste, b.stock = cards(waste), cards(stock)
    return e, b


def clone(b: _Board) -> _Board:
    c = copy.copy(b)
    c.piles = [list(p) for p in b.piles]
    c.found = [list(f) for f in b.found]
    c.stock, c.waste = list(b.stock), list(b.waste)
    return c


def verdicts(e: Engine, b: _Board, move: Move) -> tuple[bool, str | None]:
    """The engine's and the validator's answer on ``move``, asserted equal; returns (legal, broken rule)."""
    as_json = e.move_to_json(move)
    try:
        clone(b).play(as_json)
        rule = None
    except Illegal as err:
        rule = err.rule
    assert e.is_legal(move) == (rule is None), (as_json, rule)
    return rule is None, rule


def test_a_space_takes_the_waste_top_at_once() -> None:
    """With a space open and cards in the waste, the waste's top goes there and nothing else moves."""
    e, b = position(["KS", "", "9H", "2C"], waste="5D 7C", stock="3H")
    assert e.legal_moves() == [(WASTE, 0, TABLEAU, 1, 1)]
    assert verdicts(e, b, (WASTE, 0, TABLEAU, 1, 1)) == (True, None)
    rule = "tableau.empty=waste-then-stock"
    assert verdicts(e, b, (TABLEAU, 3, FOUNDATION, 0, 1)) == (False, rule)  # 2C home must wait
    assert verdicts(e, b, (STOCK, 0, WASTE, 0, 1)) == (False, rule)
    assert verdicts(e, b, (TABLEAU, 0, TABLEAU, 1, 1)) == (False, rule)
    assert verdicts(e, b, (STOCK, 0, TABLEAU, 1, 1)) == (False, rule)  # the waste has cards


def test_with_the_waste_empty_the_stock_top_fills_it() -> None:
    """Waste empty: the stock's top card goes straight to the space, named in the move; undo restores."""
    e, b = position(["KS", "", "9H"], stock="4D 3H")
    assert e.legal_moves() == [(STOCK, 0, TABLEAU, 1, 1)]
    m = (STOCK, 0, TABLEAU, 1, 1)
    assert e.move_to_json(m) == {"card": "3H", "from": "stock", "to": "tableau:1", "count": 1}
    assert verdicts(e, b, m) == (True, None)
    assert verdicts(e, b, (STOCK, 0, WASTE, 0, 1)) == (False, "tableau.empty=waste-then-stock")
    before = e.snapshot()
    e.apply(m)
    assert e.piles[1] == [e.deck.code(e.deck.parse("3H"))] and e.stock == [e.deck.code(e.deck.parse("4D"))]
    e.undo()
    assert e.snapshot() == before
    # No space open: the stock deals to the waste only.
    e, b = position(["KS", "8C", "9H"], stock="4D 3H")
    assert verdicts(e, b, (STOCK, 0, TABLEAU, 1, 1)) == (False, "tableau.empty=waste-then-stock")
    assert verdicts(e, b, (STOCK, 0, WASTE, 0, 1)) == (True, None)


def test_with_waste_and_stock_empty_any_card_fills_it() -> None:
    """Both empty: a card from a pile of two may go to the space (a lone card's move is offered once)."""
    e, b = position(["KS 7H", "", "9H"])
    assert verdicts(e, b, (TABLEAU, 0, TABLEAU, 1, 1)) == (True, None)
    assert (TABLEAU, 0, TABLEAU, 1, 1) in e.legal_moves()


def test_dominances_under_waste_then_stock() -> None:
    """safe_home's proof does not cover a space that must be filled at once; safe_deal's does."""
    rules = deal(GAME, 1).rules
    assert applicable(rules) == {"safe_deal"}
    assert "safe_home" in applicable(deal(GAME, 1, overrides={"tableau.empty": "any"}).rules)


def candidates(e: Engine) -> list[Move]:
    """Every move between existing places: tableau tops, the waste and the stock to any pile or foundation."""
    srcs = [(TABLEAU, i) for i, p in enumerate(e.piles) if p] + ([(WASTE, 0)] if e.waste else [])
    dsts = [(TABLEAU, j) for j in range(len(e.piles))] + [(FOUNDATION, j) for j in range(len(e.found))]
    out = [(a, i, d, j, 1) for a, i in srcs for d, j in dsts if (a, i) != (d, j)]
    if e.stock:
        out += [(STOCK, 0, WASTE, 0, 1)] + [(STOCK, 0, TABLEAU, j, 1) for j in range(len(e.piles))]
    return out


@pytest.mark.parametrize("overrides", [None, SMALL], ids=["full", "small"])
def test_engine_and_validator_agree_move_for_move(overrides: dict[str, Any] | None) -> None:
    """On random playouts every candidate move is legal for the engine exactly when the validator accepts
    it, and both states stay equal; the playouts open spaces with the waste full and with it empty."""
    rng = random.Random(3)
    spaces_from = {"waste": 0, "stock": 0}
    for seed in range(1, 3 if overrides is None else 9):  # full deals: ~200 candidates a step
        inst = deal(GAME, seed, overrides=overrides)
        e, b = Engine(inst), _Board(inst)
        for _step in range(60):
            legal = e.legal_moves()
            if not legal:
                break
            for move in candidates(e):
                verdicts(e, b, move)
            if not all(e.piles):
                spaces_from["waste" if e.waste else "stock"] += bool(e.waste or e.stock)
            move = rng.choice(legal)
            b.play(e.move_to_json(move))
            e.apply(move)
            assert [[inst.deck.code(c) for c in p] for p in b.piles] == e.piles
            assert [inst.deck.code(c) for c in b.waste] == e.waste
    assert min(spaces_from.values()) >= 3, spaces_from


def _brute(b: _Board, seen: set[Any]) -> bool:
    """Win from ``b`` playing only moves the validator accepts (a search sharing no code with the engine)."""
    if b.won():
        return True
    key = (tuple(map(tuple, b.piles)), tuple(len(f) for f in b.found), tuple(b.stock), tuple(b.waste))
    if key in seen:
        return False
    seen.add(key)
    moves: list[dict[str, Any]] = []
    srcs = [f"tableau:{i}" for i, p in enumerate(b.piles) if p] + (["waste"] if b.waste else [])
    dsts = [f"tableau:{j}" for j in range(len(b.piles))] + [f"foundation:{j}" for j in range(len(b.found))]
    moves += [{"from": s, "to": d} for s in srcs for d in dsts if s != d]
    if b.stock:
        moves.append({"from": "stock", "to": "waste"})
        moves += [{"from": "stock", "to": d} for d in dsts[: len(b.piles)]]
    for m in moves:
        nxt = clone(b)
        try:
            nxt.play(m)
        except Illegal:
            continue
        if _brute(nxt, seen):
            return True
    return False


@pytest.mark.parametrize("backend", ["dfs", "dfs-no-dominances", "planning"])
def test_verdicts_match_a_brute_force_through_the_validator(backend: str) -> None:
    """Small deals (10 of the first 40 lost): every backend's verdict is the brute force's."""
    kinds = set()
    for seed in range(1, 41):
        inst = deal(GAME, seed, overrides=SMALL)
        want = _brute(_Board(inst), set())
        kinds.add(want)
        if backend == "dfs-no-dominances":
            bare = get_solver("dfs", dominances=frozenset(), streamline_share=0)
            res = bare.solve(inst, Limits(seconds=20))
        else:
            res = solve(inst, backend, Limits(seconds=20))
        assert res.status is (Status.SOLVED if want else Status.UNSOLVABLE), (seed, backend, res.message)
    assert kinds == {True, False}
