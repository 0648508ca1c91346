"""Limits on what one command may cost: ``--limit`` durations counted from the command's start, bounds
on deals and memory."""

from __future__ import annotations

import re
import time

from .errors import UsageError

__all__ = ["MAX_DEALS", "MAX_MB", "mark_start", "parse_limit", "seconds_left"]

MAX_DEALS = 1_000_000  # deals one estimate/compare/generate command runs; larger studies go in --seed slices
MAX_MB = 1 << 20  # --max-mb: a terabyte

# --limit counts from the command's invocation (mark_start, called by the group): dealing, loading a backend
# (OR-Tools, numba), building its model all come off it; only starting Python and importing the CLI do not.
_started = time.monotonic()


def mark_start() -> None:
    """Start the clock of ``--limit``: the command was invoked now."""
    global _started
    _started = time.monotonic()


def seconds_left(limit: float) -> float:
    """What is left of ``limit`` seconds since the command started (negative once past it)."""
    return limit - (time.monotonic() - _started)


def parse_limit(text: str) -> float:
    """``--limit`` as seconds: a positive number with an optional unit ms, s (the default), m or h."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d*)?)\s*(ms|s|m|h)?\s*", text)
    if not m:
        raise UsageError(f"--limit {text!r}: expected a duration like 500ms, 10s, 2m")
    value = float(m.group(1))
    scale = {"ms": 0.001, "s": 1, None: 1, "m": 60, "h": 3600}[m.group(2)]
    if value <= 0:
        raise UsageError("--limit: must be positive")
    return value * scale
