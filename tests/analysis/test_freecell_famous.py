"""The thesis's deals (patience.analysis.freecell_famous) and their files in instances/freecell/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from patience.analysis.freecell_famous import (
    AMBIGUOUS,
    FAMOUS,
    famous_instance,
    klaver_suit,
    parse_klaver,
    to_klaver,
)
from patience.analysis.freecell_lost import Config, fewest_cells, highest_target, upper_bound
from patience.cards import Card, colour_of_suit
from patience.engine import CELL, Engine
from patience.instance import load_instance
from patience.solvers.base import Status

INSTANCES = Path(__file__).parents[2] / "instances" / "freecell"
BY_NAME = {f.name: f for f in FAMOUS + AMBIGUOUS}


def test_suit_letters_alternate_colours():
    assert [klaver_suit(x) for x in "abcd"] == [3, 1, 0, 2]  # spades diamonds clubs hearts
    assert [colour_of_suit(klaver_suit(x)) for x in "abcdefgh"] == [0, 1, 0, 1, 0, 1, 0, 1]
    assert len({klaver_suit(x) for x in "abcdefgh"}) == 8
    with pytest.raises(ValueError):
        klaver_suit("1")


def test_text_format_round_trip_and_errors():
    f = BY_NAME["bodlaender"]
    piles = parse_klaver(f.rows, 8)
    assert piles[0][:2] == (Card(2, 3), Card(8, 3))  # a2 at the bottom of stack 1, a8 on it
    assert [len(p) for p in piles] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert to_klaver(piles) == f.rows
    with pytest.raises(ValueError, match="line 1, card 2"):
        parse_klaver("a1,zz", 8)
    with pytest.raises(ValueError, match="line 1: 3 cards for 2 stacks"):
        parse_klaver("a1,a2,a3", 2)


@pytest.mark.parametrize("f", FAMOUS + AMBIGUOUS, ids=lambda f: f.name)
def test_every_deal_is_a_whole_deck(f):
    inst = famous_instance(f)  # Instance.build checks every card once, the pile shape of the rules
    assert Config.of(inst) == Config(f.stacks, f.ranks, f.suits, f.cells)
    assert inst.source and inst.source["thesis"].startswith("Klaver 2022")


def test_unmoveable_allows_only_free_cell_moves():
    e = Engine(famous_instance(BY_NAME["unmoveable"]))
    moves = e.legal_moves()
    assert moves and all(m[2] == CELL for m in moves)
    ans = fewest_cells(famous_instance(BY_NAME["unmoveable"]), max_cells=8)
    assert ans.fewest == 6


def test_figures_25_and_30_have_the_claimed_highest_target():
    for name in ("fig25-a", "fig25-b"):
        inst = famous_instance(BY_NAME[name])
        v = highest_target(inst)
        assert v.status == "unsolvable" and v.most == upper_bound(Config.of(inst)) == 30
    for name in ("fig30-a", "fig30-b"):
        v = highest_target(famous_instance(BY_NAME[name]))
        assert (v.status, v.most) == ("unsolvable", 22)  # the thesis's best standard lost deal


def test_figure_23_has_one_reading_that_is_a_maximal_lost_game():
    """Of the eight readings of Figure 23 (6-10-4-3) exactly one is lost with the bound home (the thesis's
    claim); the slow test re-checks it without dominances."""
    found = {}
    for f in AMBIGUOUS:
        if f.name.startswith("fig23-"):
            v = highest_target(famous_instance(f))
            found[f.name] = (v.status, v.most)
    assert len(found) == 8
    bound = upper_bound(Config(6, 10, 4, 3))
    assert [k for k, v in found.items() if v == ("unsolvable", bound)] == ["fig23-d"]


@pytest.mark.slow
def test_figure_23_reading_d_is_maximal_without_dominances():
    from .test_freecell_lost import plain_dfs

    assert plain_dfs(famous_instance(BY_NAME["fig23-d"])) == (Status.UNSOLVABLE, 30)


STORED = sorted(INSTANCES.glob("klaver-*.json"))


def test_stored_files_exist():
    names = {p.stem for p in STORED}
    assert {"klaver-bodlaender", "klaver-magic-8", "klaver-unmoveable", "klaver-fig30-a"} <= names


@pytest.mark.parametrize("path", STORED, ids=[p.stem for p in STORED])
def test_stored_verdicts_recompute(path):
    """The verdict and highest target each file records are what a complete search finds now."""
    inst = load_instance(path)
    src = inst.source or {}
    if src.get("name") in ("magic-8", "fig22-b"):
        pytest.skip("minutes: the slow test checks it")
    v = highest_target(inst)
    assert (v.status, v.most) == (src["verdict"], src["highest_target"])
    assert json.loads(path.read_text())["layout"]["tableau"] == inst.to_json()["layout"]["tableau"]


@pytest.mark.slow
def test_magic_8_needs_eight_cells_and_fig22_is_maximal():
    ans = fewest_cells(load_instance(INSTANCES / "klaver-magic-8.json"), max_cells=8, seconds=1800)
    assert ans.fewest == 8
    v = highest_target(famous_instance(BY_NAME["fig22-b"]), seconds=1800)
    assert (v.status, v.most) == ("unsolvable", 30)
    assert highest_target(famous_instance(BY_NAME["fig22-a"]), seconds=600).status == "solved"
