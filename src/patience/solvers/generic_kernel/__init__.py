"""A compiled search core for the generic engine: packed array states, move generation, apply/undo, a
128-bit state key and the DFS loop, compiled by numba (plain Python when numba is off).

* :mod:`.pack`: an :class:`~patience.engine.Engine` state and its rule features as int64 arrays, and the
  conversions of moves and states back to the engine's;
* :mod:`.kernel`: the functions (``numba.njit`` when :data:`.kernel.HAVE_NUMBA`) and the chunked runner;
* :mod:`.bestfirst`: ``planning``'s greedy best-first search on the same functions (``planning-jit``);
* this module: which rule features the kernel covers (:func:`unsupported_features`), light enough for the
  backend registry (it imports neither numpy nor numba).

Scope (rule features, never game names): the games with foundations built up by suit (one or several decks,
any base, wrap-around) or taking complete King..Ace runs (Spider's), none of a Gaps grid, a row game
(Accordion), cards set aside or a stock dealt onto a hole. A stock dealt onto a waste (any number at a time,
limited or unlimited redeals) or onto the tableau (one card a pile, the piles' order kept in the key while it
lasts); tableau building of every kind the engine has (none, any suit, alternate colour, same suit; down or
up-down; wrap, also from the base), single-card moves and the engine's group moves (``build``, ``same-suit``,
``whole-pile``), spaces filled by any card, by Kings, by nothing or by the reserve first (Canfield's two
policies; not Fortune's Favor's waste-then-stock); free cells (also prefilled), a reserve (stacked or not),
face-down cards, worrying back. That is the FreeCell family, Streets and Alleys, Beleaguered Castle,
Stronghold, Siegecraft, King Albert, Raglan, Fan, Somerset, Spanish Patience, Alpha/Delta Star, the Canisters,
Thirty, Simple Simon, Mrs Mop, Northwest Territory, Klondike (thoughtful), Canfield, Thirty Six, Trigon,
Spider, Spiderette, Will O' The Wisp (also with run foundations) and East Haven today
(``tests/solvers/test_generic_kernel.py`` finds them from the predicate, so a new game with these features is
covered by itself). Not covered: holes (Black Hole, Golf: ``hole_kernel``), Gaps (``gaps_kernel``), Accordion
(``row_kernel``), Fortune's Favor.
"""

from __future__ import annotations

from ...engine import unsupported
from ...rules import RuleSet

__all__ = ["MAX_PILES", "SPACE_POLICIES", "kernel_supports", "unsupported_features"]

MAX_PILES = 62  # piles whose top is a given card are one int64 bit mask
SPACE_POLICIES = ("any", "kings", "none", "reserve-first", "reserve-then-waste")


def unsupported_features(rules: RuleSet) -> list[str]:
    """The rule features of ``rules`` the kernel does not cover, in words (empty: it covers them all)."""
    out = list(unsupported(rules))
    f, t = rules.foundations, rules.tableau
    if rules.gaps.rows:
        out.append("a Gaps grid")
    if f.kind not in ("suits", "runs"):
        out.append(f"foundations of kind {f.kind!r} (only 'suits' or 'runs')")
    if rules.stock.size and rules.stock.deal_to == "hole":
        out.append("a stock dealt onto a hole (only onto a waste or the tableau)")
    if t.empty not in SPACE_POLICIES:
        out.append(f"spaces filled {t.empty!r} (only {', '.join(map(repr, SPACE_POLICIES))})")
    if getattr(rules, "row", None) is not None and rules.row.distances:
        out.append("a row game (Accordion)")
    if getattr(rules.deck, "dealt", 0):
        out.append("cards set aside (deck.dealt)")
    if t.piles > MAX_PILES:
        out.append(f"{t.piles} tableau piles (at most {MAX_PILES})")
    return out


def kernel_supports(rules: RuleSet) -> bool:
    """The ``dfs-jit`` registry predicate: every feature of ``rules`` is covered
    (:func:`unsupported_features`)."""
    return not unsupported_features(rules)
