"""Importers and exporters between :class:`Instance` and the deal formats of other solvers.

* PySol / black-hole-solver board text (:func:`to_board_text`, :func:`from_board_text`): an optional
  ``Talon:`` line (next card to deal first), ``Foundations: AS`` (hole cards, ``-`` for an empty hole;
  suit foundations as ``H-5``), an optional ``Freecells:`` line (``-`` for an empty cell), then one line
  per pile, cards bottom to top, ``T`` for ten.
* fc-solve / Microsoft FreeCell board text (:func:`to_fcsolve`, :func:`from_fcsolve`): optional
  ``Foundations: H-0 C-A D-0 S-2`` and ``Freecells: 5C - -`` lines, then one line per pile, bottom to
  top, each optionally prefixed by ``:`` as fc-solve prints them. Both text readers accept both styles.
* Solvitaire JSON deals (:func:`to_solvitaire`, :func:`from_solvitaire`): ``tableau piles``,
  ``foundations`` (every foundation card; Solvitaire files them by suit), ``cells``, ``stock``, ``waste``,
  ``reserve``, ``hole``, and ``sequences`` for Gaps rows (``""`` for a gap); cards like ``10H``, piles
  bottom to top. The reader also takes Solvitaire's ``--deal-only`` output, where an empty pile is
  ``""``, a cell or foundation is a list, and a Gaps gap is the placeholder ``AS``. In the Gaps basic
  variant suits are relabelled both ways so that Solvitaire's fixed row suits are ours
  (:func:`patience.generators.solvitaire_suits`).
* A plain text layout for humans (:func:`to_text`), used by ``patience show``.
* Any of them by name or detected (:func:`read_deal`, :func:`write_deal`): a deal read from a file of
  unknown origin, as ``patience solve/show/validate/convert`` and :func:`patience.load` read one.

Malformed text raises :class:`InstanceError` naming the line and column (``line 3, col 7: bad card``);
a layout that does not fit the game's rules raises the instance validator's path-named error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from .cards import Card, CardError, Deck
from .generators import from_solvitaire_suit, to_solvitaire_suit
from .instance import Instance, InstanceError, Layout, parse_json
from .rules import RuleError, RuleSet, list_games, load_game

__all__ = [
    "HOME_GAMES",
    "INPUT_FORMATS",
    "OUTPUT_FORMATS",
    "detect_format",
    "from_board_text",
    "from_fcsolve",
    "from_solvitaire",
    "read_deal",
    "to_board_text",
    "to_fcsolve",
    "to_solvitaire",
    "to_text",
    "write_deal",
]

_HEADER = re.compile(r"^\s*([A-Za-z]{2,})\s*:")  # "Foundations:", "Talon:" ("AS:" is no header)
_FC_SUITS = "HCDS"  # fc-solve's order of suits on its Foundations line


# Shared helpers -----------------------------------------------------------------------------------
def _game(game: str, overrides: dict[str, Any] | None) -> tuple[RuleSet, Deck, Any]:
    """Load a game's rules and deck; a bad game or override is an InstanceError."""
    try:
        g = load_game(game, dict(overrides or {}))
    except RuleError as err:
        raise InstanceError(f"game/rules: {err}") from None
    d = g.rules.deck
    return g.rules, Deck(d.suits, d.ranks, d.decks), g


_TOKEN = re.compile(r"\S+")


def _tokens(line: str, start: int = 0) -> Iterator[tuple[int, str]]:
    """Whitespace-separated tokens of ``line[start:]`` with their 1-based column (a regex scan: a
    megabyte-long line costs milliseconds, not the seconds a character loop took)."""
    for m in _TOKEN.finditer(line, start):
        yield m.start() + 1, m.group()


def _card(deck: Deck, tok: str, where: str) -> Card:
    """Parse one card token, naming its position on error."""
    try:
        return deck.parse(tok)
    except CardError as err:
        raise InstanceError(f"{where}: {err}") from None


