"""Constructed full-size deals whose loss is plain to see, for games whose lost deals are too rare to find
by seed (published win rates of 97-99.9 %).

Each construction but the Gaps one places the cards so that, before any card has been built or played
home, no card can be built or played home: the only legal moves are parking cards in free cells and
dealing the stock, and after those nothing moves, so the game is lost. The argument is in each function's
docstring. Gaps redeals lay cards out in a pseudo-random order, so no deal's loss is plain there:
:func:`gaps_rows` makes near-complete deals whose whole game tree is small instead. Nothing here decides
a verdict: ``build_matrix.py`` (``--construct``) runs the constructed deal through dfs and a second
means (Solvitaire on the deal given as its JSON, or planning's complete search) like any deal and records
it only when they agree.

``construct(game, k)`` picks the construction the game's rules allow (by rule features, not by name) and
returns its variant ``k`` (only Gaps has more than variant 0) with one line saying how it was made;
:class:`ConstructError` says why none fits.

The "depth" of a card is the number of cards above it in its pile (a top card has depth 0). Cards are
chosen from pools in a fixed order (rank, then suit C D H S, then deck copy), pile by pile bottom to top,
skipping a card that would lie directly on its successor (rank one higher), so no pile holds a built pair
that could move as a group.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from patience.cards import Card, Deck
from patience.instance import Instance, Layout, hole_start_cards
from patience.rng import shuffle_mt
from patience.rules import RuleSet, load_game

ODD_NOTE = "odd ranks 3, 5, ..., K"
EVEN_NOTE = "even ranks 2, 4, ..., Q"


class ConstructError(Exception):
    """No construction fits the game's rules; the message says why."""


def _deck(rules: RuleSet) -> list[Card]:
    d = rules.deck
    return sorted(Deck(d.suits, d.ranks, d.decks).cards(), key=lambda c: (c.rank, c.suit))


def _fill(columns: list[list[str]], pools: dict[str, list[Card]]) -> list[list[Card]]:
    """Give each slot (a pool name, columns listed bottom to top) a card of its pool that is not the
    predecessor of the card below it: the first such card of the rank the pool holds most of (so no rank
    is left over to the end); every pool must be used up exactly."""
    out: list[list[Card]] = []
    for col in columns:
        pile: list[Card] = []
        for name in col:
            pool = pools[name]
            below = pile[-1].rank if pile else None
            fits = [i for i, c in enumerate(pool) if c.rank + 1 != below]
            if not fits:
                raise ConstructError(f"no card of pool {name!r} fits on rank {below}")
            count = Counter(c.rank for c in pool)
            pick = min(fits, key=lambda i: (-count[pool[i].rank], i))
            pile.append(pool.pop(pick))
        out.append(pile)
    left = {n: len(p) for n, p in pools.items() if p}
    if left:
        raise ConstructError(f"cards left over: {left}")
    return out


def _check_standard(rules: RuleSet) -> None:
    d = rules.deck
    if (d.suits, d.ranks) != (4, 13) or rules.gaps.rows or rules.reserve.size:
        raise ConstructError("needs a standard deck, a tableau, no Gaps grid and no reserve")
    f = rules.foundations
    if f.kind != "hole" and (f.initial != "none" or f.base != "ace"):
        raise ConstructError("needs empty foundations built from the Ace")


def _one_variant(k: int) -> None:
    if k:
        raise ConstructError(f"variant {k}: this construction has only variant 0")


