"""Hostile-input campaign: thousands of mutated inputs through the ``patience`` command, one subprocess each.

Seeds a corpus (instances and solutions of Black Hole, FreeCell and Gaps, written by the code under test),
then runs N mutations of files, ``--set`` values and options through ``show``, ``validate``, ``solve``,
``deal``, ``generate`` and ``estimate``, each in its own empty folder with a wall-clock timeout, and
tallies what breaks the README's promise ("one line on stderr, exit 2, nothing written"):

- traceback: a Python traceback on stderr, or an exit code outside 0-3 (a crash or a signal);
- multi-line: exit 2 with more than one line on stderr;
- hang: still running after its limit + 1 s (plus the measured start-up time of the command);
- left behind: a file or folder created by a run that did not succeed (exit != 0);
- orphans: a process of the command's session still running after the command exited.

    python benchmarks/bench_fuzz.py                                 # small: 100 mutations
    python benchmarks/bench_fuzz.py -n 2000 --jobs 2               # the code in this checkout
    python benchmarks/bench_fuzz.py -n 2000 --src /tmp/base/src     # another checkout (e.g. a worktree)

Prints the tally and the first examples of each failure kind (the command reproducing it); every case
runs in its own temporary folder, so nothing is written under benchmarks/ unless ``--out [DIR]`` asks for
the report as ``fuzz_campaign.md`` (with the commit measured, the date and the load at start and end;
``--note`` adds a line, e.g. which snapshot ``--src`` is).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import _common

RUN = "import sys; from patience.cli import main; sys.argv[0] = 'patience'; main()"
SHORT = ["suits", "ranks", "decks", "piles", "build", "cells", "reserve", "stock", "draw", "redeals",
         "wrap", "holes", "rows"]  # fmt: skip
DOTTED = ["tableau.empty", "tableau.deal", "tableau.sizes", "tableau.face_up", "stock.deal_to",
          "foundations.kind", "foundations.start", "foundations.count", "foundations.initial",
          "cells.prefilled", "gaps.redeals", "gaps.first_column", "tableau.group_moves", "thoughtful",
          "nosuch.key", "deck", "tableau"]  # fmt: skip
HOSTILE_VALUES = ["-1", "0", "1", "2", "3", "-5", "1000000000", "1000000000000", "9" * 5000, "1e309", "NaN",
                  "true", "null", "[]", "{}", "[1,2]", "hole", "tableau", "kings", "1.5", '"3"', "", "\xff",
                  "-0", "99999999999999999999", "[" * 5000]  # fmt: skip
GAMES = ["black-hole", "freecell", "klondike", "gaps-basic-variant", "spider", "mrs-mop", "golf",
         "worm-hole", "all-in-a-row", "canfield", "nosuchgame"]  # fmt: skip
MAX_WAIT_S = 120.0  # a case is killed after this even when its --limit is longer (e.g. 99999999h)
BACKENDS = ["auto", "dfs", "planning", "cpsat", "cpsat-only", "csp", "cpsat-gaps", "nosuch"]


@dataclass
class Case:
    """One command to run: argv after ``patience``, files to create first, and its time limit."""

    argv: list[str]
    files: dict[str, bytes] = field(default_factory=dict)
    limit: float = 0.0  # the command's own --limit (0: no solving)
    kind: str = ""


@dataclass
class Outcome:
    case: Case
    code: int | None
    seconds: float
    stderr: str
    left: list[str]
    orphans: bool = False


def _alive(group: int) -> bool:
    """True while a process of this process group (a command's session) still runs."""
    try:
        os.killpg(group, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


# Corpus -----------------------------------------------------------------------------------------------
def _cli(env: dict[str, str], cwd: Path, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", RUN, *argv], cwd=cwd, env=env, capture_output=True,
                          timeout=timeout)  # fmt: skip


def seed_corpus(env: dict[str, str], work: Path) -> dict[str, bytes]:
    """Valid instances and solutions written by the code under test (the mutations start from these)."""
    corpus: dict[str, bytes] = {}
    specs = [("bh", "black-hole", "1", []), ("fc", "freecell", "3", []), ("bs", "binary-star", "4", []),
             ("gaps", "gaps-basic-variant", "1", ["--set", "ranks=4"])]  # fmt: skip
    for tag, game, seed, extra in specs:
        inst = work / f"{tag}.json"
        r = _cli(env, work, "deal", game, "--seed", seed, *extra, "-o", str(inst))
        if r.returncode != 0:
            raise SystemExit(f"cannot seed the corpus: {r.stderr.decode(errors='replace')}")
        corpus[f"{tag}.json"] = inst.read_bytes()
        sol = work / f"{tag}-sol.json"
        _cli(env, work, "solve", str(inst), "--limit", "20s", "-o", str(sol))
        if sol.exists():
            corpus[f"{tag}-sol.json"] = sol.read_bytes()
    return corpus


# Mutations ---------------------------------------------------------------------------------------------
def _paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


def _set_at(obj: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    node = obj
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return obj


def _hostile_json(rng: random.Random) -> Any:
    return rng.choice([
        -1, 0, 10**12, 10**30, 1.5, float("inf"), True, None, "", "ZZ", "14:5", "0:0", "99:99", "AS", "AS ",
        "10h", "tableau:99999999999", "tableau:-1", "foundation:0", "grid:1:3", "grid:-1:0", "stock", "waste",
        [], {}, [None], ["AS"] * 3, {"x": 1}, "é" * 100, "\u0000",
    ])  # fmt: skip


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    """A byte-level mutation of a JSON file."""
    op = rng.randrange(12)
    if op == 0:
        return b"\xff\xfe" + data
    if op == 1:
        return data[: rng.randrange(len(data) + 1)]
    if op == 2:
        b = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b)
    if op == 3:
        depth = rng.choice([100, 1000, 100_000])
        return b"[" * depth + b"]" * depth
    if op == 4:
        return b'{"format": "patience-instance/1", "game": "black-hole", "layout": ' + b"[" * 50_000 + b"}"
    if op == 5:
        return data.replace(b"1", b"9" * rng.choice([5000, 20_000]), 1)
    if op == 6:
        return b""
    if op == 7:
        return data + b"\x00" * rng.randrange(1, 64)
    if op == 8:
        return data.decode("utf-8", "replace").encode("utf-16")
    if op == 9:
        return b'"' + b"A" * rng.choice([10, 10**6]) + b'"'
    if op == 10:
        return json.dumps({"format": "patience-instance/1", "game": "black-hole",
                           "layout": {"tableau": [["AS"] * 1000] * 1000}}).encode()  # fmt: skip
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))


