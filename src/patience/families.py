"""Seeded instance families for hardness studies: random, planted-win and sorted deals, plus swaps.

The random deal of a game says little about *where* instances become hard. These families give a
knob instead: a ``planted`` deal is won by construction, a ``sorted`` deal is as ordered as a deal can
be, and ``swaps=K`` random transpositions of tableau cards move either of them towards a random deal.

Families (``FAMILIES``):

``random`` -- exactly the ``portable`` deal (:data:`patience.generators.PORTABLE`).

``planted`` -- a randomized depth-first search draws a legal order in which every tableau card goes to
the holes: each step picks a random hole and a random remaining card whose rank fits that hole's top
(one rank up or down, K-A when ``foundations.wrap``, nothing on a King when ``foundations.king_blocks``;
an empty hole takes anything). Euler's condition on the rank steps left prunes it (exactly for one hole:
no backtracking; several holes backtrack rarely), dead states are remembered, and a node budget with
restarts bounds it; rank multisets no order can clear raise DealError at once. The order is dealt into
piles of the game's sizes: sequence positions go to random piles and, within a pile, the card removed
first is on top. Every such deal is won, and :func:`planted_deal` returns the winning moves.

``sorted`` -- the deck in rank order (aces, then twos, ...; suits in a seeded order within a rank),
dealt pile by pile, so each pile holds equal or neighbouring ranks. Meant as the adversarial end, it
turns out easy in the hole games: the piles form a staircase the hole climbs (Black Hole, All in a Row,
Worm Hole and Binary Star deals 1-5 are all won), so it is the ordered end of the knob, not a lost one.

``planted`` and ``sorted`` need a Black Hole-like game, told by rule features, never by name: hole
foundations, no building, no stock, no reserve, no cards dealt to cells (an empty free cell, as in
Worm Hole, is fine and simply unused). Several holes (Binary Star) and generalized decks work.

Randomness is portable: Mersenne Twister streams (:func:`patience.rng.stream`) seeded from
sha256("<seed>:<purpose>"), drawn with :func:`patience.rng.draw_below` (the portable shuffle's bucket
draw), so a (game, overrides, seed, family, swaps) always gives the same deal.

Each family is a :class:`~patience.generators.Generator` (:data:`FAMILY_GENERATORS`), so
:func:`patience.deals.deal` deals it like any other generator (``-g planted:8``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import partial
from itertools import combinations_with_replacement
from math import comb
from typing import Any

from .cards import Card, Deck
from .engine import FOUNDATION, TABLEAU, moves_to_json
from .generators import PORTABLE, U32, DealError, Generator, load
from .holes import HoleRanks, hole_game_problem, walk_steps
from .instance import Instance, InstanceError, Layout, hole_start_cards
from .rng import draw_below, shuffle_in_place, stream
from .rules import Game, RuleSet

__all__ = ["FAMILIES", "FAMILY_GENERATORS", "family_deal", "family_problem", "parse_family", "planted_deal"]

FAMILIES: dict[str, str] = {
    "random": "the portable random deal (same as `patience deal -g portable`)",
    "planted": "a deal with a planted win: a random legal removal order of every card, dealt back",
    "sorted": "the deck in rank order dealt pile by pile: each pile holds equal or neighbouring ranks",
}

_DEGREE_CASES = 5_000  # most placements of walk ends and starts the Euler pruning tries at one node
_FIRST_BUDGET = 5_000  # nodes of the first planted search; each restart doubles it
_TOTAL_BUDGET = 2_000_000  # nodes over all restarts before giving up


_Key = tuple[tuple[int, ...], tuple[int, ...]]  # a planted search state: sorted hole tops, rank counts


class _OutOfBudget(Exception):
    """The current planted search spent its node budget."""


# Random numbers ---------------------------------------------------------------------------------
def _weighted_order(rng: random.Random, items: list[int], weights: list[int]) -> list[int]:
    """``items`` in a random order where each next item is drawn with probability ~ its weight."""
    items, weights = list(items), list(weights)
    out: list[int] = []
    while items:
        u = draw_below(rng, sum(weights))
        k = 0
        while u >= weights[k]:
            u -= weights[k]
            k += 1
        out.append(items.pop(k))
        weights.pop(k)
    return out


# Checks -----------------------------------------------------------------------------------------
def _check_args(seed: Any, family: str, swaps: Any) -> None:
    """Seeds are 32-bit (the random family leaves that to the portable deal), families known, swaps >= 0."""
    if family not in FAMILIES:
        raise DealError(f"unknown family {family!r} (one of {', '.join(FAMILIES)})")
    if family != "random" and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < U32):
        raise DealError(f"seed {seed!r} out of range for the {family} family (0..{U32 - 1})")
    if not isinstance(swaps, int) or isinstance(swaps, bool) or swaps < 0:
        raise DealError(f"swaps {swaps!r}: must be an integer >= 0")


def family_problem(family: str, g: Game) -> str | None:
    """Why ``family`` cannot deal ``g`` (the DealError), or None: ``random`` deals every game, the others
    only Black Hole-like ones."""
    if family == "random":
        return None
    why = hole_game_problem(g.rules, free_cells=None)  # an empty free cell stays unused
    if why:
        return (
            f"the {family} family needs a Black Hole-like game (every card goes from the tableau to a "
            f"hole); {g.name} does not fit: {why}"
        )
    return None


def _need_hole_game(g: Game, family: str) -> None:
    why = family_problem(family, g)
    if why:
        raise DealError(why)


def _build(g: Game, layout: Layout, source: dict[str, Any]) -> Instance:
    """Validate through ``Instance.build`` (every card exactly once); a misfit is a DealError. The
    instance records the game's canonical overrides (:attr:`patience.rules.Game.overrides`)."""
    try:
        return Instance.build(g, layout, g.overrides, source)
    except InstanceError as err:
        raise DealError(f"the {source['family']} deal does not fit the rules of {g.name}: {err}") from None


