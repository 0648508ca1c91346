"""dfs-jit (the compiled generic kernel) against dfs, planning and the peers on the same deals, in one script.

Three parts, each optional:

* ``--speed``: nodes per second of ``dfs`` and ``dfs-jit`` on the same deals of every game the kernel covers
  (Solvitaire's deals where it has the game), each run stopped at the same node limit, so both visit the very
  same nodes (the table shows that the counts and verdicts agree) and the ratio is one of time per node. The
  kernel is compiled (or loaded from numba's cache) first; that time is printed apart.
* ``--ms FIRST-LAST``: Microsoft FreeCell deals through the runner (dealt, solved, every win replayed by the
  validator) with dfs-jit and the ``--ms-backends`` (default planning) at ``--limit``, against
  ``freecell-solver-range-parallel-solve FIRST LAST 1 -l lg`` on the same deals when it is installed.
* ``--solvitaire N``: Solvitaire's seeds 1..N of the covered games it knows with our rules (``--games``),
  dfs-jit against Solvitaire at ``--limit``, with every verdict conflict listed.

Every figure is printed with the machine load (2 shared cores: timings are noisy); ``--out`` writes
``bench_jit.md`` (and the rows as ``bench_jit.csv``).

    python benchmarks/bench_jit.py --speed --ms 1-200 --solvitaire 10 --limit 10 --out
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import _common
import _solvitaire
from _common import load

SPEED_NODES = 20_000
HARD = (
    "bakers-game,beleaguered-castle,fan,fore-cell,freecell,king-albert,mrs-mop,northwest-territory,raglan,"
    "seahaven-towers-single-card,siegecraft,somerset,spanish-patience,streets-and-alleys,stronghold"
)


def covered(thoughtful: bool = True) -> list[Any]:
    """The game files whose rules the kernel covers."""
    from patience.rules import list_games
    from patience.solvers.generic_kernel import kernel_supports

    return [g for g in list_games() if kernel_supports(g.rules) and g.rules.thoughtful == thoughtful]


def speed(seeds: int, nodes: int, games: set[str] | None = None) -> tuple[list[str], list[dict]]:
    """Part 1: the same node limit for dfs and dfs-jit on each deal; nodes/s of each and the ratio."""
    from patience.deals import deal
    from patience.solvers.base import Limits, get_solver
    from patience.solvers.generic_kernel import kernel

    t0 = time.perf_counter()
    warm = kernel.warm_up()
    lines = [
        f"## Nodes per second, dfs vs dfs-jit ({nodes:,} nodes a deal, seeds 1-{seeds})",
        "",
        f"Kernel compile or cache load: {warm:.1f} s ({time.perf_counter() - t0:.1f} s with imports); "
        f"load {load()} at the start.",
        "",
    ]
    rows = []
    limits = Limits(seconds=600, nodes=nodes)
    for g in covered():
        if games and g.name not in games:
            continue
        gen = "solvitaire" if g.solvitaire_name and not g.solvitaire_differs else "portable"
        tot = {"dfs": [0.0, 0], "dfs-jit": [0.0, 0]}
        same = True
        for seed in range(1, seeds + 1):
            inst = deal(g.name, seed, gen)
            got = {}
            for name in ("dfs", "dfs-jit"):
                r = get_solver(name).solve(inst, limits)
                s = r.stats["seconds"] - r.stats.get("jit_s", 0.0)
                tot[name][0] += s
                tot[name][1] += int(r.stats.get("nodes", 0))
                got[name] = (r.status, r.stats.get("nodes"))
            same = same and got["dfs"] == got["dfs-jit"]
        a = tot["dfs"][1] / max(tot["dfs"][0], 1e-9)
        b = tot["dfs-jit"][1] / max(tot["dfs-jit"][0], 1e-9)
        row = dict(
            part="speed", game=g.name, deals=f"{gen} 1-{seeds}", nodes=tot["dfs"][1], dfs_nps=round(a),
            jit_nps=round(b), ratio=round(b / max(a, 1e-9), 1), same_nodes_and_verdicts=same, load=load(),
        )  # fmt: skip
        rows.append(row)
        print(row, flush=True)
    lines += _common.md_table(rows, ["game", "deals", "nodes", "dfs_nps", "jit_nps", "ratio",
                                     "same_nodes_and_verdicts", "load"])  # fmt: skip
    ratios = sorted(r["ratio"] for r in rows)
    lines += ["", f"Ratio jit/dfs: median {ratios[len(ratios) // 2]}x, range {ratios[0]}-{ratios[-1]}x.", ""]
    return lines, rows


def ms(first: int, last: int, backends: list[str], limit: float) -> tuple[list[str], list[dict]]:
    """Part 2: MS FreeCell FIRST..LAST, our backends through the runner, fc-solve on the same deals."""
    seeds = range(first, last + 1)
    lines = [f"## MS FreeCell {first}-{last} at {limit:g} s a deal (one process each)", ""]
    rows = []
    for backend in backends:
        t0 = time.perf_counter()
        got = _common.solve_all(_common.tasks("freecell", seeds, backend, limit, generator="ms"))
        wall = time.perf_counter() - t0
        tally = Counter(r.status for r in got)
        unknown = sorted(r.seed for r in got if r.status not in ("solved", "unsolvable"))
        row = dict(
            part="ms", backend=backend, deals=len(seeds), solved=tally["solved"],
            unsolvable=tally["unsolvable"], other=len(seeds) - tally["solved"] - tally["unsolvable"],
            wall_s=round(wall, 1), solve_s=round(sum(r.seconds for r in got), 1), undecided=unknown[:20],
            load=load(),
        )  # fmt: skip
        rows.append(row)
        print(row, flush=True)
    import shutil

    from bench_freecell_ms import RANGE_SOLVER, fcs_range

    if shutil.which(RANGE_SOLVER):
        unsolved, secs = fcs_range(first, last, "lg")
        row = dict(part="ms", backend="fc-solve -l lg", deals=len(seeds), solved=len(seeds) - len(unsolved),
                   unsolvable=0, other=len(unsolved), wall_s=round(secs, 2), solve_s=round(secs, 2),
                   undecided=sorted(unsolved)[:20], load=load())  # fmt: skip
        rows.append(row)
        print(row, flush=True)
    else:
        lines += [f"{RANGE_SOLVER} not installed: no Freecell Solver row.", ""]
    lines += _common.md_table(rows, ["backend", "deals", "solved", "unsolvable", "other", "wall_s", "solve_s",
                                     "undecided", "load"])  # fmt: skip
    lines.append("")
    return lines, rows


def versus_solvitaire(games: list[str], n: int, limit: float) -> tuple[list[str], list[dict]]:
    """Part 3: dfs-jit against Solvitaire on Solvitaire's seeds 1..n (games whose rules differ from the
    preset's run too, flagged, and their disagreements are not conflicts)."""
    from patience.rules import load_game

    lines = [f"## dfs-jit vs Solvitaire, Solvitaire's seeds 1-{n}, {limit:g} s a deal", ""]
    if not _solvitaire.available():
        return lines + ["Solvitaire not built (bash benchmarks/peers.sh solvitaire).", ""], []
    rows = []
    conflicts = []
    for game in games:
        gf = load_game(game).file
        if not gf.solvitaire_name:
            continue
        same = not gf.solvitaire_differs  # else both run, and a W/L disagreement is no conflict
        ours = _common.solve_all(
            _common.tasks(game, range(1, n + 1), "dfs-jit", limit, generator="solvitaire")
        )
        v_ours = {r.seed: _common.verdict(r.status) for r in ours}
        v_peer: dict[int, str] = {}
        t_peer = 0.0
        for seed in range(1, n + 1):
            v, s = _solvitaire.classify_seed(gf.solvitaire_name, seed, limit)
            v_peer[seed] = v
            t_peer += s
        if same:
            conflicts += [(game, s) for s in v_ours if {v_ours[s], v_peer[s]} == {"W", "L"}]
        a, b = Counter(v_ours.values()), Counter(v_peer.values())
        row = dict(
            part="solvitaire", game=game, rules="same" if same else "differ", deals=n,
            jit=f"{a['W']}/{a['L']}/{n - a['W'] - a['L']}",
            solvitaire=f"{b['W']}/{b['L']}/{n - b['W'] - b['L']}",
            jit_s=round(sum(r.seconds for r in ours), 1), solvitaire_s=round(t_peer, 1), load=load(),
        )  # fmt: skip
        rows.append(row)
        print(row, flush=True)
    lines += [
        "won/lost/unknown; seconds are the sums over the deals (ours: the solve, Solvitaire: its process).",
        "",
    ]
    keys = ["game", "rules", "deals", "jit", "solvitaire", "jit_s", "solvitaire_s", "load"]
    lines += _common.md_table(rows, keys)
    unk_j = sum(int(r["jit"].split("/")[2]) for r in rows)
    unk_s = sum(int(r["solvitaire"].split("/")[2]) for r in rows)
    lines += [
        "",
        f"Unknown in all: dfs-jit {unk_j}, Solvitaire {unk_s}. Conflicts (W vs L): {conflicts or 'none'}.",
        "",
    ]
    return lines, rows


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--speed", action="store_true", help="nodes/s of dfs and dfs-jit on the same deals")
    ap.add_argument("--speed-seeds", type=int, default=3)
    ap.add_argument("--speed-nodes", type=int, default=SPEED_NODES)
    ap.add_argument("--speed-games", default="", help="games for --speed (comma-separated; default: all)")
    ap.add_argument("--ms", metavar="FIRST-LAST", help="MS FreeCell deals, e.g. 1-200")
    ap.add_argument("--ms-backends", default="dfs-jit,planning")
    ap.add_argument("--solvitaire", type=int, default=0, metavar="N", help="Solvitaire's seeds 1..N")
    ap.add_argument("--games", default=HARD, help="games for --solvitaire (comma-separated)")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds a deal (--ms, --solvitaire)")
    ap.add_argument("--name", default="bench_jit", help="stem of the --out files (default bench_jit)")
    _common.add_out(ap, "NAME.md and NAME.csv")
    args = ap.parse_args()
    if not (args.speed or args.ms or args.solvitaire):
        ap.error("nothing to do: give --speed, --ms FIRST-LAST and/or --solvitaire N")
    if args.limit <= 0:
        ap.error(f"--limit {args.limit}: must be positive")
    first = last = 0
    if args.ms:
        try:
            first, last = (int(x) for x in args.ms.split("-"))
        except ValueError:
            ap.error(f"--ms {args.ms!r}: expected FIRST-LAST, e.g. 1-200")
        if not 1 <= first <= last:
            ap.error(f"--ms {args.ms}: need 1 <= FIRST <= LAST")
    lines = ["# dfs-jit: the compiled generic kernel (issue 15 item 2)", "",
             f"- machine: {_common.machine()}", f"- {_common.peers_line()}", ""]  # fmt: skip
    rows: list[dict] = []
    if args.speed:
        ls, rs = speed(args.speed_seeds, args.speed_nodes, set(filter(None, args.speed_games.split(","))))
        lines += ls
        rows += rs
    if args.ms:
        ls, rs = ms(first, last, args.ms_backends.split(","), args.limit)
        lines += ls
        rows += rs
    if args.solvitaire:
        ls, rs = versus_solvitaire(args.games.split(","), args.solvitaire, args.limit)
        lines += ls
        rows += rs
    lines.append(f"- load at the end: {load()}")
    print("\n".join(lines))
    out = _common.out_dir(args)
    if out is not None:
        _common.write_lines(out / f"{args.name}.md", lines)
        _common.write_csv(out / f"{args.name}.csv", [{k: str(v) for k, v in r.items()} for r in rows],
                          sorted({k for r in rows for k in r}))  # fmt: skip
        print(f"wrote {out / args.name}.md")


if __name__ == "__main__":
    main()
