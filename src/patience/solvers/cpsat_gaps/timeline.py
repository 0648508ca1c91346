"""The variables the time-indexed formulations share ("steps" in :mod:`.model`, "foata" in :mod:`.foata`).

``at[t][(c, p)]``: card ``c`` lies in cell ``p`` in state ``t`` (a reachable cell of the card,
:mod:`.bounds`), the constant 0 before the card's earliest arrival there and the dealt grid in state 0.
``mv[(c, p)]`` of step ``t``: the step moves card ``c`` into cell ``p`` (a destination of the card, from its
earliest arrival on), also recorded as ``v.mv[(t, c, p)]`` for decoding. The rules of a step that both
formulations state alike (one card a cell, a move's target is a gap, the frame axioms) are here too, written
once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["card_cuts", "cells_and_frame", "clause", "is_const", "move_vars", "neg", "state_vars"]


def clause(m: Any, lits: list[Any]) -> None:
    """Add the clause ``or(lits)`` to the CP-SAT model ``m``; constant literals (0/1) are folded in."""
    if any(x is True or (isinstance(x, int) and not isinstance(x, bool) and x == 1) for x in lits):
        return
    rest = [x for x in lits if not isinstance(x, int)]
    if not rest:
        m.add_bool_or([m.new_constant(0)])
    else:
        m.add_bool_or(rest)


def is_const(x: Any, k: int) -> bool:
    """True when ``x`` is the constant ``k`` (0 or 1), not a model literal."""
    return isinstance(x, int) and x == k


def neg(x: Any) -> Any:
    """Negation of a literal or of a constant 0/1."""
    return 1 - x if isinstance(x, int) else ~x


def state_vars(v: Any, on_time: Callable[[Any], None]) -> list[dict[tuple[int, int], Any]]:
    """``at[0..horizon]`` of the model ``v`` (``on_time(v)`` between states: building has a deadline)."""
    m, deal, b = v.model, v.deal, v.b
    cards, arr = deal.cards, b.arrival
    at: list[dict[tuple[int, int], Any]] = [{(c, p): int(p == b.init[c]) for c in cards for p in b.reach[c]}]
    for t in range(1, v.horizon + 1):
        on_time(v)
        at.append(
            {
                (c, p): m.new_bool_var(f"at_{t}_{c}_{p}") if t >= arr[(c, p)] else 0
                for c in cards
                for p in b.reach[c]
            }
        )
    return at


def move_vars(v: Any, t: int) -> dict[tuple[int, int], Any]:
    """``mv`` of step ``t`` (state ``t`` to ``t + 1``) of the model ``v``, recorded in ``v.mv`` too."""
    m, b = v.model, v.b
    mv = {
        (c, p): m.new_bool_var(f"mv_{t}_{c}_{p}")
        for c in v.deal.cards
        for p in b.dest[c]
        if t + 1 >= b.arrival[(c, p)]
    }
    for (c, p), lit in mv.items():
        v.mv[(t, c, p)] = lit
    return mv


def cells_and_frame(
    v: Any,
    now: dict[tuple[int, int], Any],
    nxt: dict[tuple[int, int], Any],
    mv: dict[tuple[int, int], Any],
    moving: dict[int, list[Any]],
) -> None:
    """The step from state ``now`` to ``nxt`` with moves ``mv`` (``moving[c]``: the card's move literals):
    one card a cell and a move's target a gap in ``now``, at most one move a target; frame axioms (``nxt``
    holds a card where it moved, or where it was and did not move) and each card in exactly one cell."""
    m, cards, b = v.model, v.deal.cards, v.b
    for p in range(v.deal.rows * v.deal.R):
        occ = [now[(c, p)] for c in cards if (c, p) in now]
        terms = [x for x in occ if not isinstance(x, int)] + [mv[(c, p)] for c in cards if (c, p) in mv]
        if sum(x for x in occ if isinstance(x, int)):
            for x in terms:
                m.add(x == 0)
        elif len(terms) > 1:
            m.add_at_most_one(terms)
    for c in cards:
        mc = moving.get(c, [])
        for p in b.reach[c]:
            a0, a1, mp = now[(c, p)], nxt[(c, p)], mv.get((c, p), 0)
            clause(m, [neg(mp), a1])
            clause(m, [neg(a0), a1, *mc])
            clause(m, [neg(a1), a0, mp])
        m.add_exactly_one([nxt[(c, p)] for p in b.reach[c] if not isinstance(nxt[(c, p)], int)])


def card_cuts(m: Any, deal: Any, b: Any, moves_of: dict[int, list[Any]]) -> None:
    """The per-card move bounds (Lemmas 1-2 of :mod:`.bounds`) over each card's move literals
    ``moves_of[c]``: at most ``b.ub[c]`` moves, and no more than its predecessor's (one more when the
    card does not start right of it)."""
    total = {c: sum(moves_of.get(c, [])) for c in deal.cards}
    for c in deal.cards:
        if c in moves_of:
            m.add(total[c] <= b.ub[c])
            if deal.rank(c) > 2:
                m.add(total[c] <= total[c - 1] + (0 if b.right[c] else 1))
