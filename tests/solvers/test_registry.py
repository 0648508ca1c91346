"""The backend registry: light support predicates chosen by rule features, the extras they need, entries
that answer without importing a backend (and agree with the classes), and pickle for workers."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

import pytest

from patience.rules import list_games, load_game
from patience.shrink import ShrinkError, shrink_rules
from patience.solvers import base, registry
from patience.solvers.base import get_solver
from patience.solvers.registry import (
    CSP_MAX_CARDS,
    GAPS_KERNEL_MAX_REDEALS,
    Entry,
    csp_supports,
    engine_supports,
    gaps_family,
    gaps_kernel_supports,
    hole_family,
    hole_prefers,
    kernel_supports,
    planner_supports,
    rearrangement_prefers,
    row_kernel_supports,
    several_holes_prefers,
)

HOLE = {"engine_supports", "hole_prefers", "hole_family"}
PREDICATES = (
    engine_supports,
    hole_prefers,
    rearrangement_prefers,
    hole_family,
    csp_supports,
    gaps_family,
    several_holes_prefers,
    gaps_kernel_supports,
    kernel_supports,
    planner_supports,
    row_kernel_supports,
)
GAPS_JIT = {"engine_supports", "gaps_kernel_supports"}


@pytest.mark.parametrize(
    ("game", "over", "true"),
    [
        ("black-hole", {}, HOLE),
        # csp: one hole and at most CSP_MAX_CARDS cards (20 in, 21 out)
        ("black-hole", {"suits": 4, "ranks": 5, "piles": 19}, HOLE | {"csp_supports"}),
        ("black-hole", {"suits": 3, "ranks": 7, "piles": 20}, HOLE),
        ("binary-star", {}, HOLE | {"several_holes_prefers"}),  # two holes: the hole portfolio
        ("worm-hole", {}, HOLE),  # a free cell: the hole search and cpsat take it
        ("golf-solvitaire", {}, {"engine_supports", "hole_prefers"}),  # a stock onto the hole: not cpsat
        ("gaps-basic-variant", {}, GAPS_JIT | {"gaps_family"}),
        ("gaps", {}, GAPS_JIT),  # redeals: outside cpsat-gaps, inside gaps-jit
        # gaps-jit tables each redeal's permutations: at most GAPS_KERNEL_MAX_REDEALS of them
        ("gaps", {"gaps.redeals": GAPS_KERNEL_MAX_REDEALS}, GAPS_JIT),
        ("gaps", {"gaps.redeals": GAPS_KERNEL_MAX_REDEALS + 1}, {"engine_supports"}),
        # the compiled kernel's games; the PDDL planner's are those PDDL can state (face-down cards cannot)
        ("freecell", {}, {"engine_supports", "rearrangement_prefers", "kernel_supports", "planner_supports"}),
        ("klondike", {}, {"engine_supports", "rearrangement_prefers", "kernel_supports"}),
        # row games: row-jit's key needs distinct tops, so one deck
        ("accordion", {}, {"engine_supports", "row_kernel_supports"}),
        ("accordion-knuth", {}, {"engine_supports", "row_kernel_supports"}),
        ("accordion", {"decks": 2, "piles": 104}, {"engine_supports"}),
    ],
)
def test_predicates_follow_the_rules(
    game: str, over: dict, true: set[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # planner_supports as if a planner were installed: the rules decide, not this machine's packages
    monkeypatch.setattr(registry, "available_engines", lambda: ["pyperplan"])
    rules = load_game(game, over).rules
    assert {f.__name__ for f in PREDICATES if f(rules)} == true
    d = rules.deck
    assert csp_supports(rules) <= (d.suits * d.ranks * d.decks <= CSP_MAX_CARDS)


@pytest.mark.parametrize(
    ("game", "over", "picked"),
    [("black-hole", {}, "dfs"), ("binary-star", {}, "hole-portfolio"), ("worm-hole", {}, "dfs"),
     ("freecell", {}, "portfolio"), ("gaps-basic-variant", {}, "gaps-jit"), ("accordion", {}, "row-jit")],
)  # fmt: skip
def test_auto_picks(game: str, over: dict, picked: str) -> None:
    """auto's choice per rule features: several holes go to the hole search then CP-SAT's model."""
    assert base._pick_auto(load_game(game, over).rules).name == picked


def test_the_planner_needs_unified_planning_and_an_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Which planners count as installed is read from the import system (nothing is imported)."""
    rules = load_game("freecell").rules
    for present, engines in [
        (set(), []),
        ({"up_pyperplan"}, []),  # an engine without unified-planning itself
        ({"unified_planning"}, []),
        ({"unified_planning", "up_pyperplan"}, ["pyperplan"]),
        ({"unified_planning", "up_pyperplan", "up_fast_downward"}, ["fast-downward", "pyperplan"]),
    ]:
        monkeypatch.setattr(registry.importlib.util, "find_spec", lambda name, p=present: name in p or None)
        registry.importable.cache_clear()  # answers are kept a process; this fakes the import system
        assert registry.available_engines() == engines
        assert registry.planner_supports(rules) is bool(engines)
    monkeypatch.undo()
    registry.importable.cache_clear()
    assert not Entry("x", "m", "C", requires=("no_such_package_zz",)).installed()
    assert Entry("x", "m", "C", requires=("json",)).installed()


# The registry answers without importing backends ---------------------------------------------------
HEAVY = ["ortools", "numba", "constraint", "unified_planning"]
BACKEND_MODULES = sorted({e.module for e in base.BACKENDS.values()})


@pytest.mark.parametrize("game", ["black-hole", "freecell", "gaps-basic-variant", "accordion"])
def test_support_questions_import_no_backend(game: str) -> None:
    """supporting_backends, unsupported_reason and auto's pick load neither a backend nor its solver."""
    code = (
        "import json, sys\n"
        "from patience.rules import load_game\n"
        "from patience.solvers import base\n"
        f"rules = load_game({game!r}).rules\n"
        "out = [base.supporting_backends(rules), base.unsupported_reason(rules, 'g', 'auto'),\n"
        "       base.unsupported_reason(rules, 'g', 'cpsat'), base._pick_auto(rules).name]\n"
        "print(json.dumps([out, sorted(sys.modules)]))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    (listed, auto_reason, _, picked), modules = json.loads(proc.stdout)
    assert auto_reason is None and picked in listed
    loaded = {m.split(".")[0] for m in modules} & set(HEAVY)
    assert not loaded, f"imported {sorted(loaded)}"
    assert not set(BACKEND_MODULES) & set(modules)
    assert listed == base.supporting_backends(load_game(game).rules)


@pytest.mark.parametrize("name", list(base.BACKENDS))
def test_light_predicates_agree_with_the_classes(name: str) -> None:
    """Each entry's predicate and its class's supports() say the same on every game model."""
    entry = base.BACKENDS[name]
    if not entry.installed():
        pytest.skip(f"{name}: {entry.requires} not installed")
    solver = get_solver(name)
    rule_sets = [(g.name, g.rules) for g in list_games()]
    for g in list_games():  # small decks too: csp's size limit, cpsat-gaps' grids
        try:
            rule_sets.append((f"{g.name} shrunk", shrink_rules(g.rules, 14)))
        except ShrinkError:
            pass
    for game, rules in rule_sets:
        assert base._admits(entry, rules) == solver.supports(rules), (name, game)


def test_entries_pickle_for_workers() -> None:
    for entry in base.BACKENDS.values():
        assert pickle.loads(pickle.dumps(entry)) == entry
