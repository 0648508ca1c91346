"""The generator registry: deals pinned card for card, what each generator deals, and one canonical form
of rule overrides (either spelling deals one instance)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from typing import Any

import pytest

from patience.deals import GENERATORS, REGISTRY, DealError, deal, parse_generator
from patience.families import FAMILIES
from patience.instance import Instance
from patience.rules import canonical_overrides, list_games, load_game

# (generator, [(game, overrides), ...]): every game each generator deals, and some it refuses.
CASES: dict[str, list[tuple[str, dict[str, Any] | None]]] = {
    "portable": [
        ("black-hole", None), ("freecell", None), ("klondike", None), ("gaps-basic-variant", None),
        ("canfield", None), ("binary-star", None), ("golf", None), ("spider", None), ("worm-hole", None),
        ("gaps", None), ("black-hole", {"suits": 2, "ranks": 5, "piles": 3}),
        ("gaps-basic-variant", {"suits": 3, "ranks": 6}), ("freecell", {"cells": 2, "piles": 6}),
    ],
    "pysol": [
        ("black-hole", None), ("freecell", None), ("all-in-a-row", None), ("bakers-game", None),
        ("seahaven-towers", None), ("golf", None), ("spider", None), ("klondike", None),
    ],
    "ms": [("freecell", None), ("bakers-game", None), ("eight-off", None)],
    "solvitaire": [
        ("black-hole", None), ("freecell", None), ("klondike-thoughtful", None), ("canfield", None),
        ("gaps-basic-variant", None), ("simple-simon", None), ("golf", None), ("spider", None),
        ("gaps", None),
    ],
    "random": [("black-hole", None), ("freecell", None)],
    "random:3": [("black-hole", None), ("all-in-a-row", None)],
    "planted": [
        ("black-hole", None), ("all-in-a-row", None), ("binary-star", None), ("golf", None),
        ("worm-hole", None), ("black-hole", {"suits": 2, "ranks": 5, "piles": 3}),
    ],
    "planted:8": [("black-hole", None), ("binary-star", None)],
    "sorted": [("black-hole", None), ("all-in-a-row", None), ("golf", None)],
    "sorted:5": [("black-hole", None)],
}  # fmt: skip
SEEDS = (1, 2, 3, 617, 40000)

# Computed with the code before the refactor (commit 3f9e849) by _digest below: a changed deal, a deal that
# now fails or one that now succeeds changes the hash of its generator.
PIN = {
    "portable": "5e0b90dddf4a3d476299893b9cb5957f981e0493dd442d99c3782f26312b2fe6",
    "pysol": "fc2418f78457687ddbfc6f43c37d85bf58e540d19322cb5098a4f152e606bf99",
    "ms": "1792a76cac5ecc981990aab8499de91bace3eae448c1fb80e8848c2daa76ce58",
    "solvitaire": "85b4bf6b71108f895106e53df42847fa200581d320eb590c2e5b53990e09408b",
    "random": "19c6fbae2c01e8a56042dabfef4f9d86b307a69843843a75bf07ee945b2bcd4a",
    "random:3": "4ea3b16ac9f4c629c36a7b9d93c56b929410f599f9a7050a50820192de7941df",
    "planted": "9c10b5addf0741107c37626629d266ab77d505aacb2d6867812d378a3a47a446",
    "planted:8": "e2dc06527556364158a7dd49e3ea43db3c708a4737b46510e51377e95537fde4",
    "sorted": "7f4f7288f477d24388efe121a2c7e358c8ae3497d07a722d4c5be2fb2301c84c",
    "sorted:5": "aa57c4a19cc010a6c0314024f9b4cb3297f68a80ef622be89048c830e0ae8fbb",
}


def _digest(generator: str) -> str:
    """SHA-256 over each case's layout and source (the error type when the generator refuses it)."""
    h = hashlib.sha256()
    for game, over in CASES[generator]:
        for seed in SEEDS:
            try:
                inst = deal(game, seed, generator, over)
                lay = json.dumps([inst.to_json()["layout"], inst.source], sort_keys=True)
                text = hashlib.sha256(lay.encode()).hexdigest()
            except DealError:
                text = "DealError"
            h.update(f"{game} {over} {seed} {text}\n".encode())
    return h.hexdigest()


