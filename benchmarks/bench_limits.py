"""Resource limits and process hygiene, measured the way a user meets them: one ``patience`` subprocess each.

Three studies (issue 21's measures), each printing its tally beside its target:

1. ``rss``: peak resident memory of ``patience solve --max-mb M`` on a hard deal per backend, against
   M + the documented 256 MB base; the verdict and reason beside it (a memory-out is UNKNOWN "memory out").
2. ``orphans``: ``kill -9`` of ``patience estimate -j 2`` (the parent only, as a crash or the OOM killer
   does) once its workers run; processes of its session still alive 2 s later (target 0).
3. ``stores``: N ``patience estimate -n 1`` started together on one new ``--db``; runs that fail, and
   whether the store is a valid one afterwards (target 0 failures).

    python benchmarks/bench_limits.py                      # all three, small
    python benchmarks/bench_limits.py rss --max-mb 100 --limit 30s
    python benchmarks/bench_limits.py orphans --trials 20
    python benchmarks/bench_limits.py stores --runs 40

Everything runs in a temporary folder; report ``uptime`` with the figures (printed in the header and at
the end). ``--out [DIR]`` also writes the report as ``limits.md`` (the commit measured, date and load
included; ``--note`` adds a line).
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path
from typing import TextIO

import _common

RUN = "import sys; from patience.cli import main; sys.argv[0] = 'patience'; main()"
BASE_MB = 256  # README: --max-mb caps resident memory at M plus this base
# A hard deal per backend: each runs long enough at full size to grow its table, open list or model.
RSS_CASES: list[tuple[str, list[str]]] = [
    ("dfs", ["binary-star:4"]),
    ("dfs", ["freecell:4", "-g", "ms"]),
    ("dfs-jit", ["spider:1"]),
    ("planning", ["spider:1"]),
    ("planning", ["mrs-mop:1"]),
    ("cpsat", ["all-in-a-row:3", "--set", "suits=8"]),
    ("cpsat-only", ["binary-star:1"]),
    ("cpsat-gaps", ["gaps-basic-variant:2"]),
    ("csp", ["black-hole:3", "--set", "ranks=5", "--set", "piles=19"]),
    ("auto", ["fan:7", "-g", "solvitaire"]),
]


def _cmd(args: list[str]) -> list[str]:
    return [sys.executable, "-c", RUN, *args]


SRC = _common.ROOT / "src"  # the code measured (--src: another checkout's, e.g. a snapshot)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    env["PATIENCE_MODELS"] = str(SRC.parent / "models")
    return env


def rss(max_mb: int, limit: str, only: set[str] | None = None) -> int:
    """Peak RSS of each case (of the backends in ``only``, else all) against max_mb + BASE_MB; returns the
    number over it."""
    over = 0
    rows = []
    cases = [(b, t) for b, t in RSS_CASES if only is None or b in only]
    with tempfile.TemporaryDirectory() as tmp:
        for backend, target in cases:
            args = ["solve", *target, "--backend", backend, "--max-mb", str(max_mb), "--limit", limit]
            t0 = time.perf_counter()
            out, err, peak = _run_peak(_cmd(args), tmp)
            secs = time.perf_counter() - t0
            line = (out.strip().splitlines() or err.strip().splitlines() or ["(no output)"])[0][:70]
            ok = peak <= max_mb + BASE_MB
            over += not ok
            cap = max_mb + BASE_MB
            within = "yes" if ok else "NO"
            deal = " ".join(target)
            rows.append({"backend": backend, "deal": deal, "peak MB": f"{peak:.1f}", "cap MB": cap,
                         "within": within, "s": f"{secs:.1f}", "result": line})  # fmt: skip
    print("\n".join(_common.md_table(rows)))
    print(f"rss: {over} of {len(cases)} cases over --max-mb {max_mb} + {BASE_MB} MB base")
    return over


def _run_peak(cmd: list[str], cwd: str) -> tuple[str, str, float]:
    """Run ``cmd``; its stdout, stderr and its own peak resident MB (wait4's ru_maxrss, KB on Linux)."""
    with tempfile.TemporaryFile("w+") as fo, tempfile.TemporaryFile("w+") as fe:
        p = subprocess.Popen(cmd, cwd=cwd, env=_env(), stdout=fo, stderr=fe)
        _, _, usage = os.wait4(p.pid, 0)
        p.returncode = 0  # reaped here; keeps Popen from waiting on a pid that is gone
        fo.seek(0)
        fe.seek(0)
        return fo.read(), fe.read(), usage.ru_maxrss / 1024


def _session_alive(sid: int) -> list[int]:
    """Pids of live (non-zombie) processes in session ``sid``."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[3]) == sid and fields[0] != "Z":
            alive.append(int(entry.name))
    return alive


def orphans(trials: int) -> int:
    """kill -9 of estimate's parent once its workers run; live processes of its session 2 s later."""
    left = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(trials):
            db = f"s{i}.sqlite"
            args = ["estimate", "black-hole", "-n", "400", "-j", "2", "--limit", "10s", "--db", db, "-q"]
            p = subprocess.Popen(_cmd(args), cwd=tmp, env=_env(), stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
            deadline = time.time() + 60
            while time.time() < deadline and len(_session_alive(p.pid)) < 3:  # the parent and 2 workers
                time.sleep(0.1)
            workers = len(_session_alive(p.pid)) - 1
            time.sleep(0.5)
            os.kill(p.pid, signal.SIGKILL)
            p.wait()
            time.sleep(2)
            alive = [q for q in _session_alive(p.pid) if q != p.pid]
            left += len(alive)
            print(f"trial {i + 1}: {workers} workers running at the kill, {len(alive)} alive 2 s after")
            for q in alive:
                os.kill(q, signal.SIGKILL)
    print(f"orphans: {left} processes left after {trials} kill -9 trials")
    return left


def stores(runs: int) -> int:
    """``runs`` estimates started together on one new store; failures and the store's rows after."""
    with tempfile.TemporaryDirectory() as tmp:
        args = ["estimate", "black-hole", "-n", "1", "--db", "new.sqlite", "-j", "0", "-q"]
        procs = [subprocess.Popen(_cmd(args), cwd=tmp, env=_env(), stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True) for _ in range(runs)]  # fmt: skip
        failed = []
        for p in procs:
            _, err = p.communicate()
            if p.returncode != 0:
                failed.append(f"exit {p.returncode}: {err.strip()[:120]}")
        check = subprocess.run(_cmd(["results", "new.sqlite"]), cwd=tmp, env=_env(), capture_output=True,
                               text=True)  # fmt: skip
        for f in failed[:5]:
            print("  ", f)
        print(f"stores: {len(failed)} of {runs} simultaneous creations failed; "
              f"`results` afterwards exits {check.returncode}")  # fmt: skip
        return len(failed) + (check.returncode != 0)


class _Tee(io.TextIOBase):
    """Text written to a stream and kept (the report printed and, with ``--out``, written)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.kept = io.StringIO()

    def write(self, text: str) -> int:
        self.stream.write(text)
        self.stream.flush()
        return self.kept.write(text)


def main() -> None:
    global SRC
    ap = _common.Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("study", nargs="*", choices=["rss", "orphans", "stores"], default=[])
    ap.add_argument("--max-mb", type=int, default=100)
    ap.add_argument("--limit", default="20s")
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--backends", help="rss: only these backends (comma-separated)")
    ap.add_argument("--note", default="", help="a line for the report's head")
    ap.add_argument(
        "--src", type=Path, default=SRC, help="a src/ folder to measure (default this checkout's)"
    )
    _common.add_out(ap, "the report as limits.md")
    args = ap.parse_args()
    studies = args.study or ["rss", "orphans", "stores"]
    SRC = args.src.resolve()
    tee = _Tee(sys.stdout)
    with redirect_stdout(tee):
        print(f"# bench_limits: {', '.join(studies)} (--max-mb {args.max_mb}, --limit {args.limit}, "
              f"--trials {args.trials}, --runs {args.runs})")  # fmt: skip
        print(f"commit {_common.commit(SRC)}; started {_common.machine()}")
        if args.note:
            print(args.note)
        bad = 0
        if "rss" in studies:
            bad += rss(args.max_mb, args.limit, set(args.backends.split(",")) if args.backends else None)
        if "orphans" in studies:
            bad += orphans(args.trials)
        if "stores" in studies:
            bad += stores(args.runs)
        print(f"# done {_common.machine()}")
    folder = _common.out_dir(args)
    if folder is not None:
        (folder / "limits.md").write_text(tee.kept.getvalue())
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
