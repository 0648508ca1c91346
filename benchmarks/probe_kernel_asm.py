"""Compare two checkouts of the compiled search loops: their machine code and their node counts.

Writes PREFIX_<loop>.s, the x86 code numba emits for the DFS loop of the generic kernel (dfs-jit), the Gaps
kernel (gaps-jit) and the best-first loop (planning-jit), with mangled names, labels and debug lines
stripped so that two checkouts can be diffed; prints each one's size and calls, then the nodes, hits and
table clears of searches that fill the smallest table (and the same searches unclipped), compiled and not.
Run it from each snapshot with its own numba cache, so both compile from scratch (~2 minutes each):

    NUMBA_CACHE_DIR=/tmp/x_cache PYTHONPATH=<snapshot>/src python benchmarks/probe_kernel_asm.py /tmp/x_asm
"""

from __future__ import annotations

import re
import time

from _common import Parser

_DEBUG = (".file", ".loc", "#", ".section", ".ident")


def asm(prefix: str) -> None:
    """Write and summarise the three loops' machine code."""
    from patience.solvers import gaps_kernel
    from patience.solvers.generic_kernel import bestfirst, kernel

    if kernel.compiled() is None:
        raise SystemExit("numba off (PATIENCE_NO_JIT) or not installed: no machine code to show")
    kernel.warm_up()
    gaps_kernel.warm_up()
    bestfirst.warm_up()
    loops = {"kernel": kernel.compiled()["search"], "gaps": gaps_kernel.compiled()["search"],
             "bestfirst": bestfirst.compiled()}  # fmt: skip
    for name, fn in loops.items():
        (text,) = fn.inspect_asm().values()  # one signature each
        text = re.sub(r"_ZN[0-9A-Za-z_$]+", "SYM", text)  # mangled names carry module paths and ids
        text = re.sub(r"\.L[A-Za-z0-9_$.]+", ".L", text)
        lines = [line for line in text.splitlines() if not line.lstrip().startswith(_DEBUG)]
        with open(f"{prefix}_{name}.s", "w") as f:
            f.write("\n".join(lines) + "\n")
        calls = sum(bool(re.match(r"\s*call", line)) for line in lines)
        print(f"{name}: {len(lines)} lines, {calls} calls -> {prefix}_{name}.s")


def counts() -> None:
    """Nodes, hits and clears of table-filling searches (the tests' deals) and of the same unclipped."""
    from patience.deals import deal
    from patience.engine import Engine
    from patience.solvers import gaps_kernel as gk
    from patience.solvers.generic_kernel import kernel
    from patience.solvers.generic_kernel.pack import pack

    keys = ("won", "complete", "nodes", "hits", "clears", "peak_bytes")
    for jit in (True, False):
        for seed in (5, 15):
            p = gk.pack(Engine(deal("gaps-basic-variant", seed, overrides={"ranks": 8})))
            for mem in (1, 1 << 28):
                o = gk.run(p, deadline=time.perf_counter() + 600, node_cap=-1, memory_bytes=mem, jit=jit)
                print("gaps", jit, seed, mem, [o[k] for k in keys], o["compiled"])
        for seed in (9, 2):
            p = pack(Engine(deal("streets-and-alleys", seed, "portable", {"ranks": 12, "piles": 8})))
            flags = (False, False, True, False, False)
            for mem in (0, 1 << 30):
                deadline = time.perf_counter() + 600
                o = kernel.run(p.S, p.L, p.C, frame=p.frame, flags=flags, deadline=deadline, node_cap=-1,
                               memory_bytes=mem, jit=jit)  # fmt: skip
                print("generic", jit, seed, mem, [o[k] for k in keys], o["compiled"])


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("prefix", help="where the .s files go (PREFIX_kernel.s, ...)")
    args = ap.parse_args()
    asm(args.prefix)
    counts()


if __name__ == "__main__":
    main()
