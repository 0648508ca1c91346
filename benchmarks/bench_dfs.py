"""The dfs backend against black-hole-solver, and its verdicts on seeded deals of seven classic games.

Part 1 (hole games): PySol Black Hole, All in a Row and Golf deals 1..N, each solved by ``dfs`` in this
process (the validated :func:`patience.solvers.base.solve`, instance building included) and by the
``black-hole-solve`` C program as a subprocess on the same board (process start included), both with
a 10 s limit (``--max-iters`` large, the peer stopped by a timeout). Reported: verdict counts, unknowns,
agreement where both decide, total times and their ratio (dfs / peer). The peer runs with its
``--rank-reach-prune`` option unless ``--peer-plain`` (it turns the option off itself when there is a
talon, so Golf runs without it either way). Golf is our ``golf-thoughtful`` (nothing on a King, no
King-Ace wrap, the stock known) against ``--game golf`` with its defaults (no ``--queens-on-kings``, no
``--wrap-ranks``): the same rules, the peer stopping at an empty tableau where we deal the stock left.
Verdicts agreed on PySol deals 1-100 (28 won, 72 lost).

The one-hole search runs compiled by numba when it is installed (``--no-jit``: the pure-Python loop).
Its compile is reported apart from the deal times: the cold compile in a fresh process with an empty
cache (what the first run on a machine pays once), and the first call in this process (loading the
cached machine code). The deal totals exclude that first call; the ratio including a cold compile is
printed beside them.

Part 2 (generic search): seeded (portable generator) deals 1..M of FreeCell, Baker's Game, Klondike
(thoughtful), Thirty Six, Streets and Alleys, Canfield and Seahaven Towers at 10 s: solved / unsolvable /
unknown, median seconds, and the published win rate beside them.

Part 1 keeps its own loop (each deal goes to dfs and to the peer in turn, so both see the same load);
part 2 solves through :mod:`patience.experiments.runner` (``--workers K``: K processes; the default 0
solves in this process, one deal at a time), its seconds the whole task: deal built, solved, win replayed.

    python benchmarks/bench_dfs.py                       # small: 30 hole deals, 5 deals a game
    python benchmarks/bench_dfs.py --hole 1000 --games 200 --limit 10 --out
    python benchmarks/bench_dfs.py --skip-games          # hole games only
    python benchmarks/bench_dfs.py --skip-games --hole 1000 --hole-games golf-thoughtful
    python benchmarks/bench_dfs.py --skip-games --no-jit # the pure-Python fallback

Prints the summary; with ``--out [DIR]`` also writes ``dfs_hole.csv``, ``dfs_games.csv`` (one row per
deal) and ``dfs_summary.md`` there (default ``benchmarks/out/``), with the machine load beside the figures.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import _common
from _common import BHS, HOLE_GAMES, load

from patience.deals import deal
from patience.formats import to_board_text
from patience.rules import load_game
from patience.solvers import dfs_hole
from patience.solvers.base import Limits, solve

__all__ = [
    "BHS",
    "GAMES",
    "HOLE_GAMES",
    "PEER_GAMES",
    "bench_games",
    "bench_hole",
    "jit_compile",
    "load",
    "peer",
]

GAMES = [
    "freecell",
    "bakers-game",
    "klondike-thoughtful",
    "thirty-six",
    "streets-and-alleys",
    "canfield",
    "seahaven-towers",
]
# Our hole game -> black-hole-solve's --game name: _common's two and Golf (rules matched: module docstring).
PEER_GAMES = {**HOLE_GAMES, "golf-thoughtful": "golf"}


def peer(board: str, game: str, limit: float, plain: bool) -> tuple[str, float]:
    """black-hole-solve's verdict (W, L or ? for intractable/timeout) and wall seconds; ``plain`` leaves
    out ``--rank-reach-prune`` (:func:`_common.bhs_solve`; build_matrix imports this name)."""
    return _common.bhs_solve(board, game, limit, prune=not plain)


def jit_compile() -> tuple[str, float]:
    """Compile seconds of the kernel: cold (fresh process, empty cache dir) and first call here (cached)."""
    if not dfs_hole.USE_JIT:
        return "jit off (pure-Python loop)", 0.0
    from patience.solvers import hole_kernel  # numba: loaded only when the kernel runs compiled

    code = "from patience.solvers.hole_kernel import warm_up; print(warm_up())"
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=tmp)
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    cold = float(r.stdout.split()[-1])
    t0 = time.perf_counter()
    hole_kernel.warm_up()  # compiles into the shared cache on the first run, else loads it
    first = time.perf_counter() - t0
    return f"numba kernel: cold compile {cold:.2f} s (once per machine), first call here {first:.2f} s", cold


def bench_hole(
    n: int, limit: float, plain: bool, rows: list[dict], games: list[str] | None = None
) -> list[str]:
    """dfs and black-hole-solve on PySol deals 1..n of each hole game (``games``: names of
    :data:`PEER_GAMES`, default all), deal by deal in one loop."""
    note, cold = jit_compile()
    print(note, f"(load {load()})", flush=True)
    lines = [note]
    for game in games or list(PEER_GAMES):
        peer_name = PEER_GAMES[game]
        talon = load_game(game).rules.stock.size > 0  # the peer drops its rank-reach prune then
        ours_t = theirs_t = 0.0
        ours, theirs = [], []
        agree = disagree = 0
        slow = []
        load0 = load()
        for seed in range(1, n + 1):
            t0 = time.perf_counter()
            inst = deal(game, seed, "pysol")
            res = solve(inst, "dfs", Limits(seconds=limit))
            dt = time.perf_counter() - t0
            v = _common.verdict(res.status)
            pv, pdt = peer(to_board_text(inst), peer_name, limit, plain) if BHS.exists() else ("-", 0.0)
            ours_t += dt
            theirs_t += pdt
            ours.append(v)
            if pv != "-":
                theirs.append(pv)
            if v != "?" and pv in ("W", "L"):
                agree += v == pv
                disagree += v != pv
                if v != pv:
                    print(f"DISAGREE {game} {seed}: dfs {v} peer {pv}", flush=True)
            slow.append((dt, seed))
            rows.append(
                dict(
                    game=game,
                    seed=seed,
                    dfs=v,
                    dfs_s=round(dt, 4),
                    peer=pv,
                    peer_s=round(pdt, 4),
                    nodes=int(res.stats.get("nodes", 0)),
                    best=int(res.stats.get("best_foundation", 0)),
                )
            )
        slow.sort(reverse=True)
        counts, peer_counts = _common.tally(ours), _common.tally(theirs)
        ratio = ours_t / theirs_t if theirs_t else float("nan")
        line = (
            f"{game}: PySol deals 1-{n} at {limit:g} s: dfs {counts['W']} won / {counts['L']} lost / "
            f"{counts['?']} unknown in {ours_t:.1f} s{' (jit)' if dfs_hole.USE_JIT else ' (pure Python)'}; "
            "black-hole-solve"
            f"{' (plain)' if plain else ' --rank-reach-prune'}{' (off: a talon)' if talon else ''} "
            f"{peer_counts['W']} / {peer_counts['L']} / "
            f"{peer_counts['?']} in {theirs_t:.1f} s; ratio {ratio:.2f}"
            f"{f' ({(ours_t + cold) / theirs_t:.2f} with the cold compile)' if cold and theirs_t else ''}; "
            f"agreement {agree}/{agree + disagree}; "
            f"slowest dfs {[(s, round(t, 2)) for t, s in slow[:3]]}; load {load0} -> {load()}"
        )
        print(line, flush=True)
        lines.append(line)
    return lines


def bench_games(n: int, limit: float, rows: list[dict], games: list[str], workers: int = 0) -> list[str]:
    """dfs on seeded deals 1..n of each game (runner tasks); a Markdown table against the published rate."""
    from patience.experiments.stats import percentiles

    lines = [
        "| game | deals | solved | unsolvable | unknown | median s | solved % | published win % |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for game in games:
        ref = load_game(game).file.reference.win_rate
        load0 = load()
        done = _common.solve_all(_common.tasks(game, range(1, n + 1), "dfs", limit), workers)
        for r in done:
            if r.status == "error":
                print(f"ERROR {game} {r.seed}: {r.message}", flush=True)
            rows.append(
                dict(
                    game=game,
                    seed=r.seed,
                    dfs=_common.verdict(r.status),
                    dfs_s=round(r.stats["wall_s"], 4),
                    nodes=int(r.stats.get("nodes", 0)),
                    best=int(r.stats.get("best_foundation", 0)),
                )
            )
        counts = _common.tally(_common.verdict(r.status) for r in done)
        median = percentiles([r.stats["wall_s"] for r in done], (50,))["p50"]
        line = (
            f"| {game} | {n} | {counts['W']} | {counts['L']} | {counts['?']} | {median:.2f} | "
            f"{100 * counts['W'] / n:.1f} | {ref if ref is not None else '-'} |"
        )
        print(line, f"(load {load0} -> {load()})", flush=True)
        lines.append(line)
    return lines


def main() -> None:
    ap = _common.Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--hole", type=int, default=30, help="PySol deals 1..N of each hole game")
    ap.add_argument(
        "--hole-games", default=",".join(PEER_GAMES), help="comma-separated hole games to run (part 1)"
    )
    ap.add_argument("--games", type=int, default=5, help="seeded deals 1..M of each classic game")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per deal and solver")
    ap.add_argument("--peer-plain", action="store_true", help="run black-hole-solve without rank pruning")
    ap.add_argument("--skip-hole", action="store_true")
    ap.add_argument("--skip-games", action="store_true")
    ap.add_argument("--no-jit", action="store_true", help="run the pure-Python hole search (numba off)")
    ap.add_argument("--only", default=",".join(GAMES), help="comma-separated classic games to run")
    ap.add_argument("--workers", type=int, default=0, help="processes for the classic games (0: this one)")
    ap.add_argument("--tag", default="", help="suffix of the output files (dfs_summary-TAG.md, ...)")
    _common.add_out(ap, "dfs_hole.csv, dfs_games.csv and dfs_summary.md")
    args = ap.parse_args()
    if args.hole < 1 or args.games < 1 or args.limit <= 0 or args.workers < 0:
        ap.error("--hole and --games must be >= 1, --limit > 0, --workers >= 0")
    hole_games = args.hole_games.split(",")
    bad = [g for g in hole_games if g not in PEER_GAMES]
    if bad:
        ap.error(f"--hole-games: {bad[0]!r} is not one of {', '.join(PEER_GAMES)}")
    if args.no_jit:
        dfs_hole.USE_JIT = False
    out = _common.out_dir(args)
    tag = f"-{args.tag}" if args.tag else ""
    summary = [f"# dfs benchmark ({_common.machine()})", ""]
    if not args.skip_hole:
        if not BHS.exists():
            print("black-hole-solve not built (bash benchmarks/peers.sh bhs): timing dfs alone")
        rows: list[dict] = []
        summary += bench_hole(args.hole, args.limit, args.peer_plain, rows, hole_games) + [""]
        if out:
            _common.write_csv(out / f"dfs_hole{tag}.csv", rows)
    if not args.skip_games:
        rows = []
        summary += bench_games(args.games, args.limit, rows, args.only.split(","), args.workers) + [""]
        if out:
            _common.write_csv(out / f"dfs_games{tag}.csv", rows)
    if out:
        _common.write_lines(out / f"dfs_summary{tag}.md", summary[:-1])
        print(f"wrote {out}/dfs_*{tag}.*")


if __name__ == "__main__":
    main()
