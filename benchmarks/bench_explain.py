"""How small and how quick are the explanations of lost Black Hole / All in a Row deals?

Usage:
    .venv/bin/python benchmarks/bench_explain.py [-n 10] [--limit 10] [--games black-hole,all-in-a-row]
        [--vocabulary ranks,links] [--out [DIR]]

For each game, the first N lost PySol deals (the dfs backend decides which are lost) get
:func:`patience.solvers.cpsat_hole.explain.explain_deal` with the time limit, once per vocabulary
(:mod:`patience.solvers.cpsat_hole.facts`): ``ranks`` (one fact per rank, "the 7s: 7H (pile 6) waits
for 9D 3S 3D; ...", narrowed to the cards needed) and ``links`` (one fact per card lying on another, the
first explanations' vocabulary, here with the new core-and-deletion machinery). Per deal: the facts kept
of the vocabulary's total, the card precedences they hold, whether deletion proved them minimal, the
seconds. Each explanation is re-checked by a fresh model with only its constraints enforced (120 s).
The first explanations' figures (30 s limit, links, deletion without shared trial budgets) are in the
git history of benchmarks/out/explain.txt (commit dc1eb9e), quoted at the end. With ``--out [DIR]`` the
output also goes to DIR/explain.txt (default benchmarks/out).
"""

from __future__ import annotations

import argparse
import statistics
import time

import _common

from patience.deals import deal
from patience.solvers.base import Limits, Status, solve

BEFORE = (
    "before (dc1eb9e, links, 30 s, load 1.2-1.6): black-hole facts median 12.5 of 35 (9-21), 4.5 s"
    " (max 11.7); all-in-a-row 29 of 39 (18-39), 30.0 s (max 30.0): 10 of 10 explained"
)


def main() -> None:
    ap = _common.Parser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=10, help="lost deals per game")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per explanation")
    ap.add_argument("--games", default="black-hole,all-in-a-row")
    ap.add_argument("--vocabulary", default="ranks,links", help="comma-separated: ranks, links")
    _common.add_out(ap, "explain.txt")
    args = ap.parse_args()
    if args.n < 1 or args.limit <= 0:
        ap.error("-n must be >= 1 and --limit > 0")
    vocabularies = args.vocabulary.split(",")
    bad = [v for v in vocabularies if v not in ("ranks", "links")]
    if bad:
        ap.error(f"--vocabulary: unknown {bad[0]!r} (ranks, links)")
    from patience.solvers.cpsat_hole import HoleDeal  # OR-Tools: not for --help
    from patience.solvers.cpsat_hole.explain import explain_deal, proven_infeasible

    head = f"# bench_explain -n {args.n} --limit {args.limit:g} --vocabulary {args.vocabulary}"
    log = [f"{head}; {_common.machine()}"]
    print(log[0], flush=True)

    def say(line: str) -> None:
        print(line, flush=True)
        log.append(line)

    for game in args.games.split(","):
        lost, seed = [], 0
        while len(lost) < args.n:
            seed += 1
            inst = deal(game, seed, "pysol")
            if solve(inst, "dfs", Limits(seconds=10)).status is Status.UNSOLVABLE:
                lost.append((seed, inst))
        for voc in vocabularies:
            sizes, times, pairs, minimal, none, total = [], [], [], 0, 0, 0
            for seed, inst in lost:
                t = time.perf_counter()
                e = explain_deal(inst, args.limit, voc)
                dt = time.perf_counter() - t
                times.append(dt)
                if e is None:
                    none += 1
                    say(f"{game} #{seed} {voc}: no explanation in {dt:.1f}s (load {_common.load()})")
                    continue
                assert proven_infeasible(HoleDeal.from_instance(inst), e.kept, 120), (game, seed, voc)
                total = e.total
                held = sum(len(f.pairs) for f in e.kept)
                sizes.append(len(e.facts))
                pairs.append(held)
                minimal += e.minimal
                say(f"{game} #{seed} {voc}: {len(e.facts)} of {e.total} facts ({held} precedences),"
                    f" {'minimal' if e.minimal else 'not proven minimal'}, {dt:.1f}s (load {_common.load()})")
                if voc == "ranks" and len(e.facts) <= 5:
                    for text in e.facts:
                        say(f"    - {text}")
            med = f"{statistics.median(sizes)} of {total}" if sizes else "-"
            say(f"{game} {voc}: {len(lost)} lost deals, {len(lost) - none} explained (re-checked infeasible),"
                f" {none} not in time, {minimal} proven minimal; facts median {med}"
                f" (min {min(sizes, default='-')}, max {max(sizes, default='-')}), precedences median"
                f" {statistics.median(pairs) if pairs else '-'};"
                f" seconds median {statistics.median(times):.1f}, max {max(times):.1f}")
    log.append(f"# {BEFORE}")
    log.append(f"# load at end {_common.load()}")
    out = _common.out_dir(args)
    if out:
        _common.write_lines(out / "explain.txt", log)
        print(f"wrote {out}/explain.txt")


if __name__ == "__main__":
    main()
