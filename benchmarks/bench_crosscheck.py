"""Cross-check dfs, planning and Solvitaire on every game Solvitaire knows, deal by deal.

For every model in ``models/`` with a ``solvitaire_name``, seeds 1..N are dealt with the ``solvitaire``
generator (the deal Solvitaire makes for ``--random SEED``) and solved, each with the same time limit, by
our ``dfs`` and ``planning`` backends (through :func:`patience.solvers.base.solve`, so every win is
replayed by the validator) and by Solvitaire (``--type NAME --random SEED --classify``, built by
``benchmarks/peers.sh``). Solvitaire's ``--deal-only`` print of each seed is compared with our deal first,
so a verdict is only compared with ours when both solved the same puzzle.

Every solve is one task in a process pool (``--workers``, default 2, one solve per process at a time so
each gets a core and the limit is honest). Memory is capped per solve: ``Limits(memory_mb=...)`` for ours,
``--cache-capacity`` for Solvitaire. Games whose rules are ``thoughtful: false`` (hidden information) are
skipped with a note. On a game whose model says why its rules differ from the preset
(``solvitaire_differs``), Solvitaire still runs but its verdicts are not compared: its disagreements are
listed apart, as expected ones, while dfs and planning must still agree with each other.

Printed: a table per game (won / lost / unknown / other for each solver, side by side, with median and max
seconds), then every SOLVED-vs-UNSOLVABLE conflict with the shell command reproducing each side, every
backend error and every deal that differs from Solvitaire's. Exit code 1 when there is any of these.

    python benchmarks/bench_crosscheck.py --games american-canister -n 40
    python benchmarks/bench_crosscheck.py -n 50 --limit 10 --log /tmp/crosscheck.jsonl --out

``--log FILE`` appends every finished solve as a JSON line and reuses the lines already there (same game,
seed, solver and limit), so an interrupted run resumes; ``--summarize`` prints the tables from the log
without solving anything. ``--out [STEM]`` writes ``benchmarks/out/STEM.csv`` (one row per solve) and
``STEM.md`` (the tables); nothing is written without it.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, NoReturn

import _solvitaire
from _common import load

from patience.deals import deal
from patience.formats import to_solvitaire
from patience.interrupt import worker_init
from patience.rules import RuleError, list_games, load_game
from patience.solvers.base import Limits, Status, solve

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "out"
OURS = ("dfs", "planning")
SOLVERS = (*OURS, "solvitaire")
CODE = {Status.SOLVED: "W", Status.UNSOLVABLE: "L", Status.UNKNOWN: "?", Status.UNSUPPORTED: "U"}
KB_PER_STATE = 1.0  # Solvitaire's cache, rounded up from the measured 0.85 KB a state


def die(msg: str) -> NoReturn:
    """Bad input: one line naming the problem, exit code 2."""
    print(f"bench_crosscheck: {msg}", file=sys.stderr)
    raise SystemExit(2)


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse's own errors, one line too
        die(message)


def ours_command(game: str, seed: int, backend: str, limit: float) -> str:
    """The shell command reproducing one of our solves."""
    return f"patience solve {game}:{seed} -g solvitaire --backend {backend} --limit {limit:g}s"


def command(row: dict[str, Any]) -> str:
    """The shell command reproducing the solve of ``row``."""
    if row["solver"] == "solvitaire":
        return _solvitaire.command(load_game(row["game"]).file.solvitaire_name, row["seed"], row["limit"])
    return ours_command(row["game"], row["seed"], row["solver"], row["limit"])


def run_task(game: str, seed: int, solver: str, limit: float, memory_mb: int) -> dict[str, Any]:
    """One solve in a pool worker: verdict W/L/?/U/E, wall seconds and a message (deal building included)."""
    row: dict[str, Any] = {"game": game, "seed": seed, "solver": solver, "limit": limit, "message": ""}
    t0 = time.perf_counter()
    try:
        inst = deal(game, seed, "solvitaire")
        if solver == "solvitaire":
            preset = load_game(game).file.solvitaire_name
            row["message"] = _solvitaire.deal_difference(
                to_solvitaire(inst), _solvitaire.deal_only(preset, seed)
            )
            cache = int(memory_mb * 1024 / KB_PER_STATE)
            row["verdict"], _ = _solvitaire.classify_seed(preset, seed, limit, cache)
            row["deal_differs"] = bool(row["message"])
        else:
            res = solve(inst, solver, Limits(seconds=limit, memory_mb=memory_mb))
            row["verdict"] = CODE.get(res.status, "E")
            row["message"] = res.message if res.status in (Status.ERROR, Status.UNSUPPORTED) else ""
    except Exception as err:  # a crash is reported as an error row, never lost
        row["verdict"], row["message"] = "E", f"{type(err).__name__}: {err}"
    row["seconds"] = round(time.perf_counter() - t0, 4)
    return row


def read_log(path: Path | None) -> list[dict[str, Any]]:
    """Rows already in the JSON-lines log (none when there is no log)."""
    if path is None or not path.exists():
        return []
    rows = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                die(f"{path}:{n}: not a JSON line (is this a bench_crosscheck log?)")
    return rows


def rules_differ(game: str) -> str:
    """Why the model's rules differ from its Solvitaire preset ("" when they are the same game)."""
    return getattr(load_game(game).file, "solvitaire_differs", "")


