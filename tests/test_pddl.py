"""PDDL export: domain/problem shape, unsupported rules, the CLI, and (with the planners extra) round trips.

The round-trip tests need the optional extra (``pip install .[planners]``) and are skipped without it;
they are marked ``planners``-dependent by the ``needs_planner`` skip below.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.deals import deal
from patience.pddl import PddlError, export, plan_to_moves, unsupported_reason
from patience.rules import load_game
from patience.solvers.base import Limits, Status, solve
from patience.solvers.pddl_planner import available_engines

needs_planner = pytest.mark.skipif(
    not available_engines(), reason="planners extra not installed (pip install .[planners])"
)

SMALL_FREECELL = {"suits": 2, "ranks": 5, "piles": 4, "cells": 1}
SMALL_KLONDIKE = {"suits": 2, "ranks": 7, "piles": 3, "stock": 8}


@pytest.mark.parametrize(
    "game",
    ["freecell", "bakers-game", "klondike-thoughtful", "eight-off", "beleaguered-castle"],
)
def test_supported_games(game: str) -> None:
    assert unsupported_reason(load_game(game).rules) is None


@pytest.mark.parametrize(
    "game", ["black-hole", "spider", "gaps", "canfield", "golf", "thirty-six", "klondike", "spider-1-suit"]
)
def test_unsupported_games_name_the_feature(game: str) -> None:
    reason = unsupported_reason(load_game(game).rules)
    assert reason
    with pytest.raises(PddlError, match=reason.split("=")[0].split()[0]):
        export(deal(game, 1))


def test_freecell_export_is_ipc_style() -> None:
    task = export(deal("freecell", 1, "ms"))
    for word in ("(on ", "(clear ", "(home ", "(cellspace ", "(colspace ", "(successor ", "(canstack "):
        assert word in task.domain
    for act in ("sendtofree", "sendtohome", "colfromfreecell", "newcolfromfreecell", "sendtonewcol"):
        assert f"(:action {act}\n" in task.domain
    assert "facedown" not in task.domain.split("(:action")[1]  # no face-down actions in FreeCell
    assert "(cellspace n4)" in task.problem and "(colspace n0)" in task.problem
    assert task.problem.count("(bottomcol ") == 8 and task.problem.count("(clear ") == 8
    assert "(home clubs0)" in task.problem
    assert "(:goal (and (home clubs13) (home diamonds13) (home hearts13) (home spades13)))" in task.problem
    # Alternate colours: the 6 of clubs stacks on red sevens only.
    assert "(canstack clubs6 diamonds7)" in task.problem and "(canstack clubs6 spades7)" not in task.problem


def test_bakers_game_builds_in_suit() -> None:
    task = export(deal("bakers-game", 1))
    assert "(canstack clubs6 clubs7)" in task.problem and "(canstack clubs6 diamonds7)" not in task.problem


def test_klondike_export_has_talon_and_flips() -> None:
    task = export(deal("klondike-thoughtful", 1))
    for act in ("move-flip", "deal3", "deal2", "deal1", "redeal", "wastetohome", "homebacktocol"):
        assert f"(:action {act}\n" in task.domain
    assert "(:constants talon-start talon-end - card)" in task.domain
    assert "(king ?c)" in task.domain  # only Kings fill a space
    assert task.problem.count("(tcard ") == 24 and "(tptr talon-start)" in task.problem
    assert task.problem.count("(facedown ") == 21 and task.problem.count("(faceup ") == 7


def test_generalized_deck_names() -> None:
    inst = deal("freecell", 1, "portable", {"suits": 6, "ranks": 14})
    task = export(inst)
    assert "s5r14" in task.problem and "suit5" in task.problem


def test_plan_to_moves_rejects_illegal_steps() -> None:
    inst = deal("freecell", 1, "portable", SMALL_FREECELL)
    with pytest.raises(PddlError, match="plan step 0"):
        plan_to_moves(inst, [("sendtohome", ["clubs5", "clubs4", "clubs4", "clubs", "n5", "n4"])])


def test_cli_writes_both_files(tmp_path: Path) -> None:
    out = tmp_path / "fc"
    r = CliRunner().invoke(main, ["pddl", "freecell:1", "-g", "ms", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert (out / "domain.pddl").read_text().startswith(";; patience PDDL export")
    assert "(define (problem patience-deal)" in (out / "problem.pddl").read_text()


@pytest.mark.parametrize(
    "args",
    [
        ["black-hole:1"],
        ["klondike:1"],
        ["nosuchfile.json"],
        ["freecell:1", "--name", "9bad"],
        ["freecell:1", "--set", "x"],
    ],
)
def test_cli_bad_input_exits_2_and_writes_nothing(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["pddl", *args, "-o", str(out)])
    assert r.exit_code == 2
    assert r.stderr.startswith("error: ") and len(r.stderr.strip().splitlines()) == 1
    assert not out.exists()


# Round trips through an external planner (optional extra) -------------------------------------------
@needs_planner
@pytest.mark.parametrize(
    "game,overrides,seed",
    [
        ("freecell", SMALL_FREECELL, 1),
        ("bakers-game", SMALL_FREECELL, 2),
        ("klondike-thoughtful", SMALL_KLONDIKE, 2),
        ("klondike-thoughtful", SMALL_KLONDIKE, 1),
    ],
)
def test_external_plan_validates_and_agrees(game: str, overrides: dict, seed: int) -> None:
    inst = deal(game, seed, "portable", overrides)
    ext = solve(inst, "planner", Limits(seconds=60))
    own = solve(inst, "planning", Limits(seconds=20))
    assert ext.status is not Status.ERROR, ext.message
    assert own.status in (Status.SOLVED, Status.UNSOLVABLE)
    if ext.status in (Status.SOLVED, Status.UNSOLVABLE):  # solve() has validated a SOLVED plan
        assert ext.status is own.status


@needs_planner
def test_pyperplan_round_trip() -> None:
    if "pyperplan" not in available_engines():
        pytest.skip("up-pyperplan not installed")
    from patience.solvers.pddl_planner import ExternalPlanner

    inst = deal("freecell", 1, "portable", SMALL_FREECELL)
    result = ExternalPlanner("pyperplan").solve(inst, Limits(seconds=60))
    assert result.status is Status.SOLVED
    from patience.validate import replay

    assert replay(inst, list(result.solution)).won
