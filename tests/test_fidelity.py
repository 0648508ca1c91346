"""Rule fidelity: our models against Solvitaire (deals and rules) and the published figures' documentation.

* Every model with a ``solvitaire_name`` deals, with ``-g solvitaire``, the puzzle Solvitaire solves for that
  seed: its ``--deal-only`` JSON equals ``to_solvitaire`` of our deal, and the first state Solvitaire prints
  when it solves the seed (its original pile order) equals our layout where pile order matters.
* Every such model's rules equal what its Solvitaire preset means, field by field (:func:`expected_rules`
  maps Solvitaire's rule language onto ours), unless ``solvitaire_differs`` names each differing field.
* Every model with a published win rate says whose rules it follows and has a row in docs/rule-fidelity.md.

The Solvitaire tests skip when the peer is not built (``bash benchmarks/peers.sh``).
"""

from __future__ import annotations

import json
import re
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest

from patience.deals import deal
from patience.formats import to_solvitaire
from patience.rules import GameFile, RuleSet, list_games, load_game

ROOT = Path(__file__).resolve().parents[1]
SOLVITAIRE = ROOT / ".peers" / "solvitaire" / "bin" / "solvitaire"
DOC = ROOT / "docs" / "rule-fidelity.md"
SEEDS = range(1, 6)
GAMES = list_games()
SV_GAMES = [g.name for g in GAMES if g.solvitaire_name]
needs_solvitaire = pytest.mark.skipif(
    not SOLVITAIRE.exists(), reason="Solvitaire not built (benchmarks/peers.sh)"
)


def _run(*args: str, timeout: float = 60) -> str:
    """Solvitaire's stdout for ``args``."""
    return subprocess.run([str(SOLVITAIRE), *args], capture_output=True, text=True, timeout=timeout).stdout


# Deals ---------------------------------------------------------------------------------------------
def _cards(value: Any) -> list[str]:
    """Flatten Solvitaire's card / list / '' (empty pile) values into a list of cards."""
    if value in ("", None):
        return []
    if isinstance(value, str):
        return [value]
    return [c for v in value for c in _cards(v)]


def _fits(theirs: list[str], ours: list[str]) -> bool:
    """Same cards in the same order; Solvitaire's ``##`` (a face-down card) stands for any card."""
    return len(theirs) == len(ours) and all(t in ("##", o) for t, o in zip(theirs, ours, strict=True))


def _same_piles(theirs: list[list[str]], ours: list[list[str]], ordered: bool) -> bool:
    """Pile lists equal in order, or as a multiset (Solvitaire lists piles in its own sorted order)."""
    if ordered:
        return len(theirs) == len(ours) and all(_fits(t, o) for t, o in zip(theirs, ours, strict=True))
    left = list(ours)
    for pile in theirs:
        match = next((o for o in left if _fits(pile, o)), None)
        if match is None:
            return False
        left.remove(match)
    return not left


def deal_only_difference(theirs: dict[str, Any], ours: dict[str, Any], stacked_reserve: bool) -> list[str]:
    """Keys where Solvitaire's ``--deal-only`` JSON is not our deal in Solvitaire's JSON.

    Compared exactly, except: tableau piles (and single-card reserve piles) as multisets, since Solvitaire
    prints them in its canonical sorted order; foundation and cell cards as multisets, since it nests them
    one list per pile and prints empty ones as ``""``; ``##`` matches any card; a Gaps gap is ``AS`` there.
    """
    bad = []
    for key in sorted(set(theirs) | set(ours)):
        a, b = ours.get(key), theirs.get(key)
        if key == "sequences":
            same = [["" if c == "AS" else c for c in row] for row in b or []] == a
        elif key == "tableau piles":
            same = _same_piles([_cards(p) for p in b or []], [_cards(p) for p in a or []], ordered=False)
        elif key in ("foundations", "cells") or (key == "reserve" and not stacked_reserve):
            same = sorted(_cards(b)) == sorted(_cards(a))
        else:  # stock, waste, hole and a stacked reserve: one pile, bottom to top
            same = _cards(b) == _cards(a)
        if not same:
            bad.append(f"{key}: ours {json.dumps(a)[:150]} vs Solvitaire {json.dumps(b)[:150]}")
    return bad


