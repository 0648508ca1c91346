"""``patience deal`` and ``patience generate``: deals of a game, printed, or written as instance files."""

from __future__ import annotations

import json
from pathlib import Path

import click

from .. import formats
from ..deals import deal
from ..families import FAMILIES, family_deal
from ..instance import Instance, atomic_write
from .errors import UsageError, guard
from .generator import GENERATOR, GENERATOR_HELP, MAX_SWAPS
from .limits import MAX_DEALS
from .sets import parse_sets

__all__ = ["deal_cmd", "generate_cmd"]


@click.command(name="deal")
@click.argument("game")
@click.option("--seed", type=int, required=True, help="Deal number / seed.")
@click.option("--generator", "-g", type=GENERATOR, default="portable", show_default=True, help=GENERATOR_HELP)
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Override a rule parameter.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the instance JSON here.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "board", "fcsolve", "solvitaire", "json"]),
    default="text",
    show_default=True,
    help="board: PySol/black-hole-solver text; fcsolve: Freecell Solver text; solvitaire: its JSON deal.",
)
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@guard
def deal_cmd(
    game: str, seed: int, generator: str, sets: tuple[str, ...], output: str | None, fmt: str, as_json: bool
) -> None:
    """Deal GAME number SEED and print it (or write the instance with -o)."""
    inst = deal(game, seed, generator, parse_sets(sets) or None)
    if as_json:
        fmt = "json"
    text = {
        "text": formats.to_text,
        "board": formats.to_board_text,
        "fcsolve": formats.to_fcsolve,
        "solvitaire": lambda i: json.dumps(formats.to_solvitaire(i), indent=1),
        "json": Instance.dumps,
    }[fmt](inst)
    if output:
        inst.save(output)
        click.echo(f"wrote {output} ({inst.game}, sha256 {inst.sha256[:12]})", err=True)
    if not output or fmt != "text":
        click.echo(text.rstrip("\n"))


@click.command(name="generate")
@click.argument("game")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Override a rule parameter.")
@click.option("-n", "count", type=int, default=10, show_default=True, help="How many instances.")
@click.option("--seed", type=int, default=1, show_default=True, help="First seed (seeds SEED..SEED+N-1).")
@click.option(
    "--family",
    type=click.Choice(list(FAMILIES)),
    default="random",
    show_default=True,
    help="Instance family: random deals, planted wins, or sorted (rank-ordered) deals.",
)
@click.option(
    "--swaps", type=int, default=0, show_default=True, help="Random transpositions of tableau cards after."
)
@click.option("-o", "--output", "outdir", type=click.Path(file_okay=False), required=True, help="Folder.")
@guard
def generate_cmd(
    game: str, sets: tuple[str, ...], count: int, seed: int, family: str, swaps: int, outdir: str
) -> None:
    """Write N generalized instances of GAME into a folder, from an instance family.

    Families (patience.families) let a study move from easy to hard deals: ``random`` is the portable
    deal (the default; file names GAME[-PARAMS]-SEED.json as before), ``planted`` a Black Hole family deal
    with a planted win, ``sorted`` the deck in rank order dealt pile by pile. ``--swaps K`` then swaps K
    random pairs of tableau cards, moving any family towards random deals; files of other families than
    plain random are named GAME[-PARAMS]-FAMILY-swapsK-SEED.json. Every instance is dealt and validated
    before anything is written; each file is written atomically.
    """
    if not 1 <= count <= MAX_DEALS:
        raise UsageError(f"-n {count}: must be between 1 and the limit of {MAX_DEALS} instances")
    if not 0 <= swaps <= MAX_SWAPS:
        raise UsageError(f"--swaps {swaps}: must be between 0 and the limit of {MAX_SWAPS}")
    overrides = parse_sets(sets)
    insts = [family_deal(game, s, family, overrides or None, swaps) for s in range(seed, seed + count)]
    out = Path(outdir)
    if out.exists() and not out.is_dir():
        raise UsageError(f"-o {outdir}: exists and is not a folder")
    tag = "".join(f"-{k.split('.')[-1]}{v}" for k, v in sorted(overrides.items()))
    if family != "random" or swaps:
        tag += f"-{family}-swaps{swaps}"
    out.mkdir(parents=True, exist_ok=True)
    for inst, s in zip(insts, range(seed, seed + count), strict=True):
        atomic_write(out / f"{insts[0].game}{tag}-{s}.json", inst.dumps())
    click.echo(f"wrote {count} {insts[0].game} instances to {outdir}", err=True)
