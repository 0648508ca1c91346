"""``patience analyze``: the papers' analyses, one subcommand per study.

Wolter 2014 (Black Hole, All in a Row, Thirty Six, Binary Star) and Klaver (FreeCell) studies live in
:mod:`patience.analysis`; this group only parses options and prints. Every number printed is computed;
a paper's figure appears only labelled "published", as a comparison value.
"""

from __future__ import annotations

import sys

import click

from .batch import batch_options
from .errors import UsageError, guard
from .generator import GENERATOR, GENERATOR_HELP
from .output import emit_json
from .sets import SET_HELP

__all__ = ["analyze"]


@click.group(name="analyze")
def analyze() -> None:
    """Reproduce the papers' analyses (Wolter's combinatorics, shuffles, inversion, cards removed, ...)."""


def _published(key: str) -> object:
    from ..analysis.published import WOLTER

    return WOLTER[key]


@analyze.command("adjacency")
@click.option("--suits", default=4, show_default=True, help="Suits S of the deck.")
@click.option("--ranks", default=13, show_default=True, help="Ranks R of the deck.")
@click.option("--wrap/--no-wrap", default=True, show_default=True, help="K-A adjacent (Black Hole rules).")
@click.option("--start", default=1, show_default=True, help="First rank of the sequences (1 = Ace).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@guard
def adjacency_cmd(suits: int, ranks: int, wrap: bool, start: int, as_json: bool) -> None:
    """Rank sequences whose neighbours differ by one rank (Wolter 2014, 3.1), counted exactly."""
    from ..analysis.adjacency import adjacency_counts

    try:
        c = adjacency_counts(suits, ranks, wrap=wrap, start=start - 1)
    except ValueError as err:
        raise UsageError(f"--suits/--ranks/--start: {err}") from None
    wolter = (suits, ranks, wrap, start) == (4, 13, True, 1)
    if as_json:
        emit_json(
            {
                "suits": suits,
                "ranks": ranks,
                "wrap": wrap,
                "start": start,
                "rank_sequences": c.total,
                "suit_factor": c.suit_factor,
                "card_sequences": c.total * c.suit_factor,
                "circular": c.circular,
                "by_end": list(c.by_end),
                "by_changes": list(c.by_changes),
                "published": {k: _published(k) for k in ("rank_sequences", "suit_factor", "by_end")}
                if wolter
                else None,
            }
        )
        return
    pub = (lambda key: f"   (published, Wolter 2014: {_published(key):,})") if wolter else (lambda key: "")
    click.echo(
        f"deck {suits} x {ranks}, {'wrap K-A' if wrap else 'no wrap'}, sequences starting with rank {start}"
    )
    click.echo(f"rank sequences: {c.total:,}{pub('rank_sequences')}")
    click.echo(f"suit factor (S!)^R: {c.suit_factor:,}{pub('suit_factor')}")
    click.echo(f"card sequences (rank sequences x suit factor): {c.total * c.suit_factor:,}")
    if c.total:
        share = 100 * c.circular / c.total
        note = f"   (published: {_published('circular_percent')}%)" if wolter else ""
        click.echo(f"circular (last rank adjacent to the first): {c.circular:,} = {share:.2f}%{note}")
        note = f"   (published: {_published('max_direction_changes')})" if wolter else ""
        click.echo(f"most direction changes: {c.max_changes}{note}")
    click.echo("end rank   sequences   percent" + ("   published" if wolter else ""))
    for r, n in enumerate(c.by_end):
        share = 100 * n / c.total if c.total else 0.0
        extra = f"   {_published('by_end')[r]:,}" if wolter else ""  # type: ignore[index]
        click.echo(f"{r + 1:>8}   {n:>12,}   {share:6.2f}%{extra}")
    click.echo("direction changes   sequences")
    for k, n in enumerate(c.by_changes):
        click.echo(f"{k:>17}   {n:>12,}")


def _wilson_text(k: int, n: int) -> str:
    from ..experiments.stats import wilson

    lo, hi = wilson(k, n)
    return f"{100 * k / n:.3f}% (Wilson 95% {100 * lo:.3f}-{100 * hi:.3f}%)"


@analyze.command("first-move")
@click.argument("game", default="black-hole")
@click.option("-n", "count", default=10_000, show_default=True, help="Deals to simulate (0: formula only).")
@click.option("--seed", default=1, show_default=True, help="First seed.")
@click.option("-g", "--generator", type=GENERATOR, default="portable", show_default=True, help=GENERATOR_HELP)
@click.option("--set", "sets", multiple=True, help=SET_HELP)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@guard
def first_move_cmd(
    game: str, count: int, seed: int, generator: str, sets: tuple[str, ...], as_json: bool
) -> None:
    """Deals of a hole GAME with no first move (Wolter 2014, 5.1): exact chance and simulated rate."""
    from ..analysis.first_move import no_first_move, simulate
    from .batch import prepare

    name, overrides = prepare(game, max(count, 1), seed, generator, sets, ())
    from ..rules import load_game

    try:
        exact = no_first_move(load_game(name, overrides).rules)
    except ValueError as err:
        raise UsageError(f"{game}: {err}") from None
    none, n = simulate(name, count, seed, generator, overrides or None) if count else (0, 0)
    wolter = name == "black-hole" and not overrides
    if as_json:
        from ..experiments.stats import wilson

        emit_json(
            {
                "game": name, "overrides": overrides, "tops": exact.tops, "tableau": exact.tableau,
                "fitting": exact.fitting, "probability": str(exact.probability),
                "per_million": exact.per_million, "simulated": {"none": none, "deals": n,
                "generator": generator, "seed": seed, "wilson95": list(wilson(none, n)) if n else None},
                "published_per_million": _published("no_first_move_per_million") if wolter else None,
            }
        )  # fmt: skip
        return
    click.echo(f"{name}: no first move when none of the {exact.tops} top cards (of {exact.tableau}) is one")
    click.echo(f"of the {exact.fitting} cards that fit a hole's starting card")
    note = f"   (published, Wolter 2014: {_published('no_first_move_per_million'):,})" if wolter else ""
    click.echo(f"exact: {exact.probability} = {exact.per_million:,.1f} per million{note}")
    if n:
        click.echo(f"simulated: {none:,} of {n:,} deals ({generator}, seeds {seed}..{seed + n - 1}): "
                   f"{_wilson_text(none, n)}")  # fmt: skip
        if wolter:
            seen = _published("no_first_move_seen_per_million")
            click.echo(f"   (published, Wolter 2014: {seen:,} of 1,000,000 Politaire deals)")


@analyze.command("removed")
@click.argument("game")
@batch_options
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@guard
def removed_cmd(
    game: str,
    count: int,
    seed: int,
    limit: str,
    max_mb: int | None,
    workers: int | None,
    executor: str,
    scheduler: str | None,
    db: str,
    generator: str,
    sets: tuple[str, ...],
    retry: tuple[str, ...],
    quiet: bool,
    as_json: bool,
) -> None:
    """Most cards removed over lost and won deals of GAME (Wolter 2014, 5.1, 5.2, 8), solved by dfs-max.

    Both counting conventions are printed: 'moved' (cards moved in play; Black Hole win = 51, Wolter's
    axis) and 'home' (foundation cards at the end, starting cards included; Black Hole win = 52).
    """
    from ..analysis.removed import BACKEND, CONVENTIONS, removed_from_rows
    from ..deals import GENERATORS
    from ..experiments.runner import Job
    from ..rules import load_game
    from .batch import check_executor, executor_and_store, prepare, run_batch
    from .limits import parse_limit

    check_executor(executor, workers, scheduler)
    limit_s = parse_limit(limit)
    name, overrides = prepare(game, count, seed, generator, sets, (BACKEND,))
    job = Job(name, range(seed, seed + count), BACKEND, limit_s, generator, overrides, max_mb)
    ex, store = executor_and_store(executor, workers, scheduler, db)
    try:
        rows, _new, wall = run_batch(job, store, ex, quiet, retry)
    finally:
        ex.close()
        store.close()
    r = removed_from_rows(name, load_game(name, overrides).rules, rows)
    published = _published("mean_removed") if not overrides and generator in GENERATORS else {}
    pub = published.get(name)  # type: ignore[union-attr]
    pub_convention = _published("mean_removed_convention").get(name, "moved")  # type: ignore[union-attr]
    if as_json:
        emit_json(
            {
                "game": name, "overrides": overrides, "generator": generator,
                "seeds": [seed, seed + count - 1], "backend": BACKEND, "limit_s": limit_s,
                "won": r.won, "lost": r.lost,
                "undecided": r.undecided, "inexact": r.inexact, "conventions": CONVENTIONS,
                "mean": {c: r.mean(c) for c in CONVENTIONS},
                "mean_interval95": {c: list(r.mean_interval(c)) for c in CONVENTIONS},
                "histogram": {c: {str(k): v for k, v in r.histogram(c).items()} for c in CONVENTIONS},
                "published_mean": {"value": pub, "convention": pub_convention} if pub is not None else None,
                "wall_seconds": wall,
            }
        )  # fmt: skip
        return
    click.echo(
        f"{name}: {len(rows)} deals ({generator}, seeds {seed}..{seed + count - 1}), {BACKEND} at {limit}: "
        f"{r.won} won, {r.lost} lost with the exact maximum, {r.inexact} lost with a lower bound only, "
        f"{r.undecided} undecided (the last two left out)"
    )
    for c, what in CONVENTIONS.items():
        note = f"   (published, Wolter 2014: {pub})" if pub is not None and c == pub_convention else ""
        lo, hi = r.mean_interval(c)
        click.echo(f"mean, {c}: {r.mean(c):.2f} (95% {lo:.2f}-{hi:.2f}){note}   [{what}]")
    click.echo("most cards removed (moved | home)   deals")
    shift = r.dealt_home
    for k, v in r.histogram("moved").items():
        click.echo(f"{k:>18} | {k + shift:<4}   {v:>6}" + ("   won" if k == r.win_moved else ""))


@analyze.command("inversion")
@click.argument("game", default="black-hole")
@click.option("-n", "count", default=200, show_default=True, help="Deals (seeds S..S+N-1).")
@click.option("--seed", default=1, show_default=True, help="First seed.")
@click.option(
    "--nodes", default=20_000, show_default=True, help="Node limit of each search, forward and inverted."
)
@click.option("--limit", default="10s", show_default=True, help="Time limit of each inverted search.")
@click.option(
    "--every", is_flag=True, help="Invert every deal, not only the undecided: check the verdicts agree."
)
@click.option("-g", "--generator", type=GENERATOR, default="portable", show_default=True, help=GENERATOR_HELP)
@click.option("--set", "sets", multiple=True, help=SET_HELP)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@guard
def inversion_cmd(
    game: str, count: int, seed: int, nodes: int, limit: str, every: bool, generator: str,
    sets: tuple[str, ...], as_json: bool,
) -> None:  # fmt: skip
    """Wolter's inverted deals (2014, 3.2 and 4): settle deals the forward dfs leaves undecided at a node
    limit by searching the inverted deal (piles reversed; Black Hole: empty hole, end next to the Ace)."""
    from ..analysis.inversion import settle
    from .batch import prepare
    from .limits import parse_limit

    name, overrides = prepare(game, count, seed, generator, sets, ())
    if nodes < 1:
        raise UsageError(f"--nodes {nodes}: must be >= 1")
    from ..analysis.inversion import inversion_problem
    from ..rules import load_game

    why = inversion_problem(load_game(name, overrides).rules)
    if why:
        raise UsageError(f"{name}: cannot invert: {why}")
    try:
        rows = settle(
            name, range(seed, seed + count), forward_nodes=nodes, inverted_seconds=parse_limit(limit),
            generator=generator, overrides=overrides or None, every=every,
        )  # fmt: skip
    except ValueError as err:
        raise UsageError(str(err)) from None
    undecided = [r for r in rows if r.forward == "unknown"]
    won = sum(r.inverted is True for r in undecided)
    lost = sum(r.inverted is False for r in undecided)
    clash = [r.seed for r in rows if r.forward != "unknown" and r.inverted is not None
             and r.inverted != (r.forward == "solved")]  # fmt: skip
    if as_json:
        emit_json(
            {
                "game": name, "overrides": overrides, "generator": generator, "nodes": nodes,
                "deals": len(rows), "forward": {v: sum(r.forward == v for r in rows)
                                                for v in ("solved", "unsolvable", "unknown")},
                "settled_won": won, "settled_lost": lost, "still_undecided": len(undecided) - won - lost,
                "disagreements": clash, "rows": [r.__dict__ for r in rows],
            }
        )  # fmt: skip
        return
    fw = {v: sum(r.forward == v for r in rows) for v in ("solved", "unsolvable", "unknown")}
    click.echo(
        f"{name}: {len(rows)} deals ({generator}, seeds {seed}..{seed + count - 1}), dfs at {nodes:,} nodes:"
    )
    click.echo(f"forward: {fw['solved']} won, {fw['unsolvable']} lost, {fw['unknown']} undecided")
    click.echo(f"inverted ({nodes:,} nodes, {limit}): of the {len(undecided)} undecided, {won} won, "
               f"{lost} lost, {len(undecided) - won - lost} still undecided")  # fmt: skip
    if every:
        click.echo(f"verdicts compared on every decided deal: {len(clash)} disagreements {clash or ''}")
    click.echo(
        "(published, Wolter 2014: 53 of 10^6 Black Hole deals undecided forward; inverted, 4 won, 49 lost)"
    )
    if clash:
        sys.exit(3)


@analyze.command("shuffles")
@click.argument("game", default="black-hole")
@click.option("--start", "starts", type=click.Choice(["sorted", "gathered"]), multiple=True,
              help="Deck before shuffling (repeatable; default both).")  # fmt: skip
@click.option("--by", "bys", type=click.Choice(["rows", "columns"]), multiple=True,
              help="Deal by rows or columns (repeatable; default both).")  # fmt: skip
@click.option("-k", "--riffles", "kmax", default=10, show_default=True, help="Riffles k = 1..K.")
@click.option("-n", "count", default=100, show_default=True, help="Games per point.")
@click.option("--seed", default=1, show_default=True, help="Seed of the shuffles.")
@click.option("--limit", default="10s", show_default=True, help="Time limit per game (dfs).")
@click.option("--line", type=click.Choice(["search", "few-turns", "bhs"]), default="search",
              show_default=True,
              help="Play line a gathered deck comes from: dfs's own, one with the fewest direction changes "
                   "found (Wolter's solver's preference; one hole, no cells or stock), or black-hole-"
                   "solver's wins (standard Black Hole, All in a Row; benchmarks/peers.sh bhs).")  # fmt: skip
@click.option("--set", "sets", multiple=True, help=SET_HELP)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@guard
def shuffles_cmd(
    game: str, starts: tuple[str, ...], bys: tuple[str, ...], kmax: int, count: int, seed: int, limit: str,
    line: str, sets: tuple[str, ...], as_json: bool,
) -> None:  # fmt: skip
    """Win rates after k GSR riffles and a cut of a sorted or gathered deck, dealt by rows or columns,
    against uniformly shuffled deals (Wolter 2014, 6 and 7; conservative Wilson 95% intervals)."""
    from ..analysis.shuffles import study
    from .batch import prepare
    from .limits import parse_limit

    if not 1 <= kmax <= 64 or count < 1:
        raise UsageError(f"-k {kmax} / -n {count}: need 1 <= k <= 64 and n >= 1")
    name, overrides = prepare(game, 1, 1, "portable", sets, ("dfs",))
    limit_s = parse_limit(limit)
    try:
        points = study(name, "uniform", "rows", [0], count, seed=seed, limit_s=limit_s, overrides=overrides,
                       line=line)  # fmt: skip
        for start in starts or ("sorted", "gathered"):
            for by in bys or ("rows", "columns"):
                points += study(name, start, by, range(1, kmax + 1), count, seed=seed, limit_s=limit_s,
                                overrides=overrides, line=line)  # fmt: skip
    except ValueError as err:
        raise UsageError(str(err)) from None
    if as_json:
        emit_json([{**p.__dict__, "interval": list(p.interval())} for p in points])
        return
    click.echo(
        f"{name}: {count} games per point, dfs at {limit}; win % with conservative Wilson 95% interval; "
        f"gathered from the {line} line; turns: mean direction changes of the lines played"
    )
    for p in points:
        lo, hi = p.interval()
        what = "uniform shuffle" if p.start == "uniform" else f"{p.start:8} by {p.by:7} k={p.k:<2}"
        click.echo(f"{what:28} {100 * p.won / p.n:6.1f}%  [{100 * lo:5.1f}, {100 * hi:5.1f}]"
                   f"  ({p.won} W / {p.lost} L / {p.unknown} ?)  turns {p.mean_turns:.2f}")  # fmt: skip


from .analyze_freecell import freecell_lost  # noqa: E402  (Klaver 2022: FreeCell lost games)

analyze.add_command(freecell_lost)
