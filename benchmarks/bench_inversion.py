"""Inverted Black Hole deals before and after the compiled kernel (issue 17, Wolter 2014 sections 4-5).

Deals ``1..n`` (portable seeds) are solved forward by ``dfs`` at ``--nodes``; every deal left undecided is
decided on its inverted game (empty hole, last card next to the Ace) four ways: the pure-Python search
(:func:`patience.analysis.inversion.solve_inverted`, "before") and the hole kernel
(:func:`~patience.analysis.inversion.solve_inverted_kernel`, "after"), each at the same node limit and at
a time limit of ``--limit`` seconds. The peer, black-hole-solver, solves the forward deal within the same
time limit: its verdicts are checked against ours and its time is the ratio's base. Prints Markdown;
``--out`` writes benchmarks/out/inversion.md.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import _common


@dataclass
class Row:
    seed: int
    runs: dict[str, tuple[bool | None, int, float]]  # way -> (won, nodes, seconds)
    peer: tuple[str, float]


WAYS = ("python, nodes", "kernel, nodes", "python, time", "kernel, time")


def _letter(won: bool | None) -> str:
    return "W" if won else "L" if won is False else "?"


def measure(
    n: int, nodes: int, limit: float, log, ways: tuple[str, ...] = WAYS
) -> tuple[list[Row], dict[str, int], float]:
    """The forward tally over deals 1..n and one row per deal the forward search left undecided."""
    from patience.analysis.inversion import solve_inverted, solve_inverted_kernel
    from patience.deals import deal
    from patience.formats import to_board_text
    from patience.solvers import hole_kernel
    from patience.solvers.base import Limits, solve

    hole_kernel.warm_up()  # load the compiled kernel once, outside every timing
    t0 = time.perf_counter()
    fwd = {"solved": 0, "unsolvable": 0, "unknown": 0}
    hard = []
    for s in range(1, n + 1):
        inst = deal("black-hole", s)
        v = solve(inst, "dfs", Limits(seconds=600, nodes=nodes)).status.value
        fwd[v] = fwd.get(v, 0) + 1
        if v == "unknown":
            hard.append((s, inst))
    fwd_s = time.perf_counter() - t0
    log(f"forward: {fwd} in {fwd_s:.1f} s; {len(hard)} undecided")
    rows = []
    for seed, inst in hard:
        runs = {}
        for way in ways:
            fn = solve_inverted if way.startswith("python") else solve_inverted_kernel
            cap = nodes if way.endswith("nodes") else None
            r = fn(inst, limit, cap)
            runs[way] = (r.won, r.nodes, r.seconds)
        peer = (
            _common.bhs_solve(to_board_text(inst), "black_hole", limit)
            if _common.bhs_available()
            else ("-", 0.0)
        )
        row = Row(seed, runs, peer)
        log(f"  seed {row.seed}: " + ", ".join(f"{w} {_letter(x[0])} {x[2]:.2f}s" for w, x in runs.items())
            + f", peer {peer[0]} {peer[1]:.2f}s")  # fmt: skip
        rows.append(row)
    return rows, fwd, fwd_s


def report(rows: list[Row], fwd: dict[str, int], fwd_s: float, args, load0: str) -> list[str]:
    ways = args.ways
    lines = [
        "# Inverted Black Hole deals: pure-Python search (before) against the compiled hole kernel (after)",
        "",
        f"Machine: {_common.machine()} (load at the start {load0}). Portable deals 1..{args.n}, forward "
        f"`dfs` at {args.nodes:,} nodes: won {fwd['solved']}, lost {fwd['unsolvable']}, undecided "
        f"{fwd['unknown']} ({fwd_s:.1f} s). Each undecided deal's inverted game (empty hole, last card next "
        f"to the Ace) is searched by `solve_inverted` (Python, walk-degree test with the permitted ends) and "
        f"`solve_inverted_kernel` (compiled hole kernel, the end condition as a terminal card, no degree "
        f"test), at the same {args.nodes:,}-node limit and at {args.limit:g} s. Peer: black-hole-solver "
        f"(`--rank-reach-prune`) on the forward deal at {args.limit:g} s, process start included. Wolter: "
        f"53 of 10^6 deals undecided forward, inverted 4 won and 49 lost. Ways run here: {'; '.join(ways)}.",
        "",
        "| way | won | lost | undecided | time (sum) | nodes (sum) | nodes/s | time / peer's |",
        "|---|---|---|---|---|---|---|---|",
    ]
    peer_s = sum(r.peer[1] for r in rows)
    for way in ways:
        got = [r.runs[way] for r in rows]
        secs, nodes = sum(g[2] for g in got), sum(g[1] for g in got)
        rate = f"{nodes / secs:,.0f}" if secs else "-"
        ratio = f"{secs / peer_s:.2f}" if peer_s else "-"
        lines.append(
            f"| {way} | {sum(g[0] is True for g in got)} | {sum(g[0] is False for g in got)} | "
            f"{sum(g[0] is None for g in got)} | {secs:.1f} s | {nodes:,} | {rate} | {ratio} |"
        )
    p = _common.tally(r.peer[0] for r in rows)
    lines.append(f"| peer (forward) | {p['W']} | {p['L']} | {p['?']} | {peer_s:.1f} s | - | - | 1.00 |")
    clash = [
        r.seed
        for r in rows
        for w in ways
        if r.runs[w][0] is not None and r.peer[0] in "WL" and _letter(r.runs[w][0]) != r.peer[0]
    ]
    ways_clash = [r.seed for r in rows if len({r.runs[w][0] for w in ways} - {None}) > 1]
    lines += [
        "",
        f"Verdicts differing from the peer's: {sorted(set(clash)) or 'none'}; between our ways: "
        f"{ways_clash or 'none'}. Finished: load {_common.load()}.",
        "",
        "| seed | " + " | ".join(ways) + " | peer |",
        "|---|" + "---|" * (len(ways) + 1),
    ]
    for r in rows:
        cells = [f"{_letter(x[0])} {x[2]:.2f} s ({x[1]:,})" for x in (r.runs[w] for w in ways)]
        lines.append(f"| {r.seed} | " + " | ".join(cells) + f" | {r.peer[0]} {r.peer[1]:.2f} s |")
    return lines + [""]


def main() -> None:
    ap = _common.Parser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=300, help="deals 1..n")
    ap.add_argument("--nodes", type=int, default=20_000, help="node limit, forward and inverted")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per inverted search and peer run")
    ap.add_argument(
        "--ways", default="python,kernel", help="searches to run, comma-separated: python, kernel (both)"
    )
    ap.add_argument("--out", action="store_true", help="write benchmarks/out/NAME")
    ap.add_argument("--name", default="inversion.md", help="file name under benchmarks/out for --out")
    args = ap.parse_args()
    picked = {w for w in args.ways.split(",") if w}
    if not picked or picked - {"python", "kernel"}:
        ap.error(f"--ways {args.ways!r}: python, kernel or both")
    if args.n < 1 or args.nodes < 1 or args.limit <= 0:
        ap.error("-n and --nodes must be >= 1, --limit > 0")
    args.ways = tuple(w for w in WAYS if w.split(",")[0] in picked)
    load0 = _common.load()
    print(_common.peers_line(), flush=True)
    rows, fwd, fwd_s = measure(args.n, args.nodes, args.limit, lambda s: print(s, flush=True), args.ways)
    text = "\n".join(report(rows, fwd, fwd_s, args, load0))
    print(text)
    if args.out:
        (_common.OUT / args.name).write_text(text)


if __name__ == "__main__":
    main()