def first_state(text: str) -> dict[str, list[list[str]]]:
    """The first state Solvitaire prints when solving (``Deal:`` or ``Solution:``), section by section.

    Its tableau, cells and reserve are printed in their original order (state_printer.cpp), one row per
    depth, bottom card first, columns separated by tabs, ``[]`` for an empty pile; Gaps rows one per line.
    """
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln in ("Deal:", "Solution:"))
    sections: dict[str, list[str]] = {}
    name = ""
    for ln in lines[start + 1 :]:
        if ln.startswith("====="):
            break
        m = re.match(r"--- (.+?) -+$", ln)
        if m:
            name = m.group(1)
            sections[name] = []
        elif name:
            sections[name].append(ln)
    out: dict[str, list[list[str]]] = {}
    for name, rows in sections.items():
        if name == "Sequences":
            out[name] = [["" if t == "__" else t for t in r.split()] for r in rows if r.strip()]
            continue
        width = max((len(r.split("\t")) for r in rows), default=0)
        piles: list[list[str]] = [[] for _ in range(width)]
        for r in rows:
            for j, tok in enumerate(r.split("\t")):
                if tok not in ("", "[]"):
                    piles[j].append(tok)
        out[name] = piles
    return out


@needs_solvitaire
@pytest.mark.parametrize("game", SV_GAMES)
def test_solvitaire_deal_is_the_puzzle(game: str) -> None:
    """``-g solvitaire`` seeds 1..5 are Solvitaire's ``--random`` puzzles, suits and pile order included."""
    g = load_game(game)
    rules = g.rules
    for seed in SEEDS:
        inst = deal(game, seed, "solvitaire")
        ours = to_solvitaire(inst)
        theirs = json.loads(_run("--type", g.file.solvitaire_name, "--random", str(seed), "--deal-only"))
        assert deal_only_difference(theirs, ours, rules.reserve.stacked) == [], (game, seed)
        # The state Solvitaire starts its search from, piles in their original order.
        shown = first_state(_run("--type", g.file.solvitaire_name, "--random", str(seed), "--timeout", "1"))
        lay = inst.layout
        if rules.gaps.rows:
            assert shown["Sequences"] == ours["sequences"], (game, seed)
            continue
        if rules.row.distances:  # Accordion: one row, left to right, in order (its line ends in a tab)
            row = [p for p in shown["Accordion"] if p]
            assert row == [_cards(p) for p in ours["accordion"]], (game, seed)
            continue
        # Pile order is part of the puzzle only while a stock deals onto the tableau (card k to pile k).
        ordered = rules.stock.deal_to == "tableau" and rules.stock.size > 0
        piles = [_cards(p) for p in ours.get("tableau piles", [])]
        assert _same_piles(shown["Tableau Piles"], piles, ordered), (game, seed)
        stock_key = next((k for k in shown if k.startswith("Stock")), None)
        if rules.stock.size:
            assert stock_key and shown[stock_key][0] == _cards(ours["stock"]), (game, seed)
            assert len(shown[stock_key]) == 1 or shown[stock_key][1] == [], (game, seed)  # empty waste
        if rules.reserve.size:
            res = next(v for k, v in shown.items() if k.startswith("Reserve"))
            if rules.reserve.stacked:
                assert res == [_cards(ours["reserve"])], (game, seed)
            else:
                assert sorted(_cards(res)) == sorted(_cards(ours["reserve"])), (game, seed)
        if rules.foundations.kind == "hole":
            assert shown["Hole Card"] == [[ours["hole"]]], (game, seed)
        elif "Foundations" in shown:
            tops = [_sv(inst, p[-1]) for p in lay.foundations if p]
            assert sorted(_cards(shown["Foundations"])) == sorted(tops), (game, seed)
        if rules.cells.count:
            assert sorted(_cards(shown["Cells"])) == sorted(_cards(ours.get("cells", []))), (game, seed)


