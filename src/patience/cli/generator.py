"""The ``-g/--generator`` option: a deal generator or an instance family, by one canonical name."""

from __future__ import annotations

from typing import Any

import click

from ..deals import GENERATORS, DealError
from ..families import FAMILIES, parse_family

__all__ = ["GENERATOR", "GENERATOR_HELP", "MAX_SWAPS", "GeneratorType"]

MAX_SWAPS = 100_000  # card swaps of an instance family (-g planted:K, --swaps): far past a random deal


class GeneratorType(click.ParamType):
    """``-g``: a deal generator of GENERATORS, or an instance family ``FAMILY[:SWAPS]`` (patience.families).

    Returns a canonical name, so results stores key one deal source one way: ``random`` with no swaps
    is the portable deal, and ``planted:0`` is ``planted``.
    """

    name = "generator"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if value in GENERATORS:
            return str(value)
        try:
            spec = parse_family(str(value))
        except DealError as err:
            self.fail(str(err), param, ctx)
        if spec is None:
            self.fail(f"{value!r} is not a generator ({', '.join(sorted(GENERATORS))}) or an instance "
                      f"family ({'|'.join(FAMILIES)}, optionally :SWAPS)", param, ctx)  # fmt: skip
        family, swaps = spec
        if swaps > MAX_SWAPS:
            self.fail(f"{value!r}: {swaps} swaps, over the limit of {MAX_SWAPS}", param, ctx)
        if family == "random" and not swaps:
            return "portable"
        return f"{family}:{swaps}" if swaps else family


GENERATOR = GeneratorType()
GENERATOR_HELP = "portable, pysol, ms, solvitaire, or an instance family planted|sorted|random[:SWAPS]"
