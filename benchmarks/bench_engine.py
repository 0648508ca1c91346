"""Engine throughput: legal-move generations and apply+undo pairs per second.

Runs random playouts on Black Hole (PySol deals) and FreeCell (Microsoft deals) and times, in the same
process, (a) ``legal_moves`` calls, (b) ``apply`` + ``undo`` pairs, (c) ``key`` calls, and as a
reference (d) the independent validator replaying the same moves. Ratios against the validator show
how much the mutable engine buys over a plain replay; absolute rates depend on the machine.

    python benchmarks/bench_engine.py [--deals 20] [--seconds 1.0]
"""

from __future__ import annotations

import random
import time

import _common

from patience.deals import deal
from patience.engine import Engine
from patience.validate import replay


def playout(engine: Engine, rng: random.Random, steps: int = 200) -> list:
    """Random legal moves from the start position (engine is returned to the start)."""
    moves = []
    for _ in range(steps):
        legal = engine.legal_moves()
        if not legal:
            break
        m = rng.choice(legal)
        moves.append(m)
        engine.apply(m)
    for _ in moves:
        engine.undo()
    return moves


def rate(fn, seconds: float) -> float:
    """Calls of ``fn`` per second (fn returns how many operations it did)."""
    done, t0 = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < seconds:
        done += fn()
    return done / elapsed


def bench(game: str, generator: str, deals: int, seconds: float) -> dict[str, float]:
    """Rates on a set of deals, each operation timed over ``seconds`` in total."""
    rng = random.Random(1)
    setups = []
    for seed in range(1, deals + 1):
        inst = deal(game, seed, generator)
        eng = Engine(inst)
        moves = playout(eng, rng)
        setups.append((inst, eng, moves))

    def gen() -> int:
        n = 0
        for _inst, eng, moves in setups:
            for m in moves:
                eng.legal_moves()
                eng.apply(m)
            eng.legal_moves()
            for _ in moves:
                eng.undo()
            n += len(moves) + 1
        return n

    def apply_undo() -> int:
        n = 0
        for _inst, eng, moves in setups:
            for m in moves:
                eng.apply(m)
            for _ in moves:
                eng.undo()
            n += len(moves)
        return n

    def keys() -> int:
        n = 0
        for _inst, eng, moves in setups:
            for m in moves:
                eng.apply(m)
                eng.key()
            for _ in moves:
                eng.undo()
            n += len(moves)
        return n

    jsons = []
    for inst, eng, moves in setups:
        js = []
        for m in moves:
            js.append(eng.move_to_json(m))
            eng.apply(m)
        for _ in moves:
            eng.undo()
        jsons.append((inst, js))

    def validator() -> int:
        n = 0
        for inst, js in jsons:
            assert replay(inst, js).ok
            n += len(js)
        return n

    return {
        "legal_moves/s": rate(gen, seconds),
        "apply+undo/s": rate(apply_undo, seconds),
        "key/s": rate(keys, seconds),
        "validator moves/s": rate(validator, seconds),
        "moves/deal": sum(len(m) for *_x, m in setups) / len(setups),
    }


def main() -> None:
    ap = _common.Parser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20, help="deals per game")
    ap.add_argument("--seconds", type=float, default=1.0, help="seconds each operation is timed over")
    args = ap.parse_args()
    if args.deals < 1 or args.seconds <= 0:
        ap.error("--deals must be >= 1 and --seconds > 0")
    print(f"# {_common.machine()}")
    print(f"{'game':12} {'legal_moves/s':>14} {'apply+undo/s':>13} {'key/s':>10} {'validator/s':>12} "
          f"{'apply:validator':>16}")
    for game, gen in (("black-hole", "pysol"), ("freecell", "ms")):
        r = bench(game, gen, args.deals, args.seconds)
        print(
            f"{game:12} {r['legal_moves/s']:14,.0f} {r['apply+undo/s']:13,.0f} {r['key/s']:10,.0f} "
            f"{r['validator moves/s']:12,.0f} {r['apply+undo/s'] / r['validator moves/s']:15.1f}x"
        )


if __name__ == "__main__":
    main()
