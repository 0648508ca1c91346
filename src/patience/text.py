"""Small wording helpers for what people read (one home, used by the library's errors and the CLI)."""

from __future__ import annotations

__all__ = ["plural", "quoted"]


def plural(n: int, noun: str) -> str:
    """``1 card``, ``2 cards``: a count and its noun, for every line people read.

    >>> plural(1, "card"), plural(0, "move"), plural(3, "deal")
    ('1 card', '0 moves', '3 deals')
    """
    return f"{n} {noun}{'' if n == 1 else 's'}"


def quoted(text: str, limit: int = 40) -> str:
    """``repr(text)``, cut after ``limit`` characters with the full length named: an error quoting a
    hostile token (a megabyte of one word) stays one readable line.

    >>> quoted("AS"), quoted("A" * 50, limit=4)
    ("'AS'", "'AAAA'... (50 characters)")
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"
