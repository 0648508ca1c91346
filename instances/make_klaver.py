"""Write the FreeCell deals of Klaver 2022 into instances/freecell/ with their computed verdicts.

Run from the repo root: ``.venv/bin/python instances/make_klaver.py`` (a few minutes: Magic 8 with eight
free cells is the long one). For every deal of :mod:`patience.analysis.freecell_famous` it solves the deal
(dfs-jit, complete search; wins validated by the replay validator), finds its highest target when lost and
the fewest free cells that win it, and writes ``instances/freecell/klaver-<name>.json`` with the results
in ``source`` (computed here, never typed in). A figure read several ways (:data:`AMBIGUOUS`) is written only
in the readings whose verdict agrees with the thesis's claim (lost; for a maximal lost game, lost with the
upper bound home); the others are listed on stdout. Names given as arguments limit the run to those deals.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from patience.analysis.freecell_famous import AMBIGUOUS, FAMOUS, famous_instance
from patience.analysis.freecell_lost import Config, fewest_cells, highest_target, upper_bound
from patience.instance import Instance

HERE = Path(__file__).resolve().parent / "freecell"
SECONDS = 900.0


def main(names: list[str]) -> None:
    """Solve, measure and write every deal (or those named); print one line each."""
    for f in FAMOUS + AMBIGUOUS:
        if names and f.name not in names:
            continue
        inst = famous_instance(f)
        t0 = time.perf_counter()
        v = highest_target(inst, seconds=SECONDS)
        maximal = v.most == upper_bound(Config.of(inst))
        if f in AMBIGUOUS and (v.status != "unsolvable" or (f.claim == "maximal lost game" and not maximal)):
            got = f"{v.status} ({v.most} home)"
            print(f"skip {f.name}: {got} in this reading ({f.reading}); the thesis: {f.claim}")
            continue
        cells = fewest_cells(inst, max_cells=10, seconds=SECONDS)
        src = dict(inst.source or {})
        src.update(
            verdict=v.status,
            highest_target=v.most,
            upper_bound=upper_bound(Config.of(inst)),
            fewest_cells=cells.fewest,
            computed_by="instances/make_klaver.py (dfs-jit, complete search)",
        )
        out = Instance(inst.game, inst.rules, inst.layout, inst.overrides, src)
        path = HERE / f"klaver-{f.name}.json"
        out.save(path)
        print(
            f"{path.name}: {f.stacks}-{f.ranks}-{f.suits}-{f.cells} {v.status}, highest target {v.most}, "
            f"fewest cells {cells.fewest} ({time.perf_counter() - t0:.1f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main(sys.argv[1:])
