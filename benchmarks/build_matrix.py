"""Build the per-game matrix of full-size deals with known verdicts under ``tests/data/matrix/``.

For every game in ``models/`` whose cards are all known (``thoughtful``), one won and one lost deal whose
verdict two independent means establish: our ``dfs`` (complete search; its wins validated) and one of
Solvitaire (``--random SEED``, only after its ``--deal-only`` print matched our deal), black-hole-solver
(PySol deals of Black Hole and All in a Row), ``cpsat-only`` / ``cpsat`` (hole games: losses are CP-SAT
infeasibility proofs), ``cpsat-gaps``, or ``planning``'s complete search. A validated win is a proof by
itself: when no other means decides a win in time, the validator's replay is recorded as the second. A
means that contradicts another is printed as a conflict and the deal is not used. With ``--without-dfs``,
deals dfs leaves undecided are recorded when two other means agree (dfs's gap, visible in the test).

Deals come from the generator the second means understands (``solvitaire`` for games with a Solvitaire
preset, ``pysol`` for the PySol hole games, else ``portable``), seeds tried in the order hinted by a
``bench_crosscheck`` log (``--hints``: deals dfs decided fastest first) and then 1, 2, ... up to
``--seeds``. Some deals come from no seed: ``descending:0`` (``--try``, see :func:`make_deal`) and, with
``--construct N``, last, variants 0..N-1 of the game's constructed deal (``benchmarks/_constructed.py``:
cards placed so that nothing can ever be built or played home, or near-complete Gaps deals, for games
whose lost deals are too rare to find by seed; a planted win where won deals are); their verdicts are
established like any other (Solvitaire reads them as its JSON deal), and the README says how each
constructed deal was made.
Solvitaire is not asked on games whose model says its rules differ from the preset
(``solvitaire_differs``) or that have a conflict in the hints log.

Writes ``tests/data/matrix/<game>-won.json`` / ``-lost.json`` (instance files, as ``patience deal -o``),
``index.json`` (per game: the model's rules fingerprint, and per deal the verdict and every means asked,
with its verdict, seconds and a command reproducing it) and ``README.md`` (the same as a table).
Games already in the index with the same rules fingerprint are kept unless named with ``--games``.

    python benchmarks/build_matrix.py --hints /tmp/crosscheck_full.jsonl
    python benchmarks/build_matrix.py --games east-haven,gaps --seeds 200 --limit 20
    python benchmarks/build_matrix.py --games freecell --need lost --try ms:11982 --seeds 0 --limit 300
    python benchmarks/build_matrix.py --games spider --need lost --seeds 0 --construct
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

import _solvitaire
import msgspec
from _constructed import ConstructError, construct
from bench_dfs import BHS, HOLE_GAMES
from bench_dfs import peer as bhs_peer

from patience.cards import Deck
from patience.deals import deal
from patience.formats import to_board_text, to_solvitaire
from patience.generators import layout_from_order
from patience.instance import Instance
from patience.rules import GameFile, RuleError, list_games, load_game
from patience.solvers.base import Limits, Status, solve, supporting_backends

ROOT = Path(__file__).resolve().parents[1]
MATRIX = ROOT / "tests" / "data" / "matrix"
CODE = {Status.SOLVED: "W", Status.UNSOLVABLE: "L"}
WORD = {"W": "won", "L": "lost"}
PEERS = ("solvitaire", "black-hole-solver")
UNSEEDED = (
    "descending",
    "constructed",
    "constructed-won",
)  # make_deal's deals that no registered generator makes


def die(msg: str) -> NoReturn:
    """Bad input: one line naming the problem, exit code 2."""
    print(f"build_matrix: {msg}", file=sys.stderr)
    raise SystemExit(2)


def rules_fingerprint(game: str) -> str:
    """sha256 (16 hex digits) of the game's rules as loaded: a model change makes recorded verdicts stale."""
    return hashlib.sha256(msgspec.json.encode(load_game(game).rules)).hexdigest()[:16]


def generator(gf: GameFile) -> str:
    """The deal generator whose deals the game's second means can also solve."""
    if gf.solvitaire_name:
        return "solvitaire"
    if gf.name in HOLE_GAMES and gf.pysol_name:
        return "pysol"
    return "portable"