def _suit_foundation(deck: Deck, tok: str, where: str) -> list[Card]:
    """``H-5`` / ``S-0`` / ``C-A``: the cards of a suit foundation built up to that rank."""
    suit_text, _, rank_text = tok.partition("-")
    if len(suit_text) != 1 or suit_text.upper() not in "CDHS":
        raise InstanceError(f"{where}: bad foundation {tok!r}, expected e.g. H-5 or S-0")
    top = 0 if rank_text in ("0", "") else _card(deck, rank_text + suit_text, where).rank
    suit = "CDHS".index(suit_text.upper())
    return [Card(r, suit) for r in range(1, top + 1)]


def _file_foundation_cards(rules: RuleSet, cards: list[Card], where: str) -> list[list[Card]]:
    """Put foundation cards on their piles: holes in order, suit foundations by suit (then deck)."""
    piles: list[list[Card]] = [[] for _ in range(rules.n_foundations)]
    if rules.foundations.kind == "hole":
        for i, c in enumerate(cards):
            if i >= len(piles):
                raise InstanceError(f"{where}: {len(cards)} hole cards, the rules have {len(piles)} holes")
            piles[i].append(c)
        return piles
    suits = rules.deck.suits
    for c in cards:
        k = c.suit
        while k < len(piles) and piles[k] and piles[k][-1].rank >= c.rank:
            k += suits
        if k >= len(piles):
            raise InstanceError(f"{where}: no foundation for {c.text()}")
        piles[k].append(c)
    return piles


def _build(game: Any, layout: Layout, overrides: dict[str, Any] | None, fmt: str) -> Instance:
    """Validate the imported layout against the rules, prefixing errors with the format name."""
    try:
        return Instance.build(game, layout, dict(overrides or {}))
    except InstanceError as err:
        raise InstanceError(f"{fmt}: {err}") from None


# Board text (PySol, black-hole-solver, fc-solve) --------------------------------------------------
def _parse_board(text: str, game: str, overrides: dict[str, Any] | None, fmt: str) -> Instance:
    """Read PySol/black-hole-solver or fc-solve board text into an instance of ``game``."""
    rules, deck, g = _game(game, overrides)
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    talon: list[Card] = []
    found: list[Card] = []
    cells: list[Card | None] = []
    piles: list[tuple[Card, ...]] = []
    seen_header = {"talon": False, "foundations": False, "freecells": False}
    started = False
    for no, line in enumerate(lines, 1):
        stripped = line.strip()
        if not started and not stripped:
            continue
        if stripped.startswith("#"):
            continue
        m = _HEADER.match(line)
        head = m.group(1).lower() if m else ""
        where = f"{fmt} line {no}"
        if head in ("talon", "foundations", "founds", "freecells", "fc") and not piles:
            key = {"founds": "foundations", "fc": "freecells"}.get(head, head)
            if seen_header[key]:
                raise InstanceError(f"{where}: second {key.capitalize()} line")
            seen_header[key] = True
            start = line.index(":") + 1
            for col, tok in _tokens(line, start):
                pos = f"{where}, col {col}"
                if key == "talon":
                    talon.append(_card(deck, tok, pos))
                elif key == "freecells":
                    cells.append(None if tok.strip("-") == "" else _card(deck, tok, pos))
                elif tok == "-":
                    continue
                elif "-" in tok:
                    found.extend(_suit_foundation(deck, tok, pos))
                else:
                    found.append(_card(deck, tok, pos))
            continue
        if head:
            raise InstanceError(f"{where}, col 1: unknown header {head!r} (Talon, Foundations, Freecells)")
        started = True
        start = line.index(":") + 1 if stripped.startswith(":") else 0
        piles.append(tuple(_card(deck, tok, f"{where}, col {col}") for col, tok in _tokens(line, start)))
    if rules.gaps.rows:
        raise InstanceError(f"{fmt}: Gaps games have no board text format; use the instance JSON")
    if len(cells) > rules.cells.count:
        raise InstanceError(f"{fmt}: {len(cells)} free cells, the rules have {rules.cells.count}")
    cells += [None] * (rules.cells.count - len(cells))
    layout = Layout(
        tableau=tuple(piles),
        foundations=tuple(tuple(p) for p in _file_foundation_cards(rules, found, f"{fmt} Foundations")),
        cells=tuple(cells),
        stock=tuple(reversed(talon)),
    )
    return _build(g, layout, overrides, fmt)


