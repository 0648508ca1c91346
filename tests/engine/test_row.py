"""Row games (Accordion, ``row`` rules): the engine's row moves, win test and state key, checked against the
independent validator move for move and against a brute-force solver of this file on small rows.

A row game's piles lie in one row; a whole pile moves onto the pile ``d`` places to its left among the
piles still there (``d`` in ``row.distances``) when the two top cards match by one of ``row.match``.
"""

from __future__ import annotations

import copy
import random
from functools import cache

import pytest

from patience.deals import deal
from patience.engine import TABLEAU, Engine, Move
from patience.formats import from_solvitaire, to_solvitaire
from patience.rules import RuleError, load_game
from patience.solvers.base import Limits, Status, solve
from patience.validate import Illegal, _Board, replay

GAMES = ("accordion", "accordion-knuth")
TEN = {"piles": 10, "deck.dealt": 10}  # Ross & Knuth's game with 10 cards: small enough for brute force


def position(tops: list[str], game: str = "accordion-knuth") -> tuple[Engine, _Board]:
    """An engine and a validator board with the row ``tops`` ('' for a pile already gone), one card a pile.

    Only single moves are tested on it, so the row need not hold the dealt cards.
    """
    inst = deal(game, 1, overrides={"piles": len(tops), "deck.dealt": len(tops)})
    e, b = Engine(inst), _Board(inst)
    parse, code = inst.deck.parse, inst.deck.code
    e.piles = [[code(parse(t))] if t else [] for t in tops]
    e.down = [0] * len(tops)
    b.piles = [[parse(t)] if t else [] for t in tops]
    b.hidden = [0] * len(tops)
    return e, b


def verdicts(e: Engine, b: _Board, move: Move) -> tuple[bool, str | None]:
    """The engine's and the validator's answer on ``move``, asserted equal; returns (legal, broken rule)."""
    src, si, dst, di, cnt = move
    as_json = {"from": f"tableau:{si}", "to": f"tableau:{di}", "count": cnt}
    board = copy.copy(b)
    board.piles = [list(p) for p in b.piles]
    try:
        board.play(as_json)
        rule = None
    except Illegal as err:
        rule = err.rule
    assert e.is_legal(move) == (rule is None), (as_json, rule)
    return rule is None, rule


def test_distances_count_the_piles_left() -> None:
    """Gone piles do not count: 5H is one place right of 5C across a gap and three right of 9H."""
    e, b = position(["9H", "KS", "", "5C", "", "", "5H", "2D"])
    # 5H (pile 6): one left is 5C (pile 3, same rank), three left is 9H (pile 0, same suit).
    assert verdicts(e, b, (TABLEAU, 6, TABLEAU, 3, 1)) == (True, None)
    assert verdicts(e, b, (TABLEAU, 6, TABLEAU, 0, 1)) == (True, None)
    # KS is two places left of 5H: not a distance of the rules; 2D matches neither neighbour.
    assert verdicts(e, b, (TABLEAU, 6, TABLEAU, 1, 1)) == (False, "row.distances=1/3")
    assert verdicts(e, b, (TABLEAU, 7, TABLEAU, 6, 1)) == (False, "row.match=same-suit/same-rank")
    # Never to the right, never a part of a pile, never onto a gap.
    assert verdicts(e, b, (TABLEAU, 3, TABLEAU, 6, 1)) == (False, "row.distances=1/3")
    assert verdicts(e, b, (TABLEAU, 6, TABLEAU, 4, 1))[0] is False
    assert sorted(e.legal_moves()) == [(TABLEAU, 6, TABLEAU, 0, 1), (TABLEAU, 6, TABLEAU, 3, 1)]


def test_a_pile_moves_whole_and_its_top_decides() -> None:
    """After 5H goes onto 5C, the pile 5C 5H moves as one (two cards), matched by its top 5H."""
    e, b = position(["9H", "KS", "5C", "5H"])
    m = (TABLEAU, 3, TABLEAU, 2, 1)
    b.play(e.move_to_json(m))
    e.apply(m)
    assert verdicts(e, b, (TABLEAU, 2, TABLEAU, 1, 1))[1] == "row"  # one card of two: not a whole pile
    assert verdicts(e, b, (TABLEAU, 2, TABLEAU, 1, 2)) == (False, "row.match=same-suit/same-rank")
    assert verdicts(e, b, (TABLEAU, 2, TABLEAU, 0, 2)) == (False, "row.distances=1/3")  # 2 places
    e2, b2 = position(["9H", "KH", "5C", "5H"])
    b2.play(e2.move_to_json(m))
    e2.apply(m)
    assert verdicts(e2, b2, (TABLEAU, 2, TABLEAU, 1, 2)) == (True, None)  # 5H matches KH in suit


