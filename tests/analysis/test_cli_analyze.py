"""``patience analyze``'s Wolter subcommands: small runs print computed figures; bad input is one line, 2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from patience.cli.group import main


def _run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, ["analyze", *args])
    return r.exit_code, r.stdout, r.stderr


def test_adjacency_json_small_deck() -> None:
    code, out, _ = _run("adjacency", "--suits", "3", "--ranks", "5", "--json")
    d = json.loads(out)
    assert code == 0 and d["rank_sequences"] == 364 and d["published"] is None
    assert d["card_sequences"] == 364 * 6**5


def test_first_move_prints_exact_and_simulated() -> None:
    code, out, _ = _run("first-move", "-n", "50")
    assert code == 0
    assert "28,513.3 per million" in out and "published" in out and "50 deals" in out


def test_removed_and_inversion_small(tmp_path) -> None:
    db = str(tmp_path / "r.sqlite")
    code, out, _ = _run("removed", "all-in-a-row", "-n", "4", "--db", db, "-j", "0", "-q",
                        "--set", "suits=3", "--set", "ranks=8", "--set", "piles=6")  # fmt: skip
    assert code == 0 and "mean, moved" in out and "mean, home" in out and "published" not in out
    code, out, _ = _run("inversion", "all-in-a-row", "-n", "4", "--every",
                        "--set", "suits=3", "--set", "ranks=8", "--set", "piles=6")  # fmt: skip
    assert code == 0 and "0 disagreements" in out


@pytest.mark.parametrize(("game", "convention"), [("black-hole", "home"), ("all-in-a-row", "moved")])
def test_removed_quotes_the_published_mean_beside_its_convention(
    tmp_path, game: str, convention: str
) -> None:
    """Wolter's mean is printed on the line of the convention it is read in (``mean_removed_convention``)."""
    code, out, _ = _run("removed", game, "-n", "2", "--db", str(tmp_path / "r.sqlite"), "-j", "0", "-q")
    [line] = [x for x in out.splitlines() if "published, Wolter 2014" in x]
    assert code == 0 and line.startswith(f"mean, {convention}:")


def test_shuffles_small() -> None:
    code, out, _ = _run("shuffles", "all-in-a-row", "-k", "1", "-n", "2", "--start", "sorted", "--by", "rows",
                        "--set", "suits=3", "--set", "ranks=8", "--set", "piles=6")  # fmt: skip
    assert code == 0 and "uniform shuffle" in out and "sorted   by rows" in out


SMALL_BH = ("--set", "suits=2", "--set", "ranks=5", "--set", "piles=3")


def test_shuffles_few_turns_line() -> None:
    small = ("--set", "suits=2", "--set", "ranks=5", "--set", "piles=3")
    code, out, _ = _run("shuffles", "-k", "1", "-n", "2", "--start", "gathered", "--by", "rows",
                        "--line", "few-turns", *small)  # fmt: skip
    assert code == 0 and "few-turns line" in out and "turns " in out.splitlines()[-1]


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (("adjacency", "--ranks", "2"), "wrap needs at least 3 ranks"),
        (("first-move", "freecell", "-n", "0"), "foundations are not holes"),
        (("inversion", "binary-star", "-n", "1"), "2 holes"),
        (("shuffles", "-k", "0"), "-k 0"),
        (("shuffles", "-k", "1", "--line", "bhs", *SMALL_BH), "plays the standard"),
        (("removed", "nosuchgame", "-n", "1"), "nosuchgame"),
    ],
)
def test_bad_input_is_one_line_exit_2(args: tuple[str, ...], word: str) -> None:
    code, out, err = _run(*args)
    assert code == 2 and word in err and len(err.strip().splitlines()) == 1 and not out
