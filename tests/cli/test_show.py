"""``patience show`` with a solution: --step, --at, one numbering from 1, --notation (peers' own formats)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.deals import deal
from patience.engine import FOUNDATION, Engine
from patience.engine.notation import _parse_loc
from patience.formats import to_board_text, to_fcsolve
from patience.instance import Instance, load_instance
from patience.solvers.base import solve
from patience.validate import replay, solution_json

ROOT = Path(__file__).parents[2]
BHS = ROOT / ".peers" / "bhs" / "black-hole-solve"


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def _solved(tmp: Path, inst: Instance, backend: str, name: str) -> tuple[Path, Path, list[dict]]:
    res = solve(inst, backend)
    assert res.solution, res
    moves = [dict(m) for m in res.solution]
    (tmp / f"{name}.json").write_text(inst.dumps())
    (tmp / f"{name}-sol.json").write_text(json.dumps(solution_json(inst, moves)))
    return tmp / f"{name}.json", tmp / f"{name}-sol.json", moves


@pytest.fixture(scope="module")
def black_hole(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[dict]]:
    return _solved(tmp_path_factory.mktemp("bh"), deal("black-hole", 2, "pysol"), "dfs", "bh2")


@pytest.fixture(scope="module")
def freecell(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[dict]]:
    inst = load_instance(ROOT / "instances" / "freecell" / "ms-617.json")
    return _solved(tmp_path_factory.mktemp("fc"), inst, "planning", "ms617")


def _boards(out: str) -> list[tuple[str, dict[int, list[str]]]]:
    """(heading, {pile number: cards}) of every board in --step output, the deal first."""
    out_boards = []
    for chunk in out.split("\n\n"):
        head = chunk.splitlines()[0]
        piles = {int(m[1]): m[2].split() for m in re.finditer(r"^ +(\d+):((?: \S+)*) ?$", chunk, re.M)}
        if piles:
            out_boards.append((head, piles))
    return out_boards


@pytest.mark.parametrize("fixture", ["black_hole", "freecell"])
def test_step_numbers_moves_and_piles_from_one_alike(fixture: str, request: pytest.FixtureRequest) -> None:
    """Every move 'CARD tableau P -> ...' takes the top card of the line 'P:' of the board before it."""
    inst, sol, moves = request.getfixturevalue(fixture)
    code, out, _ = run("show", str(inst), str(sol), "--step")
    assert code == 0 and out.rstrip().endswith(f"valid: {len(moves)} moves win the deal")
    boards = _boards(out)
    assert len(boards) == len(moves) + 1
    checked = 0
    for k, ((_, before), (head, after)) in enumerate(zip(boards[:-1], boards[1:], strict=True), 1):
        m = re.fullmatch(rf"move {k} of {len(moves)}: (\S+) tableau (\d+) -> (.*)", head)
        if m:
            card, pile, rest = m[1], int(m[2]), m[3]
            count = int(re.search(r"\((\d+) cards\)", rest)[1]) if "cards)" in rest else 1
            assert before[pile][-count] == card, (k, head)
            assert after[pile] == before[pile][:-count]
            checked += 1
    assert checked > len(moves) // 3  # most moves of both games leave a tableau pile
    assert all(not cards for cards in boards[-1][1].values())  # won: the tableau is empty


def test_at_is_the_step_board_and_lists_legal_moves_there(black_hole) -> None:
    inst, sol, moves = black_hole
    _, out, _ = run("show", str(inst), str(sol), "--step")
    boards = _boards(out)
    for n in (0, 5, len(moves)):
        code, at, _ = run("show", str(inst), str(sol), "--at", str(n))
        assert code == 0
        assert _boards(at)[0][1] == boards[n][1]
        assert (f"after move {n} of {len(moves)}:" if n else "the deal, before move 1") in at
    code, at, _ = run("show", str(inst), str(sol), "--at", "5", "--moves")
    listed = at.split("legal moves:\n")[1].split("\n")
    # the solution's sixth move is legal after the fifth: it is listed, in the same words as the step
    assert code == 0 and re.search(r"move 6 of \d+: (.*)", out)[1] in [t.strip() for t in listed]


def test_at_json_gives_the_position_as_instance_layout(black_hole) -> None:
    inst, sol, moves = black_hole
    code, out, _ = run("show", str(inst), str(sol), "--at", "5", "--json")
    data = json.loads(out)
    assert code == 0 and data["at"] == 5 and data["solution"] == moves
    hole = data["position"]["foundations"][0]
    assert hole == ["AS"] + [m["card"] for m in moves[:5]]  # the hole's pile, from the moves alone
    assert sum(map(len, data["position"]["tableau"])) == 51 - 5


@pytest.mark.parametrize(
    "args,message",
    [
        (["--at", "999"], "--at 999: "),
        (["--at", "-1"], "--at"),
        (["--notation", "pysol"], "--notation"),
    ],
)
def test_bad_step_requests_exit_2_with_one_line(black_hole, args: list[str], message: str) -> None:
    inst, sol, _ = black_hole
    code, out, err = run("show", str(inst), str(sol), *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err


def test_step_without_solution_and_solution_of_another_deal(black_hole, freecell) -> None:
    code, _, err = run("show", str(black_hole[0]), "--step")
    assert code == 2 and "needs a SOLUTION" in err and err.count("\n") == 1
    code, out, err = run("show", str(freecell[0]), str(black_hole[1]), "--step")
    assert code == 2 and out == "" and err.count("\n") == 1 and "instance" in err


def test_validate_and_show_count_moves_from_one(black_hole, tmp_path: Path) -> None:
    inst_path, _, moves = black_hole
    inst = load_instance(inst_path)
    bad = [moves[0], moves[2]]  # the third move is not legal second
    (tmp_path / "s.json").write_text(json.dumps(solution_json(inst, bad)))
    code, out, _ = run("validate", str(inst_path), str(tmp_path / "s.json"))
    assert code == 1 and out.startswith("move 2: ")
    code, out, _ = run("validate", str(inst_path), str(tmp_path / "s.json"), "--json")
    assert json.loads(out)["index"] == 1  # the JSON keeps counting from 0
    code, _, err = run("show", str(inst_path), str(tmp_path / "s.json"))
    assert code == 2 and ": move 2: " in err


def test_notation_json_is_the_solution_and_a_missing_peer_move_is_one_line(black_hole, freecell) -> None:
    inst, sol, moves = black_hole
    code, out, _ = run("show", str(inst), str(sol), "--notation", "json")
    lines = re.findall(r"^ +\d+\. (\{.*\})$", out, re.M)
    assert code == 0 and [json.loads(t) for t in lines] == moves
    inst, sol, moves = freecell
    first = next(k for k, m in enumerate(moves, 1) if m["to"].startswith(("cell", "tableau")))
    code, out, err = run("show", str(inst), str(sol), "--notation", "bhs")
    assert code == 2 and out == "" and err.startswith(f"error: move {first}: bhs has no notation for ")


def _from_peer(inst: Instance, lines: list[str]) -> list[dict]:
    """Moves in the JSON notation from a peer's move lines (stacks and freecells from 0): the foundation
    a card goes to is the one the engine finds legal; cells and stacks are the peer's own."""
    engine, out = Engine(inst), []
    areas = {"stack": "tableau", "freecell": "cell"}
    for line in lines:
        m = re.fullmatch(r"Move (?:a card|(\d+) cards) from (stack|freecell) (\d+) to (.*)", line)
        assert m, line
        count, src = int(m[1] or 1), f"{areas[m[2]]}:{m[3]}"
        if m[4] == "the foundations":
            s_area, s_index = _parse_loc(src, engine.R)
            move = next(
                (s_area, s_index, FOUNDATION, k, 1)
                for k in range(len(engine.found))
                if engine.is_legal((s_area, s_index, FOUNDATION, k, 1))
            )
        else:
            where, index = m[4].split()
            move = engine.move_from_json({"from": src, "to": f"{areas[where]}:{index}", "count": count})
        out.append(engine.move_to_json(move))
        engine.apply(move)
    return out


