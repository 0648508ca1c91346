"""``patience play``: play seeded deals with a player that sees only what a person at the table sees.

Prints the win rate with a conservative Wilson 95% interval (as ``estimate`` does), how the games ended, the
cards-home distribution and moves per win, and names the Monte Carlo mode every number came from. Bad input
(unknown game or player, an option the player does not take, a Gaps game) is one ``error:`` line, exit 2.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from typing import Any

import click

from .errors import EXIT_BACKEND_ERROR, EXIT_INTERRUPTED, UsageError, guard, say_error
from .generator import GENERATOR, GENERATOR_HELP
from .limits import MAX_DEALS, parse_limit
from .output import emit_json
from .sets import SET_HELP, coerce_sets

__all__ = ["play_cmd"]

_PLAYERS = ("random", "heuristic", "mc", "mc+heuristics", "hindsight")
_MODE_TEXT = {
    None: "none (the player simulates nothing: it decides from the observation alone)",
    "reshuffle": "reshuffle (fair: simulations deal the unseen cards anew, consistent with what was seen)",
    "shuffled-once": "shuffled-once (UPPER BOUND, not a fair player: simulations see the true hidden cards)",
}


def _options(
    player: str,
    playouts: int | None,
    mode: str | None,
    score: str | None,
    moves: str | None,
    auto_safe: bool,
    worlds: int | None,
    nodes: int | None,
    stock: str | None = None,
    playout: str | None = None,
    search: str | None = None,
    runner: str | None = None,
) -> dict[str, Any]:
    """The player's options from the flags; a flag the player does not take is bad input."""
    takes = {
        "--playouts": ("mc/mc+heuristics", playouts),
        "--score": ("mc/mc+heuristics", score),
        "--playout": ("mc/mc+heuristics", playout),
        "--runner": ("mc/mc+heuristics", runner),
        "--mode": ("mc/mc+heuristics/hindsight", mode),
        "--worlds": ("hindsight", worlds),
        "--nodes": ("hindsight", nodes),
        "--search": ("hindsight", search),
        "--moves": ("random/mc/mc+heuristics", moves),
        "--stock": ("random", stock),
        "--auto-safe": ("random", auto_safe or None),
    }
    for flag, (who, value) in takes.items():
        if value is not None and player not in who.split("/"):
            raise UsageError(f"{flag}: only --player {' or '.join(who.split('/'))} takes it (got {player})")
    for flag, value in (("--playouts", playouts), ("--worlds", worlds), ("--nodes", nodes)):
        if value is not None and value < 1:
            raise UsageError(f"{flag} {value}: must be >= 1")
    names = {
        "playouts": playouts,
        "mode": mode,
        "score": score,
        "moves": moves,
        "worlds": worlds,
        "nodes": nodes,
        "stock": stock,
        "playout": playout,
        "search": search,
        "runner": runner,
    }
    opts: dict[str, Any] = {k: v for k, v in names.items() if v is not None}
    if player == "random":
        opts["auto_safe"] = auto_safe
    return opts


def _ceiling(rules: Any) -> str | None:
    """The published win rate of the same rules with every card known (the thoughtful game), if any."""
    import msgspec

    from ..rules import list_games

    seen = msgspec.structs.replace(rules, thoughtful=True)
    for gf in list_games():
        if gf.rules == seen and gf.reference.win_rate is not None:
            return f"{gf.name} {gf.reference.win_rate:g}% ({gf.reference.source.split(',')[0]})"
    return None


