"""The ``dfs-jit`` backend: the ``dfs`` search of the rearrangement games with suit or run foundations, run
by the compiled generic kernel.

Same search as :func:`patience.solvers.dfs.search` (a streamlined phase with ``streamline_share`` of the
budget, counted in nodes (:data:`STREAMLINE_RATE`), then the complete search; the proven dominances of
:mod:`.dominance` chosen by ``Dominances(engine, names)``; ``Pruner.score``'s move order), but over the
packed states of :mod:`.generic_kernel` (move generation, apply/undo, a 128-bit state key and the table
compiled by numba; plain Python with ``PATIENCE_NO_JIT=1``, slower than ``dfs`` then). Rule features it
covers: :func:`.generic_kernel.unsupported_features` (the registry's predicate); anything else is
UNSUPPORTED. Its table holds 128-bit keys (16 bytes a slot, at most half full) where ``dfs`` holds Python
tuples, so the same memory holds far more states; when it is full it is cleared (path kept) rather than
evicted least-recently-used, so node counts equal ``dfs``'s while neither table fills.

Stats as ``dfs`` (``nodes``, ``table_hits`` — which here also counts states met on the path —, ``peak_mb``,
``best_foundation``, ``streamlined_nodes``, ``cuts_*``), plus ``compiled`` (1 when numba ran the kernel),
``jit_s`` (compiling or loading the kernel in this call: paid once per process) and ``table_clears``; a win
adds ``path_moves`` (the search's path) and ``shorten_s``: the line returned is that path shortened by
shortcuts (:mod:`.generic_kernel.shorten`; FreeCell 1 in Wolter's order: 32,036 moves -> 308), unless
``shorten`` is off.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine import Engine, Move, moves_to_json
from ..instance import Instance
from ..rules import RuleSet
from .base import Backend, Limits, MaxCards, Result, Status, stopped
from .dfs_prune import DEFAULT_ORDER, Features, check_order, features, feeds_first
from .dominance import DOMINANCES, Dominances, chosen
from .generic_kernel import kernel_supports
from .jit_budget import Kernels

if TYPE_CHECKING:
    from .generic_kernel.pack import Packed

__all__ = ["KERNELS", "DfsJitOptions", "DfsJitSolver", "Found", "search_from"]

DEFAULT_MEMORY_MB = 1024
_MB = 1 << 20
# The streamlined phase is sized in nodes, not seconds, so that whether it finds a win does not depend on the
# machine's load: ``streamline_share`` of the limit's seconds at STREAMLINE_RATE nodes a second (dfs-jit's
# rate on MS FreeCell at load ~1: 1.83-2.0 M, benchmarks/out/kernel_inline.md), or of the node limit when one
# is set. It still ends by STREAMLINE_SLACK times its share of the time, so a slow machine (or the
# uncompiled kernel) keeps most of the limit for the complete search.
STREAMLINE_RATE = 2_000_000
STREAMLINE_SLACK = 3.0


def _load() -> None:
    """Compile or load the generic kernel and the line shortener (imported here, so numba is imported only by
    a compiled solve)."""
    from .generic_kernel import kernel, shorten

    kernel.warm_up()
    shorten.warm_up()


def _entries() -> list[object]:
    from .generic_kernel import kernel, shorten

    return kernel.entry_points() + shorten.entry_points()


# The generic kernel and the shortener, loaded once a process (:mod:`.jit_budget`); from a cold cache the
# kernel's compile took 82 s at a load of 5-6 on 2 cores (benchmarks/out/cold_cache_guard.md), the
# shortener's 19 s at load 2-3.
KERNELS = Kernels(_load, _entries, compile_s=100.0, name="dfs-jit")


@dataclass(frozen=True)
class DfsJitOptions:
    """Options of ``dfs-jit``: ``streamline_share`` and ``dominances`` as :class:`.dfs.DfsOptions`; ``jit``
    False runs the kernel uncompiled (as ``PATIENCE_NO_JIT=1`` does); ``stock_access`` False turns a waste
    stock card by card instead of :mod:`.stock_access`'s macro plays (the same verdicts; lines without the
    turn-and-redeal cycles the macro plays expand to, which the hindsight player ranks and follows);
    ``order`` as :class:`.dfs.DfsOptions`; ``shorten`` False returns the search's path itself instead of
    :mod:`.generic_kernel.shorten`'s shortcut line (the path of a depth-first win can run to a million
    moves)."""

    streamline_share: float = 0.1
    dominances: frozenset[str] | None = None
    jit: bool = True
    stock_access: bool = True
    shorten: bool = True
    order: str = DEFAULT_ORDER

    def __post_init__(self) -> None:
        check_order(self.order)
        object.__setattr__(self, "dominances", chosen(self.dominances))
        if not 0 <= self.streamline_share < 1:
            raise ValueError(f"streamline_share must be in [0, 1), got {self.streamline_share}")


class DfsJitSolver(Backend):
    """Compiled depth-first search for the games with suit or run foundations (module docstring)."""

    name = "dfs-jit"
    kernels = KERNELS
    Options = DfsJitOptions
    options: DfsJitOptions

    def supports(self, rules: RuleSet) -> bool:
        """The kernel's rule features (:func:`.generic_kernel.kernel_supports`)."""
        return kernel_supports(rules)

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        from .generic_kernel.pack import to_move

        opts = self.options
        t0 = time.perf_counter()
        engine = Engine(instance)
        stats: dict[str, float] = {"nodes": 0.0}
        if engine.is_won():
            return Result(Status.SOLVED, [], stats, self.name)
        budget = KERNELS.start(opts.jit, t0, limits)  # the phases share the time left after the load
        opts = budget.options(opts)  # jit off if the load was refused
        # the streamlined phase's nodes come from the caller's seconds, not those left after the load
        outs = _phases(engine, opts, budget.t0, budget.limits, nominal_s=limits.seconds)
        last = outs[-1]
        stats.update(
            nodes=sum(o["nodes"] for o in outs),
            table_hits=sum(o["hits"] for o in outs),
            peak_mb=max(o["peak_bytes"] for o in outs) / _MB,
            best_foundation=max(max(o["best"] for o in outs), engine.foundation_cards()),
            streamlined_nodes=outs[0]["nodes"] if opts.streamline_share > 0 else 0,
            compiled=float(any(o["compiled"] for o in outs)),
            jit_s=budget.jit_s,
            table_clears=sum(o["clears"] for o in outs),
        )
        for name in DOMINANCES:
            stats[f"cuts_{name}"] = 0
        stats["cuts_safe_home"] = sum(o["fired_home"] for o in outs)
        stats["cuts_partial_pile"] = sum(o["fired_partial"] for o in outs)
        stats["cuts_safe_deal"] = sum(o["fired_deal"] for o in outs)
        stats["cuts_no_return"] = sum(o["fired_return"] for o in outs)
        if last["won"]:
            moves = [to_move(m) for m in last["moves"]]
            stats["path_moves"] = len(moves)
            if opts.shorten:
                from .generic_kernel.shorten import shorten

                t1 = time.perf_counter()
                moves = shorten(engine, moves, jit=opts.jit)
                stats["shorten_s"] = time.perf_counter() - t1
            return Result(Status.SOLVED, moves_to_json(instance, moves), stats, self.name)
        if last["complete"]:
            most = None
            if not last["fired_partial"] and not last["fired_return"]:  # safe_deal, safe_home keep it
                best = int(stats["best_foundation"]) - sum(len(p) for p in instance.layout.foundations)
                most = MaxCards(best, best)
            return Result(Status.UNSOLVABLE, None, stats, self.name, max_cards=most)
        stop = last["stop"]
        return stopped(stop, stats, self.name)


