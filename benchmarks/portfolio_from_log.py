"""Which time split of a two-stage portfolio leaves fewest deals undecided, read off a cross-check log.

Each bench_crosscheck row holds a solver's verdict and wall seconds on one deal at the log's limit. A
stage of a portfolio decides a deal within ``t`` seconds exactly when that solver decided it in at most
``t`` seconds in the log (the stages share nothing, and each starts from scratch), so every split, in
both orders, can be scored from one log without running it. A stage whose solver does not support a game
(verdict ``U``) is scored with its fallback's rows, as ``portfolio`` runs it
(:attr:`~patience.solvers.portfolio.PortfolioOptions.fallbacks`). Only games ``auto`` solves with
``portfolio`` count, unless ``--every-game``. The figures are estimates from logged times (taken under the
load of that run), not a portfolio run. This is how ``portfolio``'s splits were chosen.

``--where PREDICATE`` keeps the games whose rules satisfy one row of
:data:`~patience.solvers.portfolio.STAGES_BY_RULES` (by the predicate's name, e.g.
``free_cells_without_stock``), to choose that row's split over every game it covers. The table's last
line, "portfolio as configured", scores each deal with the stages ``portfolio`` runs on its game's rules.

    python benchmarks/portfolio_from_log.py /tmp/split.jsonl --first dfs-jit --second planning-jit
    python benchmarks/portfolio_from_log.py /tmp/cells.jsonl --where free_cells_without_stock --per-game
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from _common import Parser

Deal = tuple[str, int]
Rows = dict[Deal, dict[str, tuple[str, float]]]
Plan = tuple[tuple[str, float], ...]
# portfolio's two stages on rules no other row covers (kept in step with STAGES_BY_RULES by test_benchmarks)
_DEFAULT = ("dfs-jit", "planning-jit")
SHARES = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def read(log: Path, limit: float) -> Rows:
    """(verdict, seconds) by deal and solver, for the rows at ``limit``."""
    verdict: Rows = defaultdict(dict)
    for line in log.read_text().splitlines():
        if line.strip():
            r = json.loads(line)
            if r.get("limit") == limit:
                verdict[(r["game"], r["seed"])][r["solver"]] = (r["verdict"], r["seconds"])
    return verdict


def stage_solver(rows: dict[str, tuple[str, float]], name: str, fallbacks: dict[str, str]) -> str | None:
    """The solver whose row scores stage ``name`` on this deal: itself, else its fallback (None: no row)."""
    for candidate in (name, fallbacks.get(name)):
        if candidate in rows and rows[candidate][0] != "U":
            return candidate
    return None


def splits(first: str, second: str, lim: float) -> list[tuple[str, Plan]]:
    """(label, stages) for each solver alone and each split, in both orders: stages are (solver, seconds)."""
    out: list[tuple[str, Plan]] = [(f"{first} alone", ((first, lim),)), (f"{second} alone", ((second, lim),))]
    for share in SHARES:
        a, b = round(share * lim, 6), round((1 - share) * lim, 6)
        for x, y in ((first, second), (second, first)):
            out.append((f"{x} {a:g} s, then {y} {b:g} s", ((x, a), (y, b))))
    return out


def configured_plan(stages: tuple[tuple[str, float], ...], limit: float) -> Plan:
    """``portfolio``'s stages as (solver, seconds): each its share of ``limit``, the last what is left."""
    plan = [(name, round(share * limit, 6)) for name, share in stages]
    plan[-1] = (plan[-1][0], round(limit - sum(t for _, t in plan[:-1]), 6))
    return tuple(plan)


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("log", type=Path, help="a bench_crosscheck --log file")
    ap.add_argument("--limit", type=float, default=10.0, help="the log's limit in seconds (default 10)")
    ap.add_argument("--first", default=_DEFAULT[0], help=f"one stage's solver (default {_DEFAULT[0]})")
    ap.add_argument("--second", default=_DEFAULT[1], help=f"the other stage's solver (default {_DEFAULT[1]})")
    ap.add_argument("--every-game", action="store_true", help="also games auto does not give to portfolio")
    ap.add_argument("--per-game", action="store_true", help="also each game's best split")
    ap.add_argument("--where", help="only games whose rules satisfy this STAGES_BY_RULES predicate (by name)")
    args = ap.parse_args()
    if not args.log.is_file():
        ap.error(f"{args.log}: no such log file")
    from patience.rules import load_game
    from patience.solvers.base import _pick_auto
    from patience.solvers.portfolio import STAGES_BY_RULES, PortfolioOptions

    options = PortfolioOptions()
    fallbacks = dict(options.fallbacks)
    where = {when.__name__: when for when, _ in STAGES_BY_RULES}
    if args.where is not None and args.where not in where:
        ap.error(f"--where {args.where}: not a STAGES_BY_RULES predicate (have: {', '.join(where)})")
    verdict = read(args.log, args.limit)
    stage = {
        k: {n: stage_solver(v, n, fallbacks) for n in (args.first, args.second)} for k, v in verdict.items()
    }
    deals = sorted(k for k, s in stage.items() if None not in s.values())  # hidden information: no rows
    skipped: set[str] = set()
    if not args.every_game:
        by_auto = {g: _pick_auto(load_game(g).rules) for g in {g for g, _ in deals}}
        skipped = {g for g, e in by_auto.items() if e is None or e.name != "portfolio"}
        deals = [k for k in deals if k[0] not in skipped]
    if args.where is not None:
        outside = {g for g, _ in deals if not where[args.where](load_game(g).rules)}
        deals = [k for k in deals if k[0] not in outside]
        if outside:
            print(f"(left out, outside {args.where}: {', '.join(sorted(outside))})")
    if not deals:
        have = ", ".join(sorted({n for v in verdict.values() for n in v})) or "none"
        ap.error(
            f"{args.log}: no deal has rows of both {args.first} and {args.second}"
            f" at {args.limit:g} s (solvers: {have})"
        )

    def seconds(k: Deal, plan: Plan | None) -> float | None:
        """When the portfolio ``plan`` (None: as configured) decides deal ``k`` (None: undecided)."""
        spent = 0.0
        for name, t in plan or configured[k[0]]:
            if name not in stage[k]:
                stage[k][name] = stage_solver(verdict[k], name, fallbacks)
            v, s = verdict[k][stage[k][name]]  # type: ignore[index]
            if v in "WL" and s <= t:
                return spent + s
            spent += t
        return None

    plans = splits(args.first, args.second, args.limit)
    configured = {g: configured_plan(options.stages_for(load_game(g).rules), args.limit) for g, _ in deals}
    peer = all("solvitaire" in verdict[k] for k in deals)

    def undecided(plan: Plan | None, ks: list[Deal], peer: bool = False) -> int:
        if peer:  # Solvitaire
            return sum(verdict[k]["solvitaire"][0] not in "WL" for k in ks)
        return sum(seconds(k, plan) is None for k in ks)

    def mean(plan: Plan | None, ks: list[Deal]) -> float:
        """Mean seconds a deal, an undecided one counted at the limit."""
        return sum(args.limit if (t := seconds(k, plan)) is None else t for k in ks) / len(ks)

    games = sorted({g for g, _ in deals})
    print(f"{len(deals)} deals of {len(games)} games at {args.limit:g} s, from {args.log}")
    if skipped:
        print(f"(left out, auto does not run portfolio on them: {', '.join(sorted(skipped))})")
    ranked = sorted(plans, key=lambda r: (undecided(r[1], deals), mean(r[1], deals)))
    print("\n| solver | undecided | mean s a deal |\n|---|---:|---:|")
    for name, plan in ranked:
        print(f"| {name} | {undecided(plan, deals)} | {mean(plan, deals):.2f} |")
    scored = all(stage_solver(verdict[k], n, fallbacks) for k in deals for n, _ in configured[k[0]])
    if scored:  # every stage portfolio runs has rows
        print(f"| portfolio as configured | {undecided(None, deals)} | {mean(None, deals):.2f} |")
    if peer:
        print(f"| Solvitaire | {undecided(None, deals, peer=True)} | |")
    if args.per_game:
        best_name, best = ranked[0]
        print(
            f"\n| game | deals | {best_name} | {args.first} alone | {args.second} alone | as configured "
            "| Solvitaire | fewest undecided here: splits |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---|")
        for g in games:
            ks = [k for k in deals if k[0] == g]
            low = min(undecided(p, ks) for _, p in plans)
            tops = [n for n, p in plans if undecided(p, ks) == low]
            top = f"{low}: " + ("every split" if len(tops) == len(plans) else "; ".join(tops[:3]))
            if 3 < len(tops) < len(plans):
                top += f" (+{len(tops) - 3} more)"
            sv = undecided(None, ks, peer=True) if peer else ""
            print(
                f"| {g} | {len(ks)} | {undecided(best, ks)} | {undecided(plans[0][1], ks)} | "
                f"{undecided(plans[1][1], ks)} | {undecided(None, ks) if scored else ''} | {sv} | {top} |"
            )


if __name__ == "__main__":
    main()
