"""The rules engine: one mutable game state driven by a rule-set's features, with apply/undo.

Search backends call :meth:`Engine.legal_moves`, :meth:`Engine.apply` and :meth:`Engine.undo` in their
hot loop, so the state is a handful of Python lists of small integers (card codes, see
:meth:`patience.cards.Deck.code`) and a move is a plain 5-tuple ``(src, src_index, dst, dst_index,
count)`` with the area constants below. Nothing here branches on a game's name: every rule comes from
the :class:`~patience.rules.RuleSet`.

``legal_moves`` lists every legal move *up to symmetry*: a card or group going to an empty tableau
pile, free cell or foundation is offered for the first empty one only, and a whole pile is never moved
onto an empty pile (both leave a state equal up to the order of piles/cells). While the stock deals onto
the tableau the piles are not interchangeable (:meth:`Engine.piles_ordered`): every empty pile is offered
and the state key keeps the pile order. The validator in
:mod:`patience.validate` accepts any empty target, so it checks strictly more than this generates.

Gaps games use the ``grid`` area. When no gap can be filled and redeals remain, the only move is
:data:`REDEAL`: the cards not in sequence from the left of each row are gathered and laid out again in
the seeded order of :func:`patience.rng.gaps_redeal_shuffle`, one gap right after each row's sequence.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

from .cards import Deck, colour_of_suit
from .holes import HoleRanks, is_hole_game
from .instance import Instance
from .rng import gaps_redeal_shuffle

__all__ = [
    "TABLEAU",
    "FOUNDATION",
    "CELL",
    "RESERVE",
    "STOCK",
    "WASTE",
    "GRID",
    "REDEAL",
    "Engine",
    "Move",
    "MoveError",
    "moves_to_json",
    "unsupported",
]

# Areas of a move.
TABLEAU, FOUNDATION, CELL, RESERVE, STOCK, WASTE, GRID = range(7)
AREA_NAMES = ("tableau", "foundation", "cell", "reserve", "stock", "waste", "grid")
_INDEXED = {TABLEAU, FOUNDATION, CELL, RESERVE, GRID}

Move = tuple[int, int, int, int, int]
"""``(src_area, src_index, dst_area, dst_index, count)``; stock deals use index -1 for 'every pile'."""

EMPTY = -1  # an empty free cell or a gap
REDEAL: Move = (GRID, -1, GRID, -1, 1)
"""The Gaps redeal (gather the cards out of sequence, lay them out again in the deal's seeded order)."""


class MoveError(ValueError):
    """A move that cannot be parsed or applied."""


def unsupported(rules: Any) -> list[str]:
    """Rule features this engine does not implement yet (solvers answer UNSUPPORTED for them)."""
    out = []
    if rules.gaps.rows and rules.deck.decks > 1:
        out.append("gaps with several decks")
    return out


class Engine:
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
        # Per-code lookups so the hot loop never builds Card objects.
        self.rank = [c % R + 1 for c in range(n)]
        self.suit = [c // R for c in range(n)]
        self.colour = [colour_of_suit(c // R) for c in range(n)]
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
        self.build_wrap = t.wrap
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
        # Suits matter unless neither tableau nor foundations look at them (Black Hole family).
        self._onto: list[frozenset[int] | None] = [None] * n  # build_targets cache
        self.suits_matter = not (f.kind == "hole" and t.build in ("none", "any-suit"))
        # Fast path: the only moves are tableau tops to holes (Black Hole, All in a Row, Binary Star).
        self.hole_only = is_hole_game(rules)
        # hole_ok[t]: ranks that may be played on a hole whose top card has rank t (index 0 unused).
        self.hole_ok = HoleRanks.of(rules).table()

    def piles_ordered(self) -> bool:
        """Does the order of the tableau piles matter now? Only while the stock deals onto the tableau:
        a deal gives its k-th card to pile k, so two positions that differ only in pile order deal
        differently (and East Haven's last deal covers only the first piles). Otherwise the rules never
        tell piles apart, so the state key sorts them and a card goes to the first empty pile only."""
        return self.stock_to == "tableau" and bool(self.stock)

    # Card relations ----------------------------------------------------------------------------
    def _down_one(self, lower: int, upper: int, wrap: bool) -> bool:
        """True when ``lower`` is one rank below ``upper`` (Ace below King when ``wrap``)."""
        rl, ru = self.rank[lower], self.rank[upper]
        return rl == ru - 1 or (wrap and ru == 1 and rl == self.R)

    def can_build(self, card: int, onto: int) -> bool:
        """May ``card`` be placed on tableau card ``onto``?"""
        b = self.build
        if b == "none":
            return False
        if not self._down_one(card, onto, self.build_wrap) and not (
            self.build_updown and self._down_one(onto, card, self.build_wrap)
        ):
            return False
        if b == "same-suit":
            return self.suit[card] == self.suit[onto]
        if b == "alternate-colour":
            return self.colour[card] != self.colour[onto]
        return True

    def build_targets(self, card: int) -> frozenset[int]:
        """Codes ``card`` may be built on (cached: only cards one rank away are candidates)."""
        got = self._onto[card]
        if got is None:
            R, r = self.R, self.rank[card]
            ranks = {r + 1 if r < R else (1 if self.build_wrap else 0)}
            if self.build_updown:
                ranks.add(r - 1 if r > 1 else (R if self.build_wrap else 0))
            got = frozenset(
                s * R + t - 1
                for t in ranks
                if t
                for s in range(self.deck.suits)
                if self.can_build(card, s * R + t - 1)
            )
            self._onto[card] = got
        return got

    def _in_sequence(self, card: int, onto: int) -> bool:
        """May ``card`` sit on ``onto`` inside a movable group?"""
        if self.group == "same-suit":
            return self.suit[card] == self.suit[onto] and self._down_one(card, onto, self.build_wrap)
        return self.can_build(card, onto)

    def _foundation_targets(self, card: int) -> list[int]:
        """Indices of the foundations that accept ``card`` (empty ones: the first only)."""
        if self.fkind == "hole":
            r = self.rank[card]
            out = []
            empty_seen = False
            for i, pile in enumerate(self.found):
                if not pile:
                    if not empty_seen:
                        out.append(i)
                        empty_seen = True
                elif r in self.hole_ok[self.rank[pile[-1]]]:
                    out.append(i)
            return out
        fi = self._fits_foundation(card)
        return [fi] if fi >= 0 else []

    def _fits_foundation(self, card: int) -> int:
        """Index of a suit foundation that accepts ``card``, or -1."""
        found = self.found
        if self.fkind != "suits":
            return -1
        r, s = self.rank[card], self.suit[card]
        first_empty = -1
        for i, pile in enumerate(found):
            if pile:
                top = pile[-1]
                if self.suit[top] == s:
                    tr = self.rank[top]
                    if r == tr + 1 or (self.fwrap and tr == self.R and r == 1):
                        return i
            elif first_empty < 0:
                first_empty = i
        if first_empty >= 0 and r == self.base_rank:
            return first_empty
        return -1

    def _accepts_empty(self, card: int) -> bool:
        """May ``card`` (the bottom of a moved group) go to an empty tableau pile?"""
        p = self.empty_policy
        if p == "any" or (p == "reserve-first" and not self.reserve):
            return True
        if p == "kings":
            return self.rank[card] == self.R
        return False  # "none", and "reserve-first" is handled by the caller

    # Move generation ---------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """All legal moves from the current state, up to symmetry of empty targets."""
        if self.rows:
            moves = self._gaps_moves()
            if not moves and self.redeals_used < self.gaps_redeals and not self.is_won():
                return [REDEAL]
            return moves
        if self.hole_only:
            return self._hole_moves()
        moves: list[Move] = []
        piles, down = self.piles, self.down
        # Canfield-style spaces: while the reserve has cards an empty pile must take its top first.
        if self.empty_policy == "reserve-first" and self.reserve:
            for i, p in enumerate(piles):
                if not p:
                    return [(RESERVE, len(self.reserve) - 1, TABLEAU, i, 1)]
        # Empty piles a card may go to: the first only, as the others give the same state up to pile order;
        # every one while the stock still deals onto the tableau (a deal tells the piles apart by index).
        ordered = self.piles_ordered()
        spaces = [i for i, p in enumerate(piles) if not p]
        if spaces and not ordered:
            del spaces[1:]
        n_cells = len(self.cells)
        free_cell = self.cells.index(EMPTY) if EMPTY in self.cells else -1

        # Single cards from every source: tableau tops, cells, reserve, waste.
        sources: list[tuple[int, int, int]] = []  # (area, index, card)
        for i, p in enumerate(piles):
            if p:
                sources.append((TABLEAU, i, p[-1]))
        for i in range(n_cells):
            c = self.cells[i]
            if c != EMPTY:
                sources.append((CELL, i, c))
        if self.reserve:
            if self.reserve_stacked:
                sources.append((RESERVE, len(self.reserve) - 1, self.reserve[-1]))
            else:
                for i, c in enumerate(self.reserve):
                    sources.append((RESERVE, i, c))
        if self.waste:
            sources.append((WASTE, 0, self.waste[-1]))

        fkind = self.fkind
        building = self.build != "none"
        # Tableau tops by card code, so building looks up targets instead of scanning piles.
        tops: dict[int, list[int]] = {}
        if building:
            for j, q in enumerate(piles):
                if q:
                    tops.setdefault(q[-1], []).append(j)
        for area, si, card in sources:
            # To a foundation.
            if fkind != "runs":
                for fi in self._foundation_targets(card):
                    moves.append((area, si, FOUNDATION, fi, 1))
            # To another tableau pile.
            if building:
                for t in self.build_targets(card):
                    for j in tops.get(t, ()):
                        if area != TABLEAU or j != si:
                            moves.append((area, si, TABLEAU, j, 1))
            if spaces and self._accepts_empty(card) and (ordered or area != TABLEAU or len(piles[si]) > 1):
                moves.extend((area, si, TABLEAU, j, 1) for j in spaces)
            # To a free cell.
            if free_cell >= 0 and area != CELL:
                moves.append((area, si, CELL, free_cell, 1))

        # Groups of two or more cards between tableau piles.
        if self.group != "none" and building:
            for i, p in enumerate(piles):
                n = len(p)
                lowest = down[i]
                k = n - 1
                while k > lowest and self._in_sequence(p[k], p[k - 1]):
                    k -= 1
                # p[k:] is the longest movable group; try each start deeper than the top card.
                for start in range(k, n - 1):
                    cnt = n - start
                    if self.group == "whole-pile" and start != 0:
                        continue
                    bottom = p[start]
                    for t in self.build_targets(bottom):
                        for j in tops.get(t, ()):
                            if j != i:
                                moves.append((TABLEAU, i, TABLEAU, j, cnt))
                    if spaces and (start > 0 or ordered) and self._accepts_empty(bottom):
                        moves.extend((TABLEAU, i, TABLEAU, j, cnt) for j in spaces)

        # Complete runs King..Ace to the foundations (Spider family).
        if fkind == "runs":
            R = self.R
            slot = next((i for i, f in enumerate(self.found) if not f), -1)
            if slot >= 0:
                for i, p in enumerate(piles):
                    n = len(p)
                    if n - self.down[i] >= R and self.rank[p[-1]] == 1:
                        start = n - R
                        if self.rank[p[start]] == R and all(
                            self.suit[p[k]] == self.suit[p[k - 1]]
                            and self.rank[p[k]] == self.rank[p[k - 1]] - 1
                            for k in range(start + 1, n)
                        ):
                            moves.append((TABLEAU, i, FOUNDATION, slot, R))

        # Worrying back: a foundation top returns to the tableau.
        if self.removable and fkind == "suits":
            for fi, f in enumerate(self.found):
                if f:
                    card = f[-1]
                    if building:
                        for j, q in enumerate(piles):
                            if q and self.can_build(card, q[-1]):
                                moves.append((FOUNDATION, fi, TABLEAU, j, 1))
                    if spaces and self._accepts_empty(card):
                        moves.extend((FOUNDATION, fi, TABLEAU, j, 1) for j in spaces)

        # The stock.
        if self.stock:
            to = self.stock_to
            if to == "waste":
                moves.append((STOCK, 0, WASTE, 0, min(self.deal_count, len(self.stock))))
            elif to == "tableau":
                moves.append((STOCK, 0, TABLEAU, -1, min(len(piles), len(self.stock))))
            else:
                moves.append((STOCK, 0, FOUNDATION, 0, 1))
        elif (
            self.waste
            and self.stock_to == "waste"
            and (self.max_redeals < 0 or self.redeals_used < self.max_redeals)
        ):
            moves.append((WASTE, 0, STOCK, 0, len(self.waste)))
        return moves

    def _hole_moves(self) -> list[Move]:
        """Tableau tops onto holes: the whole move set of the Black Hole family."""
        piles, rank = self.piles, self.rank
        moves: list[Move] = []
        empty_seen = False
        for fi, f in enumerate(self.found):
            if f:
                ok = self.hole_ok[rank[f[-1]]]
                moves.extend((0, i, 1, fi, 1) for i, p in enumerate(piles) if p and rank[p[-1]] in ok)
            elif not empty_seen:
                empty_seen = True
                moves.extend((0, i, 1, fi, 1) for i, p in enumerate(piles) if p)
        return moves

    def _index_grid(self) -> None:
        """Recompute ``where`` and ``gap_cells`` from ``grid`` (after a deal or a redeal)."""
        self.gap_cells = [i for i, c in enumerate(self.grid) if c == EMPTY]
        for i, c in enumerate(self.grid):
            if c != EMPTY:
                self.where[c] = i

    def _gaps_moves(self) -> list[Move]:
        """Gaps: fill a gap with the same-suit successor of its left neighbour (a 2 in column 0)."""
        R, grid, where = self.R, self.grid, self.where
        moves: list[Move] = []
        for g in sorted(self.gap_cells):
            if g % R == 0:
                # The 2 of suit s has code s * R + 1; in the basic variant row r takes suit r only.
                suits = [g // R % self.deck.suits] if self.fixed_suit_twos else range(self.deck.suits)
                moves.extend((GRID, where[s * R + 1], GRID, g, 1) for s in suits)
                continue
            left = grid[g - 1]
            if left == EMPTY or left % R == R - 1:  # right of a gap or a King: dead
                continue
            moves.append((GRID, where[left + 1], GRID, g, 1))  # same suit, one rank higher: code + 1
        return moves

    def gaps_sequence(self, row: int) -> int:
        """Length of the run 2, 3, ... of one suit at the left of Gaps row ``row`` (0 if none)."""
        base, grid = row * self.R, self.grid
        first = grid[base]
        if first == EMPTY or self.rank[first] != 2:
            return 0
        k = 1
        while k < self.R - 1 and grid[base + k] == first + k:  # same suit, next rank: code + 1
            k += 1
        return k

    def _redeal(self) -> None:
        """Gather the cards out of sequence and lay them out again, a gap after each row's sequence."""
        R, grid = self.R, self.grid
        runs = [self.gaps_sequence(r) for r in range(self.rows)]
        keep = {r * R + k for r, n in enumerate(runs) for k in range(n)}
        loose = sorted(c for i, c in enumerate(grid) if c != EMPTY and i not in keep)
        if not self._sha:
            self._sha = self.instance.sha256
        self.redeals_used += 1
        order = iter(gaps_redeal_shuffle(self._sha, self.redeals_used, loose))
        for r, n in enumerate(runs):
            base = r * R
            grid[base + n] = EMPTY
            for k in range(n + 1, R):
                grid[base + k] = next(order)

    # Apply / undo --------------------------------------------------------------------------------
    def apply(self, move: Move) -> None:
        """Play ``move`` (assumed legal); remember how to undo it."""
        src, si, dst, di, cnt = move
        extra = 0
        if src == STOCK:
            if dst == WASTE:
                for _ in range(cnt):
                    self.waste.append(self.stock.pop())
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
        """True when every card is home (Gaps: every row runs 2..top rank in one suit)."""
        if self.rows:
            R, grid, rank, suit = self.R, self.grid, self.rank, self.suit
            for r in range(self.rows):
                row = grid[r * R : (r + 1) * R]
                if row[-1] != EMPTY:
                    return False
                s = suit[row[0]] if row[0] != EMPTY else -1
                for k in range(R - 1):
                    c = row[k]
                    if c == EMPTY or rank[c] != k + 2 or suit[c] != s:
                        return False
            return True
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

    def key(self) -> Hashable:
        """Canonical state key for transposition tables.

        Tableau piles and free cells are sorted (their order never matters to the rules) and, where
        neither tableau nor foundations look at suits (Black Hole family), cards are reduced to ranks.
        """
        # With unlimited redeals the count used so far changes nothing that can happen next.
        redeals = self.redeals_used if self.max_redeals >= 0 else 0
        if self.rows:
            return (tuple(self.grid), redeals)
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

    # Move text -------------------------------------------------------------------------------------
    def moved_card(self, move: Move) -> int | None:
        """Code of the (deepest) card a move takes, before it is applied; None for stock turns."""
        src, si, dst, _di, cnt = move
        if src == TABLEAU:
            return self.piles[si][-cnt]
        if src == CELL:
            return self.cells[si]
        if src == RESERVE:
            return self.reserve[si]
        if src == WASTE and dst != STOCK:
            return self.waste[-1]
        if src == FOUNDATION:
            return self.found[si][-cnt]
        if src == GRID:
            return self.grid[si] if si >= 0 else None
        if src == STOCK and cnt == 1 and dst != TABLEAU:
            return self.stock[-1]
        return None

    def move_to_json(self, move: Move) -> dict[str, Any]:
        """DESIGN section 5 form of a move, read before the move is applied."""
        src, si, dst, di, cnt = move
        if move == REDEAL:
            return self._redeal_to_json()
        out: dict[str, Any] = {}
        card = self.moved_card(move)
        if card is not None:
            out["card"] = self.deck.text(self.deck.card(card))
        out["from"] = _loc(src, si, self.R)
        out["to"] = _loc(dst, di, self.R)
        out["count"] = cnt
        return out

    def _redeal_to_json(self) -> dict[str, Any]:
        """A redeal with what it gathers and the grid it leaves, so a reader can follow the solution."""
        kept = sum(self.gaps_sequence(r) for r in range(self.rows))
        self.apply(REDEAL)
        k, text, R = self.redeals_used, self.deck.text, self.R
        grid = [
            [None if c == EMPTY else text(self.deck.card(c)) for c in self.grid[r * R : (r + 1) * R]]
            for r in range(self.rows)
        ]
        self.undo()
        count = self.n_cards - self.deck.decks * self.deck.suits - kept
        return {"from": "grid", "to": "grid", "count": count, "redeal": k, "grid": grid}

    def move_from_json(self, data: dict[str, Any]) -> Move:
        """Parse a JSON move against the current state (checks its card, not its legality)."""
        try:
            src, si = _parse_loc(data["from"], self.R)
            dst, di = _parse_loc(data["to"], self.R)
        except (KeyError, TypeError, ValueError) as err:
            raise MoveError(f"bad move {data!r}: {err}") from None
        cnt = data.get("count", 1)
        if not isinstance(cnt, int) or cnt < 1:
            raise MoveError(f"bad move {data!r}: count must be a positive integer")
        move = REDEAL if src == GRID and si < 0 else (src, si, dst, di, cnt)
        if "card" in data:
            try:
                actual = self.moved_card(move)
            except IndexError:
                actual = None
            if actual is None or self.deck.text(self.deck.card(actual)) != self.deck.text(
                self.deck.parse(data["card"])
            ):
                raise MoveError(f"bad move {data!r}: that card is not there")
        return move

    def play_json(self, moves: Iterable[dict[str, Any]]) -> None:
        """Apply JSON moves that are legal in the engine (raises MoveError on the first that is not)."""
        for k, m in enumerate(moves):
            move = self.move_from_json(m)
            if not self.is_legal(move):
                raise MoveError(f"move {k}: {m} is not legal here")
            self.apply(move)

    def is_legal(self, move: Move) -> bool:
        """Full legality, including the moves ``legal_moves`` leaves out by symmetry."""
        legal = self.legal_moves()
        if move in legal:
            return True
        src, si, dst, di, cnt = move
        if dst == TABLEAU and 0 <= di < len(self.piles) and not self.piles[di]:
            first = next(i for i, p in enumerate(self.piles) if not p)
            if (src, si, dst, first, cnt) in legal:
                return True
            # A whole pile onto an empty pile: legal when the group may move and the space takes it.
            if src == TABLEAU and 0 <= si < len(self.piles) and si != di and cnt == len(self.piles[si]):
                return self._whole_pile_movable(si)
            return False
        if dst == CELL and 0 <= di < len(self.cells) and self.cells[di] == EMPTY:
            if src == CELL:  # cell to cell: legal, and a no-op up to cell order
                return cnt == 1 and 0 <= si < len(self.cells) and self.cells[si] != EMPTY
            first = self.cells.index(EMPTY)
            return (src, si, dst, first, cnt) in legal
        if dst == FOUNDATION and 0 <= di < len(self.found) and not self.found[di]:
            first = next(i for i, f in enumerate(self.found) if not f)
            return (src, si, dst, first, cnt) in legal
        return False

    def _whole_pile_movable(self, i: int) -> bool:
        """True when all of pile ``i`` may move as one unit onto an empty pile.

        ``_accepts_empty`` also refuses while Canfield's reserve must fill spaces.
        """
        p = self.piles[i]
        if not p or self.down[i] or not self._accepts_empty(p[0]):
            return False
        if len(p) == 1:
            return True
        if self.group == "none" or self.build == "none":
            return False
        return all(self._in_sequence(p[k], p[k - 1]) for k in range(1, len(p)))


def moves_to_json(instance: Instance, moves: Iterable[Move]) -> tuple[dict[str, Any], ...]:
    """DESIGN section 5 JSON moves, read off a fresh engine as ``moves`` are replayed from the start."""
    e = Engine(instance)
    out = []
    for m in moves:
        out.append(e.move_to_json(m))
        e.apply(m)
    return tuple(out)


def _loc(area: int, index: int, width: int) -> str:
    if area == GRID:
        return f"grid:{index // width}:{index % width}"
    if area in _INDEXED and index >= 0:
        return f"{AREA_NAMES[area]}:{index}"
    return AREA_NAMES[area]


def _parse_loc(text: str, width: int) -> tuple[int, int]:
    parts = text.split(":")
    area = AREA_NAMES.index(parts[0])
    if area == GRID:
        if len(parts) == 1:
            return REDEAL[:2]
        return area, int(parts[1]) * width + int(parts[2])
    if len(parts) == 1:
        return area, (-1 if area == TABLEAU else 0)
    return area, int(parts[1])
