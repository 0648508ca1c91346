"""``--set NAME=VALUE``: pairs split at the first '=', values bounded like a file's, JSON where it parses."""

from __future__ import annotations

import pytest

from patience.cli.errors import UsageError
from patience.cli.sets import coerce_sets, parse_sets


def test_pairs_keep_their_text() -> None:
    got = parse_sets(("cells=2", " tableau.empty = kings ", "name=a=b"))
    assert got == {"cells": "2", "tableau.empty": "kings", "name": "a=b"}


def test_values_become_json_where_they_parse() -> None:
    got = coerce_sets(("cells=2", "wrap=true", "empty=kings", "sizes=[3,2,1]", "x=2.5"))
    assert got == {"cells": 2, "wrap": True, "empty": "kings", "sizes": [3, 2, 1], "x": 2.5}
    assert coerce_sets(("cells=2",)) == coerce_sets(("cells= 2",))  # one rule, one store key


@pytest.mark.parametrize(
    ("pair", "words"),
    [
        ("cells", "expected NAME=VALUE"),
        ("ranks=" + "9" * 40, "digits"),  # bounded like an instance file's integers
        ("sizes=" + "[" * 40 + "]" * 40, "nest"),
    ],
)
def test_bad_pairs_are_usage_errors(pair: str, words: str) -> None:
    with pytest.raises(UsageError, match=words):
        parse_sets((pair,))