def mutate_json(rng: random.Random, data: bytes) -> bytes:
    """A structural mutation: a hostile value at a random path, a key removed, or an unknown key added."""
    obj = json.loads(data)
    for _ in range(rng.randint(1, 3)):
        paths = _paths(obj)
        path = rng.choice(paths)
        op = rng.randrange(4)
        if op == 0 or not path:
            obj = _set_at(obj, path, _hostile_json(rng)) if path else obj
        elif op == 1:
            parent = obj
            for p in path[:-1]:
                parent = parent[p]
            if isinstance(parent, dict):
                parent.pop(path[-1], None)
            elif isinstance(parent, list) and parent:
                parent.pop(path[-1])
        elif op == 2:
            if isinstance(obj, dict):
                obj[rng.choice(["extra", "Format", "moves2", "rules"])] = _hostile_json(rng)
        else:
            parent = obj
            for p in path[:-1]:
                parent = parent[p]
            if isinstance(parent, list):
                parent.append(_hostile_json(rng))
    try:
        return json.dumps(obj, allow_nan=True).encode()
    except (TypeError, ValueError):
        return data


def _sets(rng: random.Random) -> list[str]:
    out = []
    for _ in range(rng.randint(1, 3)):
        name = rng.choice(SHORT + DOTTED)
        out += ["--set", f"{name}={rng.choice(HOSTILE_VALUES)}"]
    return out


