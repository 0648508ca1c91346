"""``python -m patience``: the ``patience`` command."""

from .cli import main

if __name__ == "__main__":
    main(prog_name="patience")
