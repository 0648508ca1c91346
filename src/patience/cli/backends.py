"""The one backend check of the command line: a known name, and one that decides the game's deals."""

from __future__ import annotations

from ..rules import RuleSet
from ..solvers.base import available_backends, unsupported_reason
from .errors import UsageError

__all__ = ["check_backend", "check_supported"]


def check_backend(name: str) -> None:
    """Refuse a ``--backend`` that is neither ``auto`` nor registered, naming the valid ones."""
    if name != "auto" and name not in available_backends():
        valid = ", ".join(["auto", *available_backends()])
        raise UsageError(f"--backend {name!r}: unknown (valid: {valid})")


def check_supported(rules: RuleSet, game: str, backend: str) -> None:
    """Refuse a game/backend pair the backend cannot decide (hidden cards included), before any work."""
    reason = unsupported_reason(rules, game, backend)
    if reason is not None:
        raise UsageError(reason)
