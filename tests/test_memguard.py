"""--max-mb: a resident-set guard for every backend; past BASE_MB + max_mb the run is UNKNOWN 'memory out'."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from patience.memguard import BASE_MB, MEMORY_OUT, MemoryGuard, rss_mb

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc: Linux")
RUN = "import sys; from patience.cli import main; sys.argv[0] = 'patience'; main()"


def test_guard_interrupts_the_main_thread_past_its_limit() -> None:
    hog: list[bytes] = []
    guard = MemoryGuard(max_mb=1)
    guard.base_mb = rss_mb() or 0.0  # a tight base for the test: trip after ~1 MB more
    with pytest.raises(KeyboardInterrupt), guard:
        for _ in range(2000):  # up to 2 GB, never reached
            hog.append(bytes(2**20))
            time.sleep(0.001)
    assert guard.tripped
    assert len(hog) < 500  # stopped within a few hundred MB of the limit
    hog.clear()


def test_no_limit_no_guard() -> None:
    with MemoryGuard(None) as guard:
        pass
    assert not guard.tripped and guard.limit_mb is None


def test_rss_follows_allocations() -> None:
    before = rss_mb()
    assert before is not None and before > 0
    block = b"x" * (64 * 2**20)  # written, so resident (bytes(n) may stay unmapped zero pages)
    after = rss_mb()
    assert after is not None and after - before >= 48
    del block


def test_a_guard_under_its_limit_watches_and_stops() -> None:
    guard = MemoryGuard(max_mb=10_000)
    assert guard.base_mb == BASE_MB and guard.limit_mb == BASE_MB + 10_000
    start = rss_mb() or 0.0
    with guard:
        block = b"y" * (64 * 2**20)
        time.sleep(0.2)  # a few polls see it
        del block
    assert not guard.tripped
    assert guard.peak_mb >= start + 48  # the watcher recorded the peak, not just the size at entry
    assert guard._thread is not None and not guard._thread.is_alive()  # stopped on exit, not left polling


def test_memory_out_through_the_cli() -> None:
    """cpsat-gaps builds a model of hundreds of MB for the 4 x 13 basic variant: --max-mb 50 stops it."""
    args = ["solve", "gaps-basic-variant:1", "-b", "cpsat-gaps", "--max-mb", "50", "--limit", "60s", "--json"]
    p = subprocess.run([sys.executable, "-c", RUN, *args], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["status"] == "unknown" and out["message"] == MEMORY_OUT
    assert out["stats"]["peak_mb"] <= BASE_MB + 50 + 64  # the limit, plus what one poll interval can add
