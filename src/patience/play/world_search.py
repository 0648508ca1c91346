"""``dfs-jit``'s search of many full states of one game, with the per-game work done once.

The hindsight player (:mod:`.players`) runs thousands of short searches a game, each from a sampled full
state of the same rules. :func:`patience.solvers.dfs_jit.search_from` builds for every call the
dominances' tables (:class:`patience.solvers.dominance.Dominances`: with worrying back, the closure
receivers cost about 6 ms a call) and the kernel's constants (:func:`.generic_kernel.pack.pack`: each card's
build targets, about 1 ms). Both depend only on the rules and the base rank, so :class:`WorldSearch` builds
them once and packs only the state per call. Its :meth:`WorldSearch.search` is ``search_from``'s search
(the same phases, limits, flags and kernel), so it returns the same :class:`~patience.solvers.dfs_jit.Found`
(tested on every state of played games); Klondike draw 3, the hindsight player's seeds 2-5 (profile, load
0.4): 18 of its 47 s went to the dominance tables and 5 s to packing.
"""

from __future__ import annotations

import time

from ..engine import Engine
from ..solvers.base import Limits
from ..solvers.dfs_jit import KERNELS, DfsJitOptions, Found, _phases, found
from ..solvers.dfs_prune import features
from ..solvers.dominance import Dominances
from ..solvers.generic_kernel import kernel_supports
from ..solvers.generic_kernel.pack import Packed, pack, state_array

__all__ = ["WorldSearch"]


class WorldSearch:
    """``search_from`` for states of one rule-set (the engines handed to :meth:`search` must all be of the
    rules of ``probe``); the dominances and packed constants are kept per base rank and stock size."""

    def __init__(self, probe: Engine, options: DfsJitOptions | None = None) -> None:
        if not kernel_supports(probe.rules):
            raise ValueError(f"dfs-jit: the kernel does not cover the rules of {probe.instance.game!r}")
        self.opts = options or DfsJitOptions()
        self.feats = features(probe.rules)
        self._dom: dict[int, Dominances] = {}
        self._layout: dict[tuple[int, int, bool], Packed] = {}  # (base rank, stock+waste, colour) -> template

    def dominances(self, engine: Engine) -> Dominances:
        """The dominances of ``engine``'s rules (its tables depend on the rules and the base rank only)."""
        dom = self._dom.get(engine.base_rank)
        if dom is None:
            dom = self._dom[engine.base_rank] = Dominances(engine, self.opts.dominances)
        return dom

    def pack(self, engine: Engine, colour: bool) -> Packed:
        """:func:`.generic_kernel.pack.pack` of ``engine``'s state (equal arrays; tested), its constants and
        layout taken from a template packed once per base rank, stock-and-waste size and ``colour``."""
        dom = self.dominances(engine)
        ns = len(engine.stock) + len(engine.waste)
        key = (engine.base_rank, ns, colour)
        t = self._layout.get(key)
        if t is None:
            o = self.opts
            sa = o.stock_access
            t = self._layout[key] = pack(engine, colour=colour, dominances=dom, jit=o.jit, stock_access=sa)
        S = state_array(engine, t.L)
        out = Packed.__new__(Packed)  # the template's constants; no hash state (kernel.run makes its own)
        out.S, out.L, out.C, out.frame, out.jit = S, t.L, t.C, t.frame, t.jit
        return out

    def search(self, engine: Engine, nodes: int | None = None, seconds: float = 60.0) -> Found:
        """What ``search_from(engine, nodes, seconds, options)`` returns, ``engine`` left as it was."""
        if engine.is_won():
            return Found(True, False, (), 0, engine.foundation_cards())
        KERNELS.warm(self.opts.jit)
        limits = Limits(seconds=seconds, nodes=nodes)
        outs = _phases(engine, self.opts, time.perf_counter(), limits, dom=self.dominances(engine),
                       packer=lambda colour: self.pack(engine, colour), feats=self.feats)  # fmt: skip
        return found(engine, outs)
