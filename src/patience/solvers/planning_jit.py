"""The ``planning-jit`` backend: ``planning``'s greedy best-first search compiled on the generic kernel.

The search of :mod:`.generic_kernel.bestfirst` (the informed heuristic of :mod:`.heuristics` on the packed
state, the proven dominances of :mod:`.dominance`, 128-bit keys in the kernel's table), with FIFO ties and
with LIFO ties. By default (``ties="race"``) the two searches take turns chunk by chunk until one is decisive,
each with half the memory: on MS FreeCell 1-1000 the two orders' times differ by orders of magnitude on the
hard deals, one way or the other (benchmarks/out/planning_jit_speed.md), so a race costs at most twice the
faster one. ``ties="auto"`` runs them the way ``planning``'s ``auto`` mode does: FIFO ties for half the
time, then, if that is not decisive, LIFO ties from scratch for the rest (each run gets the whole node
limit, as in ``planning``).
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
from dataclasses import dataclass, replace

from ..engine import Engine, moves_to_json
from ..instance import Instance
from ..memguard import KERNEL_LOAD_S, MEMORY_OUT
from ..rules import RuleSet
from .base import Backend, Limits, Reason, Result, Status
from .dominance import DOMINANCES, Dominances, chosen
from .generic_kernel import kernel_supports
from .heuristics import pick_heuristic

__all__ = ["PlanningJitOptions", "PlanningJitSolver", "race", "search", "start"]

DEFAULT_MEMORY_MB = 1024
_MB = 1 << 20
_WARM = [False]  # the kernels have been compiled or loaded in this process
TIES = ("race", "auto", "fifo", "lifo")
_FIRED = ("fired_deal", "fired_home", "fired_partial", "fired_return")  # run()'s counts, DOMINANCES order


@dataclass(frozen=True)
class PlanningJitOptions:
    """``ties``: ``race`` (FIFO and LIFO taking turns: :func:`race`), ``auto`` (FIFO for half the time, then
    LIFO, as ``planning``), ``fifo`` or ``lifo`` alone; ``dominances`` as
    :class:`.planning.PlanningOptions`; ``stock_access`` (module docstring); ``jit`` False runs the search
    uncompiled (as ``PATIENCE_NO_JIT=1`` does)."""

    ties: str = "race"
    dominances: frozenset[str] | None = None
    stock_access: bool = True
    jit: bool = True

    def __post_init__(self) -> None:
        if self.ties not in TIES:
            raise ValueError(f"unknown ties {self.ties!r} (one of {', '.join(TIES)})")
        object.__setattr__(self, "dominances", chosen(self.dominances))


class PlanningJitSolver(Backend):
    """Compiled greedy best-first search for the kernel's games (module docstring)."""

    name = "planning-jit"
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
        if opts.jit and not _WARM[0] and limits.seconds - (time.perf_counter() - t0) < KERNEL_LOAD_S:
            opts = replace(opts, jit=False)  # no time to load the kernels (work the guard cannot cut)
        jit_s = _warm(opts.jit)
        outs: list[dict] = []
        if opts.ties == "race":
            outs = race(engine, heur, opts, t0 + limits.seconds, limits)
        else:
            runs = [("lifo" if opts.ties == "lifo" else "fifo", 0.5 if opts.ties == "auto" else 1.0)]
            if opts.ties == "auto":
                runs.append(("lifo", 1.0))
            for ties, share in runs:
                deadline = t0 + limits.seconds * share
                outs.append(search(engine, heur, opts, ties == "lifo", deadline, limits))
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
            jit_s=jit_s,
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
        message = {"memory": MEMORY_OUT, "nodes": "node limit", "time": "time limit"}[stop]
        reason = {"memory": Reason.MEMORY, "nodes": Reason.NODES, "time": Reason.TIME}[stop]
        return Result(Status.UNKNOWN, None, stats, self.name, message, reason)


def _warm(jit: bool) -> float:
    """Compile or load the kernels once per process; the seconds it took in this call (0 after the first)."""
    from .generic_kernel import bestfirst, kernel

    if jit and kernel.HAVE_NUMBA and not _WARM[0]:
        t0 = time.perf_counter()
        kernel.warm_up()
        bestfirst.warm_up()
        _WARM[0] = True
        return time.perf_counter() - t0
    return 0.0


def race(
    engine: Engine, heuristic: str, opts: PlanningJitOptions, deadline: float, limits: Limits
) -> list[dict]:
    """The FIFO and the LIFO search taking turns, a chunk each (about 30 ms), each with half the memory
    budget and the whole node limit, until one is decisive (won or complete: the other is dropped) or both
    stop; their results (a dropped search's: its counts so far), the deciding or last one last."""
    packed = _pack(engine, opts)  # shared: each search copies the state
    runs = {
        lifo: start(engine, heuristic, opts, lifo, deadline, limits, 0.5, packed) for lifo in (False, True)
    }
    counts = {lifo: (0, 0, 0) for lifo in runs}
    ended: list[dict] = []
    while runs:
        for lifo in list(runs):
            try:
                counts[lifo] = next(runs[lifo])
            except StopIteration as end:
                del runs[lifo]
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
    engine: Engine, heuristic: str, opts: PlanningJitOptions, lifo: bool, deadline: float, limits: Limits
) -> dict:
    """One greedy best-first search from ``engine``'s current state (left as it was) until ``deadline``
    (:func:`.generic_kernel.bestfirst.run`'s result dict)."""
    gen = start(engine, heuristic, opts, lifo, deadline, limits)
    while True:
        try:
            next(gen)
        except StopIteration as end:
            return end.value


def start(
    engine: Engine,
    heuristic: str,
    opts: PlanningJitOptions,
    lifo: bool,
    deadline: float,
    limits: Limits,
    memory_share: float = 1.0,
    packed: tuple | None = None,
) -> Generator[tuple[int, int, int], None, dict]:
    """:func:`search` as :func:`.generic_kernel.bestfirst.steps`: a generator stepping it chunk by chunk;
    ``memory_share``: the part of the memory budget it may take; ``packed``: :func:`_pack`'s, if made."""
    from .generic_kernel import bestfirst

    p, L, flags = packed or _pack(engine, opts)
    memory = float(limits.memory_mb or DEFAULT_MEMORY_MB) * _MB * memory_share
    cap = -1 if limits.nodes is None else limits.nodes
    return bestfirst.steps(p.S, L, p.C, frame=p.frame, flags=flags, heuristic=heuristic, lifo=lifo,
                           deadline=deadline, node_cap=cap, memory_bytes=memory, jit=opts.jit)  # fmt: skip


def _pack(engine: Engine, opts: PlanningJitOptions) -> tuple:
    """The engine packed for the kernel (:func:`.generic_kernel.pack.pack`, with stock access as ``opts``
    says), its rule fields ``L`` and the dominance switches (safe_deal, safe_home, partial_pile,
    no_return)."""
    from .generic_kernel.pack import pack

    dom = Dominances(engine, opts.dominances)
    p = pack(engine, dominances=dom, jit=opts.jit, stock_access=opts.stock_access)
    return p, p.L, tuple(name in dom.on for name in DOMINANCES)
