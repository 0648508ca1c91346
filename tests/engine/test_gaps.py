"""Gaps rules in the engine and the validator: filling gaps, dead gaps, the first column, redeals."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from patience.cards import Card, parse_card
from patience.cli import main
from patience.deals import deal
from patience.engine import EMPTY, GRID, REDEAL, Engine, moves_to_json
from patience.instance import Instance, Layout
from patience.rng import gaps_redeal_shuffle
from patience.solvers.base import Limits, Status, solve
from patience.validate import replay

H, S = 2, 3  # suit indices (C D H S)


def grid_instance(game: str, rows: list[list[str | None]], **overrides: int) -> Instance:
    """An instance of ``game`` whose grid is given as card texts (None for a gap)."""
    grid = tuple(tuple(None if c is None else parse_card(c) for c in row) for row in rows)
    return Instance.build(game, Layout(grid=grid), overrides)


def random_walk(inst: Instance, seed: int) -> tuple[Engine, list]:
    """Play random legal moves until none is left (Gaps always gets stuck or won)."""
    e, rng, played = Engine(inst), random.Random(seed), []
    while moves := e.legal_moves():
        m = rng.choice(moves)
        e.apply(m)
        played.append(m)
    return e, played


# 2 suits x 4 ranks: rows of 4 cells, 3 cards (2..4) and one gap each.
SMALL = {"suits": 2, "ranks": 4}


def test_gap_right_of_king_or_gap_is_dead() -> None:
    inst = grid_instance("gaps-one-deal", [["2C", "3C", "4C", None], ["3D", None, "4D", "2D"]], **SMALL)
    e = Engine(inst)
    # The gap at grid:0:3 follows a King (rank 4 is the top rank): nothing may go there.
    # The gap at grid:1:1 follows 3D: only 4D may go there.
    assert e.legal_moves() == [(GRID, 6, GRID, 5, 1)]
    inst = grid_instance("gaps-one-deal", [["3C", None, None, "4C"], ["2C", "2D", "3D", "4D"]], **SMALL)
    # grid:0:1 takes 4C only; grid:0:2 is right of a gap: dead.
    assert Engine(inst).legal_moves() == [(GRID, 3, GRID, 1, 1)]
    bad = [{"from": "grid:1:1", "to": "grid:0:2"}]  # 2D into a dead gap
    report = replay(inst, bad)
    assert not report.ok and "right of a gap" in report.error


def test_first_column_fixed_suit_and_any_two() -> None:
    rows = [[None, "3C", "4C", "2D"], ["2C", "3D", "4D", None]]
    fixed = Engine(grid_instance("gaps-basic-variant", rows, **SMALL))
    anyt = Engine(grid_instance("gaps-one-deal", rows, **SMALL))
    # Row 0 takes the 2 of suit 0 (clubs) only in the basic variant; any 2 in one deal.
    assert (GRID, 4, GRID, 0, 1) in fixed.legal_moves() and (GRID, 3, GRID, 0, 1) not in fixed.legal_moves()
    assert {(GRID, 4, GRID, 0, 1), (GRID, 3, GRID, 0, 1)} <= set(anyt.legal_moves())
    report = replay(fixed.instance, [{"from": "grid:0:3", "to": "grid:0:0", "card": "2D"}])
    assert not report.ok and report.rule == "gaps.first_column=fixed-suit"
    assert replay(anyt.instance, [{"from": "grid:0:3", "to": "grid:0:0", "card": "2D"}]).ok


def test_won_needs_every_row_in_sequence() -> None:
    won = grid_instance("gaps-one-deal", [["2D", "3D", "4D", None], ["2C", "3C", "4C", None]], **SMALL)
    assert Engine(won).is_won() and replay(won, []).won
    mixed = grid_instance("gaps-one-deal", [["2D", "3C", "4D", None], ["2C", "3D", "4C", None]], **SMALL)
    assert not Engine(mixed).is_won() and not replay(mixed, []).won


def test_redeal_only_when_stuck_and_keeps_runs() -> None:
    rows = [["2C", "3C", "4D", None], ["3D", "2D", "4C", None]]  # both gaps right of a King: stuck
    inst = grid_instance("gaps", rows, **SMALL)
    e = Engine(inst)
    assert e.legal_moves() == [REDEAL]
    before = e.snapshot()
    e.apply(REDEAL)
    assert e.grid[:2] == [0 * 4 + 1, 0 * 4 + 2]  # 2C 3C kept in place
    assert e.grid[2] == EMPTY and e.grid[4] == EMPTY  # a gap after each run (row 1 has none: gap first)
    assert sorted(c for c in e.grid if c != EMPTY) == sorted(c for c in before[7] if c != EMPTY)
    assert e.redeals_used == 1
    e.undo()
    assert e.snapshot() == before


def test_redeal_layout_is_the_seeded_shuffle() -> None:
    inst = deal("gaps", 7)
    e, played = random_walk(inst, 3)
    assert REDEAL in played  # random play gets stuck well before the two redeals are used up
    e2 = Engine(inst)
    for m in played:
        if m == REDEAL:
            runs = [e2.gaps_sequence(r) for r in range(e2.rows)]
            keep = {r * e2.R + k for r, n in enumerate(runs) for k in range(n)}
            loose = sorted(c for i, c in enumerate(e2.grid) if c != EMPTY and i not in keep)
            e2.apply(m)
            expect = iter(gaps_redeal_shuffle(inst.sha256, e2.redeals_used, loose))
            for r, n in enumerate(runs):
                row = e2.grid[r * e2.R : (r + 1) * e2.R]
                assert row[n] == EMPTY and row[n + 1 :] == [next(expect) for _ in row[n + 1 :]]
        else:
            e2.apply(m)
    assert e2.snapshot() == e.snapshot() and e.redeals_used <= 2


@pytest.mark.parametrize("seed", range(1, 13))
def test_redeals_replay_in_the_validator(seed: int) -> None:
    inst = deal("gaps", seed)
    e, played = random_walk(inst, seed)
    report = replay(inst, list(moves_to_json(inst, played)))
    assert report.ok and report.won == e.is_won()


def test_validator_rejects_bad_redeals() -> None:
    inst = deal("gaps", 7)
    _, played = random_walk(inst, 3)
    js = list(moves_to_json(inst, played))
    k = next(i for i, m in enumerate(js) if "redeal" in m)
    tampered = json.loads(json.dumps(js))
    row = tampered[k]["grid"][0]
    i, j = [c for c, x in enumerate(row) if x is not None][-2:]
    row[i], row[j] = row[j], row[i]
    assert replay(inst, tampered).index == k and replay(inst, tampered).rule == "gaps.redeals"
    early = js[: k - 1] + [js[k]]  # one fill left undone: a gap can still be filled
    assert "only when no gap can be filled" in replay(inst, early).error
    one_deal = inst.build("gaps-one-deal", inst.layout)
    assert replay(one_deal, js[: k + 1]).rule == "gaps.redeals"  # no redeal in the one-deal game


def test_generalized_rows_follow_suits(tmp_path: Path) -> None:
    code = CliRunner().invoke(
        main, ["generate", "gaps", "--set", "suits=3", "--set", "ranks=5", "-n", "3", "-o", str(tmp_path)]
    )
    assert code.exit_code == 0, code.output
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    data = json.loads(files[0].read_text())
    assert len(data["layout"]["grid"]) == 3 and {len(r) for r in data["layout"]["grid"]} == {5}


def _bad(tmp_path: Path, edit) -> tuple[int, str]:
    data = json.loads(deal("gaps-basic-variant", 1).dumps())
    edit(data["layout"]["grid"])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    out = tmp_path / "sol.json"
    result = CliRunner().invoke(main, ["solve", str(path), "--backend", "dfs", "-o", str(out)])
    assert not out.exists()
    return result.exit_code, result.output


def _two_in_one(grid: list) -> None:
    grid[0][1] = [grid[0][1], grid[0][2]]


def _missing_gap(grid: list) -> None:
    row = next(r for r in grid if None in r)
    row[row.index(None)] = "AS"


def _duplicate(grid: list) -> None:
    cards = [(r, c) for r, row in enumerate(grid) for c, x in enumerate(row) if x is not None]
    (r0, c0), (r1, c1) = cards[0], cards[1]
    grid[r1][c1] = grid[r0][c0]


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (_two_in_one, "layout.grid[0][1]: expected a card"),
        (_missing_gap, "layout.grid: 3 gaps, the rules need 4"),
        (_duplicate, "duplicate card"),
        (lambda g: g.pop(), "layout.grid: 3 rows"),
    ],
)
def test_bad_layouts_exit_2(tmp_path: Path, edit, words: str) -> None:
    code, out = _bad(tmp_path, edit)
    assert code == 2 and words in out and len(out.strip().splitlines()) == 1


def test_solved_with_redeals_is_validated() -> None:
    result = solve(deal("gaps", 1), "dfs", Limits(seconds=20))
    assert result.status is Status.SOLVED
    assert any("redeal" in m for m in result.solution)  # random play reaches a dead end on this deal
    assert replay(deal("gaps", 1), list(result.solution)).won


# Metamorphic checks on small generalized deals, with dfs (a complete search) as the oracle --------------
def _verdict(inst: Instance) -> Status:
    result = solve(inst, "dfs", Limits(seconds=20))
    assert result.status in (Status.SOLVED, Status.UNSOLVABLE), result
    return result.status


def _relabel(inst: Instance, game: str, perm: list[int], rows: list[int]) -> Instance:
    """Suit ``s`` becomes ``perm[s]``, row ``r`` moves to ``rows[r]``."""
    grid: list = [None] * len(inst.layout.grid)
    for r, row in enumerate(inst.layout.grid):
        grid[rows[r]] = tuple(None if c is None else Card(c.rank, perm[c.suit]) for c in row)
    return Instance.build(game, Layout(grid=tuple(grid)), inst.overrides)


@pytest.mark.parametrize("seed", range(1, 16))
def test_tighter_rules_never_win_more(seed: int) -> None:
    """basic variant (fixed-suit 2s) won => one deal won => with redeals won; relabelings keep verdicts."""
    small = {"suits": 3, "ranks": 4}
    basic = deal("gaps-basic-variant", seed, overrides=small)
    one = Instance.build("gaps-one-deal", basic.layout, small)
    redeal = Instance.build("gaps", basic.layout, small)
    vb, vo, vr = _verdict(basic), _verdict(one), _verdict(redeal)
    if vb is Status.SOLVED:
        assert vo is Status.SOLVED
    if vo is Status.SOLVED:
        assert vr is Status.SOLVED
    rng = random.Random(seed)
    perm = rng.sample(range(3), 3)
    # One deal: any suit relabeling and any row order keep the verdict.
    assert _verdict(_relabel(one, "gaps-one-deal", perm, rng.sample(range(3), 3))) is vo
    # Basic variant: row r takes suit r, so rows move with their suits.
    assert _verdict(_relabel(basic, "gaps-basic-variant", perm, perm)) is vb