def _source(family: str, seed: int, swaps: int) -> dict[str, Any]:
    """The instance's ``source``: ``generator`` is the spec that deals it again (``-g planted:8``)."""
    spec = f"{family}:{swaps}" if swaps else family
    return {"generator": spec, "family": family, "seed": seed, "swaps": swaps}


# Planted wins -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class _RankWalk(HoleRanks):
    """The rank rules of the planted search (:class:`~patience.holes.HoleRanks`: ``fits``, ``succ``), whose
    state is the hole tops and the rank counts left."""

    # start_dealt: a hole's dealt start is the first card played there, so none ends empty
    must_fill: bool = False

    @classmethod
    def of(cls, rules: RuleSet) -> _RankWalk:
        f = rules.foundations
        return cls(rules.deck.ranks, f.wrap, f.king_blocks, f.start_dealt)

    def components(self, counts: list[int]) -> list[list[int]]:
        """Runs of neighbouring ranks that still have cards (around K-A with wrap)."""
        R = self.R
        live = [r for r in range(1, R + 1) if counts[r]]
        if not live:
            return []
        comps: list[list[int]] = []
        for r in live:
            if comps and comps[-1][-1] == r - 1:
                comps[-1].append(r)
            else:
                comps.append([r])
        if self.wrap and len(comps) > 1 and comps[0][0] == 1 and comps[-1][-1] == R:
            comps[0] = comps.pop() + comps[0]
        return comps

    def alive(self, tops: list[int], counts: list[int]) -> bool:
        """A necessary condition for finishing: every run of ranks left can be reached by its own hole.

        A hole that enters a run never leaves it (the ranks around the run have no cards left and never
        get any), so runs need distinct holes: a bipartite matching of runs to holes that can enter them.
        """
        comps = self.components(counts)
        if len(comps) > len(tops):
            return False
        can = [[h for h, t in enumerate(tops) if any(self.fits(r, t) for r in comp)] for comp in comps]
        hole_of: dict[int, int] = {}

        def augment(c: int, seen: set[int]) -> bool:
            for h in can[c]:
                if h not in seen:
                    seen.add(h)
                    if h not in hole_of or augment(hole_of[h], seen):
                        hole_of[h] = c
                        return True
            return False

        return all(augment(c, set()) for c in range(len(comps)))

    def degrees_ok(self, tops: list[int], counts: list[int]) -> bool:
        """A necessary condition for finishing (exact for one hole): Euler's condition on rank steps.

        Each hole's remaining play is a walk on the rank path (a cycle with wrap). A rank visited ``v``
        times (its cards, plus a hole's top) meets ``2 v`` step ends, less one per walk starting or ending
        there, so with ``x[r]`` steps between ranks r and r+1: ``x[r-1] + x[r] = 2 v[r] - starts[r] -
        ends[r]``. True when some placement of the walks' ends (and of the first card of each empty hole
        that gets cards) admits ``x >= 0`` whose steps join every rank still to visit to some walk's
        start; with ``king_blocks`` every King visit ends a walk. With one hole this is exactly Euler's
        condition for a walk, so the search never backtracks; with several it prunes most dead branches.
        """
        R = self.R
        base = [0] + [2 * counts[r] for r in range(1, R + 1)]
        for t in tops:
            base[t] += 1 if t else 0
        placed = [t for t in tops if t]
        empty = len(tops) - len(placed)
        kings = counts[R] + placed.count(R)
        visited = {r for r in range(1, R + 1) if counts[r]} | set(placed)
        ranks = range(1, R + 1)
        fill = range(empty, empty + 1) if self.must_fill else range(0 if placed else 1, empty + 1)
        cases = sum(comb(R + len(placed) + k - 1, len(placed) + k) * comb(R + k - 1, k) for k in fill)
        if cases > _DEGREE_CASES:
            return True  # several empty holes: too many placements to try, leave it to the search
        for used in fill:  # empty holes that get cards
            for ends in combinations_with_replacement(ranks, len(placed) + used):
                if self.king_blocks and ends.count(R) != kings:
                    continue
                for starts in combinations_with_replacement(ranks, used):
                    d = list(base)
                    for r in (*ends, *starts):
                        d[r] -= 1
                    if all(v >= 0 for v in d) and self._steps_exist(d, visited, {*placed, *starts}):
                        return True
        return False

    def _steps_exist(self, d: list[int], visited: set[int], starts: set[int]) -> bool:
        """Is there ``x >= 0`` with ``x[r-1] + x[r] = d[r]`` (:func:`patience.holes.walk_steps`) whose
        positive steps join every ``visited`` rank to one of ``starts``?"""
        R = self.R
        sol = walk_steps(d, R, self.wrap)
        if sol is None:
            return False
        a, sign, lo, hi = sol
        if not self.wrap:
            return self._joined(a[: R - 1], visited, starts)
        if hi is None or hi - lo >= 2:
            return True  # an X strictly inside the range leaves every step positive: all joined
        return any(
            self._joined([aa + ss * x for aa, ss in zip(a, sign, strict=True)], visited, starts)
            for x in range(lo, hi + 1)
        )

    def _joined(self, xs: list[int], visited: set[int], starts: set[int]) -> bool:
        """With ``xs[r-1]`` steps between ranks r and r+1 (``xs[R-1]``: R and 1 on a cycle), does every
        run of ranks joined by steps that holds a visited rank also hold a start?"""
        R = self.R
        comp = [0] * (R + 1)
        for r in range(2, R + 1):
            comp[r] = comp[r - 1] if xs[r - 2] else comp[r - 1] + 1
        if len(xs) == R and xs[R - 1]:  # the step R - 1 closes the cycle
            last = comp[R]
            comp = [0 if c == last else c for c in comp]
        need = {comp[r] for r in visited}
        return need <= {comp[r] for r in starts}


