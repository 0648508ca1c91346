"""The FreeCell deals Klaver 2022 names, in Klaver's text format, and that format's reader.

**Klaver's text format** (thesis section 4, Figure 9): one line per row of the layout, the first line the
row dealt first (the cards at the bottom of the stacks, covered by the rest), cards separated by commas,
each a suit letter and a rank ``1..R``. Letters alternate black and red: ``a`` spades, ``b`` diamonds,
``c`` clubs, ``d`` hearts; further letters continue the pattern (``e`` black, ``f`` red, ...), mapped here
onto our generalized suits of the same colour (:func:`klaver_suit`).

**The deals.** ``bodlaender`` is Figure 9 exactly as the thesis prints it in this format. The other
figures reach us only as typeset tables whose black suit glyphs did not survive extraction (a spade and a
club often look alike; the red suits and every rank did). Each is rebuilt under the constraint that every
card occurs once, with the structure the thesis states (Klaver's "top row of one suit, King on the Ace";
Magic 8's black-red column pairs, a spade beside each diamond and a club beside each heart; Unmoveable's
one suit per column). Where a spade/club pair is still open the figure is given with each reading
(:data:`AMBIGUOUS`) and the solver decides which one has the property the thesis claims; the instance
files say so in their ``source``. Microsoft's 11982 (Figure 12) is ``instances/freecell/ms-11982.json``:
the thesis prints it with the red and black suits exchanged (spades <-> hearts, clubs <-> diamonds), a
symmetry that changes no play.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from ..cards import Card
from ..instance import Instance, Layout

__all__ = ["AMBIGUOUS", "FAMOUS", "Famous", "famous_instance", "klaver_suit", "parse_klaver", "to_klaver"]

_BLOCK = (3, 1, 0, 2)  # a b c d -> S D C H (suit codes C=0 D=1 H=2 S=3): black, red, black, red


def klaver_suit(letter: str) -> int:
    """Our suit index for Klaver's letter (``a`` spades, ``b`` diamonds, ``c`` clubs, ``d`` hearts, ...)."""
    i = ord(letter.lower()) - ord("a")
    if not 0 <= i < 26:
        raise ValueError(f"suit letter {letter!r}: expected a..z")
    return 4 * (i // 4) + _BLOCK[i % 4]


def _letter(suit: int) -> str:
    return chr(ord("a") + 4 * (suit // 4) + _BLOCK.index(suit % 4))


def parse_klaver(text: str, stacks: int) -> tuple[tuple[Card, ...], ...]:
    """Klaver's rows (first line: the bottom cards) as piles, bottom to top, over ``stacks`` stacks.

    A row may be short (the last one, when the cards do not divide evenly); card ``j`` of a row goes to
    stack ``j``. Errors name the line and the card.
    """
    piles: list[list[Card]] = [[] for _ in range(stacks)]
    for n, line in enumerate((x for x in text.strip().splitlines() if x.strip()), 1):
        cells = [c.strip() for c in line.split(",")]
        if len(cells) > stacks:
            raise ValueError(f"line {n}: {len(cells)} cards for {stacks} stacks")
        for j, cell in enumerate(cells):
            if len(cell) < 2 or not cell[0].isalpha() or not cell[1:].isdigit():
                raise ValueError(f"line {n}, card {j + 1}: {cell!r} is not a suit letter and a rank")
            piles[j].append(Card(int(cell[1:]), klaver_suit(cell[0])))
    return tuple(tuple(p) for p in piles)


def to_klaver(piles: tuple[tuple[Card, ...], ...] | list) -> str:
    """Piles (bottom to top) in Klaver's text format, the inverse of :func:`parse_klaver`."""
    rows = max((len(p) for p in piles), default=0)
    lines = []
    for r in range(rows):
        lines.append(",".join(f"{_letter(p[r].suit)}{p[r].rank}" for p in piles if len(p) > r))
    return "\n".join(lines)


@dataclass(frozen=True)
class Famous:
    """A deal the thesis shows: name, figure, configuration (stacks-ranks-suits-cells), rows, claim."""

    name: str
    figure: str
    stacks: int
    ranks: int
    suits: int
    cells: int
    rows: str
    claim: str
    reading: str = ""  # how an ambiguous figure was read ("" when exact or unambiguous)

    @property
    def overrides(self) -> dict[str, int]:
        """``--set`` overrides of the freecell model for this configuration."""
        return {"piles": self.stacks, "ranks": self.ranks, "suits": self.suits, "cells": self.cells}


Cfg = tuple[int, int, int, int]


def _fig(name: str, figure: str, cfg: Cfg, rows: str, claim: str, reading: str = "") -> Famous:
    return Famous(name, figure, *cfg, rows=rows, claim=claim, reading=reading)


_STD = (8, 13, 4, 4)
_MLG = (8, 10, 4, 1)

FAMOUS: tuple[Famous, ...] = (
    _fig(
        "bodlaender",
        "Figure 9 (Bodlaender 1996)",
        _STD,
        """a2,c2,b2,d2,a1,c1,b1,d1
a8,c8,b8,d8,a7,c7,b7,d7
a13,c13,b13,d13,b6,d6,a6,c6
b12,d12,a12,c12,a5,c5,b5,d5
a11,c11,b11,d11,b4,d4,a4,c4
b10,d10,a10,c10,a3,c3,b3,d3
a9,c9,b9,d9""",
        "unsolvable",
    ),
    _fig(
        "magic-8",
        "Figure 8 (David A. Miller, via Keller)",
        _STD,
        """a1,b1,c1,d1,a12,b12,a10,b10
a5,b5,a3,b3,c12,d12,c10,d10
c5,d5,c3,d3,a8,b8,a6,b6
a9,b9,a7,b7,c8,d8,c6,d6
c9,d9,c7,d7,a4,b4,a2,b2
a13,b13,a11,b11,c4,d4,c2,d2
c13,d13,c11,d11""",
        "needs eight free cells",
        "black suits from the column pairs: a spade beside each diamond, a club beside each heart",
    ),
    _fig(
        "unmoveable",
        "Figure 13",
        _STD,
        """a10,d10,c10,b10,a1,d1,c1,b1
a12,d12,c12,b12,a8,d8,c8,b8
a6,d6,c6,b6,a4,d4,c4,b4
a2,d2,c2,b2,a5,d5,c5,b5
a3,d3,c3,b3,a9,d9,c9,b9
a7,d7,c7,b7,a13,d13,c13,b13
a11,d11,c11,b11""",
        "unsolvable, no move but to a free cell",
        "one suit per column; the black columns by elimination (every rank once per suit)",
    ),
)
"""The deals whose every card the figure fixes (after the stated structural reading)."""

_FIG22 = """a1,a2,a3,a4,a5,a6,a7,a8
a10,c2,{x},c4,c5,c6,c7,c8
d10,c1,c3,c10,d1,b9,d2,b2
b10,d3,d4,d5,d6,d7,d8,d9
{y},b3,b4,b5,b6,b7,b8,b1"""

_FIG25 = """a1,a2,a3,a4,a5,a6,a7,a8
a10,c2,c6,c4,c5,c1,c7,c8
c10,d1,c3,b7,d5,d10,d8,b2
b10,b9,d4,b3,b8,{x},d6,d9
{y},b6,b4,d7,d3,d2,b5,b1"""

_FIG30 = """a1,a3,a6,a2,a4,a5,a7,a8
a13,c6,c2,c4,c3,c10,c12,c13
c11,c5,b11,b1,b4,a12,c8,d5
c1,a11,b2,c7,d1,b5,b10,{x}
d10,a10,d6,d11,d12,b3,b6,{y}
d8,b8,b7,b12,d9,d4,b9,b13
d2,d13,d3,d7"""

_NINES = "the black 9s' suits are not legible: {x}/{y} = {a}/{b}"


def _both(name: str, figure: str, cfg: Cfg, rows: str, claim: str) -> tuple[Famous, ...]:
    out = []
    for tag, (x, y) in (("a", ("a9", "c9")), ("b", ("c9", "a9"))):
        reading = _NINES.format(x="first", y="second", a=x, b=y)
        out.append(_fig(f"{name}-{tag}", figure, cfg, rows.format(x=x, y=y), claim, reading))
    return tuple(out)


_FIG23 = """a1,a2,a3,a4,a5,a6
a10,c3,b3,b9,c5,{e}
{x},a7,b6,b5,d7,{u}
c10,d3,d6,d5,d10,c6
d1,{y},b8,b1,c1,c2
{v},d8,b2,b4,b10,c7
b7,d9,d2,d4"""


def _fig23() -> tuple[Famous, ...]:
    """Figure 23 (6-10-4-3) in its eight readings: its red cards, the black ranks 1-7 and 10 and the
    clubs' 1 and 7 are legible; left are the two black 9s' suits, the suit of the black 8 in row 2, and two
    black cards with no rank (rows 3 and 6), which must then be the other 8 and the 4 of clubs."""
    out = []
    for n, ((x, y), e, swap) in enumerate(product((("a9", "c9"), ("c9", "a9")), ("a8", "c8"), (False, True))):
        u, v = ("c4", "a8" if e == "c8" else "c8")[:: -1 if swap else 1]
        reading = (
            f"black 9s {x}/{y} (rows 3/5), row 2's black 8 {e}, the unranked black cards {u}/{v} (rows 3/6)"
        )
        rows = _FIG23.format(x=x, y=y, e=e, u=u, v=v)
        out.append(
            _fig(f"fig23-{'abcdefgh'[n]}", "Figure 23", (6, 10, 4, 3), rows, "maximal lost game", reading)
        )
    return tuple(out)


AMBIGUOUS: tuple[Famous, ...] = (
    *_both("fig22", "Figure 22", _MLG, _FIG22, "maximal lost game"),
    *_fig23(),
    *_both("fig25", "Figure 25", _MLG, _FIG25, "maximal lost game"),
    *_both("fig30", "Figure 30", _STD, _FIG30, "lost, 22 cards home at most"),
)
"""Figures with one spade/club pair not legible: each reading is listed; the solver tells them apart."""


def famous_instance(f: Famous) -> Instance:
    """The deal of ``f`` as a validated freecell instance (its ``source`` names the figure and reading)."""
    tableau = parse_klaver(f.rows, f.stacks)
    source: dict[str, str] = {"thesis": f"Klaver 2022, {f.figure}", "name": f.name, "claim": f.claim}
    if f.reading:
        source["reading"] = f.reading
    layout = Layout(tableau=tableau, foundations=((),) * f.suits, cells=(None,) * f.cells)
    return Instance.build("freecell", layout, f.overrides, source)
