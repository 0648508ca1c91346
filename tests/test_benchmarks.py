"""Smoke tests of the benchmark scripts: each answers ``--help``, the cheap ones run a tiny size without
``--out`` and leave ``benchmarks/out`` as it was, bad options are one line with exit code 2, and the
helpers in ``benchmarks/_common.py`` do what the scripts rely on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BASIC_GAPS = "gaps-basic-variant"
BENCH = ROOT / "benchmarks"
OUT = BENCH / "out"
CHECKOUT = (ROOT / ".git").exists()  # not in a snapshot made by benchmarks/snapshot.sh
SCRIPTS = sorted(p.name for p in BENCH.glob("*.py") if not p.name.startswith("_"))

# Tiny runs, a few seconds each (the pure-Python hole search: no numba compile on a fresh machine).
TINY = {
    "bench_engine.py": ["--deals", "1", "--seconds", "0.02"],
    "bench_dfs.py": ["--hole", "2", "--games", "1", "--only", "thirty-six", "--no-jit", "--limit", "5"],
    "bench_planning.py": ["--suites", "ms", "--ms", "1", "--limit", "5", "--backends", "planning"],
    "bench_hardness.py": ["--study", "size", "-n", "1", "--limit", "2", "--backends", "dfs"],
    "bench_gaps.py": ["--deals", "1", "--limit", "1", "--backends", "dfs", "--no-peer"],
    "profile_search.py": ["--games", "thirty-six", "--backends", "dfs", "--deals", "1", "--nodes", "200"],
    "bench_limits.py": ["stores", "--runs", "3"],
    "bench_inversion.py": ["-n", "20", "--ways", "kernel", "--limit", "1"],
    "check_removed_max.py": ["-n", "12", "--limit", "5"],
    "gaps_pair_reach.py": ["-n", "1", "--first", "30", "--cap", "5000"],
    "gaps_ic3_probe.py": ["--ranks", "5", "-n", "1", "--first", "0", "--limit", "2"],
}
BAD = {  # one bad option per script that checks its own values
    "bench_dfs.py": ["--hole", "0"],
    "bench_hardness.py": ["--study", "nosuch"],
    "bench_gaps.py": ["--resume"],
    "bench_engine.py": ["--deals", "0"],
    "bench_planning.py": ["--limit", "0"],
    "bench_freecell_ms.py": ["--first", "5", "--last", "4"],
    "bench_limits.py": ["nosuch"],
    "bench_rates.py": ["thirty-six", "--db", "x.sqlite", "--retry-log", "x.jsonl", "-n", "0"],
    "bench_inversion.py": ["--ways", "nosuch"],
    "check_removed_max.py": ["-n", "0"],
    "portfolio_from_log.py": ["no-such-log.jsonl"],
    "dfs_jit_phase_nodes.py": ["--log", "x.jsonl", "--score", "--budget", "0"],
    "bench_shorten.py": ["-n", "0"],
}


def _run(script: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATIENCE_NO_JIT="1")
    return subprocess.run(
        [sys.executable, str(BENCH / script), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _snapshot() -> dict[str, tuple[int, int]]:
    """Size and modification time of every file under benchmarks/out."""
    if not OUT.exists():
        return {}
    return {str(p.relative_to(OUT)): (p.stat().st_size, p.stat().st_mtime_ns) for p in OUT.rglob("*")}


def test_scripts_found() -> None:
    assert set(TINY) <= set(SCRIPTS) and set(BAD) <= set(SCRIPTS)
    assert "digest.py" in SCRIPTS and "build_matrix.py" in SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS)
def test_help(script: str) -> None:
    r = _run(script, "--help", timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("usage:"), r.stdout[:200]


@pytest.mark.parametrize("script", sorted(TINY))
def test_tiny_run_writes_nothing(script: str) -> None:
    before = _snapshot()
    r = _run(script, *TINY[script])
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip(), "a benchmark without --out prints its results"
    assert "wrote " not in r.stdout
    assert _snapshot() == before, "a run without --out changed benchmarks/out"


@pytest.mark.parametrize("script", sorted(BAD))
def test_bad_option_is_one_line(script: str) -> None:
    r = _run(script, *BAD[script], timeout=60)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert r.stderr.startswith(script), r.stderr


def test_out_writes_there(tmp_path: Path) -> None:
    before = _snapshot()
    r = _run("bench_dfs.py", *TINY["bench_dfs.py"], "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr[-2000:]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dfs_games.csv", "dfs_hole.csv", "dfs_summary.md"]
    assert (tmp_path / "dfs_hole.csv").read_text().splitlines()[0].startswith("game,seed,dfs,dfs_s,peer")
    assert len((tmp_path / "dfs_games.csv").read_text().splitlines()) == 2  # header + one deal
    assert _snapshot() == before


@pytest.fixture
def common(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.syspath_prepend(str(BENCH))
    import _common

    return _common


def test_tally_and_verdict(common) -> None:
    from patience.solvers.base import Status

    assert [common.verdict(s) for s in (Status.SOLVED, "unsolvable", Status.UNKNOWN, "error")] == list("WL??")
    assert common.tally("WWL?W") == {"W": 3, "L": 1, "?": 1}
    assert list(common.tally([])) == ["W", "L", "?"]
    assert common.spread([]) == "-"
    assert common.spread([1.0, 2.0, 3.0]).startswith("median 2.000s")


def test_commit_names_a_snapshot(common, tmp_path: Path) -> None:
    """A snapshot (no .git) is named by the hash in its COMMIT file, looked up from src upwards."""
    src = tmp_path / "snap" / "src"
    src.mkdir(parents=True)
    assert common.commit(src) == f"{src} (not a git checkout)"
    (tmp_path / "snap" / "COMMIT").write_text("0123abc" + "d" * 33 + "\n")
    assert common.commit(src) == "0123abc (snapshot)"
    (tmp_path / "snap" / "COMMIT").write_text("not a hash\n")
    assert common.commit(src) == f"{src} (not a git checkout)"
    if CHECKOUT:
        assert common.commit().split("+")[0] == _git("rev-parse", "--short", "HEAD")  # a checkout: git's


@pytest.mark.skipif(not CHECKOUT, reason="run from a snapshot: no git repository to archive")
def test_snapshot_script_writes_the_commit(common, tmp_path: Path) -> None:
    """benchmarks/snapshot.sh DIR: the committed tree and DIR/COMMIT; commit() run from it names HEAD."""
    snap = tmp_path / "snap"
    r = subprocess.run(["bash", str(BENCH / "snapshot.sh"), str(snap)], capture_output=True, text=True,
                       timeout=60)  # fmt: skip
    assert r.returncode == 0, r.stderr
    head = _git("rev-parse", "HEAD")
    assert (snap / "COMMIT").read_text().strip() == head
    assert (snap / "src" / "patience" / "__init__.py").is_file() and not (snap / ".git").exists()
    assert common.commit(snap / "src") == f"{head[:7]} (snapshot)"
    again = subprocess.run(["bash", str(BENCH / "snapshot.sh"), str(snap)], capture_output=True, text=True)
    assert again.returncode == 2 and "not empty" in again.stderr


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True).stdout.strip()


def test_solve_all_keeps_task_order(common) -> None:
    todo = common.tasks("black-hole", [3, 1, 2], "dfs", 10.0, "pysol")
    rows = common.solve_all(todo)
    assert [r.seed for r in rows] == [3, 1, 2]
    assert all(r.status in ("solved", "unsolvable") for r in rows)
    assert all(r.stats["wall_s"] >= (r.seconds or 0.0) for r in rows)


def test_task_options_reach_the_backend(common) -> None:
    """Backend options travel in the task: the plans equal those of get_solver(name, **options) here."""
    from patience.deals import deal
    from patience.solvers.base import Limits, get_solver

    inst = deal("freecell", 1, "ms")
    lengths = []
    for opts in ({"mode": "greedy"}, {"mode": "astar", "weight": 3.0}):
        (row,) = common.solve_all(common.tasks("freecell", [1], "planning", 60.0, "ms", **opts))
        direct = get_solver("planning", **opts).solve(inst, Limits(seconds=60))
        assert row.status == direct.status.value == "solved"
        assert row.stats["moves"] == len(direct.solution or ())
        lengths.append(row.stats["moves"])
    assert lengths[0] != lengths[1], "the two searches should find different plans on MS 1"
    (bad,) = common.solve_all(common.tasks("freecell", [1], "planning", 10.0, "ms", no_such_option=1))
    assert bad.status == "error" and "unknown option" in bad.message


def test_build_matrix_names_stay(common, monkeypatch: pytest.MonkeyPatch) -> None:
    """build_matrix imports BHS, HOLE_GAMES and peer from bench_dfs: the same meaning as before."""
    import bench_dfs

    assert bench_dfs.BHS == common.BHS == ROOT / ".peers" / "bhs" / "black-hole-solve"
    assert bench_dfs.HOLE_GAMES == {"black-hole": "black_hole", "all-in-a-row": "all_in_a_row"}
    calls = []
    monkeypatch.setattr(common, "bhs_solve", lambda *a, **k: calls.append((a, k)) or ("W", 0.1))
    assert bench_dfs.peer("board", "black_hole", 5.0, False) == ("W", 0.1)
    assert bench_dfs.peer("board", "black_hole", 5.0, True) == ("W", 0.1)
    assert [k["prune"] for _, k in calls] == [True, False]


@pytest.mark.skipif(not (BENCH.parent / ".peers" / "bhs" / "black-hole-solve").exists(),
                    reason="black-hole-solver not built (bash benchmarks/peers.sh bhs)")  # fmt: skip
def test_bhs_solve_agrees_with_dfs(common) -> None:
    """black-hole-solve through bhs_solve and our dfs give the same verdicts on PySol deals 1-4."""
    from patience.deals import deal
    from patience.formats import to_board_text
    from patience.solvers.base import Limits, solve

    insts = [deal("black-hole", s, "pysol") for s in range(1, 5)]
    theirs = [common.bhs_solve(to_board_text(i), "black_hole", 60.0)[0] for i in insts]
    ours = [common.verdict(solve(i, "dfs", Limits(seconds=60)).status) for i in insts]
    assert theirs == ours and set(ours) == {"W", "L"}


def test_portfolio_from_log_defaults_are_the_portfolio(common) -> None:
    """The scored split's default stages are the ones ``portfolio`` runs where no other row applies."""
    import portfolio_from_log

    from patience.solvers.portfolio import STAGES_BY_RULES

    assert portfolio_from_log._DEFAULT == tuple(name for name, _ in STAGES_BY_RULES[-1][1])


