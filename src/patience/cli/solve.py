"""``patience solve``: deals with one backend, every SOLVED replayed by the validator.

One TARGET gives the result of one deal (``--json``: the result JSON). Several, a folder of deal files or a
range GAME:A-B make a batch: every deal is read and checked first (bad input is exit 2 before any solving),
then solved in turn with the whole ``--limit`` each; ``--jsonl`` prints one JSON line per deal, and a
summary line goes to stderr at the end.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import click

from ..instance import Instance, atomic_write
from ..interrupt import INTERRUPTED
from ..memguard import TIME_LIMIT, MemoryGuard
from ..solvers.base import Limits, Reason, Result, Status, guard_result, solve, unsupported_reason
from ..validate import solution_json
from .backends import check_backend, check_supported
from .errors import EXIT_BACKEND_ERROR, EXIT_INTERRUPTED, EXIT_NOT_WON, EXIT_USAGE, UsageError, guard
from .generator import GENERATOR, GENERATOR_HELP
from .limits import MAX_MB, parse_limit, seconds_left
from .output import emit_json, plural
from .sets import SET_HELP, parse_sets
from .target import FORMAT_CHOICE, FORMAT_HELP, GAME_HELP, expand_targets, instance_arg, target_label

__all__ = ["solve_cmd"]


@click.command(name="solve")
@click.argument("targets", nargs=-1, required=True, metavar="TARGET...")
@click.option("--backend", "-b", default="auto", show_default=True, help="auto or a registered backend.")
@click.option("--limit", default="30s", show_default=True, help="Wall-time limit, e.g. 10s, 500ms.")
@click.option("--max-nodes", type=click.IntRange(min=1), default=None, help="Node limit (search backends).")
@click.option(
    "--max-mb",
    type=click.IntRange(1, MAX_MB),
    default=None,
    help="Memory limit in MB above the process's size when solving starts (UNKNOWN 'memory out').",
)
@click.option("--generator", "-g", type=GENERATOR, default="portable", show_default=True, help=GENERATOR_HELP)
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help=SET_HELP)
@click.option("--format", "fmt", type=FORMAT_CHOICE, default=None, help=FORMAT_HELP)
@click.option("--game", default=None, help=GAME_HELP)
@click.option(
    "-o", "--output", type=click.Path(), help="Write the solution file here (a batch: into this folder)."
)
@click.option("--json", "as_json", is_flag=True, help="The result as JSON (one deal).")
@click.option("--jsonl", is_flag=True, help="One JSON line per deal: a batch, even of one deal.")
@click.option("--require-win", is_flag=True, help="Exit 1 unless the deal is solved.")
@click.option("--explain", is_flag=True, help="For a lost deal: a small set of facts that already lose it.")
@guard
def solve_cmd(
    targets: tuple[str, ...],
    backend: str,
    limit: str,
    max_nodes: int | None,
    max_mb: int | None,
    generator: str,
    sets: tuple[str, ...],
    fmt: str | None,
    game: str | None,
    output: str | None,
    as_json: bool,
    jsonl: bool,
    require_win: bool,
    explain: bool,
) -> None:
    """Solve each TARGET with a backend: a deal file (patience JSON, PySol/black-hole-solver or fc-solve
    board text, Solvitaire JSON), - for standard input, GAME:SEED, a folder of deal files, or GAME:A-B."""
    check_backend(backend)
    expanded = expand_targets(targets)
    if jsonl or len(expanded) > 1 or expanded != list(targets):
        if as_json or explain:
            raise UsageError(f"{'--json' if as_json else '--explain'} is for one deal; a batch has --jsonl")
        _batch(expanded, backend, parse_limit(limit), max_nodes, max_mb, generator, sets, fmt, game, output,
               jsonl, require_win)  # fmt: skip
        return
    target = expanded[0]
    inst = instance_arg(target, generator, parse_sets(sets), fmt, game)
    seconds = parse_limit(limit)
    check_supported(inst.rules, inst.game, backend)
    if output and Path(output).is_dir():
        raise UsageError(f"-o {output}: is a folder; one deal writes one solution file")
    left = seconds_left(seconds)  # what dealing and loading left of the limit
    limits = Limits(seconds=max(left, 0.0), nodes=max_nodes, memory_mb=max_mb)
    if explain:
        from ..solvers.cpsat_hole import family_supports

        if not family_supports(inst.rules):
            raise UsageError(f"--explain: only Black Hole family games are explained, not {inst.game}")
    result = _run(inst, backend, limits)
    why: list[str] | None = None
    minimal = False  # every fact's removal was checked (else the facts are a proven core)
    if explain and result.status is Status.UNSOLVABLE:
        from ..solvers.cpsat_hole.explain import explain_deal

        got = explain_deal(inst, seconds=limits.seconds)
        why, minimal = (got.facts, got.minimal) if got is not None else (None, False)
    if output and result.status is Status.SOLVED:
        atomic_write(output, _solution_text(inst, result))
    if as_json:
        out = result.to_json()
        out["instance"] = inst.sha256
        out["game"] = inst.game
        if why is not None:
            out["explanation"] = why
            out["explanation_minimal"] = minimal
        emit_json(out)
    else:
        click.echo(_summary(inst, result, backend))
        if why is not None:
            # Each fact holds in the deal; together they leave no order of play (proven by CP-SAT).
            click.echo(
                f"lost because of these {plural(len(why), 'fact')} alone (no order of play that keeps"
                " them fits the rank rule):"
            )
            for fact in why:
                click.echo(f"  - {fact}")
            click.echo(
                "minimal: without any one of them (or any one card they name) an order of play exists"
                if minimal
                else "not proven minimal: some fact's removal was not decided in time"
            )
        elif explain and result.status is Status.UNSOLVABLE:
            click.echo("no explanation found within the time limit")
    if result.message == INTERRUPTED and result.status is Status.UNKNOWN:
        sys.exit(EXIT_INTERRUPTED)
    if result.status is Status.ERROR:
        sys.exit(EXIT_BACKEND_ERROR)
    if result.status is Status.UNSUPPORTED:  # a backend that refused after all: still an unsupported pair
        sys.exit(EXIT_USAGE)
    if require_win and result.status is not Status.SOLVED:
        sys.exit(EXIT_NOT_WON)


def _run(inst: Instance, backend: str, limits: Limits) -> Result:
    """Solve one deal within ``limits``; Ctrl-C and the guard give UNKNOWN (interrupted, memory, time)."""
    if limits.seconds <= 0:
        return Result(
            Status.UNKNOWN, backend=backend, message=TIME_LIMIT, stats={"seconds": 0.0}, reason=Reason.TIME
        )
    t0 = time.perf_counter()
    # Resident set past its base + --max-mb, or still running GRACE_S past the limit: stopped like Ctrl-C.
    guard_mb = MemoryGuard(limits.memory_mb, deadline=t0 + limits.seconds)
    try:
        with guard_mb:
            result = solve(inst, backend, limits)
    except KeyboardInterrupt:  # Ctrl-C (exit 130) or the guard: the deal is undecided
        seconds = time.perf_counter() - t0
        result = guard_result(guard_mb, backend, seconds) or Result(
            Status.UNKNOWN,
            stats={"seconds": seconds},
            backend=backend,
            message=INTERRUPTED,
            reason=Reason.INTERRUPTED,
        )
    if limits.memory_mb is not None:
        result.stats.update(base_mb=round(guard_mb.base_mb, 1), peak_mb=round(guard_mb.peak_mb, 1))
    return result


def _batch(
    targets: list[str],
    backend: str,
    seconds: float,
    max_nodes: int | None,
    max_mb: int | None,
    generator: str,
    sets: tuple[str, ...],
    fmt: str | None,
    game: str | None,
    output: str | None,
    jsonl: bool,
    require_win: bool,
) -> None:
    """Solve every deal of a batch, each within the whole limit; one line per deal, a summary on stderr."""
    overrides = parse_sets(sets)
    insts = [instance_arg(t, generator, overrides, fmt, game) for t in targets]  # bad input before any work
    for t, inst in zip(targets, insts, strict=True):
        reason = unsupported_reason(inst.rules, inst.game, backend)
        if reason is not None:
            raise UsageError(f"{target_label(t)}: {reason}")
    outdir = Path(output) if output else None
    if outdir is not None and outdir.exists() and not outdir.is_dir():
        raise UsageError(f"-o {output}: exists and is not a folder (a batch writes a solution file per deal)")
    counts: dict[str, int] = {}
    t0 = time.perf_counter()
    worst = 0
    for done, (t, inst) in enumerate(zip(targets, insts, strict=True)):
        result = _run(inst, backend, Limits(seconds=seconds, nodes=max_nodes, memory_mb=max_mb))
        counts[result.status.value] = counts.get(result.status.value, 0) + 1
        label = target_label(t)
        if outdir is not None and result.status is Status.SOLVED:
            stem = label.replace(":", "-") if t == label else Path(label).stem
            atomic_write(outdir / f"{stem}.solution.json", _solution_text(inst, result))
        if jsonl:
            click.echo(json.dumps(_jsonl_row(label, inst, result)))
        else:
            click.echo(_summary(inst, result, backend, label))
        if result.status is Status.ERROR:
            worst = max(worst, EXIT_BACKEND_ERROR)
        elif require_win and result.status is not Status.SOLVED:
            worst = max(worst, EXIT_NOT_WON)
        if result.reason is Reason.INTERRUPTED:
            click.echo(_batch_summary(counts, done + 1, len(targets), time.perf_counter() - t0), err=True)
            where = f"; solutions so far in {output}" if outdir is not None else ""
            click.echo(f"{INTERRUPTED} after {done + 1} of {len(targets)} deals{where}", err=True)
            sys.exit(EXIT_INTERRUPTED)
    click.echo(_batch_summary(counts, len(targets), len(targets), time.perf_counter() - t0), err=True)
    if worst:
        sys.exit(worst)


def _solution_text(inst: Instance, result: Result) -> str:
    return json.dumps(solution_json(inst, list(result.solution or ())), indent=1) + "\n"


def _jsonl_row(label: str, inst: Instance, result: Result) -> dict[str, Any]:
    """One deal of a batch as one JSON object: which deal, the verdict, time, moves and why."""
    return {
        "target": label,
        "game": inst.game,
        "instance": inst.sha256,
        "status": result.status.value,
        "backend": result.backend or None,
        "seconds": result.stats.get("seconds"),
        "n_moves": None if result.solution is None else len(result.solution),
        "reason": None if result.reason is None else result.reason.value,
        "message": result.message or None,
    }


def _batch_summary(counts: dict[str, int], done: int, total: int, wall: float) -> str:
    """``N deals: solved a, unsolvable b, ...`` in the order of the statuses."""
    parts = [f"{s.value} {counts[s.value]}" for s in Status if s.value in counts]
    of = f"{done} of {plural(total, 'deal')}" if done < total else plural(total, "deal")
    return f"{of}: {', '.join(parts)} in {wall:.1f}s"


def _summary(inst: Instance, result: Result, backend: str, name: str | None = None) -> str:
    """The one human line of a result: the deal (``name``, else its game), verdict, backend, time, moves,
    message, cards removed."""
    line = f"{name or inst.game}: {result.status.value.upper()} ({result.backend or backend})"
    secs = result.stats.get("seconds")
    if secs is not None:
        line += f" in {secs:.3f}s"
        jit_s = result.stats.get("jit_s")
        if jit_s:  # the first compiled search of a process: numba compiles or loads its kernel
            line += f" (of which {jit_s:.2f}s compiling the search kernel)"
    if result.solution is not None:
        line += f", {plural(len(result.solution), 'move')}"
    if result.message:
        line += f" - {result.message}"
    removes_cards = inst.rules.n_foundations > 0  # not Gaps: nothing leaves its grid
    most = result.max_cards
    if most is not None and result.status is Status.UNSOLVABLE and removes_cards:
        if most.proven:
            line += f"; at most {plural(most.best, 'card')} can be removed (proven optimum)"
        else:  # a sequence found, not proven the longest
            line += f"; the best sequence found removes {plural(most.best, 'card')}"
            if most.bound < result.stats.get("cards", float("inf")):
                line += f" (none removes more than {most.bound})"  # a bound better than all cards
    return line
