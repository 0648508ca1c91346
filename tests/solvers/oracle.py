"""Test oracles: an exhaustive search with no pruning, small rule-sets of every game, backend runners.

Used by ``test_oracle.py`` (every backend agrees with the brute force on small deals of every game)
and ``test_metamorphic.py`` (relabelling and looser rules never change a verdict the wrong way).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from patience.deals import deal
from patience.engine import CELL, EMPTY, FOUNDATION, TABLEAU, Engine
from patience.instance import Instance
from patience.rules import RuleSet, list_games, load_game
from patience.shrink import shrink
from patience.solvers.base import Backend as Solver
from patience.solvers.base import Limits, Result, get_solver

__all__ = [
    "Backend",
    "BruteForceLimit",
    "backends",
    "brute_force",
    "dominance_names",
    "game_names",
    "run",
    "small_deal",
    "small_overrides",
    "truth",
    "verdict_mix",
]

MAX_STATES = 400_000


class BruteForceLimit(RuntimeError):
    """The exhaustive search met more states than its cap: the rule-set is too big for an oracle."""


def _exact_state(engine: Engine) -> Hashable:
    """The engine's exact state; the redeal count only when it limits what can happen next."""
    snap = engine.snapshot()
    if engine.max_redeals < 0 and not engine.rows:
        return snap[:-1]  # unlimited redeals: the count used so far enables and forbids nothing
    return snap


def brute_force(instance: Instance, max_states: int = MAX_STATES) -> bool:
    """True when the deal can be won, by exhaustive search of every reachable state.

    No pruning of any kind: no dominances, no safe moves, no streamliners, no canonical key (pile
    order, suits and cells all count: the visited set holds the exact :meth:`Engine.snapshot`,
    dropping only the redeal count when redeals are unlimited, since the engine never reads it
    then). Iterative (an explicit stack), so deep games do not hit Python's recursion limit.

    It trusts apply/undo and :meth:`Engine.legal_moves` for the moves it lists, but not the engine's
    symmetry reductions (a move to an empty pile, cell or foundation offered for the first empty one
    only; no whole pile onto an empty pile): :func:`_every_move` adds those moves back, so the oracle
    would catch a wrong claim that two positions are equal up to the order of piles (it did: while
    the stock deals onto the tableau the pile order matters). Raises :class:`BruteForceLimit` past
    ``max_states`` distinct states.
    """
    e = Engine(instance)
    if e.is_won():
        return True
    seen = {_exact_state(e)}
    stack: list[list[Any]] = [_ordered(_every_move(e))]
    while stack:
        moves = stack[-1]
        if not moves:
            stack.pop()
            if stack:
                e.undo()
            continue
        e.apply(moves.pop())
        if e.is_won():
            return True
        s = _exact_state(e)
        if s in seen:
            e.undo()
            continue
        seen.add(s)
        if len(seen) > max_states:
            raise BruteForceLimit(f"{instance.game}: more than {max_states} states")
        stack.append(_ordered(_every_move(e)))
    return False


def _every_move(e: Engine) -> list[Any]:
    """Every legal move, including those :meth:`Engine.legal_moves` leaves out by symmetry: the same
    card or group to every other empty pile, free cell or foundation, and a whole pile onto an empty
    pile where the rules let it move as a unit."""
    moves = e.legal_moves()
    empty = {
        TABLEAU: [i for i, p in enumerate(e.piles) if not p],
        CELL: [i for i, c in enumerate(e.cells) if c == EMPTY],
        FOUNDATION: [i for i, f in enumerate(e.found) if not f],
    }
    out = set(moves)
    for src, si, dst, di, cnt in moves:
        if dst in empty and di in empty[dst]:
            out.update((src, si, dst, j, cnt) for j in empty[dst])
    if empty[TABLEAU]:
        for i, p in enumerate(e.piles):
            if p and e._whole_pile_movable(i):  # the test behind Engine.is_legal for a whole pile
                out.update((TABLEAU, i, TABLEAU, j, len(p)) for j in empty[TABLEAU])
    return list(out)


def _ordered(moves: list[Any]) -> list[Any]:
    """Moves home are tried first and moves off a foundation last (the stack pops from the end).

    Only the order changes, never the set: wins are found sooner, losses still see every state.
    """
    moves.sort(key=lambda m: (m[0] != FOUNDATION) + 2 * (m[2] == FOUNDATION))
    return moves


# Small rule-sets ----------------------------------------------------------------------------------
def game_names() -> list[str]:
    """Every game in models/, the parameter list of the oracle and metamorphic tests."""
    return [g.name for g in list_games()]


# (cards, slack) rungs tried in order: the first whose deals mix wins and losses well enough is used.
# Four suits (kept for red-black building) are tried before two, and one (more ranks) last where the
# rules never look at suits.
LADDER: tuple[tuple[int, float, int | None], ...] = tuple(
    (c, s, k) for k in (None, 2, 1) for c in (14, 12, 18) for s in (0.75, 0.5, 1.0, 0.25)
)
MIX_SEEDS = range(30)
GOOD_MIX = 4  # at least this many won and this many lost of MIX_SEEDS stops the ladder
LADDER_STATES = 100_000  # a rung where some deal has more states is skipped (the oracle must be quick)