def test_portfolio_from_log_without_both_solvers(tmp_path: Path) -> None:
    """A log without rows of both stages is one line and exit 2, not a division by zero."""
    log = tmp_path / "x.jsonl"
    row = {
        "game": "freecell",
        "seed": 1,
        "solver": "solvitaire",
        "limit": 10.0,
        "verdict": "W",
        "seconds": 1.0,
    }
    log.write_text(json.dumps(row) + "\n")
    r = _run("portfolio_from_log.py", str(log), "--per-game", timeout=60)
    assert r.returncode == 2, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "no deal has rows of both" in r.stderr, r.stderr


def test_gaps_h2_holds_every_reachable_grid(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pair fixpoints of gaps_pair_reach are sound on small deals: every pair of a reachable grid is
    in the forward fixpoint, and a won deal is refuted neither forward nor backward."""
    monkeypatch.syspath_prepend(str(BENCH))
    from gaps_pair_reach import exact, h2

    from patience.deals import deal
    from patience.engine import EMPTY
    from patience.solvers.cpsat_gaps import GapsDeal, bounds

    won = 0
    for ranks in (5, 6):
        for seed in range(10):
            d = GapsDeal.from_instance(
                deal(BASIC_GAPS, seed, "portable", {"suits": 4, "ranks": ranks, "rows": 4})
            )
            b = bounds(d)
            facts, fwd = h2(d, b)
            grids, full = exact(d, 100_000)
            assert full
            for g in grids:
                idx = [facts[("at", c, p)] for p, c in enumerate(g) if c != EMPTY]
                idx += [facts[("e", p)] for p, c in enumerate(g) if c == EMPTY]
                mask = sum(1 << i for i in idx)
                assert all(fwd[i] & mask == mask for i in idx), (ranks, seed, g)
            if any(GapsDeal(d.R, d.rows, d.fixed, g).won() for g in grids):
                won += 1
                _, back = h2(d, b, backward=True)
                dealt = [facts[("at", c, b.init[c])] for c in d.cards]
                dealt += [facts[("e", p)] for p, c in enumerate(d.grid) if c == EMPTY]
                mask = sum(1 << i for i in dealt)
                assert all(back[i] & mask == mask for i in dealt), (ranks, seed)
    assert won >= 3  # the backward check ran on some won deals


def test_phase_nodes_scoring(common) -> None:
    """dfs_jit_phase_nodes' offline score: a streamlined win counts only within its share, and the complete
    search gets what the streamlined phase left (all of it when that phase searched its space out early)."""
    import dfs_jit_phase_nodes as pn

    win = {"s_nodes": 300, "s_exhausted": None, "c_nodes": None}
    assert pn.decided(win, 1000, 0.3) and not pn.decided(win, 1000, 0.2) and not pn.decided(win, 1000, 0)
    slow = {"s_nodes": None, "s_exhausted": None, "c_nodes": 800}
    assert pn.decided(slow, 1000, 0.2) and not pn.decided(slow, 1000, 0.3)
    out = {"s_nodes": None, "s_exhausted": 50, "c_nodes": 940}
    assert pn.decided(out, 1000, 0.5) and not pn.decided({**out, "s_exhausted": None}, 1000, 0.5)


def test_gaps_foata_traces_counts_every_trace_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """gaps_foata_traces counts, layer by layer, exactly the distinct Foata normal forms of the plays:
    checked against every play of small deals, each reduced to its normal form (a move's step is one more
    than the latest earlier move it depends on)."""
    monkeypatch.syspath_prepend(str(BENCH))
    from gaps_foata_traces import count, independent, moves

    from patience.deals import deal
    from patience.engine import EMPTY
    from patience.solvers.cpsat_gaps import GapsDeal

    def form(play: tuple, R: int) -> tuple[frozenset, ...]:
        level: list[int] = []
        for i, a in enumerate(play):
            level.append(1 + max((level[j] for j in range(i) if not independent(play[j], a, R)), default=0))
        steps = range(1, max(level) + 1)
        return tuple(frozenset(a for a, k in zip(play, level, strict=True) if k == s) for s in steps)

    def normal_forms(d: GapsDeal) -> tuple[set[tuple[frozenset, ...]], set[tuple[int, ...]]]:
        forms, grids = set(), {d.grid}
        stack: list[tuple[tuple[int, ...], tuple]] = [(d.grid, ())]
        while stack:
            g, play = stack.pop()
            for m in moves(g, d.R):
                h = list(g)
                h[m[2]], h[m[1]] = m[0], EMPTY
                forms.add(form((*play, m), d.R))
                grids.add(tuple(h))
                stack.append((tuple(h), (*play, m)))
        return forms, grids

    checked = deep = 0
    for seed in range(8):
        d = GapsDeal.from_instance(deal(BASIC_GAPS, seed, "portable", {"suits": 3, "ranks": 4, "rows": 3}))
        forms, grids = normal_forms(d)
        row = count(d)
        assert (row["traces"], row["grids"]) == (len(forms), len(grids)), seed
        checked += 1
        deep += row["traces"] > row["grid-depth pairs"]  # some grid met by two traces of one depth
    assert checked == 8 and deep  # the comparison met traces that are not grids
