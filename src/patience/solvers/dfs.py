"""Classic depth-first search backend ("dfs") for every rule-set the engine supports.

The reference backend that the CP and planning backends are cross-checked against: soundness first.
It follows Blake & Gent's Solvitaire (search, transposition table, dominances, streamliners) with
Wolter's per-game pruning, every technique selected by rule-set features, never by a game's name.

* **Search**: iterative (an explicit stack of move lists, no recursion: deep games exceed Python's
  recursion limit) over :class:`patience.engine.Engine` with exact apply/undo.
* **Transposition table** (:mod:`.dfs_table`) on :meth:`Engine.key` (piles and cells sorted, suits
  dropped when the rules ignore them): dead states, bounded by the memory limit, least recently used
  first out; states on the current path live in a separate set and are never evicted. If the path
  alone fills the memory budget the answer is UNKNOWN with message "memory out".
* **Dominances** (:mod:`.dominance`, shared with ``planning``; proofs and conditions there): safe
  foundation moves, dealing onto an empty waste, and Blake & Gent's partial-pile-move restriction
  (Theorem 1). ``DfsSolver(dominances=...)`` (:class:`DfsOptions`) switches them off one by one for
  ablation tests.
* **Stock access** (:mod:`.stock_access`, Solvitaire's handling): a waste stock with unlimited redeals is
  searched as the cards it can show; a waste card at any reachable position is played in one move (its
  turns and redeals expanded in the solution), and positions that reach one another by turns alone share
  a key.
* **Streamliners** run first with ``streamline_share`` (10%) of the time and node budget: always play
  to a foundation, suits reduced to colours in the key for red-black building, and Wolter's Thirty
  Six rule for rank-only building. A streamlined win is a win (the validator replays it); a
  streamlined failure proves nothing, and the complete search follows.
* **Hole games** (hole foundations, no building, no reserve; free cells and Golf's stock dealt onto
  the hole included: :func:`.dfs_hole.hole_search_problem`): a specialised search over integer arrays
  (:mod:`.dfs_hole`) with Wolter's last-card and one-card-pile rules, rank reachability and a
  walk-degree test, each proven in its docstring. Its loop runs compiled by numba
  (:mod:`.hole_kernel`, same nodes in the same order) when numba imports; the same loop uncompiled is
  the fallback (``PATIENCE_NO_JIT=1``). ``auto`` picks dfs for these games (see :meth:`DfsSolver.prefers`).

Statuses: SOLVED (moves validated by :meth:`patience.solvers.base.Backend.solve`), UNSOLVABLE (the complete
search ran out of states), UNKNOWN (a limit was hit). Stats: ``nodes``, ``seconds``, ``peak_mb``
(estimated size of the table and path), ``table_hits``, ``best_foundation`` (most cards on the
foundations seen) and, when a complete search proves a loss with pruning that keeps it exact,
the result's ``max_cards`` (best equal to bound: the optimum is proven).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from ..engine import Engine, Move, moves_to_json
from ..instance import Instance
from ..rules import RuleSet
from .base import Backend, Limits, MaxCards, Result, Status, stopped
from .dfs_hole import HOLE_ENTRY_BYTES, hole_search, hole_search_problem
from .dfs_hole import hole_prunes as _hole_prunes
from .dfs_prune import DEFAULT_ORDER, Features, Pruner, check_order, features
from .dfs_table import _ENTRY_OVERHEAD, DeadTable, deep_size
from .dominance import DOMINANCES, Dominances, chosen
from .registry import engine_supports, hole_prefers
from .stock_access import StockAccess, canonical
from .stock_access import applies as stock_access_applies

__all__ = ["DfsOptions", "DfsSolver", "search"]

DEFAULT_MEMORY_MB = 1024
_MB = 1 << 20


@dataclass
class Outcome:
    """What one search phase found."""

    won: bool = False
    complete: bool = False
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    best: int = 0
    hits: int = 0
    peak_entries: int = 0
    entry_bytes: float = 0.0
    stop: str = ""  # "time", "nodes" or "memory"
    exact_max: bool = True  # no pruning fired that may hide a better partial result
    fired: dict[str, int] = field(default_factory=dict)  # how often each dominance cut


def search(
    engine: Engine,
    feats: Features,
    streamline: bool,
    deadline: float,
    max_nodes: int | None,
    memory_mb: float,
    dominances: frozenset[str] | None = None,
    stock_access: bool = True,
    order: str = DEFAULT_ORDER,
) -> Outcome:
    """Depth-first search from the engine's state (left unchanged on return).

    ``streamline`` adds the unproven streamliners; without it only the proven dominances named in
    ``dominances`` (None: every one that applies) cut. ``stock_access``: search a waste stock with
    unlimited redeals by the cards it can show (:mod:`.stock_access`) where that applies. ``order``: the
    move order (:data:`.dfs_prune.ORDERS`).
    """
    pr = Pruner(engine, feats, order)
    dom = Dominances(engine, dominances)
    keyf: Callable[[], Hashable] = pr.colour_key if streamline and feats.colour_streamliner else engine.key
    sa = StockAccess(engine) if stock_access and stock_access_applies(engine.rules) else None
    if sa is not None:
        plain, turn = keyf, sa.k

        def keyf() -> Hashable:
            return canonical(plain(), turn)  # type: ignore[arg-type]

        legal = sa.moves
    else:
        legal = engine.legal_moves

    def play(m: Move) -> list[Move]:
        """Apply ``m`` (a stock-access play: its turns too); the engine moves applied."""
        real = sa.real(m) if sa is not None else [m]
        for x in real:
            engine.apply(x)
        return real

    stay = streamline and feats.same_suit_stay
    out = Outcome(best=engine.foundation_cards())
    if engine.is_won():
        out.won = out.complete = True
        return out
    root = keyf()
    entry_bytes = deep_size(root) + _ENTRY_OVERHEAD
    out.entry_bytes = entry_bytes
    budget = max(int(memory_mb * _MB / entry_bytes), 32)
    table = DeadTable(budget)
    score = pr.score

    def children() -> list[Move]:
        moves = legal()
        if not moves:
            return moves
        if streamline:
            for m in moves:
                if m[2] == 1:  # FOUNDATION: always play home first
                    return [m]
        m = dom.forced(moves)
        if m is not None:
            return [m]
        moves = dom.prune(moves)
        if stay:
            moves = [m for m in moves if not pr.stays_home_suit(m)]
        moves.sort(key=score, reverse=True)  # best last: the search pops from the end
        return moves

    path_keys = {root}
    key_stack = [root]
    stack = [children()]
    path: list[list[Move]] = []  # the engine moves of each step
    nodes = 0
    best = out.best
    node_cap = max_nodes if max_nodes is not None else -1
    check_every = 256
    next_check = min(check_every, node_cap) if node_cap >= 0 else check_every
    while stack:
        ms = stack[-1]
        if not ms:
            stack.pop()
            k = key_stack.pop()
            path_keys.discard(k)
            table.add(k)
            if path:
                for _ in path.pop():
                    engine.undo()
            continue
        m = ms.pop()
        real = play(m)
        nodes += 1
        fc = engine.foundation_cards()
        if fc > best:
            best = fc
        if engine.is_won():
            path.append(real)
            out.won = True
            break
        k = keyf()
        if k in path_keys or table.hit(k):
            for _ in real:
                engine.undo()
        else:
            path.append(real)
            path_keys.add(k)
            key_stack.append(k)
            if len(path_keys) >= budget:
                out.stop = "memory"
                break
            table.capacity = max(budget - len(path_keys), 16)
            stack.append(children())
        if nodes >= next_check:
            next_check = nodes + check_every
            if node_cap >= 0:
                next_check = min(next_check, node_cap)
                if nodes >= node_cap:
                    out.stop = "nodes"
                    break
            if time.perf_counter() >= deadline:
                out.stop = "time"
                break
    out.nodes = nodes
    out.best = best
    out.fired = dict(dom.fired)
    # safe_deal and safe_home keep the most cards removed; partial_pile and no_return may hide it
    out.exact_max = not dom.fired["partial_pile"] and not dom.fired["no_return"]
    out.hits = table.hits
    out.peak_entries = table.peak + len(path_keys)
    if out.won:
        out.moves = [x for real in path for x in real]
    elif not out.stop:
        out.complete = True
    for _ in range(sum(map(len, path))):
        engine.undo()
    return out


@dataclass(frozen=True)
class DfsOptions:
    """Options of the ``dfs`` backend.

    ``streamline_share``: the share of the time and node budget for the streamlined first phase (0 turns
    it off). ``reach``: the hole search's rank-reachability test. ``dominances``: the proven dominances
    to use (None: every one that applies; see :mod:`.dominance`); ``hole_prunes``: the same for the hole
    search (:data:`.dfs_hole.HOLE_PRUNES`, None: all). Misspelt names are a ValueError at once.
    ``exact_max``: when the hole search proves a deal lost but ``reach``/``degree`` cut states (so the
    most cards removed it saw is only a lower bound, and ``max_cards`` is left out), search the deal
    again without those two, within the same limits, for the exact most cards removed; the verdict is
    the first search's. Off by default: it costs a second search of every such lost deal (Wolter 2014
    turned the reachability test off in most runs for this figure).
    ``stock_access``: a waste stock with unlimited redeals is searched by the cards it can show, not by its
    turns (:mod:`.stock_access`; False: the engine's turns and redeals, for ablation tests). ``order``: the
    move order, ``solvitaire`` or ``wolter`` (:mod:`.dfs_prune`; the same verdicts, other nodes).
    """

    streamline_share: float = 0.1
    reach: bool = True
    dominances: frozenset[str] | None = None
    hole_prunes: frozenset[str] | None = None
    exact_max: bool = False
    stock_access: bool = True
    order: str = DEFAULT_ORDER

    def __post_init__(self) -> None:
        check_order(self.order)
        object.__setattr__(self, "dominances", chosen(self.dominances))
        object.__setattr__(self, "hole_prunes", _hole_prunes(self.hole_prunes))


class DfsSolver(Backend):
    """The ``dfs`` backend: streamlined search first, then complete search (see module docstring)."""

    name = "dfs"
    Options = DfsOptions
    options: DfsOptions

    def supports(self, rules: RuleSet) -> bool:
        """Every rule-set the engine implements."""
        return engine_supports(rules)

    def prefers(self, rules: RuleSet) -> bool:
        """Should ``auto`` pick dfs? Hole games (:func:`.registry.hole_prefers`, with the measurements)."""
        return hole_prefers(rules)

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        """Decide one deal within the limits."""
        opts = self.options
        t0 = time.perf_counter()
        deadline = t0 + limits.seconds
        memory_mb = float(limits.memory_mb or DEFAULT_MEMORY_MB)
        engine = Engine(instance)
        stats: dict[str, float] = {}
        if hole_search_problem(instance.rules) is None:  # Golf's stock and Worm Hole's cell included
            capacity = max(int(memory_mb * _MB / HOLE_ENTRY_BYTES), 32)
            ho = hole_search(
                engine, deadline, limits.nodes, capacity, reach=opts.reach, prunes=opts.hole_prunes
            )
            table = ho.table
            assert table is not None
            stats.update(
                nodes=ho.nodes,
                table_hits=table.hits,
                peak_mb=table.peak * HOLE_ENTRY_BYTES / _MB,
                best_foundation=ho.best,
                reach_cuts=ho.reach_cuts,
            )
            if ho.jit_s:
                stats["jit_s"] = ho.jit_s  # part of the time: numba compiling or loading the kernel
            won, complete, moves, stop = ho.won, ho.complete, ho.moves, ho.stop
            exact_max = ho.reach_cuts == 0
            if complete and not won and not exact_max and opts.exact_max:
                # lost, but reach/degree may have cut states with more cards removed: search them too
                left = None if limits.nodes is None else max(limits.nodes - ho.nodes, 1)
                ho.table = table = None  # free the first search's memory
                full = hole_search(
                    Engine(instance), deadline, left, capacity, reach=False, prunes=opts.hole_prunes
                )
                stats["exact_max_nodes"] = full.nodes
                stats["nodes"] += full.nodes
                if full.complete and not full.won:
                    exact_max = True
                    stats["best_foundation"] = full.best
        else:
            feats = features(instance.rules)
            outs: list[Outcome] = []
            won = complete = False
            moves: list[Move] = []
            stop = ""
            exact_max = True
            share = opts.streamline_share
            streamlined = share > 0 and not engine.rows  # Gaps has no foundation to play to
            if streamlined:
                s_nodes = None if limits.nodes is None else max(int(limits.nodes * share), 1)
                o = search(
                    engine, feats, True, t0 + limits.seconds * share, s_nodes, memory_mb, opts.dominances,
                    opts.stock_access, opts.order,
                )  # fmt: skip
                outs.append(o)
                won, moves = o.won, o.moves
            if not won:
                used = sum(o.nodes for o in outs)
                left = None if limits.nodes is None else max(limits.nodes - used, 0)
                if left == 0:
                    stop = "nodes"
                else:
                    o = search(
                        engine, feats, False, deadline, left, memory_mb, opts.dominances, opts.stock_access,
                        opts.order,
                    )  # fmt: skip
                    outs.append(o)
                    won, complete, moves, stop = o.won, o.complete, o.moves, o.stop
                    exact_max = o.exact_max
            stats.update(
                nodes=sum(o.nodes for o in outs),
                table_hits=sum(o.hits for o in outs),
                peak_mb=max((o.peak_entries * o.entry_bytes / _MB for o in outs), default=0.0),
                best_foundation=max((o.best for o in outs), default=engine.foundation_cards()),
                streamlined_nodes=outs[0].nodes if streamlined else 0,
            )
            for name in DOMINANCES:
                stats[f"cuts_{name}"] = sum(o.fired.get(name, 0) for o in outs)
        if won:
            return Result(Status.SOLVED, moves_to_json(instance, moves), stats, self.name)
        if complete:
            most = None
            if exact_max:
                # Cards moved home during play: the dealt foundation cards (Black Hole's AS) do not count.
                dealt_home = sum(len(p) for p in instance.layout.foundations)
                best = int(stats["best_foundation"]) - dealt_home
                most = MaxCards(best, best)  # exact: the search saw every state
            return Result(Status.UNSOLVABLE, None, stats, self.name, max_cards=most)
        return stopped(stop, stats, self.name)
