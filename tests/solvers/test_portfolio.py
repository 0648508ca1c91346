"""The portfolio backend: stages run in order, the first verdict wins, time left passes on, and its
verdicts agree with the exhaustive oracle on small deals of rearrangement games."""

from __future__ import annotations

import pytest

from patience.deals import deal
from patience.engine import Engine
from patience.instance import Instance
from patience.rules import RuleSet, load_game
from patience.solvers import base
from patience.solvers.base import Backend, Entry, Limits, Result, Status, get_solver, solve
from patience.solvers.portfolio import (
    STAGES_BY_RULES,
    PortfolioOptions,
    free_cells_without_stock,
    runs_foundations,
)
from patience.validate import replay

from .oracle import small_deal, truth

GAMES = ["freecell", "klondike-thoughtful", "canfield", "spider", "spider-runs", "east-haven"]


@pytest.mark.parametrize("game", GAMES)
def test_agrees_with_brute_force(game: str) -> None:
    for seed in range(8):
        res = solve(small_deal(game, seed), "portfolio", Limits(seconds=20))
        assert res.status in (Status.SOLVED, Status.UNSOLVABLE), (game, seed, res.message)
        assert (res.status is Status.SOLVED) is truth(game, seed), (game, seed)


def test_auto_picks_portfolio_for_rearrangement_games() -> None:
    assert base._pick_auto(load_game("freecell").rules).name == "portfolio"
    assert base._pick_auto(load_game("black-hole").rules).name != "portfolio"


def test_first_stage_that_decides_answers() -> None:
    """MS FreeCell 3: planning-jit's share decides it, so dfs-jit never runs (no dfs-jit stats); on
    Klondike the first stage is dfs-jit."""
    res = solve(deal("freecell", 3, "ms"), "portfolio", Limits(seconds=20))
    assert res.status is Status.SOLVED and res.backend == "portfolio"
    assert res.stats["stage"] == 0 and "planning-jit_expansions" in res.stats
    assert not any(k.startswith("dfs") for k in res.stats)
    res = solve(deal("klondike-thoughtful", 3), "portfolio", Limits(seconds=20))
    assert res.status is Status.SOLVED and res.stats["stage"] == 0 and "dfs-jit_nodes" in res.stats


@pytest.mark.parametrize(
    "game,first",
    [
        ("freecell", "planning-jit"),
        ("bakers-game", "planning-jit"),
        ("eight-off", "planning-jit"),
        ("klondike-thoughtful", "dfs-jit"),  # a stock
        ("thirty-six", "dfs-jit"),  # a stock, no cells
        ("streets-and-alleys", "dfs-jit"),  # no cells
        ("spiderette-runs", "planning-jit"),  # complete-run foundations
        ("spiderette", "dfs-jit"),  # the same game with single cards home
    ],
)
def test_stages_follow_the_rule_features(game: str, first: str) -> None:
    """Free cells and no stock, or complete-run foundations: planning-jit first; the rest dfs-jit first.
    The shares are the table's."""
    rules = load_game(game).rules
    stages = PortfolioOptions().stages_for(rules)
    assert stages[0][0] == first and {n for n, _ in stages} == {"dfs-jit", "planning-jit"}
    assert (free_cells_without_stock(rules) or runs_foundations(rules)) is (first == "planning-jit")
    assert stages == next(s for when, s in STAGES_BY_RULES if when(rules))


def test_given_stages_win_over_the_table() -> None:
    """``stages`` given: those on every rule-set (hole-portfolio relies on it); no table row: refused."""
    rules = load_game("freecell").rules
    assert PortfolioOptions(stages=(("dfs", 1.0),)).stages_for(rules) == (("dfs", 1.0),)
    assert PortfolioOptions(by_rules=((free_cells_without_stock, (("dfs", 1.0),)),)).stages_for(
        load_game("klondike-thoughtful").rules
    ) == (("dfs", 1.0),)  # no row matches: the last row's
    with pytest.raises(ValueError, match="at least one"):
        PortfolioOptions(by_rules=())
    with pytest.raises(ValueError, match="more than 1"):
        PortfolioOptions(by_rules=((free_cells_without_stock, (("dfs", 0.7), ("planning", 0.7))),))


