"""Running the Solvitaire peer (built by ``benchmarks/peers.sh``; its path is ``_common.SOLVITAIRE``).

Every call is a subprocess of ``.peers/solvitaire/bin/solvitaire`` with ``--classify`` (one line; its last
field is ``solved``, ``unsolvable`` or ``timed-out``). Verdicts are ``W`` (won), ``L`` (lost) or ``?``
(timed out, killed, crashed). Solvitaire's own ``--timeout`` stops the search; the subprocess gets a few
seconds more before it is killed, so process start and cache teardown are not counted as a timeout.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from typing import Any

from _common import ROOT, SOLVITAIRE

__all__ = ["ROOT", "SOLVITAIRE", "available", "classify", "classify_deal", "classify_seed", "command",
           "deal_difference", "deal_only"]  # fmt: skip
GRACE_S = 5.0  # extra wall seconds before a run past its own --timeout is killed


def available() -> bool:
    """True when the Solvitaire binary has been built."""
    return SOLVITAIRE.exists()


def _verdict(stdout: str) -> str:
    """W/L/? from ``--classify`` output (last field of the last non-empty line)."""
    lines = [ln for ln in stdout.splitlines() if ln.strip()]
    last = lines[-1].rsplit(",", 1)[-1].strip() if lines else ""
    return {"solved": "W", "unsolvable": "L"}.get(last, "?")


def classify(args: list[str], limit: float, cache: int | None = None) -> tuple[str, float]:
    """Run ``solvitaire --classify ARGS`` with a ``limit`` seconds timeout; verdict and wall seconds.

    ``cache`` caps the states Solvitaire keeps (``--cache-capacity``, about 0.85 KB a state), which bounds
    its memory; a full cache only forgets states, so its verdicts stay exact.
    """
    cmd = [str(SOLVITAIRE), *args, "--classify", "--timeout", str(int(limit * 1000))]
    if cache:
        cmd += ["--cache-capacity", str(cache)]
    t0 = time.perf_counter()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + GRACE_S)
    except subprocess.TimeoutExpired:
        return "?", time.perf_counter() - t0
    return _verdict(r.stdout), time.perf_counter() - t0


def classify_seed(preset: str, seed: int, limit: float, cache: int | None = None) -> tuple[str, float]:
    """Solvitaire's verdict on its own deal ``--random SEED`` of preset ``preset``."""
    return classify(["--type", preset, "--random", str(seed)], limit, cache)


def classify_deal(
    preset: str, deal: dict[str, Any], limit: float, cache: int | None = None
) -> tuple[str, float]:
    """Solvitaire's verdict on a deal given as its input JSON (written to a temporary file)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(deal, f)
        path = f.name
    try:
        return classify(["--type", preset, path], limit, cache)
    finally:
        os.unlink(path)


def command(preset: str, seed: int, limit: float) -> str:
    """The shell command that reproduces a ``classify_seed`` run, for reports."""
    rel = SOLVITAIRE.relative_to(ROOT)
    return f"{rel} --type {preset} --random {seed} --classify --timeout {int(limit * 1000)}"


def deal_only(preset: str, seed: int) -> dict[str, Any]:
    """Solvitaire's ``--deal-only`` JSON for ``--random SEED`` (face-down cards print as ``##``)."""
    r = subprocess.run(
        [str(SOLVITAIRE), "--type", preset, "--random", str(seed), "--deal-only"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(r.stdout)


def _fits(theirs: list[str], ours: list[str]) -> bool:
    """Same cards in the same places; ``##`` (face down in their print) matches any card, and an ace
    in their Gaps grid (``--deal-only`` prints the gaps as aces) matches our gap ``""``."""
    return len(theirs) == len(ours) and all(
        t in ("##", o) or (o == "" and t[:1] == "A") for t, o in zip(theirs, ours, strict=True)
    )


def _piles(value: Any) -> list[list[str]]:
    """A value as non-empty piles: a card is a pile of one, a list of cards one card a pile."""
    if isinstance(value, str):
        return [[value]] if value else []
    piles = [v if isinstance(v, list) else [v] for v in value or []]
    return [[c for c in p if c != ""] for p in piles if any(c != "" for c in p)]


def _piles_match(theirs: list[list[str]], ours: list[list[str]]) -> bool:
    """The piles are the same multiset (Solvitaire prints its piles sorted, so order is not compared)."""
    if len(theirs) != len(ours):
        return False
    used = [False] * len(ours)

    def place(i: int) -> bool:
        if i == len(theirs):
            return True
        for j, pile in enumerate(ours):
            if not used[j] and _fits(theirs[i], pile):
                used[j] = True
                if place(i + 1):
                    return True
                used[j] = False
        return False

    return place(0)


def deal_difference(ours: dict[str, Any], theirs: dict[str, Any]) -> str:
    """Empty when our Solvitaire-JSON deal is the puzzle Solvitaire prints, else the first difference.

    Compared up to what does not change the puzzle: the order of piles that Solvitaire prints as a list
    of piles (tableau; foundations, cells and reserve of single cards), empty foundations and cells;
    ``##`` matches any card. A single pile (stock, waste, Canfield's reserve) is compared in order.
    """
    for key in sorted(set(ours) | set(theirs)):
        a, b = ours.get(key) or [], theirs.get(key) or []
        if len(b) == 1 and isinstance(b[0], list) and a and not isinstance(a[0], list):
            b = b[0]  # one pile printed nested (Canfield's reserve), ours flat
        if key == "sequences":
            same = len(a) == len(b) and all(_fits(t, o) for t, o in zip(b, a, strict=True))
        elif key in ("tableau piles", "foundations", "cells") or any(isinstance(x, list) for x in b):
            same = _piles_match(_piles(b), _piles(a))
        elif isinstance(b, list):
            same = _fits(b, a) if isinstance(a, list) else False
        else:
            same = a == b
        if not same:
            return f"{key}: ours {json.dumps(a)[:120]} vs Solvitaire {json.dumps(b)[:120]}"
    return ""
