"""Independent replay validator: checks a solution move by move against the rule-set itself.

It deliberately shares no move-generation code with :mod:`patience.engine`: it keeps its own plain
state of :class:`~patience.cards.Card` objects and asks, for each move, whether the rule-set allows
exactly that move. A bug in the engine therefore cannot validate its own output. The first illegal move
is reported with its index and the rule it breaks (e.g. ``tableau.build=alternate-colour``).

Solution files are ``{"format": "patience-solution/1", "instance": <sha256>, "moves": [...]}``.
"""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .cards import Card, CardError, Deck
from .instance import Instance, read_json
from .rng import gaps_redeal_shuffle
from .text import quoted

__all__ = ["SOLUTION_FORMAT", "Report", "SolutionError", "load_solution", "replay", "solution_json"]

SOLUTION_FORMAT = "patience-solution/1"
_SOLUTION_KEYS = ("format", "instance", "moves")


class SolutionError(ValueError):
    """A solution file that is malformed or belongs to another instance."""


class Illegal(Exception):
    """Raised inside the replay for a move the rules forbid; carries the rule's name."""

    def __init__(self, rule: str, why: str) -> None:
        super().__init__(f"breaks {rule}: {why}")
        self.rule = rule


@dataclass(frozen=True)
class Report:
    """Outcome of a replay: ``ok`` when every move was legal; ``won`` when the deal ends solved."""

    ok: bool
    won: bool
    moves: int
    index: int | None = None
    error: str | None = None
    rule: str | None = None
    foundation_cards: int = 0

    def message(self) -> str:
        """One line for people; it counts moves from 1, as every printout does (``index`` counts from 0)."""
        if not self.ok:
            return f"move {(self.index or 0) + 1}: {self.error}"
        moves = f"{self.moves} move{'' if self.moves == 1 else 's'}"
        if self.won:
            return f"valid: {moves} win{'s' if self.moves == 1 else ''} the deal"
        home = f"{self.foundation_cards} card{'' if self.foundation_cards == 1 else 's'}"
        return f"valid but not won: {moves} leave{'s' if self.moves == 1 else ''} {home} home"


