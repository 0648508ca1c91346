"""``patience games``: the registered games, their rules and published win rates."""

from __future__ import annotations

import click

from ..rules import list_games
from .errors import guard
from .output import emit_json

__all__ = ["games"]


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@guard
def games(as_json: bool) -> None:
    """List the games with their rules and published win rates."""
    rows = list_games()
    if as_json:
        emit_json(
            [
                {
                    "name": g.name,
                    "aliases": list(g.aliases),
                    "description": g.description,
                    "win_rate": g.reference.win_rate,
                    "source": g.reference.source,
                }
                for g in rows
            ]
        )
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{len(rows)} games")
    table.add_column("game")
    table.add_column("win %", justify="right")
    table.add_column("description")
    for g in rows:
        rate = g.reference.win_rate
        table.add_row(g.name, "?" if rate is None else f"{rate:g}", g.description)
    Console(width=160).print(table)
