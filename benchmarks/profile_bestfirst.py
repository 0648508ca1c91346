"""Where planning-jit's best-first loop spends its time, sampled by ``perf``: this script runs the compiled
loop (:func:`patience.solvers.generic_kernel.bestfirst.run`, FIFO ties, planning-jit's packing and
dominances) on MS FreeCell FIRST..LAST, each deal to its win or CAP expansions, after naming the compiled
functions for perf (``/tmp/perf-PID.map``), and prints the expansions per second; ``perf report`` then gives
each function's share of the samples (a helper LLVM inlined counts in its caller).

Samples are CPU time, so unlike timing parts of the loop by hand they hold up on a loaded machine. numba
must compile here (the names come from the compiled library), so ``NUMBA_CACHE_DIR`` is set to a fresh
directory:

    NUMBA_CACHE_DIR=$(mktemp -d) perf record -e cpu-clock:u -o X.data .venv/bin/python \\
        benchmarks/profile_bestfirst.py --first 1 --last 200 --cap 20000
    perf report -i X.data --stdio --sort sym
"""

from __future__ import annotations

import os
import re
import time
from typing import Any

import _common
from _common import commit, load


def perf_map(fn: Any) -> int:
    """Name ``fn``'s compiled functions for ``perf report`` (``/tmp/perf-PID.map``: start, size, name, each
    size running to the next function's start); return how many."""
    lib = fn.overloads[fn.signatures[0]].library
    names = set(re.findall(r'^define [^@]*@"?([^"(]+)"?\(', lib.get_llvm_str(), re.M))
    addr = sorted((lib.get_pointer_to_function(n), n) for n in names)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for (a, n), (b, _) in zip(addr, [*addr[1:], (addr[-1][0] + 4096, "")], strict=True):
            if a:
                short = re.sub(r"B\d+v\d+B.*", "", n.replace("_ZN8patience7solvers14generic_kernel", ""))
                f.write(f"{a:x} {min(b - a, 1 << 16):x} {short}\n")
    return len(addr)


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--last", type=int, default=200)
    ap.add_argument("--cap", type=int, default=20000, help="expansions a deal at most")
    args = ap.parse_args()
    from patience.deals import deal
    from patience.engine import Engine
    from patience.solvers.base import Limits
    from patience.solvers.generic_kernel import bestfirst
    from patience.solvers.planning_jit import PlanningJitOptions, search

    t0 = time.perf_counter()
    bestfirst.warm_up()
    named = perf_map(bestfirst.compiled())
    print(f"# bestfirst on MS FreeCell {args.first}-{args.last}, FIFO, at most {args.cap} expansions a deal")
    print(
        f"- {commit()}; {_common.machine()}; compiled in {time.perf_counter() - t0:.1f} s, {named} functions"
    )
    secs, exp, nav, gen = 0.0, 0, 0, 0
    limits = Limits(seconds=600, nodes=args.cap)
    for seed in range(args.first, args.last + 1):
        e = Engine(deal("freecell", seed, "ms"))
        t = time.perf_counter()
        r = search(e, "suits", PlanningJitOptions(), "fifo", t + 600, limits)
        secs += time.perf_counter() - t
        exp, nav, gen = exp + r["expansions"], nav + r["navigation"], gen + r["generated"]
    print(f"- {secs:.3f} s, {exp} expansions ({exp / secs:,.0f}/s), {gen} children ({gen / exp:.2f}/exp), "
          f"walk steps {nav} ({nav / exp:.2f}/exp); load {load()}")  # fmt: skip


if __name__ == "__main__":
    main()
