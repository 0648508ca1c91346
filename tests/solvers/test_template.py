"""solvers/TEMPLATE.py, the backend a contributor copies, run through the contract like a registered one."""

from __future__ import annotations

import pytest

from patience.deals import deal
from patience.solvers.base import BACKENDS, Entry, Limits, Reason, Status, get_solver, solve
from patience.solvers.registry import engine_supports

TEMPLATE = Entry("template", "patience.solvers.TEMPLATE", "TemplateBackend", engine_supports)
TINY = {"suits": 2, "ranks": 5, "piles": 3}  # a 10-card Black Hole


def test_template_is_not_registered() -> None:
    assert "template" not in BACKENDS
    assert not any(e.module.endswith("TEMPLATE") for e in BACKENDS.values())


def test_template_agrees_with_dfs_through_the_contract() -> None:
    """Verdicts and proven max cards equal dfs's (hole prunes off) on tiny deals, won and lost."""
    seen = set()
    for seed in range(1, 9):
        inst = deal("black-hole", seed, "portable", TINY)
        got = solve(inst, TEMPLATE, Limits(seconds=10))
        ref = get_solver("dfs", reach=False, hole_prunes=()).solve(inst, Limits(seconds=10))
        assert got.backend == "template" and got.stats["seconds"] >= 0
        assert got.status is ref.status, seed  # SOLVED here means the validator replayed the moves
        if got.status is Status.UNSOLVABLE:
            assert got.max_cards == ref.max_cards and got.stats["max_cards_removed"] == got.max_cards.best
        seen.add(got.status)
    assert seen == {Status.SOLVED, Status.UNSOLVABLE}


def test_template_limits_options_and_refusals() -> None:
    inst = deal("freecell", 1, "ms")
    stopped = get_solver(TEMPLATE).solve(inst, Limits(seconds=10, nodes=50))
    assert stopped.status is Status.UNKNOWN and stopped.reason is Reason.NODES
    assert stopped.message == "node limit" and stopped.stats["nodes"] == 50
    timed = get_solver(TEMPLATE, check_every=1).solve(inst, Limits(seconds=0.0))
    assert timed.status is Status.UNKNOWN and timed.reason is Reason.TIME
    with pytest.raises(ValueError, match=r"^template: unknown option 'chek_every' \(valid: check_every\)$"):
        get_solver(TEMPLATE, chek_every=8)
    with pytest.raises(ValueError, match="check_every must be >= 1"):
        get_solver(TEMPLATE, check_every=0)
    hidden = solve(deal("klondike", 1), TEMPLATE, Limits(seconds=1))
    assert hidden.status is Status.UNSUPPORTED and "hides cards" in hidden.message
