"""Microsoft FreeCell deals FIRST..LAST: one of our backends against Freecell Solver on the same deals.

The issue's measure (issue 15): every MS deal of 1-32000 solved but 11982, which must come out
UNSOLVABLE (from a complete search: a preset's "could not solve" is not a proof), and our total time
against ``fc-solve -l lg`` on the same deals, run in the same script. Ours goes through
:func:`patience.experiments.runner.run_task` (deal built, solved, every SOLVED replayed by the validator);
Freecell Solver through ``freecell-solver-range-parallel-solve FIRST LAST 1 -l lg`` in one process (its
deals come from its own MS generator, the independent source the deal tests check ours against).

Prints our tally (solved / unsolvable / unknown / error), the deals Freecell Solver left unsolved, every
deal where the two differ (a SOLVED of ours against its "unsolved" is not a conflict: its preset is
incomplete; an UNSOLVABLE of ours against its solution is a bug), the two totals and their ratio.

    .venv/bin/python benchmarks/bench_freecell_ms.py --first 1 --last 1000 --backend planning --limit 10
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections import Counter

import _common
from _common import load

RANGE_SOLVER = "freecell-solver-range-parallel-solve"
_UNSOLVED = re.compile(r"^Unsolved Board No\. (\d+)", re.M)


def fcs_range(first: int, last: int, preset: str) -> tuple[set[int], float]:
    """The deals of FIRST..LAST that Freecell Solver's preset leaves unsolved, and its wall seconds."""
    exe = shutil.which(RANGE_SOLVER)
    if exe is None:
        raise SystemExit(f"{RANGE_SOLVER}: not found (bash benchmarks/peers.sh fcs)")
    t0 = time.perf_counter()
    done = subprocess.run(
        [exe, str(first), str(last), "1", "-l", preset], capture_output=True, text=True, check=True
    )
    return {int(n) for n in _UNSOLVED.findall(done.stdout)}, time.perf_counter() - t0


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--last", type=int, default=200)
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds a deal (ours)")
    ap.add_argument("--workers", type=int, default=0, help="processes for ours (0: this one)")
    ap.add_argument("--preset", default="lg", help="fc-solve preset (-l)")
    _common.add_out(ap, "freecell_ms_FIRST-LAST_BACKEND.md")
    args = ap.parse_args()
    if not 1 <= args.first <= args.last:
        ap.error(f"--first {args.first} --last {args.last}: need 1 <= FIRST <= LAST")
    if not args.limit > 0:
        ap.error(f"--limit {args.limit}: must be positive")
    seeds = range(args.first, args.last + 1)

    print(_common.machine())
    fcs_unsolved, fcs_s = fcs_range(args.first, args.last, args.preset)
    t0 = time.perf_counter()
    rows = _common.solve_all(
        _common.tasks("freecell", seeds, args.backend, args.limit, generator="ms"), workers=args.workers
    )
    ours_s = time.perf_counter() - t0
    status = {r.seed: r.status for r in rows}
    tally = Counter(status.values())
    conflicts = [s for s in seeds if status.get(s) == "unsolvable" and s not in fcs_unsolved]
    unknown = sorted(s for s in seeds if status.get(s) not in ("solved", "unsolvable"))

    lines = [
        f"# MS FreeCell {args.first}-{args.last}: {args.backend} at {args.limit:g} s"
        f" vs fc-solve -l {args.preset}",
        "",
        f"- machine: {_common.machine()}",
        f"- ours ({args.backend}, {args.workers or 1} process{'es' if args.workers > 1 else ''}): "
        + ", ".join(f"{k} {v}" for k, v in sorted(tally.items()))
        + f"; wall {ours_s:.1f} s ({1000 * ours_s / len(seeds):.1f} ms a deal)",
        f"- fc-solve -l {args.preset}: {len(seeds) - len(fcs_unsolved)} solved, unsolved "
        f"{sorted(fcs_unsolved) or 'none'}; wall {fcs_s:.2f} s",
        f"- ratio ours / fc-solve: **{ours_s / max(fcs_s, 1e-9):.0f}x**",
        f"- ours UNSOLVABLE where fc-solve solved (bugs): {conflicts or 'none'}",
        f"- ours undecided: {unknown[:50] or 'none'}{' ...' if len(unknown) > 50 else ''}",
        f"- load at the end: {load()}",
    ]
    print("\n".join(lines))
    out = _common.out_dir(args)
    if out is not None:
        path = out / f"freecell_ms_{args.first}-{args.last}_{args.backend}.md"
        path.write_text("\n".join(lines) + "\n")
        print(f"wrote {path}")
    if conflicts:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
