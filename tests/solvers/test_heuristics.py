"""The planning heuristics: chosen by rule features, zero when won, and the admissible one never above the
moves a solution still needs (the bound its docstring proves)."""

from __future__ import annotations

from typing import Any

import pytest

from patience.deals import deal
from patience.engine import Engine
from patience.instance import Instance
from patience.rules import load_game
from patience.shrink import shrink
from patience.solvers.base import Limits, Status, get_solver, solve
from patience.solvers.heuristics import pick_heuristic

from .positions import freecell_position

LIMITS = Limits(seconds=20)
# One small rule-set per heuristic (and per foundation style under "suits"): shrunk to about 12 cards.
GAMES = {
    "freecell": "suits",
    "klondike-thoughtful": "suits",
    "canfield": "suits",
    "black-hole": "hole",
    "spider-runs": "runs",
    "gaps": "gaps",
}


def _small(game: str) -> dict[str, Any]:
    return shrink(load_game(game).rules, 12)


@pytest.mark.parametrize(("game", "name"), GAMES.items())
def test_heuristic_follows_the_rules_not_the_names(game: str, name: str) -> None:
    assert pick_heuristic(Engine(deal(game, 1, "portable", _small(game)))).name == name


def _path(inst: Instance, solution: tuple[dict[str, Any], ...]) -> list[tuple[int, Engine]]:
    """(moves still to play, engine) at every state along ``solution``; the engines are copies by replay."""
    out = []
    for i in range(len(solution) + 1):
        e = Engine(inst)
        e.play_json(solution[:i])
        out.append((len(solution) - i, e))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_admissible_is_a_lower_bound_along_solutions(game: str) -> None:
    """Along any winning line, ``admissible`` never exceeds the moves left in it (else it overestimates the
    shortest plan too); and at the won end it is 0. A* with weight 1 gives the shortest plan, the tightest
    check."""
    checked = 0
    for seed in range(1, 7):
        inst = deal(game, seed, "portable", _small(game))
        for solver in (get_solver("planning", mode="astar", weight=1.0), get_solver("dfs")):
            result = solver.solve(inst, LIMITS)
            if result.status is not Status.SOLVED:
                continue
            h = pick_heuristic(Engine(inst))
            for left, e in _path(inst, result.solution or ()):
                assert h.admissible(e) <= left, (seed, solver.name, left)
            assert e.is_won() and h.admissible(e) == 0
            checked += 1
    assert checked >= 2, "no deal was won: the test checked nothing"


def test_shortest_plans_meet_the_bound_on_hole_games() -> None:
    """In Black Hole every move puts exactly one card home, so cards-not-home is the exact distance."""
    over = _small("black-hole")
    for seed in range(1, 5):
        inst = deal("black-hole", seed, "portable", over)
        result = solve(inst, "dfs", LIMITS)
        if result.status is Status.SOLVED:
            e = Engine(inst)
            assert pick_heuristic(e).admissible(e) == len(result.solution or ())


def test_runs_bound_divides_by_the_run_length() -> None:
    over = _small("spider-runs")
    e = Engine(deal("spider-runs", 1, "portable", over))
    h = pick_heuristic(e)
    assert e.foundation_cards() == 0
    assert h.admissible(e) == -(-e.n_cards // e.R)  # ceil: one run of R cards goes home per move
    assert h.admissible(e) < e.n_cards


def test_informed_counts_blockers() -> None:
    """A card above a lower card of its pile must move before that card goes home: a blocked order scores
    higher than the same cards in the order they go home, and more blockers score higher still."""
    sorted_ = freecell_position([["2C", "AC"], ["2D", "AD"], ["3C", "3D"]])
    one = freecell_position([["AC", "2C"], ["2D", "AD"], ["3C", "3D"]])
    two = freecell_position([["AC", "2C"], ["AD", "2D"], ["3C", "3D"]])
    h = pick_heuristic(sorted_)
    assert h.name == "suits"
    scores = [h.informed(e) for e in (sorted_, one, two)]
    assert scores == sorted(scores) and len(set(scores)) == 3, scores
    # The admissible bound sees only cards not home: the same for all three.
    assert {h.admissible(e) for e in (sorted_, one, two)} == {6}


def test_informed_is_lowest_when_won() -> None:
    """Along a winning line of suit-foundation FreeCell the informed estimate is lowest at the won end (its
    empty-pile credit makes it negative there, below every position with a card still out)."""
    inst = deal("freecell", 1, "portable", _small("freecell"))
    result = solve(inst, "dfs", LIMITS)
    assert result.status is Status.SOLVED
    path = _path(inst, result.solution or ())
    h = pick_heuristic(path[0][1])
    won = h.informed(path[-1][1])
    assert path[-1][1].is_won()
    assert all(h.informed(e) > won for _, e in path[:-1])


@pytest.mark.parametrize("game", ["black-hole", "gaps", "spider-runs"])
def test_informed_is_zero_when_won_outside_suit_foundations(game: str) -> None:
    """Hole, runs and Gaps estimates count only work left: 0 at the end of a winning line."""
    for seed in range(1, 7):
        inst = deal(game, seed, "portable", _small(game))
        result = solve(inst, "auto", LIMITS)
        if result.status is Status.SOLVED:
            e = Engine(inst)
            e.play_json(result.solution or ())
            assert e.is_won()
            assert pick_heuristic(e).informed(e) == 0.0
            return
    pytest.fail(f"no {game} deal won in seeds 1-6")
