"""Klaver's maximal lost FreeCell games found by dealing the lock backwards (issue 17, rows K10-K13).

    python benchmarks/bench_klaver_unwind.py --configs 8-10-4-1 6-10-4-3 --seconds 600 --seeds 1 2 --out

For each configuration and seed, :func:`patience.analysis.freecell_unwind.unwind` for ``--seconds``; a
deal found is searched again from scratch by ``dfs-jit`` and by the pure-Python ``dfs`` with every
dominance and streamliner off (``--recheck`` seconds each): both must prove it lost with the bound home
(anything else stops the script). With ``--out [DIR]``: ``klaver_unwind.md`` and each deal found as
``klaver-unwind-<config>-s<seed>.json`` (an instance file).
"""

from __future__ import annotations

import sys

import _common


def main(argv: list[str]) -> int:
    ap = _common.Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", nargs="+", default=["8-10-4-1"], help="stacks-ranks-suits-cells")
    ap.add_argument("--seeds", nargs="+", type=int, default=[1], help="walk seeds (1)")
    ap.add_argument("--seconds", type=float, default=60.0, help="walk budget per config and seed (60)")
    ap.add_argument("--check", type=float, default=3.0, help="complete search per state, seconds (3)")
    ap.add_argument("--jump", type=int, default=12, help="most levels jumped back when stuck (12)")
    ap.add_argument("--tries", type=int, default=8, help="predecessors checked per state (8)")
    ap.add_argument("--recheck", type=float, default=600.0, help="re-check of a deal found, seconds (600)")
    _common.add_out(ap, "klaver_unwind.md and the deals found")
    args = ap.parse_args(argv)
    if min(args.seconds, args.check, args.recheck, args.jump, args.tries) <= 0:
        ap.error("--seconds, --check, --recheck, --jump and --tries must be > 0")

    from patience.analysis.freecell_lost import Config, describe, highest_target, upper_bound
    from patience.analysis.freecell_unwind import unwind
    from patience.instance import Instance
    from patience.solvers.base import Limits, Status, get_solver

    out = _common.out_dir(args)
    lines = ["# Klaver's maximal lost games, dealt backwards from the lock", ""]

    def say(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    say(f"Machine: {_common.machine()}. Commit {_common.commit()}.")
    say(f"Command: python benchmarks/bench_klaver_unwind.py {' '.join(argv)}")
    say()
    rows = []
    found = []
    closest = []
    for label in args.configs:
        cfg = Config.parse(label)
        for seed in args.seeds:
            l0 = _common.load()
            r = unwind(cfg, seed=seed, tries=args.tries, jump=args.jump, seconds=args.seconds,
                       check_seconds=args.check)  # fmt: skip
            row = {
                "config": label,
                "seed": seed,
                "bound": upper_bound(cfg),
                "found": r.deal is not None,
                "fewest cards left to deal back": r.fewest_left,
                "checks": r.checks,
                "lost / won / unknown": f"{r.statuses['unsolvable']} / {r.statuses['solved']} / "
                f"{r.checks - r.statuses['unsolvable'] - r.statuses['solved']}",
                "backjumps": r.backjumps,
                "s": f"{r.seconds:.0f}",
                "load": f"{l0} -> {_common.load()}",
            }
            if r.deal is not None:
                jit = highest_target(r.deal, seconds=args.recheck)
                plain = get_solver("dfs", dominances=frozenset(), streamline_share=0).solve(
                    r.deal, Limits(seconds=args.recheck)
                )
                most = plain.max_cards.best if plain.max_cards else None
                plain_ok = plain.status is Status.UNSOLVABLE and most == upper_bound(cfg)
                if (jit.status, jit.most) != ("unsolvable", upper_bound(cfg)) or not (
                    plain_ok or plain.status is Status.UNKNOWN
                ):
                    raise SystemExit(f"{label} seed {seed}: re-check failed: {jit}, {plain.status} {most}")
                plain_text = f"lost, {most} home" if plain_ok else f"undecided in {args.recheck:g} s"
                row["re-check dfs-jit / plain dfs"] = (
                    f"lost, {jit.most} home ({jit.nodes} nodes) / {plain_text} "
                    f"({int(plain.stats.get('nodes', 0))} nodes)"
                )
                found.append((label, seed, r.deal))
                if out:
                    src = {"study": "Klaver maximal lost game, dealt backwards (bench_klaver_unwind.py)",
                           "seed": seed, "highest_target": jit.most}  # fmt: skip
                    Instance(r.deal.game, r.deal.rules, r.deal.layout, r.deal.overrides, src).save(
                        out / f"klaver-unwind-{label}-s{seed}.json"
                    )
            elif r.closest is not None:
                closest.append((label, seed, r.closest))
            rows.append(row)
            print(row, flush=True)
    for line in _common.md_table(rows):
        say(line)
    say()
    for label, seed, d in found:
        say(f"{label}, seed {seed} (bottom row first, as the thesis prints):")
        say()
        say("```")
        say(describe(d.layout.tableau))
        say("```")
        say()
    for label, seed, st in closest:
        held = " ".join(str(c) for c in st.cells if c is not None) or "none"
        say(f"{label}, seed {seed}: the lost state closest to a deal (cells {held}; home by suit {st.home}):")
        say()
        say("```")
        say(describe(st.tableau))
        say("```")
        say()
    say(f"Finished: load {_common.load()}.")
    if out:
        _common.write_lines(out / "klaver_unwind.md", lines)
        print(f"wrote {out / 'klaver_unwind.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
