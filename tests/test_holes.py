"""The hole-game predicates of patience.holes and the backends and families that use them.

The rank rule is checked against the validator (which keeps its own copy on purpose), the hole-game
predicate against every model and each user (engine, dfs, cpsat, csp, families), and the rank-walk edge
equation against an exhaustive enumeration.
"""

from __future__ import annotations

import itertools
import random

import pytest

from patience.cards import Card
from patience.deals import DealError, deal
from patience.engine import Engine
from patience.families import family_deal
from patience.holes import HoleRanks, hole_game_problem, is_hole_game, walk_steps
from patience.rules import list_games, load_game
from patience.solvers.base import Limits, Status, solve
from patience.solvers.cpsat_hole import family_supports
from patience.solvers.csp import CspBlackHole
from patience.solvers.dfs import DfsSolver
from patience.solvers.dfs_hole import hole_search_problem
from patience.validate import Illegal, _Board


@pytest.mark.parametrize("R", [1, 2, 3, 4, 5, 13])
@pytest.mark.parametrize(("wrap", "king_blocks"), list(itertools.product((False, True), repeat=2)))
def test_fits_agrees_with_the_validator(R: int, wrap: bool, king_blocks: bool) -> None:
    """Every (card rank, hole top) pair: HoleRanks.fits says yes exactly when the validator accepts."""
    over = {"suits": 4, "ranks": R, "piles": 4, "wrap": wrap, "foundations.king_blocks": king_blocks}
    board = _Board(deal("all-in-a-row", 1, "portable", over))
    ranks = HoleRanks(R, wrap, king_blocks)
    assert ranks == HoleRanks.of(board.rules)
    for t in range(R + 1):
        board.found[0] = [Card(t, 0)] if t else []
        for r in range(1, R + 1):
            try:
                board.check_foundation(0, [Card(r, 1)], "tableau:0")
                legal = True
            except Illegal:
                legal = False
            assert ranks.fits(r, t) is legal, (r, t)
    table = ranks.table()
    assert all(table[t] == {r for r in range(1, R + 1) if ranks.fits(r, t)} for t in range(1, R + 1))


def test_succ() -> None:
    assert HoleRanks(13, wrap=True).succ(13) == 1 and HoleRanks(13).succ(13) is None
    assert HoleRanks(5).succ(4) == 5


@pytest.mark.parametrize("R", [2, 3, 13])
def test_onward_continues_every_step_in_its_direction(R: int) -> None:
    """``onward(p, t)`` is the rank one further from ``p`` past ``t`` around the cycle, for every step
    ``p -> t`` of one rank; 0 for anything else (the same rule the hole search's move order reads)."""
    ranks = HoleRanks(R, wrap=True)
    for p in range(R + 1):
        for t in range(R + 1):
            nxt = ranks.onward(p, t)
            if p and t and (t - p) % R in (1, R - 1):
                assert nxt and (nxt - t) % R == (t - p) % R, (p, t, nxt)
            else:
                assert nxt == 0, (p, t)
    assert HoleRanks(13).onward(5, 6) == 7 and HoleRanks(13).onward(6, 5) == 4
    assert HoleRanks(13, wrap=True).onward(13, 1) == 2 and HoleRanks(13, wrap=True).onward(1, 13) == 12


def test_hole_game_predicate_on_the_models() -> None:
    """Hole games are exactly the hole-foundation models with no stock; Worm Hole needs a free cell."""
    expect = {"black-hole": 0, "all-in-a-row": 0, "binary-star": 0, "worm-hole": 1}  # free cells needed
    for game in (g.name for g in list_games()):
        rules = load_game(game).rules
        need = expect.get(game)
        assert is_hole_game(rules, free_cells=None) is (need is not None), game
        if need is not None:
            assert is_hole_game(rules, free_cells=need) and is_hole_game(rules, free_cells=need + 1)
            assert not need or not is_hole_game(rules)
    golf = load_game("golf").rules
    assert hole_game_problem(golf) == "it has a stock (16 cards)"
    assert is_hole_game(load_game("golf", {"stock": 0, "piles": 3}).rules)


