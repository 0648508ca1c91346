"""The rules engine: one mutable game state driven by a rule-set's features, with apply/undo.

Nothing here branches on a game's name: every rule comes from the :class:`~patience.rules.RuleSet`.
One module per job, all re-exported here (``from patience.engine import Engine, TABLEAU, moves_to_json``):

* :mod:`.areas`: what a move is: the area constants, the 5-tuple :data:`Move`, :data:`EMPTY`,
  :data:`REDEAL`, :class:`MoveError`;
* :mod:`.state`: :class:`Engine`, the state lists, apply/undo, the win test and the canonical state key;
  :func:`unsupported`, the rule features the engine does not implement;
* :mod:`.moves`: which moves are legal (generation up to symmetry, full legality);
* :mod:`.gaps`: the Gaps grid (gaps to fill, sequences in place, the seeded redeal);
* :mod:`.notation`: the JSON move notation (``move_to_json``, ``move_from_json``, :func:`moves_to_json`).

The validator (:mod:`patience.validate`) shares no move-generation code with this package.
"""

from .areas import (
    AREA_NAMES,
    CELL,
    EMPTY,
    FOUNDATION,
    GRID,
    REDEAL,
    RESERVE,
    STOCK,
    TABLEAU,
    WASTE,
    Move,
    MoveError,
)
from .notation import moves_to_json
from .state import Engine, unsupported

__all__ = [
    "AREA_NAMES",
    "CELL",
    "EMPTY",
    "FOUNDATION",
    "GRID",
    "REDEAL",
    "RESERVE",
    "STOCK",
    "TABLEAU",
    "WASTE",
    "Engine",
    "Move",
    "MoveError",
    "moves_to_json",
    "unsupported",
]
