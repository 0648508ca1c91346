"""Backend ``planning``: our best-first search, the engine's states and moves seen as a planning problem.

Not to be confused with backend ``planner`` (:mod:`.pddl_planner`), which hands a PDDL export of the
deal to an external planner. Three search modes share one best-first loop over engine states:

* ``greedy``: greedy best-first search on the informed heuristic; goal test when a state is generated.
* ``astar``: weighted A*, ``f = g + weight * h``. With ``weight == 1`` it is plain A* on the admissible
  heuristic (cards not home), tests the goal when a state is expanded and reopens states reached by a
  shorter path, so its plans are the shortest in the searched graph. With ``weight > 1`` it uses the
  informed heuristic.
* ``anytime``: Anytime Weighted A* (Hansen & Zhou 2007): weighted A* that, after its first plan, keeps
  expanding, prunes nodes whose ``g + admissible h`` cannot beat the best plan, and returns the
  shortest plan found when the open list runs dry (then it is the shortest) or time runs out.

States are not copied: every node stores its parent and the move from it, and the one engine walks the
tree with :meth:`~patience.engine.Engine.apply` / :meth:`~patience.engine.Engine.undo` to the next
node to expand (through the deepest common ancestor). Duplicate detection uses the canonical
:meth:`~patience.engine.Engine.key`, stored as ``marshal`` bytes (about a quarter of the tuple's memory,
equal exactly when the keys are equal). In every mode the proven dominances of :mod:`.dominance` (shared
with ``dfs``) cut: a forced move is the only successor of a state, pruned moves are not generated.

Verdicts: a plan is SOLVED (and re-checked by :func:`patience.validate.replay` in
:func:`patience.solvers.base.solve`); an open list exhausted with complete duplicate detection is
UNSOLVABLE (every reachable state, up to the engine's symmetries and the dominances, was
expanded); any limit hit (seconds, expansions as ``nodes``, memory) is UNKNOWN.
"""

from __future__ import annotations

import heapq
import itertools
import marshal
import time
from dataclasses import dataclass, replace

from ..engine import Engine, Move, moves_to_json
from ..instance import Instance
from ..memguard import MEMORY_OUT, rss_mb
from ..rules import RuleSet
from .base import Backend, Limits, Reason, Result, Status
from .dominance import DOMINANCES, Dominances, chosen
from .heuristics import Heuristic, pick_heuristic
from .registry import engine_supports, rearrangement_prefers

__all__ = ["PlanningOptions", "PlanningSolver", "SearchConfig", "search", "search_from", "prefers"]

MODES = ("greedy", "astar", "anytime")


@dataclass(frozen=True)
class SearchConfig:
    """How to search: mode (greedy / astar / anytime), the weight of weighted A*, tie-breaking."""

    mode: str = "greedy"
    weight: float = 1.0
    dominances: frozenset[str] | None = None  # the dominances to use; None: every one that applies
    lifo: bool = False  # among equal priorities expand the newest node first (default: the oldest)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown search mode {self.mode!r} (one of {', '.join(MODES)})")
        if self.weight < 1:
            raise ValueError(f"weight must be >= 1, got {self.weight}")


prefers = rearrangement_prefers  # rearrangement games (tableau building): auto picks planning


class _Tree:
    """Search nodes as parallel lists; node 0 is the root. The engine sits at node ``cur``."""

    def __init__(self, engine: Engine) -> None:
        self.e = engine
        self.parent: list[int] = [-1]
        self.move: list[Move | None] = [None]
        self.g: list[int] = [0]
        self.cur = 0

    def add(self, parent: int, move: Move) -> int:
        self.parent.append(parent)
        self.move.append(move)
        self.g.append(self.g[parent] + 1)
        return len(self.g) - 1

    def goto(self, node: int) -> int:
        """Move the engine to ``node``; returns the number of apply/undo steps taken."""
        a, b = self.cur, node
        if a == b:
            return 0
        g, parent, move = self.g, self.parent, self.move
        forward: list[Move] = []
        steps = 0
        while g[b] > g[a]:
            forward.append(move[b])  # type: ignore[arg-type]
            b = parent[b]
        while g[a] > g[b]:
            self.e.undo()
            a = parent[a]
            steps += 1
        while a != b:
            self.e.undo()
            a = parent[a]
            forward.append(move[b])  # type: ignore[arg-type]
            b = parent[b]
            steps += 1
        for m in reversed(forward):
            self.e.apply(m)
        self.cur = node
        return steps + len(forward)

    def path(self, node: int, last: Move | None = None) -> list[Move]:
        out: list[Move] = [] if last is None else [last]
        while node > 0:
            out.append(self.move[node])  # type: ignore[arg-type]
            node = self.parent[node]
        out.reverse()
        return out


