"""The ``patience`` click group: one-line usage errors, Ctrl-C as exit 130, the ``--limit`` clock.

Commands are imported when they are run (or listed by ``--help``), so ``patience --version`` and
``patience games`` start without loading numpy, scipy, OR-Tools or numba.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from ..interrupt import EXIT_INTERRUPTED, INTERRUPTED
from . import limits
from .errors import one_line_usage_errors

__all__ = ["COMMANDS", "main"]


# Command name -> (module of patience.cli, attribute): the commands, imported on first use.
COMMANDS: dict[str, tuple[str, str]] = {
    "analyze": ("analyze", "analyze"),
    "compare": ("experiments", "compare"),
    "convert": ("convert", "convert_cmd"),
    "deal": ("deal", "deal_cmd"),
    "estimate": ("experiments", "estimate"),
    "games": ("games", "games"),
    "generate": ("deal", "generate_cmd"),
    "pddl": ("pddl", "pddl_cmd"),
    "play": ("play", "play_cmd"),
    "report": ("experiments", "report"),
    "results": ("results", "results_cmd"),
    "show": ("show", "show"),
    "solve": ("solve", "solve_cmd"),
    "validate": ("show", "validate"),
    "view": ("view", "view_cmd"),
}


class _Group(click.Group):
    """The ``patience`` group: option and argument errors of every command become one line (no usage);
    the commands of :data:`COMMANDS` are imported when first looked up."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, attr = COMMANDS[cmd_name]
            self.add_command(getattr(importlib.import_module(f"{__package__}.{module}"), attr), cmd_name)
        return super().get_command(ctx, cmd_name)

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
