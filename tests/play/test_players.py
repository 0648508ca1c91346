"""Players: the safe-move test agrees with the dominance module, Monte Carlo modes, option errors."""

from __future__ import annotations

import random

import pytest

from patience.deals import deal
from patience.engine import FOUNDATION, STOCK, Engine
from patience.play.observation import observe, world_of
from patience.play.players import (
    HeuristicPlayer,
    MonteCarloPlayer,
    _Tables,
    donkersteeg_safe_move,
    make_player,
    safe_home_move,
)
from patience.solvers.dominance import Dominances, applicable


def test_safe_home_move_is_the_dominance_test_where_it_is_proven() -> None:
    """On FreeCell (safe_home applicable) the player's test picks exactly the forced move of the dominance's
    builders test (Klaver's rule; without worrying back the dominance also passes cards by its closure test,
    which the players leave out so that their stored games keep their meaning)."""
    assert "safe_home" in applicable(deal("freecell", 1, "ms").rules)
    fired = 0
    for seed in range(1, 16):
        e = Engine(deal("freecell", seed, "ms"))
        dom = Dominances(e, ("safe_home",))
        assert dom.alt_receivers is not None
        dom.alt_receivers = None  # the builders test alone
        rng = random.Random(seed)
        for _ in range(150):
            legal = e.legal_moves()
            if not legal or e.is_won():
                break
            obs = observe(e, legal)
            got = safe_home_move(_Tables.get(obs)[1], obs)
            assert got == dom.forced(legal)
            fired += got is not None
            e.apply(got or rng.choice(legal))
    assert fired >= 20


def test_donkersteeg_plays_aces_and_deuces_from_the_waste_too() -> None:
    e = Engine(deal("klondike", 1))
    lk = None
    for _ in range(200):
        legal = e.legal_moves()
        obs = observe(e, legal)
        lk = lk or _Tables.get(obs)[1]
        m = donkersteeg_safe_move(lk, obs)
        if m is not None and m[0] == 5:  # from the waste
            assert m[2] == FOUNDATION and e.rank[e.waste[-1]] <= 2
            assert safe_home_move(lk, obs) != m  # the proven test never takes a waste card
            return
        stock = [x for x in legal if x[0] in (STOCK, 5) and x[2] in (STOCK, 5)]
        e.apply(stock[0] if stock else legal[0])
    pytest.fail("no Ace or Deuce reached the waste top in 200 stock turns")


def test_heuristic_turns_the_stock_first() -> None:
    e = Engine(deal("klondike", 3))
    m = HeuristicPlayer().choose(observe(e, e.legal_moves()), random.Random(0))
    assert m is not None and m[0] == STOCK


def test_reshuffle_ignores_the_truth_and_shuffled_once_needs_it() -> None:
    e = Engine(deal("klondike", 11))
    obs = observe(e, e.legal_moves())
    fair = MonteCarloPlayer(playouts=2, depth=30)
    bogus = world_of(Engine(deal("klondike", 12)))
    assert fair.choose(obs, random.Random(1)) == fair.choose(obs, random.Random(1), bogus)
    cheat = MonteCarloPlayer(playouts=2, depth=30, mode="shuffled-once")
    assert cheat.peeks and not fair.peeks
    # Only a position with a real choice simulates; find one by turning the stock.
    while len(obs.moves) < 2 or donkersteeg_safe_move(_Tables.get(obs)[1], obs) is not None:
        e.apply(next(m for m in obs.moves if m[0] in (STOCK, 5)))
        obs = observe(e, e.legal_moves())
    with pytest.raises(ValueError, match="true state"):
        cheat.choose(obs, random.Random(1))
    assert cheat.choose(obs, random.Random(1), world_of(e)) in obs.moves


def test_make_player_errors_name_the_choices() -> None:
    with pytest.raises(ValueError, match="unknown player 'smart'.*random, heuristic, mc"):
        make_player("smart")
    with pytest.raises(ValueError, match="unknown option 'playouts'.*auto_safe, moves"):
        make_player("random", playouts=3)
    with pytest.raises(ValueError, match="mode 'twice'"):
        make_player("mc", mode="twice")
    with pytest.raises(ValueError, match="moves 'some'"):
        make_player("random", moves="some")


