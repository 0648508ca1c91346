"""Machine-readable output shared by the commands."""

from __future__ import annotations

import json
from typing import Any

import click

from ..text import plural

__all__ = ["emit_json", "plural"]


def emit_json(data: Any) -> None:
    """Print ``data`` as indented JSON on stdout (every command's ``--json``)."""
    click.echo(json.dumps(data, indent=2))
