"""The seeded deal generators ``portable``, ``solvitaire``, ``pysol`` and ``ms``: a seed to a layout.

Each is a :class:`Generator`: the seeds it takes, what it deals (:attr:`Generator.problem` says why not a
game) and its layout for a seed. :mod:`patience.deals` holds the one registry of every generator, these
and the instance families of :mod:`patience.families`, and ``deal()``, which dispatches through it.

``portable`` (default) -- identical on every machine and for every game, generalized decks included:

1. Random numbers: the Mersenne Twister of :mod:`patience.rng` seeded exactly like C++
   ``std::mt19937(seed)``, seed ``0 <= seed < 2**32``.
2. Deck: ``Deck(suits, ranks, decks).cards()``, i.e. for each copy of the deck, suits C D H S (0..S-1),
   and within a suit ranks A..K (1..R).
3. Shuffle: :func:`patience.rng.shuffle_mt`: for ``i = n-1`` down to ``1``: draw
   ``r = next() // (2**32 // (i+1))`` again until ``r <= i``, then swap cards ``i`` and ``r``.
4. Deal the shuffled sequence with :func:`layout_from_order`, which takes the cards from the front:

   a. the hole start cards (``foundations.start``) are taken out of the sequence (first copy of each);
   b. ``foundations.initial == "aces"``: every ace is taken out onto the foundations, foundation
      ``deck * suits + suit`` (suit order C D H S); ``"one"`` (a dealt base, Canfield): the first card
      goes to the foundation of its suit;
   c. ``foundations.start_dealt``: the next card goes onto each hole, hole 0 first;
   d. ``cells.prefilled``: the next cards go to cells 0..k-1 (the other cells stay empty);
   e. ``reserve.size`` cards, then ``stock.size`` cards, each listed bottom to top in dealing order
      (the first card dealt is the bottom one; the last is the top, played or drawn first);
   f. the tableau: deal ``"even"`` gives card ``t`` to pile ``t mod P`` (round robin);
      with ``deck.dealt`` only the cards it needs are dealt and the rest are set aside;
      ``"triangle"`` and ``"sizes"`` fill pile 0 bottom to top, then pile 1, and so on;
   g. Gaps games (``gaps.rows > 0``) have no tableau: card ``t`` goes to row ``t mod rows``, each row
      filled left to right, and aces become gaps (``None``).

``pysol`` -- the boards PySol (and black-hole-solver, fc-solve) use for a game number, rendered by the
``pysol-cards`` package (numbers up to 32000 use the Microsoft LC shuffle, larger ones PySol's 64-bit LC
shuffle). Needs the model's ``pysol_name``; a board whose shape differs from our rules raises DealError.

``ms`` -- Microsoft FreeCell deal numbers 1..2**33-1 (the classic LCG, with the fc-solve extension above
2**31), for games dealing the whole standard deck round robin to 8 piles (FreeCell, Baker's Game, ...).

``solvitaire`` -- the deal Solvitaire 0.10.1 makes for ``--random SEED``: the same Mersenne Twister and
shuffle (Boost's ``uniform_int_distribution`` draws exactly as step 3), a deck ordered by rank 1..13 and
within a rank by suit C H S D (then the second deck), and cards dealt from the back of the deck: hole card
taken out, aces to the foundations, then cells, stock, reserve, Gaps rows (card ``t`` to row ``t mod
rows``), its accordion (one card a pile, left to right: our row of tableau piles; ``deck.dealt`` cards
only) and the tableau (round robin, or Solvitaire's diagonal deal when our pile sizes are not those of
a round robin; see :func:`_solvitaire_tableau`). A random foundation base (Canfield) is the front card.
Suits keep their letters, except where the rules give a suit's *number* a meaning: in the Gaps basic
variant row r takes suit number r, so Solvitaire's suit number k becomes our suit number k (see
:func:`solvitaire_suits`) and the deal is the puzzle Solvitaire solves, not only the same cards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .cards import Card, Deck, parse_card
from .instance import Instance, InstanceError, Layout, hole_start_cards
from .rng import shuffle_mt
from .rules import Game, RuleError, RuleSet, load_game

__all__ = [
    "BASE",
    "MS",
    "PORTABLE",
    "PYSOL",
    "SOLVITAIRE",
    "SOLVITAIRE_SUITS",
    "DealError",
    "Generator",
    "check_seed",
    "from_solvitaire_suit",
    "layout_from_order",
    "load",
    "portable_order",
    "solvitaire_suits",
    "to_solvitaire_suit",
]

U32 = 2**32
_MS_MAX = 2**33 - 1
_PYSOL_MAX = 2**64 - 1


class DealError(ValueError):
    """A deal that cannot be made: unknown generator, game it does not know, or a bad seed."""


def check_seed(seed: Any, low: int, high: int, generator: str) -> int:
    """Seeds are plain integers within the generator's range."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise DealError(f"seed must be an integer, got {seed!r}")
    if not low <= seed <= high:
        raise DealError(f"seed {seed} out of range for the {generator} generator ({low}..{high})")
    return seed


