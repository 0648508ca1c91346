"""Formats: every importer inverts its exporter (same sha256), and malformed text names its line."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from patience.deals import deal
from patience.formats import (
    from_board_text,
    from_fcsolve,
    from_solvitaire,
    to_board_text,
    to_fcsolve,
    to_solvitaire,
    to_text,
)
from patience.instance import Instance, InstanceError
from patience.rules import list_games

ROOT = Path(__file__).resolve().parents[1]
SOLVITAIRE = ROOT / ".peers" / "solvitaire" / "bin" / "solvitaire"
BHS = ROOT / ".peers" / "bhs" / "black-hole-solve"
GAMES = [g.name for g in list_games()]


def _board_games() -> list[str]:
    """Games whose layouts board text can hold (no Gaps grid, reserve or waste)."""
    out = []
    for game in GAMES:
        lay = deal(game, 1).layout
        if not (lay.grid or lay.reserve or lay.waste):
            out.append(game)
    return out


@pytest.mark.parametrize("game", _board_games())
def test_board_text_round_trip(game: str) -> None:
    """instance -> PySol board text -> instance keeps the deal (and its sha256)."""
    for seed in (1, 2):
        inst = deal(game, seed)
        assert from_board_text(to_board_text(inst), game).sha256 == inst.sha256


@pytest.mark.parametrize("game", ["freecell", "bakers-game", "eight-off", "seahaven-towers", "fore-cell",
                                  "beleaguered-castle", "streets-and-alleys"])
def test_fcsolve_round_trip(game: str) -> None:
    """instance -> fc-solve text -> instance, foundations and free cells included."""
    if game not in GAMES:
        pytest.skip(f"{game} not in models/")
    for gen, seed in (("portable", 3), ("pysol", 3)):
        try:
            inst = deal(game, seed, gen)
        except ValueError:
            continue
        text = to_fcsolve(inst)
        assert from_fcsolve(text, game).sha256 == inst.sha256
        assert from_board_text(text, game).sha256 == inst.sha256  # the readers share one parser


def test_fcsolve_prefixes_and_headers() -> None:
    """fc-solve's ': ' prefixes, Foundations/Freecells headers and blank lines are accepted."""
    inst = deal("freecell", 1, "ms")
    text = to_fcsolve(inst)
    decorated = "\nFoundations: H-0 C-0 D-0 S-0\nFreecells: - - - -\n" + "".join(
        ": " + line + "\n" for line in text.splitlines()
    ) + "\n\n"
    assert from_fcsolve(decorated).sha256 == inst.sha256
    castle = deal("beleaguered-castle", 1, "pysol")
    assert to_fcsolve(castle).startswith("Foundations: H-A C-A D-A S-A\n")


@pytest.mark.parametrize("game", GAMES)
def test_solvitaire_round_trip(game: str) -> None:
    """instance -> Solvitaire JSON (through json text) -> instance."""
    for seed in (1, 2):
        inst = deal(game, seed)
        f = inst.rules.foundations
        if not inst.deck.standard or (f.kind == "hole" and f.count > 1):
            with pytest.raises(InstanceError, match="standard|one hole"):
                to_solvitaire(inst)  # Solvitaire has one hole at most (no Binary Star)
            continue
        data = json.loads(json.dumps(to_solvitaire(inst)))
        assert from_solvitaire(data, game).sha256 == inst.sha256


def test_solvitaire_deal_only_shape() -> None:
    """The reader takes --deal-only's nested lists, '' for empty piles and 'AS' for a Gaps gap."""
    inst = deal("eight-off", 1, "pysol")
    data = to_solvitaire(inst)
    data["cells"] = [[c] if c else "" for c in data["cells"]]
    data["foundations"] = ["", "", "", ""]
    assert from_solvitaire(data, "eight-off").sha256 == inst.sha256
    gaps = deal("gaps-basic-variant", 4, "solvitaire")
    data = to_solvitaire(gaps)
    data["sequences"] = [["AS" if c == "" else c for c in row] for row in data["sequences"]]
    assert from_solvitaire(data, "gaps-basic-variant").sha256 == gaps.sha256


def test_instance_json_round_trip() -> None:
    """The instance JSON itself round-trips for every game (with the text formats in between)."""
    for game in GAMES:
        inst = deal(game, 5)
        again = Instance.from_json(json.loads(inst.dumps()))
        assert again.sha256 == inst.sha256 and again.source == inst.source