def make_case(rng: random.Random, corpus: dict[str, bytes]) -> Case:
    """One random hostile command."""
    insts = [k for k in corpus if not k.endswith("-sol.json")]
    sols = [k for k in corpus if k.endswith("-sol.json")]
    kind = rng.choice(["show", "show", "validate", "validate", "solve-file", "solve-set", "deal-set",
                       "options", "generate", "estimate", "special"])  # fmt: skip
    if kind in ("show", "solve-file"):
        src = rng.choice(insts)
        data = corpus[src]
        data = mutate_json(rng, data) if rng.random() < 0.6 else mutate_bytes(rng, data)
        files = {"in.json": data}
        if kind == "show":
            return Case(["show", "in.json", *(["--moves"] if rng.random() < 0.5 else [])], files, kind=kind)
        limit = 1.0
        argv = ["solve", "in.json", "-b", rng.choice(BACKENDS), "--limit", "1s", "-o", "sol.json"]
        return Case(argv, files, limit, kind)
    if kind == "validate":
        sol = rng.choice(sols)
        inst = sol.replace("-sol", "")
        data = corpus[sol]
        data = mutate_json(rng, data) if rng.random() < 0.7 else mutate_bytes(rng, data)
        cmd = rng.choice(["validate", "show"])
        return Case([cmd, "in.json", "sol.json"], {"in.json": corpus[inst], "sol.json": data}, kind=kind)
    if kind == "solve-set":
        game = rng.choice(GAMES)
        argv = ["solve", f"{game}:{rng.choice(['1', '2', '0', '99999999999'])}", "-b", rng.choice(BACKENDS),
                "--limit", "1s", *_sets(rng), "-o", "sol.json"]  # fmt: skip
        return Case(argv, limit=1.0, kind=kind)
    if kind == "deal-set":
        game = rng.choice(GAMES)
        seed = rng.choice(["1", "-1", "9" * 5000])
        return Case(["deal", game, "--seed", seed, *_sets(rng), "-o", "d.json"], kind=kind)
    if kind == "options":
        game = rng.choice(["black-hole", "freecell", "gaps-basic-variant"])
        opt = rng.choice(
            [
                ["--max-nodes", rng.choice(["-1", "0", "9" * 5000, "x"])],
                ["--max-mb", rng.choice(["0", "-5", "1", "99999999999999"])],
                ["--limit", rng.choice(["0", "-1s", "1e309s", "nan", "99999999999999h", "1x"])],
                ["-g", rng.choice(["nosuch", "planted:-1", "planted:999999999999", "ms"])],
            ]
        )
        return Case(["solve", f"{game}:1", "--limit", "1s", *opt, "-o", "sol.json"], limit=1.0, kind=kind)
    if kind == "generate":
        n = rng.choice(["1", "0", "-1", "1000000000"])
        sets = _sets(rng) if rng.random() < 0.5 else []
        return Case(["generate", rng.choice(GAMES), "-n", n, *sets, "-o", "gen"], limit=1.0, kind=kind)
    if kind == "estimate":
        opts = rng.choice(
            [
                ["-n", "1000000000"],
                ["-n", "0"],
                ["-n", "2", *_sets(rng)],
                ["-n", "1", "--seed", "-1"],
                ["-n", "1", "--workers", "-1"],
                ["-n", "2", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:1"],
            ]
        )
        tail = ["-b", "dfs", "--limit", "1s", "--workers", "0", "-q", "--db", "r.sqlite"]
        return Case(["estimate", rng.choice(GAMES), *opts, *tail], limit=2.0, kind=kind)
    special = rng.choice([
        Case(["show", "/dev/zero"], kind="special"),
        Case(["show", "."], kind="special"),
        Case(["validate", "in.json", "/dev/zero"], {"in.json": corpus["bh.json"]}, kind="special"),
        Case(["show", "in.json"], {"in.json": b"\xff\xfe{}"}, kind="special"),
        Case(["report", "r.sqlite"], {"r.sqlite": b"SQLite format 3\x00" + b"\x00" * 200}, kind="special"),
        Case(["estimate", "black-hole", "-n", "1", "--db", "r.sqlite", "-q"], {"r.sqlite": b"junk"}, 2.0,
             "special"),
    ])  # fmt: skip
    return special


def _limit(case: Case) -> float:
    """The case's time limit: its last valid ``--limit`` (as the command reads it), else the default."""
    limit = case.limit
    for flag, value in zip(case.argv, case.argv[1:], strict=False):
        m = re.fullmatch(r"(\d+(?:\.\d*)?)(ms|s|m|h)?", value) if flag == "--limit" else None
        if m and float(m.group(1)) > 0:
            limit = float(m.group(1)) * {"ms": 0.001, "s": 1, None: 1, "m": 60, "h": 3600}[m.group(2)]
    return limit


# Running ------------------------------------------------------------------------------------------------
def run_case(case: Case, env: dict[str, str], base: float) -> Outcome:
    work = Path(tempfile.mkdtemp(prefix="fuzz-"))
    try:
        for name, data in case.files.items():
            (work / name).write_bytes(data)
        before = set(os.listdir(work))
        budget = _limit(case) + 1 + base
        t0 = time.perf_counter()
        argv = [sys.executable, "-c", RUN, *case.argv]
        p = subprocess.Popen(argv, cwd=work, env=env, start_new_session=True, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)  # fmt: skip
        try:
            _, raw = p.communicate(timeout=min(budget, MAX_WAIT_S) + 5)
            code: int | None = p.returncode
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)  # the command and any workers it started
            _, raw = p.communicate()
            code = None
        err = raw.decode(errors="replace")
        orphans = _alive(p.pid)
        if orphans:
            os.killpg(p.pid, signal.SIGKILL)
        secs = time.perf_counter() - t0
        left = sorted(set(os.listdir(work)) - before) if code != 0 else []
        return Outcome(case, code, secs, err, left, orphans)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def classify(o: Outcome, base: float) -> list[str]:
    """Failure kinds of one outcome (empty: the promise held)."""
    out = []
    if o.code is None or o.seconds > _limit(o.case) + 1 + base:
        out.append("hang")
    if "Traceback (most recent call last)" in o.stderr or (o.code is not None and o.code not in (0, 1, 2, 3)):
        out.append("traceback")
    if o.code == 2 and len(o.stderr.strip().splitlines()) > 1:
        out.append("multi-line")
    if o.left:
        out.append("left behind")
    if o.orphans:
        out.append("orphans")
    return out


