"""A win rate settled in two passes: every deal at a short limit, then only its unknowns at a long one.

Wolter's rates (Thirty Six 94.33% won with 0.33% unresolved; Binary Star 89.5 / 8.0 / 2.5%) need nearly
every deal decided, but most deals take well under a second while a few need minutes. So:

1. ``patience estimate GAME -n N --limit SHORT -b BACKEND --db DB`` (resumable: the store keeps its rows);
2. each deal it left unknown is solved again with ``--retry-backend`` at ``--retry-limit``, one JSON line per
   deal appended to ``--retry-log`` (resumable too: logged seeds are not solved again);
3. the table: both passes and the combined counts, the conservative Wilson 95% interval of the combined
   counts beside the published rate(s), and whether they fall inside.

    python benchmarks/bench_rates.py thirty-six -n 1000 --limit 10s --retry-limit 60s --db t36.sqlite \\
        --retry-log t36-retry.jsonl
    python benchmarks/bench_rates.py binary-star -g pysol -n 200 --limit 30s -b dfs --retry-limit 120s \\
        --retry-backend cpsat --db bs.sqlite --retry-log bs-retry.jsonl --out

Report ``uptime`` with the figures (printed in the header): limits are wall time, so load turns slow deals
into unknowns.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import _common

from patience.analysis.published import WOLTER
from patience.experiments.stats import estimate

RUN = "import sys; from patience.cli import main; sys.argv[0] = 'patience'; main()"
# What each game's published figures are: (label, won %, lost % or None, unresolved %)
PUBLISHED = {
    "thirty-six": ("Wolter 2014, seeds 0-99999", WOLTER["thirty_six_percent"][0], None,
                   WOLTER["thirty_six_percent"][1]),
    "binary-star": ("Wolter 2014, seeds 1-10000", *WOLTER["binary_star_percent"]),
}  # fmt: skip


def _seconds(text: str) -> float:
    """``10s`` / ``2m`` / ``500ms`` / ``30`` as seconds (the CLI's own forms)."""
    for unit, mult in (("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)):
        if text.endswith(unit) and text[: -len(unit)].replace(".", "", 1).isdigit():
            return float(text[: -len(unit)]) * mult
    return float(text)


def first_pass(args) -> dict[int, str]:
    """Run (or resume) the estimate; the status of each seed as stored."""
    cmd = [sys.executable, "-c", RUN, "estimate", args.game, "-n", str(args.n), "--seed", str(args.seed),
           "--limit", args.limit, "-b", args.backend, "-g", args.generator, "--db", args.db,
           "-q", "--json"]  # fmt: skip
    if args.workers is not None:
        cmd += ["-j", str(args.workers)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"bench_rates: estimate failed: {r.stderr.strip()[-300:]}")
    with sqlite3.connect(args.db) as db:
        rows = db.execute(
            "select seed, status from results where game = ? and generator = ? and backend = ?"
            " and limit_s = ? and seed between ? and ?",
            (json.loads(r.stdout)["game"], args.generator, args.backend, _seconds(args.limit), args.seed,
             args.seed + args.n - 1),
        ).fetchall()  # fmt: skip
    return dict(rows)


def second_pass(args, unknown: list[int]) -> dict[int, str]:
    """Solve the unknown seeds again at the long limit, appending to the log; every logged status."""
    import patience

    log = Path(args.retry_log)
    done: dict[int, str] = {}
    if log.exists():
        for line in log.read_text().splitlines():
            row = json.loads(line)
            done[row["seed"]] = row["status"]
    limit = _seconds(args.retry_limit)
    with log.open("a") as f:
        for seed in unknown:
            if seed in done:
                continue
            t = time.perf_counter()
            inst = patience.deal(args.game, seed, generator=args.generator)
            res = patience.solve(inst, backend=args.retry_backend, limit=limit)
            row = {"seed": seed, "status": res.status.value, "seconds": time.perf_counter() - t,
                   "backend": res.backend}  # fmt: skip
            f.write(json.dumps(row) + "\n")
            f.flush()
            done[seed] = row["status"]
            print(f"  retry {args.game}:{seed} -> {row['status']} in {row['seconds']:.1f}s", file=sys.stderr)
    return {s: done[s] for s in unknown if s in done}


def _counts(statuses) -> tuple[int, int, int]:
    s = list(statuses)
    return s.count("solved"), s.count("unsolvable"), len(s) - s.count("solved") - s.count("unsolvable")


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("-n", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-g", "--generator", default="portable")
    ap.add_argument("--limit", default="10s")
    ap.add_argument("-b", "--backend", default="auto")
    ap.add_argument("-j", "--workers", type=int)
    ap.add_argument("--retry-limit", default="60s")
    ap.add_argument("--retry-backend", default="auto")
    ap.add_argument("--db", required=True, help="the estimate's store (resumable)")
    ap.add_argument("--retry-log", required=True, help="JSON lines of the second pass (resumable)")
    ap.add_argument("--note", default="", help="a line for the report (e.g. the load during the passes)")
    _common.add_out(ap, "rates_GAME.md")
    args = ap.parse_args()
    if args.n < 1:
        ap.error("-n: at least 1 deal")
    head = f"# {args.game} ({args.generator}) seeds {args.seed}-{args.seed + args.n - 1}; {_common.load()}"
    print(head, flush=True)
    first = first_pass(args)
    unknown = sorted(s for s, st in first.items() if st not in ("solved", "unsolvable"))
    second = second_pass(args, unknown)
    combined = {**first, **second}
    rows = []
    for label, backend, limit, statuses in (
        ("first pass", args.backend, args.limit, first.values()),
        ("its unknowns again", args.retry_backend, args.retry_limit, second.values()),
        ("combined", "", "", combined.values()),
    ):
        won, lost, unk = _counts(statuses)
        n = won + lost + unk
        pct = [f"{100 * x / n:.2f}%" if n else "-" for x in (won, lost, unk)]
        rows.append({"pass": label, "backend": backend, "limit": limit, "deals": n,
                     "won": f"{won} ({pct[0]})", "lost": f"{lost} ({pct[1]})",
                     "unknown": f"{unk} ({pct[2]})"})  # fmt: skip
    won, lost, unk = _counts(combined.values())
    lo, hi = estimate(won, lost, unk).percent(2)
    decided = 100 * won / max(won + lost, 1)
    interval = f"combined, conservative Wilson 95%: [{lo}%, {hi}%] (decided deals: {decided:.2f}% won)"
    lines = [head, "", *_common.md_table(rows), "", interval]
    pub = PUBLISHED.get(args.game)
    if pub:
        label, pw, pl, pu = pub
        inside = lo <= pw <= hi
        lost = "" if pl is None else f", lost {pl}%"
        lines.append(f"published ({label}): won {pw}%{lost}, unresolved {pu}%: won rate "
                     f"{'inside' if inside else 'OUTSIDE'} our interval")  # fmt: skip
    if args.note:
        lines.append(args.note)
    lines.append(f"# done; {_common.load()}")
    print("\n".join(lines[1:]))
    out = _common.out_dir(args)
    if out is not None:
        _common.write_lines(out / f"rates_{args.game}.md", lines)
        print(f"wrote {out / f'rates_{args.game}.md'}")


if __name__ == "__main__":
    main()