def _plant_ranks(
    walk: _RankWalk,
    tops0: list[int],
    counts0: list[int],
    rng: random.Random,
    budget: int,
    dead: set[_Key],
) -> list[tuple[int, int]] | None:
    """Randomized DFS for a full removal order: ``[(hole, rank), ...]``, or None when none exists.

    ``tops0[h]`` is hole h's top rank (0 when empty); ``counts0[r]`` the cards of rank r to remove.
    With ``start_dealt`` every hole must end non-empty. ``dead`` collects states proven to lead nowhere
    (keyed by the sorted tops, since holes are alike, and the counts), so restarts never search them
    again. Raises :class:`_OutOfBudget` after ``budget`` nodes.
    """
    tops, counts = list(tops0), list(counts0)
    left = sum(counts)
    if left == 0:
        return [] if all(tops) or not walk.must_fill else None
    if not (walk.alive(tops, counts) and walk.degrees_ok(tops, counts)):
        return None

    def key() -> _Key:
        return (tuple(sorted(tops)), tuple(counts))

    def moves() -> list[tuple[int, int]]:
        """Candidate (hole, rank) moves, the one to try first last (the list is popped)."""
        holes = list(range(len(tops)))
        shuffle_in_place(rng, holes)
        out: list[tuple[int, int]] = []
        for h in holes:
            ranks = [r for r in range(1, walk.R + 1) if counts[r] and walk.fits(r, tops[h])]
            if ranks:
                out += [(h, r) for r in _weighted_order(rng, ranks, [counts[r] for r in ranks])]
        out.reverse()
        return out

    path: list[tuple[int, int, int]] = []  # (hole, rank, previous top) of each removal so far
    frames = [moves()]
    nodes = 0
    while frames:
        cands = frames[-1]
        if not cands:  # every move from here failed
            frames.pop()
            dead.add(key())
            if not path:
                return None
            h, r, prev = path.pop()
            tops[h], counts[r], left = prev, counts[r] + 1, left + 1
            continue
        h, r = cands.pop()
        nodes += 1
        if nodes > budget:
            raise _OutOfBudget
        prev = tops[h]
        tops[h], counts[r], left = r, counts[r] - 1, left - 1
        if left == 0 and (all(tops) or not walk.must_fill):
            path.append((h, r, prev))
            return [(hh, rr) for hh, rr, _ in path]
        k = key()
        if left and k not in dead and walk.alive(tops, counts) and walk.degrees_ok(tops, counts):
            path.append((h, r, prev))
            frames.append(moves())
            continue
        dead.add(k)
        tops[h], counts[r], left = prev, counts[r] + 1, left + 1
    return None


