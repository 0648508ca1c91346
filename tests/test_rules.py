"""Tests for the game rule-set files in ``models/`` and for rule validation errors."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from patience import rules  # noqa: E402
from patience.rules import RuleError, apply_overrides, canonical_overrides, list_games, load_game  # noqa: E402
from patience.shrink import shrink  # noqa: E402

MODELS = ROOT / "models"
MODEL_FILES = sorted(MODELS.glob("*.json"))
SOLVITAIRE_PRESETS = Path("/work/shared/peers/solvitaire/src/main/input-output/input/sol_preset_types.cpp")


@pytest.fixture(autouse=True)
def _fresh_caches():
    """rules.py caches loaded files and the alias index; start and end every test clean."""
    rules._load_file.cache_clear()
    rules._alias_index.cache_clear()
    yield
    rules._load_file.cache_clear()
    rules._alias_index.cache_clear()


@pytest.fixture
def models_tmp(tmp_path, monkeypatch):
    """An empty models folder that the loader uses instead of the repository's."""
    monkeypatch.setenv("PATIENCE_MODELS", str(tmp_path))
    return tmp_path


def _raw(stem: str) -> dict:
    return json.loads((MODELS / f"{stem}.json").read_text())


# --- every shipped file ---------------------------------------------------------------------


@pytest.mark.parametrize("path", MODEL_FILES, ids=[p.stem for p in MODEL_FILES])
def test_model_file_loads(path):
    game = load_game(path.stem)
    assert game.name == path.stem
    r = game.rules
    r.check(path.stem)
    sizes = r.tableau_sizes()
    deck = r.deck.dealt or r.deck.suits * r.deck.ranks * r.deck.decks  # cards in play (Accordion: dealt)
    if r.gaps.rows:
        assert r.tableau.piles == 0
        assert r.gaps.rows == r.deck.suits * r.deck.decks
    else:
        assert len(sizes) == r.tableau.piles
        assert sum(sizes) == r.tableau_cards
        assert (
            sum(sizes) + r.n_initial_foundation_cards + r.cells.prefilled + r.reserve.size + r.stock.size
            == deck
        )
    assert game.file.description.strip()


@pytest.mark.parametrize("path", MODEL_FILES, ids=[p.stem for p in MODEL_FILES])
def test_model_file_has_reference(path):
    gf = load_game(path.stem).file
    ref = gf.reference
    assert ref.source.strip(), f"{path.stem}: reference.source is empty"
    if ref.win_rate is None:
        assert ref.note.strip(), f"{path.stem}: a missing win rate needs a note"
        assert ref.interval is None
    else:
        assert 0.0 <= ref.win_rate <= 100.0
        assert re.search(r"(Blake & Gent 2019, Table \d|Wolter 2014)", ref.source)
    if ref.interval is not None:
        assert ref.interval > 0
    if ref.deals is not None:
        assert ref.deals > 0


@pytest.mark.parametrize("path", MODEL_FILES, ids=[p.stem for p in MODEL_FILES])
def test_model_file_keys_in_order_and_stem(path):
    raw = json.loads(path.read_text())
    assert raw["name"] == path.stem
    assert list(raw)[:2] in (["name", "aliases"], ["name", "description"])


def test_game_count():
    assert len(list_games()) >= 25


def test_names_unique_across_names_and_aliases():
    seen: dict[str, str] = {}
    for gf in list_games():
        for name in (gf.name, *gf.aliases):
            key = name.lower()
            assert key not in seen, f"{name!r} used by {seen.get(key)} and {gf.name}"
            seen[key] = gf.name


def test_required_games_present():
    required = """black-hole all-in-a-row worm-hole binary-star golf gaps-basic-variant gaps-one-deal
        gaps freecell bakers-game eight-off seahaven-towers fore-cell klondike klondike-thoughtful
        thirty-six streets-and-alleys beleaguered-castle king-albert canfield east-haven raglan
        somerset mrs-mop spanish-patience simple-simon spider-1-suit spiderette fan""".split()
    names = {gf.name for gf in list_games()}
    assert not set(required) - names


