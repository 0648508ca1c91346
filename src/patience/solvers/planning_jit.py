"""The ``planning-jit`` backend: ``planning``'s best-first searches compiled on the generic kernel.

The search of :mod:`.generic_kernel.bestfirst` (the informed heuristic of :mod:`.heuristics` on the packed
state, the proven dominances of :mod:`.dominance`, 128-bit keys in the kernel's table) in one of the orders
of :data:`ORDERS`: greedy with FIFO or LIFO ties (``planning``'s greedy, node for node), or weighted A*
(``g + w h``, ``w`` 1, 2 (the weight ``planning``'s ``astar`` mode defaults to) or 3) with FIFO or LIFO
ties and no reopening (a state met again is dropped, as in greedy: only the order changes, so a complete
search keeps the same states and an UNSOLVABLE is as sound).

By default (``ties="race"``) the ``racers``, ``g + 3h`` with FIFO ties and ``g + h`` with LIFO ties, take
turns of :data:`RACE_TURN` expansions until one is decisive (turns counted, not timed: the same race at any
load), each with an equal share of the memory. The pair was chosen on expansions, which are counts and so
the same at any load (benchmarks/out/planning_jit_racers.md):

* MS FreeCell 1-1000, at most 150k expansions an order: the best pairs of 14 orders cost 1.28-1.38M
  expansions (this pair 1.38M), against 1.64M for the former race (``g + 2h`` LIFO with greedy FIFO).
* Out of sample, MS 1001-3000: 2.50M against 3.49M, with every deal decided (the former race left 2).
* Solvitaire's seeds 1-20 of the 40 kernel games, at most 60k an order: 617 deals decided against 607, in
  5% fewer expansions. Thirty Six and Will O' The Wisp lose 1-2 deals; Mrs Mop runs, Stronghold,
  Beleaguered Castle and 7 more gain.

A race costs at most the racers' count times the faster one. ``ties="auto"`` runs greedy the way
``planning``'s ``auto`` mode does: FIFO ties for half the time (left after loading the kernels:
:mod:`.jit_budget`), then, if that is not decisive, LIFO ties from scratch for the rest (each run gets the
whole node limit, as in ``planning``).
Rules: :func:`.generic_kernel.kernel_supports` (``dfs-jit``'s), with the heuristics the kernel's games get
(suit and run foundations); anything else is UNSUPPORTED.

One difference from ``planning`` by default: a waste stock with unlimited redeals is searched with stock
access (:mod:`.stock_access`, as ``dfs`` and ``dfs-jit`` do: a waste card at any reachable position is one
move, the turns are not searched), which ``planning`` does not use; ``stock_access=False`` searches the
engine's own moves, and then the expansions are ``planning``'s, node for node (tests).

Verdicts: a plan is SOLVED (replayed by the validator in :meth:`Backend.solve`); an open list exhausted with
complete duplicate detection (every state generated is kept) is UNSOLVABLE; a limit (seconds, expansions as
``nodes``, the memory budget ``Limits.memory_mb``, default :data:`DEFAULT_MEMORY_MB`, for the node arrays,
the heap and the table) is UNKNOWN. Stats as ``planning`` (``expansions`` = ``nodes``, ``generated``,
``states``, ``open``, ``navigation``, ``safe_moves``, ``cuts_*``, ``plan_length``, ``restarts``) plus
``compiled``, ``jit_s`` (compiling or loading the kernels in this call) and ``peak_mb``.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from dataclasses import dataclass

from ..engine import Engine, moves_to_json
from ..instance import Instance
from ..rules import RuleSet
from .base import Backend, Limits, Result, Status, stopped
from .dominance import DOMINANCES, Dominances, chosen
from .generic_kernel import kernel_supports
from .heuristics import pick_heuristic
from .jit_budget import Kernels

__all__ = ["KERNELS", "PlanningJitOptions", "PlanningJitSolver", "race", "search", "start"]

DEFAULT_MEMORY_MB = 1024
_MB = 1 << 20


def _load() -> None:
    """Compile or load the best-first search and the generic kernel's functions it calls (not the kernel's
    depth-first ``search``: this backend never runs it); imported here, so numba is imported only by a
    compiled solve."""
    from .generic_kernel import bestfirst

    bestfirst.warm_up()


def _entries() -> list[object]:
    from .generic_kernel import bestfirst

    return bestfirst.entry_points()


# Loaded once a process (:mod:`.jit_budget`); from a cold cache the best-first search's compile took 74 s at a
# load of 5-6 on 2 cores (benchmarks/out/cold_cache_guard.md).
KERNELS = Kernels(_load, _entries, compile_s=75.0, name="planning-jit")
# The search orders: (lifo, (ha, gd)) for bestfirst.steps; the "w" ones are weighted A* (weight 2, ties FIFO
# or LIFO, no reopening: a search-order change only, duplicates dropped as in greedy).
# order: (LIFO ties, bestfirst's (ha, gd)); a node's bucket is ha * 2h + gd * g, so weight 2 * ha / gd on h.
ORDERS: dict[str, tuple[bool, tuple[int, int]]] = {
    "fifo": (False, (1, 0)),  # greedy
    "lifo": (True, (1, 0)),
    "wfifo": (False, (1, 1)),  # g + 2h
    "wlifo": (True, (1, 1)),
    "w3fifo": (False, (3, 2)),  # g + 3h
    "w1lifo": (True, (1, 2)),  # g + h
}
TIES = ("race", "auto", *ORDERS)
RACERS = ("w3fifo", "w1lifo")  # the default race (module docstring)
# Expansions a racer's turn: counted, not timed, so a race takes the same turns at any load (a node limit
# gives the same answer every run). About 4-8 ms compiled, 0.1-0.2 s uncompiled (the deadline's grain).
RACE_TURN = 2048
_FIRED = ("fired_deal", "fired_home", "fired_partial", "fired_return")  # run()'s counts, DOMINANCES order


@dataclass(frozen=True)
class PlanningJitOptions:
    """``ties``: ``race`` (the ``racers`` taking turns: :func:`race`), ``auto`` (FIFO for half the time, then
    LIFO, as ``planning``), or one order of :data:`ORDERS` alone; ``racers``: orders; ``dominances`` as
    :class:`.planning.PlanningOptions`; ``stock_access`` (module docstring); ``jit`` False runs the search
    uncompiled (as ``PATIENCE_NO_JIT=1`` does)."""

    ties: str = "race"
    racers: tuple[str, ...] = RACERS
    dominances: frozenset[str] | None = None
    stock_access: bool = True
    jit: bool = True

    def __post_init__(self) -> None:
        if self.ties not in TIES:
            raise ValueError(f"unknown ties {self.ties!r} (one of {', '.join(TIES)})")
        bad = [r for r in self.racers if r not in ORDERS] or ([] if self.racers else ["none"])
        if bad:
            raise ValueError(f"unknown racer {bad[0]!r} (racers from {', '.join(ORDERS)})")
        object.__setattr__(self, "dominances", chosen(self.dominances))


class PlanningJitSolver(Backend):
    """Compiled greedy best-first search for the kernel's games (module docstring)."""

    name = "planning-jit"
    kernels = KERNELS
    Options = PlanningJitOptions
    options: PlanningJitOptions

    def supports(self, rules: RuleSet) -> bool:
        """The kernel's rule features (:func:`.generic_kernel.kernel_supports`)."""
        return kernel_supports(rules)

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        opts = self.options
        t0 = time.perf_counter()
        engine = Engine(instance)
        heur = pick_heuristic(engine).name
        if heur not in ("suits", "runs"):  # not met with the kernel's rules today; never guess one
            return Result(Status.UNSUPPORTED, None, {}, self.name, f"no compiled {heur!r} heuristic")
        if engine.is_won():
            return Result(Status.SOLVED, [], {"nodes": 0.0, "expansions": 0.0}, self.name)
        budget = KERNELS.start(opts.jit, t0, limits)  # the runs share the time left after the load
        opts = budget.options(opts)  # jit off if the load was refused
        t1, limits = budget.t0, budget.limits
        outs: list[dict] = []
        if opts.ties == "race":
            outs = race(engine, heur, opts, t1 + limits.seconds, limits)
        else:
            runs = [("fifo", 0.5), ("lifo", 1.0)] if opts.ties == "auto" else [(opts.ties, 1.0)]
            for order, share in runs:
                deadline = t1 + limits.seconds * share
                outs.append(search(engine, heur, opts, order, deadline, limits))
                if outs[-1]["won"] or outs[-1]["complete"] or outs[-1]["stop"] == "memory":
                    break
        last = outs[-1]
        stats: dict[str, float] = {
            k: float(sum(o[k] for o in outs)) for k in ("expansions", "generated", "navigation")
        }
        stats.update(
            nodes=stats["expansions"],
            states=last["states"],
            open=last["open"],
            safe_moves=float(sum(o["fired_home"] + o["fired_deal"] for o in outs)),
            restarts=float(len(outs) - 1),
            compiled=float(any(o["compiled"] for o in outs)),
            jit_s=budget.jit_s,
            peak_mb=max(o["peak_bytes"] for o in outs) / _MB,
            plan_length=float(len(last["moves"]) if last["won"] else -1),
        )
        for name, key in zip(DOMINANCES, _FIRED, strict=True):
            stats[f"cuts_{name}"] = float(last[key])
        if last["won"]:
            from .generic_kernel.pack import to_move

            moves = [to_move(m) for m in last["moves"]]
            return Result(Status.SOLVED, moves_to_json(instance, moves), stats, self.name)
        if last["complete"]:
            return Result(Status.UNSOLVABLE, None, stats, self.name)
        stop = last["stop"]
        return stopped(stop, stats, self.name)


