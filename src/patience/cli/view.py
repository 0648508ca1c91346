"""``patience view INSTANCE SOLUTION -o page.html``: one self-contained HTML page that steps through a
solution."""

from __future__ import annotations

import click

from ..instance import atomic_write
from ..validate import SolutionError, replay
from .errors import guard
from .target import input_options, load_instance, load_solution  # any deal format, -, GAME:SEED

__all__ = ["view_cmd"]


@click.command("view")
@click.argument("instance", type=click.Path())
@click.argument("solution", type=click.Path())
@click.option("-o", "--output", "out", required=True, type=click.Path(dir_okay=False), help="The HTML file.")
@input_options
@guard
def view_cmd(instance: str, solution: str, out: str) -> None:
    """Write one HTML page (no network: inline style and script) that draws the cards of every area and
    steps through SOLUTION with buttons and the keyboard (←/→, Home/End); open it in any browser.

    The address may name a position: page.html?step=N or page.html#N (0 is the deal)."""
    from ..viewer import page_html

    inst = load_instance(instance)
    moves = load_solution(solution, inst)
    report = replay(inst, moves)
    if not report.ok:
        raise SolutionError(f"{solution}: {report.message()}")
    atomic_write(out, page_html(inst, moves))
    won = "wins the deal" if report.won else f"leaves {report.foundation_cards} cards home"
    click.echo(f"wrote {out} ({inst.game}, {len(moves)} moves; the solution {won})")
