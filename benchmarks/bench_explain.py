"""How small and how quick are the explanations of lost Black Hole / All in a Row deals?

Usage:
    .venv/bin/python benchmarks/bench_explain.py [-n 10] [--limit 10] [--games black-hole,all-in-a-row]
        [--vocabulary ranks,links] [--presolve off|on|both] [--grow off|on|both] [--seeds 1,2,...]
        [--name explain.txt] [--out [DIR]]

For each game, the first N lost PySol deals (the dfs backend decides which are lost; or ``--seeds``) get
:func:`patience.solvers.cpsat_hole.explain.explain_deal` with the time limit, once per vocabulary
(:mod:`patience.solvers.cpsat_hole.facts`): ``ranks`` (one fact per rank, "the 7s: 7H (pile 6) waits
for 9D 3S 3D; ...", narrowed to the cards needed) and ``links`` (one fact per card lying on another, the
first explanations' vocabulary, here with the new core-and-deletion machinery). Per deal: the facts kept
of the vocabulary's total, the card precedences they hold, whether deletion proved them minimal, the
seconds, and the cards it names (the distinct cards said to wait for a stack). Each explanation is
re-checked by a fresh model with only its constraints enforced (120 s). ``--presolve both`` explains each
deal twice, with the trials presolved (the behaviour before they ran without presolve) and without,
one after the other so both see the same load; ``--grow both`` likewise with and without the search
for a small first core (``--presolve on --grow off`` is the behaviour before either).
The first explanations' figures (30 s limit, links, deletion without shared trial budgets) are in the
git history of benchmarks/out/explain.txt (commit dc1eb9e), quoted at the end. With ``--out [DIR]`` the
output also goes to DIR/NAME (``--name``, default explain.txt; default DIR benchmarks/out).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

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
    ap.add_argument("--presolve", choices=("off", "on", "both"), default="off", help="presolve the trials")
    ap.add_argument("--grow", choices=("off", "on", "both"), default="on", help="look for a small first core")
    ap.add_argument("--name", default="explain.txt", help="file name under --out")
    ap.add_argument("--seeds", help="comma-separated PySol deals to explain instead of the first N dfs loses")
    _common.add_out(ap, "NAME")
    args = ap.parse_args()
    if args.n < 1 or args.limit <= 0:
        ap.error("-n must be >= 1 and --limit > 0")
    vocabularies = args.vocabulary.split(",")
    bad = [v for v in vocabularies if v not in ("ranks", "links")]
    if bad:
        ap.error(f"--vocabulary: unknown {bad[0]!r} (ranks, links)")
    old_first = {"off": [False], "on": [True], "presolve": [True, False], "grow": [False, True]}
    settings = [
        (pre, grow)
        for pre in old_first[args.presolve if args.presolve != "both" else "presolve"]
        for grow in old_first[args.grow if args.grow != "both" else "grow"]
    ]  # the earlier setting first: presolved trials, no small core
    seeds = f" --seeds {args.seeds}" if args.seeds else ""
    head = (f"# bench_explain -n {args.n} --limit {args.limit:g} --games {args.games} --vocabulary"
            f" {args.vocabulary} --presolve {args.presolve} --grow {args.grow}{seeds};"
            f" commit {_common.commit()}")  # fmt: skip
    log = [head, f"# {_common.machine()}"]
    print("\n".join(log), flush=True)

    def say(line: str) -> None:
        print(line, flush=True)
        log.append(line)

    for game in args.games.split(","):
        lost, seed = [], 0
        if args.seeds:  # an explanation is proven infeasible, so a deal that is not lost gets none
            lost = [(int(s), deal(game, int(s), "pysol")) for s in args.seeds.split(",")]
        while len(lost) < args.n:
            seed += 1
            inst = deal(game, seed, "pysol")
            if solve(inst, "dfs", Limits(seconds=10)).status is Status.UNSOLVABLE:
                lost.append((seed, inst))
        for voc in vocabularies:
            runs = {setting: _Tally() for setting in settings}
            for seed, inst in lost:
                for (pre, grow), tally in runs.items():
                    say(tally.explain(game, seed, inst, voc, pre, grow, args.limit, _tag(voc, pre, grow)))
            for (pre, grow), tally in runs.items():
                say(tally.summary(f"{game} {_tag(voc, pre, grow)}", len(lost)))
    log.append(f"# {BEFORE}")
    log.append(f"# load at end {_common.load()}")
    out = _common.out_dir(args)
    if out:
        _common.write_lines(out / args.name, log)
        print(f"wrote {out / args.name}")


def _tag(voc: str, presolve: bool, grow: bool) -> str:
    """``ranks``, ``ranks, presolved trials, no small core``: a setting's name in the output."""
    return voc + (", presolved trials" if presolve else "") + ("" if grow else ", no small core")


class _Tally:
    """One vocabulary and presolve setting over the lost deals: sizes, times, minimal counts."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.cards: list[int] = []
        self.pairs: list[int] = []
        self.times: list[float] = []
        self.minimal = self.none = self.total = 0

    def explain(
        self, game: str, seed: int, inst: Any, voc: str, presolve: bool, grow: bool, limit: float, tag: str
    ) -> str:
        """Explain one deal, re-check it on a fresh model, and return its line."""
        from patience.solvers.cpsat_hole import HoleDeal  # OR-Tools: not for --help
        from patience.solvers.cpsat_hole.explain import explain_deal, proven_infeasible

        t = time.perf_counter()
        e = explain_deal(inst, limit, voc, presolve=presolve, grow=grow)
        dt = time.perf_counter() - t
        self.times.append(dt)
        if e is None:
            self.none += 1
            return f"{game} #{seed} {tag}: no explanation in {dt:.1f}s (load {_common.load()})"
        assert proven_infeasible(HoleDeal.from_instance(inst), e.kept, 120), (game, seed, voc)
        self.total = e.total
        held = sum(len(f.pairs) for f in e.kept)
        named = len({c for f in e.kept for _a, c in f.pairs})
        self.sizes.append(len(e.facts))
        self.cards.append(named)
        self.pairs.append(held)
        self.minimal += e.minimal
        line = (f"{game} #{seed} {tag}: {len(e.facts)} of {e.total} facts naming {named} cards ({held}"
                f" precedences), {'minimal' if e.minimal else 'not proven minimal'}, {dt:.1f}s, {e.trials}"
                f" trials (load {_common.load()})")  # fmt: skip
        if voc == "ranks" and len(e.facts) <= 5:
            line += "".join(f"\n    - {text}" for text in e.facts)
        return line

    def summary(self, what: str, deals: int) -> str:
        """The medians over the deals."""
        med = f"{statistics.median(self.sizes)} of {self.total}" if self.sizes else "-"
        return (f"{what}: {deals} lost deals, {deals - self.none} explained (re-checked infeasible),"
                f" {self.none} not in time, {self.minimal} proven minimal; facts median {med} (min"
                f" {min(self.sizes, default='-')}, max {max(self.sizes, default='-')}), cards named median"
                f" {statistics.median(self.cards) if self.cards else '-'}, precedences median"
                f" {statistics.median(self.pairs) if self.pairs else '-'}; seconds median"
                f" {statistics.median(self.times):.1f}, max {max(self.times):.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
