"""The dfs streamliners and move order: chosen by rule features, the colour key forgets only which suit of
a colour a card has, and Wolter's order tries foundation moves and safe deals first."""

from __future__ import annotations

from dataclasses import replace

import pytest

from patience.deals import deal
from patience.engine import FOUNDATION, STOCK, TABLEAU, WASTE, Engine
from patience.instance import Instance
from patience.rules import load_game
from patience.solvers.dfs_prune import Pruner, features


def test_streamliners_follow_the_rules_not_the_names() -> None:
    assert features(load_game("klondike-thoughtful").rules).colour_streamliner
    f = features(load_game("thirty-six").rules)
    assert f.same_suit_stay and not f.colour_streamliner
    assert not features(load_game("black-hole").rules).colour_streamliner


@pytest.mark.parametrize(
    ("game", "over", "colour", "stay"),
    [
        ("freecell", {}, True, False),
        ("freecell", {"build": "any-suit"}, False, False),  # single-card moves only: no Thirty Six rule
        ("freecell", {"build": "any-suit", "tableau.group_moves": "build"}, False, True),
        ("bakers-game", {}, False, False),  # same-suit building
        ("black-hole", {}, False, False),  # hole foundations
        ("gaps", {}, False, False),
    ],
)
def test_features_by_rule(game: str, over: dict, colour: bool, stay: bool) -> None:
    f = features(load_game(game, over).rules)
    assert (f.colour_streamliner, f.same_suit_stay) == (colour, stay)


def _swap_suits(inst: Instance, a: int, b: int) -> Instance:
    """The same deal with suits ``a`` and ``b`` exchanged everywhere."""

    def f(pile: tuple) -> tuple:
        swap = {a: b, b: a}
        return tuple(None if c is None else replace(c, suit=swap.get(c.suit, c.suit)) for c in pile)

    lay = inst.layout
    lay = replace(lay, tableau=tuple(map(f, lay.tableau)), cells=f(lay.cells))
    return Instance.build(load_game(inst.game, inst.overrides), lay, inst.overrides)


def test_colour_key_forgets_the_suit_within_a_colour() -> None:
    over = {"ranks": 3, "piles": 4, "cells": 1}
    for seed in range(1, 6):
        inst = deal("freecell", seed, "portable", over)
        e = Engine(inst)
        same_colour = Engine(_swap_suits(inst, 0, 3))  # clubs <-> spades: both black
        other_colour = Engine(_swap_suits(inst, 0, 1))  # clubs <-> diamonds
        key = Pruner(e, features(inst.rules)).colour_key()
        assert Pruner(same_colour, features(inst.rules)).colour_key() == key
        assert Pruner(other_colour, features(inst.rules)).colour_key() != key
        assert same_colour.key() != e.key()  # the exact key still tells them apart


def test_move_order_tries_home_moves_and_safe_deals_first() -> None:
    seen_home = seen_deal = 0
    for game, over in [("freecell", {"ranks": 3, "piles": 4, "cells": 1}), ("klondike-thoughtful", {})]:
        for seed in range(1, 6):
            e = Engine(deal(game, seed, "portable", over))
            pr = Pruner(e, features(e.rules))
            for _ in range(30):  # walk a little way into the deal
                moves = e.legal_moves()
                if not moves:
                    break
                scores = {m: pr.score(m) for m in moves}
                for m, s in scores.items():
                    assert (s == 0) is (m[2] == FOUNDATION)
                    if m[0] == STOCK and m[2] == WASTE and not e.waste:
                        assert s == 1
                        seen_deal += 1
                seen_home += sum(s == 0 for s in scores.values())
                e.apply(min(moves, key=pr.score))
    assert seen_home and seen_deal


def test_the_solvitaire_order_tries_cards_from_cells_reserve_and_waste_before_tableau_moves() -> None:
    """The two orders differ only there: such a move scores 1 (``solvitaire``) or 6 (``wolter``)."""
    seen = 0
    for game in ("freecell", "northwest-territory", "klondike-thoughtful"):
        e = Engine(deal(game, 2, "portable"))
        new, old = Pruner(e, features(e.rules)), Pruner(e, features(e.rules), "wolter")
        for _ in range(40):
            moves = e.legal_moves()
            if not moves:
                break
            for m in moves:
                fed = m[2] == TABLEAU and m[0] not in (TABLEAU, FOUNDATION, STOCK)
                assert (new.score(m), old.score(m)) == ((1, 6) if fed else (old.score(m), old.score(m)))
                seen += fed
            e.apply(min(moves, key=new.score))
    assert seen
    with pytest.raises(ValueError, match="order"):
        Pruner(e, features(e.rules), "nosuch")
