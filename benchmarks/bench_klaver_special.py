"""Klaver 2022's special FreeCell layouts (section 5.4): loss rates of one suit / one colour dealt deepest.

    python benchmarks/bench_klaver_special.py -n 2000 --census-dir /tmp/special
    nice -n 10 python benchmarks/bench_klaver_special.py -n 300000 --budget-min 20 --workers 2 \\
        --census-dir /tmp/special --out

For each layout (:mod:`patience.analysis.freecell_layouts`): seeds 1..N dealt, ``fc-solve -l lg`` on each
board as a filter, our complete search (dfs-jit, then planning) the verdict on every board it does not solve.
``--census-dir`` keeps one census JSON a layout (resumed when it exists). ``--budget-min`` stops a layout
after the block of ``--block`` seeds that passes the budget, so the report covers seeds 1..K (K <= N).
With ``--out [DIR]``: ``klaver_special.md``: per layout the deals, candidates, lost seeds with their
highest targets, the missed-by-filter seeds, the rate per million with its Wilson 95% interval beside
Klaver's and the default layout's (Klaver's Figure 20 figure and our MS census, read from
``klaver_fig20.md`` beside the output when it is there), the times and the load.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import _common
import _solvitaire
from _common import load

from patience.analysis.freecell_census import Summary
from patience.analysis.freecell_layouts import (
    KLAVER_SPECIAL,
    LAYOUTS,
    deal_layout,
    open_census,
    published_rate,
    rate_p_value,
    run_layout_census,
)
from patience.experiments.stats import wilson
from patience.formats import to_solvitaire

_ROW = re.compile(r"^\| 1-(\d+) \| ([\d,]+) \| (\d+) \|", re.M)
_LARGEST = re.compile(r"largest (\d+) of (\d+) lost deals")


def default_census(path: Path) -> tuple[int, int, int | None] | None:
    """Our MS census from ``klaver_fig20.md``: (lost, deals, largest highest target) of its widest row."""
    if not path.exists():
        return None
    text = path.read_text()
    rows = [(int(b.replace(",", "")), int(c)) for _, b, c in _ROW.findall(text)]
    if not rows:
        return None
    n, k = max(rows)
    big = _LARGEST.search(text)
    return k, n, int(big.group(1)) if big else None


def rate(k: int, n: int) -> str:
    """Per million with the Wilson 95% interval."""
    lo, hi = wilson(k, n)
    return f"{1e6 * k / n:.2f} [{1e6 * lo:.2f}, {1e6 * hi:.2f}]"


def ptext(k1: int, n1: int, k2: int, n2: int) -> str:
    p = rate_p_value(k1, n1, k2, n2)
    return "-" if p is None else f"{p:.2g}"


def main(argv: list[str]) -> int:
    ap = _common.Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--layouts", default="suit-deep,colour-deep", help="comma-separated layouts")
    ap.add_argument("-n", type=int, default=2000, help="seeds a layout, from 1 (2000)")
    ap.add_argument("--block", type=int, default=20_000, help="seeds between budget checks (20000)")
    ap.add_argument("--budget-min", type=float, default=None, help="minutes a layout (default: all N)")
    ap.add_argument("--workers", type=int, default=1, help="filter processes at once (1)")
    ap.add_argument("--chunk", type=int, default=2000, help="seeds a filter task scans (2000)")
    ap.add_argument("--limit", type=float, default=600.0, help="seconds of our search a candidate (600)")
    ap.add_argument("--census-dir", type=Path, default=None, help="census JSON files (resumed when present)")
    ap.add_argument("--report-only", action="store_true",
                    help="scan and solve nothing: report the seeds 1..K each census holds")  # fmt: skip
    ap.add_argument("--peer-check", type=float, default=None, metavar="S",
                    help="also ask Solvitaire about every lost deal, S seconds each")  # fmt: skip
    _common.add_out(ap, "klaver_special.md")
    args = ap.parse_args(argv)
    names = args.layouts.split(",")
    bad = [x for x in names if x not in LAYOUTS]
    if bad:
        ap.error(f"--layouts: unknown {bad}; known {sorted(LAYOUTS)}")
    if args.n < 1 or args.block < 1:
        ap.error("-n and --block: need at least 1")
    fig20 = (args.out or _common.OUT) / "klaver_fig20.md"
    ours_default = default_census(fig20)
    k0, n0, _ = KLAVER_SPECIAL["default"]
    lines = [
        "# Klaver 2022, section 5.4: loss rates of the special starting layouts",
        "",
        f"Machine: {_common.machine()}.",
        "Deals: seeds 1..N of each layout (`patience.analysis.freecell_layouts`: the layout's suits "
        "Ace..King at the deepest places, bottom row first, stack 0 to 7; the other cards shuffled by our "
        "portable rng). "
        "Filter: `fc-solve -l lg` on each board (one process a board); every board it does not solve goes "
        f"to our complete search (dfs-jit, then planning, {args.limit:g} s a board), whose UNSOLVABLE is "
        "'lost' and gives the exact highest target. Rates per million with Wilson 95% intervals; p: exact "
        "two-sided test of equal rates (binomial split of the losses of both samples).",
        "",
    ]
    if ours_default is not None:
        kd, nd, big = ours_default
        lines.append(f"Default layout, our census of MS deals ({fig20.name}): {kd} lost of {nd:,}, "
                     f"{rate(kd, nd)} per million, largest highest target {big}.")  # fmt: skip
    r0, lo0, hi0 = published_rate("default")
    lines += [f"Default layout, Klaver: {k0} of {n0:,}, {r0:.2f} [{lo0:.2f}, {hi0:.2f}] per million.", ""]
    table = ["| layout | deals | lost | ours per million | Klaver | p vs Klaver | p vs default (ours) |"
             " p vs default (Klaver) |", "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    detail: list[str] = []
    for name in names:
        lay = LAYOUTS[name]
        path = args.census_dir / f"klaver_special_{name}.json" if args.census_dir else None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        census, fil = open_census(lay, path)
        runs_path = path.with_suffix(".runs.json") if path is not None else None
        runs = json.loads(runs_path.read_text()) if runs_path is not None and runs_path.exists() else []
        load0, t0 = load(), time.perf_counter()
        done = 0
        if args.report_only:  # the seeds 1..K the census has scanned without a gap
            for c in sorted(census.chunks, key=lambda c: c.first):
                if c.first > done + 1:
                    break
                done = max(done, c.last)
        while done < args.n and not args.report_only:
            if args.budget_min is not None and time.perf_counter() - t0 > 60 * args.budget_min:
                break
            done = min(args.n, done + args.block)
            run_layout_census(census, fil, 1, done, args.limit, args.chunk, args.workers)
            print(
                f"{name}: seeds 1-{done} done, {time.perf_counter() - t0:.0f} s, load {load()}",
                file=sys.stderr,
            )
        if not args.report_only:
            runs.append({"seeds": done, "wall": time.perf_counter() - t0, "load": [load0, load()]})
        if runs_path is not None and not args.report_only:  # wall time over every run of the census
            runs_path.write_text(json.dumps(runs, indent=1) + "\n")
        if done == 0:
            detail += [f"## {name}: no deals scanned", ""]
            continue
        wall = sum(r["wall"] for r in runs)
        loads = "; ".join(f"{r['load'][0]} -> {r['load'][1]}" for r in runs if r["wall"] >= 1)
        s: Summary = census.summary(1, done)
        k, n, label = KLAVER_SPECIAL[lay.klaver]
        r, plo, phi = published_rate(lay.klaver)
        vs_ours = ptext(len(s.lost), s.scanned, ours_default[0], ours_default[1]) if ours_default else "-"
        table.append(
            f"| {name} | {s.scanned:,} | {len(s.lost)} | {rate(len(s.lost), s.scanned)} | "
            f"{r:.2f} [{plo:.2f}, {phi:.2f}] ({k} of {n:,}) | {ptext(len(s.lost), s.scanned, k, n)} | "
            f"{vs_ours} | {ptext(len(s.lost), s.scanned, k0, n0)} |"
        )
        per = 1e3 * s.filter_seconds / s.scanned if s.scanned else float("nan")
        known = [m for m in s.lost.values() if m is not None]
        detail += [
            f"## {name}: {lay.thesis}",
            "",
            f"Seeds 1-{done}: filter {s.filter_seconds:.0f} s over {s.scanned:,} boards ({per:.2f} ms a "
            f"board, filter processes' time); {len(s.candidates)} candidates; verdicts "
            f"{s.verify_seconds:.1f} s. Wall time of the census: {wall:.0f} s "
            f"({1e3 * wall / max(done, 1):.2f} ms a deal), load {loads or load0}.",
            f"Lost {len(s.lost)}; missed by the filter (we win) {len(s.missed)}: {s.missed or 'none'}; "
            f"undecided {len(s.undecided)}: {s.undecided or 'none'}.",
            f"Klaver: {label}.",
            "",
        ]
        if s.lost:
            peer = args.peer_check is not None and _solvitaire.available()
            detail += ["| seed | highest target | backend | nodes | s |" + (" Solvitaire |" if peer else ""),
                       "|---|---|---|---|---|" + ("---|" if peer else "")]  # fmt: skip
            agree = 0
            for d in sorted(s.lost):
                v = census.verdicts[d]
                most = "-" if v.most is None else v.most
                row = f"| {d} | {most} | {v.backend} | {v.nodes} | {v.seconds:.1f} |"
                if peer:
                    got, secs = _solvitaire.classify_deal("free-cell", to_solvitaire(deal_layout(lay, d)),
                                                          args.peer_check)  # fmt: skip
                    agree += got == "L"
                    row += f" {got} ({secs:.1f} s) |"
                detail.append(row)
            detail.append("")
            if peer:
                detail += [f"Solvitaire (`--type free-cell --classify`, {args.peer_check:g} s a deal) calls "
                           f"{agree} of {len(s.lost)} lost deals lost (L).", ""]  # fmt: skip
            elif args.peer_check is not None:
                detail += ["Solvitaire is not built (benchmarks/peers.sh): no peer check.", ""]
        if known:
            big = ours_default[2] if ours_default else None
            cmp = (
                ""
                if big is None
                else (
                    f"; default layout's largest (our MS census): {big}, so "
                    f"{sum(m > big for m in known)} of {len(known)} lost deals exceed it"
                )
            )
            said = (" Klaver: none of this layout's lost deals exceeds the default games' highest."
                    if lay.klaver == "colour-deep" else "")  # fmt: skip
            detail += [f"Highest targets: {dict(s.histogram)}; largest {max(known)}{cmp}.{said}", ""]
    lines += ["## Loss rates", "", *table, "", *detail]
    print("\n".join(lines))
    out = _common.out_dir(args)
    if out is not None:
        _common.write_lines(out / "klaver_special.md", lines)
        print(f"wrote {out / 'klaver_special.md'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
