"""Klaver's lost-game studies (patience.analysis.freecell_lost): bounds, exact highest targets, the swap
search and fewest cells, each checked against an independent search of every state."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest

from patience.analysis.freecell_lost import (
    Config,
    anneal,
    fewest_cells,
    highest_target,
    klaver_frame,
    survey,
    upper_bound,
    with_cells,
)
from patience.cards import Card
from patience.deals import deal
from patience.engine import Engine
from patience.instance import Instance, load_instance
from patience.solvers.base import Limits, Status, get_solver

INSTANCES = Path(__file__).parents[2] / "instances" / "freecell"


def brute(inst: Instance, cap: int = 400_000) -> tuple[bool, int]:
    """(won, most cards home) by breadth-first search of every reachable state, no pruning at all."""
    e = Engine(inst)
    seen = {e.key()}
    todo: deque[list] = deque([[]])
    most = e.foundation_cards()
    while todo:
        path = todo.popleft()
        for m in path:
            e.apply(m)
        for m in e.legal_moves():
            e.apply(m)
            most = max(most, e.foundation_cards())
            if e.is_won():
                return True, most
            k = e.key()
            if k not in seen:
                seen.add(k)
                todo.append([*path, m])
            e.undo()
        for _ in path:
            e.undo()
        assert len(seen) < cap, "state space too large for the brute-force check"
    return False, most


def plain_dfs(inst: Instance) -> tuple[Status, int | None]:
    """The uncompiled dfs with every dominance and streamliner off: an independent complete search."""
    r = get_solver("dfs", dominances=frozenset(), streamline_share=0).solve(inst, Limits(seconds=120))
    return r.status, (r.max_cards.best if r.max_cards else None)


def test_config_parse_and_bound():
    assert Config.parse("5-7-4-2") == Config(5, 7, 4, 2)
    assert Config.parse("8-13-4-4").label == "8-13-4-4"
    assert upper_bound(Config()) == 39  # the thesis's 39 for the standard game
    assert upper_bound(Config.parse("8-10-4-1")) == 30
    for bad in ("5-7-4", "a-7-4-2", "5-7-4-2-1", "0-7-4-2", "5--7-4-2"):
        with pytest.raises(ValueError):
            Config.parse(bad)


def test_config_of_a_deal_round_trips():
    cfg = Config.parse("5-7-4-2")
    assert Config.of(deal("freecell", 3, overrides=cfg.overrides)) == cfg


def _lost_seeds(cfg: Config, want: int, limit: int = 200) -> list[int]:
    got = []
    for s in range(1, limit):
        if highest_target(deal("freecell", s, overrides=cfg.overrides)).status == "unsolvable":
            got.append(s)
            if len(got) == want:
                break
    return got


def test_highest_target_is_exact_against_every_state():
    """dfs-jit's max_cards of lost deals equals the brute-force maximum over all reachable states."""
    cfg = Config.parse("4-5-4-1")
    seeds = _lost_seeds(cfg, 4)
    assert len(seeds) == 4
    for s in seeds:
        inst = deal("freecell", s, overrides=cfg.overrides)
        v = highest_target(inst)
        won, most = brute(inst)
        assert not won
        assert v.most == most, s
        assert most <= upper_bound(cfg)


def test_survey_counts_and_histogram():
    cfg = Config.parse("4-5-4-1")
    res = survey(cfg, 1, 20)
    c = res.counts
    assert sum(c.values()) == 20
    lost = [v for v in res.verdicts if v.status == "unsolvable"]
    assert sum(res.histogram.values()) == len(lost) > 0
    assert max(res.histogram) <= upper_bound(cfg)
    data = res.to_json()
    assert data["lost"] == len(lost) and data["lost_seeds"] == [v.seed for v in lost]
    lo, hi = res.loss_interval()
    assert lo <= len(lost) / 20 <= hi
    # The uncompiled dfs agrees deal by deal.
    slow = survey(cfg, 1, 20, backend="dfs")
    assert [(v.status, v.most) for v in slow.verdicts] == [(v.status, v.most) for v in res.verdicts]