@pytest.mark.parametrize(
    ("game", "over", "why"),
    [
        ("black-hole", {"tableau.empty": "any"}, "tableau.empty=any"),
        ("black-hole", {"build": "any-suit"}, "tableau.build=any-suit"),
        ("freecell", {}, "foundations.kind=suits"),
        ("gaps-basic-variant", {}, "Gaps"),
        ("worm-hole", {}, "1 free cell(s)"),
        ("golf", {}, "stock"),
    ],
)
def test_hole_game_problem_names_the_rule(game: str, over: dict, why: str) -> None:
    rules = load_game(game, over).rules
    assert why in (hole_game_problem(rules) or "")


def test_every_user_follows_the_predicate() -> None:
    """engine.hole_only, dfs.prefers (the hole search's rules), cpsat, csp and families all decide by
    is_hole_game."""
    cases = [(g.name, {}) for g in list_games()] + [
        ("black-hole", {"tableau.empty": "any"}),
        ("black-hole", {"cells": 1}),
        ("black-hole", {"cells": 2}),
        ("golf", {"stock": 0, "piles": 3, "thoughtful": True}),
        ("worm-hole", {"suits": 1, "ranks": 5, "piles": 2}),
    ]
    dfs, csp = DfsSolver(), CspBlackHole()
    for game, over in cases:
        try:
            inst = deal(game, 1, "portable", over)
        except DealError:
            continue
        rules = inst.rules
        hole = is_hole_game(rules)
        assert Engine(inst).hole_only is hole, game
        assert dfs.prefers(rules) is (hole_search_problem(rules) is None), game
        assert family_supports(rules) is is_hole_game(rules, free_cells=1), game
        d = rules.deck
        small = d.suits * d.ranks * d.decks <= 20 and rules.foundations.count == 1
        assert csp.supports(rules) is (hole and small), game
        if is_hole_game(rules, free_cells=None):
            family_deal(game, 1, "sorted", over)
        else:
            with pytest.raises(DealError, match="Black Hole-like"):
                family_deal(game, 1, "sorted", over)


def test_the_hole_search_takes_a_hole_stock_and_any_free_cells() -> None:
    """``stock=True`` admits a stock dealt onto a hole (Golf) and nothing else; the hole search (dfs's
    route) takes any free cells and that stock, while the engine's fast path and CP-SAT keep their own."""
    over = {"stock": 3, "piles": 16}
    to_hole = load_game("black-hole", {**over, "stock.deal_to": "hole"}).rules
    assert hole_game_problem(to_hole, stock=True) is None
    assert hole_game_problem(to_hole) == "it has a stock (3 cards)"
    for where in ("waste", "tableau"):
        rules = load_game("black-hole", {**over, "stock.deal_to": where}).rules
        assert f"its stock deals to the {where}" in (hole_game_problem(rules, stock=True) or "")
        assert hole_search_problem(rules) is not None
    for game, over in [("golf", {}), ("golf-solvitaire", {}), ("worm-hole", {"cells": 3}), ("worm-hole", {})]:
        rules = load_game(game, over).rules
        assert hole_search_problem(rules) is None, game
        assert not is_hole_game(rules)  # the engine's fast path: no stock, no cell
        assert family_supports(rules) is (game == "worm-hole" and not over), (
            game
        )  # CP-SAT: one cell, no stock
    assert "deals 1 card(s) to the cells" in (
        hole_search_problem(load_game("worm-hole", {"cells.prefilled": 1, "piles": 10}).rules) or ""
    )


