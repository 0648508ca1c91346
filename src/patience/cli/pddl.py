"""``patience pddl``: a deal as a PDDL domain and problem for external planners."""

from __future__ import annotations

import re
from pathlib import Path

import click

from ..instance import atomic_write
from .errors import UsageError, guard
from .generator import GENERATOR, GENERATOR_HELP
from .sets import SET_HELP, parse_sets
from .target import instance_arg

__all__ = ["pddl_cmd"]


@click.command(name="pddl")
@click.argument("target")
@click.option("-o", "--output", "outdir", type=click.Path(file_okay=False), required=True, help="Folder.")
@click.option("--generator", "-g", type=GENERATOR, default="portable", show_default=True, help=GENERATOR_HELP)
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help=SET_HELP)
@click.option("--name", default="patience", show_default=True, help="PDDL domain name.")
@guard
def pddl_cmd(target: str, outdir: str, generator: str, sets: tuple[str, ...], name: str) -> None:
    """Write domain.pddl and problem.pddl for TARGET (FreeCell family, Klondike) into a folder."""
    from ..pddl import PddlError, export

    inst = instance_arg(target, generator, parse_sets(sets))
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", name):
        raise UsageError(f"--name {name!r}: a PDDL name starts with a letter (letters, digits, - and _)")
    try:
        task = export(inst, name)
    except PddlError as err:
        raise UsageError(str(err)) from None
    out = Path(outdir)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{outdir}: not a folder")
    out.mkdir(parents=True, exist_ok=True)
    atomic_write(out / "domain.pddl", task.domain)
    atomic_write(out / "problem.pddl", task.problem)
    click.echo(f"wrote {out / 'domain.pddl'} and {out / 'problem.pddl'} ({inst.game})", err=True)
