"""``--set NAME=VALUE`` rule overrides as given on the command line."""

from __future__ import annotations

import json
from typing import Any

from ..instance import parse_json
from ..rules import SHORT_NAMES
from .errors import UsageError

__all__ = ["SET_HELP", "coerce_sets", "parse_sets"]

SET_HELP = (
    f"Override a rule parameter (repeatable): {' '.join(SHORT_NAMES)}, or a dotted path such as "
    "tableau.empty=kings (`patience games GAME` shows them all)."
)


def parse_sets(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``--set`` pairs as {name: value text}; values are bounded like a file's (digits, nesting) and the
    rule schema checks them later."""
    out: dict[str, Any] = {}
    for p in pairs:
        if "=" not in p:
            raise UsageError(f"--set {p!r}: expected NAME=VALUE, e.g. suits=6")
        k, v = p.split("=", 1)
        try:  # bounded like a file (digits, nesting); the rule schema then checks the value's range
            parse_json(v, f"--set {k.strip()}", UsageError)
        except UsageError as err:
            if "malformed JSON" not in str(err):
                raise
        out[k.strip()] = v.strip()
    return out


def coerce_sets(sets: tuple[str, ...]) -> dict[str, Any]:
    """``--set`` values as JSON where they parse (``cells=2`` -> 2), so equal rules get equal store keys."""
    out = {}
    for k, v in parse_sets(sets).items():
        try:
            out[k] = json.loads(v)
        except ValueError:
            out[k] = v
    return out