def ours(inst: Instance, backend: str, limit: float, memory_mb: int) -> tuple[str, float]:
    """Our verdict (W, L, ? or E for an error) and wall seconds."""
    t0 = time.perf_counter()
    res = solve(inst, backend, Limits(seconds=limit, memory_mb=memory_mb))
    verdict = CODE.get(res.status, "E" if res.status is Status.ERROR else "?")
    return verdict, time.perf_counter() - t0


def second_means(gf: GameFile, trust_solvitaire: bool) -> list[str]:
    """The means asked after dfs, in order: peers first, then our other complete searches."""
    names = []
    if gf.solvitaire_name and trust_solvitaire and _solvitaire.available():
        names.append("solvitaire")
    if gf.name in HOLE_GAMES and BHS.exists():
        names.append("black-hole-solver")
    backends = supporting_backends(gf.rules)
    names += [b for b in ("cpsat-only", "cpsat", "cpsat-gaps", "planning") if b in backends]
    return names


def ask(
    means: str, gf: GameFile, seed: int, gen: str, inst: Instance, limit: float, memory_mb: int
) -> dict[str, Any]:
    """One means' verdict on deal ``seed`` of generator ``gen``, with seconds and a command reproducing it."""
    row: dict[str, Any] = {"by": means}
    if means == "solvitaire" and gen != "solvitaire":  # another generator's deal, given as a file
        preset = gf.solvitaire_name
        row["verdict"], row["seconds"] = _solvitaire.classify_deal(preset, to_solvitaire(inst), limit)
        to_json = f"patience deal {gf.name} --seed {seed} -g {gen} --format solvitaire"
        if gen in UNSEEDED:  # no generator makes it: convert the recorded instance file
            to_json = (
                'python -c "import json, sys; from patience.instance import load_instance; '
                "from patience.formats import to_solvitaire; "
                'print(json.dumps(to_solvitaire(load_instance(sys.argv[1]))))" tests/data/matrix/{file}'
            )
        row["command"] = (
            f"{to_json} > /tmp/deal.json && "
            f"{_solvitaire.SOLVITAIRE.relative_to(ROOT)} --type {preset} --classify /tmp/deal.json"
        )
    elif means == "solvitaire":
        preset = gf.solvitaire_name
        diff = _solvitaire.deal_difference(to_solvitaire(inst), _solvitaire.deal_only(preset, seed))
        if diff:
            return {**row, "verdict": "?", "seconds": 0.0, "note": f"Solvitaire deals another puzzle: {diff}"}
        row["verdict"], row["seconds"] = _solvitaire.classify_seed(preset, seed, limit, memory_mb * 1024)
        row["command"] = _solvitaire.command(preset, seed, limit)
    elif means == "black-hole-solver":
        row["verdict"], row["seconds"] = bhs_peer(to_board_text(inst), HOLE_GAMES[gf.name], limit, False)
        row["command"] = (
            f"patience deal {gf.name} --seed {seed} -g {gen} --format board | "
            f"{BHS.relative_to(ROOT)} --game {HOLE_GAMES[gf.name]} --rank-reach-prune -"
        )
    else:
        row["verdict"], row["seconds"] = ours(inst, means, limit, memory_mb)
        row["command"] = f"patience solve tests/data/matrix/{{file}} --backend {means} --limit {limit:g}s"
    row["seconds"] = round(row["seconds"], 3)
    return row


def read_hints(path: Path | None) -> tuple[dict[str, list[tuple[float, int, str]]], set[str]]:
    """From a bench_crosscheck log: per game (dfs seconds, seed, verdict) of decided deals, fastest first,
    and the games with a SOLVED-vs-UNSOLVABLE conflict there (where Solvitaire's rules may differ)."""
    if path is None:
        return {}, set()
    rows = [json.loads(ln) for ln in path.read_text().splitlines() if ln.strip()]
    by_deal: dict[tuple[str, int], dict[str, str]] = {}
    hints: dict[str, list[tuple[float, int, str]]] = {}
    for r in rows:
        by_deal.setdefault((r["game"], r["seed"]), {})[r["solver"]] = r["verdict"]
        if r["solver"] == "dfs" and r["verdict"] in ("W", "L"):
            hints.setdefault(r["game"], []).append((r["seconds"], r["seed"], r["verdict"]))
    conflicted = {g for (g, _), v in by_deal.items() if {"W", "L"} <= set(v.values())}
    return {g: sorted(h) for g, h in hints.items()}, conflicted


