"""The proven dominances: where they apply, that they cut, and that switching any of them off keeps
every verdict (ablation) for both backends that use them."""

from __future__ import annotations

import pytest

from patience.deals import deal
from patience.engine import TABLEAU, Engine
from patience.instance import Instance
from patience.rules import load_game
from patience.solvers.base import Limits, Status, solve
from patience.solvers.dfs import DfsSolver
from patience.solvers.dominance import DOMINANCES, Dominances, applicable
from patience.solvers.planning import PlanningSolver

LIMITS = Limits(seconds=20)


def test_applicability_follows_the_rules_not_the_names() -> None:
    # Klondike: worrying back rules out safe_home.
    assert applicable(load_game("klondike-thoughtful").rules) == {"safe_deal", "partial_pile"}
    assert applicable(load_game("freecell").rules) == {"safe_home"}  # free cells: no Theorem 1; no stock
    assert applicable(load_game("canfield").rules) == {"safe_deal", "partial_pile"}  # reserve-first spaces
    assert applicable(load_game("american-canister").rules) == {"safe_home", "partial_pile"}
    assert "partial_pile" in applicable(load_game("american-canister", {"suits": 2, "ranks": 5}).rules)
    # East Haven deals its stock onto the tableau: neither safe_home nor Theorem 1 apply.
    assert applicable(load_game("east-haven", {"tableau.group_moves": "build"}).rules) == frozenset()
    assert applicable(load_game("black-hole").rules) == frozenset()
    assert applicable(load_game("gaps").rules) == frozenset()
    with pytest.raises(ValueError, match="unknown dominance"):
        DfsSolver(dominances={"safe-home"})
    with pytest.raises(ValueError, match="unknown dominance"):
        PlanningSolver(dominances={"nope"})


def test_partial_pile_only_restricts_groups_built_on_the_card_under_them() -> None:
    """The bug behind planning's wrong UNSOLVABLE: a group sitting on a card it is not built on is a whole
    built pile and may always move; one built on that card moves only if the card can go home."""
    over = {"ranks": 4, "piles": 4}
    tableau = [["AS", "2S", "4S", "3H"], ["AH", "AC", "2D", "3C"], ["3S", "2H", "2C", "4C"]]
    tableau.append(["AD", "3D", "4H", "4D"])
    inst = Instance.from_json(
        {"format": "patience-instance/1", "game": "american-canister", "rules": over,
         "deck": {"suits": 4, "ranks": 4, "decks": 1},
         "layout": {"tableau": tableau, "foundations": [[]] * 4}}
    )  # fmt: skip
    e = Engine(inst)
    dom = Dominances(e)
    assert "partial_pile" in dom.on
    built = (TABLEAU, 0, TABLEAU, 2, 1)  # 3H off 4S (built on it) onto 4C; 4S cannot go home: cut
    loose = (TABLEAU, 1, TABLEAU, 3, 1)  # 3C off 2D (not built on it) onto 4D: a whole built pile
    assert {built, loose} <= set(e.legal_moves())
    assert not dom.allowed(built)
    assert dom.allowed(loose)
    assert dom.prune([built, loose]) == [loose] and dom.fired["partial_pile"] == 1
    assert Dominances(e, ()).allowed(built)  # switched off


@pytest.mark.parametrize(
    ("game", "seed", "generator"),
    [
        ("american-canister", 26, "solvitaire"),
        ("american-canister", 35, "solvitaire"),
        ("american-canister", 36, "solvitaire"),
        ("american-canister", 8, "portable"),
        ("american-canister", 15, "portable"),
    ],
)
def test_won_deals_that_planning_called_unsolvable(game: str, seed: int, generator: str) -> None:
    """Planning answered UNSOLVABLE in milliseconds on these won deals (an unsound partial-pile prune)."""
    inst = deal(game, seed, generator)
    for backend in ("planning", "dfs"):
        assert solve(inst, backend, LIMITS).status is Status.SOLVED, backend


# Ablation: every dominance off in turn keeps every verdict, on small deals of each game it applies to.
ABLATION = [
    ("american-canister", {"suits": 2, "ranks": 5, "piles": 4}),
    ("british-canister", {"suits": 2, "ranks": 5, "piles": 4}),
    ("freecell", {"suits": 2, "ranks": 6, "piles": 4, "cells": 0}),
    ("bakers-game", {"suits": 2, "ranks": 5, "piles": 3, "cells": 0}),
    # worrying back, face-down cards, a waste with redeals:
    ("klondike-thoughtful", {"suits": 4, "ranks": 4, "piles": 4, "stock": 6, "draw": 3}),
    # reserve-first spaces, a dealt base, wrap-around building and foundations:
    ("canfield", {"suits": 4, "ranks": 4, "piles": 2, "reserve": 6, "stock": 7, "draw": 3}),
    ("thirty-six", {"suits": 4, "ranks": 4, "piles": 3, "stock": 4}),
]


@pytest.mark.parametrize(("game", "over"), ABLATION, ids=[g for g, _ in ABLATION])
def test_each_dominance_off_keeps_the_verdict(game: str, over: dict) -> None:
    names = applicable(load_game(game, over).rules)
    assert names, "the ablation needs a game where some dominance applies"
    fired = dict.fromkeys(names, 0)
    verdicts = {Status.SOLVED: 0, Status.UNSOLVABLE: 0}
    for seed in range(1, 31):
        inst = deal(game, seed, "portable", over)
        full = DfsSolver(streamline_share=0).solve(inst, LIMITS)
        assert full.status in verdicts, seed
        verdicts[full.status] += 1
        for name in names:
            fired[name] += int(full.stats[f"cuts_{name}"])
        variants = [DfsSolver(streamline_share=0, dominances=names - {name}) for name in names]
        variants += [DfsSolver(streamline_share=0, dominances=()), PlanningSolver("greedy", dominances=())]
        variants += [PlanningSolver("greedy", dominances=names - {name}) for name in names]
        for solver in variants:
            got = solver.solve(inst, LIMITS)
            assert got.status is full.status, (seed, solver.name, getattr(solver, "dominances", None))
    assert all(fired.values()), fired  # every applicable dominance cut somewhere: the ablation is not vacuous
    assert all(verdicts.values()), verdicts  # both won and lost deals at this size


def test_dominance_names_are_documented() -> None:
    import patience.solvers.dominance as mod

    for name in DOMINANCES:
        assert f"``{name}``" in (mod.__doc__ or "")