def load(game: str, overrides: dict[str, Any] | None) -> Game:
    """The game with its overrides applied; a bad name or override is a DealError."""
    try:
        return load_game(game, overrides)
    except RuleError as err:
        raise DealError(str(err)) from None


@dataclass(frozen=True)
class Generator:
    """A named way to deal a game from a seed: one entry of :data:`patience.deals.REGISTRY`.

    A plain generator has a ``layout`` for a loaded game and a seed; an instance family
    (:mod:`patience.families`) has ``family_deal(game, seed, name, overrides, swaps)`` instead and takes
    random card swaps after a colon (``planted:8``).
    """

    name: str
    summary: str
    seeds: tuple[int, int]  # the seeds it takes, both ends included
    problem: Callable[[Game], str | None]  # why it cannot deal a game (the DealError), None when it can
    layout: Callable[[Game, int], Layout] | None = None
    family_deal: Callable[[str, int, str, dict[str, Any] | None, int], Instance] | None = None

    @property
    def is_family(self) -> bool:
        """An instance family: takes ``:SWAPS``."""
        return self.family_deal is not None

    def deal(self, game: str, seed: int, overrides: dict[str, Any] | None = None, swaps: int = 0) -> Instance:
        """Deal ``game`` number ``seed``: load the rules, check the seed and the game, lay out, validate."""
        if self.family_deal is not None:
            return self.family_deal(game, seed, self.name, overrides, swaps)
        assert self.layout is not None and swaps == 0, f"{self.name}: a plain generator makes no swaps"
        g = load(game, overrides)
        check_seed(seed, *self.seeds, self.name)
        why = self.problem(g)
        if why:
            raise DealError(why)
        layout = self.layout(g, seed)
        try:
            # The overrides come from g itself (build records g.overrides): not computed twice.
            return Instance.build(g, layout, source={"generator": self.name, "seed": seed})
        except InstanceError as err:
            raise DealError(f"the {self.name} deal does not fit the rules of {g.name}: {err}") from None


# The generic deal ---------------------------------------------------------------------------------
def _take(seq: list[Card], card: Card, what: str) -> Card:
    """Remove the first copy of ``card`` from ``seq``."""
    try:
        seq.remove(card)
    except ValueError:
        raise DealError(f"{what}: card {card} is not in the deck") from None
    return card


def _deal_tableau(rules: RuleSet, seq: list[Card], round_robin: bool) -> tuple[tuple[Card, ...], ...]:
    """Deal ``seq`` to the tableau: round robin, or pile by pile to the rules' pile sizes."""
    sizes = rules.tableau_sizes()
    if sum(sizes) != len(seq):
        raise DealError(f"tableau needs {sum(sizes)} cards, {len(seq)} are left")
    piles: list[list[Card]] = [[] for _ in sizes]
    if round_robin:
        for t, c in enumerate(seq):
            piles[t % len(piles)].append(c)
    else:
        it = iter(seq)
        for pile, n in zip(piles, sizes, strict=True):
            pile.extend(next(it) for _ in range(n))
    return tuple(tuple(p) for p in piles)


