"""``patience analyze``: the papers' analyses, one subcommand per study.

Wolter 2014 (Black Hole, All in a Row, Thirty Six, Binary Star) and Klaver (FreeCell) studies live in
:mod:`patience.analysis`; this group only parses options and prints. Every number printed is computed;
a paper's figure appears only labelled "published", as a comparison value.
"""

from __future__ import annotations

import click

from .errors import UsageError, guard
from .output import emit_json

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


from .analyze_freecell import freecell_lost  # noqa: E402  (Klaver 2022: FreeCell lost games)

analyze.add_command(freecell_lost)
