"""Census of lost standard FreeCell deals (Klaver 2022, Figure 20) with Freecell Solver as a filter only.

Lost standard deals are rare (Klaver: 136 of 11 million random deals, "about twelve per million"; Windows
XP's first million Microsoft deals hold eight, MS 1-32000 one, 11982), too rare for our complete search to
meet by solving every deal. The census splits the work in two:

1. **Filter** (:class:`FcsFilter`): ``freecell-solver-range-parallel-solve A B STEP -l lg`` runs Freecell
   Solver over Microsoft deals A..B with its own dealer; every deal it does not solve ("Unsolved" or
   "Intractable") is a *candidate*. Its "solved" is trusted only to skip a deal (it prints a solution that
   solves the board, so that is a win), its "unsolved" never: a preset is not a complete search.
   Its dealer is checked against ours at the first and last deal of every chunk (:meth:`FcsFilter.same_deal`:
   the number of states ``fc-solve -l lg`` checks on *our* board equals the count the range solver reports
   for that deal number, a fingerprint of the board).
2. **Verdict** (:func:`verify`): each candidate is dealt by our ``-g ms`` dealer and solved by our complete
   search (``dfs-jit`` through :func:`patience.analysis.freecell_lost.highest_target`, which also gives the
   exact highest target of a lost deal); a candidate that search leaves undecided goes to ``planning``
   (a win from it counts; its UNSOLVABLE is a verdict too, without a highest target). UNSOLVABLE from our
   search is the census's "lost"; a candidate we win is "missed by the filter".

A census is kept as one JSON file (:meth:`Census.save`, written atomically after every chunk and every
verdict), so a long run stopped at any point resumes where it was: scanned ranges are not scanned again and
decided candidates are not solved again.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..instance import Instance

__all__ = [
    "MAX_SCAN",
    "MS_LAST",
    "PUBLISHED",
    "Candidate",
    "Census",
    "DealFilter",
    "FcsFilter",
    "FilterError",
    "FilterMissing",
    "Summary",
    "plan_chunks",
    "run_census",
    "verify",
]

RANGE_SOLVER = "freecell-solver-range-parallel-solve"
SINGLE_SOLVER = "fc-solve"
MS_LAST = 2**33 - 1
"""Last Microsoft (FreeCell Pro) deal number our ``-g ms`` dealer deals."""
MAX_SCAN = 100_000_000
"""Most deals one census command scans (Kel22's whole sample); larger censuses go in ranges."""
FORMAT = 1

PUBLISHED: dict[str, tuple[int, int, str]] = {  # labelled comparison values only, never results
    "klaver": (136, 11_000_000, "Klaver 2022, random deals"),
    "win95": (1, 32_000, "Klaver 2022 citing Kel22, Windows 95's MS deals 1-32000: 11982"),
    "xp": (8, 1_000_000, "Klaver 2022 citing Kel22, Windows XP's MS deals 1-1000000"),
    "kel22": (1282, 100_000_000, "Klaver 2022 citing Kel22, random deals"),
}
FIG20_SHAPE = (
    "Klaver 2022, Figure 20 (136 lost deals; bar heights not in the text): 'a bell curve skewed to having "
    "few cards in the target stacks'"
)

Progress = Callable[[str, int, int], None]  # (phase, done, total)
Dealer = Callable[[int], "Instance"]
"""Deal number -> board; None in the census means Microsoft's deal (``-g ms``). A module-level function
or a ``functools.partial`` of one, so candidates can be solved in other processes."""
STUDY = "Klaver 2022 Figure 20: lost standard FreeCell deals (Microsoft deal numbers)"


class FilterMissing(RuntimeError):
    """The filter's program is not installed."""


class FilterError(RuntimeError):
    """The filter failed or disagrees with our dealer: the census stops rather than count wrong deals."""


class DealFilter(Protocol):
    """What the census asks of a filter: the deals of a range it leaves unsolved, and a dealer check."""

    name: str

    def unsolved(self, first: int, last: int) -> list[int]:
        """Deal numbers of ``first..last`` the filter did not solve (candidates), ascending."""
        ...

    def same_deal(self, number: int) -> bool | None:
        """Whether the filter's deal ``number`` is ours (None: the filter cannot tell)."""
        ...


_UNSOLVED = re.compile(r"^(?:Unsolved|Intractable) Board No\. (\d+)", re.M)
_REACHED = re.compile(r"^Reached Board No\. (\d+) at \S+ \(total_num_iters=(\d+)\)", re.M)
_CHECKED = re.compile(r"Total number of states checked is (\d+)\.")


@dataclass(frozen=True)
class FcsFilter:
    """Freecell Solver's range solver with a preset (``-l lg``: its strongest quick preset) as the filter."""

    preset: str = "lg"

    def __post_init__(self) -> None:
        for exe in (RANGE_SOLVER, SINGLE_SOLVER):
            if shutil.which(exe) is None:
                raise FilterMissing(f"{exe}: not installed (Debian: apt-get install freecell-solver-bin)")

    @property
    def name(self) -> str:
        """How the filter is run, stored with the census so a resumed run uses the same one."""
        return f"{RANGE_SOLVER} -l {self.preset}"

    def _range(self, first: int, last: int, step: int) -> str:
        cmd = [RANGE_SOLVER, str(first), str(last), str(step), "-l", self.preset]
        done = subprocess.run(cmd, capture_output=True, text=True, env=_quiet_env())
        if done.returncode != 0:
            err = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise FilterError(f"{' '.join(cmd)}: exit {done.returncode}: {err}")
        return done.stdout

    def unsolved(self, first: int, last: int) -> list[int]:
        """Deals of ``first..last`` the range solver reports unsolved or intractable."""
        out = self._range(first, last, last - first + 2)  # step past the range: no progress lines
        return sorted({int(n) for n in _UNSOLVED.findall(out)})

    def theirs(self, number: int) -> int:
        """States the range solver checks on its deal ``number``."""
        hits = _REACHED.findall(self._range(number, number, 1))
        if len(hits) != 1 or int(hits[0][0]) != number:
            raise FilterError(f"{RANGE_SOLVER}: no state count for deal {number}")
        return int(hits[0][1])

    def ours(self, number: int) -> int:
        """States ``fc-solve`` checks on our ``-g ms`` deal ``number`` with the same preset."""
        from ..deals import deal
        from ..formats import to_fcsolve

        board = to_fcsolve(deal("freecell", number, "ms"))
        done = subprocess.run([SINGLE_SOLVER, "-l", self.preset, "-"], input=board,
                              capture_output=True, text=True, env=_quiet_env())  # fmt: skip
        hit = _CHECKED.search(done.stdout)
        if hit is None:
            why = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise FilterError(
                f"{SINGLE_SOLVER} -l {self.preset}: no state count for our deal {number} ({why})"
            )
        return int(hit.group(1))

    def same_deal(self, number: int) -> bool:
        """Fingerprint check: both solvers check the same number of states on deal ``number``."""
        return self.theirs(number) == self.ours(number)


def _quiet_env() -> dict[str, str]:
    return {**os.environ, "FREECELL_SOLVER_QUIET": "1"}


# Verdicts ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Candidate:
    """Our verdict on one candidate: ``status`` (solved, unsolvable, unknown, ...), the exact highest target
    when lost and known, which backend decided it, and the limit it had."""

    deal: int
    status: str
    most: int | None
    backend: str
    nodes: int
    seconds: float
    limit: float


def verify(
    number: int, seconds: float, backend: str = "dfs-jit", fallback: str | None = "planning",
    dealer: Dealer | None = None,
) -> Candidate:
    """Solve deal ``number`` (MS unless ``dealer`` deals it) by complete search; when undecided, try
    ``fallback`` with the same limit."""
    from ..deals import deal
    from ..solvers.base import Limits, Status, solve
    from .freecell_lost import highest_target, warm

    inst = deal("freecell", number, "ms") if dealer is None else dealer(number)
    warm(backend)  # loading the compiled kernel once a process is not this deal's time
    t0 = time.perf_counter()
    v = highest_target(inst, backend, seconds, number)
    if v.status in ("solved", "unsolvable") or fallback is None:
        return Candidate(number, v.status, v.most, backend, v.nodes, time.perf_counter() - t0, seconds)
    r = solve(inst, fallback, Limits(seconds=seconds))
    status = r.status.value if r.status in (Status.SOLVED, Status.UNSOLVABLE) else v.status
    nodes = v.nodes + int(r.stats.get("nodes", 0))
    return Candidate(number, status, None, f"{backend}+{fallback}", nodes, time.perf_counter() - t0, seconds)


def _verify_task(args: tuple[int, float, str, Dealer | None]) -> Candidate:
    number, seconds, backend, dealer = args
    return verify(number, seconds, backend, dealer=dealer)


# The census -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Chunk:
    """One scanned range: its candidates, the filter's seconds, the deals whose boards were checked."""

    first: int
    last: int
    unsolved: tuple[int, ...]
    seconds: float
    checked: tuple[int, ...]

    @property
    def size(self) -> int:
        """Deals in the range."""
        return self.last - self.first + 1


def plan_chunks(first: int, last: int, done: Iterable[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """The parts of ``first..last`` no range of ``done`` covers, cut at multiples of ``size``."""
    todo: list[tuple[int, int]] = []
    at = first
    for a, b in sorted(done):
        if b < at:
            continue
        if a > last:
            break
        if a > at:
            todo.append((at, min(a - 1, last)))
        at = max(at, b + 1)
    if at <= last:
        todo.append((at, last))
    out: list[tuple[int, int]] = []
    for a, b in todo:
        while a <= b:
            end = min(b, (a - 1) // size * size + size)
            out.append((a, end))
            a = end + 1
    return out


@dataclass
class Summary:
    """The census over one range: counts, lost deals with their highest targets, the loss rate."""

    first: int
    last: int
    scanned: int
    candidates: list[int]
    lost: dict[int, int | None]  # deal -> highest target (None: lost by planning, no exact figure)
    missed: list[int]  # candidates we won: the filter's preset missed them
    undecided: list[int]
    filter_seconds: float
    verify_seconds: float
    checked: int  # deals whose boards were compared with the filter's

    @property
    def interval(self) -> tuple[float, float]:
        """Conservative Wilson 95% interval of the loss rate (undecided candidates count both ways)."""
        from ..experiments.stats import conservative_interval

        n_lost, n_und = len(self.lost), len(self.undecided)
        return conservative_interval(n_lost, self.scanned - n_lost - n_und, n_und)

    @property
    def histogram(self) -> dict[int, int]:
        """Lost deals by exact highest target, every value from 0 to the largest seen."""
        got = Counter(m for m in self.lost.values() if m is not None)
        return {k: got.get(k, 0) for k in range(max(got, default=-1) + 1)}

    def to_json(self) -> dict[str, Any]:
        """Machine-readable summary (rates per million)."""
        lo, hi = self.interval
        return {
            "first": self.first,
            "last": self.last,
            "scanned": self.scanned,
            "candidates": self.candidates,
            "lost": sorted(self.lost),
            "highest_target": {str(k): v for k, v in sorted(self.lost.items())},
            "missed_by_filter": self.missed,
            "undecided": self.undecided,
            "per_million": 1e6 * len(self.lost) / self.scanned if self.scanned else None,
            "per_million_interval": [1e6 * lo, 1e6 * hi],
            "histogram": {str(k): v for k, v in self.histogram.items()},
            "filter_seconds": self.filter_seconds,
            "verify_seconds": self.verify_seconds,
            "boards_checked": self.checked,
        }


def published_interval(key: str) -> tuple[float, float, float]:
    """A published loss figure as (per million, Wilson 95% low, high per million)."""
    from ..experiments.stats import wilson

    k, n, _ = PUBLISHED[key]
    lo, hi = wilson(k, n)
    return 1e6 * k / n, 1e6 * lo, 1e6 * hi


@dataclass
class Census:
    """Scanned ranges and verdicts, kept in one JSON file (``path``) when given."""

    filter_name: str
    backend: str = "dfs-jit"
    chunks: list[Chunk] = field(default_factory=list)
    verdicts: dict[int, Candidate] = field(default_factory=dict)
    path: Path | None = None
    study: str = STUDY

    @classmethod
    def load(cls, path: str | Path, filter_name: str, backend: str, study: str = STUDY) -> Census:
        """The census stored at ``path`` (a new one when there is no file); a ValueError names a mismatch."""
        p = Path(path)
        if not p.exists():
            return cls(filter_name, backend, path=p, study=study)
        try:
            data = json.loads(p.read_text())
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise ValueError(f"no census format {FORMAT} marker")
            chunks = [Chunk(c["first"], c["last"], tuple(c["unsolved"]), c["seconds"], tuple(c["checked"]))
                      for c in data["chunks"]]  # fmt: skip
            verdicts = {int(k): Candidate(**v) for k, v in data["verdicts"].items()}
            stored_filter, stored_backend = data["filter"], data["backend"]
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise ValueError(f"{path}: not a census file ({err})") from None
        if stored_filter != filter_name or stored_backend != backend:
            raise ValueError(f"{path}: a census by {stored_filter!r} with {stored_backend}, "
                             f"not {filter_name!r} with {backend}")  # fmt: skip
        return cls(filter_name, backend, chunks, verdicts, p, study)

    def save(self) -> None:
        """Write the census atomically (a reader sees the old file or the new one, never a part)."""
        if self.path is None:
            return
        from ..instance import atomic_write

        data = {
            "format": FORMAT,
            "study": self.study,
            "filter": self.filter_name,
            "backend": self.backend,
            "chunks": [asdict(c) for c in sorted(self.chunks, key=lambda c: c.first)],
            "verdicts": {str(k): asdict(v) for k, v in sorted(self.verdicts.items())},
        }
        atomic_write(self.path, json.dumps(data, indent=1) + "\n")

    def summary(self, first: int, last: int) -> Summary:
        """The census restricted to deals ``first..last`` (only the scanned part counts)."""
        inside = [c for c in self.chunks if c.last >= first and c.first <= last]
        scanned = sum(_overlap(c, first, last) for c in inside)
        cands = sorted(n for c in inside for n in c.unsolved if first <= n <= last)
        lost: dict[int, int | None] = {}
        missed, undecided = [], []
        for n in cands:
            v = self.verdicts.get(n)
            if v is not None and v.status == "unsolvable":
                lost[n] = v.most
            elif v is not None and v.status == "solved":
                missed.append(n)
            else:
                undecided.append(n)
        return Summary(
            first, last, scanned, cands, lost, missed, undecided,
            filter_seconds=sum(c.seconds * _overlap(c, first, last) / c.size for c in inside),
            verify_seconds=sum(self.verdicts[n].seconds for n in cands if n in self.verdicts),
            checked=sum(1 for c in inside for n in c.checked if first <= n <= last),
        )  # fmt: skip


def _overlap(c: Chunk, first: int, last: int) -> int:
    return max(0, min(c.last, last) - max(c.first, first) + 1)


def run_census(census: Census, first: int, last: int, dfilter: DealFilter, seconds: float,
               chunk: int = 100_000, workers: int = 1, progress: Progress | None = None,
               dealer: Dealer | None = None) -> Summary:  # fmt: skip
    """Scan deals ``first..last`` with ``dfilter`` (ranges already in ``census`` are skipped), then solve
    every undecided candidate by our complete search; the census is saved after each chunk and verdict.
    Deals are MS deal numbers unless ``dealer`` deals them (the filter must deal the same boards)."""
    if not 1 <= first <= last <= MS_LAST:
        raise ValueError(f"deals {first}-{last}: need 1 <= first <= last <= {MS_LAST}")
    if last - first + 1 > MAX_SCAN:
        raise ValueError(f"deals {first}-{last}: more than the limit of {MAX_SCAN:,} deals a census command")
    todo = plan_chunks(first, last, [(c.first, c.last) for c in census.chunks], chunk)
    total = sum(b - a + 1 for a, b in todo)

    def scan(rng: tuple[int, int]) -> Chunk:
        a, b = rng
        t0 = time.perf_counter()
        got = dfilter.unsolved(a, b)
        secs = time.perf_counter() - t0
        if any(not a <= n <= b for n in got):
            raise FilterError(f"{dfilter.name}: reported deals outside {a}-{b}")
        checked = tuple(sorted({a, b}))
        for n in checked:
            if dfilter.same_deal(n) is False:
                raise FilterError(f"{dfilter.name}: its deal {n} is not our -g ms deal {n} (dealers differ)")
        return Chunk(a, b, tuple(got), secs, checked)

    done = 0
    if progress is not None:
        progress("filter", 0, total)
    pool = ThreadPoolExecutor(max_workers=max(1, workers))  # each thread waits on one filter process
    try:
        for got in pool.map(scan, todo):
            census.chunks.append(got)
            census.save()
            done += got.size
            if progress is not None:
                progress("filter", done, total)
    finally:
        pool.shutdown(cancel_futures=True)

    cands = census.summary(first, last).candidates
    pending = [n for n in cands if _needs_verdict(census.verdicts.get(n), seconds)]
    if progress is not None:
        progress("verify", 0, len(pending))
    results: Iterable[Candidate]
    if workers > 1 and len(pending) > 1:
        from concurrent.futures import ProcessPoolExecutor

        ppool = ProcessPoolExecutor(max_workers=workers)
        results = ppool.map(_verify_task, [(n, seconds, census.backend, dealer) for n in pending])
    else:
        ppool = None
        results = (verify(n, seconds, census.backend, dealer=dealer) for n in pending)
    try:
        for i, v in enumerate(results, 1):
            census.verdicts[v.deal] = v
            census.save()
            if progress is not None:
                progress("verify", i, len(pending))
    finally:
        if ppool is not None:
            ppool.shutdown(cancel_futures=True)
    return census.summary(first, last)


def _needs_verdict(v: Candidate | None, seconds: float) -> bool:
    """Not solved yet, or undecided with a smaller limit than this run's."""
    if v is None:
        return True
    decided = v.status in ("solved", "unsolvable")
    return not decided and v.limit < seconds and not math.isclose(v.limit, seconds)