def race(
    engine: Engine, heuristic: str, opts: PlanningJitOptions, deadline: float, limits: Limits
) -> list[dict]:
    """The searches of ``opts.racers`` taking turns, :data:`RACE_TURN` expansions each, each with an equal
    share of the memory budget and the whole node limit, until one is decisive (won or complete: the
    others are dropped) or all stop; their results (a dropped search's: its counts so far), the deciding
    or last one last. A search not yet started when another decides never allocates anything."""
    packed = _pack(engine, opts)  # shared: each search copies the state
    share = 1.0 / len(opts.racers)
    runs = {
        o: start(engine, heuristic, opts, o, deadline, limits, share, packed, RACE_TURN) for o in opts.racers
    }
    counts = {o: (0, 0, 0) for o in runs}
    ended: list[dict] = []
    while runs:
        for order in list(runs):
            try:
                counts[order] = next(runs[order])
            except StopIteration as end:
                del runs[order]
                ended.append(end.value)
                if end.value["won"] or end.value["complete"]:
                    dropped = [_dropped(counts[other]) for other in runs]
                    return [*dropped, *ended[:-1], end.value]
    return ended


def _dropped(counts: tuple[int, int, int]) -> dict:
    """The stats a dropped search of :func:`race` contributes: its counts so far."""
    exp, gen, nav = counts
    return dict(expansions=exp, generated=gen, navigation=nav, fired_home=0, fired_deal=0, peak_bytes=0,
                compiled=False)  # fmt: skip