def _phases(
    engine: Engine,
    opts: DfsJitOptions,
    t0: float,
    limits: Limits,
    dom: Dominances | None = None,
    packer: Callable[[bool], Packed] | None = None,
    feats: Features | None = None,
    nominal_s: float | None = None,
) -> list[dict]:
    """Run the kernel from ``engine``'s current state (left as it was): the streamlined phase with
    ``streamline_share`` of the limits (in nodes: of the node limit, else of ``nominal_s`` (default the
    limit's seconds) at :data:`STREAMLINE_RATE`), then the complete search with the rest; one result dict per
    phase (:func:`.generic_kernel.kernel.run`), the last the verdict. ``dom``, ``packer`` (colour -> packed
    state) and ``feats``: the rules' dominances, packing and features when the caller keeps them across
    searches (:class:`patience.play.world_search.WorldSearch`); by default built here."""
    from .generic_kernel import kernel
    from .generic_kernel.pack import pack

    if feats is None:
        feats = features(engine.rules)
    if dom is None:
        dom = Dominances(engine, opts.dominances)
    if packer is None:

        def packer(colour: bool) -> Packed:
            return pack(engine, colour=colour, dominances=dom, jit=opts.jit, stock_access=opts.stock_access)

    memory = float(limits.memory_mb or DEFAULT_MEMORY_MB) * _MB
    home, partial, deal_ = "safe_home" in dom.on, "partial_pile" in dom.on, "safe_deal" in dom.on
    ret = "no_return" in dom.on
    feed_first = feeds_first(opts.order)
    phases = []
    share = opts.streamline_share
    if share > 0:
        nominal = limits.seconds if nominal_s is None else nominal_s
        budget = nominal * STREAMLINE_RATE if limits.nodes is None else limits.nodes
        cap = max(int(budget * share), 1)
        phases.append((True, t0 + limits.seconds * min(1.0, share * STREAMLINE_SLACK), cap))
    phases.append((False, t0 + limits.seconds, -1))
    outs: list[dict] = []
    for streamline, deadline, cap in phases:
        if not streamline and limits.nodes is not None:
            cap = max(limits.nodes - sum(o["nodes"] for o in outs), 0)
            if cap == 0:
                outs.append(dict(won=False, complete=False, stop="nodes", nodes=0, best=0, hits=0,
                                 peak_bytes=0, fired_home=0, fired_partial=0, fired_deal=0, fired_return=0,
                                 clears=0, moves=[], compiled=False))  # fmt: skip
                break
        colour = streamline and feats.colour_streamliner
        p = packer(colour)
        flags = (streamline, streamline and feats.same_suit_stay, home, partial, deal_, ret, feed_first)
        o = kernel.run(p.S, p.L, p.C, frame=p.frame, flags=flags, deadline=deadline, node_cap=cap,
                       memory_bytes=memory, jit=opts.jit)  # fmt: skip
        outs.append(o)
        if o["won"]:
            break
    return outs


