"""Regenerate the sample deals in instances/: seed 1 of every game and the famous MS FreeCell deals.

Run from the repo root: ``.venv/bin/python instances/make_samples.py`` (idempotent; rewrites the files).
  instances/<game>/seed-1.json      the portable generator's deal 1 of each game
  instances/<game>/pysol-1.json     PySol's game 1, for games PySol deals in our rules' shape
  instances/freecell/ms-617.json, ms-1941.json, ms-11982.json   Microsoft deals (11982 is unsolvable)
"""

from __future__ import annotations

from pathlib import Path

from patience.deals import DealError, deal
from patience.rules import list_games

HERE = Path(__file__).resolve().parent
FAMOUS_MS = (617, 1941, 11982)


def main() -> None:
    """Write every sample deal and list what was written."""
    written = []
    for gf in list_games():
        inst = deal(gf.name, 1)
        path = HERE / gf.name / "seed-1.json"
        inst.save(path)
        written.append(path)
        if gf.pysol_name:
            try:
                pysol = deal(gf.name, 1, "pysol")
            except DealError as err:  # e.g. Fan: PySol's deal has another pile shape
                print(f"skip {gf.name} pysol-1: {err}")
            else:
                path = HERE / gf.name / "pysol-1.json"
                pysol.save(path)
                written.append(path)
    for n in FAMOUS_MS:
        path = HERE / "freecell" / f"ms-{n}.json"
        deal("freecell", n, "ms").save(path)
        written.append(path)
    print(f"wrote {len(written)} instances under {HERE}")


if __name__ == "__main__":
    main()