def search(
    engine: Engine, heuristic: str, opts: PlanningJitOptions, order: str, deadline: float, limits: Limits
) -> dict:
    """One best-first search in ``order`` (:data:`ORDERS`) from ``engine``'s current state (left as it was)
    until ``deadline`` (:func:`.generic_kernel.bestfirst.run`'s result dict)."""
    gen = start(engine, heuristic, opts, order, deadline, limits)
    while True:
        try:
            next(gen)
        except StopIteration as end:
            return end.value


def start(
    engine: Engine,
    heuristic: str,
    opts: PlanningJitOptions,
    order: str,
    deadline: float,
    limits: Limits,
    memory_share: float = 1.0,
    packed: tuple | None = None,
    chunk: int = 0,
) -> Generator[tuple[int, int, int], None, dict]:
    """:func:`search` as :func:`.generic_kernel.bestfirst.steps`: a generator stepping it chunk by chunk
    (``chunk`` expansions each, or timed chunks if 0); ``memory_share``: the part of the memory budget it
    may take; ``packed``: :func:`_pack`'s, if made."""
    from .generic_kernel import bestfirst

    S, L, C, frame, flags = packed or _pack(engine, opts)
    lifo, priority = ORDERS[order]
    memory = float(limits.memory_mb or DEFAULT_MEMORY_MB) * _MB * memory_share
    cap = -1 if limits.nodes is None else limits.nodes
    return bestfirst.steps(S, L, C, frame=frame, flags=flags, heuristic=heuristic, lifo=lifo,
                           deadline=deadline, node_cap=cap, memory_bytes=memory, jit=opts.jit,
                           priority=priority, chunk=chunk)  # fmt: skip


def _pack(engine: Engine, opts: PlanningJitOptions) -> tuple:
    """The engine's state packed for the kernel (``S``), its rule fields ``L`` and constants ``C``, the move
    frame and the dominance switches (safe_deal, safe_home, partial_pile, no_return).

    ``L``, ``C``, the frame and the switches depend only on the rule-set, the foundations' base rank (dealt
    in Canfield: the one engine field a deal sets), the dominances asked for, stock access and how many
    cards stock and waste hold (:func:`.generic_kernel.pack.pack`), so they are packed once a process for
    each such key (:data:`_LAYOUTS`); only ``S`` is built for each deal
    (:func:`.generic_kernel.pack.state_array`). The kernel never writes ``L`` or ``C``."""
    from .generic_kernel.pack import pack, state_array

    e = engine
    key = (e.rules, e.base_rank, len(e.piles), len(e.cells), len(e.found), e.n_cards,
           len(e.stock) + len(e.waste), opts.dominances, opts.stock_access)  # fmt: skip
    layout = _LAYOUTS.get(key)
    if layout is None:
        dom = Dominances(e, opts.dominances)
        p = pack(e, dominances=dom, jit=opts.jit, stock_access=opts.stock_access)
        if len(_LAYOUTS) >= _MAX_LAYOUTS:
            _LAYOUTS.clear()
        _LAYOUTS[key] = (p.L, p.C, p.frame, tuple(name in dom.on for name in DOMINANCES))
        return (p.S, *_LAYOUTS[key])
    return (state_array(e, layout[0]), *layout)


_LAYOUTS: dict[tuple, tuple] = {}  # _pack's rule arrays by rule-set key
_MAX_LAYOUTS = 64
