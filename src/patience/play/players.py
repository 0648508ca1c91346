"""Players for games with hidden cards: random, Donkersteeg's human heuristics, flat Monte Carlo.

A player is an object with ``name``, ``peeks`` and ``choose(obs, rng, truth=None) -> Move | None``: given an
:class:`~.observation.Observation` (never the engine or the deal) and an explicit ``random.Random``, it picks
one of ``obs.moves`` or resigns (None). ``peeks`` is True only for the Monte Carlo player in 'shuffled-once'
mode: the game loop then passes ``truth``, the true full state, deliberately (an upper bound, not a fair
player). Every other player is called with ``truth=None``.

Safe foundation moves, two strengths:

* :func:`safe_home_move`: the test of :mod:`patience.solvers.dominance` ``safe_home`` (a card goes home
  from a tableau top, free cell or reserve when every card that could ever be built onto it is home; one
  deck, suit foundations). Where :func:`patience.solvers.dominance.applicable` includes ``safe_home`` it is
  proven never to lose a win (Klaver 2022 section 4 plays such moves automatically); with worrying back
  (``klondike``) it is a playing rule, not a proof.
* :func:`donkersteeg_safe_move`: Donkersteeg 2010 section 4.5's 'safe heuristics', played before every
  Monte Carlo decision: an Ace or a Deuce to a foundation from anywhere (the waste too), else the test above.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..engine import CELL, FOUNDATION, RESERVE, STOCK, TABLEAU, WASTE, Engine, Move
from .observation import Boards, Observation, World, observe, sample_world

__all__ = [
    "MODES",
    "PLAYERS",
    "HeuristicPlayer",
    "HindsightPlayer",
    "MonteCarloPlayer",
    "Player",
    "RandomPlayer",
    "donkersteeg_safe_move",
    "make_player",
    "safe_home_move",
]

MODES = ("reshuffle", "shuffled-once")
"""Monte Carlo modes (Donkersteeg 2010 section 4.5): 'reshuffle' deals the unseen cards anew, uniformly
among the arrangements consistent with the observation, for every playout (a fair player); 'shuffled-once'
plays every playout on the true deal, hidden cards included (an upper bound: it sees the cards)."""


class Player(Protocol):
    """Chooses a move from an observation (see the module docstring)."""

    name: str
    peeks: bool

    def choose(self, obs: Observation, rng: random.Random, truth: World | None = None) -> Move | None: ...


class _Lookups:
    """Per-rules tables a player needs (rank, suit, builders of a card), from an engine of the same rules."""

    def __init__(self, probe: Engine) -> None:
        rules = probe.rules
        self.R = probe.R
        self.rank, self.suit = probe.rank, probe.suit
        self.suit_home = rules.foundations.kind == "suits" and rules.deck.decks == 1 and not rules.gaps.rows
        self.dealt_base = rules.foundations.base == "dealt"
        n = probe.deck.n_codes
        acc: list[list[int]] = [[] for _ in range(n)]
        if probe.build != "none":
            for x in range(n):
                for c in probe.build_targets(x):
                    acc[c].append(x)
        self.receivers = [tuple(b) for b in acc]  # receivers[c]: cards that may ever be built onto c
        self.deal_count = rules.stock.deal_count
        self.stall = 3 * (-(-rules.stock.size // max(rules.stock.deal_count, 1)) + 1) + 20

    def base_rank(self, found: Sequence[Sequence[int]]) -> int:
        if self.dealt_base:
            first = next((f[0] for f in found if f), None)
            return self.rank[first] if first is not None else 1
        return 1


def _moved_card(
    m: Move,
    piles: Sequence[Sequence[int]],
    cells: Sequence[int],
    reserve: Sequence[int],
    waste: Sequence[int],
) -> int | None:
    """The card a single-card move takes (face up by construction), or None."""
    src, si, _dst, _di, cnt = m
    if src == TABLEAU:
        return piles[si][-cnt]
    if src == CELL:
        return cells[si]
    if src == RESERVE:
        return reserve[si]
    if src == WASTE and waste and m[2] != STOCK:
        return waste[-1]
    return None


def _safe(
    lk: _Lookups,
    moves: Sequence[Move],
    piles: Sequence[Sequence[int]],
    found: Sequence[Sequence[int]],
    cells: Sequence[int],
    reserve: Sequence[int],
    waste: Sequence[int],
    deuces: bool,
) -> Move | None:
    if not lk.suit_home:
        return None
    home: dict[int, int] | None = None
    base = lk.base_rank(found)
    for m in moves:
        if m[2] != FOUNDATION:
            continue
        card = _moved_card(m, piles, cells, reserve, waste)
        if card is None:
            continue
        step = (lk.rank[card] - base) % lk.R  # cards of its suit home before it
        if deuces and step <= 1:
            return m
        if m[0] not in (TABLEAU, CELL, RESERVE):
            continue
        if home is None:
            home = {lk.suit[f[0]]: len(f) for f in found if f}
        if all(home.get(lk.suit[x], 0) > (lk.rank[x] - base) % lk.R for x in lk.receivers[card]):
            return m
    return None


def safe_home_move(lk: _Lookups, obs: Observation) -> Move | None:
    """A move of ``obs.moves`` that dominance ``safe_home``'s test calls safe, or None."""
    return _safe(lk, obs.moves, obs.piles, obs.foundations, obs.cells, obs.reserve, obs.waste, False)