def _tableau_order(rules: RuleSet, deck: Deck) -> tuple[list[Card], list[Card]]:
    """The hole start cards (taken as the portable deal takes them) and the cards left to remove."""
    rest = deck.cards()
    starts = hole_start_cards(rules)
    for c in starts:
        rest.remove(c)
    return starts, rest


def _holes(rules: RuleSet, starts: list[Card]) -> list[list[Card]]:
    """The holes before the deal: their start cards, empty otherwise (All in a Row, dealt starts)."""
    return [[c] for c in starts] + [[] for _ in range(rules.n_foundations - len(starts))]


def planted_deal(
    game: str, seed: int, overrides: dict[str, Any] | None = None
) -> tuple[Instance, list[dict[str, Any]]]:
    """The ``planted`` deal of ``game`` for ``seed`` and its planted win as JSON moves (replayable).

    Raises DealError for games that are not Black Hole-like, or when no order removes every card
    (possible on small generalized decks without wrap-around).
    """
    _check_args(seed, "planted", 0)
    g = load(game, overrides)
    _need_hole_game(g, "planted")
    rules = g.rules
    deck = Deck(rules.deck.suits, rules.deck.ranks, rules.deck.decks)
    R, holes = rules.deck.ranks, rules.n_foundations
    starts, rest = _tableau_order(rules, deck)
    tops0 = [c.rank for c in starts] + [0] * (holes - len(starts))  # start_dealt holes start empty
    counts0 = [0] * (R + 1)
    for c in rest:
        counts0[c.rank] += 1
    walk = _RankWalk.of(rules)
    rng = stream(seed, "planted")
    dead: set[_Key] = set()
    budget, spent, ranks = _FIRST_BUDGET, 0, None
    while True:
        try:
            ranks = _plant_ranks(walk, tops0, counts0, rng, budget, dead)
            break
        except _OutOfBudget:
            spent += budget
            if spent >= _TOTAL_BUDGET:
                raise DealError(
                    f"planted {g.name}: no removal order of all {len(rest)} cards found in {spent} nodes"
                ) from None
            budget *= 2
    if ranks is None:
        raise DealError(
            f"planted {g.name}: no legal order removes all {len(rest)} cards of {R} ranks "
            f"(foundations.wrap={str(rules.foundations.wrap).lower()}), so no deal of these rules is won"
        )
    # Cards for the ranks: each rank's cards in a seeded order.
    by_rank: dict[int, list[Card]] = {r: [] for r in range(1, R + 1)}
    for c in rest:
        by_rank[c.rank].append(c)
    for cards in by_rank.values():
        shuffle_in_place(rng, cards)
    foundations = _holes(rules, starts)
    sequence: list[tuple[int, Card]] = []  # (hole, card) of every removal from the tableau
    dealt_start = rules.foundations.start_dealt
    for h, r in ranks:
        card = by_rank[r].pop()
        if dealt_start and not foundations[h]:  # the first card of a start_dealt hole is dealt there
            foundations[h].append(card)
        else:
            sequence.append((h, card))
    # Piles: sequence positions go to random piles; in each pile the first removed card is on top.
    sizes = rules.tableau_sizes()
    pile_of = [p for p, n in enumerate(sizes) for _ in range(n)]
    shuffle_in_place(rng, pile_of)
    piles: list[list[Card]] = [[] for _ in sizes]
    for (_, card), p in zip(sequence, pile_of, strict=True):
        piles[p].append(card)
    layout = Layout(
        tableau=tuple(tuple(reversed(p)) for p in piles),
        foundations=tuple(tuple(p) for p in foundations),
        cells=(None,) * rules.cells.count,
    )
    inst = _build(g, layout, _source("planted", seed, 0))
    moves = moves_to_json(
        inst, [(TABLEAU, p, FOUNDATION, h, 1) for (h, _), p in zip(sequence, pile_of, strict=True)]
    )
    return inst, list(moves)


