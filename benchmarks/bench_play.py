"""Hidden-card players beside Donkersteeg 2010's Tables 6.2 and 6.3 (Klondike) and Klaver 2022 (FreeCell).

Plays seeded deals (portable generator for Klondike, MS deals for FreeCell) in this one process (one core's
worth: the machine is shared; ``--workers K``: in K processes), each configuration up to ``-n`` games or its
time budget, whichever comes first, and prints win rates with conservative Wilson 95% intervals beside the
thesis figures; ``--out`` writes ``play_klondike.md`` (and ``play_klondike.csv``). Usage::

    python benchmarks/bench_play.py -n 2000 --n-mc 200 --budget-mc 600 --out
    python benchmarks/bench_play.py --only hindsight --draws 1 --n-hs 200 --suffix _hindsight_d1 --out
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from typing import Any

import _common

from patience.experiments.stats import estimate
from patience.play.game import play_many

# (label, game, generator, overrides, player, options, thesis figure, cheap)
THESIS = {
    ("random", 3): "11.4% (reshuffle), 11.8% (shuffled once); 100,000 games",
    ("random", 1): "23.8%",
    ("heuristic", 3): "humans 10-15%",
    ("mc reshuffle", 3): "16.9%",
    ("mc reshuffle", 1): "33.3%",
    ("mc shuffled-once", 3): "43.2% (42.9-55% across his runs)",
    ("mc+heuristics reshuffle", 3): "16.7%",
    ("mc+heuristics reshuffle", 1): "34.8%",
    ("mc+heuristics shuffled-once", 3): "42.0%",
    ("mc shuffled-once", 1): "none (upper bound)",
    ("mc+heuristics shuffled-once", 1): "none (upper bound)",
    ("hindsight reshuffle", 3): "none (target: above 16.9%)",
    ("hindsight reshuffle", 1): "none (target: above 34.8%)",
}


def configs(args: Any) -> list[tuple[str, str, str, dict[str, Any], str, dict[str, Any], int, float | None]]:
    """(label, game, generator, overrides, player, options, N, budget) in the order they run."""
    out = []
    for draw in (3, 1):
        ov = {} if draw == 3 else {"draw": 1}
        out += [
            ("random", "klondike", "portable", ov, "random", {}, args.n, None),
            ("random stock-last", "klondike", "portable", ov, "random", {"stock": "last"}, args.n, None),
            ("heuristic", "klondike", "portable", ov, "heuristic", {}, args.n, None),
        ]
    for draw in (3, 1):
        ov = {} if draw == 3 else {"draw": 1}
        for player in ("mc", "mc+heuristics"):
            for mode in ("reshuffle", "shuffled-once"):
                out.append((f"{player} {mode}", "klondike", "portable", ov, player, {"mode": mode},
                            args.n_mc, args.budget_mc))  # fmt: skip
        out.append(("hindsight reshuffle", "klondike", "portable", ov, "hindsight", json.loads(args.hs),
                    args.n_hs, args.budget_hs))  # fmt: skip
    out += [
        ("random", "freecell", "ms", {}, "random", {}, 200, None),
        ("mc", "freecell", "ms", {}, "mc", {"score": "klaver"}, 200, args.budget_mc),
    ]
    return out


def _pooled(
    game: str,
    n: int,
    player: str,
    opts: dict[str, Any],
    ov: dict[str, Any],
    gen: str,
    workers: int,
    budget: float | None,
) -> list[Any]:
    """Seeds 1..n played by ``workers`` processes (``patience play``'s tasks), results in seed order; with
    ``budget`` seconds, the games finished in order when it is spent (a prefix of the seeds). Each game is
    printed to stderr as it is taken in."""
    import multiprocessing

    from patience.play.game import PlayTask, play_task

    t0 = time.perf_counter()
    tasks = [PlayTask(game, dict(ov), gen, s, player, dict(opts)) for s in range(1, n + 1)]
    out = []
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for rec in pool.imap(play_task, tasks):
            out.append(rec)
            print(f"  seed {rec.seed}: {rec.end} {rec.home} home, {rec.seconds:.1f} s; "
                  f"{sum(r.won for r in out)} of {len(out)} won", file=sys.stderr, flush=True)  # fmt: skip
            if budget is not None and time.perf_counter() - t0 > budget:
                pool.terminate()
                break
    return out


def _detail(player: str, opts: dict[str, Any]) -> str:
    """The hindsight player's settings, spelt out in its row (every other row's label says it all)."""
    if player != "hindsight":
        return ""
    from patience.play.players import make_player

    p: Any = make_player(player, **opts)
    extra = ", progress" if p.progress else ""
    return f" ({p.worlds} worlds x {p.nodes} nodes, {p.search}{extra})"


def main(argv: list[str] | None = None) -> None:
    ap = _common.Parser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=2000, help="games per cheap player (random, heuristic)")
    ap.add_argument("--n-mc", type=int, default=200, help="games per Monte Carlo / hindsight configuration")
    ap.add_argument("--budget-mc", type=float, default=600.0, help="seconds per Monte Carlo configuration")
    ap.add_argument("--n-hs", type=int, default=200, help="games per hindsight configuration")
    ap.add_argument("--budget-hs", type=float, default=None, help="seconds per hindsight configuration")
    ap.add_argument("--hs", default="{}", help="hindsight player options as JSON, e.g. '{\"worlds\": 8}'")
    ap.add_argument("--workers", type=int, default=1, help="processes playing a configuration's games")
    ap.add_argument("--only", default=None, help="run only labels containing this text")
    ap.add_argument("--skip", default=None, help="skip labels containing this text")
    ap.add_argument("--draws", default="3,1", help="Klondike draws to run (comma-separated) [3,1]")
    ap.add_argument("--no-freecell", action="store_true", help="skip the FreeCell rows")
    ap.add_argument("--suffix", default="", help="added to the output names (play_klondike<suffix>.md)")
    _common.add_out(ap, "play_klondike.md and play_klondike.csv")
    args = ap.parse_args(argv)
    rows: list[dict[str, Any]] = []
    start_load = _common.load()
    for label, game, gen, ov, player, opts, n, budget in configs(args):
        draw = ov.get("draw", 3)
        if (args.only and args.only not in label) or (args.skip and args.skip in label):
            continue
        if (game == "klondike" and str(draw) not in args.draws.split(",")) or (
            game == "freecell" and args.no_freecell
        ):
            continue
        t0 = time.perf_counter()
        if args.workers > 1:
            recs = _pooled(game, n, player, opts, ov, gen, args.workers, budget)
        else:
            recs = play_many(game, range(1, n + 1), player, opts, ov, gen, budget=budget)
        wall = time.perf_counter() - t0
        wins = sum(r.won for r in recs)
        unknown = sum(r.end == "time" for r in recs)
        est = estimate(wins, len(recs) - wins - unknown, unknown)
        lo, hi = est.percent(1)
        moves = [r.moves for r in recs if r.won]
        row = {
            "game": game + (f" draw {draw}" if game == "klondike" else " (MS deals)"),
            "player": label + _detail(player, opts),
            "games": len(recs),
            "won": wins,
            "win %": f"{100 * wins / max(len(recs), 1):.1f}",
            "Wilson 95%": f"[{lo:.1f}, {hi:.1f}]",
            "moves per win": f"{statistics.fmean(moves):.0f}" if moves else "-",
            "s per game": f"{wall / max(len(recs), 1):.2f}",
            "s a game, each": f"{statistics.fmean(r.seconds for r in recs):.2f}" if recs else "-",
            "thesis": THESIS.get((label, draw), "-") if game == "klondike" else "Klaver: -",
            "load": _common.load(),
        }
        rows.append(row)
        print(" | ".join(str(v) for v in row.values()), flush=True)
    out = _common.out_dir(args)
    if out is None:
        return
    lines = [
        "# Hidden-card players beside Donkersteeg 2010 (Tables 6.2, 6.3)",
        "",
        f"`python benchmarks/bench_play.py {' '.join(argv if argv is not None else sys.argv[1:])}`, "
        f"seeds 1..N of the portable generator (Klondike) and MS deals 1..N (FreeCell), "
        f"{args.workers} process{'es' if args.workers > 1 else ''}; "
        f"{_common.machine()}; load at start {start_load}. Intervals: conservative Wilson 95%. "
        "A row with fewer games than asked hit its time budget (the games played are seeds 1..games).",
        "",
        *_common.md_table(rows),
    ]
    _common.write_lines(out / f"play_klondike{args.suffix}.md", lines)
    _common.write_csv(out / f"play_klondike{args.suffix}.csv", rows)


if __name__ == "__main__":
    main()