def search(
    instance: Instance, limits: Limits | None = None, config: SearchConfig | None = None
) -> tuple[Status, list[Move] | None, dict[str, float]]:
    """Run one search; returns (status, engine moves or None, stats). The caller times it.

    Status is SOLVED with a plan, UNSOLVABLE when the open list ran dry without one, else UNKNOWN.
    """
    return search_from(Engine(instance), limits, config)


def search_from(
    e: Engine, limits: Limits | None = None, config: SearchConfig | None = None
) -> tuple[Status, list[Move] | None, dict[str, float]]:
    """:func:`search` from the engine's current state (left as it was on return): the hindsight player
    searches sampled states of a game with hidden cards loaded into an engine (``Engine.load``)."""
    limits = limits or Limits()
    cfg = config or SearchConfig()
    t0 = time.perf_counter()
    deadline = t0 + limits.seconds if limits.seconds else float("inf")
    max_nodes = limits.nodes
    heur: Heuristic = pick_heuristic(e)
    dom = Dominances(e, cfg.dominances)
    adm, inf = heur.admissible, heur.informed
    greedy = cfg.mode == "greedy"
    anytime = cfg.mode == "anytime"
    optimal_astar = cfg.mode == "astar" and cfg.weight == 1.0
    w = cfg.weight
    stats: dict[str, float] = {
        "expansions": 0,
        "generated": 0,
        "reopened": 0,
        "safe_moves": 0,
        "navigation": 0,
        "solutions": 0,
    }

    def evaluate(g: int) -> tuple[float, float]:
        """(priority, admissible h) of the engine's current state reached with cost g."""
        if greedy:
            return inf(e), 0.0
        if optimal_astar:
            h = adm(e)
            return g + h, h
        h_adm = adm(e) if anytime else 0
        return g + w * inf(e), h_adm

    def pack() -> bytes:
        return marshal.dumps(e.key(), 2)

    tree = _Tree(e)
    # Tie-break so the heap never compares nodes (networkx A* habit): oldest or newest first among equals.
    tie = itertools.count(0, -1) if cfg.lifo else itertools.count()
    seen: dict[bytes, int] = {}  # canonical key -> node id of the best path found to it
    dead: set[int] = set()  # nodes superseded by a shorter path to the same state
    best: list[Move] | None = None
    if e.is_won():
        return Status.SOLVED, [], _finish(stats, 0)
    seen[pack()] = 0
    f0, _ = evaluate(0)
    open_list: list[tuple[float, int, int]] = [(f0, next(tie), 0)]
    status = Status.UNSOLVABLE
    while open_list:
        f, _t, node = heapq.heappop(open_list)
        if node in dead:
            continue
        g = tree.g[node]
        stats["navigation"] += tree.goto(node)
        if anytime and best is not None and g + adm(e) >= len(best):
            continue  # cannot beat the incumbent: every remaining card needs a move
        if optimal_astar and e.is_won():
            best = tree.path(node)
            stats["solutions"] += 1
            status = Status.SOLVED
            break
        stats["expansions"] += 1
        n_exp = stats["expansions"]
        # The clock every expansion (~0.1 us; one expansion of a large game can take seconds).
        if time.perf_counter() > deadline or (max_nodes is not None and n_exp > max_nodes):
            status = Status.UNKNOWN
            break
        if limits.memory_mb and n_exp % 256 == 0 and (rss_mb() or 0.0) > limits.memory_mb:
            status = Status.UNKNOWN
            stats["memory_out"] = 1
            break
        moves = e.legal_moves()
        sm = dom.forced(moves)
        if sm is not None:
            moves = [sm]
            stats["safe_moves"] += 1
        else:
            moves = dom.prune(moves)
        g1 = g + 1
        found_goal = False
        for m in moves:
            stats["generated"] += 1
            # The clock also every 32 children: one expansion of a 400-pile deal generates thousands
            # of states at about 1 ms each (their keys), which overran a 1 s limit by 2-5 s.
            if stats["generated"] % 32 == 0 and time.perf_counter() > deadline:
                status = Status.UNKNOWN
                break
            e.apply(m)
            k = pack()
            old = seen.get(k)
            if old is not None and (greedy or tree.g[old] <= g1):
                e.undo()
                continue
            if not optimal_astar and e.is_won():
                e.undo()
                plan = tree.path(node, m)
                stats["solutions"] += 1
                if best is None or len(plan) < len(best):
                    best = plan
                if anytime:
                    continue
                found_goal = True
                break
            if anytime and best is not None and g1 + adm(e) >= len(best):
                e.undo()
                continue
            pri, _h = evaluate(g1)
            e.undo()
            child = tree.add(node, m)
            if old is not None:
                dead.add(old)
                stats["reopened"] += 1
            seen[k] = child
            heapq.heappush(open_list, (pri, next(tie), child))
        if found_goal:
            status = Status.SOLVED
            break
        if status is Status.UNKNOWN:  # the clock ran out among this expansion's children
            break
    else:
        status = Status.SOLVED if best is not None else Status.UNSOLVABLE
    if best is not None and status is Status.UNKNOWN:
        status = Status.SOLVED  # anytime: the incumbent stands when time runs out
    for name in DOMINANCES:
        stats[f"cuts_{name}"] = dom.fired[name]
    stats["states"] = len(seen)
    stats["open"] = len(open_list)
    tree.goto(0)  # the engine back at the root state, as the caller gave it
    return status, best, _finish(stats, len(best) if best is not None else -1)


