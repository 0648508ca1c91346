"""The one backend check of the command line: a known name, installed, and one that decides the game's
deals."""

from __future__ import annotations

from collections.abc import Callable

from ..rules import RuleSet
from ..solvers.base import available_backends, unsupported_reason
from ..solvers.registry import available_engines
from .errors import UsageError

__all__ = ["EXTRAS", "check_backend", "check_supported"]

# Backends that need an optional extra of pyproject.toml: name -> (extra, a light test that it is installed).
EXTRAS: dict[str, tuple[str, Callable[[], object]]] = {
    "planner": ("planners", available_engines),  # unified-planning and at least one planner
}


def check_backend(name: str) -> None:
    """Refuse a ``--backend`` that is neither ``auto`` nor registered, naming the valid ones, and one whose
    optional packages are missing, saying how to install them."""
    if name != "auto" and name not in available_backends():
        valid = ", ".join(["auto", *available_backends()])
        raise UsageError(f"--backend {name!r}: unknown (valid: {valid})")
    if name in EXTRAS:
        extra, installed = EXTRAS[name]
        if not installed():
            raise UsageError(
                f"--backend {name}: needs the optional [{extra}] packages; install them with "
                f"pip install 'patience[{extra}]' (in a clone: pip install -e '.[{extra}]')"
            )


def check_supported(rules: RuleSet, game: str, backend: str) -> None:
    """Refuse a game/backend pair the backend cannot decide (hidden cards included), before any work."""
    reason = unsupported_reason(rules, game, backend)
    if reason is not None:
        raise UsageError(reason)