def test_with_cells_and_fewest_cells():
    inst = load_instance(INSTANCES / "ms-11982.json")
    assert with_cells(inst, 2).layout.cells == (None, None)
    ans = fewest_cells(inst, max_cells=6)
    assert ans.fewest == 5 and ans.at_least == 5  # Klaver: one extra free cell solves 11982
    assert [v.status for _, v in ans.tried] == ["unsolvable"] * 5 + ["solved"]


def test_klaver_frame_blocks_one_suit():
    cfg = Config.parse("8-10-4-1")
    frame = klaver_frame(cfg)
    assert frame[(0, 0)].rank == 1 and frame[(0, 1)].rank == 10
    assert sorted(c.rank for (p, d), c in frame.items() if d == 0) == list(range(1, 9))


def test_anneal_finds_a_maximal_lost_game_that_a_complete_search_confirms():
    """The swap search reaches the bound on 3-5-4-1; the deal is re-checked by the plain dfs (no
    dominance) and by brute force: lost, and exactly the bound home at most."""
    cfg = Config.parse("3-5-4-1")
    res = anneal(cfg, seed=3, steps=30, candidates=20)
    assert res.maximal and res.best is not None and res.best_most == upper_bound(cfg) == 15
    assert res.trace[-1][2] == res.best_most >= res.start_most
    assert plain_dfs(res.best) == (Status.UNSOLVABLE, 15)
    assert brute(res.best) == (False, 15)
    frame = klaver_frame(cfg)
    assert all(res.best.layout.tableau[p][d] == c for (p, d), c in frame.items())


def test_anneal_refuses_a_won_start():
    cfg = Config.parse("4-5-4-1")
    won = next(
        s for s in range(1, 50) if highest_target(deal("freecell", s, overrides=cfg.overrides)).most is None
    )
    with pytest.raises(ValueError, match="not lost"):
        anneal(cfg, start=deal("freecell", won, overrides=cfg.overrides), steps=1)
    with pytest.raises(ValueError, match="not 5-5-4-1"):
        anneal(Config.parse("5-5-4-1"), start=deal("freecell", won, overrides=cfg.overrides), steps=1)


STORED_MAXIMAL = sorted(INSTANCES.glob("maximal-*.json"))


@pytest.mark.parametrize("path", STORED_MAXIMAL, ids=[p.stem for p in STORED_MAXIMAL])
def test_stored_maximal_lost_games_recheck(path):
    """Every maximal lost game stored in instances/ is lost with the bound home, by the plain dfs."""
    inst = load_instance(path)
    assert plain_dfs(inst) == (Status.UNSOLVABLE, upper_bound(Config.of(inst)))


def test_stored_maximal_lost_games_exist():
    assert {"maximal-3-5-4-1", "maximal-4-6-4-1", "maximal-3-10-4-6"} <= {p.stem for p in STORED_MAXIMAL}


def test_start_frame_keeps_klavers_frame_of_a_given_deal():
    from patience.analysis.freecell_lost import start_frame

    fig30 = load_instance(INSTANCES / "klaver-fig30-a.json").layout.tableau
    frame = start_frame(fig30)
    assert frame[(0, 0)] == Card(1, 3) and frame[(0, 1)] == Card(13, 3)  # KS on AS
    assert len(frame) == 9 and all(c.suit == 3 for c in frame.values())  # the bottom row of spades
    assert start_frame(deal("freecell", 1).layout.tableau) == {}  # no King on its Ace: nothing fixed


@pytest.mark.slow
def test_survey_in_worker_processes_agrees():
    cfg = Config.parse("4-5-4-1")
    here, pool = survey(cfg, 1, 20), survey(cfg, 1, 20, workers=2)
    rows = [[(v.seed, v.status, v.most) for v in r.verdicts] for r in (here, pool)]
    assert rows[0] == rows[1]
