"""Deal generators: frozen golden deals, PySol/MS boards, peer cross-checks (the mt19937 stream: test_rng)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from patience.cards import Card, Deck
from patience.deals import GENERATORS, DealError, deal
from patience.formats import to_board_text, to_fcsolve, to_solvitaire
from patience.generators import layout_from_order
from patience.rules import list_games, load_game

ROOT = Path(__file__).resolve().parents[1]
SOLVITAIRE = ROOT / ".peers" / "solvitaire" / "bin" / "solvitaire"
MS_BOARD = shutil.which("make-microsoft-freecell-board")

# Computed once with the portable generator and frozen: any change to the RNG, shuffle, deck order
# or dealing algorithm changes these, which would silently change every published portable deal.
GOLDEN = [
    ("black-hole", 1, None, "50319de7760be4f547ae3c3bbbe3b77cfa14fecc7d0f68d6905e687643057268"),
    ("black-hole", 2, None, "d568180fcca5252a8cb7c80eab35dc0b42441110ad97ae175245356decaac37a"),
    ("freecell", 1, None, "8f6e66b784c476771e399a06e2f33e77ef5483e7dd63d4a70ee298a2c0200110"),
    ("freecell", 42, None, "997327409d1e144f778c6b4329815bfec7b2dec4f1325f66bc4837397ab1c3ee"),
    ("klondike", 7, None, "d46ea4def013e54731274096429b7680c878730f8e00a44cb03c333825818ded"),
    ("gaps-basic-variant", 3, None, "f8a13a27b4c327da264f695749c7886f2d3a3cd9a53698fd24ea3c0dc7ef2376"),
    ("canfield", 5, None, "91384041d1becfcf08e80f56e83679bf92c3c98cd773567118b72dedd6802934"),
    ("binary-star", 1, None, "c4f2fe6044483b901c119fbdf218681c7feb3761905799e4720365bb6ba6b547"),
    (
        "freecell", 1, {"suits": 6, "ranks": 20},
        "fb2edbd830464975e9288d95d3ac8e14960331b9ce1f1be498cd6b3857420dad",
    ),
    (
        "black-hole", 9, {"suits": 2, "ranks": 5, "piles": 3},
        "cfaf388909a521089242ee445c8bdfad956e4b80db31fdacfb6cece43c86edd4",
    ),
]

PYSOL_BLACK_HOLE_1 = """Foundations: AS
JD KS TH
2D 9D 8H
9H QD 2C
JC JS JH
5D AH 7D
7H 3C 6D
7C 4C 8S
5H 5C 8D
KD TS QS
KC QH 6C
9S 4H 3D
5S AC 8C
AD 4D TC
QC 7S 6S
KH 3S 9C
3H TD 2H
2S 4S 6H
"""


# Portable deals -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "seed", "overrides", "digest"), GOLDEN)
def test_portable_golden(game: str, seed: int, overrides: dict[str, Any] | None, digest: str) -> None:
    """Portable deals are frozen: the same game and seed give the same deal everywhere, forever."""
    assert deal(game, seed, overrides=overrides).sha256 == digest


def test_same_seed_same_deal_different_seeds_differ() -> None:
    """Determinism, and seeds actually matter."""
    assert deal("freecell", 7).sha256 == deal("freecell", 7).sha256
    assert len({deal("black-hole", s).sha256 for s in range(1, 21)}) == 20


@pytest.mark.parametrize("game", [g.name for g in list_games()])
def test_every_game_deals(game: str) -> None:
    """Every model in models/ deals valid instances with the portable generator."""
    for seed in range(1, 6):
        inst = deal(game, seed)
        inst.check()
        assert inst.source == {"generator": "portable", "seed": seed}


def test_generalized_decks() -> None:
    """Overridden decks deal every card of the bigger or smaller deck."""
    fc = deal("freecell", 3, overrides={"suits": 6, "ranks": 20})
    assert sum(map(len, fc.layout.tableau)) == 120 and len(fc.layout.tableau) == 8
    bh = deal("black-hole", 3, overrides={"suits": 2, "ranks": 5, "piles": 3})
    assert [len(p) for p in bh.layout.tableau] == [3, 3, 3] and len(bh.layout.foundations[0]) == 1
    for gen in ("pysol", "ms", "solvitaire"):
        with pytest.raises(DealError, match="portable"):
            deal("freecell", 3, gen, overrides={"suits": 6, "ranks": 20})


def test_layout_from_order_documented_steps() -> None:
    """Aces out first, then cells/reserve/stock from the front, then round robin or pile by pile."""
    rules = load_game("beleaguered-castle").rules
    cards = Deck().cards()  # AC..KC, AD..KD, ...
    lay = layout_from_order(rules, cards)
    assert [p[0].rank for p in lay.foundations] == [1, 1, 1, 1]
    assert lay.tableau[0][:2] == (Card(2, 0), Card(10, 0))  # t=0 and t=8 of the ace-less sequence
    gaps = layout_from_order(load_game("gaps").rules, cards)
    assert gaps.grid[0][0] is None and gaps.grid[1][0] == Card(2, 0)
    klon = layout_from_order(load_game("klondike").rules, cards)
    assert klon.stock[0] == Card(1, 0) and klon.tableau[:2] == ((Card(12, 1),), (Card(13, 1), Card(1, 2)))


# PySol and Microsoft deals ------------------------------------------------------------------------
def test_pysol_black_hole_1() -> None:
    """PySol Black Hole game 1, as PySol and black-hole-solver number it."""
    assert to_board_text(deal("black-hole", 1, "pysol")) == PYSOL_BLACK_HOLE_1


def test_pysol_games() -> None:
    """Every game with a pysol_name deals, or says why PySol's board does not fit our rules."""
    for gf in list_games():
        if not gf.pysol_name:
            continue
        try:
            inst = deal(gf.name, 5, "pysol")
        except DealError as err:
            assert "does not fit" in str(err)  # e.g. Fan: PySol deals 17 fans of 3 and one of 1
            continue
        inst.check()
    assert deal("all-in-a-row", 1, "pysol").layout.foundations == ((),)
    golf = deal("golf", 1, "pysol")
    assert len(golf.layout.stock) == 16 and len(golf.layout.foundations[0]) == 1
    assert deal("eight-off", 1, "pysol").layout.cells[1::2] == (None,) * 4