def donkersteeg_safe_move(lk: _Lookups, obs: Observation) -> Move | None:
    """Donkersteeg's safe heuristics (section 4.5): Aces and Deuces home from anywhere, else safe_home."""
    return _safe(lk, obs.moves, obs.piles, obs.foundations, obs.cells, obs.reserve, obs.waste, True)


def _engine_safe(lk: _Lookups, e: Engine, moves: Sequence[Move]) -> Move | None:
    return _safe(lk, moves, e.piles, e.found, e.cells, e.reserve, e.waste, True)


MOVE_SETS = ("all", "donkersteeg")
"""Which offered moves a random choice draws from: ``all`` the legal moves; ``donkersteeg`` the move set of
Donkersteeg 2010 section 4.3: no worrying back (foundation cards never return), and part of a built pile
moves only when the card it uncovers can then go home (his move type 6 'double move'; the same restriction
as dominance ``partial_pile``, Blake & Gent's Appendix C, which keeps every won deal won)."""


def _donkersteeg_ok(
    lk: _Lookups, m: Move, piles: Sequence[Sequence[int]], down: Sequence[int], found: Sequence[Sequence[int]]
) -> bool:
    """Is ``m`` in Donkersteeg's move set (:data:`MOVE_SETS`)?"""
    if m[0] == FOUNDATION:
        return False
    if m[0] == TABLEAU and m[2] == TABLEAU:
        p = piles[m[1]]
        if m[4] < len(p) - down[m[1]]:
            return _fits_home(lk, found, p[-m[4] - 1])
    return True


def _check_move_set(name: str) -> None:
    if name not in MOVE_SETS:
        raise ValueError(f"moves {name!r}: one of {', '.join(MOVE_SETS)}")


def _choosable(lk: _Lookups, obs: Observation, move_set: str) -> list[Move]:
    """The offered moves of ``move_set`` (all offered moves if that leaves none)."""
    if move_set == "all":
        return list(obs.moves)
    ok = [m for m in obs.moves if _donkersteeg_ok(lk, m, obs.piles, obs.down, obs.foundations)]
    return ok or list(obs.moves)


class _Tables:
    """Boards and look-ups per game, built once per process (players are called for many positions)."""

    _cache: dict[tuple[str, str], tuple[Boards, _Lookups]] = {}

    @classmethod
    def get(cls, obs: Observation) -> tuple[Boards, _Lookups]:
        key = (obs.game, obs.overrides)
        got = cls._cache.get(key)
        if got is None:
            boards = Boards(obs.game, obs.overrides)
            got = cls._cache[key] = (boards, _Lookups(boards.probe))
        return got