def _pile_line(deck: Deck, cards: tuple[Card | None, ...] | list[Card | None]) -> str:
    """Cards separated by spaces, ``-`` for an empty place."""
    return " ".join("-" if c is None else deck.text(c) for c in cards)


def _no_grid(inst: Instance, fmt: str) -> None:
    """Board text has no place for Gaps grids, reserves or waste piles."""
    lay = inst.layout
    if lay.grid:
        raise InstanceError(f"{fmt}: Gaps grids cannot be written as board text")
    if lay.reserve or lay.waste:
        raise InstanceError(f"{fmt}: board text has no reserve or waste line")


def to_board_text(inst: Instance) -> str:
    """PySol / black-hole-solver board text: ``Foundations: AS`` (or ``-``) then one line per pile."""
    _no_grid(inst, "board text")
    deck, lay = inst.deck, inst.layout
    out = []
    if lay.stock:
        out.append("Talon: " + _pile_line(deck, list(reversed(lay.stock))))
    if inst.rules.foundations.kind == "hole":
        tops = [deck.text(p[-1]) for p in lay.foundations if p]
        if any(len(p) > 1 for p in lay.foundations) or (tops and len(tops) != len(lay.foundations)):
            raise InstanceError("board text: each hole must hold exactly one card (or all be empty)")
        out.append("Foundations: " + (" ".join(tops) if tops else "-"))
    else:
        out.append(_fc_foundations(inst) or "Foundations: -")
    if lay.cells:
        out.append("Freecells: " + _pile_line(deck, lay.cells))
    out += [_pile_line(deck, p) for p in lay.tableau]
    return "\n".join(out) + "\n"


def from_board_text(text: str, game: str, overrides: dict[str, Any] | None = None) -> Instance:
    """Read PySol / black-hole-solver board text (fc-solve lines are accepted too)."""
    return _parse_board(text, game, overrides, "board text")


def _fc_foundations(inst: Instance) -> str:
    """fc-solve's ``Foundations: H-A C-0 D-0 S-2`` line, or ``""`` when every foundation is empty."""
    lay, deck = inst.layout, inst.deck
    if not any(lay.foundations):
        return ""
    if inst.rules.foundations.kind != "suits" or not deck.standard or deck.decks != 1:
        raise InstanceError("fc-solve text: foundations other than one standard deck's suits")
    tops = {s: 0 for s in range(4)}
    for pile in lay.foundations:
        for i, c in enumerate(pile):
            if c.rank != i + 1 or c.suit != pile[0].suit:
                raise InstanceError("fc-solve text: a foundation must be built A, 2, 3... in one suit")
        if pile:
            tops[pile[0].suit] = len(pile)
    parts = []
    for ch in _FC_SUITS:
        r = tops["CDHS".index(ch)]
        parts.append(f"{ch}-{'0' if r == 0 else deck.text(Card(r, 0))[:-1]}")
    return "Foundations: " + " ".join(parts)


def to_fcsolve(inst: Instance) -> str:
    """fc-solve / MS FreeCell board text: optional Foundations and Freecells lines, then the piles."""
    _no_grid(inst, "fc-solve text")
    if inst.layout.stock:
        raise InstanceError("fc-solve text: has no stock")
    deck, lay = inst.deck, inst.layout
    out = []
    found = _fc_foundations(inst)
    if found:
        out.append(found)
    if any(c is not None for c in lay.cells):
        out.append("Freecells: " + _pile_line(deck, lay.cells))
    out += [_pile_line(deck, p) for p in lay.tableau]
    return "\n".join(out) + "\n"


def from_fcsolve(text: str, game: str = "freecell", overrides: dict[str, Any] | None = None) -> Instance:
    """Read fc-solve / MS FreeCell board text (``: `` pile prefixes and header lines optional)."""
    return _parse_board(text, game, overrides, "fc-solve text")


