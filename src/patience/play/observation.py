"""What a person at the table sees, and the worlds consistent with it.

A player is handed an :class:`Observation`, never the :class:`~patience.engine.Engine` or the
:class:`~patience.instance.Instance`, so it cannot read a card it has not seen. The observation is built by
:func:`observe` from the true engine, which replaces every card the player cannot see by :data:`HIDDEN`:

* a face-down tableau card (``engine.down``), unless the rules are thoughtful (every card known);
* a stock card not yet seen: in a ``thoughtful: false`` game the stock is hidden until it has been turned
  through once; after a redeal it is the turned waste gathered up again, which a player remembers.

What stays visible: the face-up part of every pile, the foundations, free cells, reserve, the waste as far
as it was turned (all of it: a player remembers the cards turned over), the redeals used, and the legal
moves (their legality never depends on a hidden card: only face-up cards move, and a stock deal does not
look at the cards it deals).

A player that simulates fills the hidden places itself: :func:`sample_world` deals the unseen cards
(the whole deck less every visible card) uniformly at random into them, and :class:`Boards` makes an
engine of any full state of the same game (a template deal, then the state loaded with
:meth:`patience.engine.Engine.load`), so a
player never needs the true deal. Gaps games (a grid) are not supported.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..cards import Deck
from ..engine import Engine, Move
from ..rules import RuleSet

__all__ = ["HIDDEN", "Boards", "Observation", "World", "observe", "sample_world", "unseen_cards", "world_of"]

HIDDEN = -2
"""A card the player cannot see (``-1``, the engine's EMPTY, is an empty free cell)."""

World = tuple[Any, ...]
"""A full state, as :meth:`patience.engine.Engine.snapshot` gives it: (piles, down, foundations, cells,
reserve, stock, waste, grid, redeals used), piles bottom to top, stock top last."""


@dataclass(frozen=True)
class Observation:
    """One position as the player sees it (card codes as in :meth:`patience.cards.Deck.code`).

    ``piles``: tableau piles bottom to top, :data:`HIDDEN` for a face-down card the player cannot see (in a
    thoughtful game face-down cards are shown; ``down`` still counts them, as they cannot move yet).
    ``stock``: bottom to top, :data:`HIDDEN` where unseen. ``moves``: the legal moves offered (engine
    moves, see :mod:`patience.engine`). ``history``: the moves played so far in this game (the player's
    own, so public).
    """

    game: str
    overrides: str  # the rule overrides as canonical JSON (the game is public; the deal is not)
    piles: tuple[tuple[int, ...], ...]
    down: tuple[int, ...]
    foundations: tuple[tuple[int, ...], ...]
    cells: tuple[int, ...]
    reserve: tuple[int, ...]
    stock: tuple[int, ...]
    waste: tuple[int, ...]
    redeals_used: int
    moves: tuple[Move, ...]
    history: tuple[Move, ...] = ()

    @property
    def home(self) -> int:
        """Cards on the foundations."""
        return sum(len(f) for f in self.foundations)

    def visible_cards(self) -> list[int]:
        """Every card code the player sees (with repeats for multi-deck games)."""
        out = [c for p in self.piles for c in p if c != HIDDEN]
        out += [c for f in self.foundations for c in f]
        out += [c for c in self.cells if c >= 0]
        out += list(self.reserve) + [c for c in self.stock if c != HIDDEN] + list(self.waste)
        return out

    def hidden_places(self) -> int:
        """How many places hold a card the player cannot see."""
        return sum(p.count(HIDDEN) for p in self.piles) + self.stock.count(HIDDEN)


def _stock_seen(engine: Engine) -> bool:
    """Has the player seen every stock card? In a thoughtful game, always; otherwise once the stock has been
    turned through and gathered again from the waste (a redeal): each of its cards was turned face up."""
    return engine.rules.thoughtful or (engine.stock_to == "waste" and engine.redeals_used > 0)


def observe(
    engine: Engine, moves: list[Move] | tuple[Move, ...], history: tuple[Move, ...] = ()
) -> Observation:
    """The observation of ``engine``'s position with ``moves`` offered (the game loop's legal moves) after
    the moves ``history``."""
    if engine.rows:
        raise ValueError("play: Gaps games (a grid) are not supported")
    inst = engine.instance
    shown = engine.rules.thoughtful
    piles = tuple(
        tuple(p) if shown else (HIDDEN,) * d + tuple(p[d:])
        for p, d in zip(engine.piles, engine.down, strict=True)
    )
    stock = tuple(engine.stock) if _stock_seen(engine) else (HIDDEN,) * len(engine.stock)
    return Observation(
        game=inst.game,
        overrides=json.dumps(inst.overrides, sort_keys=True),
        piles=piles,
        down=tuple(engine.down),
        foundations=tuple(map(tuple, engine.found)),
        cells=tuple(engine.cells),
        reserve=tuple(engine.reserve),
        stock=stock,
        waste=tuple(engine.waste),
        redeals_used=engine.redeals_used,
        moves=tuple(moves),
        history=history,
    )


def world_of(engine: Engine) -> World:
    """The true full state of ``engine``: what a 'shuffled once' simulation is deliberately given."""
    return engine.snapshot()


def unseen_cards(obs: Observation, rules: RuleSet) -> list[int]:
    """The cards the player has not seen, sorted (the whole deck less every visible card)."""
    d = rules.deck
    deck = Deck(d.suits, d.ranks, d.decks)
    left = Counter(deck.code(c) for c in deck.cards())
    left.subtract(obs.visible_cards())
    if any(v < 0 for v in left.values()):
        raise ValueError("observation shows more copies of a card than the deck holds")
    out = sorted(left.elements())
    if len(out) != obs.hidden_places():
        raise ValueError(f"observation: {obs.hidden_places()} hidden places but {len(out)} unseen cards")
    return out


def sample_world(obs: Observation, rules: RuleSet, rng: random.Random) -> World:
    """A full state consistent with ``obs``: the unseen cards dealt uniformly at random into its hidden
    places (every consistent arrangement equally likely: Donkersteeg's 'reshuffle')."""
    cards = unseen_cards(obs, rules)
    rng.shuffle(cards)
    it = iter(cards)
    piles = tuple(tuple(next(it) if c == HIDDEN else c for c in p) for p in obs.piles)
    stock = tuple(next(it) if c == HIDDEN else c for c in obs.stock)
    return (piles, obs.down, obs.foundations, obs.cells, obs.reserve, stock, obs.waste, (), obs.redeals_used)


class Boards:
    """Engines of full states of one game, for players that simulate: a template deal of the same rules
    (seed 0 of the portable generator, never the deal being played) with a state loaded into it."""

    def __init__(self, game: str, overrides: str) -> None:
        from ..deals import deal

        self.template = deal(game, 0, "portable", json.loads(overrides) or None)
        self.rules = self.template.rules
        self._probe = Engine(self.template)
        self._sim: Engine | None = None

    @classmethod
    def for_observation(cls, obs: Observation) -> Boards:
        return cls(obs.game, obs.overrides)

    @property
    def probe(self) -> Engine:
        """One engine kept for rule look-ups (rank, suit, build_targets); its state is the template's."""
        return self._probe

    def engine(self, world: World) -> Engine:
        """A fresh engine in state ``world``."""
        e = Engine(self.template)
        e.load(world)
        return e

    def probe_engine(self) -> Engine:
        """One engine kept for simulations, to be loaded (:meth:`patience.engine.Engine.load`) before each
        use: building an engine per playout costs more than the playout's first moves."""
        if self._sim is None:
            self._sim = Engine(self.template)
        return self._sim
