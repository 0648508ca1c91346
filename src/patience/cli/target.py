"""Where a command's deals and solutions come from.

A TARGET is an instance file, a deal in another solver's format (PySol / black-hole-solver board text,
fc-solve text, Solvitaire JSON: :func:`patience.formats.read_deal`, detected or named with ``--format``
and ``--game``), ``-`` for standard input, or GAME:SEED dealt by a generator. ``solve`` also takes
several, a folder of them (what ``generate`` writes) and ranges GAME:A-B (:func:`expand_targets`).

``show`` and ``validate`` read theirs through :func:`load_instance` and :func:`load_solution`, which take
the options :func:`input_options` adds from the running command. A solution is a ``patience-solution/1``
file or what ``solve --json`` prints (a SOLVED result of the same deal).
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..deals import deal
from ..instance import MAX_FILE_BYTES, Instance
from .errors import UsageError
from .generator import GENERATOR, GENERATOR_HELP
from .limits import MAX_DEALS
from .sets import SET_HELP, parse_sets

__all__ = [
    "FORMAT_CHOICE",
    "FORMAT_HELP",
    "GAME_HELP",
    "expand_targets",
    "input_options",
    "instance_arg",
    "load_instance",
    "load_solution",
    "read_input",
    "target_label",
]

FORMAT_CHOICE = click.Choice(["json", "board", "fcsolve", "solvitaire"])
FORMAT_HELP = (
    "Format of a deal file (default: detected): json (patience instance), board (PySol/black-hole-solver "
    "text), fcsolve (Freecell Solver/MS text), solvitaire (Solvitaire's JSON deal)."
)
GAME_HELP = "The game of a deal in a foreign format (default: the one game the deal fits)."
STDIN = "-"
_GAME_SEED = re.compile(r"([A-Za-z0-9_-]+):(\d+)")
_GAME_RANGE = re.compile(r"([A-Za-z0-9_-]+):(\d+)-(\d+)")


def read_input(arg: str, what: str = "deal") -> tuple[str, str]:
    """The text of file ``arg`` or of standard input (``-``), bounded like every input file; (text, where)."""
    if arg == STDIN:
        raw = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        where = "<stdin>"
    else:
        where = arg
        try:
            with Path(arg).open("rb") as fh:
                raw = fh.read(MAX_FILE_BYTES + 1)
        except IsADirectoryError:
            raise UsageError(f"{arg}: is a folder, not a {what} file") from None
        except OSError as err:
            raise UsageError(f"{arg}: cannot read ({err.strerror or err})") from None
    if len(raw) > MAX_FILE_BYTES:
        raise UsageError(f"{where}: larger than the limit of {MAX_FILE_BYTES} bytes")
    try:
        return raw.decode("utf-8"), where
    except UnicodeDecodeError as err:
        raise UsageError(f"{where}: not UTF-8 text (byte {err.start}: {err.reason})") from None


def instance_arg(
    text: str,
    generator: str = "portable",
    sets: dict[str, Any] | None = None,
    fmt: str | None = None,
    game: str | None = None,
) -> Instance:
    """A deal file in any format (``fmt`` or detected; ``game`` for foreign formats), ``-``, or GAME:SEED
    dealt with ``generator`` and the ``--set`` overrides."""
    from .. import formats

    if text == STDIN or Path(text).exists():
        body, where = read_input(text)
        if sets and (fmt or formats.detect_format(body, where)) == "json":
            raise UsageError(f"{where}: --set applies to GAME:SEED and foreign formats, not an instance file")
        return formats.read_deal(body, where, fmt, game, sets or None)
    m = _GAME_SEED.fullmatch(text)
    if m:
        if fmt or game:
            raise UsageError(f"{text}: --format and --game describe deal files, not GAME:SEED")
        return deal(m.group(1), int(m.group(2)), generator, sets or None)
    raise UsageError(f"{text}: no such file, and not GAME:SEED (e.g. black-hole:1)")


def expand_targets(targets: tuple[str, ...]) -> list[str]:
    """TARGETs with folders replaced by their deal files (sorted; hidden files skipped) and GAME:A-B by
    GAME:A ... GAME:B; at most :data:`MAX_DEALS` in all. A folder's files come in natural order (``-2``
    before ``-10``), as ``generate`` numbers them."""
    out: list[str] = []
    for t in targets:
        m = _GAME_RANGE.fullmatch(t)
        if t != STDIN and Path(t).is_dir():
            files = sorted(
                (p for p in Path(t).iterdir() if p.is_file() and not p.name.startswith(".")), key=_natural
            )
            if not files:
                raise UsageError(f"{t}: folder holds no deal files")
            out += [str(p) for p in files]
        elif m and not Path(t).exists():
            first, last = int(m.group(2)), int(m.group(3))
            if last < first:
                raise UsageError(f"{t}: empty range (write GAME:FIRST-LAST with FIRST <= LAST)")
            if last - first + 1 > MAX_DEALS:
                raise UsageError(f"{t}: {last - first + 1} deals, over the limit of {MAX_DEALS}")
            out += [f"{m.group(1)}:{s}" for s in range(first, last + 1)]
        else:
            out.append(t)
        if len(out) > MAX_DEALS:
            raise UsageError(f"{len(out)} deals, over the limit of {MAX_DEALS} a command")
    if out.count(STDIN) > 1:
        raise UsageError("- (standard input) can be read once")
    return out


def _natural(path: Path) -> list[Any]:
    """Sort key of a file name with its numbers compared as numbers."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", path.name)]