def conflicts(
    rows: list[dict[str, Any]], expected: bool = False
) -> list[tuple[str, int, list[dict], list[dict]]]:
    """Every deal some solver won and another proved lost: (game, seed, winners, losers).

    Solvitaire's verdicts count only where it solved our deal under our rules; with ``expected`` the
    disagreements with Solvitaire on games whose rules differ on purpose (``solvitaire_differs``) instead.
    """
    by_deal: dict[tuple[str, int], list[dict]] = {}
    for r in rows:
        if not r.get("deal_differs"):
            by_deal.setdefault((r["game"], r["seed"]), []).append(r)
    out = []
    for (game, seed), rs in sorted(by_deal.items()):
        differ = bool(rules_differ(game))
        if expected and not differ:
            continue
        if differ and not expected:
            rs = [r for r in rs if r["solver"] != "solvitaire"]
        won = [r for r in rs if r["verdict"] == "W"]
        lost = [r for r in rs if r["verdict"] == "L"]
        if won and lost and (not expected or {r["solver"] for r in won + lost} & {"solvitaire"}):
            out.append((game, seed, won, lost))
    return out


def game_table(game: str, rows: list[dict[str, Any]], solvers: tuple[str, ...] = SOLVERS) -> list[str]:
    """The per-game table: one line per solver."""
    lines = [
        f"### {game} (Solvitaire {load_game(game).file.solvitaire_name})",
        "",
        "| solver | deals | won | lost | unknown | other | median s | max s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for s in solvers:
        rs = [r for r in rows if r["solver"] == s]
        if not rs:
            continue
        c = {v: sum(r["verdict"] == v for r in rs) for v in "WL?"}
        other = len(rs) - sum(c.values())
        times = [r["seconds"] for r in rs]
        lines.append(
            f"| {s} | {len(rs)} | {c['W']} | {c['L']} | {c['?']} | {other} | "
            f"{statistics.median(times):.2f} | {max(times):.2f} |"
        )
    return lines + [""]


def report(
    rows: list[dict[str, Any]],
    games: list[str],
    skipped: list[str],
    head: str,
    solvers: tuple[str, ...] = SOLVERS,
) -> tuple[list[str], bool]:
    """All tables and problem lists as markdown lines, and whether anything is wrong."""
    lines = [head, ""]
    for note in skipped:
        lines.append(f"- skipped {note}")
    lines += [
        "",
        "## Summary: won/lost/unknown per solver (+other: unsupported or error)",
        "",
        "| game | deals | " + " | ".join(solvers) + " | conflicts |",
        "|---|---|" + "---|" * len(solvers) + "---|",
    ]
    found = conflicts(rows)
    for g in games:
        rs = [r for r in rows if r["game"] == g]
        cells = []
        for s in solvers:
            v = [r["verdict"] for r in rs if r["solver"] == s]
            other = len(v) - sum(v.count(x) for x in "WL?")
            cells.append(f"{v.count('W')}/{v.count('L')}/{v.count('?')}" + (f" +{other}" if other else ""))
        n = len({r["seed"] for r in rs})
        if rules_differ(g) and "solvitaire" in solvers:
            cells[solvers.index("solvitaire")] += " (rules differ)"
        lines.append(f"| {g} | {n} | " + " | ".join(cells) + f" | {sum(c[0] == g for c in found)} |")
    lines += [""]
    for g in games:
        lines += game_table(g, [r for r in rows if r["game"] == g], solvers)
    lines += [f"## Conflicts (SOLVED vs UNSOLVABLE): {len(found)}", ""]
    for game, seed, won, lost in found:
        lines.append(f"- {game}:{seed}")
        for r in won + lost:
            what = "SOLVED" if r["verdict"] == "W" else "UNSOLVABLE"
            lines.append(f"  - {r['solver']} {what} in {r['seconds']:.2f} s: `{command(r)}`")
    known = conflicts(rows, expected=True)
    lines += ["", f"## Disagreements with Solvitaire where our rules differ on purpose: {len(known)}", ""]
    for g in sorted({c[0] for c in known}):
        seeds = [str(c[1]) for c in known if c[0] == g]
        lines.append(f"- {g} (seeds {', '.join(seeds)}): {rules_differ(g)[:200]}")
    errors = [r for r in rows if r["verdict"] == "E"]
    differs = [r for r in rows if r.get("deal_differs")]
    lines += ["", f"## Backend errors: {len(errors)}", ""]
    lines += [f"- {r['game']}:{r['seed']} {r['solver']}: {r['message']} (`{command(r)}`)" for r in errors]
    lines += ["", f"## Deals that differ from Solvitaire's: {len(differs)}", ""]
    lines += [f"- {r['game']}:{r['seed']}: {r['message']}" for r in differs]
    return lines, bool(found or errors or differs)


def select_solvers(names: str) -> tuple[str, ...]:
    """The solvers ``--solvers`` names: registered backends of ours, ``auto`` (what ``patience solve``
    picks for each game) and ``solvitaire``."""
    from patience.solvers.registry import BACKENDS

    chosen = tuple(dict.fromkeys(x.strip() for x in names.split(",") if x.strip()))
    for name in chosen:
        if name not in ("auto", "solvitaire") and name not in BACKENDS:
            known = ", ".join([*sorted(BACKENDS), "auto", "solvitaire"])
            die(f"--solvers: unknown backend {name!r} (known: {known})")
    if not chosen:
        die("--solvers: name at least one solver")
    return chosen


def select_games(names: str | None) -> tuple[list[str], list[str]]:
    """The games to run (Solvitaire presets, thoughtful) and notes on the ones skipped."""
    known = {gf.name: gf for gf in list_games()}
    if names:
        chosen = []
        for n in (x.strip() for x in names.split(",") if x.strip()):
            try:
                gf = load_game(n).file
            except RuleError as err:
                die(f"--games: {err}")
            if not gf.solvitaire_name:
                die(f"--games: {gf.name} has no Solvitaire preset (no solvitaire_name in its model)")
            chosen.append(gf)
    else:
        chosen = [gf for gf in known.values() if gf.solvitaire_name]
    games, skipped = [], []
    for gf in chosen:
        if gf.rules.thoughtful:
            games.append(gf.name)
        else:
            skipped.append(
                f"{gf.name}: thoughtful false (hidden information; our solvers answer UNSUPPORTED)"
            )
    return games, skipped


def main() -> None:
    ap = Parser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=50, help="seeds 1..N per game (default 50)")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per solve, every solver (default 10)")
    ap.add_argument("--games", help="comma-separated games (default: every game with a Solvitaire preset)")
    ap.add_argument("--workers", type=int, default=2, help="parallel solves (default 2)")
    ap.add_argument("--memory-mb", type=int, default=4000, help="memory cap per solve (default 4000)")
    ap.add_argument(
        "--solvers",
        default=",".join(SOLVERS),
        help=f"comma-separated backends of ours, auto and/or solvitaire (default {','.join(SOLVERS)})",
    )
    ap.add_argument("--log", type=Path, help="JSON-lines log: finished solves are appended and reused")
    ap.add_argument("--summarize", action="store_true", help="print the tables from --log, solve nothing")
    ap.add_argument("--out", nargs="?", const="crosscheck", help="write benchmarks/out/STEM.csv and .md")
    args = ap.parse_args()
    if args.n < 1 or args.limit <= 0 or args.workers < 1 or args.memory_mb < 100:
        die("-n and --workers must be >= 1, --limit > 0 and --memory-mb >= 100")
    if args.summarize and not args.log:
        die("--summarize needs --log FILE")
    solvers = select_solvers(args.solvers)
    if "solvitaire" in solvers and not _solvitaire.available() and not args.summarize:
        die(f"Solvitaire not built at {_solvitaire.SOLVITAIRE} (run: bash benchmarks/peers.sh)")
    games, skipped = select_games(args.games)
    seeds = range(1, args.n + 1)
    want = {(g, s, v) for g in games for s in seeds for v in solvers}
    old = [r for r in read_log(args.log) if r.get("limit") == args.limit]
    done = {
        (r["game"], r["seed"], r["solver"]): r for r in old if (r["game"], r["seed"], r["solver"]) in want
    }
    rows = list(done.values())
    # Seed-major order: every game gets its first deals early, so a stopped run still covers every game.
    todo = [(g, s, v) for s in seeds for g in games for v in solvers if (g, s, v) not in done]
    load0, t0 = load(), time.perf_counter()
    print(
        f"{len(games)} games x {args.n} seeds x {len(solvers)} solvers at {args.limit:g} s: {len(rows)} "
        f"from the log, {0 if args.summarize else len(todo)} to run, {args.workers} workers (load {load0})",
        flush=True,
    )
    if todo and not args.summarize:
        log = args.log.open("a") if args.log else None
        pool_args = {"initializer": worker_init, "initargs": (os.getpid(),)}  # workers die with this script
        with ProcessPoolExecutor(args.workers, max_tasks_per_child=25, **pool_args) as pool:
            pending: set[Future] = set()
            it = iter(todo)
            for task in it:  # keep the pool just full, so a Ctrl-C loses only the solves in flight
                pending.add(pool.submit(run_task, *task, args.limit, args.memory_mb))
                if len(pending) < 2 * args.workers:
                    continue
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    rows.append(_record(f.result(), rows, log, t0))
            for f in pending:
                rows.append(_record(f.result(), rows, log, t0))
        if log:
            log.close()
    head = f"# Cross-check, Solvitaire seeds 1-{args.n}, {args.limit:g} s a solve, " + (
        f"summarized from {args.log}"
        if args.summarize
        else f"{args.workers} workers (load {load0} -> {load()}, {time.perf_counter() - t0:.0f} s)"
    )
    lines, bad = report(rows, games, skipped, head, solvers)
    print("\n".join(lines), flush=True)
    if args.out:
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / f"{args.out}.md").write_text("\n".join(lines) + "\n")
        fields = ["game", "seed", "solver", "limit", "verdict", "seconds", "deal_differs", "message"]
        with (OUT / f"{args.out}.csv").open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
            w.writeheader()
            w.writerows(sorted(rows, key=lambda r: (r["game"], r["seed"], solvers.index(r["solver"]))))
    raise SystemExit(1 if bad else 0)


def _record(row: dict[str, Any], rows: list[dict], log: Any, t0: float) -> dict[str, Any]:
    """Log a finished solve; print it at once when it is an error, a deal mismatch or makes a conflict."""
    if log:
        log.write(json.dumps(row) + "\n")
        log.flush()
    same = [r for r in rows if (r["game"], r["seed"]) == (row["game"], row["seed"])] + [row]
    decisive = row["verdict"] in ("W", "L") and conflicts(same)
    if decisive or row["verdict"] == "E" or row.get("deal_differs"):
        verdicts = " ".join(f"{r['solver']}={r['verdict']}" for r in same)
        print(f"  ! {row['game']}:{row['seed']} {verdicts} {row['message'][:150]}", flush=True)
    if (len(rows) + 1) % 60 == 0:
        print(f"  {len(rows) + 1} solves done, {time.perf_counter() - t0:.0f} s, load {load()}", flush=True)
    return row


if __name__ == "__main__":
    main()
