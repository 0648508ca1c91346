"""The backend contract (Backend.solve around _solve), backend choice and the validated solve() entry point
(the registry itself: test_registry.py)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import pytest

from patience.deals import deal
from patience.engine import Engine
from patience.instance import Instance
from patience.rules import RuleSet, list_games, load_game
from patience.solvers import base
from patience.solvers.base import (
    Backend,
    Entry,
    Limits,
    MaxCards,
    Reason,
    Result,
    Status,
    get_solver,
    solve,
)


@dataclass(frozen=True)
class _FakeOptions:
    """What the fake backends do: the moves to claim, a pause, an exception to raise."""

    moves: tuple[dict, ...] = ()
    sleep: float = 0.0
    raise_memory: bool = False
    own_seconds: float | None = None  # a stats["seconds"] the backend tries to set itself


class _Fake(Backend):
    """A fake backend that claims a win with a move list of its choosing; counts its _solve calls."""

    name = "fake"
    Options = _FakeOptions
    calls = 0

    def supports(self, rules: RuleSet) -> bool:
        return rules.deck.suits == 4  # not the 2-suit decks below

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        type(self).calls += 1
        time.sleep(self.options.sleep)
        if self.options.raise_memory:
            raise MemoryError
        stats = {"nodes": 1.0}
        if self.options.own_seconds is not None:
            stats["seconds"] = self.options.own_seconds
        return Result(Status.SOLVED, tuple(self.options.moves), stats)


FAKE = Entry("fake", __name__, "_Fake")
TINY = {"suits": 2, "ranks": 5, "piles": 3}  # a 10-card Black Hole  # no light predicate: the class answers


def test_unknown_backend_lists_valid_ones() -> None:
    with pytest.raises(ValueError, match="valid: auto, cpsat"):
        get_solver("magic")


@pytest.mark.parametrize(
    "game,backend",
    [
        ("freecell", "portfolio"),
        ("klondike-thoughtful", "portfolio"),
        ("gaps-basic-variant", "gaps-jit"),  # compiled dfs for Gaps without redeals
        ("gaps", "gaps-jit"),  # redeals too (their seeded shuffle tabled)
        ("accordion", "row-jit"),  # compiled dfs for row games of one deck
        ("accordion-knuth", "row-jit"),
        ("black-hole", "dfs"),
        ("all-in-a-row", "dfs"),
        ("worm-hole", "dfs"),  # the hole search takes its free cell (registry.hole_prefers)
    ],
)
def test_auto_choice(game: str, backend: str) -> None:
    assert base._pick_auto(load_game(game).rules).name == backend


def test_unvalidated_win_becomes_error() -> None:
    """A claimed win that does not replay is ERROR with the validator's message, by every route."""
    inst = deal("black-hole", 1, "pysol")
    eng = Engine(inst)
    one_move = (eng.move_to_json(eng.legal_moves()[0]),)
    result = _Fake(moves=one_move).solve(inst, Limits(seconds=1))
    assert result.status is Status.ERROR and result.backend == "fake"
    assert "fake returned a solution the validator rejects" in result.message and "not won" in result.message
    bad = ({"from": "tableau:0", "to": "foundation:0"},)
    result = solve(inst, FAKE, Limits(seconds=1))  # no moves at all: not won either
    assert result.status is Status.ERROR and "not won" in result.message
    assert _Fake(moves=bad).solve(inst, Limits(seconds=1)).status is Status.ERROR


def test_memory_error_is_unknown_memory() -> None:
    result = _Fake(raise_memory=True).solve(deal("black-hole", 1, "pysol"), Limits(seconds=1))
    assert result.status is Status.UNKNOWN and result.reason is Reason.MEMORY
    assert result.message == "memory out" and result.solution is None and result.backend == "fake"


def test_seconds_are_set_once_by_the_contract() -> None:
    """The backend's own stats["seconds"] is replaced by the contract's measurement of _solve."""
    inst = deal("black-hole", 1, "pysol")
    result = _Fake(sleep=0.2, own_seconds=-1.0).solve(inst, Limits(seconds=1))
    assert 0.2 <= result.stats["seconds"] < 5.0
    assert result.stats["nodes"] == 1.0  # the backend's other stats are kept


