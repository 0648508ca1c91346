"""CP-SAT models alone at full size (issue 20), beside dfs and a peer on the same deals, every verdict
cross-checked.

Games (``--game``):

* ``gaps``: Gaps basic variant 4 x 13, ``portable`` deals (``-g`` to change), the ``cpsat-gaps`` model
  (``--formulation``: foata, steps, events or visits), dfs, and Solvitaire (``.peers/solvitaire``) on the
  same deal written as its JSON;
* ``binary-star``: PySol Binary Star deals, the ``cpsat`` model alone (no presearch, no max-cards pass:
  the verdict's own time; ``--formulation`` steps, circuit or table) and dfs (black-hole-solver has no
  Binary Star, so no peer);
* ``all-in-a-row-8x13``, ``black-hole-8x13``: generalized 104-card decks (8 suits x 13 ranks; Black
  Hole's 103 tableau cards in unequal piles), ``portable`` deals, the same ``cpsat`` model alone and dfs
  (black-hole-solver reads only the 52-card deck, so no peer). ``--opt NAME=VALUE`` passes more options
  to the CP backend (ablation) and ``--tag`` names the run's files.

Each deal goes to every solver in turn, in this process (instance building excluded, validation of
wins included), at ``--limit`` seconds. Printed: per-solver verdict counts, decided count and median
seconds (of all deals, unknowns at the limit), every SOLVED vs UNSOLVABLE disagreement (a bug, always
listed), and the load before and after. CP-SAT runs with ``--workers`` (default 1) search workers.

    python benchmarks/bench_cpsat_full.py --game gaps -n 100 --limit 30 --out
    python benchmarks/bench_cpsat_full.py --game binary-star -n 100 --limit 30 --formulation steps --out

With ``--out [DIR]`` writes ``cpsat_full_<game>_<formulation>.csv`` (a row per deal, rewritten as it goes)
and ``.md`` (the summary) there; ``--only solvitaire`` (or ``cp``, ``dfs``) adds or reruns those columns
of that CSV, keeping the others (``--only none``: just the summary of that CSV).
"""

from __future__ import annotations

import csv
import time
from typing import Any

import _common
import _solvitaire

from patience.deals import deal
from patience.experiments.stats import percentiles
from patience.formats import to_solvitaire
from patience.instance import Instance
from patience.solvers.base import Backend, Limits, get_solver

GAMES: dict[str, tuple[str, str, str, dict[str, Any]]] = {  # name: game, generator, formulation, --set
    "gaps": ("gaps-basic-variant", "portable", "foata", {}),
    "binary-star": ("binary-star", "pysol", "steps", {}),
    "all-in-a-row-8x13": ("all-in-a-row", "portable", "auto", {"suits": 8}),
    "black-hole-8x13": ("black-hole", "portable", "auto", {"suits": 8, "tableau.equal_piles": False}),
}


def solvers(game: str, formulation: str, workers: int, opts: dict[str, Any]) -> dict[str, Backend]:
    """The model alone and dfs, by column name (``opts``: more options of the CP backend)."""
    if game == "gaps":
        cp = get_solver("cpsat-gaps", formulation=formulation, workers=workers, **opts)
    else:
        cp = get_solver(
            "cpsat", formulation=formulation, presearch_nodes=0, max_cards=False, workers=workers, **opts
        )
    return {f"cp-{formulation}": cp, "dfs": get_solver("dfs")}


