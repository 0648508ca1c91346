"""The store key of rule overrides is their canonical form: ``cells=2`` and ``cells.count=2`` (as text from
``--set`` or as values) share one key, so a rerun in the other spelling resumes instead of solving again."""

from __future__ import annotations

import json

from patience.experiments.runner import Job, run_job
from patience.experiments.store import open_store, rules_key

# The tiny Black Hole of the runner tests, written three ways.
SPELLINGS = [
    {"suits": "2", "ranks": "5", "piles": "3"},
    {"deck.suits": 2, "deck.ranks": 5, "tableau.piles": 3},
    {"tableau.piles": 3, "ranks": 5, "deck.suits": "2", "decks": 1},
]


def test_raw_keys_differ_canonical_keys_agree() -> None:
    """Without the game the key is the overrides as given (the old key, different per spelling); with it,
    one canonical key."""
    assert rules_key({"cells": "2"}) != rules_key({"cells.count": 2})
    assert rules_key({"cells": "2"}, "freecell") == rules_key({"cells.count": 2}, "freecell") == '{"cells":2}'
    assert rules_key({"piles": 8}, "freecell") == rules_key(None, "freecell") == "{}"
    keys = {Job("black-hole", range(1, 3), "dfs", 5.0, "portable", over).rules for over in SPELLINGS}
    assert keys == {'{"piles":3,"ranks":5,"suits":2}'}


def test_bad_overrides_are_keyed_as_given() -> None:
    """A row recording a deal error still gets a key (rules_key never raises for overrides it can't take)."""
    assert json.loads(rules_key({"colour": "red"}, "freecell")) == {"colour": "red"}


def test_another_spelling_resumes_the_same_rows(tmp_path) -> None:
    seeds = range(1, 7)
    with open_store(tmp_path / "r.sqlite") as store:
        first = run_job(Job("black-hole", seeds, "dfs", 5.0, "portable", SPELLINGS[0]), store)
        assert store.count() == len(seeds)
        starts: list[tuple[int, int]] = []
        for over in SPELLINGS[1:]:
            job = Job("black-hole", seeds, "dfs", 5.0, "portable", over)
            assert run_job(job, store, on_start=lambda t, d: starts.append((t, d))) == first
        assert starts == [(0, len(seeds))] * 2  # each rerun found every deal solved: nothing left to do
        assert store.count() == len(seeds)
    assert {r.rules for r in first} == {'{"piles":3,"ranks":5,"suits":2}'}
    assert all(r.sha256 for r in first)
