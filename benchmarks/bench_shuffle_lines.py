"""Gathered-deck riffle study under two play lines (issue 17, W18): does the line a deck is gathered from
decide how many riffles dealing by rows needs?

For each deal (``--by``), line (``--lines``: ``search`` or ``few-turns``, patience.analysis.shuffles)
and k = 1..K: the win rate (conservative Wilson 95%) and the mean direction changes of the lines played
(the order each next deck starts from), beside uniformly shuffled deals. Points are printed as they
finish and, with ``--out``, the table is rewritten after each, so a cut-short run leaves what it measured.
"""

from __future__ import annotations

import time
from pathlib import Path

import _common

NAME = "wolter_shuffles_w18_line.md"


def _cell(p) -> str:
    lo, hi = p.interval()
    return f"{100 * p.won / p.n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}], {p.mean_turns:.2f}"


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="black-hole")
    ap.add_argument("-n", type=int, default=300, help="games a point")
    ap.add_argument("--uniform-n", type=int, default=300, help="uniform deals a line")
    ap.add_argument("--kmin", type=int, default=1)
    ap.add_argument("--kmax", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1, help="seed of the shuffles (another seed: new games)")
    ap.add_argument("--by", default="rows,columns", help="rows,columns")
    ap.add_argument("--lines", default="search,few-turns", help="search,few-turns")
    ap.add_argument("--limit", type=float, default=10.0, help="dfs seconds a game")
    ap.add_argument("--turn-nodes", type=int, default=200_000, help="few-turns search nodes a game")
    _common.add_out(ap, NAME)
    args = ap.parse_args()
    from patience.analysis.shuffles import LINES, study

    bys = [b for b in args.by.split(",") if b]
    lines = [x for x in args.lines.split(",") if x]
    if not bys or any(b not in ("rows", "columns") for b in bys):
        ap.error(f"--by {args.by!r}: rows and/or columns")
    if not lines or any(x not in LINES for x in lines):
        ap.error(f"--lines {args.lines!r}: choose from {','.join(LINES)}")
    sizes = (args.n, args.uniform_n, args.kmin, args.turn_nodes, args.kmax - args.kmin + 1)
    if min(sizes) < 1 or args.limit <= 0:
        ap.error("-n, --uniform-n, --kmin, --turn-nodes must be >= 1, --kmax >= --kmin and --limit > 0")
    out = _common.out_dir(args)
    t0 = time.perf_counter()
    head = [
        "# Gathered-deck riffles under two play lines (issue 17, W18)",
        "",
        f"Commit {_common.commit()}; started {_common.machine()}.",
        f"Game {args.game}, seed {args.seed}; {args.n} games a point (uniform: {args.uniform_n}); dfs at "
        f"{args.limit:g} s; few-turns search {args.turn_nodes:,} nodes a game. Cell: win % [conservative "
        "Wilson 95%], mean direction changes of the lines played (the order the next deck starts from).",
        "",
    ]
    uni: dict[str, str] = {}
    cols = [(b, x) for b in bys for x in lines]
    got: dict[tuple[str, str, int], str] = {}
    loads: list[str] = []

    def table() -> list[str]:
        rows = [f"- uniform shuffle, {x} line: {uni[x]}" for x in lines if x in uni]
        rows += ["", "| k | " + " | ".join(f"gathered by {b}, {x} line" for b, x in cols) + " |"]
        rows.append("|---|" + "---|" * len(cols))
        for k in range(args.kmin, args.kmax + 1):
            rows.append(f"| {k} | " + " | ".join(got.get((b, x, k), "-") for b, x in cols) + " |")
        secs = time.perf_counter() - t0
        rows += ["", f"Wall {secs:.0f} s so far; load after each point: {', '.join(loads)}.", ""]
        return head + rows

    def record(what: str) -> None:
        loads.append(_common.load().split("/")[0])
        print(f"{what}  ({time.perf_counter() - t0:.0f} s, load {_common.load()})", flush=True)
        if out is not None:
            _common.write_lines(Path(out) / NAME, table())

    for x in lines:
        p = study(args.game, "uniform", "rows", [0], args.uniform_n, seed=args.seed, limit_s=args.limit,
                  line=x, turn_nodes=args.turn_nodes)[0]  # fmt: skip
        uni[x] = _cell(p) + f" ({p.won} W / {p.lost} L / {p.unknown} ?, {p.proven} fewest proven)"
        record(f"uniform {x}: {uni[x]}")
    for k in range(args.kmin, args.kmax + 1):
        for b, x in cols:
            p = study(args.game, "gathered", b, [k], args.n, seed=args.seed, limit_s=args.limit, line=x,
                      turn_nodes=args.turn_nodes)[0]  # fmt: skip
            got[(b, x, k)] = _cell(p)
            record(f"k={k} by {b} {x}: {got[(b, x, k)]} ({p.won} W / {p.lost} L / {p.unknown} ?, "
                   f"{p.proven} fewest proven)")  # fmt: skip
    print("\n".join(table()))
    if out is not None:
        print(f"wrote {Path(out) / NAME}")


if __name__ == "__main__":
    main()