def parity(rules: RuleSet, k: int = 0) -> tuple[Layout, str]:
    """Tableau building down regardless of suit (Spider family, Spanish Patience, Stronghold).

    With ``c`` free cells and no stock, the top ``c + 1`` cards of every pile get non-Ace odd ranks:
    until something is built or played home, at most ``c`` cards have left the tableau, so every card
    that is on top or in a cell is one of them. Two odd ranks are never adjacent, so none builds on
    another, and no Ace is in reach, so no foundation takes a card; a card in a cell can only go back by
    building (no pile can empty: each holds more than ``c`` cards). With a stock dealing one card to each
    pile (and no cells), the cards on top between two deals (the tops, then each deal together with the
    tops it leaves uncovered) share one parity, odd and even in turn, never an Ace: nothing ever moves
    but the stock, and when it is dealt out the game is lost.
    """
    _check_standard(rules)
    t, s, c = rules.tableau, rules.stock, rules.cells
    if t.build != "any-suit" or t.direction != "down" or t.wrap or t.group_moves == "whole-pile":
        raise ConstructError("needs building down regardless of suit, without wrap or whole-pile moves")
    if rules.foundations.kind not in ("suits", "runs") or c.prefilled:
        raise ConstructError("needs suit or run foundations and no prefilled cells")
    if s.size and (s.deal_to != "tableau" or c.count):
        raise ConstructError("needs a stock dealing to the tableau and no cells, or no stock")
    _one_variant(k)
    sizes = rules.tableau_sizes()
    if min(sizes) <= c.count:
        raise ConstructError("needs every pile deeper than the number of cells")
    n = len(sizes)
    columns = [["hidden"] * (k - 1) + ["odd"] for k in sizes]
    if not s.size:
        columns = [["hidden"] * (k - c.count - 1) + ["odd"] * (c.count + 1) for k in sizes]
    deals, left, stage = [], s.size, "odd"
    while left:
        m = min(n, left)
        stage = stage if m < n else ("even" if stage == "odd" else "odd")  # a part deal keeps the stage
        deals.append(m)
        for i in range(m):
            columns[i].append(stage)
        left -= m
    need = {p: sum(col.count(p) for col in columns) for p in ("odd", "even")}
    deck = _deck(rules)
    odd = [x for x in deck if x.rank > 1 and x.rank % 2]
    even = [x for x in deck if x.rank % 2 == 0]
    if need["odd"] > len(odd) or need["even"] > len(even):
        raise ConstructError(f"needs {need} visible cards, the deck has {len(odd)} odd and {len(even)} even")
    pools = {"odd": odd[: need["odd"]], "even": even[: need["even"]]}
    hidden = list(deck)  # the rest; remove() drops one copy each (two-deck games hold equal cards)
    for x in pools["odd"] + pools["even"]:
        hidden.remove(x)
    pools["hidden"] = hidden
    piles = _fill(columns, pools)
    tableau = tuple(tuple(p[:k]) for p, k in zip(piles, sizes, strict=True))
    dealt: list[Card] = []  # in the order the stock deals them: deal 1 to piles 0.., deal 2, ...
    for d, m in enumerate(deals):
        dealt += [piles[i][sizes[i] + d] for i in range(m)]
    layout = Layout(
        tableau=tableau,
        foundations=tuple(() for _ in range(rules.n_foundations)),
        cells=(None,) * c.count,
        stock=tuple(reversed(dealt)),  # listed bottom to top: the top card is dealt first
    )
    if s.size:
        how = (
            f"parity construction: the top cards and each stock deal get {ODD_NOTE} and {EVEN_NOTE} in "
            "turn (a part deal keeps the parity of the tops it leaves), the Aces lie under the tops, so "
            "only the stock ever moves"
        )
    else:
        tops = (
            "the top card of every pile has an odd rank 3, 5, ..., K"
            if not c.count
            else f"the top {c.count + 1} cards of every pile have {ODD_NOTE}"
        )
        cells = f" with {c.count} free cell{'s' * (c.count > 1)}" if c.count else ""
        how = (
            f"parity construction: {tops} (the Aces lie below), so{cells} no card can ever be built or "
            "played home"
        )
    return layout, how


