"""The observation shows what a person at the table sees, and nothing a hidden card could change."""

from __future__ import annotations

import dataclasses
import random

import pytest

from patience.deals import deal
from patience.engine import STOCK, WASTE, Engine
from patience.instance import Instance, Layout
from patience.play.observation import HIDDEN, Boards, Observation, observe, sample_world, unseen_cards


def _permute_hidden(inst: Instance, seed: int) -> Instance:
    """The same deal with its face-down tableau cards and its stock shuffled among themselves."""
    lay = inst.layout
    hidden = [c for p in lay.tableau for c in p[:-1]] + list(lay.stock)
    random.Random(seed).shuffle(hidden)
    it = iter(hidden)
    tableau = tuple(tuple(next(it) for _ in p[:-1]) + p[-1:] for p in lay.tableau)
    stock = tuple(next(it) for _ in lay.stock)
    new = Instance.build(inst.game, dataclasses.replace(lay, tableau=tableau, stock=stock), inst.overrides)
    assert new.layout != lay
    return new


def _obs(inst: Instance) -> Observation:
    e = Engine(inst)
    return observe(e, e.legal_moves())


@pytest.mark.parametrize("game", ["klondike", "spider-1-suit", "golf"])
def test_deals_differing_only_in_hidden_cards_look_the_same(game: str) -> None:
    inst = deal(game, 5)
    if game == "golf":  # golf's tableau is face up: only the stock is hidden
        lay = inst.layout
        stock = list(lay.stock)
        random.Random(1).shuffle(stock)
        other = Instance.build(inst.game, dataclasses.replace(lay, stock=tuple(stock)))
    else:
        other = _permute_hidden(inst, 1)
    assert Engine(inst).snapshot() != Engine(other).snapshot()
    assert _obs(inst) == _obs(other)


def test_klondike_shows_seven_cards_and_counts_the_rest() -> None:
    inst = deal("klondike", 3)
    obs = _obs(inst)
    assert len(obs.visible_cards()) == 7
    assert obs.hidden_places() == 52 - 7
    assert obs.down == (0, 1, 2, 3, 4, 5, 6)
    assert len(obs.stock) == 24 and set(obs.stock) == {HIDDEN}
    top = [Engine(inst).piles[i][-1] for i in range(7)]
    assert [p[-1] for p in obs.piles] == top


def test_the_observation_holds_no_engine_instance_or_hidden_card() -> None:
    """A player that tries: everything reachable from the observation is plain data, and the card codes in
    it are exactly the visible ones (the face-down cards are not stored anywhere in it)."""
    inst = deal("klondike", 8)
    e = Engine(inst)
    obs = observe(e, e.legal_moves())
    assert {f.name for f in dataclasses.fields(obs)} == set(vars(obs))

    def leaves(x: object) -> list[object]:
        if isinstance(x, tuple):
            return [y for item in x for y in leaves(item)]
        return [x]

    for f in dataclasses.fields(obs):
        for leaf in leaves(getattr(obs, f.name)):
            assert isinstance(leaf, (int, str)), (f.name, type(leaf))
    card_fields = ("piles", "foundations", "cells", "reserve", "stock", "waste")
    shown = {c for name in card_fields for c in leaves(getattr(obs, name)) if isinstance(c, int) and c >= 0}
    face_down = {c for p, d in zip(e.piles, e.down, strict=True) for c in p[:d]} | set(e.stock)
    assert shown == {p[-1] for p in e.piles}
    assert not shown & face_down
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.piles = ()  # type: ignore[misc]


def test_freecell_and_thoughtful_klondike_show_every_card() -> None:
    for game in ("freecell", "klondike-thoughtful"):
        obs = _obs(deal(game, 2))
        assert obs.hidden_places() == 0
        assert len(obs.visible_cards()) == 52


def test_the_stock_is_known_after_it_has_been_turned_through() -> None:
    e = Engine(deal("klondike", 4))
    while e.stock:
        e.apply((STOCK, 0, WASTE, 0, min(3, len(e.stock))))
        assert HIDDEN not in observe(e, []).waste
    e.apply((WASTE, 0, STOCK, 0, len(e.waste)))
    obs = observe(e, e.legal_moves())
    assert HIDDEN not in obs.stock and len(obs.stock) == 24
    assert obs.hidden_places() == 21  # only the face-down tableau cards


def test_sampled_worlds_are_consistent_with_the_observation() -> None:
    """Every sampled world deals exactly the unseen cards into the hidden places, and looks the same."""
    inst = deal("klondike", 6)
    e = Engine(inst)
    rng = random.Random(0)
    for _ in range(12):  # walk into the game a little
        e.apply(rng.choice(e.legal_moves()))
    obs = observe(e, e.legal_moves())
    boards = Boards.for_observation(obs)
    truly_hidden = [c for p, d in zip(e.piles, e.down, strict=True) for c in p[:d]]
    if HIDDEN in obs.stock:
        truly_hidden += e.stock
    assert unseen_cards(obs, boards.rules) == sorted(truly_hidden)
    samples = set()
    for k in range(40):
        world = sample_world(obs, boards.rules, random.Random(k))
        w = boards.engine(world)
        assert observe(w, w.legal_moves()) == obs
        placed = tuple(c for p, d in zip(w.piles, w.down, strict=True) for c in p[:d])
        placed += tuple(w.stock) if HIDDEN in obs.stock else ()
        assert sorted(placed) == sorted(truly_hidden)
        samples.add(placed)
    assert len(samples) == 40  # the unseen cards really are shuffled


def test_gaps_is_refused() -> None:
    e = Engine(deal("gaps-basic-variant", 1))
    with pytest.raises(ValueError, match="Gaps"):
        observe(e, [])


def test_layout_is_never_exposed() -> None:
    """An Instance is not reachable: the observation's attributes are the declared fields only."""
    obs = _obs(deal("klondike", 1))
    assert not any(isinstance(v, (Instance, Layout, Engine)) for v in vars(obs).values())
