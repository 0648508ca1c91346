"""Old import path of the ``cpsat`` backend, kept for code that imports it (tests, benchmarks, the CLI).

The backend lives in :mod:`patience.solvers.cpsat_hole`, one module per job; the registry points there.
Patch names in the module that uses them (e.g. ``cpsat_hole.backend.presearch``), not here.
"""

from .cpsat_hole import (
    MULTI_HOLE_FACTOR,
    CpSatBlackHole,
    CpSatOptions,
    HoleDeal,
    ModelVars,
    Presearch,
    build_model,
    decode,
    explain,
    family_supports,
    max_cards_removed,
    presearch,
    to_moves,
)

__all__ = [
    "MULTI_HOLE_FACTOR",
    "CpSatBlackHole",
    "CpSatOptions",
    "HoleDeal",
    "ModelVars",
    "Presearch",
    "build_model",
    "decode",
    "explain",
    "family_supports",
    "max_cards_removed",
    "presearch",
    "to_moves",
]