def layout_from_order(rules: RuleSet, cards: list[Card]) -> Layout:
    """Deal a card sequence into a layout with the generic algorithm of the module docstring (4a-4g)."""
    d = rules.deck
    seq = list(cards)
    if rules.gaps.rows:
        rows: list[list[Card | None]] = [[] for _ in range(rules.gaps.rows)]
        for t, c in enumerate(seq):
            rows[t % rules.gaps.rows].append(None if c.rank == 1 else c)
        return Layout(grid=tuple(tuple(r) for r in rows))
    f = rules.foundations
    nf = rules.n_foundations
    foundations: list[list[Card]] = [[] for _ in range(nf)]
    if f.kind == "hole":
        for i, c in enumerate(hole_start_cards(rules)):
            foundations[i].append(_take(seq, c, f"foundations.start[{i}]"))
    if f.initial == "aces":
        for k in range(d.decks):
            for s in range(d.suits):
                foundations[k * d.suits + s].append(_take(seq, Card(1, s), "foundations"))
    elif f.initial == "one" and f.kind != "hole":
        base = seq.pop(0)
        foundations[base.suit].append(base)
    if f.kind == "hole" and f.start_dealt:
        for pile in foundations:
            pile.append(seq.pop(0))
    cells: list[Card | None] = [None] * rules.cells.count
    for i in range(rules.cells.prefilled):
        cells[i] = seq.pop(0)
    reserve = [seq.pop(0) for _ in range(rules.reserve.size)]
    stock = [seq.pop(0) for _ in range(rules.stock.size)]
    if d.dealt:  # the rest of the deck is set aside
        del seq[rules.tableau_cards :]
    tableau = _deal_tableau(rules, seq, rules.tableau.deal == "even")
    return Layout(
        tableau=tableau,
        foundations=tuple(tuple(p) for p in foundations),
        cells=tuple(cells),
        reserve=tuple(reserve),
        stock=tuple(stock),
    )


def portable_order(rules: RuleSet, seed: int) -> list[Card]:
    """The portable generator's shuffled deck for ``seed`` (before dealing)."""
    d = rules.deck
    return shuffle_mt(Deck(d.suits, d.ranks, d.decks).cards(), seed)


# Solvitaire ---------------------------------------------------------------------------------------
SOLVITAIRE_SUITS = (0, 2, 3, 1)  # Solvitaire's suit numbers C H S D as our suit numbers


def solvitaire_suits(rules: RuleSet) -> tuple[int, ...]:
    """Our suit number for each of Solvitaire's suit numbers 0..3 (its C H S D) in a deal of ``rules``.

    Normally a suit keeps its letter (:data:`SOLVITAIRE_SUITS`). In the Gaps basic variant
    (``gaps.first_column == "fixed-suit"``) row r takes the 2 of suit *number* r, ours C D H S and
    Solvitaire's C H S D (its legal_moves.cpp compares the suit number with the row), so there suit
    number k stays k: Solvitaire's hearts are our diamonds, and the deal is the same puzzle. Suits mean
    nothing else in Gaps, so the relabelled deal is isomorphic to the one with Solvitaire's letters.
    """
    if rules.gaps.rows and rules.gaps.first_column == "fixed-suit":
        return (0, 1, 2, 3)
    return SOLVITAIRE_SUITS


def to_solvitaire_suit(rules: RuleSet, suit: int) -> int:
    """The suit (our number) whose letter Solvitaire must be shown for our card of suit ``suit``."""
    return SOLVITAIRE_SUITS[solvitaire_suits(rules).index(suit)]


def from_solvitaire_suit(rules: RuleSet, suit: int) -> int:
    """Our suit for a Solvitaire card read letter for letter as our suit ``suit`` (inverse of the above)."""
    return solvitaire_suits(rules)[SOLVITAIRE_SUITS.index(suit)]