def test_aliases_resolve():
    assert load_game("Black_Hole").name == "black-hole"
    assert load_game("forecell").name == "fore-cell"
    assert load_game("montana").name == "gaps"


@pytest.mark.parametrize(
    ("name", "sizes", "extra"),
    [
        ("black-hole", (3,) * 17, {"found": 1}),
        ("worm-hole", (3,) * 17, {"found": 1}),
        ("all-in-a-row", (4,) * 13, {"found": 0}),
        ("binary-star", (6,) * 17, {"found": 2}),
        ("golf", (5,) * 7, {"found": 1, "stock": 16}),
        ("klondike", (1, 2, 3, 4, 5, 6, 7), {"stock": 24}),
        ("klondike-thoughtful", (1, 2, 3, 4, 5, 6, 7), {"stock": 24}),
        ("spiderette", (1, 2, 3, 4, 5, 6, 7), {"stock": 24}),
        ("spider-1-suit", (6, 6, 6, 6, 5, 5, 5, 5, 5, 5), {"stock": 50}),
        ("spider", (6, 6, 6, 6, 5, 5, 5, 5, 5, 5), {"stock": 50}),
        ("freecell", (7, 7, 7, 7, 6, 6, 6, 6), {}),
        ("eight-off", (6,) * 8, {"cells": 4}),
        ("fore-cell", (6,) * 8, {"cells": 4}),
        ("seahaven-towers", (5,) * 10, {"cells": 2}),
        ("beleaguered-castle", (6,) * 8, {"found": 4}),
        ("king-albert", tuple(range(1, 10)), {"reserve": 7}),
        ("raglan", (1, 2, 3, 4, 5, 6, 7, 7, 7), {"found": 4, "reserve": 6}),
        ("somerset", (1, 2, 3, 4, 5, 6, 7, 8, 8, 8), {}),
        ("simple-simon", (8, 8, 8, 7, 6, 5, 4, 3, 2, 1), {}),
        ("canfield", (1, 1, 1, 1), {"found": 1, "reserve": 13, "stock": 34}),
        ("east-haven", (3,) * 7, {"stock": 31}),
        ("thirty-six", (6,) * 6, {"stock": 16}),
        ("mrs-mop", (8,) * 13, {}),
        ("fan", (3,) * 16 + (2, 2), {}),
        ("thirty", (6,) * 5, {"reserve": 2}),
    ],
)
def test_tableau_sizes_match_deck(name, sizes, extra):
    r = load_game(name).rules
    assert r.tableau_sizes() == sizes
    assert r.n_initial_foundation_cards == extra.get("found", 0)
    assert r.stock.size == extra.get("stock", 0)
    assert r.reserve.size == extra.get("reserve", 0)
    assert r.cells.prefilled == extra.get("cells", 0)


def test_specific_encodings():
    spider1 = load_game("spider-1-suit").rules
    assert (spider1.deck.suits, spider1.deck.decks) == (1, 8)
    assert spider1.stock.deal_to == "tableau"
    assert spider1.foundations.kind == "runs"
    golf = load_game("golf").rules
    assert golf.foundations.start_dealt and golf.foundations.king_blocks
    assert not golf.foundations.wrap and golf.stock.deal_to == "hole"
    assert load_game("binary-star").rules.foundations.start == ("AS", "KH")
    assert load_game("all-in-a-row").rules.foundations.start == ()
    assert load_game("worm-hole").rules.cells.count == 1
    kl, klt = load_game("klondike"), load_game("klondike-thoughtful")
    assert kl.rules.stock.deal_count == 3 and kl.rules.stock.redeals == -1
    assert not kl.rules.thoughtful and klt.rules.thoughtful
    assert klt.file.reference.win_rate == 81.956
    assert load_game("klondike", {"draw": 1}).rules.stock.deal_count == 1
    cf = load_game("canfield").rules
    assert cf.foundations.base == "dealt" and cf.tableau.empty == "reserve-first"
    assert cf.reserve.stacked
    assert load_game("canfield-whole-pile").rules.tableau.group_moves == "whole-pile"
    gaps = {n: load_game(n).rules.gaps for n in ("gaps", "gaps-one-deal", "gaps-basic-variant")}
    assert gaps["gaps"].redeals == 2 and gaps["gaps-one-deal"].redeals == 0
    assert gaps["gaps-basic-variant"].first_column == "fixed-suit"


