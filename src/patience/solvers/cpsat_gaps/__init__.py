"""CP-SAT for the Gaps family without redeals (Gaps basic variant, Gaps one deal, generalized).

Supported rules (:func:`~.data.family_supports`): a Gaps grid (``gaps.rows`` > 0), one deck, no redeal;
both first-column policies (``fixed-suit``: row r takes only the 2 of suit r; ``any-two``). Other Gaps
rules answer UNSUPPORTED.

Notation (cells, card codes, the move rule): :mod:`.data`. One module per job:

* :mod:`.data`: :class:`GapsDeal`, the dealt grid as numbers;
* :mod:`.bounds`: per-card move bounds, the horizon and reachable cells, with their soundness proofs;
* :mod:`.bounds`: also Lemma 3, the most entries of a card into a cell (the "visits" events);
* :mod:`.model`: :func:`build_model`, the "steps" and "events" formulations, and :func:`decode`;
* :mod:`.visits`: the "visits" formulation (fixed card-and-cell move events, ordered in time);
* :mod:`.foata`: the "foata" formulation ("steps" with parallel steps in Foata normal form);
* :mod:`.settle`: forced settles, a stubborn-set theorem (with its proof) and its cut in "foata";
* :mod:`.reach`: the reach cut, a least-fixpoint relaxation of state T (with its proofs) in "foata";
* :mod:`.split`: one fixed search shared by several threads, cube by cube, after an optional win probe;
* :mod:`.backend`: :class:`CpSatGaps` (registry name ``cpsat-gaps``): parameters, verdicts, moves.

What was tried for full-size deals (issue 20; basic variant, portable deals, 1 worker; the machine was
shared, load given; full notes and logs: docs/cpsat-gaps-notes.md, benchmarks/out/cpsat_full*):

| tried | what it gave |
|---|---|
| steps, horizon ``min(sum ub, sum mult)`` | 4 x 13 horizons 267-312 -> 195-243; deals 1-8 at 30 s: 1/8 both |
| visits (circuit per card, NoOverlap per cell) | 4 x 8 deals 0-7 at 20 s: 6/8, slower than steps (7/8) |
| visits, parallel times (stays block end + 1) | 4 x 8 deals 0, 7: 0.8, 4.9 s; 4 x 13: 0/6 at 30 s |
| visits + compaction ``time <= moves`` | slower (4 x 8 deal 0: 7.4 s against 1.0 s); off |
| visits, fixed search by earliest time | 4 x 8 deals 0, 4, 5: none within 20 s |
| h^2 pair fixpoint (static refutation) | lost 4 x 13 deals 1-100 (49): 8 (bounds: 3; steps: the other 5) |
| h^2 backward from the won grids | the same 49: 3 refuted (those of bounds) |
| IC3, CP-SAT as the one-step oracle | 3.5-8 ms a query; 4 x 5 deals 0-9: 5/10 (steps 10/10); 4 x 13: 1/6 |
| steps, ``search="auto"`` (CP-SAT's branching) | 4 x 13 deals 1-30 at 30 s: 2 (fixed search: 3) |
| relaxation: one row's first k cards as the goal | lost deals 11, 41: unknown at 20 s (steps, visits) |
| h^2 mutex pairs as clauses at every step of steps | lost deals 21, 41 still unknown at 30 s, 44 no faster |
| foata: parallel steps in Foata normal form | 4 x 13 deals 1-30 at 30 s: 18 (4 won, 14 lost), median 17 s |
| foata, the issue's measure | 4 x 13 deals 1-100 at 30 s: 47 (12 won, 35 lost); target 90 |
| foata, 80 steps first (goal: won or still moving) | lost deals 2, 6, 11, 21, 41: 1.5-12.7 s, at H 5-22 s |
| foata without the per-card bounds (``card_cuts``) | deals 1-100 at 30 s: 51 (13 won, 38 lost) |
| foata, card and target orders side by side (``orders``) | 1-100 at 30 s, 2 cores: 54 (15 won, 39 lost) |
| stubborn sets (partial-order reduction), exhaustive search | deals 1, 24, 31, 47: 15-36% fewer grids |
| + forced settles (:mod:`.settle`, the default) | 1-100 at 30 s, 2 cores: 57 (16 won, 41 lost) |
| cubes of greedy playouts for the wins | 6 won deals unknown at 30 s: none won |
| + one search split in cubes (``split=2``) | 1-100 at 30 s, 2 cores: 67 (21 won, 46 lost), median 11.8 s |
| goal only (no escape), 80 steps / H | lost 24, 35: 2.7k / 2.0k conflicts (80, no proof), 2.8k / 2.3k (H) |
| goal only at H, the 32 deals ``split=2`` left | 1 decided at 30 s, 1 worker (a long tail each branch) |
| + win probe at Foata depth 60 (``probe=60``) | 1-100 at 30 s, 2 cores: 70 (25 won, 45 lost), median 11.2 s |
| + reach cut on state 80 (:mod:`.reach`, default) | lost 24: 3.8k conflicts, not 29.8k; 1-100: 71, 69 |
| its rules without levels (greatest fixpoint) | prunes no grid of lost deals 24, 53 (exhaustive search) |
| + 55 steps first, the probe beside it (80-step model) | 1-100 at 30 s: 73 (23 won, 50 lost); 71 without |
| 55 steps first, the probe after it | 1-100 at 30 s: 67 (18 won, 49 lost): the wins wait |
| k exact levels of the reach cut, waived until they converge | lost 47: 34.3k conflicts, not 15.5k; off |
| + cubes refuted at 55 skipped at 80 and H; no probe rerun | 1-100 at 30 s: 66 (20 / 46) against 64 before |

(load 9-10 for the first five rows, 3.5-5.7 for the next four, 1-5.4 for the next three, 1-2.9 for the
next two, 0.8-2.0 for the next four, 1.0-1.9 for the next three, 0.9-2.0 for the next two, 0.9-1.9
for the next two, ~2 (two runs side by side) for the next one, and 0.8-1.9 for the last, on a machine
~1.45x slower (dfs median 1.9-2.1 s against 1.3 s): compare the last row's pair only.) "foata" is the
default: a step holds a set of independent moves and each trace is met once (:mod:`.foata`); it also
wins deals "steps" does not (12, 14, 22). Every lost 4 x 13 deal of 1-100 has, for every won grid, a card
that never reaches its cell there in any reachable grid, but no fixpoint tried gets there: the refutation
needs the reachable set, which "foata" searches trace by trace (docs/cpsat-gaps-notes.md).
"""

from .backend import CpSatGaps, CpSatGapsOptions, to_moves
from .bounds import Bounds, bounds
from .data import GapsDeal, family_supports
from .model import FORMULATIONS, MAX_MODEL_LITERALS, ModelVars, OutOfTime, build_model, decode

__all__ = [
    "FORMULATIONS",
    "MAX_MODEL_LITERALS",
    "Bounds",
    "CpSatGaps",
    "CpSatGapsOptions",
    "GapsDeal",
    "ModelVars",
    "OutOfTime",
    "bounds",
    "build_model",
    "decode",
    "family_supports",
    "to_moves",
]