def _solvitaire_layout(rules: RuleSet, seed: int) -> Layout:
    """Reproduce Solvitaire 0.10.1's ``game_state(rules, seed)`` deal (game_state.cpp) as our layout."""
    d = rules.deck
    suits = solvitaire_suits(rules)
    deck = [Card(rank, suits[s]) for _ in range(d.decks) for rank in range(1, d.ranks + 1) for s in range(4)]
    deck = shuffle_mt(deck, seed)
    f = rules.foundations
    foundations: list[list[Card]] = [[] for _ in range(rules.n_foundations)]
    if f.kind == "hole":
        if f.start_dealt:
            for pile in foundations:
                pile.append(deck.pop(0))  # Solvitaire's random hole base is the front card
        else:
            for i, c in enumerate(hole_start_cards(rules)):
                foundations[i].append(_take(deck, c, f"foundations.start[{i}]"))
    if f.initial == "aces":
        for k in range(d.decks):
            for s in range(4):
                foundations[k * 4 + s].append(_take(deck, Card(1, s), "foundations"))
    elif f.initial == "one":
        base = deck.pop(0)  # a random base: Solvitaire takes the front card
        foundations[base.suit].append(base)
    seq = deck[::-1]  # Solvitaire deals from the back of the deck
    cells: list[Card | None] = [None] * rules.cells.count
    for i in range(rules.cells.prefilled):
        cells[i] = seq.pop(0)
    stock = [seq.pop(0) for _ in range(rules.stock.size)]
    reserve = [seq.pop(0) for _ in range(rules.reserve.size)]
    if d.dealt:  # Solvitaire's accordion takes the cards it needs; the rest stay in the deck
        del seq[rules.tableau_cards :]
    if rules.gaps.rows:
        rows: list[list[Card | None]] = [[] for _ in range(rules.gaps.rows)]
        for t, c in enumerate(seq):
            rows[t % rules.gaps.rows].append(None if c.rank == 1 else c)
        return Layout(grid=tuple(tuple(r) for r in rows))
    tableau = _solvitaire_tableau(rules, seq)
    return Layout(
        tableau=tableau,
        foundations=tuple(tuple(p) for p in foundations),
        cells=tuple(cells),
        reserve=tuple(reserve),
        stock=tuple(stock),
    )


def _solvitaire_tableau(rules: RuleSet, seq: list[Card]) -> tuple[tuple[Card, ...], ...]:
    """Solvitaire's tableau deal: round robin, or its diagonal deal when our pile sizes call for one.

    The diagonal deal walks t = 0, 1, ...: pile ``p = t mod P`` of row ``r = t div P``; while ``r < P``
    the pile is ``P-1-p`` and gets the next card only when ``P-1-p >= r``; later rows are round robin.
    Solvitaire lists piles in its own (sorted) order, so its pile order is mapped onto ours: the diagonal
    piles are reversed when our rules list the sizes the other way round (Simple Simon's 8,8,8,7,..,1).
    """
    n = rules.tableau.piles
    sizes = rules.tableau_sizes()
    if sizes == _even_sizes(len(seq), n):
        return _deal_tableau(rules, seq, True)
    piles: list[list[Card]] = [[] for _ in range(n)]
    it, t, left = iter(seq), 0, len(seq)
    while left:
        p, row = t % n, t // n
        if row < n:
            p = n - 1 - p
            if p >= row:
                piles[p].append(next(it))
                left -= 1
        else:
            piles[p].append(next(it))
            left -= 1
        t += 1
    got = tuple(len(p) for p in piles)
    if got == sizes:
        return tuple(tuple(p) for p in piles)
    if got[::-1] == sizes:
        return tuple(tuple(p) for p in reversed(piles))
    raise DealError(f"solvitaire deals piles of {list(got)} cards; these rules need {list(sizes)}")


def _even_sizes(n: int, piles: int) -> tuple[int, ...]:
    """Pile sizes of a round-robin deal of ``n`` cards to ``piles`` piles."""
    q, r = divmod(n, piles)
    return tuple(q + (1 if i < r else 0) for i in range(piles))


