"""Where the generic search spends its time: cProfile of dfs and planning on deals they find hard.

Issue 15 asks to profile before building a compiled core. For each (game, backend) this runs seeded deals
(Solvitaire's generator) under cProfile with a node limit, then sorts the self time of every function into
the phases of a search step:

- ``movegen``: ``Engine.legal_moves`` and the rule tests it calls (``engine/moves.py``, ``engine/gaps.py``);
- ``apply/undo``: ``Engine.apply``/``undo`` and the redeal they may call;
- ``key``: ``Engine.key``/``snapshot`` (the state key of the transposition table);
- ``table``: the dead-state table and visited sets (``dfs_table``, dict/set operations in the search loop);
- ``prune``: dominances, streamliners, the planning heuristics;
- ``engine``: the rest of the engine (foundation counts, win test, move notation);
- ``builtins``: C functions called from Python (``sum``, ``sorted``, ``len``, ``hash``, heap operations);
- ``search``: the backends' own loops (dfs, planning) and everything else in Python.

Printed: nodes per second, and the share of each phase, one row per (game, backend). A profile slows the
code it measures (roughly 2x), evenly enough for shares; nodes per second without the profiler are printed
beside them.

    python benchmarks/profile_search.py                         # default games, 3 deals each
    python benchmarks/profile_search.py --games freecell,spider --deals 5 --nodes 20000

Prints a Markdown table (benchmarks/out/profile_search.md holds a recorded one); writes nothing.
"""

from __future__ import annotations

import ast
import cProfile
import functools
import os
import pstats
import time
from collections import defaultdict
from pathlib import Path

import _common

from patience.deals import deal
from patience.solvers.base import Limits, get_solver

GAMES = ["freecell", "golf-solvitaire", "king-albert", "canfield", "spider", "fan", "east-haven", "worm-hole"]
PHASES = ("movegen", "apply/undo", "key", "table", "prune", "engine", "builtins", "search")


@functools.cache
def _functions(path: str) -> list[tuple[int, int, str]]:
    """(first line, last line, name) of every function in a source file."""
    tree = ast.parse(Path(path).read_text())
    return [
        (n.lineno, n.end_lineno or n.lineno, n.name)
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
    ]


def _enclosing(path: str, line: int) -> str:
    """Name of the innermost function of ``path`` that contains ``line``."""
    inside = [(last - first, name) for first, last, name in _functions(path) if first <= line <= last]
    return min(inside)[1] if inside else "<module>"


TABLE_BUILTINS = ("<method 'get' of 'dict' objects>", "<method 'add' of 'set' objects>")


def phase(path: str, line: int, func: str) -> str:
    """The search phase a function's self time belongs to (see the module docstring)."""
    base = os.path.basename(path)
    if os.path.basename(os.path.dirname(path)) == "engine":  # the patience.engine package
        if func in ("apply", "undo", "_redeal"):
            return "apply/undo"
        if base in ("moves.py", "gaps.py"):  # legal moves and the rule tests they call
            return "movegen"
        if func.startswith("<"):  # a comprehension: judged by the method it is written in
            func = _enclosing(path, line)
        if func in ("key", "snapshot", "conv"):
            return "key"
        return "engine"
    if base in ("dominance.py", "dfs_prune.py", "heuristics.py", "holes.py"):
        return "prune"
    if base == "dfs_table.py" or func in (
        "<method 'get' of 'dict' objects>",
        "<method 'add' of 'set' objects>",
    ):
        return "table"
    if path == "~":
        return "builtins"
    return "search"


def profile(game: str, backend: str, seeds: range, nodes: int) -> tuple[dict[str, float], float, float]:
    """Phase shares, profiled nodes/s and plain nodes/s of ``backend`` over the seeds of ``game``."""
    solver = get_solver(backend)
    insts = [deal(game, s, "solvitaire") for s in seeds]
    limits = Limits(seconds=600, nodes=nodes)
    solver.solve(insts[0], Limits(seconds=600, nodes=100))  # warm-up: lazy imports, compiles, caches
    t0, plain_nodes = time.perf_counter(), 0
    for inst in insts:
        plain_nodes += int(solver.solve(inst, limits).stats.get("nodes", 0))
    plain = plain_nodes / max(time.perf_counter() - t0, 1e-9)
    prof, prof_nodes = cProfile.Profile(), 0
    t0 = time.perf_counter()
    for inst in insts:
        prof.enable()
        res = solver.solve(inst, limits)
        prof.disable()
        prof_nodes += int(res.stats.get("nodes", 0))
    profiled = prof_nodes / max(time.perf_counter() - t0, 1e-9)
    by_phase: dict[str, float] = defaultdict(float)
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    for (path, line, func), (_cc, _nc, tottime, _ct, _callers) in stats.items():
        by_phase[phase(path, line, func)] += tottime
    total = sum(by_phase.values()) or 1.0
    return {p: by_phase[p] / total for p in PHASES}, profiled, plain


def main() -> None:
    ap = _common.Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    ap.add_argument("--backends", default="dfs,planning", help="comma-separated backends")
    ap.add_argument("--deals", type=int, default=3, help="Solvitaire seeds 1..N per game")
    ap.add_argument("--nodes", type=int, default=20000, help="node limit per deal")
    args = ap.parse_args()
    if args.deals < 1 or args.nodes < 1:
        ap.error("--deals and --nodes must be >= 1")
    print(f"load {_common.load()}; node limit {args.nodes}, Solvitaire seeds 1-{args.deals}")
    print(f"| game | backend | nodes/s | nodes/s profiled | {' | '.join(PHASES)} |")
    print("|---|---|---:|---:|" + "---:|" * len(PHASES))
    for game in args.games.split(","):
        for backend in args.backends.split(","):
            shares, profiled, plain = profile(game, backend, range(1, args.deals + 1), args.nodes)
            cells = " | ".join(f"{100 * shares[p]:.0f}%" for p in PHASES)
            print(f"| {game} | {backend} | {plain:,.0f} | {profiled:,.0f} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
