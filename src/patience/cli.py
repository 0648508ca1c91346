"""The ``patience`` command line (DESIGN section 7).

Exit codes: 0 ok; 1 not solved when ``--require-win`` is given; 2 bad input or usage, reported as one
line naming the problem and where it is, with nothing written to disk (an unsupported game/backend pair,
hidden-information games included, is bad input: refused before any work); 3 a backend error.
"""

from __future__ import annotations

import functools
import json
import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from . import formats
from .cards import CardError
from .deals import GENERATORS, DealError, deal
from .engine import Engine, MoveError
from .families import FAMILIES, family_deal, parse_family
from .instance import Instance, InstanceError, atomic_write, load_instance, parse_json
from .interrupt import EXIT_INTERRUPTED, INTERRUPTED
from .memguard import MEMORY_OUT, MemoryGuard
from .rules import RuleError, list_games
from .solvers.base import Limits, Result, Status, available_backends, solve, unsupported_reason
from .validate import SolutionError, load_solution, replay, solution_json

# --limit counts from the command's invocation (set in main): dealing, loading a backend (OR-Tools, numba),
# building its model all come off it; only starting Python and importing this module (~0.4 s) do not.
_STARTED = time.monotonic()
MAX_DEALS = 1_000_000  # deals one estimate/compare/generate command runs; larger studies go in --seed slices
MAX_MB = 1 << 20  # --max-mb: a terabyte
MAX_SWAPS = 100_000  # card swaps of an instance family (-g planted:K, --swaps): far past a random deal

BAD_INPUT = (InstanceError, RuleError, DealError, SolutionError, CardError, MoveError)


class UsageError(ValueError):
    """A command-line value that cannot be used."""


def say_error(message: str) -> None:
    """``error: message`` as exactly one line on stderr: control characters from the input are escaped."""
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in message)
    click.echo(f"error: {text}", err=True)


def _guard(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn bad-input exceptions into one line on stderr and exit code 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (*BAD_INPUT, UsageError) as err:
            say_error(str(err))
            sys.exit(2)

    return wrapper


def _parse_sets(pairs: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for p in pairs:
        if "=" not in p:
            raise UsageError(f"--set {p!r}: expected NAME=VALUE, e.g. suits=6")
        k, v = p.split("=", 1)
        try:  # bounded like a file (digits, nesting); the rule schema then checks the value's range
            parse_json(v, f"--set {k.strip()}", UsageError)
        except UsageError as err:
            if "malformed JSON" not in str(err):
                raise
        out[k.strip()] = v.strip()
    return out


def _parse_limit(text: str) -> float:
    m = re.fullmatch(r"\s*(\d+(?:\.\d*)?)\s*(ms|s|m|h)?\s*", text)
    if not m:
        raise UsageError(f"--limit {text!r}: expected a duration like 500ms, 10s, 2m")
    value = float(m.group(1))
    scale = {"ms": 0.001, "s": 1, None: 1, "m": 60, "h": 3600}[m.group(2)]
    if value <= 0:
        raise UsageError("--limit: must be positive")
    return value * scale


class GeneratorType(click.ParamType):
    """``-g``: a deal generator of GENERATORS, or an instance family ``FAMILY[:SWAPS]`` (patience.families).

    Returns a canonical name, so results stores key one deal source one way: ``random`` with no swaps
    is the portable deal, and ``planted:0`` is ``planted``.
    """

    name = "generator"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if value in GENERATORS:
            return str(value)
        try:
            spec = parse_family(str(value))
        except DealError as err:
            self.fail(str(err), param, ctx)
        if spec is None:
            self.fail(f"{value!r} is not a generator ({', '.join(sorted(GENERATORS))}) or an instance "
                      f"family ({'|'.join(FAMILIES)}, optionally :SWAPS)", param, ctx)  # fmt: skip
        family, swaps = spec
        if swaps > MAX_SWAPS:
            self.fail(f"{value!r}: {swaps} swaps, over the limit of {MAX_SWAPS}", param, ctx)
        if family == "random" and not swaps:
            return "portable"
        return f"{family}:{swaps}" if swaps else family


GENERATOR = GeneratorType()
GENERATOR_HELP = "portable, pysol, ms, solvitaire, or an instance family planted|sorted|random[:SWAPS]"


def _instance_arg(text: str, generator: str, sets: dict[str, Any]) -> Instance:
    """An instance file, or GAME:SEED dealt with ``generator``."""
    path = Path(text)
    if path.exists():
        if sets:
            raise UsageError("--set applies to GAME:SEED, not to an instance file")
        return load_instance(path)
    m = re.fullmatch(r"([A-Za-z0-9_-]+):(\d+)", text)
    if m:
        return deal(m.group(1), int(m.group(2)), generator, sets or None)
    raise UsageError(f"{text}: no such file, and not GAME:SEED (e.g. black-hole:1)")


def _emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2))