def suit_layers(rules: RuleSet, k: int = 0) -> tuple[Layout, str]:
    """Building down in suit with two free cells (Seahaven Towers: two of four cells dealt to).

    Until something is built or played home at most two cards have left the tableau, so a card that can
    move lies at depth d <= 2 (or in a cell), and the card it would go on lies at depth e in another pile
    with d + e <= 2 (counting a card taken to a cell as one removal). The layers: the tops and the dealt
    cells hold Spades and Hearts of odd rank 3..K, depth 1 Clubs and Diamonds of odd rank, depth 2 Clubs
    and Diamonds of even rank, the Aces deeper. Within a layer of one parity no card is its suit's
    successor of another; across the layers that can meet (tops and cells with every layer, depth 1 with
    depth 1) the suits differ. So nothing builds, no Ace comes into reach, and (no pile can empty) a cell
    card never returns: only parking moves exist.
    """
    _check_standard(rules)
    t, c = rules.tableau, rules.cells
    if t.build != "same-suit" or t.direction != "down" or t.wrap or t.group_moves == "whole-pile":
        raise ConstructError("needs building down in suit, without wrap or whole-pile moves")
    if rules.foundations.kind != "suits" or rules.stock.size or c.count - c.prefilled != 2:
        raise ConstructError("needs suit foundations, no stock and exactly two free cells")
    _one_variant(k)
    sizes = rules.tableau_sizes()
    if min(sizes) < 4 or len(sizes) + c.prefilled > 12 or len(sizes) > 12:
        raise ConstructError("needs at most 12 piles of at least 4 cards, tops and dealt cells at most 12")
    deck = _deck(rules)
    red_black = [x for x in deck if x.suit in (2, 3) and x.rank > 1 and x.rank % 2]  # H S, odd
    cd_odd = [x for x in deck if x.suit in (0, 1) and x.rank > 1 and x.rank % 2]
    cd_even = [x for x in deck if x.suit in (0, 1) and x.rank % 2 == 0]
    n = len(sizes)
    cells = red_black[n : n + c.prefilled]
    pools = {"top": red_black[:n], "d1": cd_odd[:n], "d2": cd_even[:n]}
    used = cells + [x for p in pools.values() for x in p]
    pools["hidden"] = [x for x in deck if x not in used]  # one deck: every card is unique
    piles = _fill([["hidden"] * (k - 3) + ["d2", "d1", "top"] for k in sizes], pools)
    layout = Layout(
        tableau=tuple(tuple(p) for p in piles),
        foundations=tuple(() for _ in range(rules.n_foundations)),
        cells=tuple(cells) + (None,) * (c.count - c.prefilled),
    )
    how = (
        "suit-layer construction: tops and dealt cells Spades/Hearts of odd rank, depth 1 Clubs/Diamonds of "
        "odd rank, depth 2 Clubs/Diamonds of even rank, Aces deeper, so with two free cells no card can "
        "ever be built or played home"
    )
    return layout, how


def hole_depth(rules: RuleSet, k: int = 0) -> tuple[Layout, str]:
    """A hole game without building, with ``c`` cells (Worm Hole): the eight cards one rank above or below
    the hole's start card lie at depth c + 1 or deeper. Until a card goes to the hole at most ``c`` cards
    have left the tableau (to the cells, from where they can only go to the hole), so every card on top or
    in a cell lies at depth <= c: none fits on the hole, and after the parking moves nothing moves."""
    _check_standard(rules)
    f, t, c = rules.foundations, rules.tableau, rules.cells
    if f.kind != "hole" or f.count != 1 or len(f.start) != 1 or t.build != "none" or rules.stock.size:
        raise ConstructError("needs one hole with a start card, no building and no stock")
    _one_variant(k)
    start = hole_start_cards(rules)[0]
    near = (
        {(start.rank % 13) + 1, ((start.rank - 2) % 13) + 1} if f.wrap else {start.rank - 1, start.rank + 1}
    )
    deck = _deck(rules)
    deck.remove(start)
    sizes = rules.tableau_sizes()
    slots = sum(max(0, k - c.count - 1) for k in sizes)
    deep = [x for x in deck if x.rank in near]
    if slots < len(deep):
        raise ConstructError(f"{len(deep)} cards must lie deeper than {c.count}, only {slots} places do")
    columns, free = [], len(deep)  # the deep cards take the deepest places of the first piles
    for k in sizes:
        m = min(free, max(0, k - c.count - 1))
        columns.append(["deep"] * m + ["any"] * (k - m))
        free -= m
    pools = {"deep": deep, "any": [x for x in deck if x.rank not in near]}
    piles = _fill(columns, pools)
    layout = Layout(
        tableau=tuple(tuple(p) for p in piles),
        foundations=((start,),),
        cells=(None,) * c.count,
    )
    how = (
        f"hole-depth construction: the cards next in rank to the hole's {start} lie at the bottom of piles "
        f"(deeper than {c.count} free cell{'s' * (c.count != 1)} can reach), so no card ever reaches the hole"
    )
    return layout, how


