"""The generic kernel (solvers/generic_kernel) against the Python engine, state for state.

For every game whose rules the kernel covers (``list_games()`` filtered by the registry predicate, so a new
game is covered by itself), on small shrunk deals and full-size deals: random walks compare the kernel's legal
moves (converted back to engine moves, in the engine's order), the state after each apply and undo, the
incrementally kept key against the key computed from scratch, and the classes of the kernel key against
``Engine.key`` (and the colour streamliner's key): two sampled states have equal kernel keys exactly when
their engine keys are equal. The compiled functions are tested when numba is on; the uncompiled ones always,
on a short walk.
"""

from __future__ import annotations

import random
from collections.abc import Hashable

import pytest

from patience.deals import deal
from patience.engine import Engine
from patience.instance import Instance
from patience.rules import list_games, load_game
from patience.shrink import shrink
from patience.solvers.generic_kernel import kernel, kernel_supports, unsupported_features
from patience.solvers.generic_kernel.pack import engine_key_classes, from_move, pack, to_move
from patience.solvers.stock_access import StockAccess, canonical
from patience.solvers.stock_access import applies as stock_access_applies

GAMES = [g.name for g in list_games() if kernel_supports(g.rules)]
JIT = kernel.HAVE_NUMBA


def small(game: str, seed: int) -> Instance:
    """A shrunk deal (about 12 cards, every rule feature kept: :func:`patience.shrink.shrink`)."""
    return deal(game, seed, "portable", shrink(load_game(game).rules, 12))


def walk(inst: Instance, steps: int, rng: random.Random, jit: bool, colour: bool = False) -> list[tuple]:
    """A random walk on the engine and the kernel side by side, checking both at every state; returns
    (engine key, kernel key, snapshot) of every state met. With stock access (a waste stock with unlimited
    redeals) the engine side plays :class:`StockAccess`'s moves and keys."""
    e = Engine(inst)
    p = pack(e, colour=colour, jit=jit)
    sa = StockAccess(e) if stock_access_applies(inst.rules) else None
    seen = []
    played: list[tuple] = []
    for _ in range(steps):
        moves = sa.moves() if sa is not None else e.legal_moves()
        assert [to_move(m) for m in p.moves()] == moves
        assert p.snapshot() == e.snapshot()
        assert p.key() == p.fresh_key()
        assert p.top_masks_ok()
        ek = engine_key_classes(e, colour)
        seen.append((canonical(ek, sa.k) if sa is not None else ek, p.key(), e.snapshot()))  # type: ignore[arg-type]
        if played and (not moves or rng.random() < 0.25):
            m, flip, n = played.pop()
            for _ in range(n):
                e.undo()
            p.undo(m, flip)
            continue
        if not moves:
            break
        move = rng.choice(moves)
        km = from_move(move)
        assert to_move(km) == move
        real = sa.real(move) if sa is not None else [move]
        for x in real:
            e.apply(x)
        played.append((km, p.apply(km), len(real)))
    return seen


def classes_agree(seen: list[tuple]) -> int:
    """Assert that engine keys and kernel keys partition the states alike; return how many distinct states
    (snapshots) share a key with another one (transpositions up to pile and cell order)."""
    by_engine: dict[Hashable, tuple] = {}
    by_kernel: dict[tuple, Hashable] = {}
    snaps: dict[Hashable, set] = {}
    for ek, kk, snap in seen:
        assert by_engine.setdefault(ek, kk) == kk, "equal engine keys, different kernel keys"
        assert by_kernel.setdefault(kk, ek) == ek, "different engine keys, equal kernel keys"
        snaps.setdefault(ek, set()).add(snap)
    return sum(len(s) for s in snaps.values() if len(s) > 1)


def test_the_kernel_covers_the_rearrangement_games_with_suit_or_run_foundations() -> None:
    """The predicate picks games by rule features: suit or run foundations with any stock dealt onto a waste
    or the tableau in; holes, grids, rows and Fortune's Favor's waste-then-stock spaces out."""
    for name in ("freecell", "king-albert", "klondike-thoughtful", "canfield", "spider", "spider-runs"):
        assert name in GAMES
    for name, why in [
        ("golf-solvitaire", "a stock dealt onto a hole"),
        ("black-hole", "foundations of kind 'hole'"),
        ("gaps", "a Gaps grid"),
        ("accordion", "a row game"),
    ]:
        got = unsupported_features(load_game(name).rules)
        assert any(why in g for g in got), (name, got)
    assert not kernel_supports(load_game("freecell", {"piles": 63, "decks": 2}).rules)
    assert "spaces filled 'waste-then-stock'" in " ".join(
        unsupported_features(load_game("klondike-thoughtful", {"tableau.empty": "waste-then-stock"}).rules)
    )


@pytest.mark.parametrize("game", GAMES)
def test_small_walks_agree_with_the_engine(game: str) -> None:
    rng = random.Random(game)
    seen: list[tuple] = []
    for seed in range(6):
        for _ in range(3):
            seen += walk(small(game, seed), 60, rng, JIT)
    classes_agree(seen)


@pytest.mark.parametrize("game", GAMES)
def test_full_size_walks_agree_with_the_engine(game: str) -> None:
    rng = random.Random(game)
    seen: list[tuple] = []
    for seed in (1, 2):
        seen += walk(deal(game, seed), 120, rng, JIT)
    classes_agree(seen)


def test_key_classes_meet_transpositions() -> None:
    """The class test is not vacuous: walks reach equal engine keys through different snapshots (pile or
    cell order), and the kernel keys agree there, for the plain and the colour key."""
    shared = {False: 0, True: 0}
    for colour in (False, True):
        for game in ("freecell", "eight-off", "streets-and-alleys", "king-albert"):
            rng = random.Random(7)
            seen: list[tuple] = []
            for _ in range(30):
                seen += walk(small(game, 3), 40, rng, JIT, colour=colour)
            shared[colour] += classes_agree(seen)
    assert shared[False] > 0 and shared[True] > 0, shared


def test_uncompiled_functions_agree() -> None:
    """The plain-Python kernel (what runs without numba) walks like the engine too."""
    rng = random.Random(3)
    for game in ("freecell", "king-albert", "northwest-territory", "fan"):
        classes_agree(walk(small(game, 1), 40, rng, jit=False))


def test_inlined_helpers_are_kernel_helpers() -> None:
    """Every name numba is told to inline is a registered kernel helper (a typo would silently inline
    nothing and cost the compiled searches half their speed)."""
    names = {h.__name__ for h in kernel._HELPERS}
    assert kernel._INLINED and kernel._INLINED <= names
    assert not kernel._INLINED & {"_apply", "_undo", "_gen"}  # inlined at every call site: minutes to compile
