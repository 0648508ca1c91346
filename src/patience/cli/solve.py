"""``patience solve``: one deal with one backend, every SOLVED replayed by the validator."""

from __future__ import annotations

import json
import sys

import click

from ..instance import Instance, atomic_write
from ..interrupt import INTERRUPTED
from ..memguard import MEMORY_OUT, MemoryGuard
from ..solvers.base import Limits, Reason, Result, Status, solve
from ..validate import solution_json
from .backends import check_backend, check_supported
from .errors import EXIT_BACKEND_ERROR, EXIT_INTERRUPTED, EXIT_NOT_WON, EXIT_USAGE, UsageError, guard
from .generator import GENERATOR, GENERATOR_HELP
from .limits import MAX_MB, parse_limit, seconds_left
from .output import emit_json
from .sets import SET_HELP, parse_sets
from .target import FORMAT_CHOICE, FORMAT_HELP, GAME_HELP, instance_arg

__all__ = ["solve_cmd"]


@click.command(name="solve")
@click.argument("target")
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
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the solution file here.")
@click.option("--json", "as_json", is_flag=True)
@click.option("--require-win", is_flag=True, help="Exit 1 unless the deal is solved.")
@click.option("--explain", is_flag=True, help="For a lost deal: a small set of facts that already lose it.")
@guard
def solve_cmd(
    target: str,
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
    require_win: bool,
    explain: bool,
) -> None:
    """Solve TARGET with a backend: a deal file (patience JSON, PySol/black-hole-solver or fc-solve board
    text, Solvitaire JSON), - for standard input, or GAME:SEED."""
    check_backend(backend)
    inst = instance_arg(target, generator, parse_sets(sets), fmt, game)
    seconds = parse_limit(limit)
    check_supported(inst.rules, inst.game, backend)
    left = seconds_left(seconds)  # what dealing and loading left of the limit
    limits = Limits(seconds=max(left, 0.0), nodes=max_nodes, memory_mb=max_mb)
    if explain:
        from ..solvers.cpsat_hole import family_supports

        if not family_supports(inst.rules):
            raise UsageError(f"--explain: only Black Hole family games are explained, not {inst.game}")
    guard_mb = MemoryGuard(max_mb)  # resident set past its base + --max-mb: stopped like Ctrl-C
    try:
        with guard_mb:
            result = (
                solve(inst, backend, limits)
                if left > 0
                else Result(
                    Status.UNKNOWN,
                    backend=backend,
                    message="time limit",
                    stats={"seconds": 0.0},
                    reason=Reason.TIME,
                )
            )
    except KeyboardInterrupt:  # Ctrl-C (exit 130 below) or the memory guard: the deal is undecided
        why_stopped = MEMORY_OUT if guard_mb.tripped else INTERRUPTED
        reason = Reason.MEMORY if guard_mb.tripped else Reason.INTERRUPTED
        result = Result(Status.UNKNOWN, backend=backend, message=why_stopped, reason=reason)
    if max_mb is not None:
        result.stats.update(base_mb=round(guard_mb.base_mb, 1), peak_mb=round(guard_mb.peak_mb, 1))
    why: list[str] | None = None
    if explain and result.status is Status.UNSOLVABLE:
        from ..solvers.cpsat_hole import explain as explain_loss

        why = explain_loss(inst, seconds=limits.seconds)
    if output and result.status is Status.SOLVED:
        atomic_write(output, json.dumps(solution_json(inst, list(result.solution or ())), indent=1) + "\n")
    if as_json:
        out = result.to_json()
        out["instance"] = inst.sha256
        out["game"] = inst.game
        if why is not None:
            out["explanation"] = why
        emit_json(out)
    else:
        click.echo(_summary(inst, result, backend))
        if why is not None:
            click.echo(f"lost because of these {len(why)} facts alone:")
            for fact in why:
                click.echo(f"  - {fact}")
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


def _summary(inst: Instance, result: Result, backend: str) -> str:
    """The one human line of a result: verdict, backend, time, moves, message, cards removed."""
    line = f"{inst.game}: {result.status.value.upper()} ({result.backend or backend})"
    secs = result.stats.get("seconds")
    if secs is not None:
        line += f" in {secs:.3f}s"
    if result.solution is not None:
        line += f", {len(result.solution)} moves"
    if result.message:
        line += f" - {result.message}"
    removes_cards = inst.rules.n_foundations > 0  # not Gaps: nothing leaves its grid
    most = result.max_cards
    if most is not None and result.status is Status.UNSOLVABLE and removes_cards:
        if most.proven:
            line += f"; at most {most.best} cards can be removed (proven optimum)"
        else:  # a sequence found, not proven the longest
            line += f"; the best sequence found removes {most.best} cards"
            if most.bound < result.stats.get("cards", float("inf")):
                line += f" (none removes more than {most.bound})"  # a bound better than all cards
    return line
