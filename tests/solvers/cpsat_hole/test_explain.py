"""Explanations of lost hole-game deals: infeasible and minimal, checked by a brute force of their own."""

from __future__ import annotations

import json
import random
from functools import cache

import pytest
from click.testing import CliRunner

from patience.cli import main
from patience.deals import deal
from patience.engine import Engine
from patience.holes import HoleRanks
from patience.solvers.cpsat_hole import HoleDeal, explain
from patience.solvers.cpsat_hole.explain import explain_deal, proven_infeasible
from patience.solvers.cpsat_hole.facts import Fact, card_facts, vocabulary


def lost(inst) -> bool:
    """No sequence of engine moves wins (exhaustive search over engine states)."""
    eng = Engine(inst)
    total = eng.foundation_cards() + sum(map(len, inst.layout.tableau))
    dead: set = set()

    def won() -> bool:
        if eng.foundation_cards() == total:
            return True
        key = eng.key()
        if key in dead:
            return False
        for m in eng.legal_moves():
            eng.apply(m)
            ok = won()
            eng.undo()
            if ok:
                return True
        dead.add(key)
        return False

    return not won()


def playable(inst, kept: list[Fact]) -> bool:
    """Is there an order of all the tableau cards that keeps ``kept`` (and nothing else of the deal)?

    Cards are (rank, pile, depth) from the instance's layout; a kept pair (a, c) says a goes before c; a
    kept hole start says the first card fits the hole's card, else the first card is free. Each next card
    fits the previous one by the rank rule (HoleRanks). Memoised over (cards played, last rank).
    """
    cards = [card.rank for pile in inst.layout.tableau for card in pile]
    n = len(cards)
    f = inst.rules.foundations
    fits = HoleRanks(inst.rules.deck.ranks, f.wrap, f.king_blocks).fits
    start = inst.layout.foundations[0][-1].rank if inst.layout.foundations[0] else 0
    before = [0] * n  # before[c]: bit mask of the cards that must go before c
    keep_start = False
    for fact in kept:
        for a, c in fact.pairs:
            before[c] |= 1 << a
        keep_start = keep_start or bool(fact.starts)

    @cache
    def go(done: int, top: int) -> bool:
        if done == (1 << n) - 1:
            return True
        for c in range(n):
            if done >> c & 1 or before[c] & ~done:
                continue
            first = done == 0
            if first and not (fits(cards[c], start) if keep_start and start else True):
                continue
            if not first and not fits(cards[c], top):
                continue
            if go(done | 1 << c, cards[c]):
                return True
        return False

    return go(0, start)


