"""Solver registry and the validated solve() entry point."""

from __future__ import annotations

import pytest

from patience.deals import deal
from patience.engine import Engine
from patience.instance import Instance
from patience.rules import RuleSet, load_game
from patience.solvers import base
from patience.solvers.base import Limits, Result, Status, get_solver, solve


class _Liar:
    """A fake backend that claims a win with a move list of its choosing."""

    name = "liar"

    def __init__(self, moves: list[dict]) -> None:
        self.moves = moves

    def supports(self, rules: RuleSet) -> bool:
        return True

    def solve(self, instance: Instance, limits: Limits) -> Result:
        return Result(Status.SOLVED, tuple(self.moves), {"nodes": 1})


def test_unknown_backend_lists_valid_ones() -> None:
    with pytest.raises(ValueError, match="valid: auto, cpsat"):
        get_solver("magic")


@pytest.mark.parametrize(
    "game,backend",
    [
        ("freecell", "planning"),
        ("klondike-thoughtful", "planning"),
        ("gaps-basic-variant", "dfs"),
        ("gaps", "dfs"),
        ("black-hole", "dfs"),
        ("all-in-a-row", "dfs"),
        ("worm-hole", "cpsat"),
    ],
)
def test_auto_choice(game: str, backend: str) -> None:
    assert base._pick_auto(load_game(game).rules).name == backend


def test_unvalidated_win_becomes_error(monkeypatch: pytest.MonkeyPatch) -> None:
    inst = deal("black-hole", 1, "pysol")
    eng = Engine(inst)
    one_move = [eng.move_to_json(eng.legal_moves()[0])]
    monkeypatch.setitem(base.BACKENDS, "liar", ("x", "y"))
    monkeypatch.setattr(base, "get_solver", lambda name: _Liar(one_move))
    result = solve(inst, "liar", Limits(seconds=1))
    assert result.status is Status.ERROR
    assert "validator rejects" in result.message and "not won" in result.message
    bad = [{"from": "tableau:0", "to": "foundation:0"}]
    monkeypatch.setattr(base, "get_solver", lambda name: _Liar(bad))
    assert solve(inst, "liar").status is Status.ERROR


def test_engine_gaps_several_decks_unsupported() -> None:
    result = solve(deal("gaps", 1, overrides={"decks": 2}), "auto", Limits(seconds=1))
    assert result.status is Status.UNSUPPORTED and "several decks" in result.message
