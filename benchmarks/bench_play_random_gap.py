"""Donkersteeg 2010's random player (Player R): which definition gives both his draw-3 and draw-1 figures?

His Table 6.3 has Player R at 11.4% (draw 3) and 23.8% (draw 1); ours, as he states it ('a random move out of
all possible moves', his move set of Table 4.1, unlimited redeals) wins 5.9% and 36.2% (seeds 1-2000). This
script plays the same seeded deals under definitions the thesis leaves open, in one loop over the engine:

* ``stock``: a stock turn is one move among the others (``uniform``) or taken only when nothing else is
  (``last``);
* ``turns``: a cap on the stock turns of a whole game (his end of type 2, section 4.6, 'too many stock to
  waste moves ... normally twice the stock', read as a count of turns the same for both draws): past it the
  stock is no longer offered, and the game ends when nothing else is (None: no cap);
* ``redeals``: a cap on redeals (a draw-1 game limited to a few passes through the stock);
* ``dead``: the game is lost after this many stock turns in a row while a turn is the only move offered
  (his type 2 read as a run of turns counted the same for both draws: 16 is 'twice the stock' in draw 3,
  two passes of 8 turns, but two thirds of one pass in draw 1).

Every game also ends at 1000 moves or after ``repeat_window`` moves onto positions already reached, as
``patience play``. Usage::

    python benchmarks/bench_play_random_gap.py -n 2000 --out
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import _common

from patience.deals import deal
from patience.engine import STOCK, WASTE, Engine
from patience.experiments.stats import estimate
from patience.play.game import repeat_window
from patience.play.players import _in_set, _is_stock_move, _Lookups

# (label, stock, turns cap, redeals cap, dead run)
VARIANTS: list[tuple[str, str, int | None, int | None, int | None]] = [
    ("as stated (uniform, no cap)", "uniform", None, None, None),
    ("stock last", "last", None, None, None),
    ("uniform, 48 turns", "uniform", 48, None, None),
    ("last, 16 turns", "last", 16, None, None),
    ("last, 24 turns", "last", 24, None, None),
    ("last, 36 turns", "last", 36, None, None),
    ("last, 48 turns", "last", 48, None, None),
    ("last, 72 turns", "last", 72, None, None),
    ("last, 96 turns", "last", 96, None, None),
    ("uniform, no redeal (one pass)", "uniform", None, 0, None),
    ("last, no redeal (one pass)", "last", None, 0, None),
    ("uniform, 1 redeal", "uniform", None, 1, None),
    ("uniform, 2 redeals", "uniform", None, 2, None),
    ("last, 1 redeal", "last", None, 1, None),
    ("last, 2 redeals", "last", None, 2, None),
    ("uniform, dead after 16 lone turns", "uniform", None, None, 16),
    ("last, dead after 16 lone turns", "last", None, None, 16),
    ("last, dead after 8 lone turns", "last", None, None, 8),
]


def play(seed: int, draw: int, stock: str, turns: int | None, redeals: int | None, dead: int | None) -> bool:
    """One random game of Klondike (``draw`` 3 or 1) under a variant; True when won."""
    inst = deal("klondike", seed, overrides=None if draw == 3 else {"draw": 1})
    e = Engine(inst)
    lk = _Lookups(e)
    rng = random.Random(seed)
    window = repeat_window(inst)
    seen = {e.key()}
    in_a_row = used = lone = 0
    for _ in range(1000):
        if e.is_won():
            return True
        moves = _in_set(lk, e.legal_moves(), "donkersteeg", e.piles, e.down, e.found)
        if turns is not None and used >= turns:
            moves = [m for m in moves if not _is_stock_move(m)]
        if redeals is not None and e.redeals_used >= redeals:
            moves = [m for m in moves if not (m[0] == WASTE and m[2] == STOCK)]  # no more redeals
        if not moves or in_a_row >= window:
            return False
        only_stock = all(_is_stock_move(m) for m in moves)
        lone = lone + (moves[0][0] == STOCK) if only_stock else 0  # turns in a row with nothing else offered
        if dead is not None and lone > dead:
            return False
        if stock == "last":
            moves = [m for m in moves if not _is_stock_move(m)] or moves
        m = rng.choice(moves)
        used += m[0] == STOCK  # a turn of the stock (a redeal is not one)
        e.apply(m)
        k = e.key()
        in_a_row = in_a_row + 1 if k in seen else 0
        seen.add(k)
    return e.is_won()


def main(argv: list[str] | None = None) -> None:
    ap = _common.Parser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=2000, help="deals per variant and draw (seeds 1..N)")
    ap.add_argument("--only", default=None, help="only labels with one of these texts (split on |)")
    ap.add_argument("--suffix", default="", help="added to the output names (play_random_gap<suffix>.md)")
    _common.add_out(ap, "play_random_gap.md and play_random_gap.csv")
    args = ap.parse_args(argv)
    rows: list[dict[str, Any]] = []
    start = _common.load()
    for label, stock, turns, redeals, dead in VARIANTS:
        if args.only and not any(t in label for t in args.only.split("|")):
            continue
        row: dict[str, Any] = {"variant": label}
        t0 = time.perf_counter()
        for draw in (3, 1):
            wins = sum(play(s, draw, stock, turns, redeals, dead) for s in range(1, args.n + 1))
            lo, hi = estimate(wins, args.n - wins, 0).percent(1)
            row[f"draw {draw}"] = f"{100 * wins / args.n:.1f}% [{lo:.1f}, {hi:.1f}]"
        row["thesis (3 / 1)"] = "11.4% / 23.8%"
        row["s"] = f"{time.perf_counter() - t0:.0f}"
        row["load"] = _common.load()
        rows.append(row)
        print(" | ".join(str(v) for v in row.values()), flush=True)
    out = _common.out_dir(args)
    if out is None:
        return
    lines = [
        "# Donkersteeg's random player: draw 3 and draw 1 under the definitions the thesis leaves open",
        "",
        f"`python benchmarks/bench_play_random_gap.py {' '.join(sys.argv[1:] if argv is None else argv)}`,"
        f" Klondike seeds 1..{args.n} (portable generator), his move set (Table 4.1); {_common.machine()}; "
        f"load at start {start}. Intervals: Wilson 95%.",
        "",
        *_common.md_table(rows),
    ]
    _common.write_lines(out / f"play_random_gap{args.suffix}.md", lines)
    _common.write_csv(out / f"play_random_gap{args.suffix}.csv", rows)


if __name__ == "__main__":
    main()
