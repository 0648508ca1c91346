"""Klaver's special FreeCell layouts: the deals, and their census (filter, then our complete search)."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from patience.analysis import freecell_census
from patience.analysis.freecell_layouts import (
    LAYOUTS,
    BoardFilter,
    deal_layout,
    deep_places,
    layout_frame,
    open_census,
    run_layout_census,
)
from patience.analysis.freecell_lost import highest_target
from patience.cards import Card
from patience.cli import main
from patience.deals import deal
from patience.formats import to_fcsolve

HAVE_FCS = shutil.which("fc-solve") is not None
# Same rule as test_freecell_census: .ci/run sets CI and installs Freecell Solver, so there it must run.
needs_fcs = pytest.mark.skipif(
    not HAVE_FCS and not os.environ.get("CI"), reason="Freecell Solver not installed"
)

CLUBS, SPADES = 0, 3


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_a_layout_deal_holds_the_52_cards_in_the_standard_shape(name: str) -> None:
    for seed in (1, 2, 77):
        piles = deal_layout(LAYOUTS[name], seed).layout.tableau
        assert [len(p) for p in piles] == [7, 7, 7, 7, 6, 6, 6, 6]
        cards = [c for p in piles for c in p]
        assert len(set(cards)) == 52
        assert set(cards) == {Card(r, s) for s in range(4) for r in range(1, 14)}


def test_deep_places_are_row_major_from_the_bottom() -> None:
    places = deep_places()
    assert places[:9] == [(s, 0) for s in range(8)] + [(0, 1)]
    assert places[-4:] == [(0, 6), (1, 6), (2, 6), (3, 6)]
    assert len(places) == len(set(places)) == 52


def test_suit_deep_puts_clubs_in_order_on_the_bottom_rows() -> None:
    for seed in (1, 5):
        t = deal_layout(LAYOUTS["suit-deep"], seed).layout.tableau
        assert [t[s][0] for s in range(8)] == [Card(r, CLUBS) for r in range(1, 9)]  # A..8 on the bottom
        assert [t[s][1] for s in range(5)] == [Card(r, CLUBS) for r in range(9, 14)]  # 9..K above them
        assert (t[0][1], t[4][1]) == (Card(9, CLUBS), Card(13, CLUBS))  # 9 covers the Ace, King the 5
        clubs = {(s, d) for s, pile in enumerate(t) for d, c in enumerate(pile) if c.suit == CLUBS}
        assert clubs == {(s, 0) for s in range(8)} | {(s, 1) for s in range(5)}


def test_colour_deep_puts_spades_on_the_clubs() -> None:
    t = deal_layout(LAYOUTS["colour-deep"], 3).layout.tableau
    assert [t[s][1] for s in range(5, 8)] == [Card(r, SPADES) for r in (1, 2, 3)]
    assert [t[s][2] for s in range(8)] == [Card(r, SPADES) for r in range(4, 12)]
    assert (t[0][3], t[1][3]) == (Card(12, SPADES), Card(13, SPADES))
    fixed = layout_frame(LAYOUTS["colour-deep"])
    assert len(fixed) == 26 and all(t[s][d] == c for (s, d), c in fixed.items())
    # every other card is red, above the black ones
    assert all(c.colour == 1 for s, p in enumerate(t) for d, c in enumerate(p) if (s, d) not in fixed)


def test_king_on_ace_layouts_put_each_king_directly_on_its_ace() -> None:
    t = deal_layout(LAYOUTS["suit-deep-king-on-ace"], 4).layout.tableau
    assert (t[0][0], t[0][1]) == (Card(1, CLUBS), Card(13, CLUBS))
    assert [t[s][0] for s in range(1, 8)] == [Card(r, CLUBS) for r in range(2, 9)]
    assert [t[s][1] for s in range(1, 5)] == [Card(r, CLUBS) for r in range(9, 13)]
    frame = layout_frame(LAYOUTS["colour-deep-king-on-ace"])
    assert (frame[(5, 1)], frame[(5, 2)]) == (Card(1, SPADES), Card(13, SPADES))
    assert set(frame) == set(layout_frame(LAYOUTS["colour-deep"]))  # the same places, another order
    assert frame[(1, 3)] == Card(12, SPADES) and frame[(6, 1)] == Card(2, SPADES)


def test_cli_offers_every_layout() -> None:
    from patience.cli.analyze_freecell import LAYOUT_NAMES

    assert sorted(LAYOUT_NAMES) == sorted(LAYOUTS)


def test_seeded_deals_repeat_and_differ_by_seed_and_layout() -> None:
    lay = LAYOUTS["colour-deep"]
    assert deal_layout(lay, 9).layout == deal_layout(lay, 9).layout
    assert deal_layout(lay, 9).layout != deal_layout(lay, 10).layout
    assert len({deal_layout(LAYOUTS["default"], s).layout.tableau for s in range(1, 30)}) == 29
    assert not layout_frame(LAYOUTS["default"])


@dataclass
class SolvesNothing:
    """A filter that leaves every board to our search; records the ranges it scanned."""

    layout: object
    name: str = "solves nothing"
    scans: list[tuple[int, int]] = field(default_factory=list)

    def unsolved(self, first: int, last: int) -> list[int]:
        self.scans.append((first, last))
        return list(range(first, last + 1))

    def same_deal(self, number: int) -> None:
        return None


def test_census_with_a_filter_that_solves_nothing_leaves_every_verdict_to_our_search(tmp_path: Path) -> None:
    lay = LAYOUTS["suit-deep"]
    census = freecell_census.Census.load(tmp_path / "c.json", "solves nothing", "dfs-jit", "test")
    fil = SolvesNothing(lay)
    s = run_layout_census(census, fil, 4, 3, 60.0, chunk=2)  # type: ignore[arg-type]
    assert fil.scans == [(4, 4), (5, 6)]  # cut at multiples of the chunk
    assert s.scanned == 3 and s.candidates == [4, 5, 6]
    for n in (4, 5, 6):  # each verdict is our search on the layout's board (not MS deal n)
        want = highest_target(deal_layout(lay, n), seconds=60.0)
        got = census.verdicts[n]
        assert (got.status, got.most, got.nodes) == (want.status, want.most, want.nodes)
    assert sorted(s.missed + list(s.lost) + s.undecided) == [4, 5, 6]
    stored = json.loads((tmp_path / "c.json").read_text())
    assert stored["study"] == "test" and set(stored["verdicts"]) == {"4", "5", "6"}
    # resumed: nothing scanned or solved again
    again = freecell_census.Census.load(tmp_path / "c.json", "solves nothing", "dfs-jit")
    fil2 = SolvesNothing(lay)
    s2 = run_layout_census(again, fil2, 4, 3, 60.0, chunk=2)  # type: ignore[arg-type]
    assert fil2.scans == [] and s2.candidates == s.candidates and s2.missed == s.missed


@needs_fcs
def test_board_filter_reads_fc_solve_verdicts() -> None:
    fil = BoardFilter(LAYOUTS["suit-deep"])
    assert fil.solves(to_fcsolve(deal("freecell", 1, "ms")))
    assert not fil.solves(to_fcsolve(deal("freecell", 11982, "ms")))  # lost: fc-solve cannot solve it
    with pytest.raises(freecell_census.FilterError):
        fil.solves("not a board\n")


@needs_fcs
def test_tiny_real_layout_census_from_the_cli(tmp_path: Path) -> None:
    out = tmp_path / "lay.json"
    args = ["analyze", "freecell-lost", "census", "--layout", "colour-deep", "-n", "12", "--seed", "3",
            "--chunk", "5", "--quiet", "--json", "--out", str(out)]  # fmt: skip
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert (data["first"], data["last"], data["scanned"]) == (3, 14, 12)
    assert data["layout"] == "colour-deep" and "colour-deep" in data["filter"]
    decided = set(data["lost"]) | set(data["missed_by_filter"]) | set(data["undecided"])
    assert decided == set(data["candidates"]) and all(3 <= n <= 14 for n in decided)
    census, _ = open_census(LAYOUTS["colour-deep"], out)
    assert [(c.first, c.last) for c in census.chunks] == [(3, 5), (6, 10), (11, 14)]


@needs_fcs
def test_layout_census_bad_input_is_one_line_exit_2_nothing_written(tmp_path: Path) -> None:
    out = tmp_path / "lay.json"
    base = ["analyze", "freecell-lost", "census", "--quiet", "--out", str(out)]
    for extra in (
        ["--layout", "suit-deep", "-n", "3", "--preset", "no-such-preset"],
        ["--layout", "suit-deep"],
        ["-n", "3"],
        ["--ms", "1-3", "--layout", "suit-deep", "-n", "3"],
    ):
        r = CliRunner().invoke(main, base + extra)
        assert r.exit_code == 2, (extra, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1 and not out.exists()
