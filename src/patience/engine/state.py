"""The engine's state: one mutable game state driven by a rule-set's features, with apply/undo.

Search backends call :meth:`Engine.legal_moves`, :meth:`Engine.apply` and :meth:`Engine.undo` in their
hot loop, so the state is a handful of Python lists of small integers (card codes, see
:meth:`patience.cards.Deck.code`) and a move is a plain 5-tuple (:mod:`.areas`). Nothing here branches on
a game's name: every rule comes from the :class:`~patience.rules.RuleSet`. Apply and undo of every area,
the Gaps grid's included, stay together here so that each undo visibly mirrors its apply.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Iterable
from typing import Any

from ..cards import Deck, colour_of_suit
from ..holes import HoleRanks, is_hole_game
from ..instance import Instance
from .areas import CELL, EMPTY, FOUNDATION, GRID, RESERVE, STOCK, TABLEAU, WASTE, Move
from .gaps import GapsGrid
from .moves import LegalMoves
from .notation import MoveNotation

__all__ = ["Engine", "unsupported"]


def unsupported(rules: Any) -> list[str]:
    """Rule features this engine does not implement yet (solvers answer UNSUPPORTED for them)."""
    out = []
    if rules.gaps.rows and rules.deck.decks > 1:
        out.append("gaps with several decks")
    return out


@functools.lru_cache(maxsize=64)
def _code_tables(R: int, n: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Rank, suit and colour of each of the ``n`` card codes of a deck of ``R`` ranks: the same for every
    deal of a deck, so built once (an engine copies them into its own lists)."""
    return (
        tuple(c % R + 1 for c in range(n)),
        tuple(c // R for c in range(n)),
        tuple(colour_of_suit(c // R) for c in range(n)),
    )


@functools.lru_cache(maxsize=64)
def _hole_table(ranks: HoleRanks) -> tuple[frozenset[int], ...]:
    """:meth:`HoleRanks.table`, once a rank rule (20 us of a 40 us engine otherwise, per deal)."""
    return tuple(ranks.table())


class Engine(LegalMoves, GapsGrid, MoveNotation):
    """Mutable state of one deal plus the rules that move it.

    >>> from patience.deals import deal
    >>> e = Engine(deal("black-hole", 1, "pysol"))
    >>> len(e.legal_moves()) > 0
    True
    """

    def __init__(self, instance: Instance) -> None:
        self.instance = instance
        rules = self.rules = instance.rules
        d = rules.deck
        self.deck = Deck(d.suits, d.ranks, d.decks)
        self.n_cards = self.deck.size
        R = self.R = d.ranks
        n = self.deck.n_codes
        # Per-code lookups so the hot loop never builds Card objects (each engine its own lists).
        rank, suit, colour = _code_tables(R, n)
        self.rank, self.suit, self.colour = list(rank), list(suit), list(colour)
        code = self.deck.code
        lay = instance.layout
        # State ---------------------------------------------------------------------------------
        self.piles: list[list[int]] = [[code(c) for c in p] for p in lay.tableau]
        face_down = rules.tableau.face_up == "top"
        self.down: list[int] = [max(len(p) - 1, 0) if face_down else 0 for p in lay.tableau]
        self.found: list[list[int]] = [[code(c) for c in p] for p in lay.foundations]
        self.cells: list[int] = [EMPTY if c is None else code(c) for c in lay.cells]
        self.reserve: list[int] = [code(c) for c in lay.reserve]
        self.stock: list[int] = [code(c) for c in lay.stock]
        self.waste: list[int] = [code(c) for c in lay.waste]
        self.grid: list[int] = [EMPTY if c is None else code(c) for row in lay.grid for c in row]
        # Gaps: where each card code lies, and the gap cells, kept in step with ``grid`` by apply/undo.
        self.where: list[int] = [-1] * n
        self.gap_cells: list[int] = []
        self._index_grid()
        self.redeals_used = 0
        self._undo: list[tuple[Move, Any]] = []  # (move, flipped-or-extra, or the grid before a redeal)
        # Rule features, flattened into attributes ------------------------------------------------
        t, f = rules.tableau, rules.foundations
        self.build = t.build
        self.build_updown = t.direction == "up-down"
        self.build_wrap = bool(t.wrap)  # True or "base": King-on-Ace wraps (see _down_one)
        self.wrap_base = t.wrap == "base"  # ranks count from the foundations' base: nothing on a base card
        self.group = t.group_moves
        self.empty_policy = t.empty
        self.fkind = f.kind
        self.fwrap = f.wrap
        self.removable = f.removable
        self.king_blocks = f.king_blocks
        if f.kind == "suits" and f.base == "dealt":
            first = next((p[0] for p in self.found if p), None)
            self.base_rank = self.rank[first] if first is not None else 1
        else:
            self.base_rank = 1
        self.stock_to = rules.stock.deal_to
        self.deal_count = rules.stock.deal_count
        self.max_redeals = rules.stock.redeals
        self.reserve_stacked = rules.reserve.stacked
        self.rows = rules.gaps.rows
        self.gaps_redeals = rules.gaps.redeals
        self._sha = ""  # the instance's sha256, computed at the first redeal (it seeds the shuffles)
        self.fixed_suit_twos = rules.gaps.first_column == "fixed-suit"
        # Accordion: piles move whole onto the pile these many places to their left (counting the piles
        # still in the row) when the top cards match by one of row.match (empty: not a row game).
        self.row_distances: tuple[int, ...] = rules.row.distances
        self.row_match = frozenset(rules.row.match)
        # Suits matter unless neither tableau nor foundations look at them (Black Hole family).
        self._onto: list[frozenset[int] | None] = [None] * n  # build_targets cache
        self.suits_matter = not (f.kind == "hole" and t.build in ("none", "any-suit"))
        # Fast path: the only moves are tableau tops to holes (Black Hole, All in a Row, Binary Star).
        self.hole_only = is_hole_game(rules)
        # hole_ok[t]: ranks that may be played on a hole whose top card has rank t (index 0 unused).
        self.hole_ok = list(_hole_table(HoleRanks.of(rules)))

    def piles_ordered(self) -> bool:
        """Does the order of the tableau piles matter now? Only while the stock deals onto the tableau:
        a deal gives its k-th card to pile k, so two positions that differ only in pile order deal
        differently (and East Haven's last deal covers only the first piles). In a row game (Accordion)
        a pile's neighbours are what it may move onto, so order always matters. Otherwise the rules never
        tell piles apart, so the state key sorts them and a card goes to the first empty pile only."""
        return (self.stock_to == "tableau" and bool(self.stock)) or bool(self.row_distances)

    # Apply / undo --------------------------------------------------------------------------------
    def apply(self, move: Move) -> None:
        """Play ``move`` (assumed legal); remember how to undo it."""
        src, si, dst, di, cnt = move
        extra = 0
        if src == STOCK:
            if dst == WASTE:
                for _ in range(cnt):
                    self.waste.append(self.stock.pop())
            elif dst == TABLEAU and di >= 0:  # the stock's top fills a space (tableau.empty waste-then-stock)
                self.piles[di].append(self.stock.pop())
            elif dst == TABLEAU:
                for j in range(cnt):
                    self.piles[j].append(self.stock.pop())
            else:
                self.found[di].append(self.stock.pop())
        elif src == WASTE and dst == STOCK:
            self.waste.reverse()
            self.stock.extend(self.waste)
            self.waste.clear()
            self.redeals_used += 1
        elif src == GRID:
            if si < 0:
                extra = tuple(self.grid)
                self._redeal()
                self._index_grid()
            else:
                c = self.grid[di] = self.grid[si]
                self.grid[si] = EMPTY
                self.where[c] = di
                self.gap_cells[self.gap_cells.index(di)] = si
        else:
            # Take the cards.
            if src == TABLEAU:
                p = self.piles[si]
                cards = p[-cnt:]
                del p[-cnt:]
                if p and len(p) == self.down[si]:
                    self.down[si] -= 1
                    extra = 1
            elif src == CELL:
                cards = [self.cells[si]]
                self.cells[si] = EMPTY
            elif src == RESERVE:
                cards = [self.reserve.pop(si)]
            elif src == WASTE:
                cards = [self.waste.pop()]
            else:
                f = self.found[si]
                cards = f[-cnt:]
                del f[-cnt:]
            # Put them down.
            if dst == TABLEAU:
                self.piles[di].extend(cards)
            elif dst == FOUNDATION:
                self.found[di].extend(cards)
            else:
                self.cells[di] = cards[0]
        self._undo.append((move, extra))

    def undo(self) -> None:
        """Take back the last applied move, restoring the exact previous state."""
        move, extra = self._undo.pop()
        src, si, dst, di, cnt = move
        if src == STOCK:
            if dst == WASTE:
                for _ in range(cnt):
                    self.stock.append(self.waste.pop())
            elif dst == TABLEAU and di >= 0:
                self.stock.append(self.piles[di].pop())
            elif dst == TABLEAU:
                for j in reversed(range(cnt)):
                    self.stock.append(self.piles[j].pop())
            else:
                self.stock.append(self.found[di].pop())
            return
        if src == WASTE and dst == STOCK:
            self.waste.extend(self.stock[-cnt:])
            del self.stock[-cnt:]
            self.waste.reverse()
            self.redeals_used -= 1
            return
        if src == GRID:
            if si < 0:
                self.grid[:] = extra
                self.redeals_used -= 1
                self._index_grid()
            else:
                c = self.grid[si] = self.grid[di]
                self.grid[di] = EMPTY
                self.where[c] = si
                self.gap_cells[self.gap_cells.index(si)] = di
            return
        if dst == TABLEAU:
            p = self.piles[di]
            cards = p[-cnt:]
            del p[-cnt:]
        elif dst == FOUNDATION:
            f = self.found[di]
            cards = f[-cnt:]
            del f[-cnt:]
        else:
            cards = [self.cells[di]]
            self.cells[di] = EMPTY
        if src == TABLEAU:
            if extra:
                self.down[si] += 1
            self.piles[si].extend(cards)
        elif src == CELL:
            self.cells[si] = cards[0]
        elif src == RESERVE:
            self.reserve.insert(si, cards[0])
        elif src == WASTE:
            self.waste.append(cards[0])
        else:
            self.found[si].extend(cards)

    # Queries -------------------------------------------------------------------------------------
    def is_won(self) -> bool:
        """True when every card is home (Gaps: every row runs 2..top rank in one suit; a row game: one
        pile is left)."""
        if self.rows:
            return self._gaps_won()
        if self.row_distances:
            return sum(1 for p in self.piles if p) == 1
        return self.foundation_cards() == self.n_cards

    def foundation_cards(self) -> int:
        """Cards on the foundations (the measure 'cards removed' of Black Hole)."""
        return sum(len(f) for f in self.found)

    def snapshot(self) -> tuple:
        """The exact state (pile order, suits, redeals), for tests of apply/undo."""
        return (
            tuple(map(tuple, self.piles)),
            tuple(self.down),
            tuple(map(tuple, self.found)),
            tuple(self.cells),
            tuple(self.reserve),
            tuple(self.stock),
            tuple(self.waste),
            tuple(self.grid),
            self.redeals_used,
        )

    def load(self, snapshot: tuple) -> None:
        """Put the engine in the state ``snapshot`` (as :meth:`snapshot` gives it, of the same rules), with
        an empty undo history: the inverse of :meth:`snapshot`. Players that simulate load sampled states
        of a game into an engine of a template deal (:mod:`patience.play.observation`)."""
        piles, down, found, cells, reserve, stock, waste, grid, redeals = snapshot
        if len(piles) != len(self.piles) or len(found) != len(self.found) or len(cells) != len(self.cells):
            raise ValueError("Engine.load: the snapshot's piles, foundations or cells do not fit these rules")
        self.piles = [list(p) for p in piles]
        self.down = list(down)
        self.found = [list(f) for f in found]
        self.cells = list(cells)
        self.reserve = list(reserve)
        self.stock = list(stock)
        self.waste = list(waste)
        self.grid = list(grid)
        self.where = [-1] * self.deck.n_codes
        self._index_grid()
        self.redeals_used = redeals
        self._undo = []
        f = self.rules.foundations
        if f.kind == "suits" and f.base == "dealt":  # as __init__ reads it from the deal
            first = next((p[0] for p in self.found if p), None)
            self.base_rank = self.rank[first] if first is not None else 1

    def key(self) -> Hashable:
        """Canonical state key for transposition tables.

        Tableau piles and free cells are sorted (their order never matters to the rules) and, where
        neither tableau nor foundations look at suits (Black Hole family), cards are reduced to ranks.
        """
        # With unlimited redeals the count used so far changes nothing that can happen next.
        redeals = self.redeals_used if self.max_redeals >= 0 else 0
        if self.rows:
            return (tuple(self.grid), redeals)
        if self.row_distances:
            # A row game: what can happen next depends only on the order of the piles left and their
            # top cards (moves compare tops; the win counts piles), not on where the gaps are.
            return tuple(p[-1] for p in self.piles if p)
        ordered = self.piles_ordered()
        if self.suits_matter:
            piles = [(tuple(p), d) for p, d in zip(self.piles, self.down, strict=True)]
            if not ordered:
                piles.sort()
            cells = tuple(sorted(self.cells))
            found = tuple(f[-1] if f else -1 for f in self.found) + tuple(map(len, self.found))
            conv = tuple
        else:
            rk = self.rank
            piles = [tuple(rk[c] for c in p) for p in self.piles]
            if not ordered:
                piles.sort()
            cells = tuple(sorted(rk[c] if c != EMPTY else 0 for c in self.cells))
            found = tuple(rk[f[-1]] if f else 0 for f in self.found)

            def conv(xs: Iterable[int]) -> tuple[int, ...]:
                return tuple(rk[c] for c in xs)

        return (
            tuple(piles),
            cells,
            found,
            conv(self.reserve),
            conv(self.stock),
            conv(self.waste),
            redeals,
        )
