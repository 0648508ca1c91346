"""The proven dominances: one home for every rule that lets a complete search skip moves.

Every search backend that claims UNSOLVABLE from a complete search (``dfs``, ``planning``) cuts only with
the rules below, each switched on by :func:`applicable` from rule-set features (never a game's name) and
proven in its docstring under exactly those features:

* ``safe_deal`` -- a stock deal onto an empty waste is played alone (Wolter 2014, Thirty Six rule 2);
* ``safe_home`` -- a foundation move of a card every possible builder of which is home is played alone
  (Klaver 2022 section 4, Donkersteeg 2010 section 4.5); also (with worrying back: only) of a card whose
  closure under builders and lower cards of a suit is home or next to go home (Solvitaire's red-black
  rule, proven here);
* ``partial_pile`` -- part of a built pile moves only when the card it uncovers can go home
  (Blake & Gent 2019, Appendix C, Theorem 1);
* ``no_return`` -- with worrying back, a card is not taken off its foundation when ``safe_home`` would send
  it straight back (Solvitaire's ``dominance_blocks_foundation_move``; the proof is ours).

A backend takes a :class:`Dominances` for its engine and asks :meth:`Dominances.forced` for a move to play
alone and :meth:`Dominances.allowed` whether a move may be searched. Passing ``names`` switches rules off for
ablation tests: a search with any subset of the applicable rules must reach the same verdict.

The hole-game cuts (Wolter's last-card and one-card-pile rules, rank reachability, the walk-degree test) are
not here: they are about a different move set and live, with their proofs, in :mod:`.dfs_hole`.
Streamliners (unproven cuts whose failure proves nothing) live in :mod:`.dfs_prune`.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engine import CELL, FOUNDATION, RESERVE, STOCK, TABLEAU, WASTE, Engine, Move
from ..rules import RuleSet

__all__ = ["DOMINANCES", "Dominances", "applicable", "chosen"]

DOMINANCES: tuple[str, ...] = ("safe_deal", "safe_home", "partial_pile", "no_return")
"""Names of the proven dominances, in the order a backend consults them."""


def _suit_foundations(rules: RuleSet) -> bool:
    """Foundations built up in suit, one pile per suit (not Gaps rows, holes or Spider runs)."""
    return rules.foundations.kind == "suits" and not rules.gaps.rows


def _safe_deal_sound(rules: RuleSet) -> bool:
    """``safe_deal``: the stock deals onto a waste (see :meth:`Dominances._safe_deal`)."""
    return not rules.gaps.rows and rules.stock.size > 0 and rules.stock.deal_to == "waste"


def _safe_home_sound(rules: RuleSet) -> bool:
    """``safe_home``: the conditions of :meth:`Dominances._safe_home`'s proof.

    Suit foundations; one deck (a card's foundation pile is then unique); spaces not reserved for the
    waste (under ``reserve-then-waste`` an early space would forbid every tableau move but from the waste
    until it is filled; under ``waste-then-stock`` it would force the waste's or the stock's top card into
    it at once); no stock dealt onto the tableau (a deal covers a pile top whatever the building rules, so a
    card could be covered without being built on). Worrying back (``removable``) is covered by a stronger
    test of the card (:func:`_closure_receivers`), under any building rule. Spaces filled from the reserve
    first (``reserve-first``, Canfield) only without worrying back (the proof's second part shifts the
    reserve by one card, which the closure argument does not cover); ``reserve-then-waste`` (Canfield
    whole-pile) likewise, and then only for a card that lies on another card in the tableau (the proof's
    third part: it never opens a space).
    """
    t = rules.tableau
    return (
        _suit_foundations(rules)
        and rules.deck.decks == 1
        and t.empty != "waste-then-stock"
        and not (t.empty in ("reserve-first", "reserve-then-waste") and rules.foundations.removable)
        and not (rules.stock.size and rules.stock.deal_to == "tableau")
    )


def _closure_plain_sound(rules: RuleSet) -> bool:
    """``safe_home``'s closure test as a second way to pass, without worrying back (the proof's closure
    part with no card ever taken off a foundation): under ``safe_home``'s conditions, but not with
    ``reserve-then-waste`` spaces (a card of ``R`` sent home early could open a space that then stops
    every tableau move but from the waste)."""
    return (
        _safe_home_sound(rules)
        and not rules.foundations.removable
        and rules.tableau.empty != "reserve-then-waste"
    )


def _closure_receivers(engine: Engine, builders: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """With worrying back: for each card ``c``, the cards whose being home means all of ``K(c)`` is home.

    ``K(c)`` and ``R(c)`` are the least sets of cards such that ``K`` holds ``c``'s suit below ``c`` and is
    closed under *lower in suit* (with a card, every card of its suit below it), ``R`` holds, in each
    other suit, at most the one card just above ``K``'s part of it, and every card that may be built onto
    ``c`` or onto a card of ``K`` or ``R`` is in ``K``, in ``R`` or ``c`` (a card that must be there and is
    higher in its suit than that grows ``K`` up to just below it). ``K(c)`` is, in each suit, the cards from
    the base up to a highest one, so it is home exactly when those highest cards are (the tuple returned;
    ``c``'s predecessor is left out: it is home whenever ``c`` can go home). A card of ``R`` is home or can go
    home (its predecessor is in ``K``). When a card above ``c`` in its suit is needed (building up and down,
    or onto a base-rank card: the closure runs round the suit) the tuple holds ``c``, never home while ``c``
    is played: the dominance never fires for it. Building down in suit, ``K(c)`` is ``c``'s suit below ``c``
    (nothing to test); down in alternate colours, a red ``r`` needs both black ``r-2`` and the other red
    ``r-3`` home (``R``: the black ``r-1`` and the other red ``r-2``): Solvitaire's rule for red-black
    building with worrying back (``is_valid_auto_foundation_move``), which its paper leaves unproven.
    """
    e = engine
    R, S, base = e.R, e.deck.suits, e.base_rank
    fpos = [(e.rank[x] - base) % R for x in range(len(builders))]

    def card(t: int, p: int) -> int:
        return t * R + (p + base - 1) % R

    out: list[tuple[int, ...]] = []
    for c in range(len(builders)):
        sc = e.suit[c]
        top = [-1] * S  # the highest fpos of each suit in K(c), -1: none
        top[sc] = fpos[c] - 1
        done_r = [-1] * S  # the fpos of the card of R(c) whose builders are queued, per suit
        todo = list(builders[c])
        for p in range(fpos[c]):
            todo.extend(builders[card(sc, p)])
        failed = False
        while todo and not failed:
            y = todo.pop()
            t, f = e.suit[y], fpos[y]
            if t == sc:
                failed = f > fpos[c]  # above c in its own suit: c would have to be home first
                continue
            if f > top[t] + 1:  # grow K up to just below y; y joins R
                for p in range(top[t] + 1, f):
                    todo.extend(builders[card(t, p)])
                top[t] = f - 1
            if f == top[t] + 1 and done_r[t] != f:
                done_r[t] = f
                todo.extend(builders[y])
        if failed:
            out.append((c,))
            continue
        out.append(tuple(card(t, top[t]) for t in range(S) if t != sc and top[t] >= 0))
    return out


def _partial_pile_sound(rules: RuleSet) -> bool:
    """``partial_pile``: the conditions of Blake & Gent's Theorem 1 (see :meth:`Dominances._partial_ok`).

    The theorem's game: a single pack; a tableau built down in red-black alternation; foundations built up
    in suit; any built part of a pile may move as a unit (``group_moves: build``: inserting the postponed
    move later may have to move a group that grew on it, so single-card or whole-pile-only games are out);
    a tableau card moves only to another tableau pile or a foundation (no free cells). Deals onto the
    tableau are outside it too: a deal lands on whichever pile top the position has, which breaks the
    proof's invariant that two piles' upper parts are merely swapped. Spaces that stop every tableau move
    but from the waste (``reserve-then-waste``) are outside it as well: the proof swaps a partial move with
    the next move, which may open a space and so forbid it. Its proof uses of the cards only that a
    card fits a tableau card by rank and colour, and the win being a foundation move, so it holds for any
    number of suits and ranks (two colours), wrap-around building or foundations, a dealt base (also with
    tableau ranks counted from it, ``tableau.wrap: base``: nothing fits on a base-rank card, still a
    relation of rank and colour), face-down cards, reserves, waste and worrying back.
    """
    t = rules.tableau
    return (
        _suit_foundations(rules)
        and rules.deck.decks == 1
        and t.build == "alternate-colour"
        and t.direction == "down"
        and t.group_moves == "build"
        and rules.cells.count == 0
        and not (rules.stock.size and rules.stock.deal_to == "tableau")
        and t.empty != "reserve-then-waste"
    )


def _no_return_sound(rules: RuleSet) -> bool:
    """``no_return``: worrying back (``removable``) under ``safe_home``'s conditions, on which its proof rests
    (see :meth:`Dominances._returns_home`)."""
    return rules.foundations.removable and _safe_home_sound(rules)


_SOUND = {
    "safe_deal": _safe_deal_sound,
    "safe_home": _safe_home_sound,
    "partial_pile": _partial_pile_sound,
    "no_return": _no_return_sound,
}


def chosen(names: Iterable[str] | None) -> frozenset[str] | None:
    """The dominance names asked for (None stays None: every one that applies); an unknown name is a
    ValueError, so an ablation cannot silently switch off nothing."""
    if names is None:
        return None
    got = frozenset(names)
    bad = sorted(got - set(DOMINANCES))
    if bad:
        raise ValueError(f"unknown dominance {bad[0]!r} (known: {', '.join(DOMINANCES)})")
    return got


def applicable(rules: RuleSet) -> frozenset[str]:
    """The dominances that are sound for ``rules`` (a subset of :data:`DOMINANCES`)."""
    return frozenset(name for name in DOMINANCES if _SOUND[name](rules))


class Dominances:
    """The dominances in force for one engine, with how often each fired (``fired``).

    ``names``: the rules to use, intersected with :func:`applicable` (None: every applicable rule;
    unknown names are a ValueError, see :func:`chosen`).
    """

    def __init__(self, engine: Engine, names: Iterable[str] | None = None) -> None:
        ok = applicable(engine.rules)
        asked = chosen(names)
        if asked is not None:
            ok &= asked
        self.e = engine
        self.on = ok
        self.fired: dict[str, int] = dict.fromkeys(DOMINANCES, 0)
        self._deal = "safe_deal" in ok
        self._home = "safe_home" in ok
        self._partial = "partial_pile" in ok
        self._return = "no_return" in ok
        # Waste cards too when the stock turns one card at a time (see _safe_home).
        self._waste_home = engine.rules.stock.deal_count == 1 and engine.stock_to == "waste"
        # Spaces that then take only a waste card: only a card lying on another in the tableau (_safe_home).
        self._covered_only = engine.rules.tableau.empty == "reserve-then-waste"
        n = engine.deck.n_codes
        # receivers[c]: the codes that may ever be built onto c in the tableau (with worrying back: the
        # highest cards of K(c)); alt_receivers[c], without worrying back: K(c)'s, a second way to pass.
        self.receivers: list[tuple[int, ...]] = [() for _ in range(n)]
        self.alt_receivers: list[tuple[int, ...]] | None = None
        if (self._home or self._return) and engine.build != "none":
            acc: list[list[int]] = [[] for _ in range(n)]
            for x in range(n):
                for c in engine.build_targets(x):
                    acc[c].append(x)
            self.receivers = [tuple(b) for b in acc]
            if engine.removable:
                self.receivers = _closure_receivers(engine, self.receivers)
            elif _closure_plain_sound(engine.rules):
                closure = _closure_receivers(engine, self.receivers)
                if closure != self.receivers:
                    self.alt_receivers = closure
        # fpos[c]: how many cards of c's suit are home just before c can go home (0 for the base rank).
        self.fpos = [(engine.rank[c] - engine.base_rank) % engine.R for c in range(n)]

    # The interface backends use -----------------------------------------------------------------------
    def forced(self, moves: list[Move]) -> Move | None:
        """A move among ``moves`` that may be played alone (the others need not be searched), or None."""
        if self._deal:
            m = self._safe_deal(moves)
            if m is not None:
                self.fired["safe_deal"] += 1
                return m
        if self._home:
            m = self._safe_home(moves)
            if m is not None:
                self.fired["safe_home"] += 1
                return m
        return None

    def prune(self, moves: list[Move]) -> list[Move]:
        """``moves`` without those a dominance proves unnecessary."""
        out = moves
        if self._partial:
            out = [m for m in out if self._partial_ok(m)]
            self.fired["partial_pile"] += len(moves) - len(out)
        if self._return:
            n = len(out)
            out = [m for m in out if m[0] != FOUNDATION or not self._returns_home(m)]
            self.fired["no_return"] += n - len(out)
        return out

    def allowed(self, m: Move) -> bool:
        """May ``m`` be searched? (False only for moves :meth:`prune` drops.)"""
        if self._partial and not self._partial_ok(m):
            return False
        return not (self._return and m[0] == FOUNDATION and self._returns_home(m))

    # The rules ----------------------------------------------------------------------------------------
    def _safe_deal(self, moves: list[Move]) -> Move | None:
        """A stock deal onto an empty waste.

        Proof: stock cards reach play only through the waste, and while the waste is empty no move but a
        deal touches the stock or the waste (a redeal needs a non-empty waste), and no other move's
        legality depends on them (``reserve-then-waste`` spaces only let a waste card in: a deal adds
        moves, it forbids none). A winning sequence from here must deal (stock cards must go home), and
        the moves before its first deal commute with that deal, so the deal can be played first: the same
        moves in another order, with the same number of cards home after each of them (so the most cards
        removed is kept too). Under ``waste-then-stock`` spaces a sequence may take its first stock card
        into a space instead (only when a space is open: then that is the only legal move, so the moves
        before it open no earlier space and do not depend on the waste); after the deal the same card
        fills the same space from the waste, reaching the same state.
        """
        e = self.e
        if e.waste or not e.stock:
            return None
        for m in moves:
            if m[0] == STOCK and m[2] == WASTE:
                return m
        return None

    def _safe_home(self, moves: list[Move]) -> Move | None:
        """A foundation move from a tableau top, a free cell or the reserve, of a card every card that could
        ever be built onto which is already home (with worrying back: ``K(c)`` and ``R(c)``, below); from the
        waste only when the stock turns one card at a time (with several, playing a waste card early changes
        how later deals group the waste, the bug Blake & Gent found in Wolter's Canfield solver).

        Proof (under :func:`_safe_home_sound`): take any winning sequence ``s`` from the current state and
        drop from it every move of the card ``c`` (and ``c`` from the groups it tops). Nothing can ever be
        put on ``c``: its builders are home for good, and no deal covers a pile. So ``c`` only ever tops a
        group, and taking it off leaves every group valid (a whole pile stays a whole pile) and no larger.
        Every source stays uncovered, every target card stays on top, every space or free cell that was
        empty stays empty (one more may be), no space must take a reserve card, and every foundation move
        still finds its predecessor home (``c`` is home all along; one deck, so it is the same pile);
        face-down cards only turn up earlier. So after playing ``c`` home the shortened sequence wins, with
        at least as many cards home at each step (so the most cards removed is kept too).

        From the waste, one card a turn: ``c`` lies in the stock-and-waste sequence, where ``s`` may turn it
        up again later (after turning the waste over) and play it. Drop also every turn that deals ``c``
        (a turn of one card: it deals ``c`` and nothing else) and every redeal that would find the waste
        empty without ``c`` (nothing moves). Every other turn deals the card it dealt in ``s``, the stock and
        waste being those of ``s`` without ``c`` in the same order, the waste's top is the same card
        whenever ``s`` plays from it (``c`` was never under a card played while ``c`` lay on it: only the
        top plays), and no more redeals are used. With stock access (:mod:`.stock_access`) a play names
        the card's position, which the same dropping shifts by one or keeps; with one card a turn every
        position is reachable, so the play is still a legal macro move.

        With worrying back (``removable``) a home card may come back and be built on, so the test is on
        ``K(c)`` and ``R(c)`` (:func:`_closure_receivers`): every card of ``K`` is home now, every card of
        ``R`` is home or can go home, and whatever may be built onto ``c`` or a card of ``K`` or ``R`` is in
        ``K``, ``R`` or ``c``. Let *H* be the cards home in the shortened play ("ours") but not in ``s``. Ours
        keeps every card of ``K`` and ``c`` home for good and plays every other move of ``s``, except: a move
        of a group whose bottom card is in H is dropped; a move putting a group onto a card of H is replaced
        by playing the group's cards not in H home one by one from the top down (they are in ``R``: what goes
        onto a card of H is in ``K``, ``R`` or ``c``, and the ``K`` ones are in H already); a move taking a
        card off a foundation that is in ``K``, or onto a card of H, is dropped; any other group loses its H
        cards from its top. Invariants after each step: (i) nothing outside H lies on a card of H in ``s``, so
        each pile of ours is the pile of ``s`` without a top run of H cards, and every cell or space is as
        free or freer; (ii) a foundation pile of ours is the pile of ``s`` together with its suit's H cards, a
        run from the base: ``K`` is a run from the base in each suit, ``R`` holds only the next card above it,
        and ``c``'s suit is ``K``'s part below ``c``, so the run has no gap. A card of ``R`` sent home by the
        replacement finds its predecessor (in ``K``) on top: no card above it is home in ``s`` or in H. A kept
        move of a card ``x`` outside H finds its source and target as in ``s`` (its target is not in H: ``x``
        would then be in ``R``, a replaced move), and a kept foundation move or worrying back of ``x`` finds
        the top of ``s``, since a card of H above ``x`` in its suit would put ``x`` in ``K``. Stock and waste
        hold no card of H (none goes there), face-down cards only turn up earlier, no space must take a card.
        So the shortened play is legal and wins, with at least as many cards home at each step; it is no
        longer than ``s``: each card sent home by a replacement saves the later move of ``s`` that plays it
        home (dropped then: it is in H), and the replaced move itself is dropped. Building down in suit,
        ``K(c)`` is ``c``'s suit below ``c``, all home once ``c`` may go home: every such card is safe (Fan).

        Without worrying back the same test is a second way to pass (``alt_receivers``; conditions:
        :func:`_closure_plain_sound`): the argument above never takes a card off a foundation, and ``s``
        has no such move to drop. Its piles of ``s`` made only of H cards are empty in ours (more spaces
        and free cells, which no move of ``s`` kept in ours needs less of). With spaces filled from the
        reserve first (Canfield) such an early space must be filled at once, and the reserve part below
        carries over with ``j`` such piles instead of one: write ``Q`` for ``s``'s reserve without ``c``;
        ours' reserve is ``Q`` without its last ``j`` cards, which lie in ours, one a pile, in place of
        ``j`` of ``s``'s piles made only of H cards (up to the order of the piles; with fewer than ``j`` cards
        left in ``Q`` the rest of those piles are empty in ours). Nothing lies on those cards in ``s`` (they
        are in its reserve) nor in ours (a move of ``s`` onto a card of H is replaced). When ``s`` plays one
        of them, ours plays it from its one-card pile to the same place (a whole pile, kept by
        ``partial_pile``) and fills that space with its reserve's last card; when ``s`` fills a space with
        ``Q``'s card ``x`` (or empties a pile made only of H cards and fills it), ours' pile of ``x`` now
        answers to that pile of ``s`` and ours fills its own space with its last card; when a pile of ``s``
        becomes made only of H cards (a replacement or a trimmed group emptied it in ours), ours fills it
        with its last card. ``j`` grows or shrinks by one at a time, every fill is the one legal move of its
        state, and the length argument of the reserve part (fills not counted; the cards sent home by
        replacements saving their later moves) carries over, by induction on (length, reserve size).

        Spaces filled from the reserve first (``reserve-first``, no worrying back): while the reserve has
        cards, an open space has one legal move, filling it with the reserve's last card ``r``. Dropping
        ``c`` can open a space earlier (where ``s`` has ``c`` alone in a pile), which ours must then fill
        with ``r`` while ``s`` still holds ``r`` in its reserve. Ours keeps one of two relations to ``s``
        after each step, up to the order of the piles: (A) it is ``s``'s state without ``c``, and a pile
        that is ``[c]`` in ``s`` is empty in ours only while the reserve is empty (the proof above); (B)
        ``s`` has a pile ``[c]``, ours has in its place a pile ``[r]`` with ``r`` the last card of
        ``s``'s reserve, ours' reserve is ``s``'s without ``r``, and all else is as in (A). In (B) nothing
        is built on ``r`` in ``s`` (it lies in the reserve), nor on ``c``. Ours follows ``s``: when ``s``
        fills a space with ``c`` from the reserve (``c`` in ``s``'s reserve, ours without it), ours fills it
        with its own last card (B); when ``s`` plays ``c`` out of its pile ``[c]`` and fills that space
        with ``r``, ours does nothing (back to A); when ``s`` plays ``r`` from the reserve (home or onto a
        tableau card), ours plays ``r`` from its pile ``[r]`` to the same place (a whole one-card pile: also
        kept by ``partial_pile``) and fills the space with its next reserve card (B again), or leaves it
        empty when the reserve is empty (A); when ``s`` fills any other space, ours fills it too and the
        pile ``[r]`` of ours now answers to ``s``'s newly filled pile (B, the piles renamed). Any other move
        is played as in (A). Only fills, each the one legal move of its state, are added. So count a
        play's length without its fills and take ``s`` shortest so counted among the wins ``partial_pile``
        keeps (one exists: Theorem 1); ours is then kept by ``partial_pile`` too (its extra moves are fills
        and moves of a whole one-card pile; a card it uncovers fits home in ours when it does in ``s``) and
        shorter by the moves of ``c``. Where the search plays a fill (forced: the only legal move) the
        length stays and the reserve shrinks; where it plays ``c`` alone, or every kept move, some child has
        a shorter such win: by induction on (length, reserve size) the search finds a win. With stock access
        a waste play is one move, as in ``s``; the waste is as in ``s`` (a fill never takes a waste card
        while the reserve has cards).

        Spaces filled from the reserve, then only by a waste card (``reserve-then-waste``; while a space is
        open then, no other card goes to the tableau), no worrying back: only for ``c`` on a tableau pile of
        two or more cards. In ``s`` such a ``c`` never lies alone in a pile: the cards under it leave only
        with it, and it never enters a space (while the reserve has cards a space takes only the reserve's
        card, then only a waste card). So each pile of ours, ``s``'s without ``c``, is empty exactly when
        ``s``'s is: ours has the same spaces and the same reserve, every rule about spaces allows it what it
        allows ``s``, and the proof's first part holds as it stands.
        """
        e = self.e
        home: dict[int, int] | None = None
        for m in moves:
            if m[2] != FOUNDATION or m[0] not in (TABLEAU, CELL, RESERVE, WASTE):
                continue
            if self._covered_only and (m[0] != TABLEAU or len(e.piles[m[1]]) < 2):
                continue
            if m[0] == WASTE:
                if not self._waste_home:
                    continue
                # A stock-access play (patience.solvers.stock_access) names its position in the sequence.
                card = (e.waste + e.stock[::-1])[m[1] - 1] if m[1] > 0 else e.waste[-1]
            else:
                card = e.moved_card(m)
            if card is None:
                continue
            if home is None:
                home = {e.suit[f[0]]: len(f) for f in e.found if f}
            suit, fpos, alt = e.suit, self.fpos, self.alt_receivers
            if all(home.get(suit[x], 0) > fpos[x] for x in self.receivers[card]):
                return m
            if alt is not None and all(home.get(suit[x], 0) > fpos[x] for x in alt[card]):
                return m
        return None

    def _partial_ok(self, m: Move) -> bool:
        """Blake & Gent's Theorem 1: a tableau-to-tableau move of part of a built pile (the card under the
        moved group is face up and the group's bottom card is built on it) only when that card can go
        straight to a foundation.

        The theorem (proof in Blake & Gent 2019, Appendix C; conditions in :func:`_partial_pile_sound`)
        shows that every deal won under the plain rules is won under this restriction. Its proof rewrites a
        winning sequence from any position without making it longer, so the restriction is a property of
        the state and combines with a transposition table. It keeps the verdict, not the most cards
        removed: backends report no proven max-cards bound when it is on.
        """
        if m[0] != TABLEAU or m[2] != TABLEAU:
            return True
        e = self.e
        p = e.piles[m[1]]
        start = len(p) - m[4]
        if start <= 0 or start - 1 < e.down[m[1]]:
            return True  # the whole face-up part moves
        below = p[start - 1]
        if not e.can_build(p[start], below):
            return True  # the group is a whole built pile
        return e._fits_foundation(below) >= 0

    def _returns_home(self, m: Move) -> bool:
        """Does ``m`` take a card ``w`` off its foundation (worrying back) into a state where ``safe_home``'s
        test passes for ``w`` (every card of ``K(w)`` home, :func:`_closure_receivers`)? Such a move is not
        searched (Solvitaire's ``dominance_blocks_foundation_move``).

        Proof: let ``X`` be the state, ``Y`` the state after ``m``, and suppose ``X`` is won. Take a shortest
        winning sequence from ``X`` that keeps ``partial_pile`` where that applies (its Theorem 1 rewrites a
        sequence without making it longer, so one exists among the shortest), of length ``L``, and suppose
        it starts with ``m``: its rest ``s`` wins from ``Y`` in ``L - 1`` moves. In ``Y`` the card ``w``
        lies on a tableau top (where worrying back puts it) and can go home, and every card of ``K(w)`` is
        home, so the proof of :meth:`_safe_home` turns ``s`` into ``w`` home followed by ``s`` without the
        moves of ``w`` and of ``K(w)``; ``s`` moves ``w`` at least once (``w`` is not home in ``Y``), so this
        play from ``Y`` has at most ``L - 1`` moves, and its first move leads back to ``X``: ``X`` has a win
        of at most ``L - 2`` moves, a contradiction. So some shortest win starts with another move, which
        the search keeps: the cut loses no won deal, and with ``safe_home`` and ``partial_pile`` (each keeps
        a win no longer than before) it composes by induction on the length of the shortest win. It may
        hide states with more cards home than any the search sees (the states after ``m``), so backends
        report no proven max-cards bound when it cut.
        """
        e = self.e
        w = e.found[m[1]][-1]
        sw = e.suit[w]
        home = {e.suit[f[0]]: len(f) for f in e.found if f}
        home[sw] -= 1  # in the state after m
        fpos, suit = self.fpos, e.suit
        return all(home.get(suit[y], 0) > fpos[y] for y in self.receivers[w])
