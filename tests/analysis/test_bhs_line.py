"""black-hole-solver's line for the shuffle study: its output read right, replayed to a win, and gathered into
a deck of the 52 cards."""

from __future__ import annotations

import pytest

from patience.analysis.bhs_line import bhs_line, find_bhs, parse_solution
from patience.analysis.shuffles import _gathered, _play
from patience.deals import deal
from patience.validate import replay

OUTPUT = """Solved!
Move a card from stack 11 to the foundations

Info: Card moved is KH


====================

Move a card from stack 15 to the foundations

Info: Card moved is QH
"""

needs_bhs = pytest.mark.skipif(
    find_bhs() is None, reason="black-hole-solver not built (benchmarks/peers.sh bhs)"
)


def test_parse_solution_reads_moves_and_verdicts() -> None:
    assert parse_solution(OUTPUT) == ("solved", [(11, "KH"), (15, "QH")])
    assert parse_solution("Unsolved!\n") == ("unsolvable", [])
    assert parse_solution("Intractable!\n") == ("unknown", [])
    with pytest.raises(ValueError, match="without its card"):
        parse_solution("Solved!\nMove a card from stack 3 to the foundations\n")


@needs_bhs
@pytest.mark.parametrize("seed", [2, 4, 5, 6, 7])
def test_bhs_line_replays_and_gathers_a_full_deck(seed: int) -> None:
    inst = deal("black-hole", seed, "pysol")
    got = bhs_line(inst, 60.0)
    assert got.status == "solved" and got.moves is not None and len(got.moves) == 51
    assert replay(inst, got.moves).won
    status, moves, _, fallback = _play(inst, 60.0, "bhs")
    assert status == "solved" and moves == got.moves and not fallback
    deck = _gathered(inst, moves)
    assert sorted(deck) == sorted(inst.deck.cards()) and len(deck) == 52


@needs_bhs
def test_bhs_line_on_a_lost_deal_falls_back_to_the_search_line() -> None:
    inst = deal("black-hole", 1, "pysol")  # unsolvable (test_formats: black-hole-solver says so too)
    assert bhs_line(inst, 60.0).status == "unsolvable"
    status, moves, _, fallback = _play(inst, 60.0, "bhs")
    assert status == "unsolvable" and not fallback
    assert (status, moves) == _play(inst, 60.0, "search")[:2]
    assert sorted(_gathered(inst, moves)) == sorted(inst.deck.cards())


@needs_bhs
def test_bhs_line_differs_from_dfs_line() -> None:
    """The peer's line is its own: on PySol deals 2-7 at least one differs from dfs's."""
    insts = [deal("black-hole", s, "pysol") for s in (2, 4, 5, 6, 7)]
    assert any(_play(i, 60.0, "bhs")[1] != _play(i, 60.0, "search")[1] for i in insts)


def test_a_line_that_does_not_replay_raises(tmp_path) -> None:
    """A peer line the validator rejects is a bug, never a deck: a fake solver printing a wrong card."""
    fake = tmp_path / "black-hole-solve"
    fake.write_text(
        "#!/bin/sh\ncat >/dev/null\nprintf 'Solved!\\n"
        + OUTPUT.split("\n", 1)[1].replace("\n", "\\n")
        + "'\n"
    )
    fake.chmod(0o755)
    with pytest.raises(RuntimeError, match="fails replay"):
        bhs_line(deal("black-hole", 2, "pysol"), 10.0, str(fake))