def test_to_text() -> None:
    """The human layout names the game, its areas and one line per pile."""
    text = to_text(deal("black-hole", 1, "pysol"))
    assert text.startswith("black-hole (pysol #1)")
    assert "Hole: [AS]" in text and "   1: JD KS TH" in text
    gaps = to_text(deal("gaps", 1))
    assert "Grid" in gaps and gaps.count("--") >= 4
    big = to_text(deal("freecell", 1, overrides={"suits": 6, "ranks": 20}))
    assert "suits=6" in big and ":" in big.splitlines()[-1]


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("Foundations: AS\nJD KS XX\n", "line 2, col 7: bad card 'XX'"),
        ("Foundations: ZZ\n", "line 1, col 14: bad card"),
        ("Banana: 1\n", "line 1, col 1: unknown header"),
        ("Foundations: AS\nFoundations: AS\n", "line 2: second Foundations"),
        ("Foundations: AS\nJD KS\n", "layout.tableau: 1 pile,"),
        ("Foundations: AS\n" + "AS 2S 3S\n" * 17, "duplicate card"),
    ],
)
def test_board_text_errors(text: str, match: str) -> None:
    """Malformed board text raises InstanceError naming the line and column."""
    with pytest.raises(InstanceError, match=match):
        from_board_text(text, "black-hole")


def test_huge_token_error_is_short() -> None:
    """A megabyte-long word is quoted cut short with its length, so the error stays one readable line."""
    text = "KS " + "A" * 1_000_000 + "\n"
    with pytest.raises(InstanceError) as info:
        from_board_text(text, "black-hole")
    msg = str(info.value)
    assert "line 1, col 4: bad card 'AAAA" in msg and "(1000000 characters)" in msg
    assert len(msg) < 300


def test_fcsolve_and_solvitaire_errors() -> None:
    """fc-solve text and Solvitaire JSON errors name their position too."""
    with pytest.raises(InstanceError, match="line 3, col 6"):
        from_fcsolve("JD KD\n2D KC\n: 9H 1X\n")
    with pytest.raises(InstanceError, match="bad foundation 'Q-H'"):
        from_fcsolve("Foundations: Q-H\n")
    with pytest.raises(InstanceError, match=r"tableau piles\[0\]\[1\]"):
        from_solvitaire({"tableau piles": [["KS", "ZZ"]]}, "black-hole")
    with pytest.raises(InstanceError, match="face-down"):
        from_solvitaire({"tableau piles": [["##"]]}, "klondike")
    with pytest.raises(InstanceError, match="unknown key"):
        from_solvitaire({"accordion": []}, "black-hole")


@pytest.mark.skipif(not BHS.exists(), reason="black-hole-solver not built (benchmarks/peers.sh)")
def test_black_hole_solver_reads_our_board() -> None:
    """black-hole-solver reads our board text: PySol Black Hole #1 is unsolvable, #2 solvable in 51 moves."""
    verdicts = []
    for seed in (1, 2):
        board = to_board_text(deal("black-hole", seed, "pysol"))
        out = subprocess.run([str(BHS), "--game", "black_hole", "-"], input=board, capture_output=True,
                             text=True, timeout=60).stdout
        verdicts.append(out.splitlines()[0])
        if seed == 2:
            assert out.count("to the foundations") == 51
    assert verdicts == ["Unsolved!", "Solved!"]


@pytest.mark.skipif(shutil.which("fc-solve") is None, reason="fc-solve not installed")
def test_fc_solve_reads_our_board() -> None:
    """fc-solve accepts our FreeCell text, free cells and foundations included."""
    for inst in (deal("freecell", 1, "ms"), deal("freecell", 5)):
        out = subprocess.run(["fc-solve", "-l", "lg", "-"], input=to_fcsolve(inst), capture_output=True,
                             text=True, timeout=60, env={"FREECELL_SOLVER_QUIET": "1"}).stdout
        assert "This game is solveable." in out


@pytest.mark.skipif(not SOLVITAIRE.exists(), reason="Solvitaire not built (benchmarks/peers.sh)")
def test_solvitaire_reads_our_json(tmp_path: Path) -> None:
    """Solvitaire's --classify reads our JSON and agrees it is its own --random 1 deal (solved)."""
    path = tmp_path / "bh.json"
    path.write_text(json.dumps(to_solvitaire(deal("black-hole", 1, "solvitaire"))))
    out = subprocess.run([str(SOLVITAIRE), "--type", "black-hole", "--classify", str(path),
                          "--timeout", "20000"], capture_output=True, text=True, timeout=60).stdout
    assert out.strip().endswith("solved")
