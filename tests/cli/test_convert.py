"""``patience convert``: deals between formats, the same deal (sha256) after a round trip; formats that
cannot hold a deal are refused with nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.deals import deal
from patience.formats import read_deal


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), input=stdin)
    return r.exit_code, r.stdout, r.stderr


@pytest.mark.parametrize(
    ("target", "generator", "chain"),
    [
        ("black-hole:1", "pysol", ["board", "solvitaire", "board", "json"]),
        ("freecell:617", "ms", ["fcsolve", "solvitaire", "board", "json"]),
        ("golf-thoughtful:4", "portable", ["board", "json"]),
    ],
)
def test_a_chain_of_conversions_keeps_the_deal(target: str, generator: str, chain: list[str]) -> None:
    game, seed = target.split(":")
    want = deal(game, int(seed), generator)
    code, text, err = run("convert", target, "-g", generator, "--to", chain[0])
    assert code == 0, err
    for fmt in chain[1:]:
        named = ("--game", game) if "tableau piles" in text or '"hole"' in text else ()
        code, text, err = run("convert", "-", "--to", fmt, *named, stdin=text)
        assert code == 0, err
    assert json.loads(text)["game"] == game
    assert read_deal(text).sha256 == want.sha256


def test_output_file_and_text(tmp_path: Path) -> None:
    out = tmp_path / "ms617.txt"
    code, stdout, err = run("convert", "freecell:617", "-g", "ms", "--to", "fcsolve", "-o", str(out))
    assert code == 0 and stdout == "" and "wrote" in err
    ms617 = deal("freecell", 617, "ms")
    assert out.read_text().splitlines()[0].split() == [ms617.deck.text(c) for c in ms617.layout.tableau[0]]
    code, stdout, _ = run("convert", str(out), "--to", "text")
    assert code == 0 and stdout.startswith("freecell  sha256 ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["convert", "gaps:1", "--to", "board"], "Gaps grids cannot be written as board text"),
        (["convert", "klondike-thoughtful:1", "--to", "fcsolve"], "fc-solve text: has no stock"),
        (["convert", "black-hole:1", "--to", "xml"], "'xml' is not one of"),
        (["convert", "nosuch.txt", "--to", "json"], "nosuch.txt: no such file, and not GAME:SEED"),
    ],
)
def test_refusals_write_nothing(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "out"
    code, stdout, err = run(*args, "-o", str(out))
    assert code == 2 and stdout == "" and err.count("\n") == 1 and message in err, err
    assert not out.exists()
