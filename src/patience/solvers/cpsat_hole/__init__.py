"""CP-SAT for the Black Hole family: Black Hole, All in a Row, Binary Star, Worm Hole, generalized.

The family is recognised by rule-set features, never by name (:func:`~.data.family_supports`: a hole
game by :func:`patience.holes.is_hole_game` with at most one, initially empty, free cell): foundations
of kind ``hole``, a tableau that takes no card, no stock or reserve, holes that are never emptied again.
Any deck (S suits x R ranks x D decks), any piles, any number of holes, each starting empty or on a card,
wrap on or off (``foundations.wrap``), ``king_blocks`` (Golf's "nothing on a King") are all handled by
one model. One module per job:

* :mod:`.data`: :class:`HoleDeal`, the numbers a model reads off a deal;
* :mod:`.model`: :func:`build_model`, the "table" and "circuit" formulations, the symmetry cuts and
  their soundness proof;
* :mod:`.steps`: the "steps" formulation (a state per step: pile heights, hole tops), ``auto``'s choice
  for several holes without a cell (Binary Star);
* :mod:`.decode`: solution -> events -> engine moves (each checked legal), events -> solution hint;
* :mod:`.params`: CP-SAT parameters and statistics;
* :mod:`.presearch`: the bounded DFS tried first, and why its losses are never verdicts;
* :mod:`.maxcards`: :func:`max_cards_removed`, the longest removal sequence and its proven bound;
* :mod:`.lns`: wins by prefix large-neighbourhood search over the max-cards model (104-card decks);
* :mod:`.backend`: :class:`CpSatBlackHole` (registry names ``cpsat``, ``cpsat-only``), the two-stage solve;
* :mod:`.facts`: the facts explanations are made of ("the 7s: 7H (pile 6) waits for 9D 3S 3D; ...");
* :mod:`.explain`: :func:`explain`, the facts of a lost deal that already make it lost.

Measurements behind the choices (formulations, parameters, budgets): docs/cpsat-hole-notes.md.
"""

from .backend import MULTI_HOLE_FACTOR, CpSatBlackHole, CpSatOptions
from .data import HoleDeal, family_supports
from .decode import decode, to_moves
from .explain import explain
from .maxcards import max_cards_removed
from .model import ModelVars, build_model
from .presearch import Presearch, presearch

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
