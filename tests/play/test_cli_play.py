"""``patience play``: the summary it prints, the mode it names, and one-line errors with exit 2."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.play.game import PlayTask, play_task


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_play_prints_the_win_rate_interval_and_mode() -> None:
    code, out, _ = run("play", "klondike", "-n", "12", "-j", "0", "--moves", "donkersteeg")
    assert code == 0, out
    assert "12 games (seeds 1..12, portable), player random" in out
    assert "mode: none" in out and "cards home: 0:" in out
    assert re.search(r"win rate \d+\.\d+% \(95% CI \d+\.\d+-\d+\.\d+%\) of decided games", out)
    assert "moves per win:" in out
    assert "ceiling, every card known: klondike-thoughtful 81.956%" in out  # the thoughtful game's rate


def test_play_json_matches_the_games_played() -> None:
    code, out, _ = run(
        "play", "klondike", "-n", "6", "-j", "0", "--seed-start", "3", "-p", "heuristic", "--json"
    )
    assert code == 0
    data = json.loads(out)
    recs = [play_task(PlayTask("klondike", {}, "portable", s, "heuristic", {})) for s in range(3, 9)]
    assert data["games"] == 6 and data["won"] == sum(r.won for r in recs)
    assert sum(data["cards_home"].values()) == 6
    assert data["cards_home_mean"] == pytest.approx(sum(r.home for r in recs) / 6)
    assert data["mode"] is None and data["fair"] is True


def test_mc_names_its_mode_and_draw_one_is_passed_on() -> None:
    code, out, _ = run(
        "play", "klondike", "-n", "1", "-j", "0", "-p", "mc", "--playouts", "1",
        "--mode", "shuffled-once", "--set", "draw=1", "--json",
    )  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert data["mode"] == "shuffled-once" and data["fair"] is False and data["rules"] == {"draw": 1}
    assert data["ceiling"] is None  # no published thoughtful rate for draw 1
    code, out, _ = run("play", "klondike", "-n", "1", "-j", "0", "-p", "mc", "--playouts", "1")
    assert "mode: reshuffle (fair" in out and "[mode reshuffle]" in out
    a, b = (
        json.loads(run("play", "klondike", "-n", "2", "-j", "0", "-p", "mc", "--playouts", "2", "--runner", r,
                       "--json")[1])
        for r in ("kernel", "engine")
    )  # fmt: skip
    assert (a["won"], a["cards_home"]) == (b["won"], b["cards_home"])  # the same games either way
    code, out, _ = run(
        "play", "klondike", "-n", "1", "-j", "0", "-p", "hindsight", "--worlds", "1", "--nodes", "50"
    )
    shown = "player hindsight (worlds 1, nodes 50, mode reshuffle, search dfs-jit, moves auto, fallback heur"
    assert code == 0 and shown in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nosuch", "-n", "2"], "unknown game"),
        (["klondike", "-n", "0"], "-n 0"),
        (["klondike", "-n", "2", "--playouts", "3"], "--playouts: only --player mc"),
        (["klondike", "-n", "2", "-p", "mc", "--worlds", "3"], "--worlds: only --player hindsight"),
        (["klondike", "-n", "2", "-p", "heuristic", "--mode", "reshuffle"], "--mode: only --player mc or"),
        (["klondike", "-n", "2", "-p", "mc", "--auto-safe"], "--auto-safe: only --player random"),
        (["klondike", "-n", "2", "-p", "mc", "--playouts", "0"], "--playouts 0"),
        (["klondike", "-n", "2", "--runner", "kernel"], "--runner: only --player mc"),
        (["klondike", "-n", "2", "-p", "mc", "--runner", "kernel", "--playout", "safe"], "random only"),
        (["klondike", "-n", "2", "-p", "heuristic", "--moves", "all"], "--moves"),
        (["klondike", "-n", "2", "--limit", "soon"], "--limit 'soon'"),
        (["gaps-basic-variant", "-n", "2"], "Gaps"),
        (["klondike", "-n", "2", "--seed-start", "-1"], "--seed-start -1"),
        (["klondike", "-n", "2", "--max-moves", "0"], "--max-moves 0"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    code, out, err = run("play", *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error:") and message in err


def test_cards_home_groups_cover_every_count_once() -> None:
    from patience.play.summary import home_bins

    for n in (52, 24, 8):
        bins = home_bins(n)
        covered = [k for lo, hi in bins for k in range(lo, hi + 1)]
        assert covered == list(range(n + 1))
    assert home_bins(52)[-2:] == [(40, 51), (52, 52)]


def test_db_stores_every_game_and_a_rerun_resumes(tmp_path) -> None:
    db = str(tmp_path / "play.sqlite")
    args = ["play", "klondike", "-n", "5", "-j", "0", "-p", "heuristic", "--db", db, "--json"]
    code, out, _ = run(*args[:3], "3", *args[4:])  # seeds 1..3 first
    assert code == 0 and json.loads(out)["new"] == 3
    code, out, _ = run(*args)
    first = json.loads(out)
    assert code == 0 and first["new"] == 2  # only seeds 4 and 5 are played now
    code, out, _ = run(*args)
    again = json.loads(out)
    assert again["new"] == 0
    for k in ("won", "cards_home", "ends", "moves_per_win"):
        assert again[k] == first[k]
    code, out, _ = run("play", "klondike", "-n", "5", "-j", "0", "-p", "random", "--db", db, "--json")
    assert json.loads(out)["new"] == 5  # another player is another batch


def test_db_refuses_a_file_that_is_not_a_play_store(tmp_path) -> None:
    import sqlite3

    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE results (x INTEGER)")
    conn.close()
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    for path in (other, text):
        before = path.read_bytes()
        code, out, err = run("play", "klondike", "-n", "2", "-j", "0", "--db", str(path))
        assert code == 2 and out == "" and "not a patience play store" in err
        assert path.read_bytes() == before
        assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "other.sqlite"]