# PySol and Microsoft deals ------------------------------------------------------------------------
def _pysol_board(pysol_name: str, seed: int, which: int) -> str:
    """PySol's board text for a game number, from pysol-cards (``T`` for ten)."""
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game as PysolGame

    return PysolGame(pysol_name, seed, which).calc_layout_string(CardRenderer(True))


def _pysol_decks(pysol_name: str) -> int:
    """How many decks pysol-cards deals for a game."""
    from pysol_cards.deal_game import Game as PysolGame

    return PysolGame(pysol_name, 1, 0).get_num_decks()


def _pysol_class(pysol_name: str) -> str:
    """The dealing routine pysol-cards uses for a game (``seahaven`` for ``seahaven_towers``)."""
    from pysol_cards.deal_game import Game as PysolGame

    return PysolGame.GAMES_MAP.get(pysol_name, "")


def _parse_pysol_board(text: str, rules: RuleSet, name: str) -> Layout:
    """Map pysol-cards' board text (Talon/Foundations/Freecells lines, then piles) onto our layout."""
    talon: list[Card] = []
    found_cards: list[Card] = []
    cells: list[Card | None] = []
    piles: list[tuple[Card, ...]] = []

    def card(tok: str) -> Card:
        return parse_card(tok.strip("<>"))

    for line in text.splitlines():
        if line.startswith("Talon:"):
            talon = [card(t) for t in line[6:].split()]
        elif line.startswith("Foundations:"):
            for tok in line[12:].split():
                if tok == "-":
                    continue
                if "-" in tok:  # "S-A" style: the suit's foundation up to that rank
                    s, r = tok.split("-")
                    top = parse_card(r + s)
                    found_cards.extend(Card(k, top.suit) for k in range(1, top.rank + 1))
                else:
                    found_cards.append(card(tok))
        elif line.startswith("Freecells:"):
            cells = [None if t == "-" else card(t) for t in line[10:].split()]
        else:
            piles.append(tuple(card(t) for t in line.split()))
    f = rules.foundations
    foundations: list[list[Card]] = [[] for _ in range(rules.n_foundations)]
    if f.kind == "hole":
        if len(found_cards) > len(foundations):
            raise DealError(f"pysol {name}: {len(found_cards)} hole cards, our rules have {len(foundations)}")
        for i, c in enumerate(found_cards):
            foundations[i].append(c)
    else:
        for c in found_cards:
            k = c.suit
            while k < len(foundations) and foundations[k] and foundations[k][-1].rank >= c.rank:
                k += rules.deck.suits
            if k >= len(foundations):
                raise DealError(f"pysol {name}: no foundation for {c}")
            foundations[k].append(c)
    if len(cells) > rules.cells.count:
        raise DealError(f"pysol {name}: {len(cells)} free cells, our rules have {rules.cells.count}")
    if _pysol_class(name) == "seahaven" and len(cells) == 3:  # PySol fills the middle two of 4 cells
        cells.append(None)
    cells += [None] * (rules.cells.count - len(cells))
    return Layout(
        tableau=tuple(piles),
        foundations=tuple(tuple(p) for p in foundations),
        cells=tuple(cells),
        stock=tuple(reversed(talon)),  # the talon line lists the next card to deal first
    )


def _standard_problem(rules: RuleSet, generator: str, decks: int = 1) -> str | None:
    """PySol and MS deal only standard 52-card decks."""
    d = rules.deck
    if (d.suits, d.ranks, d.decks) != (4, 13, decks):
        return (
            f"the {generator} generator deals {decks} standard 52-card deck(s), not "
            f"{d.suits} suits x {d.ranks} ranks x {d.decks}; use --generator portable"
        )
    return None


def _ms_layout(g: Game, seed: int) -> Layout:
    """Microsoft FreeCell deal ``seed`` for rules that deal the 52 cards round robin to 8 piles."""
    from pysol_cards.random_base import RandomBase

    return layout_from_order(g.rules, _ms_order(seed, RandomBase.DEALS_MS))


_PYSOL_SUITS = (0, 3, 2, 1)  # our suit of pysol-cards' suit (its order is C S H D, ours C D H S)