def test_unsupported_never_calls_solve() -> None:
    inst = deal("black-hole", 1, "portable", TINY)
    before = _Fake.calls
    result = _Fake().solve(inst, Limits(seconds=1))
    assert result.status is Status.UNSUPPORTED and _Fake.calls == before
    assert result.message.startswith("fake does not support black-hole; backends that do: cpsat")
    hidden = _Fake().solve(deal("klondike", 1), Limits(seconds=1))
    assert hidden.status is Status.UNSUPPORTED and "hides cards" in hidden.message and _Fake.calls == before
    assert solve(inst, FAKE).status is Status.UNSUPPORTED and _Fake.calls == before
    _Fake().solve(deal("black-hole", 1), Limits(seconds=1))
    assert _Fake.calls == before + 1


def test_solve_is_final() -> None:
    with pytest.raises(TypeError, match="overrides Backend.solve: write _solve instead"):

        class _Sneaky(Backend):  # noqa: B903
            def solve(self, instance: Instance, limits: Limits) -> Result:  # type: ignore[override]
                return Result(Status.SOLVED)

    with pytest.raises(TypeError):
        base.Backend()  # type: ignore[abstract]


def test_options_reject_unknown_names() -> None:
    with pytest.raises(
        ValueError, match=r"^dfs: unknown option 'streamline' \(valid: streamline_share, reach,"
    ):
        get_solver("dfs", streamline=0.5)
    with pytest.raises(ValueError, match="^csp: unknown option 'workers' \\(valid: none\\)$"):
        get_solver("csp", workers=2)
    with pytest.raises(ValueError, match="cpsat: 2 positional options given, takes 1"):
        base.BACKENDS["cpsat"].load()("table", "again")
    with pytest.raises(ValueError, match="unknown search mode"):
        get_solver("planning", mode="dijkstra")
    assert get_solver("dfs", streamline_share=0).options.streamline_share == 0


def test_cpsat_only_is_a_preset_of_cpsat() -> None:
    only, full = get_solver("cpsat-only"), get_solver("cpsat")
    assert type(only) is type(full) and only.name == "cpsat-only" and full.name == "cpsat"
    assert only.options.presearch_nodes == 0 and full.options.presearch_nodes > 0
    assert get_solver("cpsat-only", presearch_nodes=7).options.presearch_nodes == 7  # caller's option wins
    assert solve(deal("black-hole", 2, "portable", TINY), "cpsat-only").backend == "cpsat-only"


def test_get_solver_refuses_classes_outside_the_contract() -> None:
    with pytest.raises(TypeError, match="is not a solvers.base.Backend"):
        get_solver(Entry("plain", __name__, "_FakeOptions"))


def test_result_invariants() -> None:
    with pytest.raises(ValueError, match="reason .* is for UNKNOWN results, not SOLVED"):
        Result(Status.SOLVED, (), reason=Reason.TIME)
    with pytest.raises(ValueError, match="best <= bound"):
        MaxCards(5, 4)
    with pytest.raises(ValueError, match="0 <= best"):
        MaxCards(-1, 4)
    assert MaxCards(3, 3).proven and not MaxCards(3, 4).proven
    out = Result(
        Status.UNKNOWN, stats={"nodes": 2.0}, reason=Reason.NODES, max_cards=MaxCards(3, 4)
    ).to_json()
    assert out["reason"] == "nodes" and out["max_cards"] == {"best": 3, "bound": 4}
    assert "reason" not in Result(Status.SOLVED, ()).to_json()


