"""``patience solve`` batches: several TARGETs, a folder, GAME:A-B; --jsonl lines; a summary on stderr;
bad input anywhere is exit 2 before any deal is solved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.deals import deal
from patience.validate import replay

TINY = ("--set", "suits=2", "--set", "ranks=5", "--set", "piles=3")  # Black Hole of 10 cards: instant


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), input=stdin)
    return r.exit_code, r.stdout, r.stderr


def test_a_range_gives_one_json_line_per_deal_and_a_summary(tmp_path: Path) -> None:
    code, out, err = run("solve", "black-hole:1-6", *TINY, "--backend", "dfs", "--jsonl", "-o", str(tmp_path))
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["target"] for r in rows] == [f"black-hole:{s}" for s in range(1, 7)]
    assert set(rows[0]) == {"target", "game", "instance", "status", "backend", "seconds", "n_moves", "reason",
                            "message"}  # fmt: skip
    overrides = {"suits": 2, "ranks": 5, "piles": 3}
    for s, r in enumerate(rows, start=1):
        inst = deal("black-hole", s, overrides=overrides)
        assert r["instance"] == inst.sha256 and r["status"] in ("solved", "unsolvable")
        sol = tmp_path / f"black-hole-{s}.solution.json"
        assert sol.exists() == (r["status"] == "solved")
        if sol.exists():  # the written solution replays and has the reported length
            moves = json.loads(sol.read_text())["moves"]
            assert len(moves) == r["n_moves"] and replay(inst, moves).won
    tally = {st: sum(r["status"] == st for r in rows) for st in ("solved", "unsolvable")}
    parts = ", ".join(f"{k} {v}" for k, v in tally.items() if v)
    assert err.startswith(f"6 deals: {parts} in ") and err.count("\n") == 1


def test_files_folders_and_game_seed_mix(tmp_path: Path) -> None:
    folder = tmp_path / "gen"
    assert run("generate", "black-hole", *TINY, "-n", "3", "-o", str(folder))[0] == 0
    board = tmp_path / "bh.txt"
    assert run("convert", "black-hole:9", "-g", "pysol", "--to", "board", "-o", str(board))[0] == 0
    code, out, err = run("solve", str(folder), str(board), "black-hole:4", "-g", "pysol", "--backend", "dfs")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 5, err
    assert lines[0].startswith("black-hole-piles3-ranks5-suits2-1.json: ") and lines[3].startswith("bh.txt: ")
    assert lines[4].startswith("black-hole:4: ") and err.startswith("5 deals: ")
    # --set changes GAME:SEED deals, not instance files (they hold their rules): named, before any work
    code, out, err = run("solve", "black-hole:4", str(folder), *TINY)
    assert code == 2 and out == "" and "ranks5-suits2-1.json: --set applies to GAME:SEED" in err


def test_require_win_in_a_batch_is_exit_1_after_every_deal() -> None:
    code, out, _ = run("solve", "black-hole:1-8", *TINY, "--backend", "dfs", "--jsonl", "--require-win")
    statuses = [json.loads(line)["status"] for line in out.splitlines()]
    assert len(statuses) == 8 and "unsolvable" in statuses  # the seeds hold a lost deal
    assert code == 1


def test_jsonl_of_one_deal_is_a_batch_of_one() -> None:
    code, out, err = run("solve", "black-hole:2", *TINY, "--jsonl")
    assert code == 0 and len(out.splitlines()) == 1 and json.loads(out)["target"] == "black-hole:2"
    assert err.startswith("1 deal: ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["black-hole:1-3", "--json"], "--json is for one deal; a batch has --jsonl"),
        (["black-hole:1-3", "--explain"], "--explain is for one deal"),
        (["black-hole:5-2"], "black-hole:5-2: empty range"),
        (["black-hole:1-2", "nosuch.json"], "nosuch.json: no such file, and not GAME:SEED"),
        (["black-hole:1-2", "klondike:1"], "klondike:1: klondike hides cards"),
        (["black-hole:1-2", "--backend", "cpsat-gaps"], "black-hole:1: cpsat-gaps does not support"),
        (["black-hole:1-2000000"], "over the limit of 1000000"),
    ],
)
def test_bad_batches_are_exit_2_before_any_work(args: list[str], message: str) -> None:
    code, out, err = run("solve", *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err


def test_a_batch_output_must_be_a_folder(tmp_path: Path) -> None:
    f = tmp_path / "file"
    f.write_text("x")
    code, out, err = run("solve", "black-hole:1-2", *TINY, "-o", str(f))
    assert code == 2 and out == "" and "exists and is not a folder" in err and f.read_text() == "x"
    code, _, err = run("solve", "black-hole:1", *TINY, "-o", str(tmp_path))
    assert code == 2 and "is a folder; one deal writes one solution file" in err


def test_an_empty_folder_is_exit_2(tmp_path: Path) -> None:
    code, _, err = run("solve", str(tmp_path))
    assert code == 2 and "folder holds no deal files" in err


def test_ctrl_c_stops_the_batch_after_the_deal_in_flight(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import patience.cli.solve as solve_module

    real = solve_module.solve
    calls: list[int] = []

    def interrupted_second(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(solve_module, "solve", interrupted_second)
    code, out, err = run("solve", "black-hole:1-5", *TINY, "--jsonl", "-o", str(tmp_path))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 130 and len(rows) == 2 and len(calls) == 2
    assert rows[1]["status"] == "unknown" and rows[1]["reason"] == "interrupted"
    assert "2 of 5 deals" in err and f"solutions so far in {tmp_path}" in err
