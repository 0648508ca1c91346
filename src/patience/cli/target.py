"""A command's TARGET argument: an instance file, or GAME:SEED dealt by a generator."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..deals import deal
from ..instance import Instance, load_instance
from .errors import UsageError

__all__ = ["instance_arg"]


def instance_arg(text: str, generator: str, sets: dict[str, Any]) -> Instance:
    """An instance file, or GAME:SEED dealt with ``generator`` and the ``--set`` overrides."""
    path = Path(text)
    if path.exists():
        if sets:
            raise UsageError("--set applies to GAME:SEED, not to an instance file")
        return load_instance(path)
    m = re.fullmatch(r"([A-Za-z0-9_-]+):(\d+)", text)
    if m:
        return deal(m.group(1), int(m.group(2)), generator, sets or None)
    raise UsageError(f"{text}: no such file, and not GAME:SEED (e.g. black-hole:1)")