# Solvitaire JSON ----------------------------------------------------------------------------------
def _sv_card(deck: Deck, c: Card) -> str:
    """Solvitaire's card text: ``10H`` for tens, otherwise ours."""
    if not deck.standard:
        raise InstanceError("solvitaire: only standard 52-card decks")
    t = deck.text(c)
    return "10" + t[1] if t[0] == "T" else t


def to_solvitaire(inst: Instance) -> dict[str, Any]:
    """The deal as Solvitaire's input JSON (what ``solvitaire --classify FILE`` reads)."""
    deck, lay, rules = inst.deck, inst.layout, inst.rules
    sv = lambda c: _sv_card(deck, c)  # noqa: E731
    out: dict[str, Any] = {}
    if lay.grid:  # the basic variant's row suits are suit numbers: relabel (generators.solvitaire_suits)
        relabel = lambda c: Card(c.rank, to_solvitaire_suit(rules, c.suit))  # noqa: E731
        out["sequences"] = [["" if c is None else sv(relabel(c)) for c in row] for row in lay.grid]
        return out
    if rules.row.distances:  # a row game's piles are Solvitaire's accordion, left to right; its reader
        out["accordion"] = [sv(c) for p in lay.tableau for c in p]  # takes a flat card array
    elif rules.tableau.piles:
        out["tableau piles"] = [[sv(c) for c in p] for p in lay.tableau]
    if rules.foundations.kind == "hole":
        if len(lay.foundations) != 1 or len(lay.foundations[0]) > 1:
            raise InstanceError("solvitaire: a hole game needs one hole holding at most one card")
        if lay.foundations[0]:
            out["hole"] = sv(lay.foundations[0][0])
    elif any(lay.foundations):
        out["foundations"] = [sv(c) for p in lay.foundations for c in p]
    if any(c is not None for c in lay.cells):
        # As --deal-only prints them. Solvitaire 0.10.1's reader rejects this key (its schema lacks it),
        # so deals with filled cells (Eight Off, Seahaven) round-trip here but not through the binary.
        out["cells"] = ["" if c is None else sv(c) for c in lay.cells]
    if rules.stock.size:
        out["stock"] = [sv(c) for c in lay.stock]
        if rules.stock.deal_to == "waste":
            out["waste"] = [sv(c) for c in lay.waste]
    if lay.reserve:
        out["reserve"] = [sv(c) for c in lay.reserve]
    return out


def _sv_flat(value: Any, where: str) -> list[tuple[str, str]]:
    """Flatten Solvitaire's cards, lists of cards and ``""`` (empty pile) into (path, text) pairs."""
    if value == "" or value is None:
        return []
    if isinstance(value, str):
        return [(where, value)]
    if not isinstance(value, list):
        raise InstanceError(f"{where}: expected a card or a list of cards")
    out: list[tuple[str, str]] = []
    for i, v in enumerate(value):
        out += _sv_flat(v, f"{where}[{i}]")
    return out


def _sv_parse(deck: Deck, text: str, where: str) -> Card:
    """Parse a Solvitaire card; ``##`` (a face-down card in --deal-only output) cannot be read."""
    if text == "##":
        raise InstanceError(f"{where}: face-down card '##' hides which card it is")
    return _card(deck, text, where)