def option(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` of ``--opt``: VALUE as a bool, int or float when it reads as one."""
    name, _, value = text.partition("=")
    low = value.lower()
    if low in ("true", "false"):
        return name, low == "true"
    for kind in (int, float):
        try:
            return name, kind(value)
        except ValueError:
            pass
    return name, value


def run(solver: Backend, inst: Instance, limit: float) -> tuple[str, float]:
    """Verdict letter and wall seconds of one solver on one deal."""
    t0 = time.perf_counter()
    r = solver.solve(inst, Limits(seconds=limit))
    if r.status.value == "error":
        raise SystemExit(f"{solver.name} on {inst.game}: error: {r.message}")
    return _common.verdict(r.status), time.perf_counter() - t0


def summary(rows: list[dict[str, Any]], names: list[str], head: str) -> list[str]:
    """The Markdown summary: counts, decided, medians, disagreements."""
    out = [
        head,
        "",
        "| solver | deals | won | lost | unknown | decided | median s | p90 s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name in names:
        letters = [r[name] for r in rows if r.get(name) not in (None, "-")]
        secs = [r[f"{name}_s"] for r in rows if r.get(name) not in (None, "-")]
        t = _common.tally(letters)
        p = percentiles(secs, (50, 90)) or {"p50": float("nan"), "p90": float("nan")}
        out.append(
            f"| {name} | {len(letters)} | {t['W']} | {t['L']} | {t['?']} | {t['W'] + t['L']} "
            f"| {p['p50']:.2f} | {p['p90']:.2f} |"
        )
    out += ["", "| pair | both decided | agree |", "|---|---|---|"]
    bad = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            both = [r for r in rows if r.get(a) in ("W", "L") and r.get(b) in ("W", "L")]
            agree = sum(r[a] == r[b] for r in both)
            out.append(f"| {a} vs {b} | {len(both)} | {agree} |")
            bad += [f"seed {r['seed']}: {a} {r[a]}, {b} {r[b]}" for r in both if r[a] != r[b]]
    out += ["", "Disagreements: " + ("; ".join(bad) if bad else "none")]
    return out


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=sorted(GAMES), required=True)
    ap.add_argument("-n", "--deals", type=int, default=10)
    ap.add_argument("--first", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("--limit", type=float, default=30.0, help="seconds per deal and solver (default 30)")
    ap.add_argument("-g", "--generator", default=None, help="deal generator (default: portable / pysol)")
    ap.add_argument(
        "--formulation", default=None, help="the CP model's formulation (default: GAMES', foata for gaps)"
    )
    ap.add_argument("--workers", type=int, default=1, help="CP-SAT search workers (default 1)")
    ap.add_argument("--no-peer", action="store_true", help="leave Solvitaire out (gaps)")
    ap.add_argument(
        "--only",
        default=None,
        help="run only these columns (comma-separated: cp, dfs, solvitaire) and keep the other columns of "
        "the CSV already in the --out folder (to add a solver to an earlier run)",
    )
    ap.add_argument("--opt", action="append", default=[], help="NAME=VALUE: an option of the CP backend")
    ap.add_argument("--tag", default="", help="suffix of the output files (a variant's name)")
    _common.add_out(ap, "cpsat_full_<game>_<formulation>[_<tag>].csv and .md")
    args = ap.parse_args()
    game, default_gen, default_form, sets = GAMES[args.game]
    gen = args.generator or default_gen
    form = args.formulation or default_form
    try:
        backends = solvers(args.game, form, args.workers, dict(map(option, args.opt)))
    except (ValueError, TypeError) as err:  # an unknown option or a bad value: one line, exit 2
        ap.error(f"--opt: {err}")
    out = _common.out_dir(args)
    names = list(backends)
    peer = args.game == "gaps" and not args.no_peer and _solvitaire.available()
    if peer:
        names.append("solvitaire")
    run_cols = set(names)
    stem = f"cpsat_full_{args.game}_{form}" + (f"_{args.tag}" if args.tag else "")
    old: dict[int, dict[str, Any]] = {}
    if args.only:
        wanted = {f"cp-{form}" if x == "cp" else x for x in args.only.split(",")}
        run_cols = wanted & set(names)
        path = out / f"{stem}.csv" if out else None
        if path and path.exists():
            with path.open() as fh:
                for r in csv.DictReader(fh):
                    old[int(r["seed"])] = {k: (float(v) if k.endswith("_s") else v) for k, v in r.items()}
    load0 = _common.load()
    print(f"{game}, {gen} deals {args.first}..{args.first + args.deals - 1}, {args.limit:g} s, "
          f"CP-SAT workers {args.workers}; {_common.machine()}", flush=True)  # fmt: skip
    rows: list[dict[str, Any]] = []
    for seed in range(args.first, args.first + args.deals):
        inst = deal(game, seed, gen, sets or None)
        row: dict[str, Any] = {k: v for k, v in old.get(seed, {}).items() if v not in ("", "-")}
        row["seed"] = seed
        for name, solver in backends.items():
            if name in run_cols:
                v, s = run(solver, inst, args.limit)
                row.update({name: v, f"{name}_s": round(s, 3)})
        if peer and "solvitaire" in run_cols:
            v, s = _solvitaire.classify_deal(game, to_solvitaire(inst), args.limit)
            row.update({"solvitaire": v, "solvitaire_s": round(s, 3)})
        if run_cols:
            row["load" if not args.only else "load_" + args.only] = _common.load().split("/")[0]
        rows.append(row)
        print("  ".join(f"{k}={v}" for k, v in row.items()), flush=True)
        if out:
            _common.write_csv(out / f"{stem}.csv", rows, list(dict.fromkeys(k for r in rows for k in r)))
    loads = sorted(
        float(v) for r in rows for k, v in r.items() if k.startswith("load") and v not in ("", "-")
    )
    seen = f"; 1-min load at the rows {loads[0]:.1f}-{loads[-1]:.1f}" if loads else ""
    head = (
        f"## {game}, {gen} deals {args.first}-{args.first + args.deals - 1}, {args.limit:g} s each"
        f"\n\nCP model: formulation {form}, {args.workers} worker(s), model alone"
        + (f" ({', '.join(args.opt)})" if args.opt else "") + (f", deals --set {sets}" if sets else "") + "; "
        + (f"load {load0} -> {_common.load()} (1/5/15 min) " if run_cols else "")
        + f"on {_common.machine().split(', ')[1]}, shared{seen}."
    )
    lines = summary(rows, names, head)
    print("\n".join(lines))
    if out:
        _common.write_lines(out / f"{stem}.md", lines)


if __name__ == "__main__":
    main()