def make_deal(game: str, gen: str, seed: int) -> Instance:
    """Deal ``seed`` of generator ``gen``; ``descending`` is the deck sorted King to Ace (the seed unused)
    dealt by the generic algorithm, so every pile descends bottom to top and the lowest cards lie on top:
    a won deal for games whose won deals are too rare to find by seed (British Canister: 1.3 in 10^6).
    ``constructed`` is variant ``seed`` of the game's constructed lost deal, ``constructed-won`` of its
    constructed won deal (:func:`_constructed.construct`)."""
    if gen in ("constructed", "constructed-won"):
        return construct(game, seed, won=gen == "constructed-won")[0]
    if gen != "descending":
        return deal(game, seed, gen)
    rules = load_game(game).rules
    d = rules.deck
    cards = sorted(Deck(d.suits, d.ranks, d.decks).cards(), key=lambda c: (-c.rank, c.suit))
    return Instance.build(game, layout_from_order(rules, cards))


def deal_text(game: str, gen: str, seed: int, name: str) -> str:
    """How the recorded deal is made: a ``patience deal`` command, or words for the unseeded deals."""
    if gen == "descending":
        return f"{game}, the deck sorted King to Ace dealt by the generic algorithm (make_deal)"
    if gen in ("constructed", "constructed-won"):
        return f"{game}, constructed variant {seed} (benchmarks/_constructed.py; see below)"
    return f"patience deal {game} --seed {seed} -g {gen} -o tests/data/matrix/{name}"


