"""Ctrl-C and kill -9: every backend stops promptly with UNKNOWN "interrupted" and exit 130, no traceback;
pool workers never outlive the command that started them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from patience.interrupt import EXIT_INTERRUPTED, INTERRUPTED, deferred, run_stoppable

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals and /proc: Linux")

# A deal no backend decides within a minute (generalized All in a Row, 8 suits x 16 ranks, 16 piles).
HARD = ["all-in-a-row:1", "--set", "suits=8", "--set", "ranks=16", "--set", "piles=16"]
RUN = "import sys; from patience.cli import main; sys.argv[0] = 'patience'; main()"
PROMPT_S = 5.0  # seconds from SIGINT to exit, with room for a loaded machine (measured: under 1 s)


def _start(args: list[str], cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", RUN, *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def _busy(pid: int, cpu_s: float = 1.5, timeout: float = 60) -> None:
    """Wait until process ``pid`` has used ``cpu_s`` of CPU (imports done, solving)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") >= cpu_s:
            return
        time.sleep(0.1)
    raise AssertionError("the command never got busy")


def _workers(p: subprocess.Popen, n: int = 2, timeout: float = 60) -> list[int]:
    """The pids of the command's ``n`` pool workers, once they exist."""
    end = time.monotonic() + timeout
    kids: list[int] = []
    while len(kids) < n and time.monotonic() < end:
        out = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout
        kids = [int(k) for k in out.split()]
        time.sleep(0.1)
    assert len(kids) == n, kids
    return kids


def _estimate(tmp_path: Path) -> subprocess.Popen:
    args = ["estimate", "all-in-a-row", *HARD[1:], "-n", "4", "-b", "dfs", "--limit", "120s", "-j", "2", "-q"]
    return _start([*args, "--db", "r.sqlite"], tmp_path)


def _interrupt(p: subprocess.Popen) -> tuple[int, str, str, float]:
    p.send_signal(signal.SIGINT)
    t0 = time.monotonic()
    out, err = p.communicate(timeout=60)
    return p.returncode, out, err, time.monotonic() - t0


@pytest.mark.parametrize(
    ("target", "backend"),
    [(HARD, "dfs"), (HARD, "cpsat-only"), (HARD, "planning"), (["gaps-basic-variant:1"], "cpsat-gaps")],
)
def test_ctrl_c_stops_solve_with_unknown_interrupted(tmp_path: Path, target: list[str], backend: str) -> None:
    p = _start(["solve", *target, "--backend", backend, "--limit", "120s", "-o", "sol.json"], tmp_path)
    _busy(p.pid)
    code, out, err, secs = _interrupt(p)
    assert code == EXIT_INTERRUPTED, (out, err)
    assert "UNKNOWN" in out and INTERRUPTED in out
    assert "Traceback" not in err and "SystemError" not in err and err.strip() == ""
    assert secs < PROMPT_S
    assert list(tmp_path.iterdir()) == []  # nothing half-done written


def test_ctrl_c_stops_estimate_and_its_workers(tmp_path: Path) -> None:
    p = _estimate(tmp_path)
    _busy(_workers(p)[0], cpu_s=1.0)
    code, _, err, secs = _interrupt(p)
    assert code == EXIT_INTERRUPTED and INTERRUPTED in err and "Traceback" not in err
    assert secs < PROMPT_S
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):
        os.killpg(p.pid, 0)  # nothing of its session runs on


def test_workers_die_with_a_killed_parent(tmp_path: Path) -> None:
    p = _estimate(tmp_path)
    kids = _workers(p)
    p.kill()
    p.communicate()
    time.sleep(1.0)
    alive = [
        k for k in kids if Path(f"/proc/{k}").exists() and " Z " not in Path(f"/proc/{k}/stat").read_text()
    ]
    assert alive == []


def test_deferred_raises_after_the_block() -> None:
    ran_to_end = False
    with pytest.raises(KeyboardInterrupt), deferred():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # the handler has run: it must only have taken note
        ran_to_end = True
    assert ran_to_end
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_run_stoppable_stops_the_call_on_ctrl_c() -> None:
    import threading

    stopped = threading.Event()

    def call() -> str:
        stopped.wait(30)
        return "done"

    threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run_stoppable(call, stopped.set)
    assert stopped.is_set() and time.monotonic() - t0 < 5
    assert run_stoppable(lambda: 7, stopped.set) == 7


def test_run_stoppable_stops_the_call_when_until_is_set_even_before_it_starts() -> None:
    import threading

    stops = []
    done = threading.Event()

    def call() -> str:
        done.wait(30)
        return "stopped" if done.is_set() else "ran out"

    def stop() -> None:
        stops.append(1)
        done.set()

    until = threading.Event()
    until.set()  # a stop asked before the call starts must not be lost
    box: dict[str, str] = {}
    worker = threading.Thread(target=lambda: box.update(r=run_stoppable(call, stop, until)))
    t0 = time.monotonic()
    worker.start()
    worker.join(10)
    assert box.get("r") == "stopped" and stops and time.monotonic() - t0 < 5


def test_interrupt_while_the_command_group_loads_is_one_line_and_130() -> None:
    """Ctrl-C during start-up (here: raised by the import of patience.cli itself) exits like every command."""
    code = (
        "import sys\n"
        "class Stop:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'patience.cli':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Stop())\n"
        "sys.argv[0] = 'patience'\n"
        "from patience.__main__ import run\n"
        "run()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == EXIT_INTERRUPTED
    assert done.stderr == f"{INTERRUPTED}\n" and "Traceback" not in done.stderr