@dataclass(frozen=True)
class Found:
    """What :func:`search_from` found: ``won`` with its ``moves`` (engine moves from the start state),
    ``complete`` (no win exists: every prune proven), the ``nodes`` searched and ``best``, the most cards
    home in any state it reached."""

    won: bool
    complete: bool
    moves: tuple[Move, ...]
    nodes: int
    best: int = 0


def search_from(
    engine: Engine, nodes: int | None = None, seconds: float = 30.0, options: DfsJitOptions | None = None
) -> Found:
    """``dfs-jit``'s search (both phases, as the backend runs them) from ``engine``'s current state, which is
    left as it was; at most ``nodes`` nodes and ``seconds``. The rules must be :func:`kernel_supports`'s;
    the engine's state is searched as a thoughtful game (every card it holds is known): the hindsight player
    (:mod:`patience.play.players`) searches sampled full states of a game with hidden cards this way."""
    if not kernel_supports(engine.rules):
        raise ValueError(f"dfs-jit: the kernel does not cover the rules of {engine.instance.game!r}")
    if engine.is_won():
        return Found(True, False, (), 0, engine.foundation_cards())
    opts = options or DfsJitOptions()
    KERNELS.warm(opts.jit)
    return found(engine, _phases(engine, opts, time.perf_counter(), Limits(seconds=seconds, nodes=nodes)))


def found(engine: Engine, outs: list[dict]) -> Found:
    """The :class:`Found` of :func:`_phases`' results from ``engine``'s state."""
    from .generic_kernel.pack import to_move

    last = outs[-1]
    moves = tuple(to_move(m) for m in last["moves"]) if last["won"] else ()
    best = max(max(int(o["best"]) for o in outs), engine.foundation_cards())
    return Found(bool(last["won"]), bool(last["complete"]), moves, sum(int(o["nodes"]) for o in outs), best)