@cache
def small_overrides(name: str) -> dict[str, Any]:
    """The game's rules shrunk to 8..20 cards (:func:`patience.shrink.shrink`), every feature kept.

    The size is chosen automatically, never from a per-game table: the rungs of :data:`LADDER`
    (deck size, slack of piles and cells, a cap on suits) are tried in order and the first whose brute-force
    verdicts over :data:`MIX_SEEDS` include :data:`GOOD_MIX` wins and losses is taken; failing that,
    the rung with the best mix (the most of the rarer verdict), first on ties. Rungs where a deal has
    more than :data:`LADDER_STATES` states are skipped. Hidden-information
    games (``thoughtful: false``) get ``thoughtful: true`` too: the oracle then checks the backends
    on their rules, and the tests check separately that the original answers UNSUPPORTED.
    """
    rules = load_game(name).rules
    best: tuple[int, dict[str, Any]] | None = None
    tried: list[dict[str, Any]] = []
    for cards, slack, suits in LADDER:
        over = shrink(rules, cards, slack, suits)
        if not rules.thoughtful:
            over["thoughtful"] = True
        if over in tried or (suits == 1 and _suits_matter(rules)):
            continue
        tried.append(over)
        try:
            won = sum(brute_force(deal(name, s, "portable", over), LADDER_STATES) for s in MIX_SEEDS)
        except BruteForceLimit:
            continue  # too big for a quick oracle at this rung
        rare = min(won, len(MIX_SEEDS) - won)
        if best is None or rare > best[0]:
            best = (rare, over)
        if rare >= GOOD_MIX:
            break
    assert best is not None
    return best[1]


def _suits_matter(rules: RuleSet) -> bool:
    """False for hole games without same-suit or red-black building: one suit loses no rule there."""
    return not (rules.foundations.kind == "hole" and rules.tableau.build in ("none", "any-suit"))


def small_deal(name: str, seed: int, extra: dict[str, Any] | None = None) -> Instance:
    """Portable deal ``seed`` of the small rule-set of ``name`` (plus ``extra`` overrides)."""
    return deal(name, seed, "portable", {**small_overrides(name), **(extra or {})})


@cache
def truth(name: str, seed: int) -> bool:
    """Brute-force verdict of the small deal (cached: several tests ask for the same deals)."""
    return brute_force(small_deal(name, seed))


# Backends -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Backend:
    """A labelled backend configuration and whether it may answer UNKNOWN at oracle sizes."""

    label: str
    make: Callable[[], Solver]
    complete: bool = True  # False: documented incomplete (cpsat-gaps without a proven horizon)


def dominance_names(rules: RuleSet) -> frozenset[str]:
    """The proven dominances sound for ``rules`` (:func:`patience.solvers.dominance.applicable`)."""
    from patience.solvers.dominance import applicable

    return applicable(rules)


def hole_prune_names() -> tuple[str, ...]:
    """Names of the hole search's prunes (:data:`patience.solvers.dfs_hole.HOLE_PRUNES`), if any."""
    from patience.solvers import dfs_hole

    return tuple(getattr(dfs_hole, "HOLE_PRUNES", ()))


def backends(rules: RuleSet, ablate: bool = True) -> list[Backend]:
    """Every backend configuration that supports ``rules``.

    dfs (default; no streamliners; with ``ablate`` each applicable dominance off, and all of them off,
    and for hole games each hole-search prune off, and all off), planning in each mode (with ``ablate``
    each dominance off in mode auto), and the CP/CSP backends, gaps-jit and row-jit where they support the
    rules.
    Ablated dfs runs have the streamliners off, so the complete search alone decides.
    """
    from patience.solvers.dfs import DfsSolver
    from patience.solvers.dfs_hole import hole_search_problem
    from patience.solvers.planning import MODES, PlanningSolver

    out = [Backend("dfs", DfsSolver), Backend("dfs-nostream", lambda: DfsSolver(streamline_share=0))]
    out += [Backend(f"planning-{m}", lambda m=m: PlanningSolver(mode=m)) for m in ("auto", *MODES)]
    hole = hole_search_problem(rules) is None  # dfs takes its hole search (Golf's stock, Worm Hole's cell)
    if ablate and hole:
        prunes = frozenset(hole_prune_names())
        for name in sorted(prunes):
            out.append(Backend(f"dfs-no-{name}", lambda k=prunes - {name}: DfsSolver(hole_prunes=k)))
        if prunes:
            out.append(Backend("dfs-no-prunes", lambda: DfsSolver(hole_prunes=())))
    elif ablate:
        doms = dominance_names(rules)
        for name in sorted(doms):
            keep = doms - {name}
            out.append(Backend(f"dfs-no-{name}", lambda k=keep: DfsSolver(streamline_share=0, dominances=k)))
            out.append(Backend(f"planning-no-{name}", lambda k=keep: PlanningSolver(dominances=k)))
        if doms:
            out.append(Backend("dfs-no-dominance", lambda: DfsSolver(streamline_share=0, dominances=())))
            out.append(Backend("planning-no-dominance", lambda: PlanningSolver(dominances=())))
    for name in ("cpsat", "cpsat-only", "csp", "cpsat-gaps", "gaps-jit", "row-jit"):
        out.append(Backend(name, lambda n=name: get_solver(n), complete=name != "cpsat-gaps"))
    return [b for b in out if b.make().supports(rules)]


def run(solver: Solver, instance: Instance, limits: Limits) -> Result:
    """Solve with one configured backend: :meth:`patience.solvers.base.Backend.solve` checks support
    and counts a claimed win only if the validator replays it (ERROR otherwise)."""
    t0 = time.perf_counter()
    result = solver.solve(instance, limits)
    return replace(result, stats={**result.stats, "wall": time.perf_counter() - t0})


def verdict_mix(name: str, seeds: Iterable[int]) -> tuple[int, int]:
    """(won, lost) counts of the brute force over ``seeds``."""
    seeds = list(seeds)
    won = sum(truth(name, s) for s in seeds)
    return won, len(seeds) - won