def from_solvitaire(data: Any, game: str, overrides: dict[str, Any] | None = None) -> Instance:
    """Read a Solvitaire deal (input JSON or ``--deal-only`` output) into an instance of ``game``."""
    rules, deck, g = _game(game, overrides)
    if not isinstance(data, dict):
        raise InstanceError("solvitaire: expected a JSON object")
    # A row game's piles come as "accordion" (Solvitaire's), any other game's as "tableau piles".
    unknown = sorted(set(data) - (_SV_KEYS - {"tableau piles" if rules.row.distances else "accordion"}))
    if unknown:
        raise InstanceError(f"solvitaire.{unknown[0]}: unknown key")
    p = lambda where, t: _sv_parse(deck, t, where)  # noqa: E731
    if rules.gaps.rows:
        seqs = data.get("sequences")
        if not isinstance(seqs, list):
            raise InstanceError("solvitaire.sequences: expected a list of rows")
        grid: list[tuple[Card | None, ...]] = []
        for i, row in enumerate(seqs):
            if not isinstance(row, list):
                raise InstanceError(f"solvitaire.sequences[{i}]: expected a list of cards")
            cells_row: list[Card | None] = []
            for j, t in enumerate(row):
                where = f"solvitaire.sequences[{i}][{j}]"
                if not isinstance(t, str):
                    raise InstanceError(f"{where}: expected a card string")
                c = None if t == "" else p(where, t)
                if c is not None and c.rank > 1:
                    c = Card(c.rank, from_solvitaire_suit(rules, c.suit))
                cells_row.append(None if c is not None and c.rank == 1 else c)  # AS marks a gap
            grid.append(tuple(cells_row))
        return _build(g, Layout(grid=tuple(grid)), overrides, "solvitaire")
    key = "accordion" if rules.row.distances else "tableau piles"  # a row game: Solvitaire's accordion
    tab = data.get(key, [])
    if not isinstance(tab, list):
        raise InstanceError(f"solvitaire.{key}: expected a list of piles")
    tableau = tuple(
        tuple(p(w, t) for w, t in _sv_flat(pile, f"solvitaire.{key}[{i}]")) for i, pile in enumerate(tab)
    )
    found = [p(w, t) for w, t in _sv_flat(data.get("foundations", []), "solvitaire.foundations")]
    found = [p(w, t) for w, t in _sv_flat(data.get("hole", []), "solvitaire.hole")] + found
    foundations = _file_foundation_cards(rules, found, "solvitaire.foundations")
    raw_cells = data.get("cells", [])
    if not isinstance(raw_cells, list):
        raise InstanceError("solvitaire.cells: expected a list")
    cells: list[Card | None] = []
    for i, v in enumerate(raw_cells):
        flat = _sv_flat(v, f"solvitaire.cells[{i}]")
        if len(flat) > 1:
            raise InstanceError(f"solvitaire.cells[{i}]: a cell holds one card")
        cells.append(p(*flat[0]) if flat else None)
    if len(cells) > rules.cells.count:
        raise InstanceError(f"solvitaire.cells: {len(cells)} cells, the rules have {rules.cells.count}")
    cells += [None] * (rules.cells.count - len(cells))
    layout = Layout(
        tableau=tableau,
        foundations=tuple(tuple(f) for f in foundations),
        cells=tuple(cells),
        reserve=tuple(p(w, t) for w, t in _sv_flat(data.get("reserve", []), "solvitaire.reserve")),
        stock=tuple(p(w, t) for w, t in _sv_flat(data.get("stock", []), "solvitaire.stock")),
        waste=tuple(p(w, t) for w, t in _sv_flat(data.get("waste", []), "solvitaire.waste")),
    )
    return _build(g, layout, overrides, "solvitaire")


# Human text --------------------------------------------------------------------------------------
def to_text(inst: Instance) -> str:
    """A plain text layout for people: one labelled line per area and pile, bottom to top."""
    deck, lay = inst.deck, inst.layout
    src = inst.source or {}
    origin = f" ({src.get('generator')} #{src.get('seed')})" if "seed" in src else ""
    rules = ", ".join(f"{k}={v}" for k, v in inst.overrides.items())
    out = [f"{inst.game}{origin}" + (f" [{rules}]" if rules else "") + f"  sha256 {inst.sha256[:12]}"]
    width = max((len(deck.text(c)) for c in deck.cards()), default=2)
    fmt = lambda c: ("--" if c is None else deck.text(c)).rjust(width)  # noqa: E731
    if lay.grid:
        out.append("Grid (-- is a gap):")
        for i, row in enumerate(lay.grid):
            out.append(f"  {i + 1:>2}: " + " ".join(fmt(c) for c in row))
        return "\n".join(out) + "\n"
    if lay.foundations:
        name = "Hole" if inst.rules.foundations.kind == "hole" else "Foundations"
        piles = ["[" + " ".join(fmt(c) for c in p) + "]" if p else "[]" for p in lay.foundations]
        out.append(f"{name}: " + " ".join(piles))
    if lay.cells:
        out.append("Cells: " + " ".join(f"[{fmt(c)}]" for c in lay.cells))
    if lay.reserve:
        out.append("Reserve (top last): " + " ".join(fmt(c) for c in lay.reserve))
    if lay.stock or inst.rules.stock.size:
        out.append("Stock (top last): " + " ".join(fmt(c) for c in lay.stock))
    if lay.waste:
        out.append("Waste (top last): " + " ".join(fmt(c) for c in lay.waste))
    out.append("Tableau (bottom to top):")
    for i, pile in enumerate(lay.tableau):
        out.append(f"  {i + 1:>2}: " + " ".join(fmt(c) for c in pile))
    return "\n".join(out) + "\n"


