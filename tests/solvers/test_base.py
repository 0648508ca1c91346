"""Solver registry and the validated solve() entry point."""

from __future__ import annotations

import pytest

from patience.deals import deal
from patience.engine import Engine
from patience.instance import Instance
from patience.rules import RuleSet, list_games, load_game
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


# Hidden information and unsupported pairs ---------------------------------------------------------
HIDDEN = [g.name for g in list_games() if not g.rules.thoughtful]


def test_models_include_hidden_information_games() -> None:
    assert "klondike" in HIDDEN and "klondike-thoughtful" not in HIDDEN


@pytest.mark.parametrize("backend", ["auto", *base.BACKENDS])
@pytest.mark.parametrize("game", HIDDEN)
def test_every_backend_refuses_hidden_information_games(
    game: str, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """thoughtful: false -> UNSUPPORTED from solve() for every backend, before any backend is loaded."""

    def no_backend(name: str) -> None:
        raise AssertionError(f"backend {name} loaded for a hidden-information game")

    monkeypatch.setattr(base, "get_solver", no_backend)
    result = solve(deal(game, 1), backend, Limits(seconds=1))
    assert result.status is Status.UNSUPPORTED
    assert result.message.startswith(f"{game} hides cards (thoughtful: false)")
    assert result.solution is None and not result.stats
    assert base.supporting_backends(load_game(game).rules) == []


def test_hidden_message_names_the_thoughtful_counterpart() -> None:
    reason = base.unsupported_reason(load_game("klondike").rules, "klondike")
    assert reason is not None and reason.endswith("try klondike-thoughtful")
    overridden = load_game("klondike", {"draw": 1}).rules  # no model has these rules with every card known
    reason = base.unsupported_reason(overridden, "klondike")
    assert reason == (
        "klondike hides cards (thoughtful: false); solvers decide only thoughtful games: "
        "try --set thoughtful=true (the same game with every card known)"
    )
    assert base.hides_cards(overridden)
    assert not base.hides_cards(load_game("klondike", {"thoughtful": True}).rules)
    assert base.unsupported_reason(load_game("klondike", {"thoughtful": True}).rules, "klondike") is None


def test_supporting_backends_and_the_pair_message() -> None:
    bh, fc = load_game("black-hole").rules, load_game("freecell").rules
    assert {"cpsat", "cpsat-only", "dfs"} <= set(base.supporting_backends(bh))
    assert "cpsat-gaps" not in base.supporting_backends(bh)
    assert {"dfs", "planning"} <= set(base.supporting_backends(fc))
    assert not {"cpsat", "cpsat-only", "cpsat-gaps", "csp"} & set(base.supporting_backends(fc))
    reason = base.unsupported_reason(fc, "freecell", "cpsat")
    assert reason == "cpsat does not support freecell; backends that do: " + ", ".join(
        base.supporting_backends(fc)
    )
    assert base.unsupported_reason(fc, "freecell", "dfs") is None
    assert base.unsupported_reason(fc, "freecell") is None
    result = solve(deal("black-hole", 1), "cpsat-gaps", Limits(seconds=1))
    assert result.status is Status.UNSUPPORTED and "backends that do: cpsat" in result.message


class _NeedsExtra:
    """A backend whose support check needs an optional package that is not installed."""

    name = "needs-extra"

    def supports(self, rules: RuleSet) -> bool:
        raise ImportError("No module named 'some_planner'")

    def solve(self, instance: Instance, limits: Limits) -> Result:
        raise AssertionError("never called")


def test_backends_missing_optional_packages_are_not_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A backend whose module or support check fails to import is skipped, by auto too."""
    monkeypatch.setitem(base.BACKENDS, "broken", ("patience.solvers.no_such_module", "Nothing"))
    monkeypatch.setitem(base.BACKENDS, "needs-extra", (__name__, "_NeedsExtra"))
    rules = load_game("black-hole").rules
    listed = base.supporting_backends(rules)
    assert "dfs" in listed and "broken" not in listed and "needs-extra" not in listed
    assert base.unsupported_reason(rules, "black-hole", "needs-extra") == (
        "needs-extra does not support black-hole; backends that do: " + ", ".join(listed)
    )
    assert base._pick_auto(rules) is not None


def test_auto_choice_that_does_not_support_the_rules_is_unsupported(monkeypatch: pytest.MonkeyPatch) -> None:
    """auto's pick is held to the same support check as a named backend."""
    picky = _NeedsExtra()
    monkeypatch.setattr(base, "_pick_auto", lambda rules: picky)
    result = solve(deal("black-hole", 1), "auto", Limits(seconds=1))
    assert result.status is Status.UNSUPPORTED
    assert result.message.startswith("needs-extra does not support black-hole; backends that do: cpsat")