@click.command("play")
@click.argument("game")
@click.option("-n", "count", type=int, required=True, help="Number of deals (seeds S..S+N-1).")
@click.option("--player", "-p", type=click.Choice(_PLAYERS), default="random", show_default=True)
@click.option("--playouts", type=int, default=None, help="mc: random playouts per candidate move [10].")
@click.option(
    "--mode",
    type=click.Choice(("reshuffle", "shuffled-once")),
    default=None,
    help="mc, hindsight: resample the unseen cards (fair) or use the true ones (upper bound) [reshuffle].",
)
@click.option("--score", type=click.Choice(("max", "klaver")), default=None, help="mc: move score [max].")
@click.option(
    "--moves",
    type=click.Choice(("auto", "all", "no-worry", "donkersteeg")),
    default=None,
    help="random, mc: the move set [auto: Donkersteeg's with hidden cards, else all but worrying back].",
)
@click.option(
    "--stock",
    type=click.Choice(("uniform", "last")),
    default=None,
    help="random: a stock turn is one move among the others, or taken only when nothing else is [uniform].",
)
@click.option(
    "--playout", type=click.Choice(("random", "safe")), default=None, help="mc: playout policy [random]."
)
@click.option(
    "--runner",
    type=click.Choice(("auto", "kernel", "engine")),
    default=None,
    help="mc: playouts on the compiled kernel or the Python engine, the same games either way [auto].",
)
@click.option(
    "--search",
    type=click.Choice(("dfs-jit", "planning", "dfs")),
    default=None,
    help="hindsight: the search in each world [dfs-jit].",
)
@click.option("--auto-safe", is_flag=True, help="random: play safe foundation moves first (Klaver).")
@click.option("--worlds", type=int, default=None, help="hindsight: sampled worlds searched per decision [8].")
@click.option("--nodes", type=int, default=None, help="hindsight: node budget of each search [2000].")
@click.option("--seed-start", "seed", type=int, default=1, show_default=True, help="First seed.")
@click.option("--generator", "-g", type=GENERATOR, default="portable", show_default=True, help=GENERATOR_HELP)
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help=SET_HELP)
@click.option("--max-moves", type=int, default=1000, show_default=True, help="Move cap per game (a loss).")
@click.option("--limit", default=None, help="Wall time per game, e.g. 60s; a game cut short is unknown.")
@click.option(
    "--workers", "-j", type=int, default=None, help="Worker processes (default: all CPUs; 0: inline)."
)
@click.option("--db", default=None, help="SQLite store of played games: rerunning resumes (default: none).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable summary.")
@click.option("--quiet", "-q", is_flag=True, help="No progress line.")
@guard
def play_cmd(
    game: str,
    count: int,
    player: str,
    playouts: int | None,
    mode: str | None,
    score: str | None,
    moves: str | None,
    auto_safe: bool,
    stock: str | None,
    playout: str | None,
    search: str | None,
    runner: str | None,
    worlds: int | None,
    nodes: int | None,
    seed: int,
    generator: str,
    sets: tuple[str, ...],
    max_moves: int,
    limit: str | None,
    workers: int | None,
    db: str | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Play N seeded deals of GAME with a player that sees only the face-up cards; win rate and more."""
    from ..deals import deal
    from ..engine import unsupported
    from ..rules import load_game

    if not 1 <= count <= MAX_DEALS:
        raise UsageError(f"-n {count}: must be between 1 and the limit of {MAX_DEALS} deals")
    if seed < 0:
        raise UsageError(f"--seed-start {seed}: seeds are >= 0")
    if max_moves < 1:
        raise UsageError(f"--max-moves {max_moves}: must be >= 1")
    if workers is not None and workers < 0:
        raise UsageError(f"--workers {workers}: must be >= 0")
    seconds = parse_limit(limit) if limit is not None else None
    opts = _options(
        player, playouts, mode, score, moves, auto_safe, worlds, nodes, stock, playout, search, runner
    )
    overrides = coerce_sets(sets)
    g = load_game(game, overrides)
    if g.rules.gaps.rows:
        raise UsageError(f"{g.name}: play does not support Gaps games (a grid)")
    if unsupported(g.rules):
        raise UsageError(f"{g.name}: the engine does not play {', '.join(unsupported(g.rules))}")
    first = deal(g.name, seed, generator, overrides or None)
    deal(g.name, seed + count - 1, generator, overrides or None)
    from ..experiments.executors import make_executor
    from ..play.game import GameRecord, PlayError, PlayTask, play_task
    from ..play.players import make_player, player_version
    from ..play.store import PlayStoreError, batch_key, open_play_store
    from ..play.summary import summarize

    try:
        made = make_player(player, **opts)
    except ValueError as err:
        raise UsageError(str(err)) from None
    # Every option with its value, defaults included: one batch key per player configuration.
    opts = {
        f.name: getattr(made, f.name)
        for f in dataclasses.fields(made)  # type: ignore[arg-type]
        if not f.name.startswith("_") and f.name not in ("name", "peeks")
    }

    seeds = range(seed, seed + count)
    key = batch_key(g.name, overrides, generator, player, opts, max_moves, seconds, player_version(player))
    store = None
    stored: dict[int, GameRecord] = {}
    if db is not None:
        try:
            store = open_play_store(db)
        except PlayStoreError as err:
            raise UsageError(str(err)) from None
        stored = store.done(key, seeds)
    tasks = [
        PlayTask(g.name, overrides, generator, s, player, opts, max_moves, seconds)
        for s in seeds
        if s not in stored
    ]
    ex = make_executor("process", workers)
    records = list(stored.values())
    t0 = time.perf_counter()
    try:
        for rec in ex.map_unordered(play_task, tasks):
            records.append(rec)
            if store is not None:
                store.add(key, rec)
            if not quiet and sys.stderr.isatty():
                wins = sum(r.won for r in records)
                click.echo(f"\r{len(records)}/{count} games, {wins} won", nl=False, err=True)
    except KeyboardInterrupt:
        ex.abort()
        click.echo(f"\ninterrupted after {len(records)} games", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except PlayError as err:
        ex.abort()
        say_error(str(err))
        sys.exit(EXIT_BACKEND_ERROR)
    finally:
        ex.close()
        if store is not None:
            store.close()
    if not quiet and sys.stderr.isatty():
        click.echo("", err=True)
    wall = time.perf_counter() - t0
    records.sort(key=lambda r: r.seed)
    summ = summarize(records, first.deck.size)
    mode_key = opts.get("mode")
    if as_json:
        emit_json(
            {
                "game": g.name,
                "rules": overrides,
                "generator": generator,
                "seeds": [seed, seed + count - 1],
                "player": player,
                "options": opts,
                "mode": mode_key,
                "fair": mode_key != "shuffled-once",
                "max_moves": max_moves,
                "limit_s": seconds,
                "wall_seconds": wall,
                "workers": ex.workers,
                "db": db,
                "new": len(tasks),
                "ceiling": _ceiling(g.rules) if not g.rules.thoughtful else None,
                **summ.to_json(),
            }
        )
        return
    e = summ.estimate
    rules = "".join(f" {k}={v}" for k, v in sorted(overrides.items()))
    shown = ", ".join(f"{k} {v}" for k, v in opts.items())
    click.echo(
        f"{g.name}{rules}: {summ.games} games (seeds {seed}..{seed + count - 1}, {generator}), "
        f"player {player}{' (' + shown + ')' if shown else ''}, move cap {max_moves}; "
        f"{len(tasks)} played now in {wall:.1f}s with {ex.workers} worker(s)"
        + (f", {len(stored)} from {db}" if db is not None else "")
    )
    click.echo(f"  mode: {_MODE_TEXT[mode_key]}")
    ends = ", ".join(f"{k} {v}" for k, v in summ.ends.items())
    click.echo(f"  won {e.wins}, lost {e.losses}, unknown {e.unknowns} (ended: {ends})")
    click.echo(
        f"  win rate {e.text()} of decided games (Wilson interval) [mode {mode_key or 'none'}]"
    )
    home = "  ".join(f"{k}: {v}" for k, v in summ.home.items())
    click.echo(f"  cards home: {home}  (mean {summ.home_mean:.1f})")
    if summ.moves_per_win:
        m = summ.moves_per_win
        click.echo(
            f"  moves per win: mean {m['mean']:.1f}, median {m['median']:g} "
            f"(min {m['min']:g}, max {m['max']:g})"
        )
    else:
        click.echo("  moves per win: no wins")
    click.echo(f"  time per game: {summ.seconds_per_game:.2f}s")
    ceiling = _ceiling(g.rules) if not g.rules.thoughtful else None
    if ceiling:
        click.echo(f"  ceiling, every card known: {ceiling}, published, not measured on these deals")
