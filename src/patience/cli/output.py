"""Machine-readable output shared by the commands."""

from __future__ import annotations

import json
from typing import Any

import click

__all__ = ["emit_json", "plural"]


def plural(n: int, noun: str) -> str:
    """``1 card``, ``2 cards``: a count and its noun, for every line people read.

    >>> plural(1, "card"), plural(0, "move"), plural(3, "deal")
    ('1 card', '0 moves', '3 deals')
    """
    return f"{n} {noun}{'' if n == 1 else 's'}"


def emit_json(data: Any) -> None:
    """Print ``data`` as indented JSON on stdout (every command's ``--json``)."""
    click.echo(json.dumps(data, indent=2))