def build_game(
    gf: GameFile, args: argparse.Namespace, hints: list[tuple[float, int, str]], trust: bool, old: dict
) -> dict[str, Any]:
    """Find, check and save the game's won and lost deals (those in ``--need``); its index entry.

    ``old`` is the game's current entry: a kind not rebuilt is kept when the rules are unchanged.
    """
    gen = generator(gf)
    means = second_means(gf, trust)
    need = {"W", "L"} if args.need == "both" else {"W" if args.need == "won" else "L"}
    tries = [(g, int(n)) for g, n in (t.rsplit(":", 1) for t in args.try_deals)]
    # hinted deals of a kind not needed (a won deal when only a lost one is asked for) are not tried
    seeds = [(gen, s) for _, s, v in hints if v in need] + [(gen, s) for s in range(1, args.seeds + 1)]
    built = [
        (g, k)
        for g, v in (("constructed-won", "W"), ("constructed", "L"))
        if v in need
        for k in range(args.construct)
    ]
    candidates = list(dict.fromkeys(tries + seeds + built))
    fp = rules_fingerprint(gf.name)
    entry: dict[str, Any] = {"rules": fp, "generator": gen}
    if old.get("rules") == fp:
        for v in {"W", "L"} - need:
            for key in (WORD[v], f"{WORD[v]}_note"):
                if key in old:
                    entry[key] = old[key]
    tried = 0
    for gen, seed in candidates:
        if not need or tried >= args.seeds + len(tries) + len(built):
            break
        tried += 1
        try:
            inst = make_deal(gf.name, gen, seed)
        except ConstructError as err:
            print(f"  {gf.name}: {err}", flush=True)
            continue
        v, dt = ours(inst, "dfs", args.limit, args.memory_mb)
        print(f"  {gf.name}:{seed} dfs {v} {dt:.2f} s", flush=True)
        if v == "E":
            print(f"  ! {gf.name}:{seed}: dfs ERROR (patience solve {gf.name}:{seed} -g {gen} --backend dfs)")
        decided = v in ("W", "L")
        if (decided and v not in need) or (not decided and not args.without_dfs):
            continue
        asked = [
            {
                "by": "dfs",
                "verdict": v,
                "seconds": round(dt, 3),
                "command": f"patience solve tests/data/matrix/{{file}} --backend dfs --limit {args.limit:g}s",
            }
        ]
        target = v if decided else None
        for m in means:
            row = ask(m, gf, seed, gen, inst, args.limit, args.memory_mb)
            asked.append(row)
            print(f"    {m} {row['verdict']} {row['seconds']:.2f} s {row.get('note', '')}", flush=True)
            if row["verdict"] not in ("W", "L"):
                continue
            if target is None:  # dfs undecided (--without-dfs): this means proposes, the next must agree
                target = row["verdict"] if row["verdict"] in need else None
                if target is None:
                    break
                continue
            if row["verdict"] != target:
                print(f"  ! CONFLICT {gf.name}:{seed} -g {gen}: {asked} ", flush=True)
                target = None
            break
        agree = [a for a in asked if a["verdict"] == target]
        if target == "W" and len(agree) == 1 and agree[0]["by"] not in PEERS:
            # No other means decided in time; the win itself is a proof: solve() returned SOLVED only after
            # patience.validate (which shares no code with the engine) replayed the moves to a won state.
            by = agree[0]["by"]
            asked.append(
                {
                    "by": "validator",
                    "verdict": "W",
                    "seconds": 0.0,
                    "command": f"patience solve tests/data/matrix/{{file}} --backend {by} "
                    f"--limit {args.limit:g}s -o /tmp/sol.json && "
                    f"patience validate tests/data/matrix/{{file}} /tmp/sol.json",
                }
            )
            agree.append(asked[-1])
        if target is None or len(agree) < 2:
            continue
        v = target
        name = f"{gf.name}-{WORD[v]}.json"
        inst.save(MATRIX / name)
        for a in asked:
            if "command" in a:
                a["command"] = a["command"].replace("{file}", name)
        entry[WORD[v]] = {
            "file": name,
            "deal": deal_text(gf.name, gen, seed, name),
            "verdict": "solved" if v == "W" else "unsolvable",
            "means": asked,
            "measured": f"{datetime.date.today()} load {'/'.join(f'{x:.1f}' for x in os.getloadavg())}",
        }
        if gen in ("constructed", "constructed-won"):
            entry[WORD[v]]["construction"] = construct(gf.name, seed, won=gen == "constructed-won")[1]
        need.discard(v)
    for v in sorted(need):
        entry[WORD[v]] = None
        entry[f"{WORD[v]}_note"] = (
            f"none established: {tried} deals tried (-g {generator(gf)}) at {args.limit:g} s "
            f"(dfs, then {', '.join(means) or 'no second means'})"
        )
    return entry


