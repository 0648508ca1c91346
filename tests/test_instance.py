"""Instance format: validation names the path, JSON round trips, canonical hash."""

import json
from pathlib import Path

import pytest

from patience.deals import deal
from patience.instance import Instance, InstanceError, load_instance


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