def _finish(stats: dict[str, float], length: int) -> dict[str, float]:
    stats["plan_length"] = length
    stats["nodes"] = stats["expansions"]
    return stats


@dataclass(frozen=True)
class PlanningOptions:
    """Options of the ``planning`` backend.

    ``mode``: ``auto`` (the portfolio of :class:`PlanningSolver`) or one of :data:`MODES`; ``weight``: of
    weighted A* (astar, anytime, and auto's improvement phase); ``improve``: the share of the time left
    after auto's first plan spent shortening it; ``dominances``: the proven dominances to use (None: every
    one that applies; see :mod:`.dominance`), for ablation tests.
    """

    mode: str = "auto"
    weight: float = 2.0
    improve: float = 0.0
    dominances: frozenset[str] | None = None

    def __post_init__(self) -> None:
        if self.mode != "auto" and self.mode not in MODES:
            raise ValueError(f"unknown search mode {self.mode!r} (one of auto, {', '.join(MODES)})")
        object.__setattr__(self, "dominances", chosen(self.dominances))


class PlanningSolver(Backend):
    """Backend ``planning``: heuristic state-space search.

    ``mode="auto"`` runs greedy best-first search (FIFO ties for half the time limit, then LIFO ties)
    for a first plan or a proof of unsolvability, then spends ``improve`` (a fraction, default 0) of the
    remaining time on anytime weighted A* to shorten the plan. Other modes run one :func:`search`.
    """

    name = "planning"
    Options = PlanningOptions
    options: PlanningOptions

    def supports(self, rules: RuleSet) -> bool:
        """Every rule-set the engine supports."""
        return engine_supports(rules)

    def prefers(self, rules: RuleSet) -> bool:
        """Should ``auto`` pick this backend? Rearrangement games (tableau building), not Gaps/holes."""
        return prefers(rules)

    def _solve(self, instance: Instance, limits: Limits) -> Result:
        """Search within the limits; moves come back as JSON objects (validated by ``Backend.solve``)."""
        opts = self.options
        t0 = time.perf_counter()
        mode = "greedy" if opts.mode == "auto" else opts.mode
        cfg = SearchConfig(mode, opts.weight if mode != "greedy" else 1.0, dominances=opts.dominances)
        if opts.mode == "auto":
            # A small portfolio: greedy with FIFO ties for half the time, then with LIFO ties (on MS
            # FreeCell 1-1000 each solves deals the other gets lost on; either one running dry proves
            # the deal unsolvable).
            first = replace(limits, seconds=limits.seconds / 2)
            status, plan, stats = search(instance, first, cfg)
            last = stats["expansions"]  # of the search whose status stands
            if status is Status.UNKNOWN and not stats.get("memory_out"):
                left = Limits(limits.seconds - (time.perf_counter() - t0), limits.nodes, limits.memory_mb)
                status, plan, stats2 = search(instance, left, replace(cfg, lifo=True))
                last = stats2["expansions"]
                stats2["expansions"] += stats["expansions"]
                stats2["generated"] += stats["generated"]
                stats2["restarts"] = 1
                stats = stats2
        else:
            status, plan, stats = search(instance, limits, cfg)
            last = stats["expansions"]
        stats["mode"] = MODES.index(mode)
        if opts.mode == "auto" and opts.improve > 0 and plan:
            left = limits.seconds - (time.perf_counter() - t0)
            if left > 0.05:
                sub = Limits(seconds=left * opts.improve, nodes=limits.nodes, memory_mb=limits.memory_mb)
                st2, plan2, stats2 = search(instance, sub, replace(cfg, mode="anytime", weight=opts.weight))
                if plan2 is not None and len(plan2) < len(plan):
                    plan = plan2
                    stats["plan_length"] = len(plan)
                for k in ("expansions", "generated"):
                    stats[k] += stats2[k]
        if status is Status.SOLVED and plan is not None:
            return Result(Status.SOLVED, moves_to_json(instance, plan), stats, self.name)
        if status is not Status.UNKNOWN:
            return Result(status, None, stats, self.name)
        if stats.get("memory_out"):
            return Result(status, None, stats, self.name, MEMORY_OUT, Reason.MEMORY)
        # search stops past the node limit (expansions > nodes), else at the deadline.
        nodes_hit = limits.nodes is not None and last > limits.nodes
        return Result(
            status, None, stats, self.name, "limit reached", Reason.NODES if nodes_hit else Reason.TIME
        )
