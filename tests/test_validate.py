"""Replay validator: valid plans pass, each kind of illegal move is named with its index and rule."""

import json
from pathlib import Path

import pytest

from patience.deals import deal
from patience.engine import Engine
from patience.instance import Instance
from patience.validate import SolutionError, load_solution, replay, solution_json


def _solve_small(inst: Instance) -> list[dict] | None:
    """Exhaustive search with the engine (tiny decks only) returning JSON moves of a win."""
    engine = Engine(inst)
    seen = set()
    path: list[dict] = []

    def go() -> bool:
        if engine.is_won():
            return True
        key = engine.key()
        if key in seen:
            return False
        seen.add(key)
        for m in engine.legal_moves():
            path.append(engine.move_to_json(m))
            engine.apply(m)
            if go():
                return True
            engine.undo()
            path.pop()
        return False

    return list(path) if go() else None


def _first_won(game: str, overrides: dict) -> tuple[Instance, list[dict]]:
    for seed in range(1, 200):
        inst = deal(game, seed, overrides=overrides)
        sol = _solve_small(inst)
        if sol:
            return inst, sol
    raise AssertionError("no small won deal found")


@pytest.mark.parametrize(
    "game,overrides",
    [
        ("black-hole", {"suits": 2, "ranks": 5, "piles": 3}),
        ("freecell", {"suits": 2, "ranks": 5, "piles": 4, "cells": 1}),
        ("klondike-thoughtful", {"suits": 2, "ranks": 6, "piles": 3, "stock": 6}),
        ("spider-1-suit", {"ranks": 5, "decks": 2, "piles": 3, "stock": 3}),
        ("canfield", {"suits": 2, "ranks": 5, "reserve": 3, "stock": 4}),
        ("accordion-knuth", {"piles": 10, "deck.dealt": 10}),
        ("fortunes-favor", {"suits": 2, "ranks": 7, "stock": 8, "piles": 2}),
    ],
)
def test_small_wins_replay(game: str, overrides: dict) -> None:
    inst, sol = _first_won(game, overrides)
    report = replay(inst, sol)
    assert report.ok and report.won, report.message()
    # Dropping the last move leaves a valid but unwon replay.
    short = replay(inst, sol[:-1])
    assert short.ok and not short.won


def test_wrong_colour_named() -> None:
    inst = Instance.from_json(
        {
            "game": "freecell",
            "rules": {"suits": 2, "ranks": 3, "piles": 2, "cells": 1},
            "layout": {
                "tableau": [["AD", "2C", "3D"], ["AC", "3C", "2D"]],
                "foundations": [[], []],
                "cells": [None],
            },
        }
    )
    report = replay(inst, [{"card": "2D", "from": "tableau:1", "to": "tableau:0", "count": 1}])
    assert not report.ok and report.index == 0
    assert report.rule == "tableau.build=alternate-colour"
    report = replay(
        inst,
        [
            {"card": "2D", "from": "tableau:1", "to": "cell:0"},
            {"card": "3C", "from": "tableau:1", "to": "tableau:0"},
        ],
    )
    assert not report.ok and report.index == 1 and report.rule == "tableau.direction=down"


@pytest.mark.parametrize(
    "move,rule",
    [
        ({"from": "tableau:0", "to": "foundation:0"}, "foundations.kind=hole (wrap=true)"),
        ({"from": "tableau:0", "to": "tableau:1"}, "tableau.build=none"),
        ({"from": "tableau:0", "to": "cell:0"}, "cells.count"),
        ({"from": "tableau:0", "to": "foundation:0", "count": 2}, "foundations"),
        ({"from": "tableau:99", "to": "foundation:0"}, "move source"),
        ({"from": "foundation:0", "to": "tableau:0"}, "foundations.removable=false"),
        ({"from": "hand", "to": "foundation:0"}, "move format"),
        ({"card": "AS", "from": "tableau:1", "to": "foundation:0"}, "move card"),
        ({"from": "tableau:0", "to": "foundation:0", "extra": 1}, "move format"),
    ],
)
def test_black_hole_illegal_moves_named(move: dict, rule: str) -> None:
    inst = deal("black-hole", 1, "pysol")  # hole AS; pile 0 top is TH, pile 1 top 8H
    report = replay(inst, [move])
    assert not report.ok and report.index == 0
    assert report.rule == rule, report.error


