"""PDDL export of a deal, in the style of the IPC FreeCell domain, and the way back from a plan.

The domain follows the International Planning Competition's FreeCell (2000): cards sit ``on`` one
another in the tableau, ``clear`` marks a pile's top card, ``bottomcol`` its bottom card, ``incell`` a
card in a free cell, ``home`` the top card of each suit's foundation (a rank-0 card per suit stands for
an empty foundation), and the free cells and empty piles are counted by ``cellspace`` / ``colspace``
with a ``successor`` relation on numbers. Piles and cells have no identity, as in the engine's
canonical key. ``canstack`` (the tableau building rule), ``suit``, ``value`` and ``king`` are static.

The rule-set picks the actions written into the domain:

* FreeCell family: single-card moves between piles, to/from free cells, to empty piles (any card or
  Kings only), home from the tableau or a cell; alternate-colour, same-suit or any-suit building.
* Face-down cards (Klondike): ``faceup``/``facedown`` facts, and each action taking a card off a pile
  has a ``-flip`` twin that turns up the card it uncovers. Built sequences move as a unit: with only the
  top card dealt face up, the face-up part of a pile is always a built sequence, so "a face-up card
  and everything on it" is exactly the engine's group move.
* Stock and waste (Klondike): stock and waste together always hold the stock's cards in their first
  order (the waste reversed on top of the stock), so they are one linked list ``tnext`` from
  ``talon-start`` to ``talon-end`` with a pointer ``tptr`` to the waste's top card. Dealing ``k`` cards
  moves the pointer ``k`` steps (``deal-k`` for the last short deal), a redeal puts it back to the start
  (unlimited redeals only), and playing the waste's top unlinks it.
* Worrying back (``foundations.removable``): a foundation's top card returns onto a pile or a space.

:func:`unsupported_reason` names the first feature outside this (reserves, several decks, wrap-around,
hole or run foundations, limited redeals...). :func:`plan_to_moves` maps a plan's actions, given as
``(name, [args])``, back to engine moves (each one checked against ``Engine.legal_moves``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .engine import CELL, EMPTY, FOUNDATION, STOCK, TABLEAU, WASTE, Engine, Move, MoveError
from .instance import Instance
from .rules import RuleSet
from .solvers.base import hides_cards

__all__ = ["PddlError", "PddlTask", "export", "plan_to_moves", "unsupported_reason"]

_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
START, END = "talon-start", "talon-end"


class PddlError(ValueError):
    """A rule-set the PDDL export does not cover, or a plan that does not map back to moves."""


def unsupported_reason(rules: RuleSet) -> str | None:
    """Why these rules cannot be exported to PDDL, or None when they can."""
    t, f, s = rules.tableau, rules.foundations, rules.stock
    checks = [
        (
            hides_cards(rules),
            "thoughtful: false (a PDDL task is fully observable; export the thoughtful variant, e.g. "
            "--set thoughtful=true)",
        ),
        (rules.gaps.rows > 0, "Gaps rows"),
        (f.kind != "suits", f"foundations.kind={f.kind}"),
        (rules.deck.decks != 1, "several decks"),
        (f.base != "ace", "foundations.base=dealt"),
        (f.wrap, "foundations.wrap"),
        (f.initial == "one", "foundations.initial=one"),
        (t.build not in ("alternate-colour", "same-suit", "any-suit"), f"tableau.build={t.build}"),
        (t.direction != "down", "tableau.direction=up-down"),
        (bool(t.wrap), f"tableau.wrap={str(t.wrap).lower()}"),
        (t.empty in ("reserve-first", "reserve-then-waste", "waste-then-stock"), f"tableau.empty={t.empty}"),
        (rules.reserve.size > 0, "a reserve"),
        (
            t.group_moves not in ("none", "build") or (t.group_moves == "build" and t.face_up != "top"),
            f"tableau.group_moves={t.group_moves} with all cards face up (sequence moves need a "
            "built-sequence test)",
        ),
        (s.size > 0 and s.deal_to != "waste", f"stock.deal_to={s.deal_to}"),
        (s.size > 0 and s.redeals not in (0, -1), "a limited number of redeals"),
    ]
    for bad, what in checks:
        if bad:
            return what
    return None


@dataclass(frozen=True)
class PddlTask:
    """The two PDDL texts of one deal."""

    domain: str
    problem: str


class _Names:
    """PDDL object names of cards (``spades12``, or ``s5r14`` outside the standard deck)."""

    def __init__(self, e: Engine) -> None:
        self.e = e
        self.standard = e.deck.suits <= 4 and e.R <= 13
        self.by_name: dict[str, int] = {}
        for code in range(e.deck.n_codes):
            self.by_name[self.card(code)] = code

    def suit(self, s: int) -> str:
        return _SUIT_NAMES[s] if self.standard else f"suit{s}"

    def card(self, code: int) -> str:
        return self.rank_card(self.e.suit[code], self.e.rank[code])

    def rank_card(self, s: int, r: int) -> str:
        return f"{_SUIT_NAMES[s]}{r}" if self.standard else f"s{s}r{r}"


def export(instance: Instance, name: str = "patience") -> PddlTask:
    """Domain and problem text for ``instance``; raises :class:`PddlError` for unsupported rules."""
    why = unsupported_reason(instance.rules)
    if why:
        raise PddlError(f"PDDL export does not support {instance.game}: {why}")
    e = Engine(instance)
    return PddlTask(_domain(e, name), _problem(e, name))


# Domain -----------------------------------------------------------------------------------------
def _domain(e: Engine, name: str) -> str:
    r = e.rules
    flips = r.tableau.face_up == "top"
    groups = r.tableau.group_moves == "build"
    cells = len(e.cells) > 0
    spaces = r.tableau.empty != "none"
    kings = r.tableau.empty == "kings"
    talon = r.stock.size > 0
    redeal = talon and r.stock.redeals == -1
    worry = r.foundations.removable
    acts: list[str] = []

    def act(nm: str, params: str, pre: list[str], eff: list[str]) -> None:
        acts.append(
            f"  (:action {nm}\n    :parameters ({params})\n"
            f"    :precondition (and {' '.join(pre)})\n    :effect (and {' '.join(eff)}))"
        )

    # Taking card ?c off a pile, from on top of ?o: plain, or turning ?o face up.
    def uncover(base: list[str]) -> list[tuple[str, list[str], list[str]]]:
        if not flips:
            return [("", base, ["(clear ?o)"])]
        return [
            ("", [*base, "(faceup ?o)"], ["(clear ?o)"]),
            ("-flip", [*base, "(facedown ?o)"], ["(clear ?o)", "(faceup ?o)", "(not (facedown ?o))"]),
        ]

    top = ["(clear ?c)"] if not groups else (["(faceup ?c)"])
    single = ["(clear ?c)"]
    home_pre = "(home ?h) (suit ?c ?s) (suit ?h ?s) (value ?c ?vc) (value ?h ?vh) (successor ?vc ?vh)"
    home_eff = ["(home ?c)", "(not (home ?h))"]
    col_free = ["(colspace ?n)", "(successor ?n1 ?n)"]  # a pile empties: colspace n -> n1
    col_take = ["(colspace ?n)", "(successor ?n ?n1)"]  # a space is filled: colspace n -> n1
    col_eff = ["(colspace ?n1)", "(not (colspace ?n))"]
    cell_take = ["(cellspace ?m)", "(successor ?m ?m1)"]
    cell_free = ["(cellspace ?m)", "(successor ?m1 ?m)"]
    cell_eff = ["(cellspace ?m1)", "(not (cellspace ?m))"]
    king = ["(king ?c)"] if kings else []

    # Between piles.
    for sfx, pre, eff in uncover(["(on ?c ?o)", *top, "(clear ?t)", "(canstack ?c ?t)"]):
        act(
            "move" + sfx,
            "?c ?o ?t - card",
            pre,
            [*eff, "(on ?c ?t)", "(not (on ?c ?o))", "(not (clear ?t))"],
        )
    act(
        "move-b",
        "?c ?t - card ?n ?n1 - num",
        ["(bottomcol ?c)", *top, "(clear ?t)", "(canstack ?c ?t)", *col_free],
        ["(on ?c ?t)", "(not (bottomcol ?c))", "(not (clear ?t))", *col_eff],
    )
    if spaces:
        for sfx, pre, eff in uncover(["(on ?c ?o)", *top, *king, *col_take]):
            act(
                "sendtonewcol" + sfx,
                "?c ?o - card ?n ?n1 - num",
                pre,
                [*eff, "(bottomcol ?c)", "(not (on ?c ?o))", *col_eff],
            )
    # Home from the tableau.
    for sfx, pre, eff in uncover(["(on ?c ?o)", *single, home_pre]):
        act(
            "sendtohome" + sfx,
            "?c ?o ?h - card ?s - suittype ?vc ?vh - num",
            pre,
            [*eff, *home_eff, "(not (on ?c ?o))", "(not (clear ?c))"],
        )
    act(
        "sendtohome-b",
        "?c ?h - card ?s - suittype ?vc ?vh ?n ?n1 - num",
        ["(bottomcol ?c)", *single, home_pre, *col_free],
        [*home_eff, "(not (bottomcol ?c))", "(not (clear ?c))", *col_eff],
    )
    # Free cells.
    if cells:
        for sfx, pre, eff in uncover(["(on ?c ?o)", *single, *cell_take]):
            act(
                "sendtofree" + sfx,
                "?c ?o - card ?m ?m1 - num",
                pre,
                [*eff, "(incell ?c)", "(not (on ?c ?o))", "(not (clear ?c))", *cell_eff],
            )
        act(
            "sendtofree-b",
            "?c - card ?m ?m1 ?n ?n1 - num",
            ["(bottomcol ?c)", *single, *cell_take, *col_free],
            ["(incell ?c)", "(not (bottomcol ?c))", "(not (clear ?c))", *cell_eff, *col_eff],
        )
        act(
            "homefromfreecell",
            "?c ?h - card ?s - suittype ?vc ?vh ?m ?m1 - num",
            ["(incell ?c)", home_pre, *cell_free],
            [*home_eff, "(not (incell ?c))", *cell_eff],
        )
        act(
            "colfromfreecell",
            "?c ?t - card ?m ?m1 - num",
            ["(incell ?c)", "(clear ?t)", "(canstack ?c ?t)", *cell_free],
            ["(on ?c ?t)", "(clear ?c)", "(not (clear ?t))", "(not (incell ?c))", *cell_eff],
        )
        if spaces:
            act(
                "newcolfromfreecell",
                "?c - card ?m ?m1 ?n ?n1 - num",
                ["(incell ?c)", *king, *cell_free, *col_take],
                ["(bottomcol ?c)", "(clear ?c)", "(not (incell ?c))", *cell_eff, *col_eff],
            )
    # Stock and waste as one linked list with a pointer at the waste's top.
    if talon:
        k = r.stock.deal_count
        for j in range(1, k + 1):
            names = [f"?a{i}" for i in range(1, j + 1)]
            chain = ["(tptr ?x)", f"(tnext ?x {names[0]})"]
            chain += [f"(tnext {a} {b})" for a, b in zip(names, names[1:], strict=False)]
            chain += [f"(tcard {a})" for a in names]
            if j < k:
                chain.append(f"(tnext {names[-1]} {END})")
            act(f"deal{j}", f"?x {' '.join(names)} - card", chain, [f"(tptr {names[-1]})", "(not (tptr ?x))"])
        if redeal:
            act(
                "redeal",
                "?x - card",
                ["(tptr ?x)", "(tcard ?x)", f"(tnext ?x {END})"],
                [f"(tptr {START})", "(not (tptr ?x))"],
            )
        waste_pre = ["(tptr ?c)", "(tcard ?c)", "(tnext ?p ?c)", "(tnext ?c ?q)"]
        waste_eff = [
            "(tptr ?p)",
            "(not (tptr ?c))",
            "(tnext ?p ?q)",
            "(not (tnext ?p ?c))",
            "(not (tnext ?c ?q))",
        ]
        face = ["(faceup ?c)"] if flips else []
        act(
            "wastetohome",
            "?c ?p ?q ?h - card ?s - suittype ?vc ?vh - num",
            [*waste_pre, home_pre],
            [*waste_eff, *home_eff],
        )
        act(
            "wastetocol",
            "?c ?p ?q ?t - card",
            [*waste_pre, "(clear ?t)", "(canstack ?c ?t)"],
            [*waste_eff, "(on ?c ?t)", "(clear ?c)", "(not (clear ?t))", *face],
        )
        if spaces:
            act(
                "wastetonewcol",
                "?c ?p ?q - card ?n ?n1 - num",
                [*waste_pre, *king, *col_take],
                [*waste_eff, "(bottomcol ?c)", "(clear ?c)", *col_eff, *face],
            )
        if cells:
            act(
                "wastetofree",
                "?c ?p ?q - card ?m ?m1 - num",
                [*waste_pre, *cell_take],
                [*waste_eff, "(incell ?c)", *cell_eff],
            )
    # Worrying back: a foundation's top card returns to the tableau.
    if worry:
        face = ["(faceup ?c)"] if flips else []
        act(
            "homebacktocol",
            "?c ?h ?t - card ?s - suittype ?vc ?vh - num",
            [
                "(home ?c)",
                "(suit ?c ?s) (suit ?h ?s) (value ?c ?vc) (value ?h ?vh) (successor ?vc ?vh)",
                "(clear ?t)",
                "(canstack ?c ?t)",
            ],
            ["(home ?h)", "(not (home ?c))", "(on ?c ?t)", "(clear ?c)", "(not (clear ?t))", *face],
        )
        if spaces:
            act(
                "homebacktonewcol",
                "?c ?h - card ?s - suittype ?vc ?vh ?n ?n1 - num",
                [
                    "(home ?c)",
                    *king,
                    "(suit ?c ?s) (suit ?h ?s) (value ?c ?vc) (value ?h ?vh) (successor ?vc ?vh)",
                    *col_take,
                ],
                ["(home ?h)", "(not (home ?c))", "(bottomcol ?c)", "(clear ?c)", *col_eff, *face],
            )
    preds = [
        "(on ?c1 - card ?c2 - card)",
        "(clear ?c - card)",
        "(bottomcol ?c - card)",
        "(incell ?c - card)",
        "(home ?c - card)",
        "(cellspace ?n - num)",
        "(colspace ?n - num)",
        "(canstack ?c1 - card ?c2 - card)",
        "(suit ?c - card ?s - suittype)",
        "(value ?c - card ?v - num)",
        "(successor ?n1 - num ?n0 - num)",
        "(king ?c - card)",
        "(faceup ?c - card)",
        "(facedown ?c - card)",
        "(tnext ?c1 - card ?c2 - card)",
        "(tptr ?c - card)",
        "(tcard ?c - card)",
    ]
    return (
        f";; patience PDDL export (IPC FreeCell style) for rules of {e.instance.game}\n"
        f"(define (domain {name})\n  (:requirements :strips :typing)\n  (:types card num suittype)\n"
        + (f"  (:constants {START} {END} - card)\n" if talon else "")
        + "  (:predicates\n    "
        + "\n    ".join(preds)
        + ")\n"
        + "\n".join(acts)
        + ")\n"
    )


# Problem ----------------------------------------------------------------------------------------
def _problem(e: Engine, name: str) -> str:
    nm = _Names(e)
    R, S = e.R, e.deck.suits
    n_max = max(R, len(e.cells), len(e.piles))
    nums = [f"n{i}" for i in range(n_max + 1)]
    cards = [nm.rank_card(s, r) for s in range(S) for r in range(0, R + 1)]
    talon = e.rules.stock.size > 0
    init: list[str] = []
    for i in range(n_max):
        init.append(f"(successor n{i + 1} n{i})")
    for s in range(S):
        for r in range(0, R + 1):
            c = nm.rank_card(s, r)
            init.append(f"(suit {c} {nm.suit(s)})")
            init.append(f"(value {c} n{r})")
        init.append(f"(king {nm.rank_card(s, R)})")
    for x in range(e.deck.n_codes):
        for t in sorted(e.build_targets(x)):
            init.append(f"(canstack {nm.card(x)} {nm.card(t)})")
    # Foundations: the top card of each suit's pile, else the suit's rank-0 card.
    tops = {s: nm.rank_card(s, 0) for s in range(S)}
    for f in e.found:
        if f:
            tops[e.suit[f[-1]]] = nm.card(f[-1])
    init += [f"(home {c})" for c in tops.values()]
    # Tableau.
    flips = e.rules.tableau.face_up == "top"
    for i, p in enumerate(e.piles):
        for k, c in enumerate(p):
            name_c = nm.card(c)
            init.append(f"(bottomcol {name_c})" if k == 0 else f"(on {name_c} {nm.card(p[k - 1])})")
            if flips:
                init.append(f"(faceup {name_c})" if k >= e.down[i] else f"(facedown {name_c})")
        if p:
            init.append(f"(clear {nm.card(p[-1])})")
    init.append(f"(colspace n{sum(1 for p in e.piles if not p)})")
    init.append(f"(cellspace n{sum(1 for c in e.cells if c == EMPTY)})")
    init += [f"(incell {nm.card(c)})" for c in e.cells if c != EMPTY]
    if talon:
        order = [*e.waste, *reversed(e.stock)]  # the waste bottom-up, then the stock top-down
        chain = [START, *(nm.card(c) for c in order), END]
        init += [f"(tnext {a} {b})" for a, b in zip(chain, chain[1:], strict=False)]
        init += [f"(tcard {nm.card(c)})" for c in order]
        init.append(f"(tptr {nm.card(e.waste[-1]) if e.waste else START})")
    goal = [f"(home {nm.rank_card(s, R)})" for s in range(S)]
    return (
        f";; {e.instance.game} deal, instance sha256 {e.instance.sha256}\n"
        f"(define (problem {name}-deal)\n  (:domain {name})\n  (:objects\n"
        f"    {' '.join(cards)} - card\n    {' '.join(nums)} - num\n"
        f"    {' '.join(nm.suit(s) for s in range(S))} - suittype)\n"
        "  (:init\n    " + "\n    ".join(init) + ")\n"
        "  (:goal (and " + " ".join(goal) + ")))\n"
    )


# Back from a plan ---------------------------------------------------------------------------------
def plan_to_moves(instance: Instance, actions: list[tuple[str, list[str]]]) -> list[Move]:
    """Engine moves for a plan's actions (name, object names), each checked against the legal moves."""
    e = Engine(instance)
    nm = _Names(e)
    moves: list[Move] = []
    for k, (name, args) in enumerate(actions):
        move = _action_move(e, nm, name.lower(), [a.lower() for a in args])
        if move is None or move not in e.legal_moves():
            raise PddlError(f"plan step {k}: ({name} {' '.join(args)}) is not a legal move here")
        e.apply(move)
        moves.append(move)
    return moves


