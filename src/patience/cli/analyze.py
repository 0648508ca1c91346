"""``patience analyze``: the papers' analyses, one subcommand per study.

Wolter 2014 (Black Hole, All in a Row, Thirty Six, Binary Star) and Klaver (FreeCell) studies live in
:mod:`patience.analysis`; this group only parses options and prints. Every number printed is computed;
a paper's figure appears only labelled "published", as a comparison value.
"""

from __future__ import annotations

import click

__all__ = ["analyze"]


@click.group(name="analyze")
def analyze() -> None:
    """Reproduce the papers' analyses (Wolter's combinatorics, shuffles, inversion, cards removed, ...)."""


from .analyze_freecell import freecell_lost  # noqa: E402  (Klaver 2022: FreeCell lost games)

analyze.add_command(freecell_lost)
