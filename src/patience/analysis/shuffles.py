"""Natural shuffling: Wolter 2014 (Black Hole and All in a Row), sections 6 and 7.

A deck is shuffled with k Gilbert-Shannon-Reeds riffles (:func:`riffle`: cut at a Binomial(n, 1/2)
position, then drop cards one at a time from either packet with chance proportional to its size; k
riffles are one 2^k-shuffle, under which a permutation with r rising sequences has probability
C(2^k + n - r, n) / 2^(kn): :func:`riffle_probability`), then cut once at a uniform position, and dealt:

* ``columns``: pile by pile (the first cards make pile 0, bottom to top), or
* ``rows``: round robin (card t goes to pile t mod P), as two ways of laying out real cards.

The hole's starting card (Black Hole's Ace of Spades) is taken out of the shuffled deck first and the
other cards keep their order (Wolter 1: taking it out after shuffling, as Politaire once did, biases the
deal). The deck before shuffling is ``sorted`` (four Ace-to-King runs, suit by suit: section 7) or
``gathered`` from the previous game (section 6): the hole's cards in play order, then the cards left on
the tableau, pile by pile, bottom to top; a chain of games, each shuffling the last one's cards.
:func:`study` plays ``n`` games per k and compares the win rate with uniformly shuffled deals (Wilson
intervals). Verdicts are ``dfs``'s (wins replayed by the validator). The play line a deck is gathered
from (``line``, :data:`LINES`) is the solver's choice, not the game's:

* ``search``: ``dfs``'s win, or for a lost deal the hole search's best line (most cards removed); its
  move order already tries the rank that keeps the hole's direction first, then taller piles;
* ``few-turns``: a line reaching the same number of cards with the fewest direction changes found
  (:func:`.turns.few_turns_line`, ``turn_nodes`` a game), for Wolter's solver, which "prefers
  avoiding direction changes" and leaves "mostly sorted decks" (his sections 4 and 7); one hole, no
  cells or stock. Each such line is replayed by the validator (a win must still win);
* ``bhs``: for a deal ``dfs`` wins, black-hole-solver's winning line (:mod:`.bhs_line`: another real
  solver, which tries the highest-numbered pile first and ignores direction), replayed by the validator; a
  lost deal prints no line, so it (and a win the peer does not finish in ``limit_s``, counted in
  ``fallback``) is gathered from the search line. The peer saying "Unsolved!" to a ``dfs`` win raises.

:class:`ShufflePoint` also counts the direction changes of the gathered lines (the mechanism).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from math import comb
from typing import Any

from ..cards import Card
from ..instance import Instance, Layout, hole_start_cards
from ..rules import load_game

__all__ = [
    "LINES",
    "ShufflePoint",
    "deal_order",
    "riffle",
    "riffle_probability",
    "rising_sequences",
    "study",
]

LINES = ("search", "few-turns", "bhs")
"""The play lines a gathered deck can come from (module docstring)."""


def riffle(cards: list[Any], rng: random.Random) -> list[Any]:
    """One Gilbert-Shannon-Reeds riffle shuffle of ``cards`` (a new list)."""
    n = len(cards)
    cut = sum(rng.random() < 0.5 for _ in range(n))
    left, right = cards[:cut], cards[cut:]
    out: list[Any] = []
    i = j = 0
    while i < len(left) or j < len(right):
        a, b = len(left) - i, len(right) - j
        if rng.random() * (a + b) < a:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return out


def rising_sequences(perm: list[int] | tuple[int, ...]) -> int:
    """Rising sequences of a permutation of 0..n-1 (Bayer and Diaconis): 1 + the values v whose
    successor v + 1 lies before them."""
    where = {v: i for i, v in enumerate(perm)}
    return 1 + sum(1 for v in range(len(perm) - 1) if where[v + 1] < where[v])


def riffle_probability(perm: list[int] | tuple[int, ...], k: int) -> float:
    """Chance that k GSR riffles of 0..n-1 give ``perm``: C(2^k + n - r, n) / 2^(kn)."""
    n, a = len(perm), 2**k
    return comb(a + n - rising_sequences(perm), n) / a**n


def deal_order(game: str, order: list[Card], by: str, overrides: dict[str, Any] | None = None) -> Instance:
    """Deal the cards in ``order`` (first dealt first) for a hole game, ``by`` rows or columns."""
    g = load_game(game, overrides)
    rules = g.rules
    starts = hole_start_cards(rules)
    rest = list(order)
    for c in starts:
        rest.remove(c)  # the first copy; the others keep their order
    sizes = rules.tableau_sizes()
    piles: list[list[Card]] = [[] for _ in sizes]
    if by == "columns":
        t = 0
        for i, size in enumerate(sizes):
            piles[i] = rest[t : t + size]
            t += size
    elif by == "rows":
        t = 0
        while t < len(rest):
            for i, size in enumerate(sizes):
                if len(piles[i]) < size and t < len(rest):
                    piles[i].append(rest[t])
                    t += 1
    else:
        raise ValueError(f"deal by {by!r}: rows or columns")
    holes = [(c,) for c in starts] + [()] * (rules.foundations.count - len(starts))
    layout = Layout(tableau=tuple(tuple(p) for p in piles), foundations=tuple(holes))
    return Instance.build(g, layout, source={"shuffle": by})


def _gathered(inst: Instance, moves: list[dict[str, Any]]) -> list[Card]:
    """The cards picked up after a game: each hole bottom to top, then each pile bottom to top."""
    deck = inst.deck
    holes = [list(h) for h in inst.layout.foundations]
    piles = [list(p) for p in inst.layout.tableau]
    for m in moves:
        src = int(m["from"].split(":")[1])
        dst = int(m["to"].split(":")[1])
        card = deck.parse(m["card"])
        assert piles[src][-1] == card
        holes[dst].append(piles[src].pop())
    return [c for h in holes for c in h] + [c for p in piles for c in p]


def _play(
    inst: Instance, limit_s: float, line: str = "search", turn_nodes: int = 200_000
) -> tuple[str, list[dict[str, Any]], int, bool]:
    """dfs's verdict, the ``line`` to gather by (:data:`LINES`), its direction changes, and a flag: for
    ``few-turns`` the line is proven fewest, for ``bhs`` the peer gave no line for a win (search line)."""
    import time

    from ..engine import Engine, moves_to_json
    from ..solvers.base import Limits, solve
    from ..solvers.dfs_hole import hole_search
    from .turns import few_turns_line, line_turns

    res = solve(inst, "dfs", Limits(seconds=limit_s))
    if line == "bhs" and res.solution is not None:
        from .bhs_line import bhs_line

        peer = bhs_line(inst, limit_s)  # its line is replayed to a win there
        if peer.status == "unsolvable":
            raise RuntimeError("black-hole-solve calls a dfs win (replayed) unsolvable")
        if peer.moves is not None:
            return res.status.value, peer.moves, line_turns(inst, peer.moves), False
    if res.solution is not None:
        moves = list(res.solution)
    else:
        ho = hole_search(Engine(inst), time.perf_counter() + limit_s, None, 1 << 22)
        moves = list(moves_to_json(inst, ho.best_moves))
    if line == "few-turns":
        engine = Engine(inst)
        incumbent = _engine_moves(inst, moves)
        few = few_turns_line(engine, engine.foundation_cards() + len(moves), incumbent, turn_nodes)
        assert few is not None  # the incumbent is a line
        if few.moves != incumbent:
            moves = list(moves_to_json(inst, few.moves))
            _check(inst, moves, res.solution is not None)
        return res.status.value, moves, line_turns(inst, moves), few.optimal
    return res.status.value, moves, line_turns(inst, moves), line == "bhs" and res.solution is not None


def _engine_moves(inst: Instance, moves: list[dict[str, Any]]) -> list[Any]:
    """JSON moves as engine moves, read off an engine replaying them from the start."""
    from ..engine import Engine

    e = Engine(inst)
    out = []
    for m in moves:
        mv = e.move_from_json(m)
        e.apply(mv)
        out.append(mv)
    return out


def _check(inst: Instance, moves: list[dict[str, Any]], win: bool) -> None:
    """Replay a line with the validator: every move legal, and a win still a win (else a bug)."""
    from ..validate import replay

    rep = replay(inst, moves)
    if not rep.ok or rep.won != win:
        raise RuntimeError(f"few-turns line fails replay: {rep.message()}")


@dataclass(frozen=True)
class ShufflePoint:
    """Win counts of ``n`` games at ``k`` riffles (k = 0: uniformly shuffled deals)."""

    start: str  # sorted, gathered or uniform
    by: str  # rows or columns
    k: int
    won: int
    lost: int
    unknown: int
    line: str = "search"  # the play line gathered decks come from (:data:`LINES`)
    turns: int = 0  # direction changes summed over the n games' lines
    proven: int = 0  # of them, few-turns lines proven fewest within the node budget
    fallback: int = 0  # bhs line: wins gathered from the search line (the peer past the time limit)

    @property
    def mean_turns(self) -> float:
        """Mean direction changes of the lines played (the order a gathered deck starts from)."""
        return self.turns / self.n if self.n else 0.0

    @property
    def n(self) -> int:
        return self.won + self.lost + self.unknown

    def interval(self) -> tuple[float, float]:
        """Conservative Wilson 95% interval of the win rate (unknowns as losses / as wins)."""
        from ..experiments.stats import conservative_interval

        return conservative_interval(self.won, self.lost, self.unknown)


def study(
    game: str,
    start: str,
    by: str,
    ks: range | list[int],
    n: int,
    *,
    seed: int = 1,
    limit_s: float = 10.0,
    overrides: dict[str, Any] | None = None,
    line: str = "search",
    turn_nodes: int = 200_000,
    on_game: Callable[[int, str], None] | None = None,
) -> list[ShufflePoint]:
    """``n`` games per k: deck ``start`` (sorted, gathered, or uniform: a uniform permutation, k
    ignored), k riffles and a cut, dealt ``by`` rows or columns, decided by ``dfs``; a gathered deck is
    the last game's ``line`` (:data:`LINES`; ``turn_nodes``: few-turns' search budget a game).
    ``on_game(k, status)`` hears each game's verdict in play order (a chain's games are not independent)."""
    if start not in ("sorted", "gathered", "uniform"):
        raise ValueError(f"start {start!r}: sorted, gathered or uniform")
    if line not in LINES:
        raise ValueError(f"line {line!r}: {' or '.join(LINES)}")
    if line == "bhs":
        from .bhs_line import BHS_GAMES

        if game not in BHS_GAMES or overrides:
            raise ValueError(f"line bhs: black-hole-solver plays the standard {' and '.join(BHS_GAMES)}")
    rules = load_game(game, overrides).rules
    from ..cards import Deck

    deck = Deck(rules.deck.suits, rules.deck.ranks, rules.deck.decks)
    sorted_deck = sorted(deck.cards(), key=lambda c: (c.suit, c.rank))  # four Ace-to-King runs
    out = []
    for k in ks:
        rng = random.Random(f"{game}/{start}/{by}/{k}/{seed}")
        counts = {"solved": 0, "unsolvable": 0, "unknown": 0}
        turns = proven = fallback = 0
        cards = list(sorted_deck)
        for _ in range(n):
            if start == "uniform":
                cards = list(sorted_deck)
                rng.shuffle(cards)
            else:
                if start == "sorted":
                    cards = list(sorted_deck)
                for _ in range(k):
                    cards = riffle(cards, rng)
                c = rng.randrange(len(cards))
                cards = cards[c:] + cards[:c]
            inst = deal_order(game, cards, by, overrides)
            status, moves, t, opt = _play(inst, limit_s, line, turn_nodes)
            counts[status if status in counts else "unknown"] += 1
            if on_game is not None:
                on_game(k, status)
            turns += t
            proven += opt and line == "few-turns"
            fallback += opt and line == "bhs"
            if start == "gathered":
                cards = _gathered(inst, moves)
        won, lost, unknown = counts["solved"], counts["unsolvable"], counts["unknown"]
        out.append(ShufflePoint(start, by, k, won, lost, unknown, line, turns, proven, fallback))
    return out