def small_lost_deals(count: int, seed: int) -> list:
    """Lost deals of 9-16 cards whose ranks alone could be played in one sequence (so facts matter)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = rng.choice(["black-hole", "all-in-a-row"])
        S, R = rng.randint(2, 4), rng.randint(3, 5)
        n = S * R - (game == "black-hole")
        if n > 16:
            continue
        piles = [p for p in range(2, n) if n % p == 0]
        if not piles:
            continue
        sets = {"suits": S, "ranks": R, "piles": rng.choice(piles), "foundations.wrap": rng.random() < 0.5}
        inst = deal(game, rng.randrange(2**31), "portable", sets)
        if playable(inst, []) and lost(inst):
            out.append(inst)
    return out


def parts_of(deal_: HoleDeal, fact: Fact) -> list[Fact]:
    """The single-card facts a kept fact is made of (a rank fact: its named cards), else the fact."""
    if fact.key[0] != "rank":
        return [fact]
    cards = sorted({c for _a, c in fact.pairs})
    return [card_facts(deal_, c) for c in cards]


def test_explanations_of_small_lost_deals_are_infeasible_and_minimal_by_brute_force():
    narrowed = 0  # kept ranks that name fewer cards than the rank has covered
    for inst in small_lost_deals(12, seed=5):
        e = explain_deal(inst, seconds=20)
        assert e is not None and e.minimal and e.kept, inst.to_json()
        full = {f.key: f for f in vocabulary(HoleDeal.from_instance(inst), "ranks")}
        narrowed += sum(len(f.pairs) < len(full[f.key].pairs) for f in e.kept)
        assert not playable(inst, e.kept), inst.to_json()  # the kept facts alone lose
        d = HoleDeal.from_instance(inst)
        pieces = [p for f in e.kept for p in parts_of(d, f)]
        for i in range(len(pieces)):  # each fact, and each card of a narrowed rank, is needed
            assert playable(inst, pieces[:i] + pieces[i + 1 :]), (inst.to_json(), pieces[i].text)
    assert narrowed > 0


def test_presolved_trials_give_explanations_that_lose_by_brute_force():
    # explain_deal(presolve=True) is the earlier behaviour the benchmark compares against.
    for inst in small_lost_deals(4, seed=7):
        e = explain_deal(inst, seconds=20, presolve=True)
        assert e is not None and e.kept and not playable(inst, e.kept), inst.to_json()


def test_every_fact_is_true_of_the_deal():
    inst = deal("all-in-a-row", 1, "pysol")
    d = HoleDeal.from_instance(inst)
    where = {}  # card text -> (pile from 1, height from the bottom)
    for p, pile in enumerate(inst.layout.tableau):
        for j, card in enumerate(pile):
            where[inst.deck.text(card)] = (p + 1, j)
    facts = vocabulary(d, "ranks")
    covered = {card.rank for pile in inst.layout.tableau for card in pile[:-1]}  # the four 6s are all on top
    assert [f.key for f in facts] == [("rank", r) for r in sorted(covered)] and len(covered) == 12
    for f in facts:
        for a, c in f.pairs:  # a lies above c in c's pile
            (pa, ja), (pc, jc) = where[d.texts[a]], where[d.texts[c]]
            assert pa == pc and ja > jc
        for c in {c for _a, c in f.pairs}:  # every card above c is named, with c's pile
            assert f"{d.texts[c]} (pile {where[d.texts[c]][0]}) waits for" in f.text
    assert len(vocabulary(d, "links")) == 39
    bh = vocabulary(HoleDeal.from_instance(deal("black-hole", 1, "pysol")), "ranks")
    assert bh[0].text == "the hole starts on AS" and bh[0].starts == (0,)
    with pytest.raises(ValueError, match="unknown vocabulary"):
        vocabulary(d, "words")


def test_won_deal_has_no_explanation_and_a_feasible_set_is_not_verified():
    inst = deal("black-hole", 2, "pysol")
    assert explain(inst, seconds=10) is None
    d = HoleDeal.from_instance(inst)
    assert not proven_infeasible(d, vocabulary(d, "ranks"), 10)


@pytest.mark.slow
def test_pysol_all_in_a_row_explanation_is_small_and_proven():
    # Timing-dependent (the trials share the limit): slow, with a limit the shared machine always meets.
    inst = deal("all-in-a-row", 1, "pysol")  # lost after 6 cards
    e = explain_deal(inst, seconds=60)
    assert e is not None and len(e.facts) <= 6
    assert all(f.key[0] == "rank" for f in e.kept)
    assert proven_infeasible(HoleDeal.from_instance(inst), e.kept, 30)


def test_cli_solve_explain_prints_facts():
    res = CliRunner().invoke(main, ["solve", "black-hole:1", "-g", "pysol", "--explain", "--limit", "6s"])
    assert res.exit_code == 0, res.output
    assert "UNSOLVABLE" in res.output and "waits for" in res.output
    assert "alone (no order of play that keeps them fits the rank rule):" in res.output
    assert "minimal: without any one of them" in res.output or "not proven minimal" in res.output
    res = CliRunner().invoke(
        main, ["solve", "black-hole:1", "-g", "pysol", "--explain", "--json", "--limit", "6s"]
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["explanation"] and isinstance(out["explanation_minimal"], bool)
    res = CliRunner().invoke(main, ["solve", "freecell:1", "--explain"])
    assert res.exit_code == 2 and "--explain" in res.output