@dataclass
class RandomPlayer:
    """Uniform over the legal moves offered (Donkersteeg's Player R, Klaver's random mode).

    ``auto_safe``: first play a move :func:`safe_home_move` calls safe, as Klaver's random games do
    automatically ('target moves done for free'). ``moves``: draw from every offered move (``all``) or from
    Donkersteeg's move set (``donkersteeg``, :data:`MOVE_SETS`).
    """

    auto_safe: bool = False
    moves: str = "all"
    name: str = "random"
    peeks: bool = False

    def __post_init__(self) -> None:
        _check_move_set(self.moves)

    def choose(self, obs: Observation, rng: random.Random, truth: World | None = None) -> Move | None:
        if self.auto_safe:
            m = safe_home_move(_Tables.get(obs)[1], obs)
            if m is not None:
                return m
        return rng.choice(_choosable(_Tables.get(obs)[1], obs, self.moves))


@dataclass
class HeuristicPlayer:
    """Donkersteeg 2010 section 3.4's list of human heuristics, as a priority order (ties broken at random).

    1. (rule 1) Turn the stock before any other move of the game.
    2. (rule 2 and section 4.5) An Ace or a Deuce home from anywhere, or a card :func:`safe_home_move` calls
       safe.
    3. (rules 3, 4, 9) A move that turns a face-down card up (the whole face-up part of a pile leaves it:
       to another pile, a space if it starts with a King, or home), from the pile with most face-down cards.
    4. (rule 6) A King from the waste into a space.
    5. A waste card to the tableau, then to a foundation (it brings the next stock card into play).
    6. Donkersteeg's 'double move' (section 4.3, type 6): part of a built pile moves so that the card it
       uncovers can go home.
    7. Turn the stock (or redeal it), unless the last moves were a whole pass through it with nothing
       played (read from ``obs.history``); then first:
    8. (rule 12) any other card home, and
    9. (rules 6, 8) empty a pile that has no face-down card, only when a King is ready for the space,
    10. and only then the stock again.

    Never: worrying back (Donkersteeg's game has none) and other transfers (rules 5, 8: 'hold off moves that
    are not important'). With none of these moves offered the player resigns (None). Rules 7 and 11 (which
    King, caution with 5 to 8) are not modelled.
    """

    name: str = "heuristic"
    peeks: bool = False

    def choose(self, obs: Observation, rng: random.Random, truth: World | None = None) -> Move | None:
        lk = _Tables.get(obs)[1]
        tiers = _heuristic_tiers(lk, obs)
        for tier in tiers:
            if tier:
                best = max(w for w, _ in tier)
                return rng.choice([m for w, m in tier if w == best])
        return None


def _heuristic_tiers(lk: _Lookups, obs: Observation) -> list[list[tuple[int, Move]]]:
    """The offered moves sorted into the priority tiers of :class:`HeuristicPlayer` as (weight, move)."""
    tiers: list[list[tuple[int, Move]]] = [[] for _ in range(10)]
    piles, down = obs.piles, obs.down
    stock_moves = [m for m in obs.moves if _is_stock_move(m)]
    if stock_moves and obs.redeals_used == 0 and _untouched(obs):
        tiers[0] = [(0, m) for m in stock_moves]
    safe = donkersteeg_safe_move(lk, obs)
    if safe is not None:
        tiers[1].append((0, safe))
    king_ready = _king_ready(lk, obs)
    stock_tier = 9 if _fruitless_pass(lk, obs) else 6
    for m in obs.moves:
        src, si, dst, _di, cnt = m
        if src == FOUNDATION:
            continue  # never worry back
        if src == TABLEAU:
            face_up = len(piles[si]) - down[si]
            if cnt == face_up and down[si] > 0:
                tiers[2].append((down[si], m))
            elif dst == FOUNDATION:
                tiers[7].append((0, m))
            elif cnt < face_up:
                if _fits_home(lk, obs.foundations, piles[si][-cnt - 1]):
                    tiers[5].append((0, m))
            elif king_ready and dst == TABLEAU and len(piles[m[3]]) > 0:
                tiers[8].append((0, m))
        elif src == WASTE and dst == TABLEAU:
            if not piles[m[3]]:
                tiers[3].append((0, m))
            else:
                tiers[4].append((1, m))
        elif src == WASTE and dst == FOUNDATION:
            tiers[4].append((0, m))
        elif _is_stock_move(m):
            tiers[stock_tier].append((0, m))
        elif dst == FOUNDATION:  # cells, reserve
            tiers[7].append((0, m))
    return tiers


