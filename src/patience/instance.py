"""Instances: one deal of one game in the JSON format of docs/design.md (section 2), validated on load.

Every error names the JSON path of the problem, e.g. ``layout.tableau[3][1]: duplicate card 7H``.
The canonical form (sorted keys, no provenance) has a sha256 that solutions refer to, so a solution
cannot be replayed against another deal by mistake.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import stat
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cards import Card, CardError, Deck, parse_card
from .rules import MAX_PILES, Game, RuleError, RuleSet, load_game
from .text import plural

__all__ = [
    "FORMAT",
    "Instance",
    "InstanceError",
    "Layout",
    "MAX_FILE_BYTES",
    "MAX_INT_DIGITS",
    "MAX_JSON_DEPTH",
    "atomic_write",
    "hole_start_cards",
    "json_depth",
    "load_instance",
    "parse_json",
    "read_json",
]

FORMAT = "patience-instance/1"
_TOP_KEYS = {"format", "game", "rules", "deck", "layout", "source"}
_LAYOUT_KEYS = ("tableau", "foundations", "cells", "reserve", "stock", "waste", "grid")


# Bounds on input files (instances and solutions), named in the error that reports them.
MAX_FILE_BYTES = 16 * 2**20  # read no more than this: /dev/zero or a huge file is refused, not loaded
MAX_JSON_DEPTH = 32  # nesting of arrays and objects; real files need 4
MAX_INT_DIGITS = 18  # digits of a JSON integer; Python refuses int() of over 4,300 with a traceback


class InstanceError(ValueError):
    """An instance that is malformed or does not fit its game's rules; the message names the path."""