@pytest.mark.parametrize("generator", list(CASES))
def test_deals_are_pinned(generator: str) -> None:
    """Every seeded deal of every generator is the same card for card as before the refactor."""
    assert _digest(generator) == PIN[generator]


# The registry --------------------------------------------------------------------------------------
def test_registry_holds_every_generator_once() -> None:
    """One registry: the plain generators (the CLI's GENERATORS) and the instance families."""
    assert list(REGISTRY) == ["portable", "pysol", "ms", "solvitaire", *FAMILIES]
    assert list(GENERATORS) == [n for n, g in REGISTRY.items() if not g.is_family] == list(REGISTRY)[:4]
    assert parse_generator("planted:8") == (REGISTRY["planted"], 8)
    assert parse_generator("ms") == (REGISTRY["ms"], 0)
    for bad in ("nope", "ms:3", "planted:x"):
        with pytest.raises(DealError):
            parse_generator(bad)


@pytest.mark.parametrize("game", [g.name for g in list_games()])
def test_problem_says_what_a_generator_deals(game: str) -> None:
    """Each entry's problem() is the DealError its deal raises, and None when it deals the game (PySol's
    board can still differ from our rules' shape, which only the deal shows: Fan)."""
    g = load_game(game)
    for gen in REGISTRY.values():
        why = gen.problem(g)
        try:
            gen.deal(game, max(1, gen.seeds[0]))
            got = None
        except DealError as err:
            got = str(err)
        if why is None:
            assert got is None or got.startswith(f"the {gen.name} deal does not fit the rules"), got
        else:
            assert got == why


def _modules_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_imports_go_one_way() -> None:
    """rng <- generators <- families <- deals: neither families nor generators loads deals."""
    assert "patience.deals" not in _modules_after("import patience.families")
    assert not {"patience.deals", "patience.families"} & _modules_after("import patience.generators")


# One canonical form of rule overrides ------------------------------------------------------------------
SPELLINGS = [
    ("freecell", "portable", [{"cells": "2"}, {"cells.count": 2}, {"cells": 2, "piles": "8"}]),
    ("freecell", "ms", [{"cells": "2"}, {"cells.count": "2"}]),
    ("black-hole", "pysol", [{"wrap": "false"}, {"foundations.wrap": False}]),
    (
        "black-hole",
        "planted:3",
        [{"suits": 2, "ranks": 5, "piles": 3}, {"deck.suits": "2", "deck.ranks": 5, "tableau.piles": "3"}],
    ),
    ("gaps-basic-variant", "solvitaire", [{"ranks": 7}, {"deck.ranks": "7"}]),
    ("gaps", "portable", [{"suits": 3}, {"deck.suits": 3, "rows": 3}]),
]


@pytest.mark.parametrize(("game", "generator", "spellings"), SPELLINGS)
def test_spellings_of_overrides_deal_one_instance(game: str, generator: str, spellings: list) -> None:
    """Short or dotted names, text or values: the same deal, recorded overrides, sha256 and JSON; an
    instance file written either way loads as that instance too."""
    insts = [deal(game, 5, generator, over) for over in spellings]
    first = insts[0]
    assert first.overrides and first.overrides == canonical_overrides(load_game(game).rules, spellings[0])
    for inst in insts[1:]:
        assert inst.overrides == first.overrides
        assert inst.sha256 == first.sha256 and inst.dumps() == first.dumps()
    for over in spellings:
        data = {**first.to_json(), "rules": over}
        assert Instance.from_json(data).sha256 == first.sha256


MS_EDGES = [1, 2, 617, 11982, 31999, 32000, 32001, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**33 - 1]


@pytest.mark.parametrize("seed", MS_EDGES)
def test_ms_order_is_the_order_of_pysols_board(seed: int) -> None:
    """The MS deal read off pysol-cards' shuffle is the one its FreeCell board text deals."""
    from pysol_cards.random_base import RandomBase

    from patience.generators import _columns_to_order, _ms_order, _pysol_board

    board = _pysol_board("freecell", seed, RandomBase.DEALS_MS)
    assert _ms_order(seed, RandomBase.DEALS_MS) == _columns_to_order(board, 8)
