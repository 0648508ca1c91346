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
        (["solve"], "solve: Missing argument 'TARGET'"),
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
    code, out, _ = run("solve", "gaps:1", "--set", "decks=2", "--json", "--limit", "1s")
    data = json.loads(out)
    assert code == 0
    assert data["status"] == "unsupported" and len(data["instance"]) == 64


@pytest.mark.parametrize("backend", ["cpsat", "dfs"])
def test_solve_lost_black_hole_reports_max_cards(backend: str) -> None:
    """PySol Black Hole #1 is lost (black-hole-solver agrees); both backends prove it and print the best."""
    code, out, _ = run("solve", "black-hole:1", "-g", "pysol", "--backend", backend, "--limit", "20s")
    assert code == 0
    assert "UNSOLVABLE" in out and "at most 3 cards can be removed (proven optimum)" in out