# Sorted deals -----------------------------------------------------------------------------------
def _sorted_deal(game: str, seed: int, overrides: dict[str, Any] | None) -> Instance:
    """The deck by rank (suits in a seeded order within each rank) dealt pile by pile, bottom to top."""
    g = load(game, overrides)
    _need_hole_game(g, "sorted")
    rules = g.rules
    deck = Deck(rules.deck.suits, rules.deck.ranks, rules.deck.decks)
    starts, rest = _tableau_order(rules, deck)
    rng = stream(seed, "sorted")
    order: list[Card] = []
    for r in range(1, rules.deck.ranks + 1):
        cards = [c for c in rest if c.rank == r]
        shuffle_in_place(rng, cards)
        order += cards
    foundations = _holes(rules, starts)
    if rules.foundations.start_dealt:  # as the portable deal: the next card goes onto each hole
        foundations = [[order.pop(0)] for _ in range(rules.n_foundations)]
    piles, it = [], iter(order)
    for n in rules.tableau_sizes():
        piles.append(tuple(next(it) for _ in range(n)))
    layout = Layout(
        tableau=tuple(piles),
        foundations=tuple(tuple(p) for p in foundations),
        cells=(None,) * rules.cells.count,
    )
    return _build(g, layout, _source("sorted", seed, 0))


# Swaps and the entry point ----------------------------------------------------------------------
def _swap(inst: Instance, seed: int, swaps: int) -> Instance:
    """``inst`` after ``swaps`` seeded random transpositions of two tableau cards (0: unchanged)."""
    if swaps == 0:
        return inst
    slots = [(i, j) for i, pile in enumerate(inst.layout.tableau) for j in range(len(pile))]
    if len(slots) < 2:
        raise DealError(f"swaps: the tableau of {inst.game} has {len(slots)} card(s), nothing to swap")
    piles = [list(p) for p in inst.layout.tableau]
    rng = stream(seed, "swaps")
    for _ in range(swaps):
        a = draw_below(rng, len(slots))
        b = draw_below(rng, len(slots) - 1)
        b += b >= a  # a second, different position
        (ia, ja), (ib, jb) = slots[a], slots[b]
        piles[ia][ja], piles[ib][jb] = piles[ib][jb], piles[ia][ja]
    layout = replace(inst.layout, tableau=tuple(tuple(p) for p in piles))
    family = (inst.source or {}).get("family", "random")  # a swapped random deal is no longer portable
    return Instance.build(inst.game, layout, inst.overrides, _source(family, seed, swaps))


def parse_family(spec: str) -> tuple[str, int] | None:
    """``FAMILY`` or ``FAMILY:SWAPS`` (e.g. ``planted:8``) as (family, swaps); None when no family is named.

    This is how families serve as deal generators (``-g planted:8``, :func:`patience.deals.parse_generator`).
    """
    name, sep, count = spec.partition(":")
    if name not in FAMILIES:
        return None
    if not sep:
        return name, 0
    if not count.isdigit():
        raise DealError(f"generator {spec!r}: swaps after ':' must be an integer >= 0 (e.g. {name}:8)")
    return name, int(count)


def family_deal(
    game: str, seed: int, family: str, overrides: dict[str, Any] | None = None, swaps: int = 0
) -> Instance:
    """Deal ``game`` number ``seed`` of a family of :data:`FAMILIES`, then ``swaps`` random transpositions.

    ``random`` with no swaps is exactly the portable deal, source included; every other instance has
    ``source = {"generator": "FAMILY[:SWAPS]", "family": ..., "seed": ..., "swaps": ...}``, whose
    generator deals it again through :func:`patience.deals.deal`.
    """
    _check_args(seed, family, swaps)
    if family == "random":
        inst = PORTABLE.deal(game, seed, overrides)
    elif family == "planted":
        inst = planted_deal(game, seed, overrides)[0]
    else:
        inst = _sorted_deal(game, seed, overrides)
    return _swap(inst, seed, swaps)


FAMILY_GENERATORS = tuple(
    Generator(name, summary, (0, U32 - 1), partial(family_problem, name), family_deal=family_deal)
    for name, summary in FAMILIES.items()
)  # the families as entries of the one generator registry, patience.deals.REGISTRY
