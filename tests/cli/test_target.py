"""A command's TARGET: an instance file, or GAME:SEED dealt with the generator and --set overrides."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from patience.cli.errors import UsageError
from patience.cli.target import instance_arg
from patience.deals import deal


def test_game_seed_deals_with_generator_and_overrides() -> None:
    assert instance_arg("black-hole:1", "pysol", {}) == deal("black-hole", 1, "pysol")
    got = instance_arg("freecell:7", "portable", {"cells": 2})
    assert got == deal("freecell", 7, "portable", {"cells": 2}) and got.rules.cells.count == 2


def test_a_file_is_loaded_and_takes_no_overrides(tmp_path: Path) -> None:
    inst = deal("black-hole", 3)
    path = tmp_path / "bh3.json"
    inst.save(path)
    assert instance_arg(str(path), "portable", {}).sha256 == inst.sha256
    with pytest.raises(UsageError, match="bh3.json: --set applies to GAME:SEED"):
        instance_arg(str(path), "portable", {"cells": 2})


@pytest.mark.parametrize("text", ["black-hole", "black-hole:x", "no/such/file.json", "a b:1"])
def test_neither_file_nor_game_seed(text: str) -> None:
    with pytest.raises(UsageError, match="not GAME:SEED"):
        instance_arg(text, "portable", {})


# Deals in other solvers' formats, standard input, and solutions from solve --json ----------------------
def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    from click.testing import CliRunner

    from patience.cli import main

    r = CliRunner().invoke(main, list(args), input=stdin)
    return r.exit_code, r.stdout, r.stderr


@pytest.mark.parametrize(
    ("game", "seed", "generator", "fmt"),
    [
        ("black-hole", 1, "pysol", "board"),
        ("all-in-a-row", 2, "pysol", "board"),
        ("freecell", 617, "ms", "fcsolve"),
        ("freecell", 617, "ms", "solvitaire"),
        ("gaps-basic-variant", 3, "portable", "solvitaire"),
    ],
)
def test_show_reads_every_format_from_a_file_and_stdin(
    tmp_path: Path, game: str, seed: int, generator: str, fmt: str
) -> None:
    from patience.formats import write_deal

    inst = deal(game, seed, generator)
    text = write_deal(inst, fmt)
    path = tmp_path / f"deal.{fmt}"
    path.write_text(text)
    named = ("--game", game) if fmt == "solvitaire" else ()  # Solvitaire deals fit several games
    for target, stdin in ((str(path), None), ("-", text)):
        code, out, err = run("show", target, "--json", *named, stdin=stdin)
        assert code == 0, err
        assert json.loads(out)["sha256"] == inst.sha256
    code, out, _ = run("show", str(path), "--json", "--format", fmt, "--game", game)
    assert code == 0 and json.loads(out)["sha256"] == inst.sha256


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["show", "-"], '{"x": 1}', "pass --format json or --format solvitaire"),
        (["show", "-"], "", "<stdin>: empty input"),
        (["show", "-"], "Foundations: AS\nJD KS ZZ\n", "<stdin>: board text line 2, col 7"),
        (["show", "-", "--game", "nosuch"], "Foundations: AS\n", "unknown game 'nosuch'"),
        (["show", "black-hole:1", "--format", "board"], None, "--format and --game describe deal files"),
        (["show", "-", "--set", "cells=2"], '{"game": "black-hole", "layout": {}}', "--set applies"),
        (["solve", "-"], '{"tableau piles": [["AS"]]}', "Solvitaire JSON of no registered game"),
    ],
)
def test_bad_deal_input_is_one_line_exit_2(args: list[str], stdin: str | None, message: str) -> None:
    code, out, err = run(*args, stdin=stdin)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err, err


def test_a_solvitaire_deal_of_several_games_names_them() -> None:
    from patience.formats import write_deal

    text = write_deal(deal("freecell", 1), "solvitaire")
    code, _, err = run("show", "-", stdin=text)
    assert code == 2 and "fits 6 games (american-canister, bakers-game" in err and "--game" in err


def test_validate_takes_game_seed_and_solve_json_output(tmp_path: Path) -> None:
    tiny = ("--set", "suits=2", "--set", "ranks=5", "--set", "piles=3")
    code, out, err = run("solve", "black-hole:1", *tiny, "--backend", "dfs", "--json")
    assert code == 0 and json.loads(out)["status"] == "solved", err
    (tmp_path / "r.json").write_text(out)
    code, text, _ = run("validate", "black-hole:1", str(tmp_path / "r.json"), *tiny)
    assert code == 0 and text.startswith("valid: ")
    code, text, _ = run("validate", "black-hole:1", "-", *tiny, stdin=out)  # solve --json | validate
    assert code == 0 and text.startswith("valid: ")
    # the result of another deal, and a result that is no win, are refused by name
    code, _, err = run("validate", "black-hole:2", str(tmp_path / "r.json"), *tiny)
    assert code == 2 and "result is for deal" in err
    lost = json.dumps({"status": "unknown", "backend": "dfs", "stats": {}})
    code, _, err = run("validate", "black-hole:1", "-", *tiny, stdin=lost)
    assert code == 2 and "'unknown' result of solve" in err


def test_validate_reads_a_solution_file_from_stdin(tmp_path: Path) -> None:
    tiny = ("--set", "suits=2", "--set", "ranks=5", "--set", "piles=3")
    sol = tmp_path / "s.json"
    code, _, _ = run("solve", "black-hole:1", *tiny, "--backend", "dfs", "-o", str(sol))
    assert code == 0
    code, out, _ = run("validate", "black-hole:1", "-", *tiny, stdin=sol.read_text())
    assert code == 0 and out.startswith("valid: ")
    code, _, err = run("validate", "black-hole:2", "-", *tiny, stdin=sol.read_text())
    assert code == 2 and err.startswith("error: <stdin>: instance: solution is for deal")