@contextmanager
def _one_line_usage_errors() -> Iterator[None]:
    """Click's usage errors as one line on stderr and exit 2, like every other bad input."""
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise  # a bare command shows its help
    except click.UsageError as err:
        where = f"{err.ctx.command_path}: " if err.ctx is not None else ""
        say_error(f"{where}{err.format_message()}")
        sys.exit(2)


class _Group(click.Group):
    """The ``patience`` group: option and argument errors of every command become one line (no usage)."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        with _one_line_usage_errors():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        with _one_line_usage_errors():
            try:
                return super().invoke(ctx)
            except KeyboardInterrupt:  # Ctrl-C anywhere else: one line and 130, as a shell reports it
                click.echo(INTERRUPTED, err=True)
                sys.exit(EXIT_INTERRUPTED)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="patience")
def main() -> None:
    """Solve patience (solitaire) deals with CP-SAT models and search, with verified solutions."""
    global _STARTED
    _STARTED = time.monotonic()


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@_guard
def games(as_json: bool) -> None:
    """List the games with their rules and published win rates."""
    rows = list_games()
    if as_json:
        _emit_json(
            [
                {
                    "name": g.name,
                    "aliases": list(g.aliases),
                    "description": g.description,
                    "win_rate": g.reference.win_rate,
                    "source": g.reference.source,
                }
                for g in rows
            ]
        )
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{len(rows)} games")
    table.add_column("game")
    table.add_column("win %", justify="right")
    table.add_column("description")
    for g in rows:
        rate = g.reference.win_rate
        table.add_row(g.name, "?" if rate is None else f"{rate:g}", g.description)
    Console(width=160).print(table)


@main.command(name="deal")
@click.argument("game")
@click.option("--seed", type=int, required=True, help="Deal number / seed.")
@click.option("--generator", "-g", type=GENERATOR, default="portable", show_default=True, help=GENERATOR_HELP)
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Override a rule parameter.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the instance JSON here.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "board", "fcsolve", "solvitaire", "json"]),
    default="text",
    show_default=True,
    help="board: PySol/black-hole-solver text; fcsolve: Freecell Solver text; solvitaire: its JSON deal.",
)
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@_guard
def deal_cmd(
    game: str, seed: int, generator: str, sets: tuple[str, ...], output: str | None, fmt: str, as_json: bool
) -> None:
    """Deal GAME number SEED and print it (or write the instance with -o)."""
    inst = deal(game, seed, generator, _parse_sets(sets) or None)
    if as_json:
        fmt = "json"
    text = {
        "text": formats.to_text,
        "board": formats.to_board_text,
        "fcsolve": formats.to_fcsolve,
        "solvitaire": lambda i: json.dumps(formats.to_solvitaire(i), indent=1),
        "json": Instance.dumps,
    }[fmt](inst)
    if output:
        inst.save(output)
        click.echo(f"wrote {output} ({inst.game}, sha256 {inst.sha256[:12]})", err=True)
    if not output or fmt != "text":
        click.echo(text.rstrip("\n"))


@main.command()
@click.argument("instance", type=click.Path())
@click.argument("solution", type=click.Path(), required=False)
@click.option("--moves", "list_moves", is_flag=True, help="Also list the legal moves.")
@click.option("--json", "as_json", is_flag=True)
@_guard
def show(instance: str, solution: str | None, list_moves: bool, as_json: bool) -> None:
    """Print a deal, its legal moves, and step through a solution."""
    inst = load_instance(instance)
    engine = Engine(inst)
    steps: list[dict[str, Any]] = []
    if solution:
        moves = load_solution(solution, inst)
        report = replay(inst, moves)
        if not report.ok:
            raise SolutionError(f"{solution}: {report.message()}")
        steps = moves
    if as_json:
        out: dict[str, Any] = {"instance": inst.to_json(), "sha256": inst.sha256}
        if list_moves:
            out["legal_moves"] = [engine.move_to_json(m) for m in engine.legal_moves()]
        if solution:
            out["solution"] = steps
        _emit_json(out)
        return
    click.echo(formats.to_text(inst))
    if list_moves:
        legal = engine.legal_moves()
        click.echo(f"\n{len(legal)} legal moves:")
        for m in legal:
            click.echo("  " + _move_text(engine.move_to_json(m)))
    for k, m in enumerate(steps):
        click.echo(f"{k + 1:4d}. {_move_text(m)}")
    if steps:
        click.echo(report.message())


def _move_text(m: dict[str, Any]) -> str:
    card = f"{m['card']} " if "card" in m else ""
    count = f" x{m['count']}" if m.get("count", 1) != 1 else ""
    return f"{card}{m['from']} -> {m['to']}{count}"


@main.command()
@click.argument("instance", type=click.Path())
@click.argument("solution", type=click.Path())
@click.option("--json", "as_json", is_flag=True)
@_guard
def validate(instance: str, solution: str, as_json: bool) -> None:
    """Replay SOLUTION on INSTANCE; name the first illegal move. Exit 1 unless it wins."""
    inst = load_instance(instance)
    report = replay(inst, load_solution(solution, inst))
    if as_json:
        _emit_json(
            {
                "ok": report.ok,
                "won": report.won,
                "moves": report.moves,
                "index": report.index,
                "error": report.error,
                "rule": report.rule,
                "foundation_cards": report.foundation_cards,
            }
        )
    else:
        click.echo(report.message())
    sys.exit(0 if report.ok and report.won else 1)


@main.command(name="solve")
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
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Override a rule parameter.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the solution file here.")
@click.option("--json", "as_json", is_flag=True)
@click.option("--require-win", is_flag=True, help="Exit 1 unless the deal is solved.")
@click.option("--explain", is_flag=True, help="For a lost deal: a small set of facts that already lose it.")
@_guard
def solve_cmd(
    target: str,
    backend: str,
    limit: str,
    max_nodes: int | None,
    max_mb: int | None,
    generator: str,
    sets: tuple[str, ...],
    output: str | None,
    as_json: bool,
    require_win: bool,
    explain: bool,
) -> None:
    """Solve TARGET (an instance file or GAME:SEED) with a backend."""
    if backend != "auto" and backend not in available_backends():
        valid = ", ".join(["auto", *available_backends()])
        raise UsageError(f"--backend {backend!r}: unknown (valid: {valid})")
    inst = _instance_arg(target, generator, _parse_sets(sets))
    seconds = _parse_limit(limit)
    reason = unsupported_reason(inst.rules, inst.game, backend)
    if reason is not None:
        raise UsageError(reason)
    left = seconds - (time.monotonic() - _STARTED)  # what dealing and loading left of the limit
    limits = Limits(seconds=max(left, 0.0), nodes=max_nodes, memory_mb=max_mb)
    if explain:
        from .solvers.cpsat_blackhole import family_supports

        if not family_supports(inst.rules):
            raise UsageError(f"--explain: only Black Hole family games are explained, not {inst.game}")
    guard = MemoryGuard(max_mb)  # resident set past its base + --max-mb: stopped like Ctrl-C
    try:
        with guard:
            result = (
                solve(inst, backend, limits)
                if left > 0
                else Result(Status.UNKNOWN, backend=backend, message="time limit", stats={"seconds": 0.0})
            )
    except KeyboardInterrupt:  # Ctrl-C (exit 130 below) or the memory guard: the deal is undecided
        result = Result(Status.UNKNOWN, backend=backend, message=MEMORY_OUT if guard.tripped else INTERRUPTED)
    if max_mb is not None:
        result.stats.update(base_mb=round(guard.base_mb, 1), peak_mb=round(guard.peak_mb, 1))
    why: list[str] | None = None
    if explain and result.status is Status.UNSOLVABLE:
        from .solvers.cpsat_blackhole import explain as explain_loss

        why = explain_loss(inst, seconds=limits.seconds)
    if output and result.status is Status.SOLVED:
        atomic_write(output, json.dumps(solution_json(inst, list(result.solution or ())), indent=1) + "\n")
    if as_json:
        out = result.to_json()
        out["instance"] = inst.sha256
        out["game"] = inst.game
        if why is not None:
            out["explanation"] = why
        _emit_json(out)
    else:
        line = f"{inst.game}: {result.status.value.upper()} ({result.backend or backend})"
        secs = result.stats.get("seconds")
        if secs is not None:
            line += f" in {secs:.3f}s"
        if result.solution is not None:
            line += f", {len(result.solution)} moves"
        if result.message:
            line += f" - {result.message}"
        removes_cards = inst.rules.n_foundations > 0  # not Gaps: nothing leaves its grid
        if "max_cards_removed" in result.stats and result.status is Status.UNSOLVABLE and removes_cards:
            best, bound = result.stats["max_cards_removed"], result.stats.get("max_cards_bound")
            if bound == best:
                line += f"; at most {best:g} cards can be removed (proven optimum)"
            else:  # a sequence found, not proven the longest
                line += f"; the best sequence found removes {best:g} cards"
                if bound is not None and bound < result.stats.get("cards", float("inf")):
                    line += f" (none removes more than {bound:g})"  # a bound better than all cards
        click.echo(line)
        if why is not None:
            click.echo(f"lost because of these {len(why)} facts alone:")
            for fact in why:
                click.echo(f"  - {fact}")
        elif explain and result.status is Status.UNSOLVABLE:
            click.echo("no explanation found within the time limit")
    if result.message == INTERRUPTED and result.status is Status.UNKNOWN:
        sys.exit(EXIT_INTERRUPTED)
    if result.status is Status.ERROR:
        sys.exit(3)
    if result.status is Status.UNSUPPORTED:  # a backend that refused after all: still an unsupported pair
        sys.exit(2)
    if require_win and result.status is not Status.SOLVED:
        sys.exit(1)


@main.command(name="generate")
@click.argument("game")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Override a rule parameter.")
@click.option("-n", "count", type=int, default=10, show_default=True, help="How many instances.")
@click.option("--seed", type=int, default=1, show_default=True, help="First seed (seeds SEED..SEED+N-1).")
@click.option(
    "--family",
    type=click.Choice(list(FAMILIES)),
    default="random",
    show_default=True,
    help="Instance family: random deals, planted wins, or sorted (rank-ordered) deals.",
)
@click.option(
    "--swaps", type=int, default=0, show_default=True, help="Random transpositions of tableau cards after."
)
@click.option("-o", "--output", "outdir", type=click.Path(file_okay=False), required=True, help="Folder.")
@_guard
def generate_cmd(
    game: str, sets: tuple[str, ...], count: int, seed: int, family: str, swaps: int, outdir: str
) -> None:
    """Write N generalized instances of GAME into a folder, from an instance family.

    Families (patience.families) let a study move from easy to hard deals: ``random`` is the portable
    deal (the default; file names GAME[-PARAMS]-SEED.json as before), ``planted`` a Black Hole family deal
    with a planted win, ``sorted`` the deck in rank order dealt pile by pile. ``--swaps K`` then swaps K
    random pairs of tableau cards, moving any family towards random deals; files of other families than
    plain random are named GAME[-PARAMS]-FAMILY-swapsK-SEED.json. Every instance is dealt and validated
    before anything is written; each file is written atomically.
    """
    if not 1 <= count <= MAX_DEALS:
        raise UsageError(f"-n {count}: must be between 1 and the limit of {MAX_DEALS} instances")
    if not 0 <= swaps <= MAX_SWAPS:
        raise UsageError(f"--swaps {swaps}: must be between 0 and the limit of {MAX_SWAPS}")
    overrides = _parse_sets(sets)
    insts = [family_deal(game, s, family, overrides or None, swaps) for s in range(seed, seed + count)]
    out = Path(outdir)
    if out.exists() and not out.is_dir():
        raise UsageError(f"-o {outdir}: exists and is not a folder")
    tag = "".join(f"-{k.split('.')[-1]}{v}" for k, v in sorted(overrides.items()))
    if family != "random" or swaps:
        tag += f"-{family}-swaps{swaps}"
    out.mkdir(parents=True, exist_ok=True)
    for inst, s in zip(insts, range(seed, seed + count), strict=True):
        atomic_write(out / f"{insts[0].game}{tag}-{s}.json", inst.dumps())
    click.echo(f"wrote {count} {insts[0].game} instances to {outdir}", err=True)


# Experiment commands live in patience.experiments.commands (they use the helpers above).
@main.command(name="pddl")
@click.argument("target")
@click.option("-o", "--output", "outdir", type=click.Path(file_okay=False), required=True, help="Folder.")
@click.option("--generator", "-g", type=GENERATOR, default="portable", show_default=True, help=GENERATOR_HELP)
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Override a rule parameter.")
@click.option("--name", default="patience", show_default=True, help="PDDL domain name.")
@_guard
def pddl_cmd(target: str, outdir: str, generator: str, sets: tuple[str, ...], name: str) -> None:
    """Write domain.pddl and problem.pddl for TARGET (FreeCell family, Klondike) into a folder."""
    from .pddl import PddlError, export

    inst = _instance_arg(target, generator, _parse_sets(sets))
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", name):
        raise UsageError(f"--name {name!r}: a PDDL name starts with a letter (letters, digits, - and _)")
    try:
        task = export(inst, name)
    except PddlError as err:
        raise UsageError(str(err)) from None
    out = Path(outdir)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{outdir}: not a folder")
    out.mkdir(parents=True, exist_ok=True)
    atomic_write(out / "domain.pddl", task.domain)
    atomic_write(out / "problem.pddl", task.problem)
    click.echo(f"wrote {out / 'domain.pddl'} and {out / 'problem.pddl'} ({inst.game})", err=True)


from .experiments.commands import compare, estimate, report  # noqa: E402

for _cmd in (estimate, compare, report):
    main.add_command(_cmd)
