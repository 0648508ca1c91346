"""Canfield's rules as Solvitaire plays them (issue 14): the engine and the independent validator agree.

Each rule is checked on hand-set positions, where the engine (:meth:`Engine.is_legal`) and the validator
(:mod:`patience.validate`, which shares no move-generation code with the engine) must give the same
answer and the validator must name the rule; then both are compared move for move on random playouts of
``canfield`` and ``canfield-whole-pile``: at every step, every move between existing places.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from patience.deals import deal
from patience.engine import CELL, FOUNDATION, RESERVE, STOCK, TABLEAU, WASTE, Engine, Move
from patience.validate import Illegal, _Board

GAMES = ("canfield", "canfield-whole-pile")
SMALL = {"ranks": 6, "reserve": 3, "stock": 10}  # 24 cards: 1 home, 3 reserve, 10 stock, 10 on 4 piles


def position(
    game: str,
    tableau: list[str],
    found: list[str],
    *,
    overrides: dict[str, Any] | None = None,
    reserve: str = "",
    waste: str = "",
    stock: str = "",
) -> tuple[Engine, _Board]:
    """An engine and a validator board set to the same position (cards as text, bottom first).

    The position need not hold the whole deck: only the rules of single moves are tested on it. The base
    rank is the rank of the first foundation's bottom card, as a deal sets it.
    """
    inst = deal(game, 1, overrides=overrides)
    e, b = Engine(inst), _Board(inst)
    parse, code = inst.deck.parse, inst.deck.code

    def cards(text: str) -> list[Any]:
        return [parse(t) for t in text.split()]

    e.piles = [[code(c) for c in cards(p)] for p in tableau]
    e.down = [0] * len(tableau)
    e.found = [[code(c) for c in cards(f)] for f in found]
    e.reserve, e.waste, e.stock = ([code(c) for c in cards(x)] for x in (reserve, waste, stock))
    e.base_rank = e.rank[e.found[0][0]]
    e._onto = [None] * inst.deck.n_codes  # build_targets' cache depends on the base
    b.piles = [cards(p) for p in tableau]
    b.hidden = [0] * len(tableau)
    b.found = [cards(f) for f in found]
    b.reserve, b.waste, b.stock = cards(reserve), cards(waste), cards(stock)
    b.base = b.found[0][0].rank
    return e, b


def clone(b: _Board) -> _Board:
    """A copy of a validator board whose lists can change without touching ``b``."""
    c = copy.copy(b)
    c.piles = [list(p) for p in b.piles]
    c.hidden = list(b.hidden)
    c.found = [list(f) for f in b.found]
    c.cells = list(b.cells)
    c.reserve, c.stock, c.waste = list(b.reserve), list(b.stock), list(b.waste)
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


# Rule 1: tableau ranks count from the dealt base (tableau.wrap: base) -------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_nothing_goes_on_a_base_rank_card(game: str) -> None:
    """Base 5: a red 4 may not go on the black 5 (Solvitaire ranks the 5 lowest); plain wrap lets it."""
    spots = ["5S", "9C", "JC", "QS"]
    e, b = position(game, spots, ["5D", "", "", ""], waste="4H")
    assert verdicts(e, b, (WASTE, 0, TABLEAU, 0, 1)) == (False, "tableau.wrap=base")
    e, b = position(game, spots, ["5D", "", "", ""], waste="4H", overrides={"tableau.wrap": True})
    assert verdicts(e, b, (WASTE, 0, TABLEAU, 0, 1)) == (True, None)


@pytest.mark.parametrize("game", GAMES)
def test_king_on_ace_wraps_unless_the_base_is_the_ace(game: str) -> None:
    """Base 5: the red King goes on the black Ace (ranks ... K, A, 2, 3, 4 from the top); base Ace: no."""
    spots = ["AS", "9C", "JC", "QS"]
    e, b = position(game, spots, ["5D", "", "", ""], waste="KH")
    assert verdicts(e, b, (WASTE, 0, TABLEAU, 0, 1)) == (True, None)
    e, b = position(game, spots, ["AD", "", "", ""], waste="KH")
    assert verdicts(e, b, (WASTE, 0, TABLEAU, 0, 1)) == (False, "tableau.wrap=base")
    assert verdicts(e, b, (WASTE, 0, TABLEAU, 1, 1)) == (False, "tableau.direction=down")  # K on 9


def test_a_group_may_not_hold_a_card_on_a_base_rank_card() -> None:
    """Base 5: 5H with 4S on it is not a built group, so the two do not move together onto a black 6."""
    spots = ["9C 5H 4S", "6S", "JC", "QS"]
    e, b = position("canfield", spots, ["5D", "", "", ""])
    legal, rule = verdicts(e, b, (TABLEAU, 0, TABLEAU, 1, 2))
    assert not legal and rule == "tableau.group_moves=build"
    e, b = position("canfield", spots, ["5D", "", "", ""], overrides={"tableau.wrap": True})
    assert verdicts(e, b, (TABLEAU, 0, TABLEAU, 1, 2)) == (True, None)


def test_base_rank_wrap_changes_no_build_target_when_the_base_is_high() -> None:
    """Build targets under ``wrap: base`` are those of plain wrap minus the base-rank cards."""
    inst = deal("canfield", 3)
    plain = Engine(deal("canfield", 3, overrides={"tableau.wrap": True}))
    e = Engine(inst)
    assert e.base_rank == plain.base_rank
    for card in range(inst.deck.n_codes):
        want = {t for t in plain.build_targets(card) if plain.rank[t] != e.base_rank}
        assert e.build_targets(card) == want


# Rule 2: only whole piles move between tableau piles (tableau.group_moves: whole-pile) ---------------------
def test_whole_pile_moves_no_top_card_alone() -> None:
    """8H alone may not leave 9C for 9S; the whole pile 9C 8H may go onto 10H; a one-card pile moves."""
    spots = ["9C 8H", "9S", "10H", "QS"]
    e, b = position("canfield-whole-pile", spots, ["3D", "", "", ""])
    assert verdicts(e, b, (TABLEAU, 0, TABLEAU, 1, 1)) == (False, "tableau.group_moves=whole-pile")
    assert verdicts(e, b, (TABLEAU, 0, TABLEAU, 2, 2)) == (True, None)
    assert (TABLEAU, 0, TABLEAU, 1, 1) not in e.legal_moves()
    e, b = position("canfield-whole-pile", ["8H", "9S", "10H", "QS"], ["3D", "", "", ""])
    assert verdicts(e, b, (TABLEAU, 0, TABLEAU, 1, 1)) == (True, None)
    e, b = position("canfield", spots, ["3D", "", "", ""])  # group_moves build: the top card moves alone
    assert verdicts(e, b, (TABLEAU, 0, TABLEAU, 1, 1)) == (True, None)


def test_whole_pile_must_be_one_built_group_and_top_cards_still_go_home() -> None:
    """A whole pile that is not built (5C under 8H) does not move; its top card still goes home."""
    e, b = position("canfield-whole-pile", ["5C 8H", "9S", "10H", "QS"], ["7H", "", "", ""])
    legal, rule = verdicts(e, b, (TABLEAU, 0, TABLEAU, 1, 2))
    assert not legal and rule == "tableau.group_moves=whole-pile"
    assert verdicts(e, b, (TABLEAU, 0, FOUNDATION, 0, 1)) == (True, None)


# Rule 3: spaces from the reserve, then only from the waste (tableau.empty: reserve-then-waste) --------------
OPEN = ["9C 8H", "9S", "10H", ""]  # pile 3 is a space


def test_open_space_lets_only_waste_cards_onto_the_tableau() -> None:
    """Reserve empty, a space open: the waste's 7C may fill it or build on 8H, the stock deals; no
    tableau card moves to the tableau (not even a whole pile onto a pile), until the space is filled."""
    e, b = position("canfield-whole-pile", OPEN, ["3D", "", "", ""], waste="KD 7C", stock="2C 2H 2S")
    assert verdicts(e, b, (WASTE, 0, TABLEAU, 3, 1)) == (True, None)
    assert verdicts(e, b, (WASTE, 0, TABLEAU, 0, 1)) == (True, None)
    assert verdicts(e, b, (STOCK, 0, WASTE, 0, 3)) == (True, None)
    for move in [(TABLEAU, 1, TABLEAU, 2, 1), (TABLEAU, 0, TABLEAU, 2, 2), (TABLEAU, 1, TABLEAU, 3, 1)]:
        assert verdicts(e, b, move) == (False, "tableau.empty=reserve-then-waste")
    assert not [m for m in e.legal_moves() if m[0] == TABLEAU and m[2] == TABLEAU]
    e.apply((WASTE, 0, TABLEAU, 3, 1))
    b.play({"from": "waste", "to": "tableau:3"})
    assert verdicts(e, b, (TABLEAU, 1, TABLEAU, 2, 1)) == (True, None)  # no space: whole piles move again


def test_open_space_still_lets_cards_go_home() -> None:
    e, b = position("canfield-whole-pile", ["9C 4D", "9S", "10H", ""], ["3D", "", "", ""], waste="4S")
    assert verdicts(e, b, (TABLEAU, 0, FOUNDATION, 0, 1)) == (True, None)


def test_reserve_fills_a_space_first_under_both_policies() -> None:
    """While the reserve has cards its top must fill the space: the waste card may not."""
    for policy in ("reserve-then-waste", "reserve-first"):
        over = {"tableau.empty": policy}
        e, b = position(
            "canfield-whole-pile",
            OPEN,
            ["3D", "", "", ""],
            overrides=over,
            reserve="QC 5S",
            waste="7C",
            stock="2C",
        )
        assert e.legal_moves() == [(RESERVE, 1, TABLEAU, 3, 1)]
        assert verdicts(e, b, (RESERVE, 1, TABLEAU, 3, 1)) == (True, None)
        assert verdicts(e, b, (WASTE, 0, TABLEAU, 3, 1)) == (False, f"tableau.empty={policy}")
        assert verdicts(e, b, (STOCK, 0, WASTE, 0, 1)) == (False, f"tableau.empty={policy}")


def test_reserve_first_spaces_take_any_card_once_the_reserve_is_empty() -> None:
    """canfield's rule, for contrast: with the reserve empty a tableau card may go to the space."""
    over = {"tableau.empty": "reserve-first"}
    e, b = position("canfield-whole-pile", OPEN, ["3D", "", "", ""], overrides=over, waste="7C")
    assert verdicts(e, b, (TABLEAU, 1, TABLEAU, 2, 1)) == (True, None)
    assert verdicts(e, b, (TABLEAU, 0, TABLEAU, 3, 1)) == (False, "tableau.group_moves=whole-pile")


