"""planning-jit's search orders one by one on deals FIRST..LAST of some games: each order's expansions per
deal (at most CAP a deal), and what a race of some of them would cost (each racer's expansions up to the first
decisive one, in turns of :data:`patience.solvers.planning_jit.RACE_TURN` expansions, as
:func:`patience.solvers.planning_jit.race` takes them).

Counts, not seconds: the same figures at any load (the load is printed for the seconds beside them). Orders
are names of :data:`patience.solvers.planning_jit.ORDERS`, or weighted A* tried ad hoc as ``wW[lifo|fifo]``
with ``W`` in 1, 1.25, 1.5, 2, 3, 4, 6... (the node's bucket is ``ha * 2h + gd * g``: weight ``2 ha / gd``).

    .venv/bin/python benchmarks/bench_planning_jit_orders.py --first 1 --last 1000 --cap 150000 --out
    .venv/bin/python benchmarks/bench_planning_jit_orders.py --games all --generator solvitaire --last 20 \\
        --cap 60000 --orders wlifo,fifo,w3fifo,w1lifo --log orders_games.jsonl
"""

from __future__ import annotations

import itertools
import json
import time
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import _common
from _common import commit, load

Runs = dict[str, tuple[int, bool]]  # order -> (expansions, decided)


def race_cost(runs: Runs, combo: tuple[str, ...], turn: int) -> tuple[int, bool]:
    """Expansions a race of ``combo`` spends on one deal, and whether it decides it (a win or a complete
    search: both end the race)."""
    done = dict.fromkeys(combo, 0)
    total = 0
    while any(done[o] < runs[o][0] for o in combo):
        for o in combo:
            step = min(turn, runs[o][0] - done[o])
            if step <= 0:
                continue
            done[o] += step
            total += step
            if done[o] >= runs[o][0] and runs[o][1]:
                return total, True
    return total, False


def adhoc(name: str) -> tuple[bool, tuple[int, int]] | None:
    """``wW[lifo|fifo]`` as an order (LIFO ties, (ha, gd)) with weight W = 2 ha / gd, or None."""
    for ties in ("lifo", "fifo"):
        if name.startswith("w") and name.endswith(ties):
            try:
                w = Fraction(name[1 : -len(ties)]) / 2
            except (ValueError, ZeroDivisionError):
                return None
            if w <= 0:
                return None
            return ties == "lifo", (w.numerator, w.denominator)
    return None


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--last", type=int, default=200)
    ap.add_argument("--games", default="freecell", help="comma-separated, or 'all' (the kernel's games)")
    ap.add_argument("--generator", default="ms")
    ap.add_argument("--cap", type=int, default=150_000, help="expansions a deal at most")
    ap.add_argument("--orders", default="fifo,lifo,wfifo,wlifo,w3fifo,w1lifo",
                    help="comma-separated: planning_jit.ORDERS names or wW[lifo|fifo]")  # fmt: skip
    ap.add_argument("--log", type=Path, help="append one JSON line an order and deal")
    _common.add_out(ap, "planning_jit_orders_FIRST-LAST.md")
    args = ap.parse_args()
    if not 1 <= args.first <= args.last:
        ap.error(f"--first {args.first} --last {args.last}: need 1 <= FIRST <= LAST")
    from patience.deals import deal
    from patience.engine import Engine
    from patience.rules import list_games
    from patience.solvers.base import Limits
    from patience.solvers.generic_kernel import kernel_supports
    from patience.solvers.heuristics import pick_heuristic
    from patience.solvers.planning_jit import KERNELS, ORDERS, RACE_TURN, PlanningJitOptions, search

    orders = [o for o in args.orders.split(",") if o]
    for o in orders:
        if o not in ORDERS:
            got = adhoc(o)
            if got is None:
                ap.error(f"unknown order {o!r} (one of {', '.join(ORDERS)}, or wW[lifo|fifo])")
            ORDERS[o] = got  # this process only
    games = list_games() if args.games == "all" else [g for g in args.games.split(",") if g]
    KERNELS.warm(True)
    seeds = range(args.first, args.last + 1)
    head = [
        f"# planning-jit's orders, {args.games} ({args.generator} {args.first}-{args.last}), "
        f"at most {args.cap} expansions an order and deal",
        "",
        f"- commit {commit()}; {_common.machine()}; one process",
    ]
    print("\n".join(head), flush=True)
    runs: dict[tuple[str, int], Runs] = defaultdict(dict)
    rows = ["| game | order | decided | undecided | expansions | seconds | load after |", "|---|" * 7]
    limits = Limits(seconds=600, nodes=args.cap)
    log = args.log.open("a") if args.log else None
    for game in games:
        try:
            first = Engine(deal(game, args.first, args.generator))
        except Exception as err:  # a game this generator does not deal: say so and go on
            print(f"- {game}: skipped ({err})")
            continue
        heur = pick_heuristic(first).name
        if not kernel_supports(first.rules) or heur not in ("suits", "runs"):
            print(f"- {game}: not a planning-jit game")
            continue
        for order in orders:
            t0 = time.perf_counter()
            for s in seeds:
                e = Engine(deal(game, s, args.generator))
                r = search(e, heur, PlanningJitOptions(), order, time.perf_counter() + 600, limits)
                runs[game, s][order] = (int(r["expansions"]), bool(r["won"] or r["complete"]))
                if log:
                    ok = bool(r["won"] or r["complete"])
                    exp = int(r["expansions"])
                    line = dict(game=game, seed=s, order=order, exp=exp, won=bool(r["won"]), ok=ok)
                    log.write(json.dumps(line) + "\n")
            open_ = [s for s in seeds if not runs[game, s][order][1]]
            exp = sum(runs[game, s][order][0] for s in seeds)
            rows.append(f"| {game} | {order} | {len(seeds) - len(open_)} | {len(open_)} {open_[:10]} | {exp} "
                        f"| {time.perf_counter() - t0:.1f} | {load()} |")  # fmt: skip
            print(rows[-1], flush=True)
    if log:
        log.close()
    races = ["", f"| race (in turn order, turns of {RACE_TURN}) | decided | expansions |", "|---|---|---|"]
    for k in (1, 2):
        for combo in itertools.permutations(orders, k):
            costs = [race_cost(r, combo, RACE_TURN) for r in runs.values()]
            races.append(
                f"| {', '.join(combo)} | {sum(ok for _, ok in costs)} | {sum(c for c, _ in costs)} |"
            )
    oracle = sum(min((c for c, ok in r.values() if ok), default=0) for r in runs.values())
    lines = [*head, "", *rows, *races, "", f"- the fastest order for each deal (an oracle), summed: {oracle}"]
    print("\n".join(lines[len(head) :]))
    out = _common.out_dir(args)
    if out is not None:
        path = out / f"planning_jit_orders_{args.first}-{args.last}.md"
        path.write_text("\n".join(lines) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