def test_face_down_and_redeal_rules() -> None:
    inst = deal("klondike", 3)
    pile = inst.layout.tableau[6]
    report = replay(inst, [{"from": "tableau:6", "to": "foundation:0", "count": 2}])
    assert not report.ok and report.rule == "tableau.face_up=top"
    report = replay(
        inst, [{"card": inst.deck.text(pile[0]), "from": "tableau:6", "to": "tableau:0", "count": 7}]
    )
    assert not report.ok
    one_pass = [{"from": "stock", "to": "waste", "count": 3}] * 8
    redeal = {"from": "waste", "to": "stock", "count": 24}
    ok = replay(deal("klondike", 3, overrides={"redeals": 1}), [*one_pass, redeal, *one_pass])
    assert ok.ok
    bad = replay(deal("klondike", 3, overrides={"redeals": 1}), [*one_pass, redeal, *one_pass, redeal])
    assert not bad.ok and bad.index == 17 and bad.rule == "stock.redeals=1"
    draw = replay(inst, [{"from": "stock", "to": "waste", "count": 1}])
    assert not draw.ok and draw.rule == "stock.deal_count=3"


def test_solution_file_bound_to_its_instance(tmp_path: Path) -> None:
    a, b = deal("black-hole", 1, "pysol"), deal("black-hole", 2, "pysol")
    p = tmp_path / "sol.json"
    p.write_text(json.dumps(solution_json(a, [])))
    assert load_solution(p, a) == []
    with pytest.raises(SolutionError, match="not this one"):
        load_solution(p, b)
    p.write_text("{")
    with pytest.raises(SolutionError, match="malformed JSON"):
        load_solution(p, a)


def test_group_cannot_go_to_a_free_cell() -> None:
    """Regression: found by the engine/validator agreement property on Seahaven Towers."""
    inst = Instance.from_json(
        {
            "game": "seahaven-towers",
            "rules": {"suits": 2, "ranks": 4, "piles": 2, "cells": 2, "cells.prefilled": 0},
            "layout": {
                "tableau": [["AC", "2D", "4C", "3C"], ["AD", "3D", "4D", "2C"]],
                "foundations": [[], []],
                "cells": [None, None],
            },
        }
    )
    report = replay(inst, [{"card": "4C", "from": "tableau:0", "to": "cell:0", "count": 2}])
    assert not report.ok and report.rule == "cells"


@pytest.mark.parametrize("card", ["XX", 7, None])
def test_gaps_bad_card_is_a_named_move_format_error(card: object) -> None:
    inst, sol = _first_won("gaps-basic-variant", {"ranks": 5})
    bad = [sol[0], dict(sol[1], card=card), *sol[2:]]
    report = replay(inst, bad)
    assert not report.ok and report.index == 1
    assert report.rule == "move format" and "bad card" in report.error


def test_row_and_waste_then_stock_moves_named() -> None:
    """Accordion's row rules and Fortune's Favor's forced fills are named rules with their move index."""
    inst = deal("accordion-knuth", 3, "solvitaire")  # 8C AD 9D JH 4H 2H 6D 7H TD ...
    ok = {"card": "AD", "from": "tableau:1", "to": "tableau:0", "count": 1}  # no match: AD on 8C
    report = replay(inst, [ok])
    assert not report.ok and report.index == 0 and report.rule == "row.match=same-suit/same-rank"
    two = {"card": "9D", "from": "tableau:2", "to": "tableau:0", "count": 1}  # two places left
    assert replay(inst, [two]).rule == "row.distances=1/3"
    home = {"card": "8C", "from": "tableau:0", "to": "foundation:0", "count": 1}
    assert replay(inst, [home]).rule == "row"
    ff = deal("fortunes-favor", 1, "solvitaire")  # tableau 5H 8S JC 7S 7H 8D 6D 2C ...; stock top 8C
    moves = [
        {"card": "2C", "from": "tableau:7", "to": "foundation:0", "count": 1},  # opens a space
        {"from": "stock", "to": "waste", "count": 1},  # the stock's top must fill it instead
    ]
    report = replay(ff, moves)
    assert not report.ok and report.index == 1 and report.rule == "tableau.empty=waste-then-stock"
    moves[1] = {"card": "8C", "from": "stock", "to": "tableau:7", "count": 1}
    assert replay(ff, moves).ok
