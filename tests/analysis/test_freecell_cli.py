"""``patience analyze freecell-lost``: output, files written, and bad input as one line with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from patience.analysis.freecell_lost import Config, highest_target, upper_bound
from patience.cli import main
from patience.deals import deal
from patience.instance import load_instance

INSTANCES = Path(__file__).parents[2] / "instances" / "freecell"


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, ["analyze", "freecell-lost", *args])
    return r.exit_code, r.stdout, r.stderr


def test_highest_json_matches_the_library():
    code, out, _ = run("highest", "4-5-4-1", "-n", "15", "--json", "--quiet")
    assert code == 0
    data = json.loads(out)
    assert data["deals"] == 15 and data["won"] + data["lost"] + data["unknown"] == 15
    assert data["upper_bound"] == upper_bound(Config.parse("4-5-4-1"))
    cfg = Config.parse("4-5-4-1")
    for s in data["lost_seeds"][:3]:
        assert highest_target(deal("freecell", s, overrides=cfg.overrides)).status == "unsolvable"
    assert sum(data["histogram"].values()) == data["lost"]


def test_highest_text_names_the_published_figure():
    code, out, _ = run("highest", "5-7-4-2", "-n", "5", "--quiet")
    assert code == 0
    assert "upper bound for a lost deal: 20" in out and "published (Klaver 2022, Figure 21)" in out


def test_maximal_writes_a_lost_deal(tmp_path):
    path = tmp_path / "best.json"
    code, out, _ = run(
        "maximal", "3-5-4-1", "--seed", "3", "--steps", "30", "--candidates", "20", "-o", str(path)
    )
    assert code == 0 and "a maximal lost game" in out
    inst = load_instance(path)
    v = highest_target(inst)
    assert (v.status, v.most) == ("unsolvable", 15) and inst.source["highest_target"] == 15


def test_unwind_writes_a_maximal_lost_game(tmp_path):
    path = tmp_path / "unwound.json"
    code, out, _ = run("unwind", "3-5-4-1", "--limit", "60s", "--quiet", "-o", str(path))
    assert code == 0 and "a maximal lost game" in out
    inst = load_instance(path)
    v = highest_target(inst)
    assert (v.status, v.most) == ("unsolvable", upper_bound(Config.parse("3-5-4-1")))
    code, out, _ = run("unwind", "3-5-4-1", "--limit", "60s", "--json", "--quiet")
    data = json.loads(out)
    assert code == 0 and data["maximal"] and data["recheck"] == {"status": "unsolvable", "highest_target": 15}


def test_fewest_cells_of_a_file_and_game_seed():
    code, out, _ = run("fewest-cells", str(INSTANCES / "klaver-unmoveable.json"), "--json", "--quiet")
    assert code == 0
    assert json.loads(out)["fewest_cells"] == 6
    code, out, _ = run("fewest-cells", "-g", "ms", "freecell:11982", "--max-cells", "5", "--quiet")
    assert code == 0 and "5 free cells" in out


def test_bad_input_is_one_line_exit_2(tmp_path):
    won_dir = tmp_path / "won"
    won_dir.mkdir()
    cfg = Config.parse("4-5-4-1")
    won = next(
        s for s in range(1, 50) if highest_target(deal("freecell", s, overrides=cfg.overrides)).most is None
    )
    deal("freecell", won, overrides=cfg.overrides).save(won_dir / "won.json")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    for args in (
        ("highest", "5-7-4"),
        ("highest", "5-7-4-2", "--limit", "soon"),
        ("maximal", "x-1-1-1"),
        ("unwind", "5-7-4-2"),  # no lock: ranks != stacks + cells + 1
        ("unwind", "3-5-4-1", "--check-limit", "soon", "-o", str(out_dir / "u.json")),
        ("fewest-cells", str(tmp_path / "nosuch.json")),
        ("maximal", "8-13-4-4", "--start", str(INSTANCES / "klaver-fig25-a.json")),  # another config
        ("maximal", "4-5-4-1", "--start", str(won_dir / "won.json"), "-o", str(out_dir / "x.json")),  # won
    ):
        code, out, err = run(*args)
        assert code == 2, (args, out, err)
        assert err.count("\n") == 1 and err.startswith("error:"), (args, err)
    assert not list(out_dir.iterdir())