def test_dominances_under_reserve_then_waste_spaces() -> None:
    """Spaces that stop every tableau move but from the waste: safe_deal, and safe_home only for a card
    lying on another in the tableau (Dominances._safe_home); no partial_pile."""
    from patience.solvers.dominance import applicable

    free = {"tableau.group_moves": "build"}
    assert applicable(deal("canfield-whole-pile", 1).rules) == {"safe_deal", "safe_home"}
    assert applicable(deal("canfield-whole-pile", 1, overrides=free).rules) == {"safe_deal", "safe_home"}
    loose = {**free, "tableau.empty": "any"}
    assert applicable(deal("canfield-whole-pile", 1, overrides=loose).rules) == {
        "safe_deal",
        "safe_home",
        "partial_pile",
    }


# Move for move on random playouts ---------------------------------------------------------------------------
def candidates(e: Engine) -> list[Move]:
    """Every move between existing places: tableau groups of any size, reserve, waste, foundations, stock."""
    sources: list[tuple[int, int, int]] = []
    for i, p in enumerate(e.piles):
        sources.extend((TABLEAU, i, n) for n in range(1, len(p) + 1))
    sources.extend((RESERVE, i, 1) for i in range(len(e.reserve)))
    if e.waste:
        sources.append((WASTE, 0, 1))
    sources.extend((FOUNDATION, i, 1) for i, f in enumerate(e.found) if f)
    targets = [(TABLEAU, j) for j in range(len(e.piles))]
    targets += [(FOUNDATION, j) for j in range(len(e.found))]
    targets += [(CELL, j) for j in range(len(e.cells))]
    out = [(a, i, d, j, n) for a, i, n in sources for d, j in targets if (a, i) != (d, j)]
    if e.stock:
        out.append((STOCK, 0, WASTE, 0, min(e.deal_count, len(e.stock))))
    if e.waste:
        out.append((WASTE, 0, STOCK, 0, len(e.waste)))
    return out


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("small", [False, True], ids=["full", "small"])
def test_engine_and_validator_agree_move_for_move(game: str, small: bool) -> None:
    """On random playouts every candidate move is legal for the engine exactly when the validator
    accepts it; the legal moves the engine generates are among them, and both states stay equal.

    The walk prefers moves that take a whole pile (7 in 10), so spaces open and the reserve runs out:
    on the small decks it must reach positions with a space open and the reserve empty, where
    ``reserve-then-waste`` decides.
    """
    rng = random.Random(14)
    seen_legal = seen_illegal = open_spaces = 0
    for seed in range(1, 9):
        inst = deal(game, seed, overrides=SMALL if small else None)
        e, b = Engine(inst), _Board(inst)
        for _step in range(120):
            legal = e.legal_moves()
            if not legal:
                break
            open_spaces += not e.reserve and not all(e.piles)
            for move in candidates(e):
                ok, _rule = verdicts(e, b, move)
                seen_legal += ok
                seen_illegal += not ok
            emptying = [m for m in legal if m[0] == TABLEAU and m[4] == len(e.piles[m[1]])]
            move = rng.choice(emptying if emptying and rng.random() < 0.7 else legal)
            b.play(e.move_to_json(move))
            e.apply(move)
            assert [[inst.deck.code(c) for c in p] for p in b.piles] == e.piles
            assert b.waste == [inst.deck.card(c) for c in e.waste]
    assert seen_legal > 100 and seen_illegal > 100
    assert open_spaces >= 10 or not small
