"""Thirty Six: mean cards removed over lost and won deals, beside Wolter's 49.3 (issue 17, row T3).

    python benchmarks/bench_thirty_six_removed.py -n 200 --limit 10 --retry 60 --check 60 --out

``dfs-max`` covers hole games only, but Thirty Six needs no second search: the only dominances that apply
to it (``patience.solvers.dominance.applicable``: ``safe_deal`` and ``safe_home``) both keep the most cards
home, so a complete ``dfs-jit`` search that proves a deal lost reports that figure exact (``max_cards``,
best equal to bound). Passes: ``dfs-jit`` at ``--limit`` seconds on portable deals 1..N, its unknowns
again at ``--retry``; with ``--check``, every lost deal solved again by the pure-Python ``dfs`` (a second
backend; a different verdict or maximum stops the script). A win removes all 52 cards (no card starts on
a foundation, so Wolter's two conventions agree). Deals left undecided are left out of the mean and shown
as its range (all lost with 0 removed .. all won).
"""

from __future__ import annotations

import sys
import time

import _common

PUBLISHED = 49.3  # Wolter 2014, Thirty Six: "On average, 49.3 cards were removed" (Politaire seeds 0-99999)


def main(argv: list[str]) -> int:
    ap = _common.Parser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=20, help="deals 1..N (default 20)")
    ap.add_argument("--limit", type=float, default=10.0, help="first pass, seconds per deal (10)")
    ap.add_argument("--retry", type=float, default=60.0, help="the unknowns again, seconds (60; 0: no)")
    ap.add_argument("--check", type=float, default=0.0, help="lost deals again by dfs, seconds (0: no)")
    _common.add_out(ap, "thirty_six_removed.md")
    args = ap.parse_args(argv)
    if args.n < 1 or args.limit <= 0 or args.retry < 0 or args.check < 0:
        ap.error("-n must be >= 1, --limit > 0, --retry/--check >= 0")

    from patience.analysis.removed import removed_from_rows
    from patience.deals import deal
    from patience.experiments.runner import Job, run_job
    from patience.experiments.store import open_store
    from patience.rules import load_game
    from patience.solvers.base import Limits, solve
    from patience.solvers.dominance import applicable

    rules = load_game("thirty-six").rules
    out = _common.out_dir(args)
    lines = ["# Thirty Six: mean cards removed over lost and won deals (Wolter 2014: 49.3)", ""]

    def say(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    say(f"Machine: {_common.machine()}. Commit {_common.commit()}.")
    say(f"Command: python benchmarks/bench_thirty_six_removed.py {' '.join(argv)}")
    doms = ", ".join(sorted(applicable(rules)))
    say(f"Dominances that apply to Thirty Six: {doms} (both keep the maximum).")
    say()
    seeds = range(1, args.n + 1)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp, open_store(f"{tmp}/t36.sqlite") as st:
        l0, t0 = _common.load(), time.perf_counter()
        rows = {r.seed: r for r in run_job(Job("thirty-six", seeds, "dfs-jit", args.limit), st)}
        took = time.perf_counter() - t0
        say(f"Pass 1: dfs-jit {args.limit:g} s, {took:.0f} s (load {l0} -> {_common.load()}).")
        unknown = [s for s, r in rows.items() if r.status not in ("solved", "unsolvable")]
        if unknown and args.retry > 0:
            l0, t0 = _common.load(), time.perf_counter()
            again = {}
            for s in unknown:
                again[s] = run_job(Job("thirty-six", range(s, s + 1), "dfs-jit", args.retry), st)[0]
            rows.update(again)
            settled = sum(r.status in ("solved", "unsolvable") for r in again.values())
            say(
                f"Pass 2: its {len(unknown)} unknowns at {args.retry:g} s: {settled} settled, "
                f"{time.perf_counter() - t0:.0f} s (load {l0} -> {_common.load()})."
            )
    ordered = [rows[s] for s in seeds]
    res = removed_from_rows("thirty-six", rules, ordered)
    lost = {r.seed: int(r.stats["max_cards_removed"]) for r in ordered if r.status == "unsolvable"}
    say()
    if args.check > 0 and lost:
        l0, t0 = _common.load(), time.perf_counter()
        agree, undecided = 0, 0
        for s, most in lost.items():
            r = solve(deal("thirty-six", s), "dfs", Limits(seconds=args.check))
            if r.status.value == "unknown":
                undecided += 1
                continue
            got = r.max_cards.best if r.max_cards is not None and r.max_cards.proven else None
            if r.status.value != "unsolvable" or got != most:
                raise SystemExit(
                    f"deal {s}: dfs-jit lost with {most}, dfs {r.status.value} with {got}: a bug"
                )
            agree += 1
        say(
            f"Check: the {len(lost)} lost deals by dfs at {args.check:g} s: {agree} agree (lost, same "
            f"maximum), {undecided} undecided, 0 disagree; {time.perf_counter() - t0:.0f} s "
            f"(load {l0} -> {_common.load()})."
        )
        say()
    lo, hi = res.mean_interval()
    n_dec = res.won + res.lost
    lo_all = (sum(k * v for k, v in res.moved.items())) / (n_dec + res.undecided)
    hi_all = (sum(k * v for k, v in res.moved.items()) + 52 * res.undecided) / (n_dec + res.undecided)
    inside = lo <= PUBLISHED <= hi
    rows_md = [
        {
            "figure": "deals",
            "Wolter": "100,000 (Politaire 0-99999)",
            "ours": f"{args.n} (portable 1-{args.n})",
        },
        {
            "figure": "won / lost / undecided",
            "Wolter": "94.33% / 5.34% / 0.33%",
            "ours": f"{res.won} / {res.lost} / {res.undecided + res.inexact}",
        },  # fmt: skip
        {
            "figure": "mean cards removed (decided deals)",
            "Wolter": f"{PUBLISHED}",
            "ours": f"{res.mean():.2f} [{lo:.2f}, {hi:.2f}] (normal 95%, n = {res.counted})",
        },  # fmt: skip
        {
            "figure": "mean with the undecided as 0 .. 52",
            "Wolter": "-",
            "ours": f"{lo_all:.2f} .. {hi_all:.2f}",
        },
        {
            "figure": "lost deals: mean removed",
            "Wolter": "-",
            "ours": f"{sum(lost.values()) / len(lost):.2f}" if lost else "-",
        },  # fmt: skip
        {"figure": "49.3 inside our interval", "Wolter": "-", "ours": str(inside)},
    ]
    for line in _common.md_table(rows_md):
        say(line)
    say()
    say("Lost deals by most cards removed (exact: complete dfs-jit search, safe_deal and safe_home only):")
    say()
    say("| removed | lost deals |")
    say("|---|---|")
    for k, v in res.histogram(lost_only=True).items():
        say(f"| {k} | {v} |")
    say()
    say(f"Lost seeds: {', '.join(f'{s} ({m})' for s, m in lost.items())}.")
    undec = [s for s in seeds if rows[s].status not in ("solved", "unsolvable")]
    say(f"Undecided seeds: {', '.join(map(str, undec)) or 'none'}. Finished: load {_common.load()}.")
    if out:
        _common.write_lines(out / "thirty_six_removed.md", lines)
        print(f"wrote {out / 'thirty_six_removed.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