GAPS_RUN = 7  # cards 2..8 in place at the left of every row


def gaps_rows(rules: RuleSet, k: int = 0) -> tuple[Layout, str]:
    """Gaps with the standard deck in four rows: a near-complete deal, variant ``k``.

    Row r holds 2..8 of suit r (C D H S; the suit the basic variant's row r takes) in columns 0-6, then
    four of the sixteen cards 9..Q in the order :func:`patience.rng.shuffle_mt` gives them for seed
    ``k``, then the King of suit r + 1 (mod 4) and a gap. Every gap lies right of a King, so nothing moves
    and the first move is a redeal (if any). The redeals lay the loose cards out in a pseudo-random order,
    so the verdict is not plain: it is whatever the complete searches find, but with 28 of the 48 cards in
    place the whole game tree is small (about a thousand nodes), so they find it fast. ``build_matrix``
    tries the variants 0, 1, ... in turn, as it tries seeds.
    """
    d, g = rules.deck, rules.gaps
    if (d.suits, d.ranks, d.decks) != (4, 13, 1) or g.rows != 4:
        raise ConstructError("needs a Gaps grid of four rows and the standard deck")
    loose = shuffle_mt([Card(r, s) for s in range(4) for r in range(GAPS_RUN + 2, 13)], k)
    n = 13 - GAPS_RUN - 2
    grid = tuple(
        tuple(
            [Card(r, s) for r in range(2, GAPS_RUN + 2)]
            + loose[s * n : (s + 1) * n]
            + [Card(13, (s + 1) % 4)]
        )
        + (None,)
        for s in range(4)
    )
    how = (
        f"near-complete construction, variant {k}: row r holds 2..8 of suit r (C D H S), four of the cards "
        f"9..Q in the order shuffle_mt gives them for seed {k}, the King of the next suit and a gap, so the "
        "first move is a redeal; the redeals are pseudo-random, so the loss is not plain but the game tree "
        "is small (variants are tried 0, 1, ... like seeds: the first both complete searches find lost)"
    )
    return Layout(grid=grid), how


# Spider with two decks: where each card of a planted win lies. Run i is the suit i mod 4 (copy i // 4),
# K..A; "r:i" is rank r of run i. Piles 0-9 bottom to top (the top card face up).
SPIDER_PLANT = (
    "3:2 4:2 5:2 6:2 7:2 13:0",
    "5:3 6:3 7:3 1:2 2:2 13:1",
    "3:4 4:4 5:4 6:4 7:4 13:2",
    "5:5 6:5 7:5 1:4 2:4 13:3",
    "6:6 7:6 1:5 2:5 13:4",
    "2:6 3:6 4:6 5:6 13:5",
    "1:7 2:7 3:7 4:7 13:6",
    "5:7 6:7 7:7 1:6 13:7",
    "2:3 3:3 4:3 1:0 2:0",
    "3:5 4:5 1:3 1:1 2:1",
)


