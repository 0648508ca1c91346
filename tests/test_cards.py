"""Cards: parsing, formatting, codes and generalized decks."""

import pytest

from patience.cards import Card, CardError, Deck, colour_of_suit, parse_card


@pytest.mark.parametrize(
    "text,card",
    [
        ("AS", Card(1, 3)),
        ("td", Card(10, 1)),
        ("10h", Card(10, 2)),
        ("KC", Card(13, 0)),
        ("14:5", Card(14, 5)),
    ],
)
def test_parse(text: str, card: Card) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize("text", ["", "1S", "AX", "11H", "0:1", "A:S", "10", "S"])
def test_parse_rejects(text: str) -> None:
    with pytest.raises(CardError):
        parse_card(text)


def test_text_round_trip_standard_and_generalized() -> None:
    for deck in (Deck(), Deck(6, 20), Deck(2, 5, 3)):
        for c in deck.cards():
            assert deck.parse(deck.text(c)) == c
            assert deck.card(deck.code(c)) == c
    assert Deck(6, 20).text(Card(14, 5)) == "14:5"
    assert Deck().text(Card(10, 3)) == "TS"


def test_deck_sizes_and_membership() -> None:
    assert Deck().size == 52 and Deck(decks=2).size == 104
    assert len(set(Deck().cards())) == 52
    assert Deck(6, 20).n_codes == 120
    with pytest.raises(CardError, match="not in a deck"):
        Deck(2, 5).parse("KS")
    with pytest.raises(CardError, match="deck.suits"):
        Deck(0, 13)


def test_colours() -> None:
    assert [colour_of_suit(s) for s in range(4)] == [0, 1, 1, 0]  # C D H S
    assert Card(1, 1).colour != Card(1, 0).colour
