"""The census of lost standard FreeCell deals: Freecell Solver filters, our complete search decides."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from patience.analysis import freecell_census as fc
from patience.analysis.freecell_census import Census, FilterError, plan_chunks, run_census
from patience.analysis.freecell_lost import highest_target
from patience.cli import main
from patience.deals import deal

HAVE_FCS = shutil.which(fc.RANGE_SOLVER) is not None and shutil.which(fc.SINGLE_SOLVER) is not None
# .ci/run sets CI and installs Freecell Solver (benchmarks/peers.sh fcs): there a missing one fails the test.
needs_fcs = pytest.mark.skipif(
    not HAVE_FCS and not os.environ.get("CI"), reason="Freecell Solver not installed"
)


@dataclass
class FakeFilter:
    """A filter that calls every deal in ``unsolved_all`` unsolved (all deals when None); counts its calls."""

    unsolved_all: set[int] | None = None
    dealer_agrees: bool = True
    name: str = "fake"
    scans: list[tuple[int, int]] = field(default_factory=list)

    def unsolved(self, first: int, last: int) -> list[int]:
        self.scans.append((first, last))
        return [n for n in range(first, last + 1) if self.unsolved_all is None or n in self.unsolved_all]

    def same_deal(self, number: int) -> bool:
        return self.dealer_agrees


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, ["analyze", "freecell-lost", "census", *args])
    return r.exit_code, r.stdout, r.stderr


@needs_fcs
def test_census_finds_11982_lost_with_its_highest_target(tmp_path: Path) -> None:
    out = tmp_path / "census.json"
    code, text, err = run("--ms", "11980-11984", "--chunk", "3", "--limit", "60s", "--quiet", "--json",
                          "--out", str(out))  # fmt: skip
    assert code == 0, err
    data = json.loads(text)
    want = highest_target(deal("freecell", 11982, "ms"), seconds=60)  # what `highest` computes for a deal
    assert want.status == "unsolvable" and want.most is not None
    assert data["scanned"] == 5 and data["lost"] == [11982]
    assert data["highest_target"] == {"11982": want.most}
    assert data["missed_by_filter"] == [] and data["undecided"] == []
    assert data["boards_checked"] == 4  # both ends of chunks 11980-11982 and 11983-11984
    stored = json.loads(out.read_text())
    assert [(c["first"], c["last"]) for c in stored["chunks"]] == [(11980, 11982), (11983, 11984)]
    assert stored["verdicts"]["11982"]["status"] == "unsolvable"


def test_a_filter_that_solves_nothing_leaves_the_verdict_to_our_search() -> None:
    census = Census("fake")
    got = run_census(census, 11980, 11984, FakeFilter(), seconds=60)
    assert got.candidates == [11980, 11981, 11982, 11983, 11984]
    assert got.missed == [11980, 11981, 11983, 11984]  # we win them: "the filter missed them"
    assert list(got.lost) == [11982] and got.undecided == []
    assert got.lost[11982] == highest_target(deal("freecell", 11982, "ms"), seconds=60).most
    assert all(census.verdicts[n].status == "solved" for n in got.missed)


def test_a_dealer_mismatch_stops_the_census() -> None:
    with pytest.raises(FilterError, match="dealers differ"):
        run_census(Census("fake"), 1, 10, FakeFilter(set(), dealer_agrees=False), seconds=1)


def test_a_resumed_census_scans_and_solves_only_what_is_new(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    first = FakeFilter({5})
    s1 = run_census(Census.load(path, "fake", "dfs-jit"), 1, 10, first, seconds=30, chunk=4)
    assert first.scans == [(1, 4), (5, 8), (9, 10)] and s1.scanned == 10 and s1.missed == [5]
    again = FakeFilter({5, 12})
    census = Census.load(path, "fake", "dfs-jit")
    assert census.verdicts[5].status == "solved"
    s2 = run_census(census, 1, 13, again, seconds=30, chunk=4)
    assert again.scans == [(11, 12), (13, 13)]  # 1-10 stored; cut at multiples of 4
    assert s2.scanned == 13 and s2.candidates == [5, 12] and s2.missed == [5, 12]
    assert census.summary(11, 13).candidates == [12] and census.summary(11, 13).scanned == 3
    with pytest.raises(ValueError, match="a census by 'fake'"):
        Census.load(path, "other", "dfs-jit")


def test_plan_chunks_covers_exactly_the_gaps() -> None:
    assert plan_chunks(1, 10, [], 4) == [(1, 4), (5, 8), (9, 10)]
    assert plan_chunks(3, 9, [(1, 4), (7, 7)], 4) == [(5, 6), (8, 8), (9, 9)]
    assert plan_chunks(1, 5, [(1, 5)], 2) == []
    cut = plan_chunks(2, 100, [(10, 20), (50, 60)], 16)
    covered = sorted(n for a, b in [*cut, (10, 20), (50, 60)] for n in range(a, b + 1) if 2 <= n <= 100)
    assert covered == list(range(2, 101))


def test_census_bad_input_is_one_line_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = run("--ms", "5-3")
    assert code == 2 and err.count("\n") == 1 and "--ms '5-3'" in err
    code, _, err = run("--ms", f"1-{2**33}")
    assert code == 2 and "LAST <= 8589934591" in err
    junk = tmp_path / "junk.json"
    junk.write_text("[1, 2]")
    if HAVE_FCS:
        code, _, err = run("--ms", "1-2", "--out", str(junk), "--quiet")
        assert code == 2 and "not a census file" in err and junk.read_text() == "[1, 2]"
        code, _, err = run("--ms", "1-2", "--preset", "no-such-preset", "--out", str(tmp_path / "p.json"))
        assert code == 2 and err.count("\n") == 1 and "--preset 'no-such-preset'" in err
        assert not (tmp_path / "p.json").exists()
    monkeypatch.setattr(fc.shutil, "which", lambda exe: None)
    code, _, err = run("--ms", "1-2", "--out", str(tmp_path / "new.json"))
    assert code == 2 and err.count("\n") == 1 and "not installed" in err
    assert not (tmp_path / "new.json").exists()