def test_max_cards_reaches_the_stats_keys_readers_use() -> None:
    """Two independent searches give the same typed max-cards on a lost deal; the contract writes it to
    stats as max_cards_removed / max_cards_bound (what the store, report and CLI read)."""
    lost = deal("black-hole", 2, "portable", TINY)
    got = [
        solve(lost, "cpsat-only", Limits(seconds=10)),
        get_solver("dfs", reach=False).solve(lost, Limits(10)),
    ]
    for r in got:
        assert r.status is Status.UNSOLVABLE and r.max_cards is not None and r.max_cards.proven, r
        assert r.stats["max_cards_removed"] == r.max_cards.best
        assert r.stats["max_cards_bound"] == r.max_cards.bound
    assert got[0].max_cards == got[1].max_cards
    assert 0 < got[0].max_cards.best < 9  # lost: not every card; AS is dealt to the hole


@pytest.mark.parametrize("backend", ["dfs", "planning"])
def test_limits_give_typed_reasons_with_the_same_messages(backend: str) -> None:
    inst = deal("freecell", 11982, "ms")  # lost: neither search ends in seconds
    by_nodes = solve(inst, backend, Limits(seconds=30, nodes=5))
    assert by_nodes.status is Status.UNKNOWN and by_nodes.reason is Reason.NODES
    assert by_nodes.message == {"dfs": "node limit", "planning": "limit reached"}[backend]
    by_time = solve(inst, backend, Limits(seconds=0.05))
    assert by_time.status is Status.UNKNOWN and by_time.reason is Reason.TIME
    assert by_time.message == {"dfs": "time limit", "planning": "limit reached"}[backend]


def test_engine_gaps_several_decks_unsupported() -> None:
    result = solve(deal("gaps", 1, overrides={"decks": 2}), "auto", Limits(seconds=1))
    assert result.status is Status.UNSUPPORTED and "several decks" in result.message


# Hidden information and unsupported pairs ---------------------------------------------------------
HIDDEN = [g.name for g in list_games() if not g.rules.thoughtful]


def test_models_include_hidden_information_games() -> None:
    assert "klondike" in HIDDEN and "klondike-thoughtful" not in HIDDEN