def _ms_order(seed: int, which: int) -> list[Card]:
    """The order in which pysol-cards' FreeCell board deals the 52 cards round robin to its 8 columns
    (what :func:`_columns_to_order` reads back from the board text): its shuffle of the deck, reversed,
    as ``Game.deal`` does. Taken from the shuffle, not the board: rendering and parsing the text was 35
    of a deal's 135 us (tests compare the two)."""
    from pysol_cards.cards import createCards
    from pysol_cards.random import shuffle

    cards = shuffle(createCards(1, 13), seed, which)
    cards.reverse()
    return [_MS_CARDS[c.suit * 13 + c.rank - 1] for c in cards]


# Our Card of pysol-cards' suit s, rank r at s * 13 + r - 1 (Cards are immutable: every deal shares them).
_MS_CARDS = tuple(Card(r, _PYSOL_SUITS[s]) for s in range(4) for r in range(1, 14))


def _columns_to_order(text: str, piles: int) -> list[Card]:
    """Read round-robin-dealt columns back into the dealing order."""
    cols = [[parse_card(tok) for tok in line.split()] for line in text.splitlines() if line.strip()]
    if len(cols) != piles:
        raise DealError(f"expected {piles} piles, got {len(cols)}")
    n = sum(map(len, cols))
    return [cols[t % piles][t // piles] for t in range(n)]


# The registry entries -----------------------------------------------------------------------------
def _solvitaire_problem(g: Game) -> str | None:
    if not g.file.solvitaire_name:
        return f"the solvitaire generator does not know {g.name} (no solvitaire_name)"
    d = g.rules.deck
    if d.suits != 4 or d.ranks > 13 or d.decks > 2:
        return (
            f"the solvitaire generator deals 1 or 2 decks of 4 suits and up to 13 ranks, not "
            f"{d.suits} suits x {d.ranks} ranks x {d.decks}; use --generator portable"
        )
    return None


def _pysol_problem(g: Game) -> str | None:
    name = g.file.pysol_name
    if not name:
        return f"the pysol generator does not know {g.name} (no pysol_name)"
    if not _pysol_class(name):
        return f"pysol-cards does not deal {name!r} (the pysol_name of {g.name})"
    return _standard_problem(g.rules, "pysol", _pysol_decks(name))


def _pysol_layout(g: Game, seed: int) -> Layout:
    from pysol_cards.random_base import RandomBase

    name = g.file.pysol_name
    return _parse_pysol_board(_pysol_board(name, seed, RandomBase.DEALS_PYSOL), g.rules, name)


def _ms_problem(g: Game) -> str | None:
    rules, t = g.rules, g.rules.tableau
    shape = t.piles == 8 and t.deal == "even" and not rules.gaps.rows
    why = _standard_problem(rules, "ms") if shape else None
    if why is None and (not shape or rules.tableau_cards != 52):
        why = f"the ms generator deals 8 even piles of 52 cards; {g.name} does not"
    return why


PORTABLE = Generator(
    "portable",
    "Mersenne Twister shuffle of the canonical deck, same deal on every machine (any game)",
    (0, U32 - 1),
    lambda g: None,
    lambda g, seed: layout_from_order(g.rules, portable_order(g.rules, seed)),
)
PYSOL = Generator(
    "pysol",
    "PySol's board for a game number (games with a pysol_name, standard decks)",
    (1, _PYSOL_MAX),
    _pysol_problem,
    _pysol_layout,
)
MS = Generator(
    "ms",
    "Microsoft FreeCell deal numbers 1..2^33-1 (8 even piles of the 52-card deck)",
    (1, _MS_MAX),
    _ms_problem,
    _ms_layout,
)
SOLVITAIRE = Generator(
    "solvitaire",
    "the deal of Solvitaire's --random SEED (games Solvitaire knows)",
    (0, U32 - 1),
    _solvitaire_problem,
    lambda g, seed: _solvitaire_layout(g.rules, seed),
)
BASE = (PORTABLE, PYSOL, MS, SOLVITAIRE)  # the plain generators, in the order the CLI lists them
