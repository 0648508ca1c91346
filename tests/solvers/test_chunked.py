"""The loop between a compiled search's chunks (solvers/chunked.py), driven by a scripted fake search."""

from __future__ import annotations

import time

from patience.solvers.chunked import (
    CHUNK,
    COMPLETE,
    GROW,
    MEMORY,
    MIN_SLOTS,
    SLOT_BYTES,
    WON,
    drive,
    table_slots,
)


class Fake:
    """A search that returns ``codes`` in turn, each CHUNK call advancing to its ``stop_at``."""

    def __init__(self, *codes: int) -> None:
        self.codes = list(codes)
        self.nodes = 0
        self.grown = 0
        self.asked: list[int] = []

    def search(self, stop_at: int) -> int:
        self.asked.append(stop_at)
        code = self.codes.pop(0)
        if code == CHUNK:
            self.nodes = stop_at
        return code

    def grow(self) -> None:
        self.grown += 1


def _drive(fake: Fake, **kw: object) -> tuple[int, str]:
    args: dict = {"deadline": time.perf_counter() + 60, "node_cap": -1, "compiled": True, "chunk": 100}
    args.update(kw)
    return drive(fake.search, fake.grow, lambda: fake.nodes, **args)


def test_grow_then_resume_until_the_search_ends() -> None:
    fake = Fake(CHUNK, GROW, CHUNK, WON)
    assert _drive(fake) == (WON, "")
    assert fake.grown == 1
    assert fake.asked == [100, 200, 200, 300]  # after a GROW the same chunk is asked again


def test_complete_and_memory_end_the_loop() -> None:
    assert _drive(Fake(CHUNK, COMPLETE)) == (COMPLETE, "")
    assert _drive(Fake(MEMORY)) == (MEMORY, "memory")


def test_the_node_cap_bounds_every_chunk() -> None:
    fake = Fake(CHUNK, CHUNK, CHUNK)
    assert _drive(fake, node_cap=250) == (CHUNK, "nodes")
    assert fake.asked == [100, 200, 250]


def test_a_passed_deadline_stops_before_any_chunk() -> None:
    fake = Fake(WON)
    assert _drive(fake, deadline=time.perf_counter() - 1) == (CHUNK, "time")
    assert fake.asked == []


def test_chunks_adapt_to_the_clock_within_bounds() -> None:
    """Without a fixed chunk, a fast search gets larger chunks, never more than ``most``."""
    fake = Fake(*([CHUNK] * 6), WON)
    assert _drive(fake, chunk=None, most=5000) == (WON, "")
    sizes = [b - a for a, b in zip([0, *fake.asked], fake.asked, strict=False)]
    assert sizes[0] < sizes[-1] <= 5000


def test_the_table_and_the_one_it_grows_from_fit_the_budget() -> None:
    for budget in (1e5, 1e6, 3e8):
        slots = table_slots(budget)
        assert slots == MIN_SLOTS or (slots + slots // 2) * SLOT_BYTES <= budget  # both tables fit
        assert (2 * slots + slots) * SLOT_BYTES > budget  # the next size would not
