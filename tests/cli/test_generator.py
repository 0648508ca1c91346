"""``-g/--generator``: one canonical name per deal source, one-line errors for the rest."""

from __future__ import annotations

import click
import pytest

from patience.cli.generator import GENERATOR, MAX_SWAPS


@pytest.mark.parametrize(
    ("given", "canonical"),
    [
        ("portable", "portable"),
        ("pysol", "pysol"),
        ("ms", "ms"),
        ("random", "portable"),  # a random deal with no swaps is the portable deal
        ("random:0", "portable"),
        ("random:3", "random:3"),
        ("planted", "planted"),
        ("planted:0", "planted"),
        ("planted:8", "planted:8"),
        ("sorted:2", "sorted:2"),
    ],
)
def test_canonical_names(given: str, canonical: str) -> None:
    assert GENERATOR.convert(given, None, None) == canonical


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ("nope", "is not a generator"),
        (f"planted:{MAX_SWAPS + 1}", "over the limit"),
        ("planted:x", "swaps after .:. must be an integer"),
    ],
)
def test_bad_generators_fail(given: str, words: str) -> None:
    with pytest.raises(click.BadParameter, match=words):
        GENERATOR.convert(given, None, None)