def parse_json(text: str, where: str, error: type[ValueError] = ValueError) -> Any:
    """Parse JSON text with the bounds above; every failure is ``error`` naming ``where`` and the bound."""

    def bounded_int(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_INT_DIGITS:
            raise error(f"{where}: integer of {len(digits)} digits, over the limit of {MAX_INT_DIGITS}")
        return int(digits)

    def finite(number: str) -> float:
        value = float(number)
        if value in (float("inf"), float("-inf")):
            raise error(f"{where}: number {number[:20]} is out of range")
        return value

    def no_constant(name: str) -> Any:
        raise error(f"{where}: {name} is not a JSON number")

    try:
        data = json.loads(text, parse_int=bounded_int, parse_float=finite, parse_constant=no_constant)
    except json.JSONDecodeError as err:
        raise error(f"{where}:{err.lineno}:{err.colno}: malformed JSON ({err.msg})") from None
    except RecursionError:
        raise error(f"{where}: JSON nested deeper than the limit of {MAX_JSON_DEPTH} levels") from None
    if json_depth(data) > MAX_JSON_DEPTH:  # a deep document must not overflow the code that walks it later
        raise error(f"{where}: JSON nested deeper than the limit of {MAX_JSON_DEPTH} levels")
    return data


def json_depth(data: Any, stop: int = MAX_JSON_DEPTH) -> int:
    """Nesting of parsed JSON (a scalar 0, ``[]`` 1, ``[[1]]`` 2), counted up to ``stop + 1``.

    Level by level, iterative, and keeping only the containers of each level (scalars are skipped inside
    a list comprehension): a 6 MB tableau of a million card names takes 0.08 s where a walk of every
    node took 0.75 s, which made refusing such a file slower than the time limits of ``solve``.
    """
    level = [data] if type(data) in (dict, list) else []
    depth = 0
    while level and depth <= stop:
        depth += 1
        nxt: list[Any] = []
        for node in level:
            nxt += [v for v in (node.values() if type(node) is dict else node) if type(v) in (dict, list)]
        level = nxt
    return depth


def read_json(path: str | Path, error: type[ValueError] = ValueError) -> Any:
    """Read and parse a JSON file with the bounds above (size, UTF-8, depth, digits); errors name the file."""
    try:
        with Path(path).open("rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except OSError as err:
        raise error(f"{path}: cannot read ({err.strerror or err})") from None
    if len(raw) > MAX_FILE_BYTES:
        raise error(f"{path}: larger than the limit of {MAX_FILE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise error(f"{path}: not UTF-8 text (byte {err.start}: {err.reason})") from None
    return parse_json(text, str(path), error)


@dataclass(frozen=True)
class Layout:
    """Card positions of a deal. Piles are listed bottom to top; ``None`` marks an empty cell/gap."""

    tableau: tuple[tuple[Card, ...], ...] = ()
    foundations: tuple[tuple[Card, ...], ...] = ()
    cells: tuple[Card | None, ...] = ()
    reserve: tuple[Card, ...] = ()
    stock: tuple[Card, ...] = ()
    waste: tuple[Card, ...] = ()
    grid: tuple[tuple[Card | None, ...], ...] = ()

    def cards(self) -> list[Card]:
        """Every card, as :meth:`located_cards` lists them but without their paths (the card check counts
        these: building a path string a card was most of its time)."""
        cards = [c for pile in self.tableau for c in pile]
        cards += [c for pile in self.foundations for c in pile]
        cards += [c for c in self.cells if c is not None]
        cards += [*self.reserve, *self.stock, *self.waste]
        cards += [c for row in self.grid for c in row if c is not None]
        return cards

    def located_cards(self) -> Iterator[tuple[str, Card]]:
        """Every card with its JSON path, in a fixed order (:meth:`cards`' order)."""
        for i, pile in enumerate(self.tableau):
            for j, c in enumerate(pile):
                yield f"layout.tableau[{i}][{j}]", c
        for i, pile in enumerate(self.foundations):
            for j, c in enumerate(pile):
                yield f"layout.foundations[{i}][{j}]", c
        for i, c in enumerate(self.cells):
            if c is not None:
                yield f"layout.cells[{i}]", c
        for name in ("reserve", "stock", "waste"):
            for j, c in enumerate(getattr(self, name)):
                yield f"layout.{name}[{j}]", c
        for i, row in enumerate(self.grid):
            for j, c in enumerate(row):
                if c is not None:
                    yield f"layout.grid[{i}][{j}]", c


@dataclass(frozen=True)
class Instance:
    """A validated deal: game name, rule overrides, effective rules, deck and layout."""

    game: str
    rules: RuleSet
    layout: Layout
    overrides: dict[str, Any] = field(default_factory=dict)
    source: dict[str, Any] | None = None

    @property
    def deck(self) -> Deck:
        """The deck the rules call for."""
        d = self.rules.deck
        return Deck(d.suits, d.ranks, d.decks)

    # Construction ---------------------------------------------------------------------------
    @classmethod
    def build(
        cls,
        game: Game | str,
        layout: Layout,
        overrides: dict[str, Any] | None = None,
        source: dict[str, Any] | None = None,
    ) -> Instance:
        """Create and validate an instance from a game (or its name and ``overrides``) and a layout; it
        records the game's overrides in canonical form (:attr:`patience.rules.Game.overrides`)."""
        overrides = dict(overrides or {})
        if isinstance(game, str):
            game = load_game(game, overrides)
        inst = cls(game.name, game.rules, layout, game.overrides, source)  # canonical: rules.rule_changes
        inst.check()
        return inst

    @classmethod
    def from_json(cls, data: Any) -> Instance:
        """Parse and validate the JSON object of an instance."""
        if not isinstance(data, dict):
            raise InstanceError("instance: expected a JSON object")
        unknown = set(data) - _TOP_KEYS
        if unknown:
            raise InstanceError(f"{sorted(unknown)[0]}: unknown key")
        if data.get("format", FORMAT) != FORMAT:
            raise InstanceError(f"format: expected {FORMAT!r}, got {data.get('format')!r}")
        name = data.get("game")
        if not isinstance(name, str):
            raise InstanceError("game: missing or not a string")
        overrides = data.get("rules") or {}
        if not isinstance(overrides, dict):
            raise InstanceError("rules: expected an object of parameter overrides")
        try:
            game = load_game(name, overrides)
        except RuleError as err:
            raise InstanceError(f"game/rules: {err}") from None
        deck = game.rules.deck
        if "deck" in data:
            given = data["deck"]
            want = {"suits": deck.suits, "ranks": deck.ranks, "decks": deck.decks}
            if not isinstance(given, dict) or set(given) - set(want):
                raise InstanceError("deck: expected {suits, ranks, decks}")
            for k, v in given.items():
                if v != want[k]:
                    raise InstanceError(
                        f'deck.{k}: {v} does not match the rules ({want[k]}); override it in "rules" instead'
                    )
        the_deck = Deck(deck.suits, deck.ranks, deck.decks)
        layout = _parse_layout(data.get("layout"), the_deck)
        source = data.get("source")
        if source is not None and not isinstance(source, dict):
            raise InstanceError("source: expected an object")
        inst = cls(game.name, game.rules, layout, game.overrides, source)  # canonical: rules.rule_changes
        inst.check()
        return inst

    # Validation ------------------------------------------------------------------------------
    def check(self) -> None:
        """Raise :class:`InstanceError` unless the layout fits the rules and holds the whole deck."""
        _check_shape(self.rules, self.layout)
        _check_cards(self.deck, self.layout, self.rules)

    # Output ------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The JSON object of this instance (docs/design.md, section 2)."""
        deck = self.deck
        t = deck.text
        lay: dict[str, Any] = {
            "tableau": [[t(c) for c in p] for p in self.layout.tableau],
            "foundations": [[t(c) for c in p] for p in self.layout.foundations],
            "cells": [None if c is None else t(c) for c in self.layout.cells],
            "reserve": [t(c) for c in self.layout.reserve],
            "stock": [t(c) for c in self.layout.stock],
            "waste": [t(c) for c in self.layout.waste],
        }
        if self.layout.grid:
            lay["grid"] = [[None if c is None else t(c) for c in row] for row in self.layout.grid]
        out: dict[str, Any] = {"format": FORMAT, "game": self.game}
        if self.overrides:
            out["rules"] = dict(self.overrides)
        out["deck"] = {"suits": deck.suits, "ranks": deck.ranks, "decks": deck.decks}
        out["layout"] = lay
        if self.source:
            out["source"] = dict(self.source)
        return out

    def dumps(self) -> str:
        """Human-friendly JSON text: one pile per line."""
        data = self.to_json()
        text = json.dumps(data, indent=2)
        # Keep each pile on one line: collapse innermost lists of card strings.
        return (
            re.sub(
                r"\[\s+((?:\"[^\"]*\"|null)(?:,\s+(?:\"[^\"]*\"|null))*)\s+\]",
                lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]",
                text,
            )
            + "\n"
        )

    def canonical(self) -> str:
        """Canonical JSON (sorted keys, no whitespace, no provenance) used for hashing."""
        data = self.to_json()
        data.pop("source", None)
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    @property
    def sha256(self) -> str:
        """Hex sha256 of :meth:`canonical`: the identity of the deal."""
        return hashlib.sha256(self.canonical().encode()).hexdigest()

    def save(self, path: str | Path) -> None:
        """Write the instance atomically (nothing half-written on failure)."""
        atomic_write(path, self.dumps())


def _umask() -> int:
    """The process umask (read without changing it where /proc allows)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename.

    A symlink at ``path`` is followed (its target is replaced, the link kept); the file gets the mode of
    the file it replaces, or 0666 less the umask for a new one, as ``open()`` would give it.
    """
    path = Path(os.path.realpath(path)) if Path(path).is_symlink() else Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mode = 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_instance(path: str | Path) -> Instance:
    """Load and validate an instance file; errors are prefixed with the file name."""
    data = read_json(path, InstanceError)
    try:
        return Instance.from_json(data)
    except InstanceError as err:
        raise InstanceError(f"{path}: {err}") from None


# Parsing helpers -------------------------------------------------------------------------------
def _parse_card(value: Any, deck: Deck, path: str) -> Card:
    if not isinstance(value, str):
        raise InstanceError(f"{path}: expected a card string, got {json.dumps(value)}")
    try:
        return deck.parse(value)
    except CardError as err:
        raise InstanceError(f"{path}: {err}") from None


def _parse_pile(value: Any, deck: Deck, path: str, allow_none: bool = False) -> tuple:
    if not isinstance(value, list):
        raise InstanceError(f"{path}: expected a list of cards")
    if len(value) > deck.size:  # before parsing a card: a huge list fails at once
        raise InstanceError(f"{path}: {len(value)} entries, more than the {deck.size} cards of the deck")
    out = []
    for j, v in enumerate(value):
        if v is None and allow_none:
            out.append(None)
        else:
            out.append(_parse_card(v, deck, f"{path}[{j}]"))
    return tuple(out)


def _parse_piles(value: Any, deck: Deck, path: str, allow_none: bool = False) -> tuple:
    if not isinstance(value, list):
        raise InstanceError(f"{path}: expected a list of piles")
    if len(value) > MAX_PILES:
        raise InstanceError(f"{path}: {len(value)} piles, over the limit of {MAX_PILES}")
    return tuple(_parse_pile(p, deck, f"{path}[{i}]", allow_none) for i, p in enumerate(value))


def _parse_layout(value: Any, deck: Deck) -> Layout:
    if not isinstance(value, dict):
        raise InstanceError("layout: missing or not an object")
    unknown = set(value) - set(_LAYOUT_KEYS)
    if unknown:
        raise InstanceError(f"layout.{sorted(unknown)[0]}: unknown key")
    return Layout(
        tableau=_parse_piles(value.get("tableau", []), deck, "layout.tableau"),
        foundations=_parse_piles(value.get("foundations", []), deck, "layout.foundations"),
        cells=_parse_pile(value.get("cells", []), deck, "layout.cells", allow_none=True),
        reserve=_parse_pile(value.get("reserve", []), deck, "layout.reserve"),
        stock=_parse_pile(value.get("stock", []), deck, "layout.stock"),
        waste=_parse_pile(value.get("waste", []), deck, "layout.waste"),
        grid=_parse_piles(value.get("grid", []), deck, "layout.grid", allow_none=True),
    )


def _check_shape(rules: RuleSet, lay: Layout) -> None:
    """Counts of piles, cells and cards must be those the rules deal."""
    if rules.gaps.rows:
        if len(lay.grid) != rules.gaps.rows:
            raise InstanceError(
                f"layout.grid: {plural(len(lay.grid), 'row')}, the rules need {rules.gaps.rows}"
            )
        for i, row in enumerate(lay.grid):
            if len(row) != rules.deck.ranks:
                raise InstanceError(
                    f"layout.grid[{i}]: {plural(len(row), 'cell')}, the rules need {rules.deck.ranks}"
                )
        gaps = sum(c is None for row in lay.grid for c in row)
        if gaps != rules.gaps.rows:
            raise InstanceError(f"layout.grid: {plural(gaps, 'gap')}, the rules need {rules.gaps.rows}")
        for name in ("tableau", "foundations", "cells", "reserve", "stock", "waste"):
            if getattr(lay, name):
                raise InstanceError(f"layout.{name}: must be empty in a Gaps game")
        return
    if lay.grid:
        raise InstanceError("layout.grid: only Gaps games have a grid")
    sizes = rules.tableau_sizes()
    if len(lay.tableau) != len(sizes):
        raise InstanceError(
            f"layout.tableau: {plural(len(lay.tableau), 'pile')}, the rules need {len(sizes)}"
        )
    for i, (pile, n) in enumerate(zip(lay.tableau, sizes, strict=True)):
        if len(pile) != n:
            raise InstanceError(f"layout.tableau[{i}]: {plural(len(pile), 'card')}, the rules deal {n}")
    nf = rules.n_foundations
    if len(lay.foundations) != nf:
        raise InstanceError(
            f"layout.foundations: {plural(len(lay.foundations), 'pile')}, the rules need {nf}"
        )
    f = rules.foundations
    if f.kind == "hole":
        for i, pile in enumerate(lay.foundations):
            want = 1 if (f.start_dealt or f.start) else 0
            if len(pile) != want:
                raise InstanceError(
                    f"layout.foundations[{i}]: {plural(len(pile), 'card')}, a hole starts with {want}"
                )
    else:
        have = sum(len(p) for p in lay.foundations)
        if have != rules.n_initial_foundation_cards:
            raise InstanceError(
                f"layout.foundations: {plural(have, 'card')}, "
                f"the rules start with {rules.n_initial_foundation_cards}"
            )
    if len(lay.cells) != rules.cells.count:
        raise InstanceError(
            f"layout.cells: {plural(len(lay.cells), 'cell')}, the rules need {rules.cells.count}"
        )
    filled = sum(c is not None for c in lay.cells)
    if filled != rules.cells.prefilled:
        raise InstanceError(f"layout.cells: {plural(filled, 'card')}, the rules deal {rules.cells.prefilled}")
    for name, want in (("reserve", rules.reserve.size), ("stock", rules.stock.size), ("waste", 0)):
        have = len(getattr(lay, name))
        if have != want:
            raise InstanceError(f"layout.{name}: {plural(have, 'card')}, the rules deal {want}")


@functools.lru_cache(maxsize=64)
def _deck_cards(deck: Deck) -> tuple[Card, ...]:
    """The deck's distinct cards, sorted: the same for every deal of a deck (sorting 52 Cards, whose
    comparisons are Python code, took a third of a deal's check)."""
    return tuple(sorted(set(deck.cards())))


def _check_cards(deck: Deck, lay: Layout, rules: RuleSet) -> None:
    """Every card of the deck exactly as often as the deck holds it (Gaps: aces are the gaps); with
    ``deck.dealt`` cards set aside, each at most as often (the shape check counts the cards dealt).

    The cards are counted once without their paths (tuples hash in C, a Card's hash is Python code); a
    layout with a card too many, a Gaps ace or anything but Cards goes through :func:`_check_located`,
    which names the first such card in located order (the same checks, card by card)."""
    gaps = bool(rules.gaps.rows)
    cards = lay.cards()
    try:
        counts = Counter([(c.rank, c.suit) for c in cards])
    except AttributeError:
        counts = None
    aces = gaps and counts is not None and any(c.rank == 1 for c in cards)
    if counts is None or aces or max(counts.values(), default=0) > deck.decks:
        _check_located(deck, lay, rules)
        return
    _check_rest(deck, lay, rules, lambda c: counts[c.rank, c.suit])


def _check_located(deck: Deck, lay: Layout, rules: RuleSet) -> None:
    """:func:`_check_cards` card by card, with each card's path."""
    counts: Counter[Card] = Counter()
    for path, card in lay.located_cards():
        counts[card] += 1
        if counts[card] > deck.decks:
            raise InstanceError(f"{path}: duplicate card {deck.text(card)}")
        if rules.gaps.rows and card.rank == 1:
            raise InstanceError(f"{path}: aces are removed in Gaps (a gap is null)")
    _check_rest(deck, lay, rules, counts.__getitem__)


def _check_rest(deck: Deck, lay: Layout, rules: RuleSet, count: Callable[[Card], int]) -> None:
    """:func:`_check_cards` after the count: hole start cards, foundation aces, missing cards (``count``:
    how often the layout holds a card)."""
    f = rules.foundations
    if f.kind == "hole" and f.start:
        for i, (pile, expect) in enumerate(zip(lay.foundations, hole_start_cards(rules), strict=True)):
            if pile and pile[0] != expect:
                raise InstanceError(
                    f"layout.foundations[{i}][0]: the hole starts with {deck.text(expect)}, "
                    f"got {deck.text(pile[0])}"
                )
    if f.kind == "suits" and f.initial == "aces":
        for i, pile in enumerate(lay.foundations):
            if len(pile) != 1 or pile[0].rank != 1:
                raise InstanceError(f"layout.foundations[{i}]: must hold exactly one ace")
    aside = rules.deck.dealt and rules.deck.dealt < deck.size
    missing = [
        c
        for c in _deck_cards(deck)
        if count(c) < deck.decks and not (rules.gaps.rows and c.rank == 1) and not aside
    ]
    if missing:
        shown = ", ".join(deck.text(c) for c in missing[:8])
        more = f" and {len(missing) - 8} more" if len(missing) > 8 else ""
        raise InstanceError(f"layout: missing card(s) {shown}{more}")


def _start_card(deck: Deck, text: str) -> Card:
    """A hole's start card; outside a generalized deck it becomes the same rank of the last suit."""
    c = parse_card(text)
    return c if deck.contains(c) else Card(min(c.rank, deck.ranks), min(c.suit, deck.suits - 1))


def hole_start_cards(rules: RuleSet) -> list[Card]:
    """The cards the rules put on the holes before the deal (clamped into generalized decks)."""
    d = rules.deck
    deck = Deck(d.suits, d.ranks, d.decks)
    return [_start_card(deck, s) for s in rules.foundations.start]
