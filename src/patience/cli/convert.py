"""``patience convert``: a deal from one format to another (patience JSON, PySol/black-hole-solver board
text, fc-solve text, Solvitaire JSON, or the human text layout)."""

from __future__ import annotations

import click

from .. import formats
from ..instance import atomic_write
from .errors import guard
from .generator import GENERATOR, GENERATOR_HELP
from .sets import SET_HELP, parse_sets
from .target import FORMAT_CHOICE, FORMAT_HELP, GAME_HELP, instance_arg

__all__ = ["convert_cmd"]


@click.command(name="convert")
@click.argument("target")
@click.option(
    "--to",
    "to",
    type=click.Choice(list(formats.OUTPUT_FORMATS)),
    required=True,
    help="Output format: json (patience instance), board, fcsolve, solvitaire, or text for people.",
)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write here instead of stdout.")
@click.option("--format", "fmt", type=FORMAT_CHOICE, default=None, help=FORMAT_HELP)
@click.option("--game", default=None, help=GAME_HELP)
@click.option("--generator", "-g", type=GENERATOR, default="portable", show_default=True, help=GENERATOR_HELP)
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help=SET_HELP)
@guard
def convert_cmd(
    target: str,
    to: str,
    output: str | None,
    fmt: str | None,
    game: str | None,
    generator: str,
    sets: tuple[str, ...],
) -> None:
    """Convert the deal TARGET (a file in any deal format, - for standard input, or GAME:SEED) to --to.

    The deal is read and validated against its game's rules first; a format that cannot hold it (a Gaps
    grid as board text, a stock in fc-solve text) is refused with nothing written.
    """
    inst = instance_arg(target, generator, parse_sets(sets), fmt, game)
    text = formats.write_deal(inst, to)
    if output:
        atomic_write(output, text)
        click.echo(f"wrote {output} ({inst.game} as {to}, sha256 {inst.sha256[:12]})", err=True)
    else:
        click.echo(text, nl=False)