def _is_stock_move(m: Move) -> bool:
    """A deal from the stock or a redeal of the waste."""
    return m[0] == STOCK or (m[0] == WASTE and m[2] == STOCK)


def _fruitless_pass(lk: _Lookups, obs: Observation) -> bool:
    """Were the last moves a whole pass through the stock and waste (and the redeal) with nothing played?"""
    cards = len(obs.stock) + len(obs.waste)
    turns = -(-cards // max(lk.deal_count, 1)) + 1
    tail = obs.history[-turns:]
    return len(tail) == turns and all(_is_stock_move(m) for m in tail)


def _untouched(obs: Observation) -> bool:
    """True at the start of a game: nothing turned, nothing home."""
    return not obs.waste and obs.home == 0 and all(c < 0 for c in obs.cells)


def _fits_home(lk: _Lookups, found: Sequence[Sequence[int]], card: int) -> bool:
    """May ``card`` go straight to a suit foundation?"""
    if card < 0 or not lk.suit_home:
        return False
    base = lk.base_rank(found)
    step = (lk.rank[card] - base) % lk.R
    home = {lk.suit[f[0]]: len(f) for f in found if f}
    return home.get(lk.suit[card], 0) == step


def _king_ready(lk: _Lookups, obs: Observation) -> bool:
    """Is a King ready to fill a space: on the waste top, or heading a pile's face-up part over face-down
    cards (Donkersteeg rule 6)?"""
    if obs.waste and lk.rank[obs.waste[-1]] == lk.R:
        return True
    for p, d in zip(obs.piles, obs.down, strict=True):
        if d and len(p) > d and lk.rank[p[d]] == lk.R:
            return True
    return False


@dataclass
class MonteCarloPlayer:
    """Flat Monte Carlo (Donkersteeg 2010 sections 4.4-4.5, Player A; Klaver 2022's Monte Carlo mode).

    Before deciding it plays :func:`donkersteeg_safe_move` (section 4.5's conditions for simulating), and a
    lone move without simulating. Otherwise each offered move is tried in ``playouts`` random games from the
    position after it, on a world of ``mode`` (:data:`MODES`): the true state (``truth``, 'shuffled-once')
    or a fresh sample of the unseen cards per playout ('reshuffle'). The candidates and the playouts' random
    moves come from ``moves`` (:data:`MOVE_SETS`; default Donkersteeg's). A playout plays the safe moves,
    else a uniformly random move, until won, no move is left, ``depth`` moves, or ``stall`` moves in a row
    turn no card up and send none home (None: 3 x (stock passes + 1) + 20).

    ``score``: 'max' (Donkersteeg: a move scores the highest cards-home count its playouts reach, 'full
    depth, highest fitness', ties at random) or 'klaver' (Klaver: the mean over playouts of 1000 per card
    sent home less 1 per other move, ties to the first). A playout that wins chooses its move at once.
    """

    playouts: int = 10
    mode: str = "reshuffle"
    score: str = "max"
    depth: int = 300
    stall: int | None = None
    moves: str = "donkersteeg"
    name: str = "mc"

    def __post_init__(self) -> None:
        _check_move_set(self.moves)
        if self.mode not in MODES:
            raise ValueError(f"mode {self.mode!r}: one of {', '.join(MODES)}")
        if self.score not in ("max", "klaver"):
            raise ValueError(f"score {self.score!r}: one of max, klaver")
        if self.playouts < 1:
            raise ValueError(f"playouts {self.playouts}: must be >= 1")

    @property
    def peeks(self) -> bool:
        """'shuffled-once' plays its playouts on the true deal: the game loop must hand it ``truth``."""
        return self.mode == "shuffled-once"

    def choose(self, obs: Observation, rng: random.Random, truth: World | None = None) -> Move | None:
        boards, lk = _Tables.get(obs)
        if len(obs.moves) == 1:
            return obs.moves[0]
        safe = donkersteeg_safe_move(lk, obs)
        if safe is not None:
            return safe
        if self.peeks and truth is None:
            raise ValueError("mc shuffled-once: the game loop did not pass the true state")
        if not self.peeks:
            truth = None  # a fair player never uses it, even if given
        n_cards = boards.probe.n_cards
        stall = self.stall if self.stall is not None else lk.stall
        best: list[Move] = []
        best_score = float("-inf")
        restrict = self.moves == "donkersteeg"
        for m in _choosable(lk, obs, self.moves):
            scores = []
            for _ in range(self.playouts):
                world = truth if truth is not None else sample_world(obs, boards.rules, rng)
                home, steps = _playout(boards.engine(world), m, lk, rng, self.depth, stall, restrict)
                if home >= n_cards:
                    return m
                scores.append(home if self.score == "max" else 1000 * steps[0] - steps[1])
            s = max(scores) if self.score == "max" else sum(scores) / len(scores)
            if s > best_score:
                best, best_score = [m], s
            elif s == best_score:
                best.append(m)
        return best[0] if self.score == "klaver" else rng.choice(best)


def _playout(
    e: Engine, first: Move, lk: _Lookups, rng: random.Random, depth: int, stall: int, restrict: bool
) -> tuple[int, tuple[int, int]]:
    """Play ``first`` then random moves (safe ones first; Donkersteeg's move set when ``restrict``) on ``e``;
    returns the most cards home reached and (cards sent home, other moves)."""
    start = e.foundation_cards()
    e.apply(first)
    best = e.foundation_cards()
    hidden = sum(e.down)
    quiet = 0
    other = 0 if first[2] == FOUNDATION else 1
    for _ in range(depth):
        moves = e.legal_moves()
        if restrict:
            moves = [m for m in moves if _donkersteeg_ok(lk, m, e.piles, e.down, e.found)] or moves
        if not moves:
            break
        m = _engine_safe(lk, e, moves) or rng.choice(moves)
        e.apply(m)
        home, h = e.foundation_cards(), sum(e.down)
        if home > best or h < hidden:
            quiet = 0
            best = max(best, home)
            hidden = h
        else:
            quiet += 1
            if quiet > stall:
                break
        if m[2] != FOUNDATION:
            other += 1
        if home == e.n_cards:
            break
    return best, (best - start, other)


def _visible(obs: Observation) -> tuple[Any, ...]:
    """The position part of an observation (no moves, no history), for consistency checks."""
    return (
        obs.piles,
        obs.down,
        obs.foundations,
        obs.cells,
        obs.reserve,
        obs.stock,
        obs.waste,
        obs.redeals_used,
    )


@dataclass
class _Sample:
    """One world of the hindsight player's pool: its engine (kept in step with the game) and a winning line
    from the current position found by the solver in it, or None."""

    engine: Engine
    plan: list[Move] | None = None


@dataclass
class HindsightPlayer:
    """Determinized Monte Carlo / hindsight optimisation: neither Donkersteeg nor Klaver has it.

    Keeps a pool of ``worlds`` full states consistent with the observation ('reshuffle': the unseen cards
    sampled uniformly, :func:`sample_world`; 'shuffled-once': the true state, one world, an upper bound). In
    each world it asks the thoughtful search (:func:`patience.solvers.dfs.search`, complete search with the
    proven dominances only, at most ``nodes`` nodes) for a winning line from the current position; each
    line found votes for its first move, and the most voted move is played (ties at random). With no vote
    it plays as :class:`HeuristicPlayer`. Safe moves (:func:`donkersteeg_safe_move`) and lone moves are
    played without searching.

    Between decisions each world follows the moves played. A world whose visible cards no longer match the
    observation (a card turned up differently) is replaced by a new sample; the others stay, which keeps
    the pool uniform among the consistent arrangements (a uniform sample conditioned on still matching is
    uniform on the matching ones). A world's line stays valid while the moves played follow it, so it
    votes again without a new search.
    """

    worlds: int = 4
    nodes: int = 2000
    mode: str = "reshuffle"
    name: str = "hindsight"
    _pool: list[_Sample] = field(default_factory=list, repr=False)
    _synced: int = field(default=0, repr=False)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode {self.mode!r}: one of {', '.join(MODES)}")
        if self.worlds < 1 or self.nodes < 1:
            raise ValueError(f"worlds {self.worlds}, nodes {self.nodes}: both must be >= 1")

    @property
    def peeks(self) -> bool:
        """'shuffled-once' searches the true deal: the game loop must hand it ``truth``."""
        return self.mode == "shuffled-once"

    def _sync(self, obs: Observation) -> None:
        """Play the moves made since the last call in every world; drop worlds that no longer match."""
        if len(obs.history) < self._synced:
            self._pool = []  # a new game
            self._synced = 0
        for m in obs.history[self._synced :]:
            for w in self._pool:
                w.engine.apply(m)
                w.plan = w.plan[1:] if w.plan and w.plan[0] == m else None
        self._synced = len(obs.history)
        want = _visible(obs)
        self._pool = [w for w in self._pool if _visible(observe(w.engine, ())) == want]

    def choose(self, obs: Observation, rng: random.Random, truth: World | None = None) -> Move | None:
        from ..solvers.dfs import DEFAULT_MEMORY_MB, search
        from ..solvers.dfs_prune import features

        boards, lk = _Tables.get(obs)
        if self.peeks and truth is None:
            raise ValueError("hindsight shuffled-once: the game loop did not pass the true state")
        self._sync(obs)
        if len(obs.moves) == 1:
            return obs.moves[0]
        safe = donkersteeg_safe_move(lk, obs)
        if safe is not None:
            return safe
        size = 1 if self.peeks else self.worlds
        while len(self._pool) < size:
            world = truth if self.peeks and truth is not None else sample_world(obs, boards.rules, rng)
            self._pool.append(_Sample(boards.engine(world)))
        feats = features(boards.rules)
        votes: dict[Move, int] = {}
        offered = set(obs.moves)
        for w in self._pool:
            if not w.plan:
                out = search(w.engine, feats, False, time.perf_counter() + 60, self.nodes, DEFAULT_MEMORY_MB)
                w.plan = list(out.moves) if out.won and out.moves else None
            if w.plan and w.plan[0] in offered:
                votes[w.plan[0]] = votes.get(w.plan[0], 0) + 1
        if not votes:
            return HeuristicPlayer().choose(obs, rng)
        top = max(votes.values())
        return rng.choice([m for m in obs.moves if votes.get(m) == top])


PLAYERS: dict[str, Callable[..., Any]] = {
    "random": RandomPlayer,
    "heuristic": HeuristicPlayer,
    "mc": MonteCarloPlayer,
    "hindsight": HindsightPlayer,
}
"""Player name -> class; options are the class's fields."""


def make_player(name: str, **options: Any) -> Player:
    """A player by name with options (unknown name or option: one-line ValueError naming the valid ones)."""
    cls = PLAYERS.get(name)
    if cls is None:
        raise ValueError(f"unknown player {name!r} (one of {', '.join(PLAYERS)})")
    from dataclasses import fields

    known = {f.name for f in fields(cls) if not f.name.startswith("_")} - {"name", "peeks"}
    bad = sorted(set(options) - known)
    if bad:
        raise ValueError(
            f"player {name}: unknown option {bad[0]!r} (valid: {', '.join(sorted(known)) or 'none'})"
        )
    return cls(**options)