def test_figures_follow_the_rules_that_produced_them():
    """Blake & Gent's figures came from Solvitaire's code (docs/rule-fidelity.md); the usual rules where
    they differ are separate models, each saying why it differs from its preset."""
    for name in ("spider", "simple-simon", "mrs-mop", "spiderette", "will-o-the-wisp"):
        fig, usual = load_game(name), load_game(f"{name}-runs")
        assert fig.rules.foundations.kind == "suits" and fig.file.reference.win_rate is not None
        assert usual.rules.foundations.kind == "runs" and usual.file.reference.win_rate is None
        assert usual.file.solvitaire_differs and not fig.file.solvitaire_differs
    assert load_game("will-o-the-wisp").rules.tableau.face_up == "all"
    assert load_game("east-haven").rules.tableau.group_moves == "build"
    assert load_game("east-haven-single-card").rules.tableau.group_moves == "none"
    assert load_game("seahaven-towers").rules.tableau.group_moves == "build"
    assert load_game("seahaven-towers-single-card").rules.tableau.group_moves == "none"
    golf, sv_golf = load_game("golf").rules, load_game("golf-solvitaire").rules
    assert golf.foundations.king_blocks and not sv_golf.foundations.king_blocks and sv_golf.thoughtful
    for gf in list_games():
        if gf.solvitaire_differs:
            assert gf.solvitaire_name, gf.name


def test_pysol_names_are_known():
    deal_game = pytest.importorskip("pysol_cards.deal_game")
    known = deal_game.Game.GAMES_MAP
    for gf in list_games():
        if gf.pysol_name:
            assert gf.pysol_name in known, f"{gf.name}: unknown pysol game {gf.pysol_name!r}"


def test_solvitaire_names_are_presets():
    if not SOLVITAIRE_PRESETS.exists():
        pytest.skip("Solvitaire sources not available")
    presets = set(re.findall(r'^\s*\{\s*"([a-z0-9-]+)",', SOLVITAIRE_PRESETS.read_text(), re.M))
    presets |= set(re.findall(r'^\s*"([a-z0-9-]+)",\s*$', SOLVITAIRE_PRESETS.read_text(), re.M))
    assert "klondike" in presets
    for gf in list_games():
        if gf.solvitaire_name:
            assert gf.solvitaire_name in presets, f"{gf.name}: {gf.solvitaire_name!r}"


# --- bad inputs -----------------------------------------------------------------------------


def _write(folder: Path, stem: str, data: dict) -> Path:
    path = folder / f"{stem}.json"
    path.write_text(json.dumps(data))
    return path


def test_unknown_key_in_file(models_tmp):
    data = _raw("black-hole")
    data["rules"]["tableau"]["colour"] = "red"
    path = _write(models_tmp, "black-hole", data)
    with pytest.raises(RuleError) as err:
        load_game("black-hole")
    msg = str(err.value)
    assert str(path) in msg and "$.rules.tableau" in msg and "colour" in msg


def test_unknown_top_level_key_in_file(models_tmp):
    data = _raw("freecell")
    data["winrate"] = 99
    path = _write(models_tmp, "freecell", data)
    with pytest.raises(RuleError, match=re.escape(str(path))):
        list_games()


def test_unknown_enum_value_in_file(models_tmp):
    data = _raw("freecell")
    data["rules"]["tableau"]["build"] = "red-black"
    path = _write(models_tmp, "freecell", data)
    with pytest.raises(RuleError) as err:
        load_game("freecell")
    assert str(path) in str(err.value) and "$.rules.tableau.build" in str(err.value)


def test_impossible_file_names_its_path(models_tmp):
    data = _raw("black-hole")
    data["rules"]["tableau"]["piles"] = 16
    path = _write(models_tmp, "black-hole", data)
    with pytest.raises(RuleError) as err:
        load_game("black-hole")
    assert str(path) in str(err.value) and "tableau.piles" in str(err.value)


def test_unknown_enum_value_override():
    with pytest.raises(RuleError, match=r"rules.*\$\.tableau\.build"):
        load_game("freecell", {"build": "red-black"})


