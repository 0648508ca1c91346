"""Nodes per second of dfs (Python) and a compiled twin of its search (gaps-jit, row-jit) on the same deals.

Each deal is capped at CAP nodes, so both visit the very same nodes (checked: equal node counts and verdicts,
or the run fails). dfs runs without its streamlined phase (``streamline_share=0``), which the twins do not
have (Gaps never runs it; on a row game it is the same search cut short, then started again).

Solvitaire's deals FIRST..LAST (``-g solvitaire``) of ``--game`` (default: gaps-basic-variant with gaps-jit;
accordion with ``--backend row-jit``); the solve calls' wall time (wins replayed by the validator included),
the kernel loaded before timing. With ``--out [DIR]``, writes <backend>_rate.md there (gaps_jit_rate.md).

    PYTHONPATH=<snapshot>/src nice -n 5 .venv/bin/python benchmarks/bench_jit_rate.py 1 50 200000 --out
    nice -n 5 .venv/bin/python benchmarks/bench_jit_rate.py 1 20 300000 --backend row-jit --out

``--jit-only`` times the compiled backend alone (no dfs, no check against it): two checkouts of the kernel on
the very same nodes, at caps the Python search would take minutes over. ``--cpu`` counts the process's CPU
seconds instead of wall time (steadier on a machine shared with other runs).
"""

from __future__ import annotations

import sys
import time

import _common
from _common import Parser, commit, load

GAMES = {"gaps-jit": "gaps-basic-variant", "row-jit": "accordion"}  # each backend's default game


def main(argv: list[str]) -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("first", type=int, help="first Solvitaire seed")
    ap.add_argument("last", type=int, help="last Solvitaire seed")
    ap.add_argument("cap", type=int, help="nodes a deal (each search stops there)")
    ap.add_argument("--backend", choices=sorted(GAMES), default="gaps-jit", help="the compiled backend")
    ap.add_argument("--game", help="the game (default: the backend's, GAMES)")
    ap.add_argument("--jit-only", action="store_true", help="time the compiled backend alone (no dfs)")
    ap.add_argument("--cpu", action="store_true", help="CPU seconds of this process, not wall time")
    _common.add_out(ap, "<backend>_rate.md")
    args = ap.parse_args(argv)
    if not 1 <= args.first <= args.last or args.cap < 1:
        ap.error("need 1 <= FIRST <= LAST and CAP >= 1")

    from patience.deals import deal
    from patience.solvers.base import Limits, get_solver

    jit, game = args.backend, args.game or GAMES[args.backend]
    t = time.perf_counter()
    get_solver(jit).kernels.warm(True)
    only = " --jit-only" if args.jit_only else ""
    flags = only + (" --cpu" if args.cpu else "") + f" --backend {jit} --game {game}"
    clock = time.process_time if args.cpu else time.perf_counter
    head = [
        f"# {'' if only else 'dfs against '}{jit}: nodes per second, {game} Solvitaire seeds "
        f"{args.first}-{args.last}, cap {args.cap:,} nodes a deal",
        "",
        f"- {commit()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; one process, nice 5; "
        f"kernel loaded in {time.perf_counter() - t:.1f} s; load at start {load()}",
        f"- `python benchmarks/bench_jit_rate.py {args.first} {args.last} {args.cap}{flags} --out`",
        "",
    ]
    print("\n".join(head), flush=True)
    names = (jit,) if only else ("dfs", jit)
    solvers = {"dfs": get_solver("dfs", streamline_share=0), jit: get_solver(jit)}
    secs = dict.fromkeys(names, 0.0)
    nodes = dict.fromkeys(names, 0)
    verdicts: dict[str, int] = {}
    for seed in range(args.first, args.last + 1):
        inst = deal(game, seed, "solvitaire")
        got = {}
        for name in secs:
            t = clock()
            r = solvers[name].solve(inst, Limits(seconds=600, nodes=args.cap))
            secs[name] += clock() - t
            nodes[name] += int(r.stats["nodes"])
            got[name] = (r.status.value, int(r.stats["nodes"]))
        if got.get("dfs", got[jit]) != got[jit]:
            sys.exit(f"seed {seed}: dfs {got['dfs']} but {jit} {got[jit]} (same search expected)")
        verdicts[got[jit][0]] = verdicts.get(got[jit][0], 0) + 1
    rate = {k: nodes[k] / secs[k] for k in secs}
    n = args.last - args.first + 1
    tally = ", ".join(f"{v} {k}" for k, v in sorted(verdicts.items()))
    said = f"Verdicts {tally}." if only else f"Same nodes and verdicts deal by deal ({tally}); {jit} "
    said += "" if only else f"{rate[jit] / rate['dfs']:.0f}x dfs's nodes/s."
    lines = head + [
        f"| backend | deals | nodes | {'CPU ' if args.cpu else ''}seconds | nodes/s |",
        "|---|---|---|---|---|",
        *(f"| {k} | {n} | {nodes[k]:,} | {secs[k]:.2f} | {rate[k]:,.0f} |" for k in secs),
        "",
        f"{said} Load at the end {load()}.",
    ]
    print("\n".join(lines[len(head) :]))
    out = _common.out_dir(args)
    if out is not None:
        _common.write_lines(out / f"{jit.replace('-', '_')}_rate.md", lines)


if __name__ == "__main__":
    main(sys.argv[1:])
