"""Small things of issue 19 item 8: deal takes GAME:SEED like solve, generate takes -g like estimate,
games GAME shows one game's rules, --set help names the parameters, counts agree with their nouns, and
files are written with the mode the umask allows."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.cli.output import plural
from patience.deals import deal
from patience.rules import SHORT_NAMES
from patience.validate import Report


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_deal_takes_game_seed_and_seed_option_alike() -> None:
    a = run("deal", "black-hole:3", "-g", "pysol", "--json")
    b = run("deal", "black-hole", "--seed", "3", "-g", "pysol", "--json")
    assert a[0] == b[0] == 0 and a[1] == b[1]
    assert json.loads(a[1])["layout"] == deal("black-hole", 3, "pysol").to_json()["layout"]
    assert run("deal", "black-hole:3", "--seed", "3")[0] == 0  # the same deal twice is fine


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["deal", "black-hole:3", "--seed", "4"], "black-hole:3 and --seed 4 name two deals"),
        (["deal", "black-hole"], "which deal? Give GAME:SEED or --seed N"),
        (["deal", "black-hole:x"], "black-hole:x: expected GAME or GAME:SEED"),
        (["generate", "black-hole", "-g", "planted", "--swaps", "2", "-o", "x"], "both name the deals"),
        (["games", "nosuch"], "unknown game 'nosuch'"),
        (["games", "freecell", "--set", "nosuch=1"], "rules.nosuch: unknown parameter"),
    ],
)
def test_bad_input_is_one_line_exit_2(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err


def test_generate_g_family_is_family_and_swaps(tmp_path: Path) -> None:
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    family = ("--family", "planted", "--swaps", "3")
    assert run("generate", "black-hole", *family, "-n", "2", "-o", str(a))[0] == 0
    assert run("generate", "black-hole", "-g", "planted:3", "-n", "2", "-o", str(b))[0] == 0
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir())
    assert names == [f"black-hole-planted-swaps3-{s}.json" for s in (1, 2)]
    assert all((a / n).read_text() == (b / n).read_text() for n in names)
    assert run("generate", "black-hole", "-g", "pysol", "-n", "1", "--seed", "5", "-o", str(c))[0] == 0
    got = json.loads((c / "black-hole-pysol-5.json").read_text())
    assert got["layout"] == deal("black-hole", 5, "pysol").to_json()["layout"]


def test_games_game_shows_every_rule_parameter() -> None:
    code, out, _ = run("games", "black-hole")
    assert code == 0 and out.startswith("black-hole (also ")
    assert "published win rate: 86.944%" in out and "-g pysol (black_hole)" in out
    assert "tableau.piles" in out and "[piles]" in out and "foundations.wrap" in out
    code, out, _ = run("games", "FreeCell", "--set", "cells=2", "--json")
    data = json.loads(out)
    assert code == 0 and data["name"] == "freecell" and data["rules"]["cells"]["count"] == 2
    assert data["overrides"] == {"cells": 2}


def test_set_help_lists_the_parameter_names() -> None:
    commands = ("solve", "deal", "generate", "games", "convert", "show", "estimate", "compare", "play")
    commands += ("pddl",)
    for cmd in commands:
        code, out, _ = run(cmd, "--help")
        text = " ".join(out.split())
        assert code == 0 and all(name in text for name in SHORT_NAMES), cmd


def test_counts_agree_with_their_nouns() -> None:
    assert (plural(1, "card"), plural(2, "card"), plural(0, "deal")) == ("1 card", "2 cards", "0 deals")
    assert Report(True, True, 1).message() == "valid: 1 move wins the deal"
    assert Report(True, True, 2).message() == "valid: 2 moves win the deal"
    one = Report(True, False, 1, foundation_cards=1)
    assert one.message() == "valid but not won: 1 move leaves 1 card home"
    assert Report(True, False, 0).message() == "valid but not won: 0 moves leave 0 cards home"


@pytest.fixture
def umask_027() -> Iterator[None]:
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_new_files_get_the_mode_the_umask_allows(tmp_path: Path, umask_027: None) -> None:
    tiny = ("--set", "suits=2", "--set", "ranks=5", "--set", "piles=3")
    assert run("deal", "black-hole:1", *tiny, "-o", str(tmp_path / "d.json"))[0] == 0
    assert run("convert", "black-hole:1", *tiny, "--to", "board", "-o", str(tmp_path / "d.txt"))[0] == 0
    assert run("solve", "black-hole:1", *tiny, "-o", str(tmp_path / "s.json"))[0] == 0  # a won deal
    assert run("generate", "black-hole", *tiny, "-n", "1", "-o", str(tmp_path / "gen"))[0] == 0
    db = str(tmp_path / "r.sqlite")
    code, _, err = run("estimate", "black-hole", *tiny, "-n", "2", "-j", "0", "-q", "--db", db)
    assert code == 0, err
    written = ["d.json", "d.txt", "s.json", "gen/black-hole-piles3-ranks5-suits2-1.json", "r.sqlite"]
    assert {name: oct(_mode(tmp_path / name)) for name in written} == {name: oct(0o640) for name in written}


def test_an_overwritten_file_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "d.json"
    path.write_text("{}")
    path.chmod(0o604)
    assert run("deal", "black-hole:1", "-o", str(path))[0] == 0
    assert _mode(path) == 0o604 and json.loads(path.read_text())["game"] == "black-hole"