def solution_json(instance: Instance, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """A solution object bound to ``instance`` by its sha256."""
    return {"format": SOLUTION_FORMAT, "instance": instance.sha256, "moves": list(moves)}


def load_solution(path: str | Path, instance: Instance) -> list[dict[str, Any]]:
    """Read a solution file and check that it belongs to ``instance``."""
    data = read_json(path, SolutionError)
    if not isinstance(data, dict) or data.get("format") != SOLUTION_FORMAT:
        raise SolutionError(f"{path}: format: expected {SOLUTION_FORMAT!r}")
    unknown = sorted(set(data) - set(_SOLUTION_KEYS))
    if unknown:
        raise SolutionError(f"{path}: {unknown[0]}: unknown key (a solution has {', '.join(_SOLUTION_KEYS)})")
    if data.get("instance") != instance.sha256:
        raise SolutionError(
            f"{path}: instance: solution is for deal {str(data.get('instance'))[:12]}..., "
            f"not this one ({instance.sha256[:12]}...)"
        )
    moves = data.get("moves")
    if not isinstance(moves, list):
        raise SolutionError(f"{path}: moves: expected a list")
    return moves


class _Board:
    """Plain replay state; every method that changes it first checks the rule it relies on."""

    def __init__(self, inst: Instance) -> None:
        self.rules = inst.rules
        self.inst = inst
        d = inst.rules.deck
        self.deck = Deck(d.suits, d.ranks, d.decks)
        lay = inst.layout
        self.piles = [list(p) for p in lay.tableau]
        top_only = inst.rules.tableau.face_up == "top"
        self.hidden = [max(len(p) - 1, 0) if top_only else 0 for p in lay.tableau]
        self.found = [list(p) for p in lay.foundations]
        self.cells: list[Card | None] = list(lay.cells)
        self.reserve = list(lay.reserve)
        self.stock = list(lay.stock)
        self.waste = list(lay.waste)
        self.grid = [list(r) for r in lay.grid]
        self.redeals = 0
        f = inst.rules.foundations
        self.base = 1
        if f.kind == "suits" and f.base == "dealt":
            firsts = [p[0] for p in self.found if p]
            self.base = firsts[0].rank if firsts else 1

    # Rank arithmetic ---------------------------------------------------------------------------
    def _succ(self, rank: int, wrap: bool) -> int | None:
        if rank < self.deck.ranks:
            return rank + 1
        return 1 if wrap else None

    def _tableau_below(self, lower: int, upper: int) -> bool:
        """Is rank ``lower`` one below rank ``upper`` for building on the tableau (``tableau.wrap``)?

        ``wrap: base`` ranks cards from the foundations' base as Solvitaire does (base = 1, base-1 = top
        rank) and compares those ranks without wrapping.
        """
        wrap = self.rules.tableau.wrap
        if wrap == "base":
            R = self.deck.ranks
            return (lower - self.base) % R + 2 == (upper - self.base) % R + 1
        return self._succ(lower, bool(wrap)) == upper

    def _t(self, c: Card) -> str:
        return self.deck.text(c)

    # Checks ------------------------------------------------------------------------------------
    def check_build(self, card: Card, onto: Card) -> None:
        t = self.rules.tableau
        if t.build == "none":
            raise Illegal("tableau.build=none", "no card may be built on the tableau")
        down = self._tableau_below(card.rank, onto.rank)
        up = t.direction == "up-down" and self._tableau_below(onto.rank, card.rank)
        if not (down or up):
            wrapped = self._succ(card.rank, True) == onto.rank or (
                t.direction == "up-down" and self._succ(onto.rank, True) == card.rank
            )
            if t.wrap == "base" and wrapped:  # one apart, but across the base rank
                raise Illegal(
                    "tableau.wrap=base",
                    f"{self._t(card)} on {self._t(onto)}: nothing crosses the base rank {self.base}",
                )
            raise Illegal(
                f"tableau.direction={t.direction}",
                f"{self._t(card)} is not one rank {'below' if not up else 'from'} {self._t(onto)}",
            )
        if t.build == "same-suit" and card.suit != onto.suit:
            raise Illegal("tableau.build=same-suit", f"{self._t(card)} on {self._t(onto)}")
        if t.build == "alternate-colour" and card.colour == onto.colour:
            raise Illegal("tableau.build=alternate-colour", f"{self._t(card)} on {self._t(onto)}")

    def check_group(self, cards: list[Card]) -> None:
        t = self.rules.tableau
        if len(cards) == 1:
            return
        if t.group_moves == "none":
            raise Illegal("tableau.group_moves=none", f"{len(cards)} cards cannot move together")
        for lower, upper in zip(cards[1:], cards[:-1], strict=True):
            if t.group_moves == "same-suit":
                if lower.suit != upper.suit or not self._tableau_below(lower.rank, upper.rank):
                    raise Illegal(
                        "tableau.group_moves=same-suit",
                        f"{self._t(lower)} on {self._t(upper)} is not a same-suit run",
                    )
            else:
                try:
                    self.check_build(lower, upper)
                except Illegal as err:
                    raise Illegal(f"tableau.group_moves={t.group_moves}", str(err)) from None

    def check_foundation(self, index: int, cards: list[Card], src: str) -> None:
        f = self.rules.foundations
        pile = self.found[index]
        if f.kind == "runs":
            R = self.deck.ranks
            ok = (
                src.startswith("tableau")
                and len(cards) == R
                and not pile
                and all(c.suit == cards[0].suit for c in cards)
                and [c.rank for c in cards] == list(range(R, 0, -1))
            )
            if not ok:
                raise Illegal("foundations.kind=runs", "only a complete same-suit run King..Ace goes home")
            return
        if len(cards) != 1:
            raise Illegal("foundations", "cards go home one at a time")
        card = cards[0]
        if f.kind == "hole":
            if not pile:
                return
            top = pile[-1]
            if f.king_blocks and top.rank == self.deck.ranks:
                raise Illegal("foundations.king_blocks", "nothing may be played on a King")
            if not (self._succ(card.rank, f.wrap) == top.rank or self._succ(top.rank, f.wrap) == card.rank):
                raise Illegal(
                    f"foundations.kind=hole (wrap={str(f.wrap).lower()})",
                    f"{self._t(card)} is not one rank above or below {self._t(top)}",
                )
            return
        if not pile:
            if card.rank != self.base:
                raise Illegal("foundations.base", f"an empty foundation takes rank {self.base} only")
            return
        top = pile[-1]
        if top.suit != card.suit or self._succ(top.rank, f.wrap) != card.rank:
            raise Illegal("foundations.kind=suits", f"{self._t(card)} does not follow {self._t(top)} in suit")

    def check_empty_pile(self, bottom: Card, src: str) -> None:
        p = self.rules.tableau.empty
        if p == "none":
            raise Illegal("tableau.empty=none", "a space may not be filled")
        if p == "kings" and bottom.rank != self.deck.ranks:
            raise Illegal("tableau.empty=kings", f"{self._t(bottom)} is not a King")

    # Moves -------------------------------------------------------------------------------------
    def play(self, m: dict[str, Any]) -> None:
        if not isinstance(m, dict):
            raise Illegal("move format", "a move is a JSON object")
        unknown = set(m) - {"card", "from", "to", "count", "redeal", "grid"}
        if unknown:
            raise Illegal("move format", f"unknown key {sorted(unknown)[0]!r}")
        src, dst = m.get("from"), m.get("to")
        cnt = m.get("count", 1)
        if not isinstance(src, str) or not isinstance(dst, str):
            raise Illegal("move format", "'from' and 'to' must be strings like 'tableau:3'")
        if not isinstance(cnt, int) or isinstance(cnt, bool) or cnt < 1:
            raise Illegal("move format", "'count' must be a positive integer")
        sa, si = _split(src)
        da, di = _split(dst)
        if self.rules.row.distances:
            self._row_move(m, sa, si, da, di, cnt)
            return
        self._reserve_first(sa, si, da, di)
        self._waste_then_stock(sa, da, di)
        if sa == "stock" or (sa == "waste" and da == "stock"):
            self._stock_move(sa, da, di, cnt)
            return
        if sa == "grid" and not si:
            self._gaps_redeal(m, da, di)
            return
        if sa == "grid":
            self._gaps_move(m, si, da, di)
            return
        cards = self._take(sa, si, cnt, da)
        if "card" in m and self._named(m) != cards[0]:
            raise Illegal("move card", f"{m['card']} is not the card at {src}")
        self._put(da, di, cards, src)
        self._finish_take(sa, si, cnt)

    def _named(self, m: dict[str, Any]) -> Card:
        """The card a move names in its ``card`` key; a malformed one is an Illegal move format."""
        try:
            return self.deck.parse(m["card"])
        except (CardError, TypeError, AttributeError):
            raise Illegal("move format", f"bad card {quoted(str(m['card']))}") from None

    def _reserve_first(self, sa: str, si: list[int], da: str, di: list[int]) -> None:
        """Canfield's spaces: while a pile is empty and the reserve has cards, the only legal move fills
        the space from the reserve; under ``reserve-then-waste``, once the reserve is empty, only a waste
        card (or a stock deal) goes to the tableau while a space is open."""
        policy = self.rules.tableau.empty
        if policy not in ("reserve-first", "reserve-then-waste") or all(self.piles):
            return
        if self.reserve:
            ok = sa == "reserve" and da == "tableau" and di and not self.piles[di[0]]
            if not ok:
                raise Illegal(
                    f"tableau.empty={policy}",
                    "an empty pile must first be filled from the reserve",
                )
        elif policy == "reserve-then-waste" and da == "tableau" and sa not in ("waste", "stock"):
            raise Illegal(
                "tableau.empty=reserve-then-waste",
                f"while a pile is empty only a waste card goes to the tableau, not one from {sa}",
            )

    def _waste_then_stock(self, sa: str, da: str, di: list[int]) -> None:
        """Fortune's Favor's spaces (``tableau.empty=waste-then-stock``): while a pile is empty and the waste
        or the stock has cards, the only legal move fills a space with the waste's top card, or with the
        stock's top card when the waste is empty."""
        if self.rules.tableau.empty != "waste-then-stock" or all(self.piles):
            return
        if not (self.waste or self.stock):
            return
        want = "waste" if self.waste else "stock"
        if not (sa == want and da == "tableau" and len(di) == 1 and 0 <= di[0] < len(self.piles)
                and not self.piles[di[0]]):
            raise Illegal(
                "tableau.empty=waste-then-stock",
                f"an empty pile must first be filled from the {want}",
            )

    def _row_move(self, m: dict[str, Any], sa: str, si: list[int], da: str, di: list[int], cnt: int) -> None:
        """Accordion (``row``): a whole pile onto the pile ``d`` places to its left, counting only the
        piles still in the row, ``d`` in ``row.distances``, when the top cards match by one of
        ``row.match``; no other move exists."""
        row = self.rules.row
        if sa != "tableau" or da != "tableau" or len(si) != 1 or len(di) != 1:
            raise Illegal("row", "the only moves take a pile onto another pile of the row")
        i, j = si[0], di[0]
        if not (0 <= i < len(self.piles) and self.piles[i]):
            raise Illegal("move source", f"tableau:{i} is not a pile of the row")
        if not (0 <= j < len(self.piles) and self.piles[j]):
            raise Illegal("move target", f"tableau:{j} is not a pile of the row")
        p, q = self.piles[i], self.piles[j]
        if cnt != len(p):
            raise Illegal("row", f"the whole pile moves: {len(p)} cards, not {cnt}")
        if "card" in m and self._named(m) != p[0]:
            raise Illegal("move card", f"{m['card']} is not the bottom card of tableau:{i}")
        places = sum(1 for k in range(j, i) if self.piles[k])  # piles from j up to i, j included
        if j >= i or places not in row.distances:
            dist = f"{places} places to the left" if j < i else "to the right"
            allowed = "/".join(map(str, row.distances))
            raise Illegal(f"row.distances={allowed}", f"tableau:{j} is {dist} of tableau:{i}")
        a, b = p[-1], q[-1]
        ok = {
            "same-suit": a.suit == b.suit,
            "same-rank": a.rank == b.rank,
            "alternate-colour": a.colour != b.colour,
            "any": True,
        }
        if not any(ok[rule] for rule in row.match):
            raise Illegal(f"row.match={'/'.join(row.match)}", f"{self._t(a)} does not match {self._t(b)}")
        q.extend(p)
        p.clear()

    def _stock_move(self, sa: str, da: str, di: list[int], cnt: int) -> None:
        s = self.rules.stock
        if sa == "waste":
            if s.deal_to != "waste" or self.stock or not self.waste:
                raise Illegal("stock.redeals", "the waste turns over only onto an empty stock")
            if s.redeals >= 0 and self.redeals >= s.redeals:
                raise Illegal(f"stock.redeals={s.redeals}", "no redeals left")
            if cnt != len(self.waste):
                raise Illegal("move count", f"a redeal moves all {len(self.waste)} waste cards")
            self.stock = self.waste[::-1]
            self.waste = []
            self.redeals += 1
            return
        if not self.stock:
            raise Illegal("stock", "the stock is empty")
        if da == "waste" and s.deal_to == "waste":
            want = min(s.deal_count, len(self.stock))
            if cnt != want:
                raise Illegal(f"stock.deal_count={s.deal_count}", f"a deal turns {want} cards")
            for _ in range(cnt):
                self.waste.append(self.stock.pop())
        elif da == "tableau" and di and self.rules.tableau.empty == "waste-then-stock":
            j = _one(di, da)
            # _waste_then_stock allowed it only into a space with the waste empty; say so here too.
            if cnt != 1 or not 0 <= j < len(self.piles) or self.piles[j] or self.waste:
                raise Illegal(
                    "tableau.empty=waste-then-stock",
                    "the stock's top card goes only into a space, one card, when the waste is empty",
                )
            self.piles[j].append(self.stock.pop())
        elif da == "tableau" and s.deal_to == "tableau" and not di:
            want = min(len(self.piles), len(self.stock))
            if cnt != want:
                raise Illegal("stock.deal_to=tableau", f"a deal gives {want} cards, one per pile")
            for j in range(cnt):
                self.piles[j].append(self.stock.pop())
        elif da == "foundation" and s.deal_to == "hole":
            if cnt != 1 or not di or not 0 <= di[0] < len(self.found):
                raise Illegal("stock.deal_to=hole", "one stock card goes onto a hole")
            self.found[di[0]].append(self.stock.pop())
        else:
            raise Illegal(f"stock.deal_to={s.deal_to}", f"the stock does not deal to {da}")

    def _take(self, area: str, idx: list[int], cnt: int, dst: str) -> list[Card]:
        i = _one(idx, area)
        if area == "tableau":
            if not 0 <= i < len(self.piles):
                raise Illegal("move source", f"there is no tableau pile {i}")
            p = self.piles[i]
            if cnt > len(p):
                raise Illegal("move source", f"tableau:{i} has only {len(p)} cards")
            if len(p) - cnt < self.hidden[i]:
                raise Illegal("tableau.face_up=top", "face-down cards cannot move")
            cards = p[-cnt:]
            t = self.rules.tableau
            if t.group_moves == "whole-pile" and dst == "tableau" and cnt != len(p):
                raise Illegal(
                    "tableau.group_moves=whole-pile",
                    f"only a whole pile moves to another pile, {cnt} of the {len(p)} cards of tableau:{i}",
                )
            if dst != "foundation":  # a run going home is checked by check_foundation
                self.check_group(cards)
            return cards
        if cnt != 1:
            raise Illegal("move count", f"only one card moves from {area}")
        if area == "cell":
            if not 0 <= i < len(self.cells) or self.cells[i] is None:
                raise Illegal("move source", f"cell:{i} is empty")
            return [self.cells[i]]  # type: ignore[list-item]
        if area == "reserve":
            if not 0 <= i < len(self.reserve):
                raise Illegal("move source", f"reserve:{i} does not exist")
            if self.rules.reserve.stacked and i != len(self.reserve) - 1:
                raise Illegal("reserve.stacked", "only the top reserve card is available")
            return [self.reserve[i]]
        if area == "waste":
            if not self.waste:
                raise Illegal("move source", "the waste is empty")
            return [self.waste[-1]]
        if area == "foundation":
            if not 0 <= i < len(self.found) or not self.found[i]:
                raise Illegal("move source", f"foundation:{i} is empty")
            if not self.rules.foundations.removable:
                raise Illegal("foundations.removable=false", "cards never leave the foundations")
            return [self.found[i][-1]]
        raise Illegal("move source", f"cannot move cards from {area}")

    def _finish_take(self, area: str, idx: list[int], cnt: int) -> None:
        i = idx[0] if idx else 0
        if area == "tableau":
            p = self.piles[i]
            del p[-cnt:]
            if p and len(p) == self.hidden[i]:
                self.hidden[i] -= 1
        elif area == "cell":
            self.cells[i] = None
        elif area == "reserve":
            del self.reserve[i]
        elif area == "waste":
            self.waste.pop()
        elif area == "foundation":
            self.found[i].pop()

    def _put(self, area: str, idx: list[int], cards: list[Card], src: str) -> None:
        j = _one(idx, area)
        if area == "foundation":
            if not 0 <= j < len(self.found):
                raise Illegal("move target", f"there is no foundation {j}")
            if src.startswith("foundation"):
                raise Illegal("move target", "foundation to foundation")
            self.check_foundation(j, cards, src)
            self.found[j].extend(cards)
        elif area == "tableau":
            if not 0 <= j < len(self.piles):
                raise Illegal("move target", f"there is no tableau pile {j}")
            if src == f"tableau:{j}":
                raise Illegal("move target", "a pile onto itself")
            q = self.piles[j]
            if q:
                self.check_build(cards[0], q[-1])
            else:
                self.check_empty_pile(cards[0], src)
            q.extend(cards)
        elif area == "cell":
            if not 0 <= j < len(self.cells):
                raise Illegal("cells.count", f"there is no cell {j}")
            if self.cells[j] is not None:
                raise Illegal("cells", f"cell:{j} is occupied")
            if len(cards) != 1:
                raise Illegal("cells", "a free cell holds one card")
            if src.startswith("foundation"):
                raise Illegal("foundations.removable", "foundation cards return to the tableau only")
            self.cells[j] = cards[0]
        else:
            raise Illegal("move target", f"cards cannot be moved to {area}")

    def _gaps_move(self, m: dict[str, Any], si: list[int], da: str, di: list[int]) -> None:
        if not self.grid:
            raise Illegal("gaps", "this game has no grid")
        if da != "grid" or len(si) != 2 or len(di) != 2:
            raise Illegal("move format", "a Gaps move goes from grid:r:c to grid:r:c")
        (r0, c0), (r1, c1) = si, di
        rows, width = len(self.grid), len(self.grid[0])
        if not (0 <= r0 < rows and 0 <= r1 < rows and 0 <= c0 < width and 0 <= c1 < width):
            raise Illegal("move format", "grid position out of range")
        card = self.grid[r0][c0]
        if card is None:
            raise Illegal("gaps", f"grid:{r0}:{c0} is a gap")
        if self.grid[r1][c1] is not None:
            raise Illegal("gaps", f"grid:{r1}:{c1} is not a gap")
        if "card" in m and self._named(m) != card:
            raise Illegal("move card", f"{m['card']} is not at grid:{r0}:{c0}")
        refusal = self._gap_refuses(r1, c1, card)
        if refusal is not None:
            raise refusal
        self.grid[r1][c1] = card
        self.grid[r0][c0] = None

    def _gap_refuses(self, r: int, c: int, card: Card) -> Illegal | None:
        """Why the gap at grid:r:c may not take ``card`` (None when it may): the one Gaps placing rule."""
        if c == 0:
            if card.rank != 2:
                return Illegal("gaps.first_column", "a gap in the first column takes a 2")
            if self.rules.gaps.first_column == "fixed-suit" and card.suit != r % self.deck.suits:
                return Illegal("gaps.first_column=fixed-suit", f"row {r} takes the 2 of suit {r}")
            return None
        left = self.grid[r][c - 1]
        if left is None:
            return Illegal("gaps", "a gap right of a gap is dead")
        if left.rank == self.deck.ranks:
            return Illegal("gaps", "a gap right of a King is dead")
        if card.suit != left.suit or card.rank != left.rank + 1:
            return Illegal("gaps", f"the gap takes the successor of {self._t(left)} only")
        return None

    def _gaps_fillable(self) -> bool:
        """Can some card on the grid go into some gap? (a redeal is allowed only when none can)"""
        cards = [c for row in self.grid for c in row if c is not None]
        gaps = [(r, c) for r, row in enumerate(self.grid) for c, x in enumerate(row) if x is None]
        return any(self._gap_refuses(r, c, card) is None for r, c in gaps for card in cards)

    def _gaps_redeal(self, m: dict[str, Any], da: str, di: list[int]) -> None:
        if not self.grid:
            raise Illegal("gaps", "this game has no grid")
        if da != "grid" or di:
            raise Illegal("move format", "a Gaps redeal goes from 'grid' to 'grid'")
        allowed = self.rules.gaps.redeals
        if self.redeals >= allowed:
            raise Illegal("gaps.redeals", f"{allowed} redeal(s) allowed, all used")
        if self._gaps_fillable():
            raise Illegal("gaps.redeals", "a redeal is allowed only when no gap can be filled")
        # Each row keeps its run 2, 3, ... of one suit from the left; every other card is gathered.
        kept = [_gaps_run(row) for row in self.grid]
        loose = sorted(
            (c for row, n in zip(self.grid, kept, strict=True) for c in row[n:] if c is not None),
            key=lambda c: (c.suit, c.rank),  # deck code order
        )
        if not loose:
            raise Illegal("gaps.redeals", "every card is in sequence; there is nothing to redeal")
        if "count" in m and m["count"] != len(loose):
            raise Illegal("move count", f"the redeal gathers {len(loose)} cards, not {m['count']}")
        self.redeals += 1
        if "redeal" in m and m["redeal"] != self.redeals:
            raise Illegal("gaps.redeals", f"this is redeal {self.redeals}, not {m['redeal']}")
        order = iter(gaps_redeal_shuffle(self.inst.sha256, self.redeals, loose))
        self.grid = [
            row[:n] + [None] + [next(order) for _ in row[n + 1 :]]
            for row, n in zip(self.grid, kept, strict=True)
        ]
        if "grid" in m:
            recorded = m["grid"]
            actual = [[None if c is None else self._t(c) for c in row] for row in self.grid]
            try:
                same = [[None if c is None else self._t(self.deck.parse(c)) for c in row] for row in recorded]
            except (CardError, TypeError, AttributeError):
                raise Illegal("move format", "bad 'grid' in a redeal") from None
            if same != actual:
                raise Illegal("gaps.redeals", f"the recorded grid is not the deal's redeal {self.redeals}")

    # Result ------------------------------------------------------------------------------------
    def home(self) -> int:
        return sum(len(f) for f in self.found)

    def won(self) -> bool:
        if self.grid:
            for row in self.grid:
                if row[-1] is not None or row[0] is None:
                    return False
                suit = row[0].suit
                if [(c.rank, c.suit) if c else None for c in row[:-1]] != [
                    (r, suit) for r in range(2, len(row) + 1)
                ]:
                    return False
            return True
        if self.rules.row.distances:  # Accordion: one pile left
            return sum(1 for p in self.piles if p) == 1
        return self.home() == self.deck.size


def _gaps_run(row: list[Card | None]) -> int:
    """How many cards at the left of a Gaps row run 2, 3, ... in one suit."""
    n = 0
    while n < len(row) - 1:
        c = row[n]
        if c is None or c.rank != n + 2 or c.suit != row[0].suit:  # type: ignore[union-attr]
            break
        n += 1
    return n


def _split(loc: str) -> tuple[str, list[int]]:
    parts = loc.split(":")
    try:
        return parts[0], [int(x) for x in parts[1:]]
    except ValueError:
        raise Illegal("move format", f"bad location {loc!r}") from None


def _one(idx: list[int], area: str) -> int:
    if area in ("waste", "stock"):
        return 0
    if len(idx) != 1:
        raise Illegal("move format", f"{area} needs one index, like {area}:0")
    return idx[0]


def replay(instance: Instance, moves: list[dict[str, Any]]) -> Report:
    """Replay JSON moves on ``instance``; report the first illegal one, or whether the deal is won.

    >>> from patience.deals import deal
    >>> tiny = deal("black-hole", 1, overrides={"suits": 2, "ranks": 5, "piles": 3})
    >>> move = {"card": "5C", "from": "tableau:2", "to": "foundation:0", "count": 1}
    >>> replay(tiny, [move]).message()
    'valid but not won: 1 move leaves 2 cards home'
    >>> replay(tiny, [move, move]).message()  # the second move; Report.index is 1
    'move 2: breaks move card: 5C is not the card at tableau:2'
    """
    board = _Board(instance)
    for k, m in enumerate(moves):
        try:
            board.play(m)
        except Illegal as err:
            return Report(False, False, k, k, str(err), err.rule, board.home())
    return Report(True, board.won(), len(moves), foundation_cards=board.home())


class _CallableModule(types.ModuleType):
    """This module, callable: ``patience.validate(instance, moves)`` is :func:`patience.api.validate`, the
    package's API function, which shares the module's name (a function would be replaced by the module
    the first time anything imports it)."""

    def __call__(self, instance: Instance, moves: Any) -> Report:
        from .api import validate

        return validate(instance, moves)


sys.modules[__name__].__class__ = _CallableModule
