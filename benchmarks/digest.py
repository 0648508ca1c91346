"""A behaviour digest: verdicts, move counts and node counts of a fixed deal set, for refactors.

A refactor that claims "same behaviour" runs this before and after and shows the two digests are equal.
Every search is bounded by nodes, not seconds, so the output does not depend on the machine or its
load: ``dfs`` and ``planning`` on seeds 1-2 (portable generator) of every game in models/ that they
support, full size and shrunk to about 14 cards (:func:`patience.shrink.shrink`), and the CP backends
(``cpsat``, ``cpsat-only``, ``csp``, ``cpsat-gaps``) on small deals they decide in well under a second
(their verdict only: CP-SAT's solution and counts may differ run to run).

    python benchmarks/digest.py               # one line per run, then the SHA-256 of all lines
    python benchmarks/digest.py --out FILE    # the same lines written to FILE as well
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

from patience.deals import deal
from patience.rules import list_games, load_game
from patience.shrink import shrink
from patience.solvers.base import Limits, Status, solve, supporting_backends

NODES = 3000  # per search: enough to decide the small deals, small enough to run in a few minutes
SEARCH = ("dfs", "planning")
CP_RUNS = [  # (game, seed, deck size for shrink, backend): CP verdicts only
    ("black-hole", 1, 18, "cpsat"),
    ("black-hole", 2, 18, "cpsat-only"),
    ("black-hole", 3, 14, "csp"),
    ("all-in-a-row", 1, 18, "cpsat"),
    ("binary-star", 1, 18, "cpsat"),
    ("gaps-basic-variant", 1, 12, "cpsat-gaps"),
    ("gaps-basic-variant", 3, 12, "cpsat-gaps"),
]


def _line(game: str, seed: int, overrides: dict, backend: str, counts: bool) -> str:
    """One run, as ``game seed overrides backend status moves nodes`` (counts only when deterministic)."""
    try:
        inst = deal(game, seed, "portable", overrides=overrides or None)
    except Exception as err:  # a rule-set that cannot take this deck: recorded, it is behaviour too
        return f"{game} {seed} {overrides} {backend} deal-error {type(err).__name__}"
    res = solve(inst, backend, Limits(seconds=3600, nodes=NODES))
    status = res.status.value
    if not counts or res.status is Status.UNSUPPORTED:
        return f"{game} {seed} {overrides} {backend} {status}"
    moves = len(res.solution or ())
    nodes = int(res.stats.get("nodes", res.stats.get("expansions", -1)))
    return f"{game} {seed} {overrides} {backend} {status} moves={moves} nodes={nodes}"


def runs() -> list[tuple[str, int, dict, str, bool]]:
    """The fixed run list: search backends on every game, then the CP runs."""
    out = []
    for g in list_games():
        backends = [b for b in SEARCH if b in supporting_backends(g.rules)]
        for backend in backends:
            out += [(g.name, seed, {}, backend, True) for seed in (1, 2)]
            small = shrink(g.rules, 14, 0.75, None)
            out += [(g.name, seed, small, backend, True) for seed in (1, 2)]
    out += [(g, s, shrink(load_game(g).rules, c, 0.75, None), b, False) for g, s, c, b in CP_RUNS]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="also write the lines to this file")
    args = ap.parse_args()
    lines, t0 = [], time.perf_counter()
    for game, seed, overrides, backend, counts in runs():
        line = _line(game, seed, overrides, backend, counts)
        print(line, flush=True)
        lines.append(line)
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    print(f"digest {digest} ({len(lines)} runs, {time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    print(f"digest {digest}")
    if args.out:
        args.out.write_text("\n".join(lines) + f"\ndigest {digest}\n")


if __name__ == "__main__":
    main()
