"""Command line: the commands work end to end, bad input exits 2 with one line and writes nothing."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.deals import deal
from patience.engine import Engine
from patience.validate import solution_json

PYSOL_BH1 = """Foundations: AS
JD KS TH
2D 9D 8H
9H QD 2C"""


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_games_lists_at_least_25() -> None:
    code, out, _ = run("games", "--json")
    assert code == 0
    games = json.loads(out)
    assert len(games) >= 25
    assert {"black-hole", "freecell", "klondike-thoughtful", "gaps-basic-variant"} <= {
        g["name"] for g in games
    }


def test_deal_pysol_black_hole_1_is_pysol_board() -> None:
    code, out, _ = run("deal", "black-hole", "--seed", "1", "--generator", "pysol", "--format", "board")
    assert code == 0
    assert out.startswith(PYSOL_BH1)
    code, out, _ = run("deal", "black-hole", "--seed", "1", "--generator", "pysol")
    assert code == 0 and "JD KS TH" in out


def test_deal_write_show_and_json(tmp_path: Path) -> None:
    f = tmp_path / "d.json"
    code, _, _ = run("deal", "freecell", "--seed", "11982", "-g", "ms", "-o", str(f))
    assert code == 0 and f.exists()
    code, out, _ = run("show", str(f), "--moves", "--json")
    data = json.loads(out)
    assert code == 0 and data["legal_moves"] and data["instance"]["game"] == "freecell"


def test_validate_reports_first_illegal_move(tmp_path: Path) -> None:
    inst = deal("black-hole", 1, "pysol")
    inst.save(tmp_path / "i.json")
    eng = Engine(inst)
    good = eng.move_to_json(eng.legal_moves()[0])
    bad = {"from": "tableau:0", "to": "foundation:0"}
    (tmp_path / "s.json").write_text(json.dumps(solution_json(inst, [good, bad])))
    code, out, _ = run("validate", str(tmp_path / "i.json"), str(tmp_path / "s.json"), "--json")
    rep = json.loads(out)
    assert code == 1 and rep["index"] == 1 and not rep["ok"] and "hole" in rep["rule"]
    (tmp_path / "s.json").write_text(json.dumps(solution_json(inst, [good])))
    code, out, _ = run("validate", str(tmp_path / "i.json"), str(tmp_path / "s.json"))
    assert code == 1 and "valid but not won" in out


@pytest.mark.parametrize(
    "args,message",
    [
        (["deal", "no-such-game", "--seed", "1"], "unknown game"),
        (["deal", "black-hole", "--seed", "1", "--set", "suits=0"], "deck.suits"),
        (["deal", "black-hole", "--seed", "1", "--set", "piles=16"], "do not divide"),
        (["deal", "black-hole", "--seed", "1", "--set", "colour=red"], "unknown parameter"),
        (["deal", "black-hole", "--seed", "1", "--set", "suits"], "NAME=VALUE"),
        (["solve", "black-hole:1", "--limit", "soon"], "--limit"),
        (["solve", "black-hole:1", "--backend", "magic"], "unknown"),
        (["solve", "nothing-here.json"], "no such file"),
        # Click's own option and argument errors are one line too (no usage block).
        (["deal", "black-hole", "--seed", "x"], "deal: Invalid value for '--seed'"),
        (["deal", "black-hole", "--seed", "1", "-g", "foo"], "'foo' is not a generator"),
        (["deal", "black-hole", "--seed", "1", "-g", "planted:x"], "swaps after ':'"),
        (["solve"], "solve: Missing argument 'TARGET...'"),
        (["frobnicate"], "No such command 'frobnicate'"),
        (["estimate", "black-hole", "-n", "many"], "estimate: Invalid value for '-n'"),
    ],
)
def test_bad_input_exits_2_with_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    out_file = tmp_path / "out.json"
    code, _, err = run(*args, "-o", str(out_file)) if args[0] == "deal" else run(*args)
    assert code == 2
    assert message in err and err.count("\n") == 1
    assert not out_file.exists()
    assert list(tmp_path.iterdir()) == []


def test_bad_instance_files_exit_2(tmp_path: Path) -> None:
    f = tmp_path / "bad.json"
    f.write_text("{not json")
    code, _, err = run("show", str(f))
    assert code == 2 and "malformed JSON" in err
    data = deal("black-hole", 1, "pysol").to_json()
    data["layout"]["tableau"][3][1] = data["layout"]["tableau"][0][0]
    f.write_text(json.dumps(data))
    code, _, err = run("show", str(f))
    assert code == 2 and "layout.tableau[3][1]: duplicate card JD" in err


def test_solution_for_another_instance_exits_2(tmp_path: Path) -> None:
    a, b = deal("black-hole", 1, "pysol"), deal("black-hole", 2, "pysol")
    a.save(tmp_path / "a.json")
    (tmp_path / "s.json").write_text(json.dumps(solution_json(b, [])))
    code, _, err = run("validate", str(tmp_path / "a.json"), str(tmp_path / "s.json"))
    assert code == 2 and "not this one" in err


def test_solve_json_has_status_and_instance() -> None:
    tiny = ["--set", "suits=2", "--set", "ranks=5", "--set", "piles=3"]
    code, out, _ = run("solve", "black-hole:1", *tiny, "--json")
    data = json.loads(out)
    assert code == 0
    assert data["status"] in ("solved", "unsolvable") and len(data["instance"]) == 64


# Unsupported game/backend pairs and hidden-information games: bad input, refused before any work --------
@pytest.mark.parametrize(
    "args,message",
    [
        (["black-hole:1", "-b", "cpsat-gaps"], "cpsat-gaps does not support black-hole; backends that do: "),
        (["freecell:1", "--backend", "cpsat"], "cpsat does not support freecell; backends that do: "),
        (["gaps:1", "--set", "decks=2"], "no backend supports gaps with these rules: engine lacks"),
        (["klondike:1"], "klondike hides cards (thoughtful: false); solvers decide only thoughtful games: "
         "try klondike-thoughtful"),  # fmt: skip
        (["klondike:1", "--backend", "dfs", "--json"], "klondike hides cards (thoughtful: false)"),
        (["klondike:1", "--set", "draw=1"], "try --set thoughtful=true"),
        (["golf:1", "--backend", "dfs", "--explain"], "golf hides cards (thoughtful: false)"),
        (["spider-1-suit:2", "--backend", "planning"], "spider-1-suit hides cards (thoughtful: false)"),
    ],
)
def test_unsupported_solve_exits_2_before_any_work(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_work(*_: object, **__: object) -> None:
        raise AssertionError("a backend ran on an unsupported pair")

    monkeypatch.setattr("patience.cli.solve.solve", no_work)
    out_file = tmp_path / "sol.json"
    code, out, err = run("solve", *args, "-o", str(out_file))
    assert code == 2
    assert err.startswith("error: ") and message in err and err.count("\n") == 1
    assert out == ""
    assert list(tmp_path.iterdir()) == []


def test_unsupported_pair_names_exactly_the_supporting_backends() -> None:
    from patience.rules import load_game
    from patience.solvers.base import supporting_backends

    code, _, err = run("solve", "black-hole:1", "--backend", "cpsat-gaps")
    assert code == 2
    named = err.strip().split("backends that do: ")[1].split(", ")
    assert named == supporting_backends(load_game("black-hole").rules)
    assert "dfs" in named and "cpsat" in named and "cpsat-gaps" not in named


def test_hidden_game_with_thoughtful_set_is_solved() -> None:
    """The explicit thoughtful variant is a different, perfect-information game: it is decided."""
    tiny = ["--set", "suits=2", "--set", "ranks=5", "--set", "piles=3", "--set", "stock=3"]
    code, out, _ = run("solve", "golf:1", *tiny, "--set", "thoughtful=true", "--backend", "dfs", "--json")
    assert code == 0 and json.loads(out)["status"] in ("solved", "unsolvable")
    code, _, err = run("solve", "golf:1", *tiny, "--backend", "dfs")
    assert code == 2 and "hides cards" in err


def test_hidden_game_deals_shows_and_validates(tmp_path: Path) -> None:
    """Only solving is refused: dealing, showing and replaying a given move list still work."""
    f = tmp_path / "k.json"
    code, _, _ = run("deal", "klondike", "--seed", "1", "-o", str(f))
    assert code == 0 and f.exists()
    code, out, _ = run("show", str(f), "--moves", "--json")
    assert code == 0 and json.loads(out)["legal_moves"]
    inst = deal("klondike", 1)
    eng = Engine(inst)
    first = eng.move_to_json(eng.legal_moves()[0])
    (tmp_path / "s.json").write_text(json.dumps(solution_json(inst, [first])))
    code, out, _ = run("validate", str(f), str(tmp_path / "s.json"))
    assert code == 1 and "valid but not won" in out


@pytest.mark.parametrize("backend", ["cpsat", "dfs"])
def test_solve_lost_black_hole_reports_max_cards(backend: str) -> None:
    """PySol Black Hole #1 is lost (black-hole-solver agrees); both backends prove it and print the best."""
    code, out, _ = run("solve", "black-hole:1", "-g", "pysol", "--backend", backend, "--limit", "20s")
    assert code == 0
    assert "UNSOLVABLE" in out and "at most 3 cards can be removed (proven optimum)" in out
