"""Errors and exit codes of the ``patience`` command.

Bad input of every kind (a value, a file, a game/backend pair, Click's own option errors) is reported the
same way: exactly one ``error:`` line on stderr naming the problem and where, exit code 2, nothing written.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from ..interrupt import EXIT_INTERRUPTED

__all__ = [
    "EXIT_BACKEND_ERROR",
    "EXIT_INTERRUPTED",
    "EXIT_NOT_WON",
    "EXIT_OK",
    "EXIT_USAGE",
    "UsageError",
    "bad_input_errors",
    "guard",
    "one_line_usage_errors",
    "say_error",
]

EXIT_OK = 0
EXIT_NOT_WON = 1  # not solved with --require-win; validate of a non-winning solution; compare's conflicts
EXIT_USAGE = 2  # bad input or usage, an unsupported game/backend pair included
EXIT_BACKEND_ERROR = 3  # a backend's solution failed validation, a worker died: a bug, never a verdict


class UsageError(ValueError):
    """A command-line value that cannot be used."""


def bad_input_errors() -> tuple[type[Exception], ...]:
    """The library's exceptions for bad input (files, rules, deals, cards, moves, solutions).

    Imported when asked, so a command that never reads input does not load the modules defining them.
    """
    from ..cards import CardError
    from ..deals import DealError
    from ..engine import MoveError
    from ..instance import InstanceError
    from ..rules import RuleError
    from ..validate import SolutionError

    return (InstanceError, RuleError, DealError, SolutionError, CardError, MoveError)


def say_error(message: str) -> None:
    """``error: message`` as exactly one line on stderr: control characters from the input are escaped."""
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in message)
    click.echo(f"error: {text}", err=True)


def guard(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn bad-input exceptions raised by a command into one line on stderr and exit code 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except Exception as err:
            if not isinstance(err, (UsageError, *bad_input_errors())):
                raise
            say_error(str(err))
            sys.exit(EXIT_USAGE)

    return wrapper


@contextmanager
def one_line_usage_errors() -> Iterator[None]:
    """Click's usage errors as one line on stderr and exit 2, like every other bad input."""
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise  # a bare command shows its help
    except click.UsageError as err:
        where = f"{err.ctx.command_path}: " if err.ctx is not None else ""
        say_error(f"{where}{err.format_message()}")
        sys.exit(EXIT_USAGE)
