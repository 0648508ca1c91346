"""``patience view``: the HTML page, loaded in a real headless browser (Debian's chromium), shows the right
cards, move and counter at a position, and its keys and buttons step through the solution.

Without chromium the browser tests skip locally, but fail when ``CI`` is set: CI installs chromium
(``.ci/run``), so a skip there would hide a broken viewer.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.deals import deal
from patience.engine.notation import move_text
from patience.instance import Instance, load_instance
from patience.solvers.base import solve
from patience.validate import solution_json
from patience.viewer import page_html, positions

ROOT = Path(__file__).parents[1]
RED = set("DH")


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if path := shutil.which(name):
            return path
    if os.environ.get("CI"):
        pytest.fail("chromium is missing in CI (.ci/run installs it): the viewer would go untested")
    pytest.skip("no chromium (apt-get install chromium); CI installs it and fails instead of skipping")


@pytest.fixture(scope="module")
def browser() -> str:
    return _chromium()


class _Dom(HTMLParser):
    """What the rendered page shows: counter, move text, and per area its piles of (card, classes)."""

    def __init__(self) -> None:
        super().__init__()
        self.text: dict[str, str] = {}
        self.areas: dict[str, list[list[tuple[str, set[str]]]]] = {}
        self.counts: dict[str, list[str]] = {}
        self.step: int | None = None
        self._area: str | None = None
        self._in: str | None = None
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        cls = set((a.get("class") or "").split())
        if tag == "body" and a.get("data-step") is not None:
            self.step = int(a["data-step"])
        if tag == "section" and "area" in cls:
            self._area = a["id"]
            self.areas[self._area] = []
            self.counts[self._area] = []
        elif self._area and (("pile" in cls and tag == "div") or (self._area == "grid" and "row" in cls)):
            self.areas[self._area].append([])
        elif self._area and "card" in cls:
            self.areas[self._area][-1].append((a["data-card"], cls))
        elif self._area and "count" in cls:
            self._in = "count"
        if a.get("id") in ("counter", "move", "title"):
            self._in = a["id"]

    def handle_endtag(self, tag: str) -> None:
        if tag == "section":
            self._area = None
        if tag in ("span", "h1"):
            self._in = None

    def handle_data(self, data: str) -> None:
        if self._in == "count" and self._area:
            self.counts[self._area].append(data)
        elif self._in:
            self.text[self._in] = self.text.get(self._in, "") + data


def load(browser: str, page: Path, query: str, tmp: Path) -> _Dom:
    """The DOM chromium renders for ``page`` + ``query`` (``?step=5``, ``#7``), parsed."""
    cmd = [
        browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        f"--user-data-dir={tmp / 'profile'}",
        "--virtual-time-budget=2000", "--dump-dom", page.as_uri() + query,
    ]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "<body" in done.stdout, done.stderr[-2000:]
    dom = _Dom()
    dom.feed(done.stdout)
    assert dom.step is not None, "the page's script did not run"
    return dom


def _page(tmp: Path, inst: Instance, moves: list[dict], name: str) -> Path:
    path = tmp / f"{name}.html"
    path.write_text(page_html(inst, moves), encoding="ascii")
    return path


@pytest.fixture(scope="module")
def black_hole(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Instance, list[dict]]:
    inst = deal("black-hole", 2, "pysol")
    moves = [dict(m) for m in solve(inst, "dfs").solution]
    return _page(tmp_path_factory.mktemp("bh"), inst, moves, "bh"), inst, moves


def _cards(piles: list[list[tuple[str, set[str]]]]) -> list[list[str]]:
    return [[c for c, _ in p] for p in piles]


def test_step_5_shows_the_cards_after_five_moves(browser: str, black_hole, tmp_path: Path) -> None:
    page, inst, moves = black_hole
    dom = load(browser, page, "?step=5", tmp_path)
    assert dom.step == 5 and dom.text["counter"] == f"move 5 of {len(moves)}"
    assert dom.text["move"] == move_text(moves[4])  # "2S tableau 2 -> foundation 1": the fifth move
    assert dom.text["title"] == "black-hole (pysol #2)"
    # The hole shows its top card (the fifth move's) and holds the Ace and the five cards played.
    (hole,) = dom.areas["foundations"]
    assert [c for c, _ in hole] == [moves[4]["card"]] and dom.counts["foundations"] == ["6 cards"]
    assert "moved" in hole[0][1]
    # The tableau: the deal's piles less the cards the five moves took, worked out from the JSON alone.
    piles = [[inst.deck.text(c) for c in p] for p in inst.layout.tableau]
    for m in moves[:5]:
        assert piles[int(m["from"].split(":")[1])].pop() == m["card"]
    assert _cards(dom.areas["tableau"]) == piles
    for pile in dom.areas["tableau"]:
        for card, cls in pile:  # unicode suits drawn red or black by suit
            assert ("red" in cls) == (card[-1] in RED) and ("black" in cls) != ("red" in cls)


def test_hash_keys_and_buttons_step_through_the_page(browser: str, black_hole, tmp_path: Path) -> None:
    page, _, moves = black_hole
    n = len(moves)
    cases = [
        ("#7", 7),
        ("?step=3&keys=" + quote("→→←→"), 5),
        ("?step=999&keys=" + quote("←↘←"), n - 1),  # clamped to the end; End
        ("?step=10&keys=" + quote("↖→→") + "&click=prev,last,next#2", n),  # Home; ?step wins over #2
    ]
    for query, step in cases:
        dom = load(browser, page, query, tmp_path)
        assert dom.step == step, query
        want = f"move {step} of {n}" if step else f"the deal ({n} moves)"
        assert dom.text["counter"] == want, query
        assert dom.text.get("move", "") == (move_text(moves[step - 1]) if step else ""), query


def test_freecell_page_draws_cells_foundations_and_numbers_from_one(browser: str, tmp_path: Path) -> None:
    inst = load_instance(ROOT / "instances" / "freecell" / "ms-617.json")
    moves = [dict(m) for m in solve(inst, "planning").solution]
    page = _page(tmp_path, inst, moves, "fc")
    k = next(i for i, m in enumerate(moves, 1) if m["to"].startswith("cell") and i > 10)
    dom = load(browser, page, f"?step={k}", tmp_path)
    pos = positions(inst, moves)[k].layout
    text = inst.deck.text
    assert _cards(dom.areas["tableau"]) == [[text(c) for c in p] for p in pos.tableau]
    assert _cards(dom.areas["cells"]) == [[] if c is None else [text(c)] for c in pos.cells]
    assert _cards(dom.areas["foundations"]) == [[text(p[-1])] if p else [] for p in pos.foundations]
    # "tableau 3 -> cell 2" names the piles as the page numbers them (from 1)
    src, dst = re.fullmatch(r"\S+ tableau (\d+) -> cell (\d+)", dom.text["move"]).groups()
    assert dom.areas["cells"][int(dst) - 1][0][0] == moves[k - 1]["card"]
    before = positions(inst, moves)[k - 1].layout.tableau[int(src) - 1]
    assert text(before[-1]) == moves[k - 1]["card"]


def test_stock_waste_and_grid_pages(browser: str, tmp_path: Path) -> None:
    golf = deal("golf-thoughtful", 2)
    moves = [dict(m) for m in solve(golf, "dfs").solution]
    k = next(i for i, m in enumerate(moves, 1) if m["from"] == "stock")
    dom = load(browser, _page(tmp_path, golf, moves, "golf"), f"?step={k}", tmp_path)
    pos = positions(golf, moves)[k].layout
    assert _cards(dom.areas["stock"]) == [[golf.deck.text(c) for c in pos.stock]]
    assert dom.counts["stock"] == [f"{len(pos.stock)} cards"]
    gaps = load_instance(ROOT / "tests" / "data" / "matrix" / "gaps-basic-variant-won.json")
    moves = [dict(m) for m in solve(gaps, "auto").solution]
    dom = load(browser, _page(tmp_path, gaps, moves, "gaps"), "?step=3", tmp_path)
    grid = positions(gaps, moves)[3].layout.grid
    assert _cards(dom.areas["grid"]) == [[gaps.deck.text(c) for c in row if c is not None] for row in grid]


def test_page_is_self_contained_ascii_and_escapes_its_data(black_hole) -> None:
    page, *_ = black_hole
    html = page.read_text(encoding="ascii")
    assert not re.search(r"""(?:src|href)\s*=|https?:|<link|@import|fetch\(|XMLHttpRequest""", html)
    data = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)[1]
    assert json.loads(data)["moves"][0][0].startswith("KH tableau 13")


def test_view_command_writes_the_page_and_refuses_bad_input(black_hole, tmp_path: Path) -> None:
    _, inst, moves = black_hole
    (tmp_path / "i.json").write_text(inst.dumps())
    (tmp_path / "s.json").write_text(json.dumps(solution_json(inst, moves)))
    runner = CliRunner()
    i, s, o, x = (str(tmp_path / f) for f in ("i.json", "s.json", "o.json", "x.html"))
    r = runner.invoke(main, ["view", i, s, "-o", str(tmp_path / "p.html")])
    assert r.exit_code == 0 and "51 moves; the solution wins the deal" in r.stdout
    assert (tmp_path / "p.html").read_text() == page_html(inst, moves)
    other = deal("black-hole", 3, "pysol")
    (tmp_path / "o.json").write_text(other.dumps())
    nope = str(tmp_path / "nope.json")
    bad = [([o, s, "-o", x], "instance"), ([i, s], "--output"), ([i, nope, "-o", x], "nope.json")]
    for args, message in bad:
        r = runner.invoke(main, ["view", *args])
        assert r.exit_code == 2 and r.stderr.count("\n") == 1 and message in r.stderr, r.stderr
    assert not (tmp_path / "x.html").exists()
