"""black-hole-solver's play line for a hole game: run the peer, read its moves, replay them.

The shuffle study (:mod:`.shuffles`, ``line="bhs"``) gathers decks from another real solver's wins (issue 17,
W18). black-hole-solver (Shlomi Fish; built into ``.peers/bhs`` by ``benchmarks/peers.sh``) searches depth
first with an explicit stack: it pushes each pile's legal move in pile order and pops the last, so it tries
the highest-numbered pile first, with no preference for the hole's direction. It prints a won deal as
``Solved!`` and per move ``Move a card from stack N to the foundations`` then ``Info: Card moved is XX``,
a lost deal as ``Unsolved!`` with no moves. It runs with ``--rank-reach-prune``: the prune only skips
states that cannot win, whose successors cannot win either, so the first win found, the line, is unchanged
(identical lines on PySol Black Hole 1-40, and 1.5 times faster). Every line read is replayed by the
validator before use: a line that does not replay to a win is a bug (in the reading, or a peer
disagreement) and raises.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..formats import to_board_text
from ..instance import Instance
from ..validate import replay

__all__ = ["BHS_GAMES", "BhsLine", "bhs_line", "find_bhs", "parse_solution"]

BHS_GAMES = {"black-hole": "black_hole", "all-in-a-row": "all_in_a_row"}
"""Our game name -> black-hole-solver's ``--game`` name."""

_MOVE = re.compile(r"Move a card from stack (\d+) to the foundations")
_CARD = re.compile(r"Info: Card moved is (\S+)")
_VERDICTS = {"Solved!": "solved", "Unsolved!": "unsolvable", "Intractable!": "unknown"}


def find_bhs() -> str | None:
    """black-hole-solve's path: ``$PATIENCE_BHS``, else on PATH, else the repo's ``.peers/bhs``, else None."""
    env = os.environ.get("PATIENCE_BHS")
    if env:
        return env
    found = shutil.which("black-hole-solve")
    if found:
        return found
    built = Path(__file__).resolve().parents[3] / ".peers" / "bhs" / "black-hole-solve"
    return str(built) if built.exists() else None


def parse_solution(text: str) -> tuple[str, list[tuple[int, str]]]:
    """black-hole-solve's output as its verdict (solved, unsolvable or unknown) and its moves (pile, card)."""
    lines = [ln.strip() for ln in text.splitlines()]
    verdict = next((_VERDICTS[ln] for ln in lines if ln in _VERDICTS), "unknown")
    moves: list[tuple[int, str]] = []
    pending: int | None = None
    for ln in lines:
        if m := _MOVE.fullmatch(ln):
            if pending is not None:
                raise ValueError(f"black-hole-solve: move from stack {pending} without its card")
            pending = int(m[1])
        elif (c := _CARD.fullmatch(ln)) and pending is not None:
            moves.append((pending, c[1]))
            pending = None
    if pending is not None:
        raise ValueError(f"black-hole-solve: move from stack {pending} without its card")
    return verdict, moves


@dataclass(frozen=True)
class BhsLine:
    """black-hole-solve's verdict on a deal and, for a win, its line as replayed JSON moves (else None)."""

    status: str  # solved, unsolvable or unknown (intractable or past the time limit)
    moves: list[dict[str, Any]] | None


def bhs_line(inst: Instance, limit_s: float, binary: str | None = None) -> BhsLine:
    """black-hole-solve's verdict on ``inst`` in ``limit_s`` seconds and its line (replayed to a win)."""
    binary = binary or find_bhs()
    if binary is None:
        raise RuntimeError("black-hole-solve not found: bash benchmarks/peers.sh bhs, or set PATIENCE_BHS")
    if inst.game not in BHS_GAMES or inst.overrides:
        raise ValueError(
            f"black-hole-solver plays the standard {' and '.join(BHS_GAMES)}, not this {inst.game}"
        )
    cmd = [binary, "--game", BHS_GAMES[inst.game], "--rank-reach-prune", "-"]
    try:
        out = subprocess.run(cmd, input=to_board_text(inst), capture_output=True, text=True, timeout=limit_s)
    except subprocess.TimeoutExpired:
        return BhsLine("unknown", None)
    status, pairs = parse_solution(out.stdout)
    if status != "solved":
        return BhsLine(status, None)
    moves = [{"card": c, "from": f"tableau:{i}", "to": "foundation:0", "count": 1} for i, c in pairs]
    rep = replay(inst, moves)
    if not rep.ok or not rep.won:
        raise RuntimeError(f"black-hole-solve's line fails replay: {rep.message()}")
    return BhsLine(status, moves)
