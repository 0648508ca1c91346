"""The variables the time-indexed formulations share ("steps" in :mod:`.model`, "foata" in :mod:`.foata`).

``at[t][(c, p)]``: card ``c`` lies in cell ``p`` in state ``t`` (a reachable cell of the card,
:mod:`.bounds`), the constant 0 before the card's earliest arrival there and the dealt grid in state 0.
``mv[(c, p)]`` of step ``t``: the step moves card ``c`` into cell ``p`` (a destination of the card, from its
earliest arrival on), also recorded as ``v.mv[(t, c, p)]`` for decoding. Written once here so that both
formulations read the same bounds the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["move_vars", "state_vars"]


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