def _peer_lines(cmd: list[str], board: str) -> list[str]:
    done = subprocess.run(
        cmd,
        input=board,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env={"FREECELL_SOLVER_QUIET": "1", "PATH": "/usr/bin:/bin"},
    )
    return [line for line in done.stdout.splitlines() if line.startswith("Move ")]


def _round_trip(tmp: Path, inst: Instance, lines: list[str], notation: str) -> None:
    """The peer's solution, read back, wins under our validator, and --notation writes its lines again."""
    moves = _from_peer(inst, lines)
    assert replay(inst, moves).won
    (tmp / "i.json").write_text(inst.dumps())
    (tmp / "s.json").write_text(json.dumps(solution_json(inst, moves)))
    code, out, _ = run("show", str(tmp / "i.json"), str(tmp / "s.json"), "--notation", notation)
    assert code == 0 and out.splitlines() == lines


@pytest.mark.skipif(not BHS.exists(), reason="black-hole-solver not built (benchmarks/peers.sh)")
@pytest.mark.parametrize("game,seed", [("black-hole", 2), ("all-in-a-row", 3)])
def test_bhs_notation_is_black_hole_solvers_own(tmp_path: Path, game: str, seed: int) -> None:
    inst = deal(game, seed, "pysol")
    lines = _peer_lines([str(BHS), "--game", game.replace("-", "_"), "-"], to_board_text(inst))
    assert lines, f"black-hole-solver did not solve {game} {seed}"
    _round_trip(tmp_path, inst, lines, "bhs")


@pytest.mark.skipif(shutil.which("fc-solve") is None, reason="Freecell Solver not installed")
@pytest.mark.parametrize("seed", [617, 1941])
def test_fcsolve_notation_is_freecell_solvers_own(tmp_path: Path, seed: int) -> None:
    # fc-solve moves built sequences at once ('Move 3 cards'): our FreeCell with group moves takes them
    inst = deal("freecell", seed, "ms", {"tableau.group_moves": "build"})
    lines = _peer_lines(["fc-solve", "-l", "lg", "-m", "-p", "-t", "-"], to_fcsolve(inst))
    assert any(" cards from stack" in t for t in lines) and any("freecell" in t for t in lines)
    _round_trip(tmp_path, inst, lines, "fc-solve")
