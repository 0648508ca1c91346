"""Explanations of lost deals: a few facts of the deal, in words, that already make it lost.

The facts are those of :mod:`.facts` ("the 7s: 7H (pile 6) waits for 9D 3S 3D; ..."): each a
named set of constraints guarded by one literal of a single CP-SAT model, built once. Then:

1. Core: first a small one (:func:`_grow`): the hole start and the facts holding the most precedences,
   ``GROW`` of them at a time, each set solved briefly; the first proven infeasible gives its core
   (All in a Row #1: 4 ranks in 1 s, where the whole set's core is 12 of 12; the medians at 10 s do not
   move, benchmarks/out/explain_presolve.md). Else one solve with every fact assumed; CP-SAT's
   ``sufficient_assumptions_for_infeasibility`` gives an infeasible subset. (Solving that core again,
   in reverse order, never gave a smaller one on the PySol All in a Row deals: 12-13 of 13 either way,
   so it is not done.)
2. Shrink by deletion: drop one fact, and if the rest is still infeasible keep it dropped (and keep
   only the new core). Each trial has a short limit (first pass at most ``FIRST_PASS`` seconds, then the
   undecided ones again with the time left shared among them); a trial that runs out keeps its fact
   (the explanation is then not proven minimal).
3. Narrow: a kept fact with parts (a rank: one part per covered card of that rank) is shrunk part by
   part the same way, in the time left, so only the cards that matter are named.
4. Verify: a fresh model with only the kept constraints, enforced outright (no assumptions), must be
   proven infeasible; otherwise no explanation is reported. It gets the time the trials leave: at least
   ``VERIFY_SHARE`` of the limit, or twice the longest proof seen (at most half the limit).

The model has no same-rank cuts: their soundness proof needs the direct precedences that a subset of
facts may leave out (the model module), and they slow the trials (docs/cpsat-hole-notes.md). CP-SAT
runs with one worker: assumption cores need it. The trials (steps 1-3) run without presolve: with the
facts as assumptions it removed nothing (the same conflict counts with and without on PySol All in a Row
#1, #13, #20) yet cost about 0.3-0.5 s a solve (#1, every fact: 0.71 s -> 0.22 s), more than the search
of most trials, which take 0.2-0.6 s without it (benchmarks/out/explain_presolve.md). The verification
of step 4 keeps the default presolve, so the verdict does not rest on the trials' settings.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from ...instance import Instance
from ...interrupt import solve_cpsat
from .data import HoleDeal
from .facts import Fact, card_facts, rank_name, vocabulary
from .model import ModelVars, build_model
from .params import parameters

__all__ = ["Explanation", "explain", "explain_deal", "proven_infeasible"]

# The smallest limit of one deletion trial, the largest in the first pass, and the share of the time kept
# for the final verification.
MIN_TRIAL = 0.3
FIRST_PASS = 1.0
STOP_SLACK = 0.2  # seconds past a solve's limit before it is stopped from outside (:func:`_solve`)
VERIFY_SHARE = 0.2
# The small first core (:func:`_grow`): the set sizes tried, each solve's limit, and the share of the
# limit the growing may use before every fact is assumed.
GROW = (4, 6, 9)
GROW_TRIAL = 0.7
GROW_SHARE = 0.25


@dataclass
class Explanation:
    """Facts of a lost deal proven infeasible together (``facts``: their texts; ``kept``: the facts)."""

    facts: list[str]
    kept: list[Fact]
    total: int  # facts in the vocabulary
    minimal: bool  # every fact's removal was proven to leave a feasible set (in the vocabulary's parts)
    seconds: float = 0.0
    trials: int = 0
    stats: dict[str, float] = field(default_factory=dict)


def explain(inst: Instance, seconds: float = 10.0, vocabulary: str = "ranks") -> list[str] | None:
    """The facts, in words, of a lost deal that already make it lost (:func:`explain_deal`), or None."""
    got = explain_deal(inst, seconds, vocabulary)
    return None if got is None else got.facts


class _Facts:
    """One model with a literal per fact and per part; assumption solves over fact keys."""

    def __init__(self, deal: HoleDeal, facts: list[Fact], presolve: bool = False) -> None:
        self.v = build_model(deal, facts=True, symmetry=False)  # its own precedence literals stay free
        self.presolve = presolve  # off: the trials' presolve cost time and removed nothing (module doc)
        m = self.v.model
        self.lit: dict[Any, Any] = {}
        self.fact: dict[Any, Fact] = {}
        for f in facts:
            lit = m.new_bool_var(f"fact_{'_'.join(map(str, f.key))}")
            self._add(f, lit)
        self.trials = 0
        self.proof = 0.0  # the longest infeasibility proof so far (seconds)

    def _add(self, f: Fact, lit: Any) -> None:
        self.lit[f.key], self.fact[f.key] = lit, f
        _enforce(self.v, f, lit)

    def add_parts(self, f: Fact, parts: list[Fact]) -> None:
        """Literals for the parts of ``f``: the fact's literal implies each part's."""
        for p in parts:
            lit = self.v.model.new_bool_var(f"part_{'_'.join(map(str, p.key))}")
            self._add(p, lit)
            self.v.model.add_implication(self.lit[f.key], lit)

    def infeasible(self, keys: list[Any], budget: float) -> tuple[bool | None, list[Any]]:
        """(True, a core among ``keys``) if the facts are infeasible together, False if feasible, None if
        the budget ran out."""
        m = self.v.model
        m.clear_assumptions()
        m.add_assumptions([self.lit[k] for k in keys])
        solver = parameters(budget, 1, self.v.formulation)  # cores need a single worker
        solver.parameters.cp_model_presolve = self.presolve
        t = time.perf_counter()
        status = _solve(solver, m, budget)
        self.trials += 1
        if status == cp_model.INFEASIBLE:
            self.proof = max(self.proof, time.perf_counter() - t)
            core = {lit.index for lit in map(self.lit.get, keys)} & set(
                solver.sufficient_assumptions_for_infeasibility()
            )
            return True, [k for k in keys if self.lit[k].index in core]
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return False, []
        return None, []


def _enforce(v: ModelVars, f: Fact, lit: Any | None) -> None:
    """Add the constraints of ``f`` to the model, guarded by ``lit`` (None: enforced outright)."""
    m = v.model
    for a, c in f.pairs:
        ct = m.add(v.leave[a] < v.leave[c])
        if lit is not None:
            ct.only_enforce_if(lit)
    for h in f.starts:
        start = v.facts[("hole", h)][0]  # build_model(facts=True) guards the hole start by this literal
        if lit is None:
            m.add_bool_or([start])
        else:
            m.add_implication(lit, start)


def proven_infeasible(deal: HoleDeal, kept: list[Fact], seconds: float) -> bool:
    """A fresh model with exactly the constraints of ``kept``, enforced outright, is proven infeasible."""
    v = build_model(deal, facts=True, symmetry=False)  # every precedence and the start left unenforced
    for f in kept:
        _enforce(v, f, None)
    solver = parameters(seconds, 1, v.formulation)
    return _solve(solver, v.model, seconds) == cp_model.INFEASIBLE


def _solve(solver: cp_model.CpSolver, model: cp_model.CpModel, seconds: float) -> Any:
    """Solve, stopped from outside ``STOP_SLACK`` seconds after its limit: under load CP-SAT's own limit
    was overrun several times over (a 5 s trial took 30 s at load 10), which would eat the explanation's
    whole budget."""
    timer = threading.Timer(seconds + STOP_SLACK, solver.stop_search)
    timer.daemon = True
    timer.start()
    try:
        return solve_cpsat(solver, model)
    finally:
        timer.cancel()


def _shrink(
    fs: _Facts,
    core: list[Any],
    left: Callable[[], float],
    fixed: list[Any] = (),  # type: ignore[assignment]
) -> tuple[list[Any], bool]:
    """Deletion: drop each fact of ``core`` in turn while the rest (with ``fixed``) stays infeasible.

    Two passes: the first gives each trial at most ``FIRST_PASS`` seconds (most trials end well within
    it), the second retries the undecided facts with the time left shared among them. Returns the kept
    facts and whether every removal was decided (False: a trial ran out of time, its fact is kept).
    """
    core, fixed, undecided = list(core), list(fixed), set()
    for cap in (FIRST_PASS, None):
        i = 0
        while i < len(core):
            if cap is None and core[i] not in undecided:
                i += 1
                continue
            todo = len(core) - i if cap is not None else sum(k in undecided for k in core[i:])
            budget = left() / max(todo, 1)
            if budget < MIN_TRIAL / 3:
                return core, False
            budget = max(MIN_TRIAL, budget if cap is None else min(cap, budget))
            got, sub = fs.infeasible(fixed + core[:i] + core[i + 1 :], budget)
            if got:
                undecided.discard(core[i])
                sub_set = set(sub)
                core = [k for k in core[:i] + core[i + 1 :] if k in sub_set]
            else:
                (undecided.add if got is None else undecided.discard)(core[i])
                i += 1
        if not undecided:
            break
    return core, not undecided


def _grow(fs: _Facts, keys: list[Any], seconds: float) -> list[Any] | None:
    """A core of a few facts, or None: the hole start and the facts with the most precedences, the first
    ``GROW`` sizes of them in turn, each solved for at most ``GROW_TRIAL`` seconds, within ``seconds``.

    Few facts that already lose are often the most buried ranks; a small feasible set is found quickly,
    so a miss costs little, while the whole set's core holds nearly every fact (module docstring).
    """
    t0 = time.perf_counter()
    order = sorted(keys, key=lambda k: (not fs.fact[k].starts, -len(fs.fact[k].pairs)))
    for size in GROW:
        budget = min(GROW_TRIAL, seconds - (time.perf_counter() - t0))
        if size >= len(order) or budget < MIN_TRIAL:
            return None
        verdict, core = fs.infeasible(order[:size], budget)
        if verdict:
            return core
    return None


def explain_deal(
    inst: Instance,
    seconds: float = 10.0,
    vocabulary_name: str = "ranks",
    presolve: bool = False,
    grow: bool = True,
) -> Explanation | None:
    """A small set of facts of a lost deal, proven infeasible together (module docstring).

    Returns None when the deal is winnable, or when the time runs out before the facts are proven
    infeasible. ``vocabulary_name``: the facts' vocabulary (:mod:`.facts`); ``presolve``: presolve every
    trial, ``grow``: look for a small first core (:func:`_grow`); ``presolve=True, grow=False`` is the
    earlier behaviour, kept for benchmarks/bench_explain.py's comparison.
    """
    t0 = time.perf_counter()
    deal = HoleDeal.from_instance(inst)
    facts = vocabulary(deal, vocabulary_name)
    fs = _Facts(deal, facts, presolve)
    keys = [f.key for f in facts]

    def left() -> float:
        return seconds - (time.perf_counter() - t0)

    # 1. A small core, else one over all the facts (a second, longer solve if the first runs out).
    small = _grow(fs, keys, GROW_SHARE * seconds) if grow else None
    verdict, core = (True, small) if small is not None else fs.infeasible(keys, min(left(), 3.0))
    if verdict is None and left() > 0.05:
        verdict, core = fs.infeasible(keys, left())
    if not verdict:
        return None
    first = time.perf_counter() - t0
    stats = {"first_core": float(len(core)), "first_core_seconds": first, "grown": float(small is not None)}

    # 2. Deletion over the facts, keeping time for the verification: a share of the limit, or twice the
    # longest proof so far if that is more (at most half the limit).
    def trial_time() -> float:
        return left() - min(max(VERIFY_SHARE * seconds, 2 * fs.proof), seconds / 2)

    core, minimal = _shrink(fs, core, trial_time)

    # 3. Narrow the kept facts that have parts (a rank's covered cards) in the time left.
    # ``held[k]``: the assumption keys that stand for kept fact k now (its own, or its kept parts).
    held: dict[Any, list[Any]] = {k: [k] for k in core}
    for k in core:
        parts = _parts(deal, fs.fact[k])
        if len(parts) < 2:
            continue
        if trial_time() <= MIN_TRIAL:
            minimal = False  # its cards were not each tried
            continue
        fs.add_parts(fs.fact[k], parts)
        # The parts together are the fact, so the set stays infeasible (every set kept so far was).
        others = [x for j in core if j != k for x in held[j]]
        held[k], done = _shrink(fs, [p.key for p in parts], trial_time, fixed=others)
        minimal = minimal and done
    kept = [fs.fact[k] if held[k] == [k] else _join(deal, fs.fact[k], [fs.fact[p] for p in held[k]])
            for k in core if held[k]]  # fmt: skip

    # 4. Verify: exactly the kept constraints, in a fresh model.
    if not proven_infeasible(deal, kept, max(left(), 1.0)):
        return None
    texts = [f.text for f in kept] or ["the ranks of the cards cannot be played in one sequence at all"]
    return Explanation(texts, kept, len(facts), minimal, time.perf_counter() - t0, fs.trials, stats)


def _parts(deal: HoleDeal, f: Fact) -> list[Fact]:
    """The parts a fact narrows to: a rank's covered cards (:func:`.facts.card_facts`), else none."""
    if f.key[0] != "rank":
        return []
    return [card_facts(deal, c) for c in range(deal.n) if deal.rank[c] == f.key[1] and deal.above[c] >= 0]


def _join(deal: HoleDeal, f: Fact, parts: list[Fact]) -> Fact:
    """The rank fact ``f`` narrowed to ``parts``: its text names only those cards."""
    r = int(f.key[1])  # type: ignore[call-overload]
    text = f"{rank_name(r, deal.R)}: " + "; ".join(p.text for p in parts)
    return Fact(f.key, text, tuple(pair for p in parts for pair in p.pairs))