def _sv(inst: Any, card: Any) -> str:
    """One of our cards as Solvitaire writes it (``10H`` for a ten)."""
    return inst.deck.text(card).replace("T", "10")


# Rules -----------------------------------------------------------------------------------------------
@cache
def preset(name: str) -> dict[str, Any]:
    """Solvitaire's rules for a preset with its defaults filled in (``--describe-game-rules``)."""

    def describe(n: str) -> dict[str, Any]:
        out = _run("--describe-game-rules", n)
        return json.loads(out[out.index("{") : out.rindex("}") + 1])

    merged = describe("default")
    for key, value in describe(name).items():
        merged[key] = {**merged[key], **value} if isinstance(value, dict) else value
    return merged


_BUILD = {
    "any-suit": "any-suit", "red-black": "alternate-colour", "same-suit": "same-suit", "no-build": "none"
}
_SPACES = {
    "any": "any",
    "no-build": "none",
    "kings": "kings",
    "auto-reserve-then-any": "reserve-first",
    "auto-reserve-then-waste": "reserve-then-waste",
    "auto-waste-then-stock": "waste-then-stock",
}
_ROW_MATCH = {  # accordion build policies
    "same-suit": "same-suit", "same-rank": "same-rank", "red-black": "alternate-colour", "any-suit": "any"
}
_NO_NAME = "the engine has no such rule"


