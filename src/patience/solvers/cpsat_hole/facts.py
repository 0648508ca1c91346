"""The facts an explanation of a lost hole-game deal is made of: named sets of constraints, in words.

A fact is a statement about the deal that is true of it (it follows from how the cards lie) and that a
reader can check on the board: "the 7s: 7H (pile 6) waits for 9D 3S 3D; 7C (pile 7) waits for ...".
In the model it is a set of precedences ``(a, c)``, card ``a`` leaves the tableau before card ``c``,
plus, for a hole that starts on a card, the start itself. An explanation is a set of facts whose
constraints alone (with the rank rule and "every card is played once", which hold in every deal) are
infeasible; :mod:`.explain` finds a small one.

Vocabularies (``explain(vocabulary=...)``):

* ``ranks`` (default): one fact per rank, "the 7s: ...": each card of that rank leaves only after
  every card above it in its pile (the whole stack on it, not just the card directly on it). At most R
  facts, plus the hole start. A kept rank is then narrowed to the cards it needs (:func:`card_facts`):
  "the 7s: 7H (pile 6) waits for 9D 3S 3D; 7C (pile 7) waits for QD TD 8C".
* ``links``: one fact per card lying directly on another ("X lies on Y (pile p)"), the vocabulary of
  the first explanations; kept to compare with (benchmarks/bench_explain.py).

Every fact is implied by the deal, so facts that are infeasible together prove the deal lost, and the
explanation reads as "these cards lie where they do; no order of play that respects that fits the rank
rule". Piles and holes are numbered from 1, as everything printed for people.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...cards import RANK_CHARS
from .data import HoleDeal

__all__ = ["Fact", "card_facts", "link_facts", "rank_facts", "rank_name", "vocabulary"]

VOCABULARIES = ("ranks", "links")


@dataclass(frozen=True)
class Fact:
    """A named set of constraints of the deal: ``pairs`` (card a leaves before card c) and hole starts."""

    key: tuple[object, ...]
    text: str
    pairs: tuple[tuple[int, int], ...] = ()
    starts: tuple[int, ...] = ()  # holes whose start card the fact keeps


def rank_name(r: int, R: int) -> str:
    """"the 7s", "the Kings"; generalized decks past 13 ranks: "the rank-14 cards"."""
    if R > len(RANK_CHARS):
        return f"the rank-{r} cards"
    names = {1: "Aces", 10: "10s", 11: "Jacks", 12: "Queens", 13: "Kings"}
    return "the " + names.get(r, f"{RANK_CHARS[r - 1]}s")


def _stack_on(deal: HoleDeal, c: int) -> list[int]:
    """The cards lying on ``c`` in its pile, nearest first."""
    out, a = [], deal.above[c]
    while a >= 0:
        out.append(a)
        a = deal.above[a]
    return out


def burial(deal: HoleDeal, c: int) -> str:
    """``7H (pile 6) waits for 9D 3S 3D``: the card and the cards on it, from the top of the pile down."""
    on = " ".join(deal.texts[a] for a in reversed(_stack_on(deal, c)))
    return f"{deal.texts[c]} (pile {deal.pile[c] + 1}) waits for {on}"


def _start_facts(deal: HoleDeal) -> list[Fact]:
    """One fact per hole that starts on a card: the first card played there must fit it."""
    facts = []
    for h in range(deal.k):
        if deal.hole_rank[h]:
            where = "the hole" if deal.k == 1 else f"hole {h + 1}"
            facts.append(Fact(("hole", h), f"{where} starts on {deal.hole_texts[h]}", starts=(h,)))
    return facts


def card_facts(deal: HoleDeal, c: int) -> Fact:
    """Card ``c`` leaves only after every card lying on it (a fact only for a card with cards on it)."""
    return Fact(("card", c), burial(deal, c), tuple((a, c) for a in _stack_on(deal, c)))


def rank_facts(deal: HoleDeal) -> list[Fact]:
    """One fact per rank with a covered card: every card of that rank waits for the stack on it."""
    facts = []
    for r in range(1, deal.R + 1):
        covered = [c for c in range(deal.n) if deal.rank[c] == r and deal.above[c] >= 0]
        if covered:
            parts = [card_facts(deal, c) for c in covered]
            text = f"{rank_name(r, deal.R)}: " + "; ".join(p.text for p in parts)
            facts.append(Fact(("rank", r), text, tuple(pair for p in parts for pair in p.pairs)))
    return facts


def link_facts(deal: HoleDeal) -> list[Fact]:
    """One fact per card lying directly on another: "X lies on Y (pile p)"."""
    return [
        Fact(("link", deal.above[c], c), f"{deal.texts[deal.above[c]]} lies on {deal.texts[c]} "
             f"(pile {deal.pile[c] + 1})", ((deal.above[c], c),))
        for c in range(deal.n) if deal.above[c] >= 0
    ]  # fmt: skip


def vocabulary(deal: HoleDeal, name: str) -> list[Fact]:
    """The facts of ``deal`` in vocabulary ``name`` (module docstring), hole starts first."""
    if name == "ranks":
        return _start_facts(deal) + rank_facts(deal)
    if name == "links":
        return _start_facts(deal) + link_facts(deal)
    raise ValueError(f"unknown vocabulary {name!r} ({', '.join(VOCABULARIES)})")
