"""python-constraint backend, and the `generate` command that makes generalized instance families."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.deals import deal
from patience.instance import load_instance
from patience.solvers.base import Limits, Status, get_solver
from patience.solvers.csp import CspBlackHole
from patience.validate import replay


def test_csp_supports_only_tiny_one_hole_decks():
    csp = get_solver("csp")
    assert csp.supports(deal("black-hole", 1, "portable", {"suits": 4, "ranks": 5, "piles": 19}).rules)
    assert not csp.supports(deal("black-hole", 1).rules)  # 52 cards
    assert not csp.supports(deal("worm-hole", 1, "portable", {"suits": 2, "ranks": 5, "piles": 3}).rules)


def test_csp_solutions_validate_and_known_verdicts():
    rng = random.Random(5)
    seen = set()
    for _ in range(30):
        S, R = rng.randint(1, 3), rng.randint(3, 4)
        inst = deal("all-in-a-row", rng.randrange(10**6), "portable", {"suits": S, "ranks": R, "piles": S})
        r = CspBlackHole().solve(inst, Limits(10))
        seen.add(r.status)
        if r.status is Status.SOLVED:
            rep = replay(inst, list(r.solution))
            assert rep.ok and rep.won
    assert seen == {Status.SOLVED, Status.UNSOLVABLE}


def test_csp_one_pile_one_suit_no_wrap():
    # One pile of A..R in order from the top: only possible when consecutive ranks fit.
    inst = deal("all-in-a-row", 3, "portable", {"suits": 1, "ranks": 4, "piles": 1})
    ranks = [c.rank for c in inst.layout.tableau[0]]
    ok = all(abs(a - b) == 1 or {a, b} == {1, 4} for a, b in zip(ranks, ranks[1:], strict=False))
    expect = Status.SOLVED if ok else Status.UNSOLVABLE
    assert CspBlackHole().solve(inst, Limits(10)).status is expect


def test_generate_writes_n_valid_instances(tmp_path):
    out = tmp_path / "fam"
    args = ["generate", "black-hole", "--set", "suits=3", "--set", "ranks=5", "--set", "piles=7"]
    res = CliRunner().invoke(main, [*args, "-n", "4", "--seed", "10", "-o", str(out)])
    assert res.exit_code == 0, res.output
    files = sorted(out.glob("*.json"))
    assert len(files) == 4
    insts = [load_instance(f) for f in files]
    assert {i.source["seed"] for i in insts} == {10, 11, 12, 13}
    assert all(i.rules.deck.suits == 3 and len(i.layout.tableau) == 7 for i in insts)
    assert json.loads(files[0].read_text())["game"] == "black-hole"


@pytest.mark.parametrize(
    ("sets", "n", "needle"),
    [
        (["piles=4"], "3", "do not divide"),
        (["ranks=0"], "3", "ranks"),
        (["suits=-1"], "3", "suits"),
        (["colour=red"], "3", "unknown parameter"),
        (["suits"], "3", "NAME=VALUE"),
        ([], "0", "-n"),
    ],
)
def test_generate_bad_parameters_exit_2_and_write_nothing(tmp_path, sets, n, needle):
    out = tmp_path / "nothing"
    args = ["generate", "black-hole"] + [a for s in sets for a in ("--set", s)] + ["-n", n, "-o", str(out)]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2, res.output
    assert needle in res.output and len(res.output.strip().splitlines()) == 1
    assert not out.exists()
