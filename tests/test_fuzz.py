"""Fuzzing the input boundary: every instance file, solution file and ``--set`` value is either accepted,
or refused with exit 2 and one ``error:`` line on stderr (never a traceback, never a file written).

Hypothesis mutates valid files (a hostile JSON value at a random path, a key dropped or added, raw bytes)
and draws hostile ``--set`` values; ``benchmarks/bench_fuzz.py`` runs the longer campaign through
subprocesses with time limits.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patience.cli import main
from patience.deals import deal
from patience.instance import MAX_FILE_BYTES, MAX_INT_DIGITS, MAX_JSON_DEPTH, Instance, load_instance
from patience.rules import MAX_CELLS, MAX_DECK_CARDS, MAX_PILES, SHORT_NAMES
from patience.solvers.base import Limits, Status, solve
from patience.validate import solution_json

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["AS", "14:5", "0:0", "tableau:0", "foundation:0", "stock", "grid:1:1", "10h"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def run(*args: str) -> tuple[int, str, str, BaseException | None]:
    r = CliRunner().invoke(main, list(args))
    exc = None if r.exception is None or isinstance(r.exception, SystemExit) else r.exception
    return r.exit_code, r.stdout, r.stderr, exc


def assert_refused_well(code: int, err: str, exc: BaseException | None, ok: tuple[int, ...]) -> None:
    """The promise: no exception escaped; exit 2 is exactly one ``error:`` line naming the problem."""
    assert exc is None, f"{type(exc).__name__}: {exc}"
    assert code in (*ok, 2), (code, err)
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), err


def _paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


@st.composite
def mutated(draw: st.DrawFn, data: dict[str, Any]) -> bytes:
    """A valid JSON object with one to three structural mutations, or raw hostile bytes."""
    if draw(st.integers(0, 5)) == 0:
        return draw(
            st.binary(max_size=64)
            | st.sampled_from(
                [
                    b"\xff\xfe{}",
                    b"[" * 5000,
                    b"[" * 100 + b"]" * 100,
                    b'{"format": 9' + b"9" * 5000 + b"}",
                    b"NaN",
                    b'{"a": 1e400}',
                    json.dumps(data).encode("utf-16"),
                ]
            )
        )
    obj = json.loads(json.dumps(data))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(obj)))
        op = draw(st.integers(0, 2))
        if not path:
            obj = draw(json_values) if op == 0 else obj
            continue
        parent = obj
        for p in path[:-1]:
            parent = parent[p]
        if op == 0:
            parent[path[-1]] = draw(json_values)
        elif op == 1:
            parent.pop(path[-1]) if isinstance(parent, list) else parent.pop(path[-1], None)
        elif isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=6))] = draw(json_values)
    return json.dumps(obj).encode()


BH = deal("black-hole", 1)
GAPS = deal("gaps-basic-variant", 1, overrides={"ranks": 4})


@pytest.fixture(scope="module")
def bh_solution() -> dict[str, Any]:
    result = solve(BH, "dfs", Limits(seconds=60))
    assert result.status is Status.SOLVED
    return solution_json(BH, list(result.solution or ()))


@FUZZ
@given(data=st.data())
def test_instance_file_is_valid_or_refused_in_one_line(tmp_path: Path, data: st.DataObject) -> None:
    base = data.draw(st.sampled_from([BH, GAPS]))
    raw = data.draw(mutated(base.to_json()))
    f = tmp_path / "in.json"
    f.write_bytes(raw)
    code, _, err, exc = run("show", str(f), "--moves")
    assert_refused_well(code, err, exc, ok=(0,))
    if code == 0:  # accepted: it really is a valid instance
        assert isinstance(load_instance(f), Instance)
    else:
        assert str(f) in err  # the message names the file


@FUZZ
@given(data=st.data())
def test_solution_file_is_valid_or_refused_in_one_line(
    tmp_path: Path, bh_solution: dict[str, Any], data: st.DataObject
) -> None:
    inst, sol = tmp_path / "bh.json", tmp_path / "sol.json"
    BH.save(inst)
    sol.write_bytes(data.draw(mutated(bh_solution)))
    before = sorted(tmp_path.iterdir())
    code, _, err, exc = run("validate", str(inst), str(sol))
    assert_refused_well(code, err, exc, ok=(0, 1))
    assert sorted(tmp_path.iterdir()) == before


hostile_set_values = st.one_of(
    st.integers(min_value=-(10**15), max_value=10**15).map(str),
    st.sampled_from(
        ["9" * 5000, "[" * 5000, "1e309", "NaN", "-0", "null", "true", "hole", "[1,2]", "{}", ""]
    ),
    st.text(max_size=10),
)


@FUZZ
@given(
    game=st.sampled_from(["black-hole", "freecell", "klondike-thoughtful", "gaps-basic-variant", "golf"]),
    sets=st.lists(
        st.tuples(
            st.sampled_from([*SHORT_NAMES, "stock.deal_to", "tableau.sizes", "foundations.start", "no.such"]),
            hostile_set_values,
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_set_values_are_valid_or_refused_in_one_line(tmp_path: Path, game: str, sets: list) -> None:
    args = [a for k, v in sets for a in ("--set", f"{k}={v}")]
    out = tmp_path / "d.json"
    out.unlink(missing_ok=True)  # tmp_path is shared by the examples of one test
    code, _, err, exc = run("deal", game, "--seed", "1", *args, "-o", str(out))
    assert_refused_well(code, err, exc, ok=(0,))
    if code == 0:
        assert isinstance(load_instance(out), Instance)  # what was dealt is a valid instance
    else:
        assert not out.exists()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--set", "piles=1000000000000"], str(MAX_PILES)),
        (["--set", "cells=1000000000"], str(MAX_CELLS)),
        (["--set", "suits=" + "9" * 5000], f"limit of {MAX_INT_DIGITS}"),
        (["--set", "suits=100", "--set", "ranks=100"], str(MAX_DECK_CARDS)),
        (["--set", "piles=" + "[" * 100 + "]" * 100], f"limit of {MAX_JSON_DEPTH}"),
    ],
)
def test_absurd_sizes_name_their_limit(args: list[str], needle: str) -> None:
    code, _, err, exc = run("deal", "freecell", "--seed", "1", *args)
    assert_refused_well(code, err, exc, ok=())
    assert needle in err


@pytest.mark.parametrize(
    ("game", "sets", "field"),
    [
        ("gaps-basic-variant", ["cells=-1"], "cells.count"),
        ("gaps-basic-variant", ["draw=0"], "stock.deal_count"),
        ("gaps-basic-variant", ["redeals=-5"], "stock.redeals"),
        ("gaps-basic-variant", ["piles=-1"], "tableau.piles"),
        ("gaps-basic-variant", ["cells=2"], "cells.count"),  # in range, but a Gaps game has no cells
        ("klondike-thoughtful", ["stock.deal_to=hole"], "stock.deal_to"),
        ("freecell", ["holes=2"], "foundations.count"),
        ("freecell", ["gaps.redeals=1"], "gaps.redeals"),
        ("freecell", ["cells=53"], "cells.count"),
    ],
)
def test_impossible_values_are_refused(game: str, sets: list[str], field: str) -> None:
    args = [a for s in sets for a in ("--set", s)]
    code, _, err, exc = run("deal", game, "--seed", "1", *args)
    assert_refused_well(code, err, exc, ok=())
    assert field in err


@pytest.mark.parametrize(
    "opts", [["--max-nodes", "-1"], ["--max-nodes", "0"], ["--max-mb", "0"], ["--max-mb", "-5"]]
)
def test_impossible_limits_are_refused(opts: list[str]) -> None:
    code, _, err, exc = run("solve", "black-hole:1", "--limit", "1s", *opts)
    assert_refused_well(code, err, exc, ok=())
    assert opts[0] in err


def test_huge_deal_counts_are_refused_before_any_file(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    code, _, err, exc = run("estimate", "black-hole", "-n", "1000000000", "--db", str(db), "-q")
    assert_refused_well(code, err, exc, ok=())
    assert "1000000" in err and list(tmp_path.iterdir()) == []
    code, _, err, exc = run("generate", "black-hole", "-n", "1000000000", "-o", str(tmp_path / "g"))
    assert_refused_well(code, err, exc, ok=())
    assert list(tmp_path.iterdir()) == []


def test_special_files_are_refused(tmp_path: Path, bh_solution: dict[str, Any]) -> None:
    code, _, err, exc = run("show", "/dev/zero")
    assert_refused_well(code, err, exc, ok=())
    assert str(MAX_FILE_BYTES) in err
    code, _, err, exc = run("show", str(tmp_path))
    assert_refused_well(code, err, exc, ok=())
    bad = tmp_path / "u.json"
    bad.write_bytes(b"\xff\xfe{}")
    code, _, err, exc = run("show", str(bad))
    assert_refused_well(code, err, exc, ok=())
    assert "UTF-8" in err


def test_unknown_top_level_key_in_a_solution_is_refused(tmp_path: Path, bh_solution: dict[str, Any]) -> None:
    inst, sol = tmp_path / "bh.json", tmp_path / "sol.json"
    BH.save(inst)
    sol.write_text(json.dumps({**bh_solution, "comment": "hi"}))
    code, _, err, exc = run("validate", str(inst), str(sol))
    assert_refused_well(code, err, exc, ok=())
    assert "comment" in err
    sol.write_text(json.dumps(bh_solution))
    assert run("validate", str(inst), str(sol))[0] == 0  # the same file without it wins


def test_output_keeps_mode_umask_and_symlinks(tmp_path: Path) -> None:
    import os
    import stat

    new, old, target, link = (tmp_path / n for n in ("new.json", "old.json", "target.json", "link.json"))
    old.write_text("{}")
    old.chmod(0o644)
    target.write_text("{}")
    link.symlink_to(target)
    mask = os.umask(0o027)
    try:
        for out in (new, old, link):
            code, _, err, exc = run("deal", "black-hole", "--seed", "1", "-o", str(out))
            assert code == 0 and exc is None, err
    finally:
        os.umask(mask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o640  # 0666 less the umask
    assert stat.S_IMODE(old.stat().st_mode) == 0o644  # an existing file keeps its mode
    assert link.is_symlink() and load_instance(target).game == "black-hole"  # the link's target was written


def test_absurd_swap_counts_are_refused(tmp_path: Path) -> None:
    code, _, err, exc = run("solve", "black-hole:1", "-g", "planted:999999999999", "--limit", "1s")
    assert_refused_well(code, err, exc, ok=())
    assert "100000" in err
    code, _, err, exc = run("generate", "black-hole", "--swaps", "999999999", "-o", str(tmp_path / "g"))
    assert_refused_well(code, err, exc, ok=())
    assert not (tmp_path / "g").exists()


def _million_card_tableau() -> str:
    """A 6 MB instance file of a million card names (bench_fuzz's 1000 x 1000 tableau): over every bound
    but the file size, so only parsing it says no."""
    layout = {"tableau": [["AS"] * 1000] * 1000}
    return json.dumps({"format": "patience-instance/1", "game": "black-hole", "layout": layout})


def test_a_large_file_is_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from patience import formats

    calls: list[int] = []
    real = formats.parse_json

    def counted(text: str, *args: Any) -> Any:
        calls.append(len(text))
        return real(text, *args)

    monkeypatch.setattr(formats, "parse_json", counted)
    with pytest.raises(ValueError, match="more than the 52 cards"):
        formats.read_deal(_million_card_tableau(), "big.json")
    assert len(calls) == 1  # format detection and reading share one parse


def test_the_depth_check_costs_less_than_parsing() -> None:
    """The nesting bound is checked after json.loads; walking a million scalars node by node took three
    times as long as the parse itself (refusing a 6 MB file took 2.5-5 s under load, past solve's limits)."""
    import time

    from patience.instance import json_depth

    text = _million_card_tableau()
    data = json.loads(text)
    parse = depth = float("inf")
    for _ in range(3):  # the best of three: the same machine load for both
        t0 = time.perf_counter()
        json.loads(text)
        t1 = time.perf_counter()
        assert json_depth(data) == 4
        parse, depth = min(parse, t1 - t0), min(depth, time.perf_counter() - t1)
    assert depth < parse, (depth, parse)


@pytest.mark.parametrize(("doc", "depth"), [(1, 0), ([], 1), ({"a": [[1], 2]}, 3), ("[" * 40 + "]" * 40, 0)])
def test_json_depth(doc: Any, depth: int) -> None:
    from patience.instance import MAX_JSON_DEPTH, json_depth

    assert json_depth(doc) == depth
    deep: list[Any] = []
    for _ in range(MAX_JSON_DEPTH + 5):
        deep = [deep]
    assert json_depth(deep) == MAX_JSON_DEPTH + 1  # counted no further than one past the bound
    assert json_depth(deep, stop=100) == MAX_JSON_DEPTH + 6
