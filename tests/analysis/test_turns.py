"""Direction changes of a hole line, and the few-turns line: legal, never more changes than dfs's line,
and the fewest on small deals (against a brute force over every line)."""

from __future__ import annotations

import pytest

from patience.analysis.shuffles import _play, study
from patience.analysis.turns import direction_changes, few_turns_line
from patience.deals import deal
from patience.engine import Engine
from patience.validate import replay

SMALL = {"suits": 2, "ranks": 5, "piles": 3}  # Black Hole with 9 cards
MID = {"suits": 4, "ranks": 7, "piles": 9}  # 28 cards: dfs's lines turn more than the fewest


@pytest.mark.parametrize(
    ("ranks", "want"),
    [([1, 2, 3, 2, 1], 1), ([1, 13, 12, 11], 0), ([12, 13, 1, 2], 0), ([1, 2, 1, 2], 2), ([5], 0)],
)
def test_direction_changes(ranks: list[int], want: int) -> None:
    assert direction_changes(ranks, 13) == want


def _turns_of(inst, moves) -> int:
    """Direction changes read off the JSON moves' cards (not from the search's own count)."""
    ranks = [inst.layout.foundations[0][0].rank] + [inst.deck.parse(m["card"]).rank for m in moves]
    return direction_changes(ranks, inst.rules.deck.ranks)


def test_few_turns_lines_are_legal_and_turn_less() -> None:
    """PySol-dealt Black Hole 1-6: each few-turns line replays to the same outcome as dfs's line, with
    no more direction changes, and fewer in all."""
    fewer = 0
    for seed in range(1, 7):
        inst = deal("black-hole", seed, "pysol")
        st, search, t_search, _ = _play(inst, 10, "search")
        st2, few, t_few, _ = _play(inst, 10, "few-turns", 50_000)
        assert st2 == st and len(few) == len(search)
        rep = replay(inst, few)
        assert rep.ok and rep.won == (st == "solved")
        assert _turns_of(inst, search) == t_search and _turns_of(inst, few) == t_few
        assert t_few <= t_search
        fewer += t_search - t_few
    assert fewer > 0


def _fewest(engine: Engine, target: int) -> int | None:
    """Fewest direction changes over every line reaching ``target`` cards on the hole (None: none), by
    memoised recursion over (pile heights, hole top, last step), without prunes or budgets."""
    R, rank, ok = engine.R, engine.rank, engine.hole_ok
    piles = [[rank[c] for c in p] for p in engine.piles]
    memo: dict[tuple[tuple[int, ...], int, int], int | None] = {}

    def go(h: tuple[int, ...], top: int, last: int, removed: int) -> int | None:
        if removed >= target:
            return 0
        if (h, top, last) not in memo:
            best = None
            for i, x in enumerate(h):
                r = piles[i][x - 1] if x else 0
                if x and r in ok[top]:
                    d = 1 if r == top % R + 1 else -1
                    rest = go(h[:i] + (x - 1,) + h[i + 1 :], r, d, removed + 1)
                    if rest is not None:
                        rest += last != 0 and d != last
                        best = rest if best is None else min(best, rest)
            memo[(h, top, last)] = best
        return memo[(h, top, last)]

    return go(tuple(len(p) for p in piles), rank[engine.found[0][-1]], 0, engine.foundation_cards())


@pytest.mark.parametrize(("size", "seed"), [(SMALL, 2), (SMALL, 4), *((MID, s) for s in range(1, 6))])
def test_few_turns_is_fewest_on_small_deals(size: dict[str, int], seed: int) -> None:
    """Lost deals (SMALL 2 and 4: the most cards dfs removes) and won ones (MID: dfs's lines turn 2-4
    times, the fewest 0-1)."""
    inst = deal("black-hole", seed, overrides=size)
    st, moves, _, _ = _play(inst, 10, "search")
    e = Engine(inst)
    start = e.foundation_cards()
    target = start + len(moves)
    want = _fewest(Engine(inst), target)
    got = few_turns_line(e, target)
    assert got is not None and got.optimal and got.turns == want


def test_study_few_turns_counts_turns() -> None:
    kw = {"overrides": SMALL}
    few = study("black-hole", "gathered", "rows", [1, 2], 8, line="few-turns", **kw)
    search = study("black-hole", "gathered", "rows", [1, 2], 8, line="search", **kw)
    assert all(p.n == 8 and p.line == "few-turns" and p.proven == 8 for p in few)
    assert sum(p.turns for p in few) <= sum(p.turns for p in search)
    with pytest.raises(ValueError, match="line 'straight'"):
        study("black-hole", "gathered", "rows", [1], 1, line="straight", **kw)
