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
    assert not guard.watched  # the watcher let it go on exit, and does not poll for it


def test_memory_out_through_the_cli() -> None:
    """cpsat-gaps builds a model of hundreds of MB for the 4 x 13 basic variant at its proven horizon:
    --max-mb 50 stops it. Deal 37 needs that model (a play passes the reach cut at both shorter horizons,
    55 and 80 Foata steps, built first; deal 7's 55-step model decides it, within 50 MB)."""
    args = ["solve", "gaps-basic-variant:37", "-b", "cpsat-gaps", "--max-mb", "50"]
    args += ["--limit", "60s", "--json"]
    p = subprocess.run([sys.executable, "-c", RUN, *args], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["status"] == "unknown" and out["message"] == MEMORY_OUT
    assert out["stats"]["peak_mb"] <= BASE_MB + 50 + 64  # the limit, plus what one poll interval can add


def test_guard_interrupts_work_past_its_deadline() -> None:
    """The deadline: work that never looks at the clock is stopped GRACE_S after it, as Ctrl-C stops it."""
    from patience.memguard import GRACE_S

    t0 = time.perf_counter()
    guard = MemoryGuard(None, deadline=t0 + 0.2)
    with pytest.raises(KeyboardInterrupt), guard:
        while time.perf_counter() < t0 + 30:
            pass
    late = time.perf_counter() - t0
    assert guard.timed_out and not guard.tripped
    assert 0.2 + GRACE_S <= late < 0.2 + GRACE_S + 2  # 2 s of room for a loaded machine


def test_work_done_before_its_deadline_is_untouched() -> None:
    guard = MemoryGuard(None, deadline=time.perf_counter() + 0.05)
    with guard:
        pass
    time.sleep(0.1 + 0.25)  # past the deadline and its grace: the guard has stopped, nothing fires late
    assert not guard.timed_out and not guard.watched


def test_guard_waits_for_an_import_to_finish(tmp_path, monkeypatch) -> None:
    """An import cut short leaves a package half-initialised (numpy, numba: later imports then fail), so
    the guard's interrupt waits until the main thread has left the import."""
    body = ["import time", "end = time.perf_counter() + 0.8", "while time.perf_counter() < end:", "    pass"]
    (tmp_path / "slow_import_zz.py").write_text("\n".join([*body, "DONE = True", ""]))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "slow_import_zz", raising=False)
    guard = MemoryGuard(None, deadline=time.perf_counter() - 1)  # already past its deadline
    with pytest.raises(KeyboardInterrupt), guard:
        import slow_import_zz

        assert slow_import_zz.DONE
        while True:  # stopped here, after the import
            pass
    assert guard.timed_out
    assert sys.modules["slow_import_zz"].DONE


def test_guard_waits_for_numba_code_to_return(tmp_path) -> None:
    """numba and llvmlite compiling or loading a kernel are not cut: an interrupt inside llvmlite's ctypes
    callbacks was swallowed with a traceback on stderr ('Exception ignored on calling ctypes callback')."""
    import importlib.util

    folder = tmp_path / "numba"  # any code whose file is under a numba/ folder counts as numba's
    folder.mkdir()
    body = [
        "import time",
        "def work():",
        "    end = time.perf_counter() + 0.8",
        "    while time.perf_counter() < end:",
    ]
    (folder / "slow_zz.py").write_text("\n".join([*body, "        pass", "    return True", ""]))
    spec = importlib.util.spec_from_file_location("slow_zz", folder / "slow_zz.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    done = []
    guard = MemoryGuard(None, deadline=time.perf_counter() - 1)
    with pytest.raises(KeyboardInterrupt), guard:
        done.append(mod.work())
        while True:
            pass
    assert done == [True] and guard.timed_out


def test_a_short_limit_does_not_start_a_kernel_load() -> None:
    """dfs-jit starts its kernel's first load (work the guard cannot cut) only with KERNEL_LOAD_S left: with
    less, it searches uncompiled and the process never loads the kernel."""
    script = (
        "from patience.deals import deal; from patience.solvers.base import Limits, solve\n"
        "from patience.solvers.generic_kernel import kernel\n"
        "r = solve(deal('freecell', 1), 'dfs-jit', Limits(seconds=0.5))\n"
        "print(r.status.value, r.stats.get('compiled'), kernel._COMPILED is None)\n"
    )
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["unknown", "0.0", "True"], p.stdout


def test_guards_in_a_row_share_one_sleeping_watcher() -> None:
    """Deals in a row each enter a guard: one watcher thread serves them, asleep until a deadline (no poll
    without a memory limit), and a guard whose deadline comes before the watcher's next look wakes it."""
    import threading

    from patience.memguard import _WATCHER, GRACE_S

    for _ in range(50):
        with MemoryGuard(None, deadline=time.perf_counter() + 30):
            pass
    threads = threading.active_count()
    t0 = time.perf_counter()
    with MemoryGuard(None, deadline=t0 + 30) as far:
        assert far.watched and _WATCHER.wake_at <= t0 + 30 + GRACE_S
        time.sleep(0.05)
    assert threading.active_count() == threads  # no thread a guard
    t0 = time.perf_counter()
    guard = MemoryGuard(None, deadline=t0 + 0.1)  # sooner than the watcher's next look: it is woken
    with pytest.raises(KeyboardInterrupt), guard:
        while time.perf_counter() < t0 + 30:
            pass
    assert guard.timed_out and not guard.watched
    assert 0.1 + GRACE_S <= time.perf_counter() - t0 < 0.1 + GRACE_S + 2


def test_a_guard_left_early_does_not_fire_for_the_next() -> None:
    """The watcher wakes at a left guard's deadline, finds the next guard, and fires that one at its own."""
    from patience.memguard import GRACE_S

    t0 = time.perf_counter()
    with MemoryGuard(None, deadline=t0 + 0.05):
        pass
    guard = MemoryGuard(None, deadline=t0 + 0.6)
    with pytest.raises(KeyboardInterrupt), guard:
        while time.perf_counter() < t0 + 30:
            pass
    late = time.perf_counter() - t0
    assert guard.timed_out and 0.6 + GRACE_S <= late < 0.6 + GRACE_S + 2


def test_a_forked_child_has_its_own_watcher() -> None:
    """Threads do not survive a fork: a child's guard is watched by a watcher of its own."""
    import os

    with MemoryGuard(None, deadline=time.perf_counter() + 30):
        pass  # the parent's watcher runs
    pid = os.fork()
    if pid == 0:  # the child: exit 0 only if its guard fires
        code = 1
        try:
            guard = MemoryGuard(None, deadline=time.perf_counter() + 0.05)
            with guard:
                end = time.perf_counter() + 10
                while time.perf_counter() < end:
                    pass
        except KeyboardInterrupt:
            code = 0 if guard.timed_out else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_rss_of_a_forked_child_is_the_childs() -> None:
    """rss_mb keeps /proc/self/statm open; a forked child reads its own process, not its parent's."""
    import os

    assert rss_mb() is not None  # the parent's descriptor is open
    parent_before = rss_mb() or 0.0
    pid = os.fork()
    if pid == 0:  # the child: exit 0 only if its own growth shows
        code = 1
        try:
            before = rss_mb() or 0.0
            block = b"z" * (96 * 2**20)
            after = rss_mb() or 0.0
            code = 0 if after - before >= 80 else 2
            del block
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert (rss_mb() or 0.0) < parent_before + 80  # the child's block is not the parent's
