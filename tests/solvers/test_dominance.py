"""The proven dominances: where they apply, that they cut, and that switching any of them off keeps
every verdict (ablation) for both backends that use them."""

from __future__ import annotations

import pytest

from patience.deals import deal
from patience.engine import FOUNDATION, RESERVE, STOCK, TABLEAU, WASTE, Engine, Move
from patience.instance import Instance
from patience.rules import load_game
from patience.solvers.base import Limits, Status, solve
from patience.solvers.dfs import DfsSolver
from patience.solvers.dominance import DOMINANCES, Dominances, applicable
from patience.solvers.planning import PlanningSolver

from .positions import freecell_position

LIMITS = Limits(seconds=20)


def test_applicability_follows_the_rules_not_the_names() -> None:
    # Klondike: worrying back, so safe_home tests a card's closure (test_safe_home_under_worrying_back...).
    want = {"safe_deal", "safe_home", "partial_pile", "no_return"}
    assert applicable(load_game("klondike-thoughtful").rules) == want
    assert applicable(load_game("freecell").rules) == {"safe_home"}  # free cells: no Theorem 1; no stock
    assert applicable(load_game("canfield").rules) == {"safe_deal", "safe_home", "partial_pile"}
    # Spaces that then take only a waste card: safe_home only for a card on another (never opens a space).
    assert applicable(load_game("canfield-whole-pile").rules) == {"safe_deal", "safe_home"}
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
    # reserve-first spaces (safe_home shifts the reserve), a dealt base, wrap-around building and foundations:
    ("canfield", {"suits": 4, "ranks": 4, "piles": 2, "reserve": 6, "stock": 7, "draw": 3}),
    # the same with the reserve open (any card plays; the last fills a space):
    ("canfield", {"suits": 4, "ranks": 4, "piles": 2, "reserve": 6, "stock": 7, "reserve.stacked": False}),
    # reserve-then-waste spaces (safe_home only for a card lying on another), whole-pile moves:
    ("canfield-whole-pile", {"suits": 4, "ranks": 4, "piles": 2, "reserve": 6, "stock": 7}),
    ("thirty-six", {"suits": 4, "ranks": 4, "piles": 3, "stock": 4}),
    # worrying back with building down in suit (safe_home's second part), Kings-only spaces:
    ("fan", {"suits": 3, "ranks": 5, "piles": 5}),
    # stock access with one card a turn (safe_home from the waste), same-suit building:
    ("trigon", {"suits": 4, "ranks": 5, "piles": 4, "stock": 10}),
    # worrying back with alternate colours (safe_home's closure test), a reserve, face-down cards:
    ("northwest-territory", {"suits": 4, "ranks": 4, "piles": 4, "reserve": 6}),
    ("fan", {"suits": 4, "ranks": 4, "piles": 6, "build": "alternate-colour"}),
]


@pytest.mark.parametrize(("game", "over"), ABLATION, ids=[g for g, _ in ABLATION])
def test_each_dominance_off_keeps_the_verdict(game: str, over: dict) -> None:
    names = applicable(load_game(game, over).rules)
    assert names, "the ablation needs a game where some dominance applies"
    fired = dict.fromkeys(names, 0)
    verdicts = {Status.SOLVED: 0, Status.UNSOLVABLE: 0}
    for seed in range(1, 31):
        inst = deal(game, seed, "portable", over)
        # The baseline turns the stock card by card (stock access off, so safe_deal can fire); the variants
        # search it by stock access where that applies, so they check it too.
        full = DfsSolver(streamline_share=0, stock_access=False).solve(inst, LIMITS)
        assert full.status in verdicts, seed
        verdicts[full.status] += 1
        for name in names:
            fired[name] += int(full.stats[f"cuts_{name}"])
        variants = [DfsSolver(streamline_share=0, dominances=names - {name}) for name in names]
        variants += [DfsSolver(streamline_share=0), DfsSolver(streamline_share=0, dominances=())]
        variants += [PlanningSolver("greedy", dominances=())]
        variants += [PlanningSolver("greedy", dominances=names - {name}) for name in names]
        for solver in variants:
            got = solver.solve(inst, LIMITS)
            assert got.status is full.status, (seed, solver.name, getattr(solver, "dominances", None))
    assert all(fired.values()), fired  # every applicable dominance cut somewhere: the ablation is not vacuous
    assert all(verdicts.values()), verdicts  # both won and lost deals at this size