# Any format, named or detected --------------------------------------------------------------------
INPUT_FORMATS = ("json", "board", "fcsolve", "solvitaire")  # what read_deal reads ("json": our instance)
OUTPUT_FORMATS = ("text", "json", "board", "fcsolve", "solvitaire")  # what write_deal writes
# The games a foreign format belongs to, taken when the deal fits exactly one of them and no game is named:
# black-hole-solver plays Black Hole, All in a Row and (PySol's) Golf; Freecell Solver's default is FreeCell;
# Solvitaire names its game on the command line (--type), so its deals need --game unless only one fits.
HOME_GAMES: dict[str, tuple[str, ...]] = {
    "board": ("black-hole", "all-in-a-row", "golf-thoughtful", "freecell"),
    "fcsolve": ("freecell", "black-hole", "all-in-a-row", "golf-thoughtful"),
    "solvitaire": (),
}
_SV_KEYS = {
    "tableau piles", "foundations", "cells", "stock", "waste", "reserve", "hole", "sequences", "accordion"
}
_FC_MARKS = re.compile(r"^\s*:|^\s*freecells\s*:|\b[HCDS]-[0A2-9TJQK]\b", re.IGNORECASE | re.MULTILINE)
_LABEL = {"board": "board text", "fcsolve": "fc-solve text", "solvitaire": "Solvitaire JSON"}


def detect_format(text: str, where: str = "input") -> str:
    """Which of :data:`INPUT_FORMATS` ``text`` is: our instance JSON (it has a ``layout``), a Solvitaire
    deal (only Solvitaire's keys), fc-solve text (``:`` pile prefixes, ``H-5`` foundations, a Freecells
    line) or else PySol / black-hole-solver board text. JSON of neither kind is an InstanceError saying
    which ``--format`` to pass.

    >>> detect_format('{"game": "black-hole", "layout": {}}'), detect_format('{"hole": "AS"}')
    ('json', 'solvitaire')
    >>> detect_format("Foundations: AS\\nJD KS TH\\n"), detect_format(": 4C 2C 9C\\n: KD 10H\\n")
    ('board', 'fcsolve')
    """
    return _detect(text, where)[0]


def _detect(text: str, where: str) -> tuple[str, Any]:
    """:func:`detect_format` and, for JSON, the parsed document (read once: a large file is parsed once)."""
    head = text.lstrip()
    if not head:
        raise InstanceError(f"{where}: empty input, no deal to read")
    if head[0] in "{[":
        data = parse_json(text, where, InstanceError)
        if isinstance(data, dict) and ("layout" in data or "format" in data):
            return "json", data
        if isinstance(data, dict) and data and set(data) <= _SV_KEYS:
            return "solvitaire", data
        raise InstanceError(
            f"{where}: JSON that is neither a patience instance (no 'layout') nor a Solvitaire deal "
            "(keys such as 'tableau piles'); pass --format json or --format solvitaire"
        )
    return ("fcsolve" if _FC_MARKS.search(text) else "board"), None


