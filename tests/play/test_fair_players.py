"""Fair players cannot read a hidden card; mc+heuristics, world repair, versions in the store."""

from __future__ import annotations

import random

import pytest

from patience.deals import deal
from patience.engine import FOUNDATION, STOCK, TABLEAU, WASTE, Engine
from patience.play.game import GameRecord, PlayTask, play_task
from patience.play.observation import Boards, observe, sample_world
from patience.play.players import (
    PLAYERS,
    HindsightPlayer,
    _repair,
    _Tables,
    _visible,
    make_player,
    player_version,
    reward,
)
from patience.play.store import batch_key, open_play_store

from .test_observation import _permute_hidden

FAIR = [
    ("random", {}),
    ("random", {"stock": "last"}),
    ("heuristic", {}),
    ("mc", {"playouts": 2, "depth": 40}),
    ("mc+heuristics", {"playouts": 2, "depth": 40}),
    ("hindsight", {"worlds": 2, "nodes": 150}),
]


@pytest.mark.parametrize(("player", "options"), FAIR)
def test_a_fair_player_plays_two_deals_alike_until_they_look_different(player: str, options: dict) -> None:
    """Two deals that differ only in hidden cards, played in lockstep by players with the same random
    stream: while the observations are equal the moves are equal, so no hidden card reached a choice. The
    deals do come to look different (a turned card), so the test does end on a reveal, not a cap."""
    a_inst = deal("klondike", 21)
    b_inst = _permute_hidden(a_inst, 3)
    ea, eb = Engine(a_inst), Engine(b_inst)
    pa, pb = make_player(player, **options), make_player(player, **options)
    ra, rb = random.Random(5), random.Random(5)
    history: tuple = ()
    for step in range(60):
        oa = observe(ea, ea.legal_moves(), history)
        ob = observe(eb, eb.legal_moves(), history)
        if oa != ob:
            assert step > 0
            return
        ma, mb = pa.choose(oa, ra), pb.choose(ob, rb)
        assert ma == mb and ma is not None
        ea.apply(ma)
        eb.apply(mb)
        history += (ma,)
    pytest.fail("the two deals never came to look different in 60 moves")


def test_every_player_has_a_version_and_the_store_keys_on_it(tmp_path) -> None:
    """A changed player (a new version) does not resume the rows of the old one."""
    assert all(isinstance(player_version(p), int) for p in PLAYERS)
    store = open_play_store(tmp_path / "p.sqlite")
    old = batch_key("klondike", {}, "portable", "random", {}, 1000, None, 1)
    new = batch_key("klondike", {}, "portable", "random", {}, 1000, None, 2)
    store.add(old, GameRecord(1, "won", 52, 100, 0.1))
    assert set(store.done(old, [1])) == {1}
    assert store.done(new, [1]) == {}
    store.close()


def test_mc_heuristics_is_mc_with_table_6_1_ties_and_replays() -> None:
    p = make_player("mc+heuristics")
    assert p.name == "mc+heuristics" and p.tiebreak == "heuristics" and not p.peeks
    task = PlayTask("klondike", {}, "portable", 4, "mc+heuristics", {"playouts": 2, "depth": 40}, 50,
                    keep_moves=True)  # fmt: skip
    a, b = play_task(task), play_task(task)
    assert a.solution == b.solution and a.moves > 0


def test_table_6_1_rewards() -> None:
    """Aces and Deuces home rank above everything; opening a face-down card beats a plain transfer."""
    e = Engine(deal("klondike", 2))
    rng = random.Random(2)
    seen: dict[str, set[int]] = {"ace-home": set(), "opens": set(), "plain": set(), "stock": set()}
    for _ in range(400):
        legal = e.legal_moves()
        if not legal:
            break
        obs = observe(e, legal)
        lk = _Tables.get(obs)[1]
        for m in legal:
            r = reward(lk, obs, m)
            src, si, dst, _di, cnt = m
            if src == STOCK:
                seen["stock"].add(r)
            elif dst == FOUNDATION and src in (WASTE, TABLEAU):
                card = obs.waste[-1] if src == WASTE else obs.piles[si][-1]
                if e.rank[card] <= 2:
                    seen["ace-home"].add(r)
            elif src == TABLEAU and dst == TABLEAU and obs.piles[m[3]]:
                face_up = len(obs.piles[si]) - obs.down[si]
                key = "opens" if cnt == face_up and obs.down[si] else "plain" if cnt == face_up else None
                if key:
                    seen[key].add(r)
        e.apply(rng.choice(legal))
    assert seen["ace-home"] and seen["ace-home"] <= {15, 20}
    assert seen["opens"] == {12} and seen["plain"] <= {5}
    assert seen["stock"] and seen["stock"] <= {3, 20}


def _cards(e: Engine) -> list[int]:
    return sorted([c for p in e.piles for c in p] + e.stock + e.waste + [c for f in e.found for c in f])


def test_repair_makes_a_world_show_what_the_player_sees() -> None:
    """A sampled world played on through reveals is repaired by swaps to match the observation again, and
    its hidden cards stay a permutation of the unseen ones."""
    inst = deal("klondike", 6)
    e = Engine(inst)
    obs = observe(e, e.legal_moves())
    boards = Boards.for_observation(obs)
    w = boards.engine(sample_world(obs, boards.rules, random.Random(1)))
    rng = random.Random(8)
    repaired = 0
    for _ in range(80):
        legal = e.legal_moves()
        if not legal:
            break
        m = rng.choice(legal)
        e.apply(m)
        w.apply(m)
        obs = observe(e, e.legal_moves())
        if _visible(observe(w, ())) != _visible(obs):
            assert _repair(w, obs)
            repaired += 1
        assert _visible(observe(w, ())) == _visible(obs)
        assert _cards(w) == _cards(e)  # the same 52 cards, only hidden ones placed differently
    assert repaired >= 3


def test_hindsight_on_the_true_deal_wins_from_the_search() -> None:
    """'shuffled-once' (one world, the true deal) with planning search: a deal the search wins is won."""
    from patience.play.game import play_game

    rec = play_game(deal("klondike", 4), HindsightPlayer(mode="shuffled-once", nodes=3000), random.Random(0))
    assert rec.won and rec.home == 52