def readme(index: dict[str, Any]) -> str:
    """The index as a markdown table."""
    lines = [
        "# Per-game matrix of full-size deals with known verdicts",
        "",
        "Built by `benchmarks/build_matrix.py`; checked by `tests/solvers/test_matrix.py` (every backend",
        "that supports the game must not contradict the verdict, and dfs must reach it). `index.json`",
        "holds, per game, the rules fingerprint the verdicts were established under and, per deal, every",
        "means asked (verdict W/L/?, seconds, command). Games whose cards are hidden (`thoughtful: false`)",
        "have no deals: the test asserts every backend answers UNSUPPORTED.",
        "",
        "| game | won deal | established by | lost deal | established by |",
        "|---|---|---|---|---|",
    ]

    def cell(e: dict[str, Any] | None, note: str) -> tuple[str, str]:
        if not e:
            return "-", note or "-"
        code = "W" if e["verdict"] == "solved" else "L"
        agree = [f"{m['by']} {m['seconds']:.2f} s" for m in e["means"] if m["verdict"] == code]
        gap = [f"dfs undecided at {m['seconds']:.0f} s" for m in e["means"][:1] if m["verdict"] == "?"]
        return e["deal"].split(" -o")[0].replace("patience deal ", ""), " + ".join(agree) + "".join(
            f" ({g})" for g in gap
        )

    for game, e in sorted(index.items()):
        w = cell(e.get("won"), e.get("won_note", ""))
        lo = cell(e.get("lost"), e.get("lost_note", ""))
        lines.append(f"| {game} | {w[0]} | {w[1]} | {lo[0]} | {lo[1]} |")
    built = [
        (game, kind, e[kind]["construction"])
        for game, e in sorted(index.items())
        for kind in WORD.values()
        if e.get(kind) and "construction" in e[kind]
    ]
    if built:
        lines += [
            "",
            "## Constructed deals",
            "",
            "Games whose lost deals are too rare to find by seed (win rates of 97-99.9 %) have a deal",
            "made by `benchmarks/_constructed.py` (`build_matrix.py --construct`): the cards are placed so",
            "that nothing can ever be built or played home (the argument is in the docstring of the",
            "construction named), or for Gaps, whose redeals are pseudo-random, the deal is near-complete",
            "so its whole game tree is small. A won deal no seed gave is planted: laid out around a known",
            "win. The verdict is still established by two means run on the deal, as for every other deal",
            "(a win's second means may be the validator's replay).",
            "",
        ]
        lines += [f"- {game} ({kind}): {how}." for game, kind, how in built]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", help="comma-separated games to (re)build (default: missing or stale ones)")
    ap.add_argument("--hints", type=Path, help="a bench_crosscheck --log file: seeds to try first")
    ap.add_argument("--seeds", type=int, default=60, help="deals tried per game at most (default 60)")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per solve (default 10)")
    ap.add_argument(
        "--try", dest="try_deals", default="", help="GEN:SEED,... deals to try first (--games one)"
    )
    ap.add_argument(
        "--need", choices=("both", "won", "lost"), default="both", help="which deals to (re)build"
    )
    ap.add_argument(
        "--without-dfs",
        action="store_true",
        help="also record deals dfs leaves undecided when two other means agree (the test then expects dfs "
        "to fail: a known gap)",
    )
    ap.add_argument(
        "--construct",
        type=int,
        nargs="?",
        const=1,
        default=0,
        metavar="N",
        help="after the seeds, try variants 0..N-1 (default 1) of the game's constructed deal "
        "(benchmarks/_constructed.py: lost, nothing can ever be built or played home, Gaps near-complete; "
        "won, a planted win), for games whose deals of that kind are too rare to find by seed",
    )
    ap.add_argument("--memory-mb", type=int, default=4000, help="memory cap per solve (default 4000)")
    args = ap.parse_args()
    if args.seeds < 0 or args.limit <= 0 or args.construct < 0:
        die("--seeds and --construct must be >= 0 and --limit > 0")
    args.try_deals = [t for t in args.try_deals.split(",") if t]
    if any(":" not in t or not t.rsplit(":", 1)[1].isdigit() for t in args.try_deals):
        die(f"--try: expected GEN:SEED[,GEN:SEED...], got {','.join(args.try_deals)!r}")
    if args.hints and not args.hints.exists():
        die(f"--hints: {args.hints}: no such file")
    index_path = MATRIX / "index.json"
    index: dict[str, Any] = json.loads(index_path.read_text()) if index_path.exists() else {}
    games = {gf.name: gf for gf in list_games()}
    if args.games:
        chosen = []
        for n in (x.strip() for x in args.games.split(",") if x.strip()):
            try:
                chosen.append(load_game(n).file)
            except RuleError as err:
                die(f"--games: {err}")
    else:
        chosen = [
            gf
            for gf in games.values()
            if gf.name not in index or index[gf.name].get("rules") != rules_fingerprint(gf.name)
        ]
    hints, conflicted = read_hints(args.hints)
    MATRIX.mkdir(parents=True, exist_ok=True)
    for gf in chosen:
        if not gf.rules.thoughtful:
            print(f"{gf.name}: thoughtful false, no deals (the test asserts UNSUPPORTED)", flush=True)
            index.pop(gf.name, None)
            continue
        print(f"{gf.name} (load {os.getloadavg()[0]:.1f})", flush=True)
        trust = gf.name not in conflicted and not getattr(gf, "solvitaire_differs", "")
        index[gf.name] = build_game(gf, args, hints.get(gf.name, []), trust, index.get(gf.name, {}))
        index_path.write_text(json.dumps(dict(sorted(index.items())), indent=1) + "\n")
        (MATRIX / "README.md").write_text(readme(index))


if __name__ == "__main__":
    main()