def test_win_key_and_undo() -> None:
    """One pile left wins; the key sees the row closed up; undo restores the exact state."""
    e, _ = position(["9H", "9C", "", "5C"])
    gapped, _ = position(["", "9H", "9C", "5C"])
    assert e.key() == gapped.key()  # the same row once closed up
    before = e.snapshot()
    e.apply((TABLEAU, 3, TABLEAU, 1, 1))  # 5C onto 9C (suit): 9H, 5C left, which do not match
    assert not e.legal_moves() and not e.is_won()
    e.undo()
    assert e.snapshot() == before
    e.apply((TABLEAU, 1, TABLEAU, 0, 1))  # 9C onto 9H (rank)
    e.apply((TABLEAU, 3, TABLEAU, 0, 1))  # 5C onto 9C, now one place to its left
    assert e.is_won() and not e.legal_moves()


def test_rules_refuse_rows_with_other_areas() -> None:
    """A row game has no foundations and one card a pile; deck.dealt and kind none belong to rows."""
    with pytest.raises(RuleError, match="foundations.kind"):
        load_game("accordion", {"foundations.kind": "suits"})
    with pytest.raises(RuleError, match="tableau.piles"):
        load_game("accordion", {"piles": 26})
    with pytest.raises(RuleError, match="deck.dealt"):
        load_game("freecell", {"deck.dealt": 20})
    with pytest.raises(RuleError, match="row.distances"):
        load_game("accordion", {"row.distances": [0]})
    assert load_game("accordion", {"row.distances": [1, 2, 3]}).rules.row.distances == (1, 2, 3)


def test_set_aside_deals_take_the_front_of_the_deck() -> None:
    """Ross & Knuth's 18 cards are the first 18 of the 52 Solvitaire lays out for the same seed; the
    instance holds only the cards dealt, and Solvitaire's JSON round-trips (flat card array, as its
    reader wants)."""
    for seed in (1, 2, 7):
        full, short = deal("accordion", seed, "solvitaire"), deal("accordion-knuth", seed, "solvitaire")
        assert short.layout.tableau == full.layout.tableau[:18]
        sv = to_solvitaire(short)
        assert len(sv["accordion"]) == 18 and all(isinstance(c, str) for c in sv["accordion"])
        assert from_solvitaire(sv, "accordion-knuth").sha256 == short.sha256
        nested = {"accordion": [[c] for c in sv["accordion"]]}  # as --deal-only prints it
        assert from_solvitaire(nested, "accordion-knuth").sha256 == short.sha256
    assert len(deal("accordion-knuth", 3).layout.tableau) == 18


@pytest.mark.parametrize("game", GAMES)
def test_engine_and_validator_agree_move_for_move(game: str) -> None:
    """On random playouts every pile-onto-pile move (whole or not) is legal for the engine exactly when the
    validator accepts it; the engine's moves are among them and both rows stay equal."""
    rng = random.Random(17)
    legal_seen = illegal_seen = 0
    for seed in range(1, 5 if game == "accordion-knuth" else 2):  # 52-card rows take longer
        inst = deal(game, seed, "solvitaire")
        e, b = Engine(inst), _Board(inst)
        while True:
            left = [i for i, p in enumerate(e.piles) if p]
            for k, i in enumerate(left):
                for j in left[max(0, k - 4) : k + 2]:
                    for cnt in {1, len(e.piles[i])}:
                        if i != j:
                            ok, _ = verdicts(e, b, (TABLEAU, i, TABLEAU, j, cnt))
                            legal_seen += ok
                            illegal_seen += not ok
            moves = e.legal_moves()
            if not moves:
                break
            m = rng.choice(moves)
            b.play(e.move_to_json(m))
            e.apply(m)
            assert [[inst.deck.code(c) for c in p] for p in b.piles] == e.piles
        assert b.won() == e.is_won()
    assert legal_seen > 100 and illegal_seen > 1000


@cache
def _brute(row: tuple[tuple[int, int], ...]) -> bool:
    """Accordion by brute force on (rank, suit) tops: L1 and L3, same suit or same rank."""
    if len(row) == 1:
        return True
    for k in range(len(row)):
        for d in (1, 3):
            if k >= d and (row[k][0] == row[k - d][0] or row[k][1] == row[k - d][1]):
                if _brute(row[: k - d] + (row[k],) + row[k - d + 1 : k] + row[k + 1 :]):
                    return True
    return False


@pytest.mark.parametrize("backend", ["dfs", "planning"])
def test_verdicts_match_brute_force(backend: str) -> None:
    """Ten-card Accordion rows (Ross & Knuth's game, 10 cards): dfs and planning decide as brute force does,
    and every win replays in the validator."""
    seen = set()
    for seed in range(1, 41):
        inst = deal("accordion-knuth", seed, overrides=TEN)
        row = tuple((c.rank, c.suit) for p in inst.layout.tableau for c in p)
        want = _brute(row)
        res = solve(inst, backend, Limits(seconds=20))
        assert res.status is (Status.SOLVED if want else Status.UNSOLVABLE), (seed, res.message)
        if want:
            assert replay(inst, list(res.solution or [])).won
        seen.add(want)
    assert seen == {True, False}