def spider_planted(rules: RuleSet, k: int = 0) -> tuple[Layout, str]:
    """A won Spider deal with run foundations (the layout of :data:`SPIDER_PLANT`): ten piles
    (6, 6, 6, 6, 5, ...) and a 50-card stock dealt in five rounds, two decks.

    The Kings of the eight runs lie on top of piles 0-7, and the stock's round d (1-5) deals rank 13 - d
    of run i onto pile i and ranks d + 2 of runs 0 and 1 onto piles 8 and 9, so after the five rounds
    piles 0-7 hold K..8 of their run face up, and piles 8-9 hold 7..3 of runs 0 and 1 over their 2 and
    Ace. The rest is laid so that each run, in the order 0, 1, ..., 7, finds its next card on top of a
    pile once the runs before it are gone (run 6 takes its Ace from pile 7 after run 7's K..8 moves to a
    space). So: deal all five rounds, then build and clear runs 0-7 in turn. The win is the validator's
    replay; the solvers only have to find it.
    """
    d, t, s = rules.deck, rules.tableau, rules.stock
    shape = (d.suits, d.ranks, d.decks, rules.tableau_sizes(), s.size, s.deal_to, s.deal_count)
    if shape != (4, 13, 2, (6, 6, 6, 6, 5, 5, 5, 5, 5, 5), 50, "tableau", 1) or rules.cells.count:
        raise ConstructError("needs Spider's two decks, ten piles of 6/5 cards and a 50-card stock, no cells")
    if t.build != "any-suit" or t.group_moves != "same-suit" or t.empty != "any":
        raise ConstructError("needs building down regardless of suit, same-suit groups, any card to a space")
    if rules.foundations.kind != "runs":
        raise ConstructError("needs run foundations (single cards home make other wins)")
    _one_variant(k)

    def card(text: str) -> Card:
        r, i = map(int, text.split(":"))
        return Card(r, int(i) % 4)

    tableau = tuple(tuple(card(x) for x in pile.split()) for pile in SPIDER_PLANT)
    dealt = [
        card(f"{13 - r}:{i}") if i < 8 else card(f"{r + 2}:{i - 8}") for r in range(1, 6) for i in range(10)
    ]
    layout = Layout(
        tableau=tableau,
        foundations=tuple(() for _ in range(rules.n_foundations)),
        stock=tuple(reversed(dealt)),
    )
    how = (
        "planted win: the eight Kings on top of piles 0-7, the stock dealing Q..8 of each run onto its King, "
        "the rest laid so that the runs can be built and cleared in turn (the win is the validator's replay)"
    )
    return layout, how


