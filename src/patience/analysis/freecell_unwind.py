"""Maximal lost FreeCell games dealt backwards from the lock position (Klaver 2022, section 5.4).

The **lock** of a configuration (``stacks-ranks-suits-cells``, :class:`.freecell_lost.Config`) is the end of
Klaver's maximal lost games: every suit home but one; that suit's Ace on stack 0 under its top rank, its 2,
3, ... alone on stacks 1, 2, ... and the rest filling every free cell. No move is left (the top rank has no
place to go, nothing goes on the lone cards, every cell is full), so it is lost with
``suits x ranks - ranks`` cards home, which is :func:`.freecell_lost.upper_bound` exactly when ``ranks =
stacks + cells + 1`` (every configuration where the thesis found one: 8-10-4-1, 6-10-4-3, 3-10-4-6, and
the standard 8-13-4-4).

:func:`unwind` deals it backwards: from the lock, a **predecessor** is a state that one legal forward move
turns into the current one (a card back from a foundation to a stack or cell; a card from a cell back to
a stack, or from a stack back to where it came from when it lay on its parent or alone). A predecessor is
kept only when the complete search (:func:`.freecell_lost.highest_target`) proves it lost. Every kept
state is lost and reaches the lock, so a dealt state reached this way (foundations and cells empty, the
deal's shape) is a lost deal with the bound home: a maximal lost game by the bound's proof. The walk
tries predecessors in order of the fewest non-foundation moves they open (Klaver built his candidates
"to minimize the number of moves not to the freecells or target stacks"), checks at most ``tries`` of a
state's predecessors, and when none is lost jumps back a random 1..``jump`` levels. The deal it returns is
searched again from scratch by the caller's complete search (``bench_klaver.py``, the tests).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from ..cards import Card
from ..instance import Instance, Layout
from ..rules import Game, load_game
from .freecell_lost import DEFAULT_BACKEND, Config, _instance, _shape, highest_target, klaver_frame

__all__ = ["State", "UnwindResult", "lock", "position", "predecessors", "unwind"]

Piles = list[list[Card]]


@dataclass(frozen=True)
class State:
    """A position: tableau piles (bottom first), foundation heights by suit, free cells (None: empty)."""

    tableau: tuple[tuple[Card, ...], ...]
    home: tuple[int, ...]
    cells: tuple[Card | None, ...]

    @property
    def left(self) -> int:
        """Cards still to deal back: on the foundations or in the cells."""
        return sum(self.home) + sum(c is not None for c in self.cells)

    @property
    def key(self) -> tuple:
        """Identity up to the order of the cells."""
        return (
            self.tableau,
            self.home,
            tuple(sorted((c for c in self.cells if c), key=lambda c: (c.suit, c.rank))),
        )


def lock(cfg: Config, suit: int = 3) -> State:
    """The lock position of ``cfg`` (module doc); a ValueError unless ``ranks = stacks + cells + 1``."""
    if cfg.ranks != cfg.stacks + cfg.cells + 1 or not 0 <= suit < cfg.suits:
        raise ValueError(f"lock: {cfg.label} needs ranks = stacks + cells + 1 and suit < suits")
    tab = [(Card(1, suit), Card(cfg.ranks, suit))] + [(Card(k + 1, suit),) for k in range(1, cfg.stacks)]
    cells = tuple(Card(r, suit) for r in range(cfg.stacks + 1, cfg.ranks))
    home = tuple(0 if s == suit else cfg.ranks for s in range(cfg.suits))
    return State(tuple(tab), home, cells)


def position(cfg: Config, st: State, game: Game | None = None) -> Instance:
    """``st`` as an instance of ``cfg``'s freecell game to search from (a position, not a deal: its piles
    need not have the dealt heights, so it is not validated against them)."""
    game = game or load_game("freecell", cfg.overrides)
    founds = tuple(tuple(Card(r, s) for r in range(1, h + 1)) for s, h in enumerate(st.home))
    lay = Layout(tableau=st.tableau, foundations=founds, cells=st.cells)
    return Instance(game.name, game.rules, lay, game.overrides, None)


def _on_parent(card: Card, below: Card) -> bool:
    return below.rank == card.rank + 1 and below.colour != card.colour


def predecessors(st: State, shape: list[int], fixed: frozenset[Card]) -> list[State]:
    """States one legal forward move turns into ``st``, no pile above its dealt height, ``fixed`` cards
    never moved (one empty cell stands for all: cells are interchangeable)."""
    tab = [list(p) for p in st.tableau]
    room = [p for p in range(len(tab)) if len(tab[p]) < shape[p]]
    free = next((i for i, c in enumerate(st.cells) if c is None), None)
    out: list[State] = []

    def put(
        card: Card, base: Piles, home: tuple[int, ...], cells: tuple[Card | None, ...], skip: int
    ) -> None:
        for p in room:
            if p != skip:
                t = [list(x) for x in base]
                t[p].append(card)
                out.append(State(tuple(map(tuple, t)), home, cells))
        if free is not None and cells[free] is None:
            c = list(cells)
            c[free] = card
            out.append(State(tuple(map(tuple, base)), home, tuple(c)))

    for s, h in enumerate(st.home):  # forward: the card went home from a stack or cell
        if h:
            home = st.home[:s] + (h - 1,) + st.home[s + 1 :]
            put(Card(h, s), tab, home, st.cells, -1)
    for i, c in enumerate(st.cells):  # forward: the card went from a stack to this cell
        if c is not None:
            cells = list(st.cells)
            cells[i] = None
            for p in room:
                t = [list(x) for x in tab]
                t[p].append(c)
                out.append(State(tuple(map(tuple, t)), st.home, tuple(cells)))
    for q, pile in enumerate(tab):  # forward: the card went onto its parent, or to an empty stack
        if not pile or pile[-1] in fixed or (len(pile) > 1 and not _on_parent(pile[-1], pile[-2])):
            continue
        t = [list(x) for x in tab]
        card = t[q].pop()
        put(card, t, st.home, st.cells, q)
    return out


def _mobility(st: State) -> float:
    """Moves not to a foundation that ``st`` allows: onto a parent, to an empty stack (half for a cell)."""
    tops = [p[-1] for p in st.tableau if p]
    sources = tops + [c for c in st.cells if c is not None]
    onto = sum(1 for c in sources for t in tops if t is not c and _on_parent(c, t))
    empty = sum(1 for p in st.tableau if not p) * len(sources)
    return onto + empty + 0.5 * sum(c is None for c in st.cells) * len(tops)


def _order(st: State, pred: State) -> float:
    """Sort key of a predecessor: cards dealt back first (to a stack, then to a cell), then fewest moves
    opened."""
    back = 2 if pred.left < st.left else 1 if sum(pred.home) < sum(st.home) else 0
    return -2 * back + _mobility(pred)


@dataclass
class UnwindResult:
    """What :func:`unwind` found: the deal (None if the time ran out) and how the walk went."""

    config: Config
    deal: Instance | None
    checks: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    fewest_left: int = 0  # fewest cards still to deal back on any lost state reached
    closest: State | None = None  # a lost state with that many left
    backjumps: int = 0
    seconds: float = 0.0


def unwind(cfg: Config, seed: int = 1, tries: int = 8, jump: int = 12, seconds: float = 600.0,
           check_seconds: float = 10.0, noise: float = 1.0, backend: str = DEFAULT_BACKEND,
           progress: Callable[[int, int], None] | None = None) -> UnwindResult:  # fmt: skip
    """Deal ``cfg``'s lock backwards (module doc) until a dealt state, within ``seconds``.

    ``tries``: predecessors checked per state before jumping back; ``noise``: random tie-breaking added
    to the order (in moves opened); ``check_seconds``: the complete search's limit per state (undecided
    counts as not lost). ``progress(checks, fewest_left)`` after each check."""
    t0 = time.perf_counter()
    rng = random.Random(seed)
    game = load_game("freecell", cfg.overrides)
    shape = _shape(cfg)
    fixed = frozenset(klaver_frame(cfg).values())
    start = lock(cfg)
    res = UnwindResult(cfg, None, fewest_left=start.left)

    def lost(st: State) -> bool:
        v = highest_target(position(cfg, st, game), backend, check_seconds)
        res.checks += 1
        res.statuses[v.status] += 1
        return v.status == "unsolvable"

    verdict: dict[tuple, bool] = {start.key: True}  # state -> proven lost (each state checked once)
    dead: set[tuple] = set()  # lost states none of whose predecessors is lost
    path = [start]
    while time.perf_counter() - t0 < seconds:
        st = path[-1]
        if st.left == 0 and [len(p) for p in st.tableau] == shape:
            res.deal = _instance(cfg, [list(p) for p in st.tableau], {"study": "unwind", "seed": seed})
            break
        order = sorted(predecessors(st, shape, fixed), key=lambda p: _order(st, p) + noise * rng.random())
        nxt, tried, fresh = None, 0, False
        for p in order:
            if tried >= tries or time.perf_counter() - t0 >= seconds:
                break
            known = verdict.get(p.key)
            if known is None:  # check it
                fresh = True
                tried += 1
                known = verdict[p.key] = lost(p)
                if progress is not None:
                    progress(res.checks, min(res.fewest_left, p.left) if known else res.fewest_left)
                if known:
                    nxt = p
                    break
            elif known and p.key not in dead and rng.random() < 0.5:  # down a proven-lost state again
                nxt = p
                break
        if nxt is not None:
            path.append(nxt)
            if nxt.left < res.fewest_left or res.closest is None:
                res.fewest_left, res.closest = nxt.left, nxt
            continue
        if not fresh and all(verdict.get(p.key) is False or p.key in dead for p in order):
            dead.add(st.key)
            if len(path) == 1:  # the lock itself is exhausted
                break
        res.backjumps += 1
        del path[max(1, len(path) - rng.randint(1, jump)) :]
    res.seconds = time.perf_counter() - t0
    return res