@pytest.mark.parametrize("backend", ["auto", *base.BACKENDS])
@pytest.mark.parametrize("game", HIDDEN)
def test_every_backend_refuses_hidden_information_games(
    game: str, backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """thoughtful: false -> UNSUPPORTED from solve() for every backend, before any backend is loaded."""

    def no_backend(name: str) -> None:
        raise AssertionError(f"backend {name} loaded for a hidden-information game")

    monkeypatch.setattr(base, "get_solver", no_backend)
    result = solve(deal(game, 1), backend, Limits(seconds=1))
    assert result.status is Status.UNSUPPORTED
    assert result.message.startswith(f"{game} hides cards (thoughtful: false)")
    assert result.solution is None and not result.stats
    assert base.supporting_backends(load_game(game).rules) == []


def test_hidden_message_names_the_thoughtful_counterpart() -> None:
    reason = base.unsupported_reason(load_game("klondike").rules, "klondike")
    assert reason is not None and reason.endswith("try klondike-thoughtful")
    overridden = load_game("klondike", {"draw": 1}).rules  # no model has these rules with every card known
    reason = base.unsupported_reason(overridden, "klondike")
    assert reason == (
        "klondike hides cards (thoughtful: false); solvers decide only thoughtful games: "
        "try --set thoughtful=true (the same game with every card known)"
    )
    assert base.hides_cards(overridden)
    assert not base.hides_cards(load_game("klondike", {"thoughtful": True}).rules)
    assert base.unsupported_reason(load_game("klondike", {"thoughtful": True}).rules, "klondike") is None


def test_supporting_backends_and_the_pair_message() -> None:
    bh, fc = load_game("black-hole").rules, load_game("freecell").rules
    assert {"cpsat", "cpsat-only", "dfs"} <= set(base.supporting_backends(bh))
    assert "cpsat-gaps" not in base.supporting_backends(bh)
    assert {"dfs", "planning"} <= set(base.supporting_backends(fc))
    assert not {"cpsat", "cpsat-only", "cpsat-gaps", "csp"} & set(base.supporting_backends(fc))
    reason = base.unsupported_reason(fc, "freecell", "cpsat")
    assert reason == "cpsat does not support freecell; backends that do: " + ", ".join(
        base.supporting_backends(fc)
    )
    assert base.unsupported_reason(fc, "freecell", "dfs") is None
    assert base.unsupported_reason(fc, "freecell") is None
    result = solve(deal("black-hole", 1), "cpsat-gaps", Limits(seconds=1))
    assert result.status is Status.UNSUPPORTED and "backends that do: cpsat" in result.message


class _NeedsExtra(Backend):
    """A backend whose support check needs an optional package that is not installed."""

    name = "needs-extra"

    def supports(self, rules: RuleSet) -> bool:
        raise ImportError("No module named 'some_planner'")

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        raise AssertionError("never called")


def _needs_extra(rules: RuleSet) -> bool:
    raise ImportError("No module named 'some_planner'")


def test_backends_missing_optional_packages_are_not_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A backend whose module, packages or support check fail to import is skipped, by auto too."""
    monkeypatch.setitem(
        base.BACKENDS, "broken", Entry("broken", "patience.solvers.no_such_module", "Nothing")
    )
    monkeypatch.setitem(base.BACKENDS, "needs-extra", Entry("needs-extra", __name__, "_NeedsExtra"))
    monkeypatch.setitem(base.BACKENDS, "light", Entry("light", __name__, "_NeedsExtra", _needs_extra))
    monkeypatch.setitem(base.BACKENDS, "absent", Entry("absent", "x", "y", requires=("no_such_package_zz",)))
    rules = load_game("black-hole").rules
    listed = base.supporting_backends(rules)
    assert "dfs" in listed and not {"broken", "needs-extra", "light", "absent"} & set(listed)
    assert base.unsupported_reason(rules, "black-hole", "needs-extra") == (
        "needs-extra does not support black-hole; backends that do: " + ", ".join(listed)
    )
    assert base._pick_auto(rules) is not None


def test_auto_choice_that_does_not_support_the_rules_is_unsupported(monkeypatch: pytest.MonkeyPatch) -> None:
    """auto's pick is held to the same support check as a named backend."""
    picky = Entry("needs-extra", __name__, "_NeedsExtra")
    monkeypatch.setattr(base, "_pick_auto", lambda rules: picky)
    result = solve(deal("black-hole", 1), "auto", Limits(seconds=1))
    assert result.status is Status.UNSUPPORTED
    assert result.message.startswith("needs-extra does not support black-hole; backends that do: cpsat")


def test_guard_result_tells_the_guards_stops_from_a_real_interrupt():
    """A guard stop is an UNKNOWN with its message, reason and seconds; any other interrupt is not the
    guard's to report (None)."""
    from patience.memguard import MEMORY_OUT, TIME_LIMIT, MemoryGuard
    from patience.solvers.base import Reason, Status, guard_result

    guard = MemoryGuard(None)
    assert guard_result(guard, "dfs", 1.5) is None
    guard.timed_out = True
    r = guard_result(guard, "dfs", 1.5)
    assert (r.status, r.message, r.reason, r.stats["seconds"], r.backend) == (
        Status.UNKNOWN,
        TIME_LIMIT,
        Reason.TIME,
        1.5,
        "dfs",
    )
    guard.timed_out, guard.tripped = False, True
    r = guard_result(guard, "planning", 2.0)
    assert (r.message, r.reason, r.stats["seconds"]) == (MEMORY_OUT, Reason.MEMORY, 2.0)


def test_stopped_words_the_limit_a_search_hit() -> None:
    """The searches' stop words become one message and reason each, for every backend alike."""
    from patience.memguard import MEMORY_OUT

    for stop, message, reason in [("time", "time limit", Reason.TIME), ("nodes", "node limit", Reason.NODES),
                                  ("memory", MEMORY_OUT, Reason.MEMORY), ("odd", "odd", None)]:  # fmt: skip
        r = base.stopped(stop, {"nodes": 3.0}, "x")
        assert (r.status, r.message, r.reason, r.backend, r.stats) == (
            Status.UNKNOWN, message, reason, "x", {"nodes": 3.0}
        )
