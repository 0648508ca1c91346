"""Deals: ``deal(game, seed, generator)`` returns a validated :class:`Instance`, dispatching through the
one registry of every generator.

:data:`REGISTRY` holds each generator by name with the seeds it takes and what it deals
(:attr:`~patience.generators.Generator.problem`): the plain generators of :mod:`patience.generators`
(``portable``, the default; ``pysol``; ``ms``; ``solvitaire``) and the instance families of
:mod:`patience.families` (``random``, ``planted``, ``sorted``), which take random card swaps after a
colon (``planted:8``). :data:`GENERATORS` names the plain ones and
:data:`patience.families.FAMILIES` the families, as the CLI lists them.

Modules import downwards only: :mod:`patience.rng` (random numbers) <- :mod:`patience.generators` <-
:mod:`patience.families` <- this module. Every deal records the canonical form of its rule overrides
(:func:`patience.rules.canonical_overrides`), so ``cells=2`` and ``cells.count=2`` give one instance.
"""

from __future__ import annotations

from typing import Any

from .families import FAMILIES, FAMILY_GENERATORS, parse_family
from .generators import BASE, DealError, Generator
from .instance import Instance

__all__ = ["GENERATORS", "REGISTRY", "DealError", "Generator", "deal", "parse_generator"]

REGISTRY: dict[str, Generator] = {g.name: g for g in (*BASE, *FAMILY_GENERATORS)}
GENERATORS: dict[str, str] = {g.name: g.summary for g in REGISTRY.values() if not g.is_family}


def parse_generator(spec: str) -> tuple[Generator, int]:
    """The generator a ``-g`` spec names and its swaps: ``portable``, ``planted`` or ``planted:8``."""
    if spec in GENERATORS:
        return REGISTRY[spec], 0
    family = parse_family(spec)
    if family is None:
        raise DealError(
            f"unknown generator {spec!r} (one of {', '.join(GENERATORS)}, or an instance family "
            f"{'|'.join(FAMILIES)} with optional :SWAPS, e.g. planted:8)"
        )
    return REGISTRY[family[0]], family[1]


def deal(
    game: str,
    seed: int,
    generator: str = "portable",
    overrides: dict[str, Any] | None = None,
) -> Instance:
    """Deal game ``game`` number ``seed`` with a generator of :data:`REGISTRY` (a plain one, or an
    instance family ``FAMILY[:SWAPS]``, see :mod:`patience.families`) into an Instance.

    >>> inst = deal("black-hole", 1, "pysol")  # PySol's (and black-hole-solver's) Black Hole #1
    >>> len(inst.layout.tableau), [inst.deck.text(c) for c in inst.layout.tableau[0]]
    (17, ['JD', 'KS', 'TH'])
    >>> deal("freecell", 7, overrides={"cells": 2}).rules.cells.count
    2
    """
    gen, swaps = parse_generator(generator)
    return gen.deal(game, seed, overrides, swaps)