def test_undecided_stage_passes_the_time_on() -> None:
    """A node limit too small for either stage: both run, the result is UNKNOWN with a reason."""
    res = solve(deal("freecell", 1, "ms"), "portfolio", Limits(seconds=20, nodes=5))
    assert res.status is Status.UNKNOWN and res.reason is not None
    assert "dfs-jit_nodes" in res.stats and "planning-jit_nodes" in res.stats and "stage" not in res.stats
    res = solve(deal("klondike-thoughtful", 1), "portfolio", Limits(seconds=20, nodes=5))
    assert res.status is Status.UNKNOWN and res.reason is not None
    assert "dfs-jit_nodes" in res.stats and "planning-jit_nodes" in res.stats and "stage" not in res.stats


def test_one_stage_is_that_backend() -> None:
    inst = deal("bakers-game", 2)
    alone = solve(inst, "planning", Limits(seconds=20))
    staged = get_solver("portfolio", stages=(("planning", 1.0),)).solve(inst, Limits(seconds=20))
    assert staged.status is alone.status and len(staged.solution or ()) == len(alone.solution or ())


@pytest.mark.parametrize(
    "stages,match",
    [
        ((), "at least one"),
        ((("magic", 0.5),), "not a registered backend"),
        ((("portfolio", 0.5),), "not a registered backend"),
        ((("dfs", 0.0),), "must be in"),
        ((("dfs", 0.7), ("planning", 0.7)), "more than 1"),
    ],
)
def test_bad_stages_are_refused(stages: tuple, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        PortfolioOptions(stages=stages)


def test_a_stage_outside_the_kernel_runs_its_fallback() -> None:
    """dfs-jit's kernel does not cover Fortune's Favor's waste-then-stock spaces: the first stage runs dfs
    (the same search, uncompiled); with no fallback the portfolio does not support the game at all."""
    rules = load_game("fortunes-favor").rules
    assert PortfolioOptions().backend("dfs-jit", rules) == "dfs"
    assert PortfolioOptions().backend("dfs-jit", load_game("freecell").rules) == "dfs-jit"
    assert get_solver("portfolio").supports(rules)
    assert not get_solver("portfolio", fallbacks=()).supports(rules)
    res = solve(deal("fortunes-favor", 1), "portfolio", Limits(seconds=20))
    assert res.status is Status.SOLVED and res.stats["stage"] == 0 and "dfs_nodes" in res.stats


def test_a_stage_that_would_run_uncompiled_runs_its_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    """With numba off the kernels run as plain Python, slower than dfs and planning: those run instead."""
    from patience.solvers import jit_budget

    rules = load_game("freecell").rules
    assert PortfolioOptions().backend("planning-jit", rules, 10.0) == "planning-jit"
    monkeypatch.setattr(jit_budget, "HAVE_NUMBA", False)
    assert PortfolioOptions().backend("planning-jit", rules, 10.0) == "planning"
    assert PortfolioOptions().backend("dfs-jit", rules, 10.0) == "dfs"
    assert PortfolioOptions().backend("dfs-jit", rules) == "dfs-jit"  # support alone: no time asked
    res = solve(deal("freecell", 1, "portable", {"ranks": 5}), "portfolio", Limits(seconds=20))
    assert res.status is Status.SOLVED and any(k.startswith("planning_") for k in res.stats)
    assert not any("-jit" in k or "jit_" in k for k in res.stats)


class _OneMove(Backend):
    """A stage claiming a win with one legal move (not a win): the claim must not pass as the portfolio's."""

    name = "one-move"

    def supports(self, rules: RuleSet) -> bool:
        return True

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        eng = Engine(instance)
        return Result(Status.SOLVED, (eng.move_to_json(eng.legal_moves()[0]),), {"nodes": 1.0})


def test_a_stage_win_is_replayed_once_as_the_portfolios(monkeypatch: pytest.MonkeyPatch) -> None:
    """The portfolio replays the stage's win itself, once (a stage does not replay it first), and a stage's
    claim the validator rejects is the portfolio's ERROR, never SOLVED."""
    calls = []
    monkeypatch.setattr(base, "replay", lambda inst, moves: calls.append(len(moves)) or replay(inst, moves))
    inst = deal("freecell", 3, "ms")
    res = get_solver("portfolio", stages=(("planning-jit", 1.0),)).solve(inst, Limits(seconds=20))
    assert res.status is Status.SOLVED and calls == [len(res.solution or ())]
    monkeypatch.setitem(base.BACKENDS, "one-move", Entry("one-move", __name__, "_OneMove"))
    bad = get_solver("portfolio", stages=(("one-move", 1.0),)).solve(inst, Limits(seconds=20))
    assert bad.status is Status.ERROR and "portfolio returned a solution the validator rejects" in bad.message
