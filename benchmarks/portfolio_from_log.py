"""Which time split of a dfs + planning portfolio leaves fewest deals undecided, read off a cross-check log.

Each bench_crosscheck row holds a solver's verdict and wall seconds on one deal at the log's limit. A
stage of a portfolio decides a deal within ``t`` seconds exactly when that solver decided it in at most
``t`` seconds in the log (the stages share nothing, and each starts from scratch), so every split can be
scored from one log without running it. This is how ``portfolio``'s default split was chosen; the
figures are estimates from logged times (taken under the load of that run), not a portfolio run.

    python benchmarks/portfolio_from_log.py /work/crosscheck50.jsonl
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log", type=Path, help="a bench_crosscheck --log file")
    ap.add_argument("--limit", type=float, default=10.0, help="the log's limit in seconds (default 10)")
    args = ap.parse_args()
    verdict: dict[tuple[str, int], dict[str, tuple[str, float]]] = defaultdict(dict)
    for line in args.log.read_text().splitlines():
        r = json.loads(line)
        if r.get("limit") == args.limit:
            verdict[(r["game"], r["seed"])][r["solver"]] = (r["verdict"], r["seconds"])
    deals = [k for k, v in verdict.items() if {"dfs", "planning", "solvitaire"} <= set(v)]
    deals = [k for k in deals if verdict[k]["dfs"][0] != "U"]  # hidden-information games: skipped

    def decided(k: tuple[str, int], solver: str, t: float) -> bool:
        v, s = verdict[k][solver]
        return v in "WL" and s <= t

    lim = args.limit
    rows = [
        ("dfs alone", lambda k: decided(k, "dfs", lim)),
        ("planning alone", lambda k: decided(k, "planning", lim)),
        ("Solvitaire", lambda k: verdict[k]["solvitaire"][0] in "WL"),
    ]
    for share in (0.1, 0.2, 0.3, 0.5):
        a, b = share * lim, (1 - share) * lim
        rows.append(
            (
                f"dfs {a:g} s, then planning {b:g} s",
                lambda k, a=a, b=b: decided(k, "dfs", a) or decided(k, "planning", b),
            )
        )
        rows.append(
            (
                f"planning {a:g} s, then dfs {b:g} s",
                lambda k, a=a, b=b: decided(k, "planning", a) or decided(k, "dfs", b),
            )
        )
    print(f"{len(deals)} deals of {len({g for g, _ in deals})} games at {lim:g} s, from {args.log}\n")
    print("| solver | undecided |\n|---|---:|")
    for name, ok in sorted(rows, key=lambda r: sum(not r[1](k) for k in deals)):
        print(f"| {name} | {sum(not ok(k) for k in deals)} |")


if __name__ == "__main__":
    main()
