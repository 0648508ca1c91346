"""Random numbers (patience.rng): the C++ mt19937 stream, the bucket draw and shuffle, seeded streams and
Gaps redeal seeds, pinned; and the module stays dependency-free, the engine and validator use only it."""

from __future__ import annotations

import subprocess
import sys

from patience.cards import Deck
from patience.rng import draw_below, gaps_redeal_seed, gaps_redeal_shuffle, mt19937, shuffle_mt, stream


def test_mt19937_matches_cpp() -> None:
    """The C++ standard requires the 10000th output of a default-seeded mt19937 to be 4123659995."""
    rng = mt19937(5489)
    assert [rng.getrandbits(32) for _ in range(3)] == [3499211612, 581869302, 3890346734]
    for _ in range(9996):
        rng.getrandbits(32)
    assert rng.getrandbits(32) == 4123659995
    assert mt19937(1).getrandbits(32) == 1791095845


def test_shuffle_is_a_permutation() -> None:
    """The bucket shuffle keeps every card exactly once."""
    cards = Deck().cards()
    out = shuffle_mt(cards, 123)
    assert sorted(out) == sorted(cards) and out != cards


def test_draw_below_stays_in_range_and_reaches_every_value() -> None:
    """The bucket draw gives only 0..n-1, and each of them (n = 7 does not divide 2**32)."""
    rng = mt19937(3)
    draws = [draw_below(rng, 7) for _ in range(2000)]
    assert set(draws) == set(range(7))


# Values computed before the refactor moved these helpers out of deals.py and families.py (commit
# 3f9e849): Gaps redeals, the families' streams and every portable deal must not change.
def test_seeded_values_are_pinned() -> None:
    """Redeal seeds, family streams and a shuffle give what they gave before the move."""
    assert shuffle_mt(list(range(20)), 7) == [
        13, 15, 9, 19, 8, 6, 0, 18, 2, 12, 3, 11, 16, 10, 17, 7, 5, 14, 4, 1
    ]  # fmt: skip
    assert gaps_redeal_seed("ab" * 32, 1) == 1096657437
    assert gaps_redeal_seed("0" * 64, 3) == 1383562749
    assert stream(5, "planted").getrandbits(32) == 2422326688
    assert stream(5, "swaps").getrandbits(32) == 2634458428


def test_gaps_redeal_shuffle_is_the_seeded_shuffle() -> None:
    """A redeal's order is shuffle_mt seeded by gaps_redeal_seed; redeals k differ from one another."""
    cards = list(range(30))
    sha = "cd" * 32
    assert gaps_redeal_shuffle(sha, 2, cards) == shuffle_mt(cards, gaps_redeal_seed(sha, 2))
    assert gaps_redeal_shuffle(sha, 1, cards) != gaps_redeal_shuffle(sha, 2, cards)


def _modules_after(statement: str) -> set[str]:
    """Modules loaded by a fresh interpreter after ``statement``."""
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_rng_imports_only_the_standard_library() -> None:
    loaded = _modules_after("import patience.rng")
    ours = {m for m in loaded if m.startswith("patience")}
    assert ours == {"patience", "patience.rng"}
    assert not {"msgspec", "numpy", "numba", "ortools"} & loaded


def test_engine_and_validator_do_not_load_the_deal_generators() -> None:
    """The engine and the validator replay Gaps redeals through rng alone, not through deals."""
    loaded = _modules_after("import patience.engine, patience.validate")
    assert "patience.rng" in loaded
    assert not {"patience.deals", "patience.generators", "patience.families"} & loaded
