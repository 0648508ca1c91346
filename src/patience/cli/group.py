"""The ``patience`` click group: one-line usage errors, Ctrl-C as exit 130, the ``--limit`` clock."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..interrupt import EXIT_INTERRUPTED, INTERRUPTED
from . import limits
from .errors import one_line_usage_errors

__all__ = ["main"]


class _Group(click.Group):
    """The ``patience`` group: option and argument errors of every command become one line (no usage)."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        with one_line_usage_errors():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        with one_line_usage_errors():
            try:
                return super().invoke(ctx)
            except KeyboardInterrupt:  # Ctrl-C anywhere else: one line and 130, as a shell reports it
                click.echo(INTERRUPTED, err=True)
                sys.exit(EXIT_INTERRUPTED)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="patience")
def main() -> None:
    """Solve patience (solitaire) deals with CP-SAT models and search, with verified solutions."""
    limits.mark_start()


def _register() -> None:
    """Add every command to the group."""
    from .deal import deal_cmd, generate_cmd
    from .experiments import compare, estimate, report
    from .games import games
    from .pddl import pddl_cmd
    from .show import show, validate
    from .solve import solve_cmd

    commands = (games, deal_cmd, show, validate, solve_cmd, generate_cmd, pddl_cmd, estimate, compare, report)
    for cmd in commands:
        main.add_command(cmd)


_register()
