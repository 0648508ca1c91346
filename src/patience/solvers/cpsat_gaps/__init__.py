"""CP-SAT for the Gaps family without redeals (Gaps basic variant, Gaps one deal, generalized).

Supported rules (:func:`~.data.family_supports`): a Gaps grid (``gaps.rows`` > 0), one deck, no redeal;
both first-column policies (``fixed-suit``: row r takes only the 2 of suit r; ``any-two``). Other Gaps
rules answer UNSUPPORTED.

Notation (cells, card codes, the move rule): :mod:`.data`. One module per job:

* :mod:`.data`: :class:`GapsDeal`, the dealt grid as numbers;
* :mod:`.bounds`: per-card move bounds, the horizon and reachable cells, with their soundness proofs;
* :mod:`.model`: :func:`build_model`, the "steps" and "events" formulations, and :func:`decode`;
* :mod:`.backend`: :class:`CpSatGaps` (registry name ``cpsat-gaps``): parameters, verdicts, moves.

Measurements behind the choices (formulations, parameters, cuts tried): docs/cpsat-gaps-notes.md.
"""

from .backend import CpSatGaps, CpSatGapsOptions, to_moves
from .bounds import Bounds, bounds
from .data import GapsDeal, family_supports
from .model import FORMULATIONS, MAX_MODEL_LITERALS, ModelVars, OutOfTime, build_model, decode

__all__ = [
    "FORMULATIONS",
    "MAX_MODEL_LITERALS",
    "Bounds",
    "CpSatGaps",
    "CpSatGapsOptions",
    "GapsDeal",
    "ModelVars",
    "OutOfTime",
    "bounds",
    "build_model",
    "decode",
    "family_supports",
    "to_moves",
]