# safe_home's closure test as a second way to pass, without worrying back: off, every verdict stays.
PLAIN = ("american-canister", "british-canister", "freecell", "canfield")
CLOSURE = [(g, o) for g, o in ABLATION if g in PLAIN]


@pytest.mark.parametrize(("game", "over"), CLOSURE, ids=[g for g, _ in CLOSURE])
def test_safe_home_closure_without_worrying_back_keeps_the_verdict(
    game: str, over: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    import patience.solvers.dominance as mod

    assert mod._closure_plain_sound(load_game(game, over).rules)
    deals = [deal(game, seed, "portable", over) for seed in range(1, 31)]
    on = [DfsSolver(streamline_share=0).solve(inst, LIMITS) for inst in deals]
    monkeypatch.setattr(mod, "_closure_plain_sound", lambda rules: False)
    off = [DfsSolver(streamline_share=0).solve(inst, LIMITS) for inst in deals]
    for seed, (a, b) in enumerate(zip(on, off, strict=True), start=1):
        assert a.status is b.status and a.status in (Status.SOLVED, Status.UNSOLVABLE), seed
    assert any(a.stats["nodes"] != b.stats["nodes"] for a, b in zip(on, off, strict=True))  # it cut somewhere


def test_dominance_names_are_documented() -> None:
    import patience.solvers.dominance as mod

    for name in DOMINANCES:
        assert f"``{name}``" in (mod.__doc__ or "")


# Each condition of each dominance: flipping one rule feature of a game where it applies switches it off.
CONDITIONS = [
    # (game, overrides, dominance, applies)
    ("freecell", {}, "safe_home", True),
    ("freecell", {"foundations.removable": True}, "safe_home", True),  # worrying back: the closure test
    ("freecell", {"decks": 2}, "safe_home", False),  # two foundation piles per suit
    ("freecell", {"stock": 4, "stock.deal_to": "tableau"}, "safe_home", False),  # a deal covers a top
    ("freecell", {"stock": 4}, "safe_home", True),  # a stock dealt to a waste does not cover
    ("canfield", {}, "safe_home", True),  # reserve-first spaces: the reserve shifts by a card (the proof)
    ("canfield", {"foundations.removable": True}, "safe_home", False),  # reserve-first with worrying back
    ("canfield", {"tableau.empty": "any"}, "safe_home", True),
    ("canfield", {"tableau.empty": "reserve-then-waste"}, "safe_home", True),  # a card on another only
    ("canfield-whole-pile", {"foundations.removable": True}, "safe_home", False),
    ("fan", {}, "safe_home", True),  # worrying back, but every builder lies under its card at home
    ("fan", {"build": "alternate-colour"}, "safe_home", True),  # the closure test (K(c) grows, below)
    ("northwest-territory", {}, "safe_home", True),  # worrying back, a reserve, face-down cards
    ("freecell", {}, "no_return", False),  # no worrying back
    ("freecell", {"foundations.removable": True}, "no_return", True),
    ("fan", {}, "no_return", True),
    ("canfield", {"foundations.removable": True}, "no_return", False),  # reserve-first + worrying back
    ("freecell", {}, "safe_deal", False),  # no stock
    ("freecell", {"stock": 4}, "safe_deal", True),
    ("klondike-thoughtful", {}, "safe_deal", True),
    ("klondike-thoughtful", {"stock.deal_to": "tableau"}, "safe_deal", False),
    ("gaps", {}, "safe_deal", False),
    ("american-canister", {}, "partial_pile", True),
    ("american-canister", {"cells": 1}, "partial_pile", False),  # free cells: outside Theorem 1
    ("american-canister", {"build": "same-suit"}, "partial_pile", False),
    ("american-canister", {"tableau.direction": "up-down"}, "partial_pile", False),
    ("american-canister", {"tableau.group_moves": "whole-pile"}, "partial_pile", False),
    ("american-canister", {"decks": 2}, "partial_pile", False),
    ("american-canister", {"stock": 4, "stock.deal_to": "tableau"}, "partial_pile", False),
    ("american-canister", {"foundations.removable": True}, "partial_pile", True),  # worrying back is fine
    ("american-canister", {"suits": 2, "ranks": 5, "wrap": True}, "partial_pile", True),
]


@pytest.mark.parametrize(("game", "over", "name", "applies"), CONDITIONS)
def test_each_condition_switches_its_dominance(game: str, over: dict, name: str, applies: bool) -> None:
    assert (name in applicable(load_game(game, over).rules)) is applies


def _home_move(e: Engine, card: str) -> Move:
    """The legal foundation move of ``card`` (text)."""
    code = e.deck.code(e.deck.parse(card))
    got = [m for m in e.legal_moves() if m[2] == FOUNDATION and e.moved_card(m) == code]
    assert len(got) == 1, (card, e.legal_moves())
    return got[0]


def test_safe_home_plays_a_card_alone_when_its_builders_or_its_closure_are_home() -> None:
    # AC has no builder: safe at once. Then 2C may go home with AD (a red ace, which could be built on it)
    # still out: its builders are not all home, but K(2C) is (AD is next to go home and takes nothing), so
    # without worrying back it is forced all the same (the closure test as a second way to pass).
    e = freecell_position([["3C", "AC"], ["AD", "2C"], ["3D", "2D"]])
    dom = Dominances(e)
    assert dom.on == {"safe_home"} and dom.alt_receivers is not None
    ace = _home_move(e, "AC")
    assert dom.forced(e.legal_moves()) == ace and dom.fired["safe_home"] == 1
    e.apply(ace)
    two = _home_move(e, "2C")
    assert dom.receivers[e.moved_card(two)] and dom.forced(e.legal_moves()) == two
    e.apply(two)
    # 3C may go home now, but its builder 2D is out, and so is AD, below 2D in K(3C): not forced (AD is).
    _home_move(e, "3C")
    assert dom.forced(e.legal_moves()) == _home_move(e, "AD") and dom.fired["safe_home"] == 3
    assert dom.prune(e.legal_moves()) == e.legal_moves()  # no partial-pile cut in FreeCell
    # With AD home too, 2C (builder AD) and 2D (builder AC) are both safe.
    e = freecell_position([["3C", "AC"], ["2C", "AD"], ["3D", "2D"]])
    dom = Dominances(e)
    for card in ("AC", "AD"):
        m = dom.forced(e.legal_moves())
        assert m == _home_move(e, card)
        e.apply(m)
    m = dom.forced(e.legal_moves())
    assert m is not None and m in (_home_move(e, "2C"), _home_move(e, "2D"))
    assert Dominances(e, ()).forced(e.legal_moves()) is None  # switched off


def test_safe_home_may_open_a_space_the_reserve_must_fill() -> None:
    """Canfield (base 3, building down in alternate colours): once 3S and 3D are home, 4D, alone in its
    pile, has both its builders (the black 3s) home, so it goes home alone though the space it leaves must
    take the reserve's top at once (the proof's shifted reserve); with worrying back under such spaces the
    rule is off."""
    layout = {"tableau": [["4D", "3S"], ["2S", "3D"]], "foundations": [["3C"], [], [], []], "cells": [],
              "reserve": ["AH", "2D", "4S"], "stock": ["3H", "4H", "4C", "AC", "AD", "AS", "2C", "2H"],
              "waste": []}  # fmt: skip
    rules = {"suits": 4, "ranks": 4, "piles": 2, "reserve": 3, "stock": 8}
    inst = {"format": "patience-instance/1", "game": "canfield", "rules": rules,
            "deck": {"suits": 4, "ranks": 4, "decks": 1}, "layout": layout}  # fmt: skip
    for removable in (False, True):
        inst["rules"] = {**rules, "foundations.removable": removable}
        e = Engine(Instance.from_json(inst))
        e.apply(_home_move(e, "3S"))
        e.apply(_home_move(e, "3D"))
        assert e.piles[0] == [e.deck.code(e.deck.parse("4D"))] and len(e.legal_moves()) > 1
        m = Dominances(e, {"safe_home"}).forced(e.legal_moves())  # safe_deal would deal first
        if removable:  # reserve-first spaces with worrying back: outside the proof
            assert m is None
            continue
        assert m == _home_move(e, "4D")
        e.apply(m)
        assert e.legal_moves() == [(RESERVE, 2, TABLEAU, 0, 1)]  # the space takes 4S from the reserve first


def test_safe_home_under_reserve_then_waste_spaces_only_for_a_covering_card() -> None:
    """Spaces that take the reserve's card, then only a waste card (Canfield whole-pile): 4D alone in its
    pile is not played home alone (the space would stop other tableau moves once the reserve is empty);
    4D lying on 2S is."""
    rules = {"suits": 4, "ranks": 4, "piles": 2, "reserve": 3, "stock": 8}
    layout = {"foundations": [["3C"], [], [], []], "cells": [], "reserve": ["AH", "2D", "4S"],
              "stock": ["3H", "4H", "4C", "AC", "AD", "AS", "2C", "2H"], "waste": []}  # fmt: skip
    for tableau, moves, safe in (
        ([["4D", "3S"], ["2S", "3D"]], ("3S", "3D"), False),  # 4D left alone
        ([["2S", "4D"], ["3S", "3D"]], ("3D", "3S"), True),  # 4D on 2S (3S's space takes 4S first)
    ):
        inst = {"format": "patience-instance/1", "game": "canfield-whole-pile", "rules": rules,
                "deck": {"suits": 4, "ranks": 4, "decks": 1},
                "layout": {**layout, "tableau": tableau}}  # fmt: skip
        e = Engine(Instance.from_json(inst))
        for card in moves:
            e.apply(_home_move(e, card))
            if not all(e.piles):
                e.apply(e.legal_moves()[0])  # the space takes the reserve's top
        m = Dominances(e, {"safe_home"}).forced(e.legal_moves())
        assert m == (_home_move(e, "4D") if safe else None), tableau


def test_safe_deal_plays_a_deal_onto_an_empty_waste_alone() -> None:
    e = Engine(deal("klondike-thoughtful", 1, "portable", {"ranks": 3, "stock": 6, "piles": 3}))
    dom = Dominances(e)
    assert "safe_deal" in dom.on and not e.waste and e.stock
    m = dom.forced(e.legal_moves())
    assert m is not None and m[0] == STOCK and m[2] == WASTE
    assert dom.fired["safe_deal"] == 1
    assert len(e.legal_moves()) > 1  # other moves existed: the cut is real
    e.apply(m)
    assert e.waste
    assert Dominances(e, {"safe_deal"}).forced(e.legal_moves()) is None  # a waste card showing: not safe
    assert Dominances(e, {"partial_pile"}).fired["safe_deal"] == 0


def test_safe_home_under_worrying_back_tests_the_closure() -> None:
    """With worrying back a card's receivers are the highest cards of each suit in K(c): building down in
    alternate colours, a 5 needs both opposite-colour 3s and the other same-colour 2 home (Solvitaire's
    red-black rule: the 4s and the other 3 need only be next to go home); in suit, nothing past its own
    predecessor; building up and down in suit, the card itself (never safe: the card above it may go on it
    once returned), but for the top rank."""
    e = Engine(deal("northwest-territory", 1, "solvitaire"))
    dom = Dominances(e)
    assert "safe_home" in dom.on and e.removable
    for c in range(e.deck.n_codes):
        got = sorted((e.suit[y], e.rank[y]) for y in dom.receivers[c])
        r, col = e.rank[c], e.colour[c]
        want = sorted(
            (t, r - 2 if e.colour[t * e.R] != col else r - 3)
            for t in range(4)
            if t != e.suit[c] and (r - 2 if e.colour[t * e.R] != col else r - 3) >= 1
        )
        assert got == want, (c, got, want)
    fan = Engine(deal("fan", 1, "solvitaire"))
    assert all(not r for r in Dominances(fan).receivers)
    updown = Engine(deal("fan", 1, "portable", {"tableau.direction": "up-down"}))
    dom = Dominances(updown)
    for c in range(updown.deck.n_codes):
        assert dom.receivers[c] == (() if updown.rank[c] == updown.R else (c,)), c