def test_heuristic_demotes_the_stock_after_a_fruitless_pass() -> None:
    """With a King ready and a pile to empty, the heuristic turns the stock until a whole pass has gone by
    with nothing played (its history says so), then takes the lower-priority move instead."""
    e = Engine(deal("klondike", 3))
    obs = observe(e, e.legal_moves())
    lk = _Tables.get(obs)[1]
    from patience.play.players import _fruitless_pass

    assert not _fruitless_pass(lk, obs)
    turns = -(-24 // 3) + 1
    stock_turn = next(m for m in obs.moves if m[0] == STOCK)
    passed = observe(e, e.legal_moves(), (stock_turn,) * turns)
    assert _fruitless_pass(lk, passed)
    short = observe(e, e.legal_moves(), (stock_turn,) * (turns - 1))
    assert not _fruitless_pass(lk, short)
    mixed = observe(e, e.legal_moves(), (stock_turn,) * (turns - 1) + ((0, 1, 0, 2, 1),))
    assert not _fruitless_pass(lk, mixed)


def test_hindsight_keeps_its_worlds_consistent_and_replays() -> None:
    from patience.play.game import play_game
    from patience.play.players import HindsightPlayer, _visible

    player = HindsightPlayer(worlds=2, nodes=200)
    inst = deal("klondike", 9)
    e = Engine(inst)
    rng = random.Random(4)
    history: tuple = ()
    for _ in range(25):
        obs = observe(e, e.legal_moves(), history)
        m = player.choose(obs, rng)
        assert m in obs.moves
        for w in player._pool:  # every world shows exactly what the player sees
            assert _visible(observe(w.engine, ())) == _visible(obs)
        e.apply(m)
        history += (m,)
    a = play_game(inst, HindsightPlayer(worlds=2, nodes=200), random.Random(1), max_moves=40)
    b = play_game(inst, HindsightPlayer(worlds=2, nodes=200), random.Random(1), max_moves=40)
    assert a.solution == b.solution


def test_hindsight_on_the_true_deal_follows_a_found_win() -> None:
    """'shuffled-once' searches the true deal: on a deal its search wins within the budget, it wins (and
    play_game has replayed the win in the validator)."""
    from patience.play.game import play_game
    from patience.play.players import HindsightPlayer

    rec = play_game(deal("klondike", 5), HindsightPlayer(mode="shuffled-once"), random.Random(0))
    assert rec.won and rec.home == 52


def _decision(seed: int, player: object, rng: random.Random, upto: int = 60) -> tuple:
    """Play ``player`` on Klondike ``seed`` until it first scores candidates (a choice the safe-move rule and
    a lone move do not make); (engine, history, observation) at that decision, before it is made."""
    import patience.play.players as P

    e = Engine(deal("klondike", seed))
    history: tuple = ()
    lk = _Tables.get(observe(e, e.legal_moves()))[1]
    for _ in range(upto):
        obs = observe(e, e.legal_moves(), history)
        cands = P._choosable(lk, obs, "auto")
        if len(obs.moves) > 1 and donkersteeg_safe_move(lk, obs) is None and len(cands) > 1:
            return e, history, obs
        m = player.choose(obs, rng, world_of(e) if player.peeks else None)  # type: ignore[attr-defined]
        e.apply(m)
        history += (m,)
    raise AssertionError("no scored decision")


def test_hindsight_scores_every_candidate_that_can_still_lead(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each candidate is searched from its child in each world (once) until its wins plus the worlds left
    fall below the most wins; the move played has the most wins of a full scoring (every candidate in every
    world); every line kept starts with its candidate and replays to a win in its world."""
    import patience.play.players as P

    player = P.HindsightPlayer(worlds=3, nodes=3000)
    rng = random.Random(2)
    e, history, obs = _decision(5, player, rng)
    calls: list[int] = []
    real = P._search

    def spy(engine: Engine, how: str, nodes: int) -> tuple:
        calls.append(id(engine))
        return real(engine, how, nodes)

    monkeypatch.setattr(P, "_search", spy)
    cands = P._choosable(_Tables.get(obs)[1], obs, "auto")
    m = player.choose(obs, rng)
    assert m in cands
    assert len(player._pool) == 3
    full: dict = {c: 0 for c in cands}
    for w in player._pool:  # the first scored decision: every world is fresh, none has a plan yet
        assert 1 <= calls.count(id(w.engine)) <= len(cands)
        for c in cands:
            w.engine.apply(c)
            full[c] += real(w.engine, "dfs-jit", 3000)[0]
            w.engine.undo()
        for first, line in w.lines.items():
            assert line[0] == first and first in cands
            assert P._still_wins(w.engine, line)
    assert calls.count(id(player._pool[0].engine)) == len(cands)  # the first world searches them all
    assert full[m] == max(full.values()) >= 1
    count = {c: sum(c in w.lines for w in player._pool) for c in cands}
    assert count[m] == full[m]


def test_hindsight_searches_a_state_once_a_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Worlds that coincide and positions met again share one search (the cache is exact: a search is
    deterministic), so no state is searched twice in a game."""
    import patience.play.players as P
    from patience.play.game import play_game

    seen: list[tuple] = []
    real = P._search

    def spy(engine: Engine, how: str, nodes: int) -> tuple:
        seen.append(engine.snapshot())
        return real(engine, how, nodes)

    monkeypatch.setattr(P, "_search", spy)
    play_game(deal("klondike", 9), P.HindsightPlayer(worlds=3, nodes=200), random.Random(1), max_moves=60)
    assert len(seen) > 20 and len(set(seen)) == len(seen)


def test_hindsight_follows_a_plan_once_nothing_is_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    """With every card face up and the stock seen, every world is the true state: once a search has found a
    win, the player follows it to the end without another search (and wins)."""
    import patience.play.players as P

    e = Engine(deal("klondike", 5))
    piles, _down, *rest, redeals = e.snapshot()
    e.load((piles, (0,) * len(piles), *rest, 1))  # all face up, stock seen (a pass made)
    player = P.HindsightPlayer(worlds=4, nodes=3000)
    rng = random.Random(0)
    calls: list[int] = []
    real = P._search

    def spy(engine: Engine, how: str, nodes: int) -> tuple:
        calls.append(len(history))
        return real(engine, how, nodes)

    monkeypatch.setattr(P, "_search", spy)
    history: tuple = ()
    planned = None
    for _ in range(300):
        if e.is_won():
            break
        obs = observe(e, e.legal_moves(), history)
        assert obs.hidden_places() == 0
        m = player.choose(obs, rng)
        if planned is None and any(w.plan for w in player._pool):
            planned = len(history)
        e.apply(m)
        history += (m,)
    assert e.is_won() and planned is not None
    assert calls and max(calls) <= planned  # no search after the first plan


def test_hindsight_follows_its_line_without_searching_it_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the true deal ('shuffled-once') a line found for the move played becomes the world's plan; at the
    next decision that plan's move is scored a win without a search, the other candidates are searched."""
    import patience.play.players as P

    player = P.HindsightPlayer(mode="shuffled-once", nodes=5000)
    rng = random.Random(0)
    e, history, obs = _decision(5, player, rng)
    m = player.choose(obs, rng, world_of(e))
    (w,) = player._pool
    assert m in w.lines  # the search found a win after the move played, on the true deal
    line = w.lines[m]
    e.apply(m)
    history += (m,)
    calls: list[object] = []
    monkeypatch.setattr(P, "_search", lambda eng, how, n: (calls.append(eng.key()), (False, False, [], 0))[1])
    obs = observe(e, e.legal_moves(), history)
    nxt = player.choose(obs, rng, world_of(e))
    assert w.plan == line[1:] or not calls  # synced: the line's tail is the plan
    lk = _Tables.get(obs)[1]
    cands = P._choosable(lk, obs, "auto")
    if len(obs.moves) > 1 and donkersteeg_safe_move(lk, obs) is None and len(cands) > 1:
        assert len(calls) == len(cands) - 1  # every candidate but the plan's
        assert nxt == line[1]  # the only candidate that wins
