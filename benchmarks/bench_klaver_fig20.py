"""Klaver 2022's Figure 20: the highest target of lost standard FreeCell deals, from a census of MS deals.

    python benchmarks/bench_klaver_fig20.py --ms 1-100000 --census /tmp/census.json
    python benchmarks/bench_klaver_fig20.py --ms 1-5000000 --workers 2 --census /tmp/census.json --out

Freecell Solver's range solver filters MS deals FIRST-LAST; our complete search decides every deal it leaves
unsolved (:mod:`patience.analysis.freecell_census`). ``--census`` keeps the census (resumed when it exists,
so a census run by ``patience analyze freecell-lost census --out FILE`` is reported without solving again).
With ``--out [DIR]``: ``klaver_fig20.md``: the counts, the lost deals with their highest targets, the loss
rate per million beside the published ones over the whole range and over 1-32000 and 1-1000000 (Windows'
ranges), the histogram, and each phase's time with the load.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import _common
from _common import load

from patience.analysis.freecell_census import (
    FIG20_SHAPE,
    PUBLISHED,
    Census,
    FcsFilter,
    Summary,
    published_interval,
    run_census,
)


def rate(s: Summary) -> str:
    """Lost per million with the conservative Wilson 95% interval."""
    lo, hi = s.interval
    return f"{1e6 * len(s.lost) / s.scanned:.2f} [{1e6 * lo:.2f}, {1e6 * hi:.2f}]" if s.scanned else "-"


def main(argv: list[str]) -> int:
    ap = _common.Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--ms", default="1-100000", help="MS deal numbers FIRST-LAST (default 1-100000)")
    ap.add_argument("--workers", type=int, default=1, help="filter processes at once (1)")
    ap.add_argument("--chunk", type=int, default=100_000, help="deals a filter process scans (100000)")
    ap.add_argument("--limit", type=float, default=600.0, help="seconds of our search a candidate (600)")
    ap.add_argument("--census", type=Path, default=None, help="census JSON file (resumed when it exists)")
    _common.add_out(ap, "klaver_fig20.md")
    args = ap.parse_args(argv)
    try:
        first, last = (int(x) for x in args.ms.split("-"))
    except ValueError:
        ap.error(f"--ms {args.ms!r}: expected FIRST-LAST")
    fil = FcsFilter()
    census = Census.load(args.census, fil.name, "dfs-jit") if args.census else Census(fil.name)
    load0, t0 = load(), time.perf_counter()
    s = run_census(census, first, last, fil, args.limit, args.chunk, args.workers)
    wall = time.perf_counter() - t0
    lines = [
        f"# Klaver 2022 Figure 20: lost standard FreeCell deals among MS deals {first}-{last}",
        "",
        f"Machine: {_common.machine()}. This report's command: {wall:.1f} s, load {load0} -> {load()}.",
        f"Filter: `{fil.name}` (its unsolved deals are candidates only; its dealer compared with ours by "
        f"state counts at {s.checked} deals, all equal). Verdict: our complete search (dfs-jit, then "
        f"planning), {args.limit:g} s a candidate; a lost deal's highest target is exact.",
        "",
        "| phase | what | seconds |",
        "|---|---|---|",
        f"| filter | {s.scanned:,} deals scanned, {len(s.candidates)} candidates | {s.filter_seconds:.1f} "
        "(sum over chunks) |",
        f"| verdict | {len(s.lost)} lost, {len(s.missed)} missed by the filter (we win), "
        f"{len(s.undecided)} undecided | {s.verify_seconds:.1f} |",
        "",
        "## Loss rate, per million deals (95% Wilson interval)",
        "",
        "| deals | scanned | lost | ours | published |",
        "|---|---|---|---|---|",
    ]
    for a, b, key in ((1, 32000, "win95"), (1, 1_000_000, "xp"), (first, last, "klaver")):
        if a < first or b > last:
            continue
        sub = census.summary(a, b)
        pub = "-"
        if key is not None:
            k, n, label = PUBLISHED[key]
            r, plo, phi = published_interval(key)
            pub = f"{r:.2f} [{plo:.2f}, {phi:.2f}]: {k} of {n:,} ({label})"
        lines.append(f"| {a}-{b} | {sub.scanned:,} | {len(sub.lost)} | {rate(sub)} | {pub} |")
    k, n, label = PUBLISHED["kel22"]
    r, plo, phi = published_interval("kel22")
    lines += [
        f"| (Kel22) | | | | {r:.2f} [{plo:.2f}, {phi:.2f}]: {k} of {n:,} ({label}) |",
        "",
        "## Lost deals",
        "",
        "| MS deal | highest target | backend | nodes | s |",
        "|---|---|---|---|---|",
    ]
    for d in sorted(s.lost):
        v = census.verdicts[d]
        lines.append(
            f"| {d} | {'-' if v.most is None else v.most} | {v.backend} | {v.nodes} | {v.seconds:.1f} |"
        )
    if s.missed or s.undecided:
        lines += [
            "",
            f"Missed by the filter (we win): {s.missed or 'none'}; undecided: {s.undecided or 'none'}.",
        ]
    lines += ["", "## Highest target reached (Figure 20)", "", "| highest target | lost deals |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in s.histogram.items()]
    known = [m for m in s.lost.values() if m is not None]
    if known:
        mode = max(s.histogram, key=lambda k: s.histogram[k])
        median = sorted(known)[len(known) // 2]
        lines += ["", f"Ours: mode {mode}, mean {sum(known) / len(known):.2f}, median {median}, largest "
                  f"{max(known)} of {len(known)} lost deals. Published: {FIG20_SHAPE}."]  # fmt: skip
    print("\n".join(lines))
    out = _common.out_dir(args)
    if out is not None:
        _common.write_lines(out / "klaver_fig20.md", lines)
        print(f"wrote {out / 'klaver_fig20.md'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