def expected_rules(sv: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """Our rule values (dotted paths) that a Solvitaire rule-set means, and the features we cannot express.

    Follows what Solvitaire 0.10.1's code does, not only what its JSON says: its parser reads the key
    ``complete piles``, so the presets' ``only complete pile moves`` is ignored (single cards go to the
    foundations); with a random foundation base it ranks tableau cards relative to the base
    (``foundation_base_convert``), so building wraps King on Ace but nothing goes on a base-rank card;
    ``partial-if-card-above-buildable`` is Blake & Gent's Appendix C dominance, equal to free group moves
    under their Theorem 1 (one deck, alternate colours, suit foundations, no free cells).
    """
    tp, f, hole, st = sv["tableau piles"], sv["foundations"], sv["hole"], sv["stock"]
    exp: dict[str, Any] = {
        "deck.suits": 4,
        "deck.ranks": sv["max rank"],
        "deck.decks": 2 if sv["two decks"] else 1,
        "thoughtful": True,  # Solvitaire sees every card
    }
    lacking: dict[str, str] = {}
    acc = sv["accordion"]
    if acc["size"]:  # Solvitaire's accordion: our row of one-card tableau piles, no foundations
        deck = 4 * sv["max rank"] * (2 if sv["two decks"] else 1)
        exp |= {"tableau.piles": acc["size"], "deck.dealt": acc["size"] if acc["size"] < deck else 0}
        exp |= {"foundations.kind": "none", "tableau.build": "none", "cells.count": 0, "stock.size": 0}
        exp["row.distances"] = [int(m[1:]) for m in acc["moves"] if m.startswith("L")]
        exp["row.match"] = [_ROW_MATCH[b] for b in acc["build policies"]]
        if any(not m.startswith("L") for m in acc["moves"]):
            lacking["row.distances"] = f"accordion moves {acc['moves']}: rightward moves, {_NO_NAME}"
        return exp, lacking
    seq = sv["sequences"]
    if seq["count"]:
        exp |= {"gaps.rows": seq["count"], "gaps.redeals": 0}
        exp["gaps.first_column"] = "fixed-suit" if seq["fixed suit"] else "any-two"
        if seq["direction"] != "L" or seq["build policy"] != "same-suit":
            lacking["gaps"] = f"sequences {seq['direction']} {seq['build policy']}: {_NO_NAME}"
        return exp, lacking
    build = _BUILD[tp["build policy"]]
    exp |= {"tableau.piles": tp["count"], "tableau.build": build, "tableau.direction": "down"}
    exp["tableau.face_up"] = "top" if tp["face up cards"] == "top" else "all"
    exp["tableau.deal"] = "not even" if tp["diagonal deal"] else "even"
    random_base = f["present"] and f["base card"] == "random"
    if build != "none":  # with no building Solvitaire makes no tableau move at all: spaces, groups moot
        sp = tp["spaces policy"]
        if sp in _SPACES:
            exp["tableau.empty"] = _SPACES[sp]
        else:
            lacking["tableau.empty"] = f"spaces policy {sp}: {_NO_NAME}"
        group, policy = tp["move built group"], tp["move built group policy"]
        theorem1 = not sv["two decks"] and build == "alternate-colour" and not sv["cells"]["count"]
        if group == "no":
            exp["tableau.group_moves"] = "none"
        elif group == "yes" and policy in ("same-as-build", tp["build policy"]):
            exp["tableau.group_moves"] = "build"
        elif group == "yes" and policy == "same-suit":
            exp["tableau.group_moves"] = "same-suit"
        elif group == "partial-if-card-above-buildable" and theorem1 and f["present"]:
            exp["tableau.group_moves"] = "build"
        elif group == "whole-pile":  # ours means the same: no card moves between piles but a whole pile
            exp["tableau.group_moves"] = "whole-pile"
        else:
            lacking["tableau.group_moves"] = f"move built group {group} ({policy}): {_NO_NAME}"
        exp["tableau.wrap"] = "base" if random_base else False  # ranks counted from the base, no wrap
    if hole["present"]:
        exp |= {"foundations.kind": "hole", "foundations.count": 1, "foundations.king_blocks": False}
        exp["foundations.wrap"] = hole["build loops"]
        if hole["base card"] == "random":
            exp |= {"foundations.start_dealt": True, "foundations.start": []}
        else:
            exp |= {"foundations.start_dealt": False, "foundations.start": [hole["base card"]]}
    elif f["present"]:
        exp["foundations.kind"] = "runs" if f.get("complete piles") else "suits"
        exp["foundations.initial"] = {"none": "none", "one": "one", "all": "aces"}[f["initial cards"]]
        exp["foundations.base"] = "dealt" if random_base else "ace"
        exp["foundations.removable"] = f["removable"]
        if random_base:
            exp["foundations.wrap"] = True
    exp |= {"cells.count": sv["cells"]["count"], "cells.prefilled": sv["cells"]["pre-filled"]}
    exp["stock.size"] = st["size"]
    if st["size"]:
        to = {"waste": "waste", "hole": "hole"}.get(st["deal type"], "tableau")
        exp["stock.deal_to"] = to
        if to == "waste":
            exp |= {"stock.deal_count": st["deal count"], "stock.redeals": -1 if st["redeal"] else 0}
    exp["reserve.size"] = sv["reserve"]["size"]
    if sv["reserve"]["size"]:
        exp["reserve.stacked"] = sv["reserve"]["stacked"]
    return exp, lacking


def rule_differences(rules: RuleSet, sv: dict[str, Any]) -> dict[str, str]:
    """Our rule paths that differ from a Solvitaire rule-set, each with what Solvitaire has there."""
    exp, lacking = expected_rules(sv)
    ours = json.loads(msgspec.json.encode(rules))  # tuples as lists
    out = dict(lacking)
    for path, want in exp.items():
        got: Any = ours
        for part in path.split("."):
            got = got[part]
        if path == "tableau.deal":
            same = (got == "even") == (want == "even")
        else:
            same = got == want
        if not same:
            out[path] = f"Solvitaire {want!r}, ours {got!r}"
    return out


@needs_solvitaire
@pytest.mark.parametrize("game", SV_GAMES)
def test_rules_match_the_solvitaire_preset(game: str) -> None:
    """Same rules as the preset, or ``solvitaire_differs`` names every differing field (and only then)."""
    gf = load_game(game).file
    diff = rule_differences(load_game(game).rules, preset(gf.solvitaire_name))
    if not diff:
        assert gf.solvitaire_differs == "", f"{game}: same rules as the preset, but solvitaire_differs is set"
        return
    assert gf.solvitaire_differs, f"{game} differs from Solvitaire's {gf.solvitaire_name!r}: {diff}"
    for path in diff:
        assert path in gf.solvitaire_differs, f"{game}: solvitaire_differs lacks {path} ({diff[path]})"


@needs_solvitaire
def test_rule_mapping_sees_known_differences() -> None:
    """The mapping itself: the documented Solvitaire facts it encodes show up where they should."""
    spider = rule_differences(load_game("spider-runs").rules, preset("spider"))
    assert "foundations.kind" in spider  # the preset's runs key is ignored by Solvitaire's parser
    assert rule_differences(load_game("spider").rules, preset("spider")) == {}
    assert set(rule_differences(load_game("golf").rules, preset("golf"))) == {"foundations.king_blocks",
                                                                              "thoughtful"}
    assert rule_differences(load_game("canfield").rules, preset("canfield")) == {}
    plain_wrap = load_game("canfield", {"tableau.wrap": True}).rules  # base-1 on base: not Solvitaire's rule
    assert set(rule_differences(plain_wrap, preset("canfield"))) == {"tableau.wrap"}
    seahaven = rule_differences(load_game("seahaven-towers").rules, preset("seahaven-towers"))
    assert "tableau.group_moves" in seahaven
    loose = load_game("freecell", {"cells": 3}).rules
    assert set(rule_differences(loose, preset("free-cell"))) == {"cells.count"}


# Published figures are documented -------------------------------------------------------------------
@cache
def _doc_rows() -> dict[str, str]:
    """Rows of the table in docs/rule-fidelity.md, by the model name in their first cell."""
    rows = {}
    for line in DOC.read_text().splitlines():
        m = re.match(r"\|\s*`([a-z0-9-]+)`\s*\|", line)
        if m:
            rows[m.group(1)] = line
    return rows


def _documented(gf: GameFile) -> bool:
    return gf.reference.win_rate is not None or bool(gf.solvitaire_differs)


@pytest.mark.parametrize("game", [g.name for g in GAMES])
def test_published_figure_says_whose_rules(game: str) -> None:
    """A model with a published win rate (or rules that differ from its Solvitaire preset) says whose
    rules it follows and has its row in docs/rule-fidelity.md."""
    gf = load_game(game).file
    if not _documented(gf):
        return
    assert gf.variant_note.strip(), f"{game}: a published figure needs a variant_note saying whose rules"
    assert gf.reference.source.strip() or gf.reference.win_rate is None
    assert game in _doc_rows(), f"{game} has no row in {DOC.relative_to(ROOT)}"
    if gf.reference.win_rate is not None:
        figure = repr(gf.reference.win_rate).removesuffix(".0")
        assert figure in _doc_rows()[game], f"{game}: doc row lacks its figure {figure}"
    if gf.solvitaire_differs:
        assert gf.solvitaire_name, f"{game}: solvitaire_differs without a solvitaire_name"


def test_doc_rows_are_models() -> None:
    """Every row of the fidelity table names a model with a figure or a Solvitaire difference."""
    names = {g.name: g for g in GAMES}
    for name in _doc_rows():
        assert name in names, f"{DOC.name}: {name} is not a model"
        assert _documented(names[name]), f"{DOC.name}: {name} has no figure and no Solvitaire difference"