def test_empty_piles_that_take_cards_are_no_hole_game() -> None:
    """tableau.empty=any lets a top card move to an empty pile: this deal is lost without that move and
    won with it, so the hole search (and CP-SAT's model), which know no such move, must not take it."""
    over = {"suits": 2, "ranks": 5, "piles": 3}
    plain = deal("black-hole", 2, "portable", over)
    spaces = deal("black-hole", 2, "portable", {**over, "tableau.empty": "any"})
    assert Engine(plain).hole_only and not Engine(spaces).hole_only
    assert not family_supports(spaces.rules) and not CspBlackHole().supports(spaces.rules)
    assert solve(plain, "dfs", Limits(seconds=30)).status is Status.UNSOLVABLE
    won = solve(spaces, "dfs", Limits(seconds=30))  # validated by solve()
    assert won.status is Status.SOLVED and won.solution is not None
    assert any(m["to"].startswith("tableau") for m in won.solution)


def _solutions(d: list[int], R: int, wrap: bool, top: int) -> list[list[int]]:
    """Every x in 0..top per edge with x[r-1] + x[r] = d[r] (edge R: the K-A edge, 0 on a path)."""
    out = []
    for xs in itertools.product(range(top + 1), repeat=R):
        if not wrap and xs[R - 1]:
            continue
        if all(xs[r - 2 if r > 1 else R - 1] + xs[r - 1] == d[r] for r in range(1, R + 1)):
            out.append(list(xs))
    return out


@pytest.mark.parametrize("wrap", [False, True])
def test_walk_steps_is_exact(wrap: bool) -> None:
    """walk_steps finds a solution exactly when one exists, and each X it allows is one."""
    rng = random.Random(7)
    for _ in range(400):
        R = rng.randint(1, 5)
        d = [0] + [rng.randint(0, 4) for _ in range(R)]
        got = walk_steps(d, R, wrap)
        brute = _solutions(d, R, wrap, max(d))
        assert (got is not None) is bool(brute), (d, wrap)
        if got is None:
            continue
        a, sign, lo, hi = got
        xs_ok = range(lo, (hi if hi is not None else lo + 3) + 1)
        found = [[aa + ss * x for aa, ss in zip(a, sign, strict=True)] for x in xs_ok]
        assert found and all(x in brute for x in found), (d, got)
        if hi is not None:
            assert len(found) == len(brute)


@pytest.mark.parametrize("wrap", [False, True])
def test_hole_kernel_walk_test_is_walk_steps(wrap: bool) -> None:
    """The hole search kernel's allocation-free walk test (compiled by numba) says yes exactly when
    walk_steps finds a solution: every degree vector of 1-6 ranks with entries 0-3 (and some odd ones)."""
    from patience.solvers.hole_kernel import _walk_ok

    yes = 0
    for R in range(1, 7):
        for d in itertools.product(range(4), repeat=R):
            deg = [0, *d]
            ok = walk_steps(deg, R, wrap) is not None
            assert _walk_ok(deg, R, wrap) is ok, (deg, wrap)
            yes += ok
    assert yes > 100  # both answers occur


@pytest.mark.parametrize(
    "over", [{"suits": 1, "ranks": 5, "piles": 4, "wrap": True}, {"suits": 2, "ranks": 5, "piles": 3}]
)
def test_dealt_hole_start_in_every_backend(over: dict) -> None:
    """Golf without its stock (a dealt start card on the hole, nothing on a King): cpsat-only, csp and dfs
    give the same verdicts (dfs's hole search is checked against brute force in test_dfs_hole)."""
    over = {**over, "stock": 0, "thoughtful": True}
    verdicts = set()
    for seed in range(1, 21):
        inst = deal("golf", seed, "portable", over)
        assert inst.rules.foundations.start_dealt and inst.layout.foundations[0]
        got = {b: solve(inst, b, Limits(seconds=30)).status for b in ("dfs", "cpsat-only", "csp")}
        assert len(set(got.values())) == 1 and got["dfs"] in (Status.SOLVED, Status.UNSOLVABLE), (seed, got)
        verdicts.add(got["dfs"])
    assert Status.UNSOLVABLE in verdicts