def target_label(target: str) -> str:
    """How one deal of a batch is named in its output: GAME:SEED as given, a file by its name."""
    return target if target == STDIN or _GAME_SEED.fullmatch(target) else Path(target).name


# show and validate: the options and the readers that take them from the running command --------------
_OPTION_NAMES = ("fmt", "game", "generator", "sets")


def input_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--format``, ``--game``, ``-g`` and ``--set`` to a command whose INSTANCE is read with
    :func:`load_instance`; the command's function does not receive them."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        for name in _OPTION_NAMES:
            kwargs.pop(name, None)
        return fn(*args, **kwargs)

    for opt in reversed(
        [
            click.option("--format", "fmt", type=FORMAT_CHOICE, default=None, help=FORMAT_HELP),
            click.option("--game", default=None, help=GAME_HELP),
            click.option("--generator", "-g", type=GENERATOR, default="portable", help=GENERATOR_HELP),
            click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help=SET_HELP),
        ]
    ):
        wrapper = opt(wrapper)
    return wrapper


def _options() -> dict[str, Any]:
    ctx = click.get_current_context(silent=True)
    return ctx.params if ctx is not None else {}


def load_instance(text: str) -> Instance:
    """INSTANCE of ``show``/``validate``: as :func:`instance_arg`, with the command's input options."""
    opts = _options()
    sets = parse_sets(tuple(opts.get("sets") or ()))
    return instance_arg(text, opts.get("generator") or "portable", sets, opts.get("fmt"), opts.get("game"))


def load_solution(arg: str, inst: Instance) -> list[dict[str, Any]]:
    """The moves of a solution file, or of ``solve --json`` output (a SOLVED result of this deal); ``-``
    reads standard input."""
    from ..instance import parse_json
    from ..validate import SolutionError
    from ..validate import load_solution as load_solution_file

    body, where = read_input(arg, "solution")
    data = parse_json(body, where, SolutionError)
    if isinstance(data, dict) and "format" not in data and "status" in data:  # solve --json's output
        if data["status"] != "solved":
            raise SolutionError(f"{where}: a {data['status']!r} result of solve, with no winning moves")
        if data.get("instance") not in (None, inst.sha256):
            raise SolutionError(
                f"{where}: instance: result is for deal {str(data.get('instance'))[:12]}..., "
                f"not this one ({inst.sha256[:12]}...)"
            )
        moves = data.get("moves")
        if not isinstance(moves, list):
            raise SolutionError(f"{where}: moves: expected a list")
        return moves
    if arg != STDIN:
        return load_solution_file(arg, inst)
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".json") as tmp:  # the file reader's checks, one home
        tmp.write(body)
        tmp.flush()
        try:
            return load_solution_file(tmp.name, inst)
        except SolutionError as err:
            raise SolutionError(str(err).replace(tmp.name, where)) from None