def row_stuck(rules: RuleSet, k: int = 0) -> tuple[Layout, str]:
    """A row game (Accordion) whose row allows no move at all: card ``i`` of the row has suit ``i mod 4``
    (C D H S) and rank ``(i div 4 + 2 * (i mod 4)) mod 13 + 1``, so the 52 cards each appear once, and
    the cards 1, 2 or 3 places apart differ in suit (``i mod 4`` differs) and in rank (the rank steps are
    2, 4 and 6 within a group of four, 5, 3 and 1 across one, never 0 mod 13). Checked below for the
    rules' distances; a set-aside deal (``deck.dealt``) takes the first cards of the row, which keep it.
    With no legal move the deal is lost at once.
    """
    d, row = rules.deck, rules.row
    if not row.distances or (d.suits, d.ranks, d.decks) != (4, 13, 1):
        raise ConstructError("needs a row game (row.distances) with one standard deck")
    if not set(row.match) <= {"same-suit", "same-rank"}:
        raise ConstructError("needs row.match by suit and/or rank only")
    _one_variant(k)
    cards = [Card((i // 4 + 2 * (i % 4)) % 13 + 1, i % 4) for i in range(52)][: rules.tableau_cards]
    for i, c in enumerate(cards):
        for dist in row.distances:
            o = cards[i - dist] if i >= dist else None
            if o is not None and (o.suit == c.suit or o.rank == c.rank):
                raise ConstructError(f"cards {i - dist} and {i} of the row match {dist} places apart")
    layout = Layout(tableau=tuple((c,) for c in cards))
    how = (
        "row-stuck construction: card i of the row is of suit i mod 4 and rank (i div 4 + 2(i mod 4)) mod "
        "13 + 1, so no two cards 1, 2 or 3 places apart share a suit or a rank: no move at all"
    )
    return layout, how


def waste_lock(rules: RuleSet, k: int = 0) -> tuple[Layout, str]:
    """Fortune's Favor: Aces home, twelve one-card piles, a 36-card stock turned one at a time onto a
    waste with no redeal, building down in suit one card at a time, spaces filled from the waste (or the
    stock) at once.

    The tableau holds the K, 10 and 7 of every suit. The stock deals first the J, 8 and 5 of every suit,
    then the lock 3C 4D 3D 4H 3H 4S 3S 4C, then the Q, 9, 6 and 2 of every suit. A card leaves the waste
    only home, onto a tableau top of its suit one rank higher, or into a space; a space opens only when a
    one-card pile's card goes home or onto such a top. No 3 goes home before its 2, and the 2s come after
    the lock, so a 3 and the 4s above it stay in the waste unless a 5 becomes a top or a space opens. J, 8
    and 5 are dealt before the Q, 9 and 6 they would go on, so they lie under the lock for good: no J, 8 or
    5 ever becomes a top. So the 10s and 7s never move (their successors are never tops), the Kings never
    move, no suit gets past its 2, no pile empties, and the lock never opens: the game is lost.
    """
    d, t, f, s = rules.deck, rules.tableau, rules.foundations, rules.stock
    shape = (d.suits, d.ranks, d.decks, rules.tableau_sizes(), s.size, s.deal_to, s.deal_count, s.redeals)
    if shape != (4, 13, 1, (1,) * 12, 36, "waste", 1, 0):
        raise ConstructError("needs one standard deck, 12 one-card piles and a 36-card stock dealt singly")
    if f.kind != "suits" or f.initial != "aces" or f.removable or rules.cells.count or rules.reserve.size:
        raise ConstructError("needs the Aces home (no worrying back), no cells and no reserve")
    if t.build != "same-suit" or t.direction != "down" or t.wrap or t.group_moves != "none":
        raise ConstructError("needs single cards built down in suit, without wrap")
    _one_variant(k)
    suits = range(4)
    tableau = tuple((Card(r, su),) for r in (13, 10, 7) for su in suits)
    lock = [Card(3, 0), Card(4, 1), Card(3, 1), Card(4, 2), Card(3, 2), Card(4, 3), Card(3, 3), Card(4, 0)]
    dealt = [Card(r, su) for r in (11, 8, 5) for su in suits] + lock
    dealt += [Card(r, su) for r in (12, 9, 6, 2) for su in suits]
    layout = Layout(
        tableau=tableau,
        foundations=tuple((Card(1, su),) for su in suits),
        stock=tuple(reversed(dealt)),  # the stock's last card is dealt first
    )
    how = (
        "waste-lock construction: tableau K, 10, 7 of each suit; the stock deals J, 8, 5, then 3C 4D 3D 4H "
        "3H 4S 3S 4C, then Q, 9, 6, 2: the 3s and 4s lock in the waste and no pile ever empties"
    )
    return layout, how


CONSTRUCTIONS: tuple[Callable[[RuleSet, int], tuple[Layout, str]], ...] = (
    parity,
    suit_layers,
    hole_depth,
    gaps_rows,
    row_stuck,
    waste_lock,
)
WON_CONSTRUCTIONS: tuple[Callable[[RuleSet, int], tuple[Layout, str]], ...] = (spider_planted,)


def construct(game: str, k: int = 0, won: bool = False) -> tuple[Instance, str]:
    """Variant ``k`` of the game's constructed lost deal (``won``: won deal), from the first
    construction whose rules fit, and how it was made."""
    rules = load_game(game).rules
    why = []
    for make in WON_CONSTRUCTIONS if won else CONSTRUCTIONS:
        try:
            layout, how = make(rules, k)
        except ConstructError as err:
            why.append(f"{make.__name__}: {err}")
            continue
        inst = Instance.build(
            game, layout, source={"generator": "constructed", "construction": make.__name__}
        )
        return inst, how
    kind = "won" if won else "lost"
    raise ConstructError(f"{game}: no {kind} construction fits ({'; '.join(why)})")