def test_suits_zero_override():
    with pytest.raises(RuleError, match=r"rules\.deck\.suits"):
        load_game("freecell", {"suits": 0})


def test_black_hole_piles_must_divide_deck():
    with pytest.raises(RuleError, match=r"rules\.tableau\.piles"):
        load_game("black-hole", {"piles": 16})
    assert load_game("black-hole", {"piles": 3}).rules.tableau_sizes() == (17, 17, 17)


def test_sizes_must_sum_to_cards_left():
    with pytest.raises(RuleError, match=r"rules\.tableau"):
        load_game("raglan", {"reserve": 5})


def test_unknown_game_name():
    with pytest.raises(RuleError, match="no-such-game"):
        load_game("no-such-game")


def test_unknown_parameter():
    with pytest.raises(RuleError, match=r"rules\.colour: unknown parameter"):
        load_game("freecell", {"colour": "red"})
    with pytest.raises(RuleError, match=r"rules\.tableau\.colour: unknown parameter"):
        load_game("freecell", {"tableau.colour": "red"})


# Canonical overrides: one spelling per rule-set ------------------------------------------------------
def test_spellings_of_one_override_have_one_canonical_form():
    """Short name or dotted path, JSON text or value, plus an override that changes nothing: one form."""
    base = load_game("freecell").rules
    spellings = [{"cells": "2"}, {"cells.count": 2}, {"cells": 2, "piles": 8}]
    spellings.append({"piles": "8", "cells.count": 2})
    assert [canonical_overrides(base, over) for over in spellings] == [{"cells": 2}] * 4
    assert canonical_overrides(base, {"piles": "8"}) == {}  # the model's own value: no override at all
    with pytest.raises(RuleError):  # a bad value is refused as apply_overrides refuses it
        canonical_overrides(base, {"cells.count": "2", "build": None})


def test_a_parameter_given_twice_is_an_error():
    with pytest.raises(RuleError, match=r"rules\.cells\.count: the same parameter as cells, given twice"):
        load_game("freecell", {"cells": 2, "cells.count": 3})


def test_canonical_form_keeps_short_names_values_and_sorted_order():
    """Short names where they exist, dotted paths otherwise, schema values (lists, not tuples), sorted."""
    base = load_game("fan").rules
    over = {"tableau.sizes": "[5, 7]", "tableau.deal": "sizes", "piles": 2, "ranks": 3}
    got = canonical_overrides(base, over)
    assert got == {"piles": 2, "ranks": 3, "tableau.deal": "sizes", "tableau.sizes": [5, 7]}
    assert list(got) == sorted(got)


def test_gaps_rows_that_follow_the_deck_are_left_out():
    """apply_overrides derives a Gaps game's rows from the deck, so rows=3 next to suits=3 says nothing."""
    base = load_game("gaps").rules
    for over in ({"suits": 3}, {"suits": 3, "rows": 3}, {"deck.suits": "3", "gaps.rows": "3"}):
        assert canonical_overrides(base, over) == {"suits": 3}
    assert canonical_overrides(base, {"suits": 2, "decks": 2}) == {"decks": 2, "suits": 2}  # rows stay 4


@pytest.mark.parametrize("name", [g.name for g in list_games()])
def test_canonical_overrides_make_the_same_rules(name):
    """For every game and some overrides (its shrunk deck among them): the canonical form makes the same
    rules as the overrides it came from, and is its own canonical form."""
    base = load_game(name).rules
    tries = [{"suits": 2}, {"suits": 3, "ranks": "5"}, {"decks": 2}, {"cells": 1}, {"draw": 3}]
    try:
        tries.append(shrink(base, 14, 0.75, None))
    except ValueError:
        pass
    checked = 0
    for over in tries:
        try:
            want = apply_overrides(base, over)
        except RuleError:
            continue
        canon = canonical_overrides(base, over)
        assert apply_overrides(base, canon) == want, (over, canon)
        assert canonical_overrides(base, canon) == canon
        assert load_game(name, over).overrides == canon
        checked += 1
    assert checked, f"no override of {name} was legal"
