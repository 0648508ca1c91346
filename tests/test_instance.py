"""Instance format: validation names the path, JSON round trips, canonical hash."""

import json
from pathlib import Path

import pytest

from patience.deals import deal
from patience.instance import Instance, InstanceError, load_instance
from patience.rules import list_games


def _bh() -> dict:
    return deal("black-hole", 1, "pysol").to_json()


def test_round_trip_json_and_hash(tmp_path: Path) -> None:
    inst = deal("freecell", 617, "ms")
    path = tmp_path / "i.json"
    inst.save(path)
    again = load_instance(path)
    assert again == inst
    assert again.sha256 == inst.sha256
    assert json.loads(path.read_text())["format"] == "patience-instance/1"


def test_hash_ignores_source_but_not_cards() -> None:
    data = _bh()
    a = Instance.from_json(data)
    data["source"] = {"generator": "other"}
    assert Instance.from_json(data).sha256 == a.sha256
    data["layout"]["tableau"][0][0], data["layout"]["tableau"][1][0] = (
        data["layout"]["tableau"][1][0],
        data["layout"]["tableau"][0][0],
    )
    assert Instance.from_json(data).sha256 != a.sha256


@pytest.mark.parametrize(
    "mutate,message",
    [
        (
            lambda d: d["layout"]["tableau"][3].__setitem__(1, d["layout"]["tableau"][0][0]),
            r"layout.tableau\[3\]\[1\]: duplicate card",
        ),
        (lambda d: d["layout"]["tableau"][2].__setitem__(0, "XX"), r"layout.tableau\[2\]\[0\]: bad card"),
        (lambda d: d["layout"]["tableau"][2].pop(), r"layout.tableau\[2\]: 2 cards, the rules deal 3"),
        (lambda d: d.__setitem__("colour", 1), r"colour: unknown key"),
        (lambda d: d["layout"].__setitem__("hand", []), r"layout.hand: unknown key"),
        (lambda d: d.__setitem__("game", "no-such-game"), r"unknown game"),
        (lambda d: d.__setitem__("rules", {"piles": 16}), r"do not divide"),
        (lambda d: d.__setitem__("rules", {"suits": 0}), r"deck.suits"),
        (lambda d: d["deck"].__setitem__("ranks", 12), r"deck.ranks: 12 does not match"),
        (lambda d: d["layout"]["foundations"][0].__setitem__(0, "AH"), r"foundations\[0\]"),
        (lambda d: d.__setitem__("format", "other/2"), r"format"),
    ],
)
def test_bad_instances_name_the_path(mutate, message: str) -> None:
    data = _bh()
    mutate(data)
    with pytest.raises(InstanceError, match=message):
        Instance.from_json(data)


def test_missing_card_is_named() -> None:
    data = deal("freecell", 1, "ms").to_json()
    data["layout"]["tableau"][0][0] = data["layout"]["tableau"][1][0]
    with pytest.raises(InstanceError, match="duplicate card"):
        Instance.from_json(data)


def test_malformed_json_names_line(tmp_path: Path) -> None:
    p = tmp_path / "bad.json"
    p.write_text('{"game": "black-hole",\n "layout": [}\n')
    with pytest.raises(InstanceError, match=r"bad.json:2:\d+: malformed JSON"):
        load_instance(p)


def test_generalized_instance_round_trip() -> None:
    inst = deal("black-hole", 4, overrides={"suits": 6, "ranks": 20, "piles": 17})
    assert inst.deck.size == 120
    again = Instance.from_json(json.loads(inst.dumps()))
    assert again.sha256 == inst.sha256


@pytest.mark.parametrize(
    "mutate,message",
    [
        (lambda g: g[0].__setitem__(0, "XX"), r"layout.grid\[0\]\[0\]: bad card 'XX'"),
        (lambda g: g[0].__setitem__(1, g[0][0] or g[0][2]), r"layout.grid\[0\]\[1\]: duplicate card"),
        (lambda g: g[0].append("AS"), r"layout.grid\[0\]: 14 cells, the rules need 13"),
        (lambda g: g[1].__setitem__(g[1].index(next(c for c in g[1] if c)), None), r"layout.grid: 5 gaps"),
    ],
)
def test_bad_gaps_grids_name_the_cell(mutate, message: str) -> None:
    data = deal("gaps-basic-variant", 1).to_json()
    mutate(data["layout"]["grid"])
    with pytest.raises(InstanceError, match=message):
        Instance.from_json(data)


def _check_cards_reference(deck, lay, rules) -> None:  # type: ignore[no-untyped-def]
    """instance._check_cards before it counted without paths (commit 97ed629), verbatim."""
    from collections import Counter

    from patience.instance import hole_start_cards

    counts: Counter = Counter()
    for path, card in lay.located_cards():
        counts[card] += 1
        if counts[card] > deck.decks:
            raise InstanceError(f"{path}: duplicate card {deck.text(card)}")
        if rules.gaps.rows and card.rank == 1:
            raise InstanceError(f"{path}: aces are removed in Gaps (a gap is null)")
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
        for c in sorted(set(deck.cards()))
        if counts[c] < deck.decks and not (rules.gaps.rows and c.rank == 1) and not aside
    ]
    if missing:
        shown = ", ".join(deck.text(c) for c in missing[:8])
        more = f" and {len(missing) - 8} more" if len(missing) > 8 else ""
        raise InstanceError(f"layout: missing card(s) {shown}{more}")


def _outcome(check, inst, lay) -> str:  # type: ignore[no-untyped-def]
    try:
        check(inst.deck, lay, inst.rules)
    except Exception as err:  # noqa: BLE001 - the error itself is compared
        return f"{type(err).__name__}: {err}"
    return "ok"


@pytest.mark.parametrize("game", [g.name for g in list_games()])
def test_card_check_says_what_the_path_by_path_check_said(game: str) -> None:
    """Random card swaps, copies, removals and foreign objects: the same verdict and message as before."""
    import random
    from dataclasses import replace

    from patience.cards import Card
    from patience.instance import _check_cards

    inst = deal(game, 3)
    rng = random.Random(game)
    spots = [(name, i, j) for name in ("tableau", "foundations", "grid")
             for i, pile in enumerate(getattr(inst.layout, name)) for j in range(len(pile))]  # fmt: skip
    assert _outcome(_check_cards, inst, inst.layout) == "ok"
    for _ in range(30):
        piles = {n: [list(p) for p in getattr(inst.layout, n)] for n in ("tableau", "foundations", "grid")}
        for _ in range(rng.randint(1, 3)):
            name, i, j = rng.choice(spots)
            other = rng.choice(spots)
            piles[name][i][j] = rng.choice([
                piles[other[0]][other[1]][other[2]],  # a copy of another card (or a gap)
                Card(1, 0), Card(rng.randint(1, 30), rng.randint(0, 9)), None, "AS",
            ])  # fmt: skip
        lay = replace(inst.layout, **{k: tuple(tuple(p) for p in v) for k, v in piles.items()})
        assert _outcome(_check_cards, inst, lay) == _outcome(_check_cards_reference, inst, lay)


def test_layout_cards_are_the_located_cards_without_paths() -> None:
    """Layout.cards (what the card check counts) lists exactly Layout.located_cards' cards, in its order."""
    for g in list_games():
        lay = deal(g.name, 1).layout
        assert lay.cards() == [c for _, c in lay.located_cards()], g.name