def _where(e: Engine, code: int) -> tuple[int, int, int]:
    """(area, index, count) of a card that is about to move (count: cards from it to its pile's top)."""
    for i, p in enumerate(e.piles):
        if code in p:
            return TABLEAU, i, len(p) - p.index(code)
    if code in e.cells:
        return CELL, e.cells.index(code), 1
    if e.waste and e.waste[-1] == code:
        return WASTE, 0, 1
    for i, f in enumerate(e.found):
        if f and f[-1] == code:
            return FOUNDATION, i, 1
    raise PddlError(f"card {code} is nowhere it could move from")


def _action_move(e: Engine, nm: _Names, name: str, args: list[str]) -> Move | None:
    base = name.removesuffix("-flip")
    if base.startswith("deal"):
        return (STOCK, 0, WASTE, 0, min(e.deal_count, len(e.stock)))
    if base == "redeal":
        return (WASTE, 0, STOCK, 0, len(e.waste))
    try:
        code = nm.by_name[args[0]]
    except (KeyError, IndexError):
        raise PddlError(f"unknown card in ({name} {' '.join(args)})") from None
    src, si, cnt = _where(e, code)
    legal = [m for m in e.legal_moves() if m[0] == src and m[1] == si and m[4] == cnt]
    if base in ("move", "move-b", "colfromfreecell", "wastetocol", "homebacktocol"):
        onto = nm.by_name[args[{"move": 2, "move-b": 1, "colfromfreecell": 1, "wastetocol": 3}.get(base, 2)]]
        dst = next((i for i, p in enumerate(e.piles) if p and p[-1] == onto), -1)
        return next((m for m in legal if m[2] == TABLEAU and m[3] == dst), None)
    if base in ("sendtonewcol", "newcolfromfreecell", "wastetonewcol", "homebacktonewcol"):
        return next((m for m in legal if m[2] == TABLEAU and not e.piles[m[3]]), None)
    if base in ("sendtohome", "sendtohome-b", "homefromfreecell", "wastetohome"):
        return next((m for m in legal if m[2] == FOUNDATION), None)
    if base in ("sendtofree", "sendtofree-b", "wastetofree"):
        return next((m for m in legal if m[2] == CELL), None)
    raise MoveError(f"unknown action {name!r}")
