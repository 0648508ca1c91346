"""Which moves are legal: card relations, move generation up to symmetry, full legality.

``legal_moves`` lists every legal move *up to symmetry*: a card or group going to an empty tableau
pile, free cell or foundation is offered for the first empty one only, and a whole pile is never moved
onto an empty pile (both leave a state equal up to the order of piles/cells). While the stock deals onto
the tableau the piles are not interchangeable (:meth:`~.state.Engine.piles_ordered`): every empty pile is
offered and the state key keeps the pile order. :meth:`LegalMoves.is_legal` also accepts the moves left
out by symmetry; the validator in :mod:`patience.validate` accepts any empty target, so it checks
strictly more than this generates.
"""

from __future__ import annotations

from .areas import CELL, EMPTY, FOUNDATION, REDEAL, RESERVE, STOCK, TABLEAU, WASTE, Move

__all__ = ["LegalMoves"]


class LegalMoves:
    """Move generation, mixed into :class:`~.state.Engine`: reads the state lists and rule attributes
    that ``Engine.__init__`` sets (``piles``, ``found``, ``cells``, ``build``, ``hole_ok``, ...)."""

    # Card relations ----------------------------------------------------------------------------
    def _down_one(self, lower: int, upper: int, wrap: bool) -> bool:
        """True when ``lower`` is one rank below ``upper`` (King below Ace when ``wrap``).

        With ``tableau.wrap: base`` ranks count from the foundations' base rank, which is the lowest:
        nothing is one below a base-rank card (King-on-Ace still wraps when the base is not the Ace).
        """
        rl, ru = self.rank[lower], self.rank[upper]
        if self.wrap_base and ru == self.base_rank:
            return False
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
        if p == "any" or (p in ("reserve-first", "reserve-then-waste") and not self.reserve):
            return True  # "reserve-then-waste": the caller lets only waste cards reach a space
        if p == "waste-then-stock":
            return True  # legal_moves fills a space from the waste or stock first; with both empty, any card
        if p == "kings":
            return self.rank[card] == self.R
        return False  # "none", and the reserve filling a space is handled by the caller

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
        if self.row_distances:
            return self._row_moves()
        moves: list[Move] = []
        piles, down = self.piles, self.down
        # Canfield-style spaces: while the reserve has cards an empty pile must take its top first.
        reserve_fills = self.empty_policy in ("reserve-first", "reserve-then-waste")
        if reserve_fills and self.reserve:
            for i, p in enumerate(piles):
                if not p:
                    return [(RESERVE, len(self.reserve) - 1, TABLEAU, i, 1)]
        # Fortune's Favor's spaces: a space takes the waste's top at once, or the stock's when the waste is
        # empty; only when both are empty may other cards go there (_accepts_empty).
        if self.empty_policy == "waste-then-stock" and (self.waste or self.stock):
            forced = [i for i, p in enumerate(piles) if not p]
            if forced:
                if not self.piles_ordered():
                    del forced[1:]
                src = (WASTE, 0) if self.waste else (STOCK, 0)
                return [(*src, TABLEAU, i, 1) for i in forced]
        # Empty piles a card may go to: the first only, as the others give the same state up to pile order;
        # every one while the stock still deals onto the tableau (a deal tells the piles apart by index).
        ordered = self.piles_ordered()
        spaces = [i for i, p in enumerate(piles) if not p]
        # "reserve-then-waste" with a space open (the reserve is empty by now): only waste cards go to
        # the tableau, onto the space or built on a pile; no tableau, cell or foundation card does.
        waste_only = bool(spaces) and self.empty_policy == "reserve-then-waste"
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
        # Only whole piles move between tableau piles (Solvitaire's whole-pile): a top card alone only
        # when it is the whole pile.
        whole_only = self.group == "whole-pile"
        for area, si, card in sources:
            # To a foundation.
            if fkind != "runs":
                for fi in self._foundation_targets(card):
                    moves.append((area, si, FOUNDATION, fi, 1))
            to_tableau = not (whole_only and area == TABLEAU and len(piles[si]) > 1) and (
                not waste_only or area == WASTE
            )
            # To another tableau pile.
            if building and to_tableau:
                for t in self.build_targets(card):
                    for j in tops.get(t, ()):
                        if area != TABLEAU or j != si:
                            moves.append((area, si, TABLEAU, j, 1))
            if (
                spaces
                and to_tableau
                and self._accepts_empty(card)
                and (ordered or area != TABLEAU or len(piles[si]) > 1)
            ):
                moves.extend((area, si, TABLEAU, j, 1) for j in spaces)
            # To a free cell.
            if free_cell >= 0 and area != CELL:
                moves.append((area, si, CELL, free_cell, 1))

        # Groups of two or more cards between tableau piles.
        if self.group != "none" and building and not waste_only:
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
        if self.removable and fkind == "suits" and not waste_only:
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

    def _row_moves(self) -> list[Move]:
        """Accordion: a whole pile onto the pile ``d`` places to its left among the piles left in the row
        (``d`` in ``row.distances``), when the two top cards match by one of ``row.match``."""
        piles, rank, suit, colour = self.piles, self.rank, self.suit, self.colour
        match = self.row_match
        left = [i for i, p in enumerate(piles) if p]  # the row as it stands, closed up
        moves: list[Move] = []
        for k, i in enumerate(left):
            c = piles[i][-1]
            for d in self.row_distances:
                if d > k:
                    continue
                j = left[k - d]
                t = piles[j][-1]
                if (
                    "any" in match
                    or ("same-suit" in match and suit[c] == suit[t])
                    or ("same-rank" in match and rank[c] == rank[t])
                    or ("alternate-colour" in match and colour[c] != colour[t])
                ):
                    moves.append((TABLEAU, i, TABLEAU, j, len(piles[i])))
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

        ``_accepts_empty`` also refuses while Canfield's reserve must fill spaces, under
        ``reserve-then-waste`` only a waste card may go to a space, and under ``waste-then-stock`` only the
        waste's or the stock's top while either has cards.
        """
        p = self.piles[i]
        if (
            not p
            or self.down[i]
            or not self._accepts_empty(p[0])
            or self.empty_policy == "reserve-then-waste"
            or (self.empty_policy == "waste-then-stock" and (self.waste or self.stock))
        ):
            return False
        if len(p) == 1:
            return True
        if self.group == "none" or self.build == "none":
            return False
        return all(self._in_sequence(p[k], p[k - 1]) for k in range(1, len(p)))
