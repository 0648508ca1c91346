"""``patience deal`` and ``patience generate``: deals of a game, printed, or written as instance files."""

from __future__ import annotations

from pathlib import Path

import click

from .. import formats
from ..deals import deal
from ..families import FAMILIES, parse_family
from ..instance import atomic_write
from .errors import UsageError, guard
from .generator import GENERATOR, GENERATOR_HELP, MAX_SWAPS
from .limits import MAX_DEALS
from .sets import SET_HELP, parse_sets

__all__ = ["deal_cmd", "generate_cmd"]


@click.command(name="deal")
@click.argument("game", metavar="GAME[:SEED]")
@click.option("--seed", type=int, default=None, help="Deal number / seed (or GAME:SEED, as solve takes it).")
@click.option("--generator", "-g", type=GENERATOR, default="portable", show_default=True, help=GENERATOR_HELP)
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help=SET_HELP)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the instance JSON here.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(list(formats.OUTPUT_FORMATS)),
    default="text",
    show_default=True,
    help="board: PySol/black-hole-solver text; fcsolve: Freecell Solver text; solvitaire: its JSON deal.",
)
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@guard
def deal_cmd(
    game: str,
    seed: int | None,
    generator: str,
    sets: tuple[str, ...],
    output: str | None,
    fmt: str,
    as_json: bool,
) -> None:
    """Deal GAME number SEED (``deal black-hole:1`` or ``deal black-hole --seed 1``) and print it (or write
    the instance with -o)."""
    name, colon, number = game.rpartition(":")
    if colon:
        if not number.isdigit():
            raise UsageError(f"{game}: expected GAME or GAME:SEED, e.g. black-hole:1")
        if seed is not None and seed != int(number):
            raise UsageError(f"{game} and --seed {seed} name two deals; give one")
        game, seed = name, int(number)
    if seed is None:
        raise UsageError(f"deal {game}: which deal? Give GAME:SEED or --seed N")
    inst = deal(game, seed, generator, parse_sets(sets) or None)
    if as_json:
        fmt = "json"
    text = formats.write_deal(inst, fmt)
    if output:
        inst.save(output)
        click.echo(f"wrote {output} ({inst.game}, sha256 {inst.sha256[:12]})", err=True)
    if not output or fmt != "text":
        click.echo(text.rstrip("\n"))


@click.command(name="generate")
@click.argument("game")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help=SET_HELP)
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
@click.option(
    "--generator",
    "-g",
    type=GENERATOR,
    default=None,
    help=f"Instead of --family/--swaps, as solve and estimate take it: {GENERATOR_HELP}.",
)
@click.option("-o", "--output", "outdir", type=click.Path(file_okay=False), required=True, help="Folder.")
@guard
def generate_cmd(
    game: str,
    sets: tuple[str, ...],
    count: int,
    seed: int,
    family: str,
    swaps: int,
    generator: str | None,
    outdir: str,
) -> None:
    """Write N generalized instances of GAME into a folder, from an instance family.

    Families (patience.families) let a study move from easy to hard deals: ``random`` is the portable
    deal (the default; file names GAME[-PARAMS]-SEED.json as before), ``planted`` a Black Hole family deal
    with a planted win, ``sorted`` the deck in rank order dealt pile by pile. ``--swaps K`` then swaps K
    random pairs of tableau cards, moving any family towards random deals; files of other families than
    plain random are named GAME[-PARAMS]-FAMILY-swapsK-SEED.json. ``-g`` names the same (``-g planted:5``
    is ``--family planted --swaps 5``) or a plain generator (``-g pysol``: files GAME[-PARAMS]-pysol-SEED).
    Every instance is dealt and validated before anything is written; each file is written atomically.
    """
    if not 1 <= count <= MAX_DEALS:
        raise UsageError(f"-n {count}: must be between 1 and the limit of {MAX_DEALS} instances")
    if not 0 <= swaps <= MAX_SWAPS:
        raise UsageError(f"--swaps {swaps}: must be between 0 and the limit of {MAX_SWAPS}")
    if generator is not None and (family != "random" or swaps):
        raise UsageError(f"-g {generator} and --family/--swaps both name the deals; give one")
    if generator is None:  # --family/--swaps as the generator name -g takes
        generator = "portable" if family == "random" and not swaps else f"{family}:{swaps}"
    spec = parse_family(generator)  # (family, swaps) of an instance family; None for a plain generator
    if spec is not None:
        family, swaps = spec
    overrides = parse_sets(sets)
    insts = [deal(game, s, generator, overrides or None) for s in range(seed, seed + count)]
    out = Path(outdir)
    if out.exists() and not out.is_dir():
        raise UsageError(f"-o {outdir}: exists and is not a folder")
    tag = "".join(f"-{k.split('.')[-1]}{v}" for k, v in sorted(overrides.items()))
    if spec is None and generator != "portable":
        tag += f"-{generator}"
    elif spec is not None and (family != "random" or swaps):
        tag += f"-{family}-swaps{swaps}"
    out.mkdir(parents=True, exist_ok=True)
    for inst, s in zip(insts, range(seed, seed + count), strict=True):
        atomic_write(out / f"{insts[0].game}{tag}-{s}.json", inst.dumps())
    click.echo(f"wrote {count} {insts[0].game} instances to {outdir}", err=True)
