"""``python -m patience`` and the ``patience`` console script: the command, with Ctrl-C covered from the
first import on (an interrupt while click and the command group load is exit 130 with one line, not a
traceback)."""

from __future__ import annotations

import sys


def run() -> None:
    """Load the command group, then run it; an interrupt during loading exits as the commands do."""
    try:
        from .cli import main
        from .interrupt import EXIT_INTERRUPTED
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    try:
        main(prog_name="patience")
    except KeyboardInterrupt:  # between click's start and the group's own handler
        sys.stderr.write("interrupted\n")
        sys.exit(EXIT_INTERRUPTED)


if __name__ == "__main__":
    run()
