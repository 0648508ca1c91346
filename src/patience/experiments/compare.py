"""Backend comparison: the same deals solved by several backends, verdicts and times deal by deal.

A *conflict* is a deal one backend SOLVED (a validated win) and another called UNSOLVABLE: one of them is
wrong (almost always the UNSOLVABLE one, since every SOLVED was replayed). :func:`save_conflicts` writes
each such deal as an instance file, with the winning backend's solution beside it, for debugging.
"""

from __future__ import annotations

import csv
import io
import json
import math
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..deals import deal
from ..instance import atomic_write
from ..solvers.base import Limits, Status, solve
from ..validate import solution_json
from .runner import summarize
from .store import Row

__all__ = ["Comparison", "DealVerdicts", "compare_rows", "save_conflicts"]

DECIDED = ("solved", "unsolvable")


@dataclass(frozen=True)
class DealVerdicts:
    """One deal across backends: status and seconds per backend."""

    seed: int
    sha256: str | None
    status: dict[str, str]
    seconds: dict[str, float | None]

    @property
    def conflict(self) -> bool:
        verdicts = {s for s in self.status.values() if s in DECIDED}
        return len(verdicts) > 1

    @property
    def agreed(self) -> bool:
        """Every backend decided and all agree."""
        return all(s in DECIDED for s in self.status.values()) and not self.conflict

    def ratio(self, backend: str, reference: str) -> float | None:
        """seconds(backend) / seconds(reference), when both decided the deal."""
        if self.status.get(backend) not in DECIDED or self.status.get(reference) not in DECIDED:
            return None
        a, b = self.seconds.get(backend), self.seconds.get(reference)
        if not a or not b:
            return None
        return a / b


@dataclass(frozen=True)
class Comparison:
    game: str
    backends: tuple[str, ...]
    deals: tuple[DealVerdicts, ...]
    per_backend: dict[str, dict[str, Any]]

    @property
    def conflicts(self) -> list[DealVerdicts]:
        return [d for d in self.deals if d.conflict]

    def ratio_summary(self, backend: str) -> dict[str, Any]:
        """Time ratio of ``backend`` against the first backend over deals both decided."""
        ref = self.backends[0]
        rs = [r for d in self.deals if (r := d.ratio(backend, ref)) is not None]
        if not rs:
            return {"deals": 0}
        return {
            "deals": len(rs),
            "geomean": math.exp(statistics.fmean(math.log(r) for r in rs)),
            "median": statistics.median(rs),
            "min": min(rs),
            "max": max(rs),
        }

    def to_json(self) -> dict[str, Any]:
        ref = self.backends[0]
        return {
            "game": self.game,
            "backends": list(self.backends),
            "deals": len(self.deals),
            "agreed": sum(d.agreed for d in self.deals),
            "conflicts": [{"seed": d.seed, "sha256": d.sha256, "status": d.status} for d in self.conflicts],
            "per_backend": self.per_backend,
            "time_ratio_vs": ref,
            "time_ratios": {b: self.ratio_summary(b) for b in self.backends[1:]},
            "per_deal": [
                {"seed": d.seed, "sha256": d.sha256, "status": d.status, "seconds": d.seconds}
                for d in self.deals
            ],
        }

    def to_csv(self) -> str:
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        ref = self.backends[0]
        header = ["seed", "sha256"]
        for b in self.backends:
            header += [f"{b}_status", f"{b}_seconds"]
        header += [f"ratio_{b}_vs_{ref}" for b in self.backends[1:]] + ["conflict"]
        w.writerow(header)
        for d in self.deals:
            line: list[Any] = [d.seed, d.sha256 or ""]
            for b in self.backends:
                s = d.seconds.get(b)
                line += [d.status.get(b, ""), "" if s is None else f"{s:.6f}"]
            for b in self.backends[1:]:
                r = d.ratio(b, ref)
                line.append("" if r is None else f"{r:.4f}")
            line.append(int(d.conflict))
            w.writerow(line)
        return out.getvalue()


def compare_rows(game: str, backends: tuple[str, ...], rows_by_backend: dict[str, list[Row]]) -> Comparison:
    """Line the rows of each backend up by seed."""
    seeds = sorted({r.seed for rows in rows_by_backend.values() for r in rows})
    index = {b: {r.seed: r for r in rows_by_backend.get(b, [])} for b in backends}
    deals = []
    for s in seeds:
        rs = {b: index[b][s] for b in backends if s in index[b]}
        sha = next((r.sha256 for r in rs.values() if r.sha256), None)
        deals.append(
            DealVerdicts(s, sha, {b: r.status for b, r in rs.items()}, {b: r.seconds for b, r in rs.items()})
        )
    per_backend = {}
    for b in backends:
        summ = summarize(rows_by_backend.get(b, []))
        times = [r.seconds for r in rows_by_backend.get(b, []) if r.seconds is not None]
        per_backend[b] = {**summ.to_json(), "total_seconds": sum(times)}
    return Comparison(game, tuple(backends), tuple(deals), per_backend)


def save_conflicts(
    comparison: Comparison,
    directory: str | Path,
    generator: str,
    overrides: dict[str, Any] | None,
    limit_s: float,
) -> list[Path]:
    """Write each conflicting deal as ``DIR/GAME-GENERATOR-SEED.json`` with the solution of a backend
    that solved it (``...SEED.BACKEND.solution.json``), plus ``DIR/conflicts.json``; returns the paths."""
    directory = Path(directory)
    written: list[Path] = []
    listing = []
    for d in comparison.conflicts:
        inst = deal(comparison.game, d.seed, generator, overrides or None)
        stem = f"{comparison.game}-{generator}-{d.seed}"
        path = directory / f"{stem}.json"
        inst.save(path)
        written.append(path)
        entry: dict[str, Any] = {
            "seed": d.seed,
            "instance": path.name,
            "sha256": inst.sha256,
            "status": d.status,
        }
        for b, st in d.status.items():
            if st != "solved":
                continue
            result = solve(inst, b, Limits(seconds=max(limit_s, 1.0) * 2))
            if result.status is Status.SOLVED:
                sol = directory / f"{stem}.{b}.solution.json"
                atomic_write(
                    sol, json.dumps(solution_json(inst, list(result.solution or ())), indent=1) + "\n"
                )
                written.append(sol)
                entry.setdefault("solutions", {})[b] = sol.name
        listing.append(entry)
    if listing:
        summary = directory / "conflicts.json"
        body = {
            "game": comparison.game,
            "generator": generator,
            "rules": overrides or {},
            "conflicts": listing,
        }
        atomic_write(summary, json.dumps(body, indent=1) + "\n")
        written.append(summary)
    return written
