"""Small wording helpers for what people read (one home, used by the library's errors and the CLI)."""

from __future__ import annotations

__all__ = ["plural"]


def plural(n: int, noun: str) -> str:
    """``1 card``, ``2 cards``: a count and its noun, for every line people read.

    >>> plural(1, "card"), plural(0, "move"), plural(3, "deal")
    ('1 card', '0 moves', '3 deals')
    """
    return f"{n} {noun}{'' if n == 1 else 's'}"