def read_deal(
    text: str,
    where: str = "input",
    fmt: str | None = None,
    game: str | None = None,
    overrides: dict[str, Any] | None = None,
) -> Instance:
    """A deal in any of :data:`INPUT_FORMATS` (``fmt``, or detected by :func:`detect_format`).

    Foreign formats do not name their game: ``game`` names it, else the deal's format's
    :data:`HOME_GAMES` are tried, then every registered game; a deal several games fit is an
    InstanceError listing them (pass ``game``). ``overrides`` change a foreign deal's rules (an
    instance file keeps its own). Errors start with ``where``.

    >>> from patience.deals import deal
    >>> bh1 = deal("black-hole", 1, "pysol")
    >>> read_deal(to_board_text(bh1)).sha256 == bh1.sha256  # detected: board text of Black Hole
    True
    >>> try:
    ...     read_deal("Foundations: AS\\nJD KS\\n2D 9D\\n", "bh.txt")
    ... except ValueError as err:
    ...     print(err)
    bh.txt: board text: layout.tableau: 2 piles, the rules need 17 (read as black-hole; --game names another)
    """
    if fmt is not None and fmt not in INPUT_FORMATS:
        raise InstanceError(f"{where}: unknown format {fmt!r} (one of {', '.join(INPUT_FORMATS)})")
    parsed: Any = None
    if fmt is None:
        fmt, parsed = _detect(text, where)
    if fmt in ("json", "solvitaire") and parsed is None:
        parsed = parse_json(text, where, InstanceError)
    if fmt == "json":
        return _read_instance(parsed, where, game, overrides)
    data: Any = parsed if fmt == "solvitaire" else text
    reader: Callable[[Any, str, dict[str, Any] | None], Instance] = {
        "board": from_board_text,
        "fcsolve": from_fcsolve,
        "solvitaire": from_solvitaire,
    }[fmt]

    def read(name: str) -> Instance:
        try:
            return reader(data, name, overrides)
        except (InstanceError, RuleError) as err:
            raise InstanceError(f"{where}: {err}") from None

    if game is not None:
        return read(game)
    return _infer_game(fmt, read, where)


def _read_instance(data: Any, where: str, game: str | None, overrides: dict[str, Any] | None) -> Instance:
    """Our own instance JSON (parsed); a ``game`` given must be its game, and it takes no ``overrides``."""
    if overrides:
        raise InstanceError(f"{where}: an instance file holds its own rules; --set applies to other formats")
    try:
        inst = Instance.from_json(data)
    except InstanceError as err:
        raise InstanceError(f"{where}: {err}") from None
    if game is not None:
        try:
            named = load_game(game).name
        except RuleError as err:
            raise InstanceError(f"{where}: {err}") from None
        if named != inst.game:
            raise InstanceError(f"{where}: the instance is a deal of {inst.game}, not of {named}")
    return inst


def _infer_game(fmt: str, read: Callable[[str], Instance], where: str) -> Instance:
    """The deal read as the one home game of ``fmt`` it fits, else as the one registered game it fits."""
    fits: dict[str, Instance] = {}
    first_error: InstanceError | None = None
    for name in HOME_GAMES[fmt]:
        try:
            fits[name] = read(name)
        except InstanceError as err:
            first_error = first_error or err
    if len(fits) == 1:
        return next(iter(fits.values()))
    if not fits:
        for g in list_games():
            try:
                fits[g.name] = read(g.name)
            except InstanceError:
                pass
        if len(fits) == 1:
            return next(iter(fits.values()))
    if not fits:
        if first_error is not None:  # the reading error as the format's first home game sees it
            raise InstanceError(f"{first_error} (read as {HOME_GAMES[fmt][0]}; --game names another)")
        raise InstanceError(f"{where}: {_LABEL[fmt]} of no registered game; pass --game GAME")
    names = sorted(fits)
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    raise InstanceError(f"{where}: {_LABEL[fmt]} that fits {len(names)} games ({shown}); pass --game GAME")


def write_deal(inst: Instance, fmt: str) -> str:
    """The deal in one of :data:`OUTPUT_FORMATS`, ending in a newline (InstanceError when the format
    cannot hold it, e.g. a Gaps grid as board text)."""
    if fmt not in OUTPUT_FORMATS:
        raise InstanceError(f"unknown format {fmt!r} (one of {', '.join(OUTPUT_FORMATS)})")
    text = {
        "text": to_text,
        "json": Instance.dumps,
        "board": to_board_text,
        "fcsolve": to_fcsolve,
        "solvitaire": lambda i: json.dumps(to_solvitaire(i), indent=1),
    }[fmt](inst)
    return text if text.endswith("\n") else text + "\n"
