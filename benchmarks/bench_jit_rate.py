"""Nodes per second of dfs (Python) and gaps-jit (compiled) on the same Gaps basic-variant deals.

Each deal is capped at CAP nodes, so both visit the very same nodes (checked: equal node counts and verdicts,
or the run fails).

Solvitaire's deals FIRST..LAST (``-g solvitaire``); the solve calls' wall time (wins replayed by the
validator included), the kernel loaded before timing. With ``--out [DIR]``, writes gaps_jit_rate.md there.

    PYTHONPATH=<snapshot>/src nice -n 5 .venv/bin/python benchmarks/bench_gaps_jit_rate.py 1 50 200000 --out

``--jit-only`` times gaps-jit alone (no dfs, no check against it): two checkouts of the kernel on the very
same nodes, at caps the Python search would take minutes over. ``--cpu`` counts the process's CPU seconds
instead of wall time (steadier on a machine shared with other runs).
"""

from __future__ import annotations

import sys
import time

import _common
from _common import Parser, commit, load

GAME = "gaps-basic-variant"


def main(argv: list[str]) -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("first", type=int, help="first Solvitaire seed")
    ap.add_argument("last", type=int, help="last Solvitaire seed")
    ap.add_argument("cap", type=int, help="nodes a deal (each search stops there)")
    ap.add_argument("--jit-only", action="store_true", help="time gaps-jit alone (no dfs)")
    ap.add_argument("--cpu", action="store_true", help="CPU seconds of this process, not wall time")
    _common.add_out(ap, "gaps_jit_rate.md")
    args = ap.parse_args(argv)
    if not 1 <= args.first <= args.last or args.cap < 1:
        ap.error("need 1 <= FIRST <= LAST and CAP >= 1")

    from patience.deals import deal
    from patience.solvers import gaps_kernel
    from patience.solvers.base import Limits, get_solver

    t = time.perf_counter()
    gaps_kernel.warm_up()
    only = " --jit-only" if args.jit_only else ""
    flags = only + (" --cpu" if args.cpu else "")
    clock = time.process_time if args.cpu else time.perf_counter
    head = [
        f"# {'' if only else 'dfs against '}gaps-jit: nodes per second, {GAME} Solvitaire seeds "
        f"{args.first}-{args.last}, cap {args.cap:,} nodes a deal",
        "",
        f"- {commit()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; one process, nice 5; "
        f"kernel loaded in {time.perf_counter() - t:.1f} s; load at start {load()}",
        f"- `python benchmarks/bench_gaps_jit_rate.py {args.first} {args.last} {args.cap}{flags} --out`",
        "",
    ]
    print("\n".join(head), flush=True)
    names = ("gaps-jit",) if only else ("dfs", "gaps-jit")
    secs = dict.fromkeys(names, 0.0)
    nodes = dict.fromkeys(names, 0)
    verdicts: dict[str, int] = {}
    for seed in range(args.first, args.last + 1):
        inst = deal(GAME, seed, "solvitaire")
        got = {}
        for name in secs:
            t = clock()
            r = get_solver(name).solve(inst, Limits(seconds=600, nodes=args.cap))
            secs[name] += clock() - t
            nodes[name] += int(r.stats["nodes"])
            got[name] = (r.status.value, int(r.stats["nodes"]))
        if got.get("dfs", got["gaps-jit"]) != got["gaps-jit"]:
            sys.exit(f"seed {seed}: dfs {got['dfs']} but gaps-jit {got['gaps-jit']} (same search expected)")
        verdicts[got["gaps-jit"][0]] = verdicts.get(got["gaps-jit"][0], 0) + 1
    rate = {k: nodes[k] / secs[k] for k in secs}
    n = args.last - args.first + 1
    tally = ", ".join(f"{v} {k}" for k, v in sorted(verdicts.items()))
    said = f"Verdicts {tally}." if only else f"Same nodes and verdicts deal by deal ({tally}); gaps-jit "
    said += "" if only else f"{rate['gaps-jit'] / rate['dfs']:.0f}x dfs's nodes/s."
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
        _common.write_lines(out / "gaps_jit_rate.md", lines)


if __name__ == "__main__":
    main(sys.argv[1:])
