"""Rule-sets: the parameters of a game, loaded from ``models/<game>.json`` and validated on load.

The schema follows the parameter table of Blake & Gent (Solvitaire's rule language): a game is a
combination of a tableau (pile count, deal shape, build policy, group moves, what fills a space),
foundations (built by suit, a "hole" built up or down as in Black Hole, or complete runs as in Spider),
free cells, a reserve and a stock. Gaps-like games use the ``gaps`` section instead of a tableau, and
Accordion-like games the ``row`` section (their tableau piles lie in one row and no foundations).
The engine branches on these fields, never on a game's name.

Unknown keys and values are errors that name their path (``$.rules.tableau.build``). Parameters can
be overridden with short names (``suits=6``, ``piles=17``, ``cells=2``) or dotted paths
(``tableau.build=same-suit``); see :func:`apply_overrides`. Overrides that make the same rules have one
canonical form (:func:`canonical_overrides`), which instances record and results stores key on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

import msgspec

__all__ = [
    "MAX_CELLS",
    "MAX_DECK_CARDS",
    "MAX_PILES",
    "MAX_REDEALS",
    "RuleError",
    "RuleSet",
    "Game",
    "SHORT_NAMES",
    "apply_overrides",
    "canonical_overrides",
    "rule_changes",
    "load_game",
    "list_games",
    "models_dir",
]


# Bounds on rule parameters (RuleSet.check): far above every real game, low enough that dealing, model
# building and a solver's first step stay small. Each error message names the bound it broke.
MAX_DECK_CARDS = 4096  # suits x ranks x decks
MAX_PILES = 1024  # tableau piles, holes, Gaps rows
MAX_CELLS = 1024  # free cells
MAX_REDEALS = 10_000  # stock or Gaps redeals (-1: unlimited stock redeals)


class RuleError(ValueError):
    """A rule-set or parameter that is malformed or impossible."""


class _Strict(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """Base for schema structs: unknown keys are rejected, instances are immutable."""


BuildPolicy = Literal["none", "any-suit", "alternate-colour", "same-suit"]
GroupMoves = Literal["none", "build", "same-suit", "whole-pile"]


class DeckSpec(_Strict):
    """How many suits, ranks and copies of the deck are used."""

    suits: int = 4
    ranks: int = 13
    decks: int = 1
    # Cards of the shuffled deck that are dealt; the rest are set aside unseen (Ross & Knuth's 18-card
    # Accordion). 0: every card.
    dealt: int = 0

    @property
    def cards(self) -> int:
        """Cards in play: ``dealt``, or the whole deck (suits x ranks x decks)."""
        return self.dealt or self.suits * self.ranks * self.decks


class Tableau(_Strict):
    """The tableau piles: how they are dealt and how cards move between them."""

    piles: int = 0
    # even: round-robin (pile t mod P); triangle: pile i gets i+1 cards; sizes: explicit pile sizes
    deal: Literal["even", "triangle", "sizes"] = "even"
    sizes: tuple[int, ...] = ()
    # when true an "even" deal must fill every pile equally (Black Hole family)
    equal_piles: bool = False
    face_up: Literal["all", "top"] = "all"
    build: BuildPolicy = "none"
    # rank relation for building: "down" (one lower) or "up-down" (one lower or one higher)
    direction: Literal["down", "up-down"] = "down"
    # Building wraps around: true, an Ace may go on a King (building down); "base", ranks count from the
    # foundations' base (Solvitaire's Canfield): base-1 is the top rank and the base rank the lowest, so
    # nothing goes on a base-rank card and King-on-Ace wraps unless the base is the Ace.
    wrap: bool | Literal["base"] = False
    group_moves: GroupMoves = "none"
    # What fills a space: any card, Kings only, nothing; "reserve-first": the reserve's top at once while
    # it has cards, then any card (Solvitaire's auto-reserve-then-any); "reserve-then-waste": the reserve
    # first, then only a waste card, and while a space is open no other card goes to the tableau
    # (Solvitaire's auto-reserve-then-waste); "waste-then-stock": a space is filled at once from the waste,
    # or from the stock when the waste is empty, and only when both are empty may any card go there
    # (Solvitaire's auto-waste-then-stock, Fortune's Favor).
    empty: Literal["any", "kings", "none", "reserve-first", "reserve-then-waste", "waste-then-stock"] = "any"


class Foundations(_Strict):
    """Where cards go home.

    kind ``suits``: one pile per suit and deck, built up in suit from ``base``.
    kind ``hole``: ``count`` piles any card may join when one rank above or below the top card
    (Black Hole); ``start`` lists the cards put there first, or ``start_dealt`` deals one (Golf).
    kind ``runs``: a complete same-suit run King..Ace leaves the tableau as one move (Spider).
    kind ``none``: no foundations; only a ``row`` game has none (it is won when one pile is left).
    """

    kind: Literal["suits", "hole", "runs", "none"] = "suits"
    initial: Literal["none", "aces", "one"] = "none"
    base: Literal["ace", "dealt"] = "ace"
    removable: bool = False  # worrying back: a foundation card may return to the tableau
    wrap: bool = False  # ranks wrap around King-Ace
    count: int = 0  # hole piles (kind "hole" only)
    start: tuple[str, ...] = ()
    start_dealt: bool = False  # each hole starts with a card from the shuffled deck (Golf)
    king_blocks: bool = False  # nothing may be played on a King (Golf)


class Cells(_Strict):
    """Free cells, each holding one card; ``prefilled`` of them are dealt to at the start."""

    count: int = 0
    prefilled: int = 0


class Reserve(_Strict):
    """Reserve cards: ``stacked`` means only the top card is available (Canfield)."""

    size: int = 0
    stacked: bool = False


class Stock(_Strict):
    """The stock: where a deal goes, how many cards at once and how many redeals (-1 unlimited)."""

    size: int = 0
    deal_to: Literal["waste", "tableau", "hole"] = "waste"
    deal_count: int = 1
    redeals: int = 0


class Gaps(_Strict):
    """Gaps / Montana rows: aces removed to leave gaps filled with same-suit successors."""

    rows: int = 0
    # which 2 a first-column gap accepts: any 2, or only the row's fixed suit (basic variant)
    first_column: Literal["any-two", "fixed-suit"] = "any-two"
    redeals: int = 0


RowMatch = Literal["same-suit", "same-rank", "alternate-colour", "any"]


class Row(_Strict):
    """Accordion: the tableau piles lie in one row, left to right, and close up as piles leave it.

    A whole pile moves onto the pile ``d`` places to its left, for a ``d`` in ``distances``, counting
    only the piles still in the row, when its top card matches that pile's top card by one of ``match``
    (same suit or same rank in Accordion). The game is won when one pile is left. Empty: not a row game.
    """

    distances: tuple[int, ...] = ()
    match: tuple[RowMatch, ...] = ()


class RuleSet(_Strict):
    """All parameters of a game. Defaults describe an empty game; each model file sets its own."""

    deck: DeckSpec = DeckSpec()
    tableau: Tableau = Tableau()
    foundations: Foundations = Foundations()
    cells: Cells = Cells()
    reserve: Reserve = Reserve()
    stock: Stock = Stock()
    gaps: Gaps = Gaps()
    row: Row = Row()
    thoughtful: bool = True  # every card is known to the player (solvers always see every card)

    # Derived quantities -------------------------------------------------------------------
    @property
    def n_foundations(self) -> int:
        """Number of foundation piles (suits x decks, the hole count, or 0 for gaps and kind none)."""
        f = self.foundations
        if self.gaps.rows or f.kind == "none":
            return 0
        if f.kind == "suits":
            return self.deck.suits * self.deck.decks
        if f.kind == "hole":
            return f.count
        return self.deck.suits * self.deck.decks  # runs: one slot per completed run

    @property
    def n_initial_foundation_cards(self) -> int:
        """Cards placed on the foundations before play."""
        f = self.foundations
        if f.kind == "hole":
            return f.count if f.start_dealt else len(f.start)
        if f.initial == "aces":
            return self.deck.suits * self.deck.decks
        if f.initial == "one":
            return 1
        return 0

    def tableau_sizes(self) -> tuple[int, ...]:
        """Number of cards dealt to each tableau pile (bottom to top order is the deal order)."""
        t = self.tableau
        n = self.tableau_cards
        if t.piles == 0:
            return ()
        if t.deal == "sizes":
            return t.sizes
        if t.deal == "triangle":
            return tuple(range(1, t.piles + 1))
        q, r = divmod(n, t.piles)
        return tuple(q + (1 if i < r else 0) for i in range(t.piles))

    @property
    def tableau_cards(self) -> int:
        """Cards dealt to the tableau: whatever the other areas leave of the cards in play."""
        used = self.n_initial_foundation_cards + self.cells.prefilled + self.reserve.size + self.stock.size
        return self.deck.cards - used

    def check(self, where: str = "rules") -> None:
        """Raise :class:`RuleError` naming the first impossible parameter or parameter combination.

        Every parameter is range-checked, including those the game does not use (a Gaps game's cells, a
        suit game's holes), before any derived size is computed, so absurd values fail fast with the
        bound in the message (:data:`MAX_DECK_CARDS`, :data:`MAX_PILES`, :data:`MAX_CELLS`,
        :data:`MAX_REDEALS`).
        """
        d, t, f = self.deck, self.tableau, self.foundations
        for name in ("suits", "ranks", "decks"):
            if getattr(d, name) < 1:
                raise RuleError(f"{where}.deck.{name}: must be >= 1, got {getattr(d, name)}")
        cards = d.suits * d.ranks * d.decks
        if cards > MAX_DECK_CARDS:
            raise RuleError(
                f"{where}.deck: {d.suits} x {d.ranks} x {d.decks} = {cards} cards, over the limit of "
                f"{MAX_DECK_CARDS} cards"
            )
        for name, value, most in (
            ("tableau.piles", t.piles, MAX_PILES),
            ("cells.count", self.cells.count, MAX_CELLS),
            ("cells.prefilled", self.cells.prefilled, MAX_CELLS),
            ("reserve.size", self.reserve.size, cards),
            ("stock.size", self.stock.size, cards),
            ("stock.deal_count", self.stock.deal_count, cards),
            ("foundations.count", f.count, MAX_PILES),
            ("gaps.rows", self.gaps.rows, MAX_PILES),
            ("gaps.redeals", self.gaps.redeals, MAX_REDEALS),
            ("stock.redeals", self.stock.redeals, MAX_REDEALS),
        ):
            if value < 0 and not (name == "stock.redeals" and value == -1):
                unlimited = ", or -1 for unlimited" if name == "stock.redeals" else ""
                raise RuleError(f"{where}.{name}: must be >= 0{unlimited}, got {value}")
            if value > most:
                raise RuleError(f"{where}.{name}: {value} is over the limit of {most}")
        if not 0 <= d.dealt <= cards:
            raise RuleError(f"{where}.deck.dealt: {d.dealt} is not between 0 and the deck's {cards} cards")
        self._check_row(where)
        if t.empty == "waste-then-stock" and self.stock.deal_to != "waste":
            raise RuleError(
                f"{where}.tableau.empty: 'waste-then-stock' needs a stock dealt to the waste, "
                f"not to the {self.stock.deal_to}"
            )
        if len(t.sizes) > MAX_PILES:
            raise RuleError(f"{where}.tableau.sizes: {len(t.sizes)} piles, over the limit of {MAX_PILES}")
        for i, n in enumerate(t.sizes):
            if not 0 <= n <= cards:
                raise RuleError(f"{where}.tableau.sizes[{i}]: {n} is not between 0 and the {cards} cards")
        if t.sizes and t.deal != "sizes":
            raise RuleError(f'{where}.tableau.sizes: only used with tableau.deal "sizes", not {t.deal!r}')
        if self.stock.deal_count < 1:
            raise RuleError(f"{where}.stock.deal_count: must be >= 1, got {self.stock.deal_count}")
        if self.cells.prefilled > self.cells.count:
            raise RuleError(f"{where}.cells.prefilled: {self.cells.prefilled} > cells.count")
        if f.kind != "hole":
            for name, value in (
                ("count", f.count),
                ("start", f.start),
                ("start_dealt", f.start_dealt),
                ("king_blocks", f.king_blocks),
            ):
                if value:
                    raise RuleError(f"{where}.foundations.{name}: only for hole foundations, not {f.kind}")
            if self.stock.deal_to == "hole":
                raise RuleError(f"{where}.stock.deal_to: 'hole' needs hole foundations, not {f.kind!r}")
        if self.gaps.rows:
            if self.gaps.rows != d.suits * d.decks:
                raise RuleError(f"{where}.gaps.rows: must equal suits x decks ({d.suits * d.decks})")
            for name, value in (
                ("tableau.piles", t.piles),
                ("cells.count", self.cells.count),
                ("reserve.size", self.reserve.size),
                ("stock.size", self.stock.size),
                ("stock.redeals", self.stock.redeals),
                ("foundations.count", f.count),
            ):
                if value:
                    raise RuleError(f"{where}.{name}: a Gaps game deals everything to its grid, got {value}")
            return
        if self.gaps.redeals:
            raise RuleError(f"{where}.gaps.redeals: only Gaps games (gaps.rows > 0) have a grid to redeal")
        if self.stock.deal_to == "tableau" and self.stock.size and not t.piles:
            raise RuleError(f"{where}.stock.deal_to: 'tableau' needs tableau piles")
        if t.piles > cards:
            raise RuleError(f"{where}.tableau.piles: {t.piles} piles for a deck of {cards} cards")
        if self.cells.count > cards:
            raise RuleError(f"{where}.cells.count: {self.cells.count} cells for a deck of {cards} cards")
        if f.kind == "hole":
            if f.count < 1:
                raise RuleError(f"{where}.foundations.count: a hole game needs >= 1 hole")
            if f.start and len(f.start) != f.count:
                raise RuleError(f"{where}.foundations.start: needs one card per hole ({f.count})")
            if f.start_dealt and f.start:
                raise RuleError(f"{where}.foundations.start_dealt: holes cannot also have a start")
        if f.kind == "runs" and f.initial != "none":
            raise RuleError(f"{where}.foundations.initial: runs foundations start empty")
        if f.initial == "aces" and f.kind != "suits":
            raise RuleError(f"{where}.foundations.initial: aces need suit foundations")
        if t.piles == 0 and self.tableau_cards:
            raise RuleError(f"{where}.tableau.piles: {self.tableau_cards} cards but no piles")
        if self.tableau_cards < 0:
            raise RuleError(
                f"{where}: deck of {d.suits * d.ranks * d.decks} cards is smaller than the "
                f"{d.suits * d.ranks * d.decks - self.tableau_cards} cards the other areas need"
            )
        if t.piles:
            sizes = self.tableau_sizes()
            if len(sizes) != t.piles:
                raise RuleError(f"{where}.tableau.sizes: {len(sizes)} sizes for {t.piles} piles")
            if sum(sizes) != self.tableau_cards:
                raise RuleError(
                    f"{where}.tableau: {t.deal} deal of {t.piles} piles holds {sum(sizes)} cards, "
                    f"but {self.tableau_cards} are left for the tableau"
                )
            if t.equal_piles and self.tableau_cards % t.piles:
                raise RuleError(
                    f"{where}.tableau.piles: {t.piles} piles do not divide the "
                    f"{self.tableau_cards} tableau cards evenly"
                )

    def _check_row(self, where: str) -> None:
        """A row game (Accordion) has one card per tableau pile, no foundations and nothing else to play
        with; ``foundations.kind: none`` and ``deck.dealt`` belong to row games only."""
        row, t, f = self.row, self.tableau, self.foundations
        if not row.distances:
            if row.match:
                raise RuleError(f"{where}.row.match: set without row.distances")
            if f.kind == "none":
                raise RuleError(f"{where}.foundations.kind: 'none' only in a row game (row.distances)")
            if self.deck.dealt:
                raise RuleError(f"{where}.deck.dealt: only a row game sets cards aside")
            return
        for i, dist in enumerate(row.distances):
            if not 1 <= dist <= MAX_PILES:
                raise RuleError(f"{where}.row.distances[{i}]: {dist} is not between 1 and {MAX_PILES}")
        if not row.match:
            raise RuleError(f"{where}.row.match: a row game needs at least one match rule")
        if f.kind != "none":
            raise RuleError(f"{where}.foundations.kind: a row game has none, got {f.kind!r}")
        for name, value in (
            ("gaps.rows", self.gaps.rows),
            ("cells.count", self.cells.count),
            ("reserve.size", self.reserve.size),
            ("stock.size", self.stock.size),
        ):
            if value:
                raise RuleError(f"{where}.{name}: a row game deals only its row, got {value}")
        for name, value, want in (
            ("tableau.build", t.build, "none"),
            ("tableau.empty", t.empty, "none"),
            ("tableau.group_moves", t.group_moves, "none"),
            ("tableau.face_up", t.face_up, "all"),
            ("tableau.deal", t.deal, "even"),
        ):
            if value != want:
                raise RuleError(f"{where}.{name}: a row game has {want!r} (piles move by row.distances)")
        if t.piles != self.deck.cards:
            raise RuleError(
                f"{where}.tableau.piles: a row game deals one card to each pile, so {self.deck.cards} piles, "
                f"got {t.piles}"
            )


class Reference(_Strict):
    """A published win rate (percent) with its 95% half-interval and source."""

    win_rate: float | None = None
    interval: float | None = None
    deals: int | None = None
    source: str = ""
    note: str = ""


class GameFile(_Strict, kw_only=True):
    """The content of one ``models/<game>.json`` file."""

    name: str
    aliases: tuple[str, ...] = ()
    description: str
    rules: RuleSet
    reference: Reference = Reference()
    variant_note: str = ""
    pysol_name: str = ""  # game id in pysol-cards, when PySol deals this game
    solvitaire_name: str = ""  # Solvitaire preset name, when Solvitaire knows this game
    # Why these rules differ from that preset's (empty: the same game, so verdicts are comparable);
    # docs/rule-fidelity.md and tests/test_fidelity.py hold the field-by-field mapping.
    solvitaire_differs: str = ""


@dataclass(frozen=True)
class Game:
    """A loaded game: its file, with rules possibly overridden by parameters."""

    file: GameFile
    rules: RuleSet

    @property
    def name(self) -> str:
        """Canonical game name (the model file's stem)."""
        return self.file.name

    @property
    def overrides(self) -> dict[str, Any]:
        """The canonical overrides (:func:`rule_changes`) that make these rules from the model file's."""
        return rule_changes(self.file.rules, self.rules)


# Short parameter names accepted by --set and by an instance's "rules" object.
SHORT_NAMES: dict[str, str] = {
    "suits": "deck.suits",
    "ranks": "deck.ranks",
    "decks": "deck.decks",
    "piles": "tableau.piles",
    "build": "tableau.build",
    "cells": "cells.count",
    "reserve": "reserve.size",
    "stock": "stock.size",
    "draw": "stock.deal_count",
    "redeals": "stock.redeals",
    "wrap": "foundations.wrap",
    "holes": "foundations.count",
    "rows": "gaps.rows",
}


def models_dir() -> Path:
    """The folder holding the game files: ``$PATIENCE_MODELS`` or ``models/`` of the repo/package."""
    import os

    env = os.environ.get("PATIENCE_MODELS")
    if env:
        return Path(env)
    here = Path(__file__).resolve()
    for candidate in (here.parents[2] / "models", here.parent / "models"):
        if candidate.is_dir():
            return candidate
    raise RuleError("cannot find the models/ folder; set PATIENCE_MODELS")


def _decode_error(path: str, err: Exception) -> RuleError:
    return RuleError(f"{path}: {err}")


@cache
def _load_file(path: str) -> GameFile:
    try:
        raw = Path(path).read_bytes()
        gf = msgspec.json.decode(raw, type=GameFile)
    except (msgspec.ValidationError, msgspec.DecodeError) as err:
        raise _decode_error(path, err) from None
    gf.rules.check(f"{path}: rules")
    return gf


@cache
def _alias_index() -> dict[str, str]:
    index: dict[str, str] = {}
    for p in sorted(models_dir().glob("*.json")):
        gf = _load_file(str(p))
        for name in (p.stem, gf.name, *gf.aliases):
            index[name.lower()] = str(p)
    return index


def list_games() -> list[GameFile]:
    """Every game file in ``models/``, sorted by name."""
    return [_load_file(str(p)) for p in sorted(models_dir().glob("*.json"))]


def _coerce(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except (ValueError, RecursionError):  # not JSON, too many digits, too deep: the schema names it
            return value
    return value


def apply_overrides(rules: RuleSet, overrides: dict[str, Any], where: str = "rules") -> RuleSet:
    """Return ``rules`` with parameters replaced, e.g. ``{"suits": 6, "tableau.build": "none"}``.

    Values given as strings are parsed as JSON when they can be (``"6"`` -> 6, ``"true"`` -> True).
    An unknown name, a parameter given twice (``cells`` and ``cells.count``), a wrong type or an impossible
    combination raises :class:`RuleError`.
    """
    data = msgspec.to_builtins(rules)
    named: dict[str, str] = {}
    for key, value in overrides.items():
        path = SHORT_NAMES.get(key, key)
        if path in named:
            raise RuleError(f"{where}.{key}: the same parameter as {named[path]}, given twice")
        named[path] = key
        parts = path.split(".")
        node = data
        for part in parts[:-1]:
            if not isinstance(node.get(part), dict):
                raise RuleError(f"{where}.{key}: unknown parameter (try one of {_known()})")
            node = node[part]
        if parts[-1] not in node:
            raise RuleError(f"{where}.{key}: unknown parameter (try one of {_known()})")
        node[parts[-1]] = _coerce(value)
    # Gaps: one row per suit and deck, so a deck override carries the row count along unless given.
    given = {SHORT_NAMES.get(k, k) for k in overrides}
    if data["gaps"]["rows"] and "gaps.rows" not in given and given & {"deck.suits", "deck.decks"}:
        deck = data["deck"]
        if isinstance(deck.get("suits"), int) and isinstance(deck.get("decks"), int):
            data["gaps"]["rows"] = deck["suits"] * deck["decks"]
    try:
        new = msgspec.convert(data, type=RuleSet)
    except msgspec.ValidationError as err:
        raise RuleError(f"{where}: {err}") from None
    new.check(where)
    return new


def _known() -> str:
    return ", ".join(SHORT_NAMES)


_SHORT_OF = {path: short for short, path in SHORT_NAMES.items()}


def rule_changes(base: RuleSet, rules: RuleSet) -> dict[str, Any]:
    """The canonical overrides that turn ``base`` into ``rules``: one entry per parameter that differs,
    named by its short name (:data:`SHORT_NAMES`) or else its dotted path, valued as the schema holds it
    (``6``, not ``"6"``), in sorted order. A Gaps row count that follows the deck (as
    :func:`apply_overrides` derives it) is left out, so ``apply_overrides(base, result) == rules``.

    >>> g = load_game("freecell")
    >>> rule_changes(g.rules, apply_overrides(g.rules, {"cells.count": "2", "piles": 8}))
    {'cells': 2}
    """
    old, new = msgspec.to_builtins(base), msgspec.to_builtins(rules)
    out: dict[str, Any] = {}
    for section, value in new.items():
        if isinstance(value, dict):
            out.update((f"{section}.{k}", v) for k, v in value.items() if old[section][k] != v)
        elif old[section] != value:
            out[section] = value
    deck = new["deck"]
    if (
        "gaps.rows" in out
        and old["gaps"]["rows"]
        and out["gaps.rows"] == deck["suits"] * deck["decks"]
        and {"deck.suits", "deck.decks"} & set(out)
    ):
        del out["gaps.rows"]  # apply_overrides derives it again from the deck
    named = {_SHORT_OF.get(k, k): list(v) if isinstance(v, tuple) else v for k, v in out.items()}
    return dict(sorted(named.items()))


def canonical_overrides(
    rules: RuleSet, overrides: dict[str, Any] | None, where: str = "rules"
) -> dict[str, Any]:
    """The one form of ``overrides`` on ``rules`` (:func:`rule_changes`): ``{"cells": "2"}``,
    ``{"cells.count": 2}`` and ``{"cells": 2, "piles": 8}`` on FreeCell are all ``{"cells": 2}``, so they
    give the same instance, sha256 and results-store key. Raises :class:`RuleError` as
    :func:`apply_overrides` does.
    """
    if not overrides:
        return {}
    return rule_changes(rules, apply_overrides(rules, overrides, where))


def load_game(name: str, overrides: dict[str, Any] | None = None) -> Game:
    """Load a game by name or alias, applying parameter overrides.

    >>> load_game("black-hole").rules.tableau.piles
    17
    >>> load_game("FreeCell", {"cells": 2}).rules.cells.count  # names are case-blind; short override names
    2
    """
    path = _alias_index().get(name.lower())
    if path is None:
        raise RuleError(f"unknown game {name!r} (see `patience games`)")
    gf = _load_file(path)
    rules = apply_overrides(gf.rules, overrides, "rules") if overrides else gf.rules
    return Game(gf, rules)