def main() -> None:
    ap = _common.Parser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=100, help="mutations to run (2000 for a campaign)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2, help="commands run at once")
    ap.add_argument("--src", default=None, help="a src/ folder to test instead of the installed package")
    ap.add_argument("--examples", type=int, default=3, help="examples printed per failure kind")
    ap.add_argument("--note", default="", help="a line for the report's head (e.g. what --src is)")
    _common.add_out(ap, "the report as fuzz_campaign.md")
    args = ap.parse_args()
    if args.n < 1 or args.jobs < 1:
        ap.error("-n and --jobs must be >= 1")
    head = [
        f"# bench_fuzz -n {args.n} --seed {args.seed} --jobs {args.jobs}",
        f"commit {_common.commit(Path(args.src) if args.src else None)}; started {_common.machine()}",
    ]
    head += [args.note] if args.note else []
    print("\n".join(head), flush=True)
    env = dict(os.environ, PATIENCE_FUZZ="1")
    if args.src:
        src = Path(args.src).resolve()
        env["PYTHONPATH"] = str(src) + os.pathsep + env.get("PYTHONPATH", "")
        env["PATIENCE_MODELS"] = str(src.parent / "models")
    with tempfile.TemporaryDirectory() as tmp:
        corpus = seed_corpus(env, Path(tmp))
        starts = []
        for _ in range(3):
            t0 = time.perf_counter()
            _cli(env, Path(tmp), "show", "bh.json")
            starts.append(time.perf_counter() - t0)
    base = 2 * statistics.median(starts)
    rng = random.Random(args.seed)
    cases = [make_case(rng, corpus) for _ in range(args.n)]
    t0 = time.perf_counter()
    with ThreadPoolExecutor(args.jobs) as pool:
        outcomes = list(pool.map(lambda c: run_case(c, env, base), cases))
    tally: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    examples: dict[str, list[Outcome]] = {}
    for o in outcomes:
        codes[str(o.code)] += 1
        for k in classify(o, base):
            tally[k] += 1
            examples.setdefault(k, []).append(o)
    kinds = ("traceback", "hang", "left behind", "multi-line", "orphans")
    lines = [f"{args.n} mutations in {time.perf_counter() - t0:.0f}s ({args.jobs} at once, start-up "
             f"allowance {base:.2f}s, load {_common.load()}); exit codes: {dict(sorted(codes.items()))}",
             "tally: " + ", ".join(f"{k} {tally.get(k, 0)}" for k in kinds)]  # fmt: skip
    for k, items in sorted(examples.items()):
        lines.append(f"-- {k} ({len(items)}), by kind: {dict(Counter(o.case.kind for o in items))}")
        for o in items[: args.examples]:
            last = o.stderr.strip().splitlines()[-1:] or [""]
            argv = " ".join(a if len(a) < 40 else a[:20] + "..." for a in o.case.argv)
            lines.append(f"   patience {argv}  -> exit {o.code} in {o.seconds:.1f}s (budget "
                         f"{_limit(o.case) + 1 + base:.2f}s); {last[0][:150]}"
                         + (f"; left {o.left}" if o.left else ""))  # fmt: skip
    lines.append(f"finished {_common.machine()}")
    print("\n".join(lines))
    folder = _common.out_dir(args)
    if folder is not None:
        _common.write_lines(folder / "fuzz_campaign.md", [*head, "", "```", *lines, "```"])
    sys.exit(1 if tally else 0)


if __name__ == "__main__":
    main()