def test_ms_freecell_1() -> None:
    """Microsoft FreeCell deal 1 starts with JD KD 2S 4C 3S 6D 6S."""
    inst = deal("freecell", 1, "ms")
    assert to_fcsolve(inst).splitlines()[0] == "JD KD 2S 4C 3S 6D 6S"
    assert deal("bakers-game", 1, "ms").layout.tableau == inst.layout.tableau
    assert deal("freecell", 1, "pysol").layout.tableau == inst.layout.tableau  # numbers <= 32000


def test_errors() -> None:
    """Unknown generator, a game a generator does not know, and bad seeds raise DealError."""
    with pytest.raises(DealError, match="unknown generator"):
        deal("freecell", 1, "nope")
    with pytest.raises(DealError, match="unknown game"):
        deal("no-such-game", 1)
    with pytest.raises(DealError, match="8 even piles"):
        deal("black-hole", 1, "ms")
    with pytest.raises(DealError, match="pysol_name"):
        deal("thirty-six", 1, "pysol")
    with pytest.raises(DealError, match="solvitaire_name"):
        deal("gaps", 1, "solvitaire")
    for seed in (-1, 2**32, "7", 1.5, True):
        with pytest.raises(DealError, match="seed"):
            deal("black-hole", seed)  # type: ignore[arg-type]
    with pytest.raises(DealError, match="seed"):
        deal("freecell", 0, "ms")
    with pytest.raises(DealError, match="seed"):
        deal("freecell", 2**33, "ms")
    assert set(GENERATORS) == {"portable", "pysol", "ms", "solvitaire"}


# Cross-checks against the peers (skipped when they are not built: benchmarks/peers.sh) -------------
@pytest.mark.skipif(MS_BOARD is None, reason="make-microsoft-freecell-board not installed")
def test_ms_deals_match_fc_solve() -> None:
    """MS deals 1..1000 (and a few above 2^31) equal fc-solve's make-microsoft-freecell-board."""
    seeds = [*range(1, 1001), 11982, 2**31 + 5, 2**33 - 1]
    for seed in seeds:
        theirs = subprocess.run(
            [MS_BOARD, "-t", str(seed)], capture_output=True, text=True, check=True
        ).stdout
        assert to_fcsolve(deal("freecell", seed, "ms")) == theirs, seed


def _flat(v: Any) -> list[str]:
    """Solvitaire's --deal-only nests cells/foundations as lists and writes empty piles as ''."""
    if v == "" or v is None:
        return []
    if isinstance(v, str):
        return [v]
    return [x for e in v for x in _flat(e)]


def _same_pile(theirs: list[str], ours: list[str]) -> bool:
    """Equal piles, where Solvitaire's '##' (face down) matches any card."""
    return len(theirs) == len(ours) and all(a in (b, "##") for a, b in zip(theirs, ours, strict=True))


def _agree(theirs: dict[str, Any], ours: dict[str, Any], stacked_reserve: bool) -> str:
    """'' when Solvitaire's --deal-only JSON is our deal; it lists tableau piles in its own order."""
    for key in ("foundations", "cells"):
        if sorted(_flat(theirs.get(key))) != sorted(_flat(ours.get(key))):
            return key
    for key in ("stock", "waste", "hole"):
        if _flat(theirs.get(key)) != _flat(ours.get(key)):
            return key
    t_res, o_res = _flat(theirs.get("reserve")), _flat(ours.get("reserve"))
    if not stacked_reserve:  # single-card reserve piles are sorted like the tableau
        t_res, o_res = sorted(t_res), sorted(o_res)
    if t_res != o_res:
        return "reserve"
    if "sequences" in theirs or "sequences" in ours:
        rows = [["" if c == "AS" else c for c in row] for row in theirs.get("sequences", [])]
        if rows != ours.get("sequences"):
            return "sequences"
    left = [list(p) for p in ours.get("tableau piles", [])]
    for pile in theirs.get("tableau piles", []):
        match = next((q for q in left if _same_pile(_flat(pile), q)), None)
        if match is None:
            return f"tableau pile {_flat(pile)}"
        left.remove(match)
    return "extra tableau piles" if left else ""


@pytest.mark.skipif(not SOLVITAIRE.exists(), reason="Solvitaire not built (benchmarks/peers.sh)")
@pytest.mark.parametrize("game", [g.name for g in list_games() if g.solvitaire_name])
def test_solvitaire_deals_match(game: str) -> None:
    """Our solvitaire generator gives Solvitaire's own --random deals, seeds 1..20."""
    g = load_game(game)
    for seed in range(1, 21):
        out = subprocess.run(
            [str(SOLVITAIRE), "--type", g.file.solvitaire_name, "--random", str(seed), "--deal-only"],
            capture_output=True, text=True, check=True,
        ).stdout
        ours = to_solvitaire(deal(game, seed, "solvitaire"))
        assert _agree(json.loads(out), ours, g.rules.reserve.stacked) == "", (game, seed)


def test_sample_instances_regenerate() -> None:
    """Files in instances/ load, and those made by a generator are exactly its deal (make_samples.py)."""
    from patience.instance import load_instance

    paths = sorted((ROOT / "instances").rglob("*.json"))
    assert any(p.name == "ms-11982.json" for p in paths)
    for path in paths:
        inst = load_instance(path)
        src = inst.source or {}
        if src.get("generator") in GENERATORS and isinstance(src.get("seed"), int):
            again = deal(inst.game, src["seed"], src["generator"], inst.overrides)
            assert again.sha256 == inst.sha256, path
