"""``patience show`` and ``patience validate``: a deal, its legal moves, and the replay of a solution."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import click

from .. import formats
from ..engine import Engine, MoveError
from ..engine.notation import NOTATIONS, move_in, move_text
from ..instance import Instance
from ..validate import SolutionError, replay
from ..viewer import Position, board_text, positions
from .errors import EXIT_NOT_WON, EXIT_OK, UsageError, guard
from .output import emit_json
from .target import input_options, load_instance, load_solution  # any deal format, -, GAME:SEED

__all__ = ["show", "validate"]


NOTATION_CHOICES = ("text", "json", *NOTATIONS)


@click.command()
@click.argument("instance", type=click.Path())
@click.argument("solution", type=click.Path(), required=False)
@click.option("--moves", "list_moves", is_flag=True, help="Also list the legal moves (at --at N: there).")
@click.option("--step", is_flag=True, help="Print the board after every move of SOLUTION.")
@click.option(
    "--at",
    "at",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="Print the board after move N of SOLUTION (0: the deal).",
)
@click.option(
    "--notation",
    type=click.Choice(NOTATION_CHOICES),
    default="text",
    show_default=True,
    help="How moves are written: text (piles counted from 1), json (as in solution files), "
    "or as Freecell Solver (fc-solve -m) or black-hole-solver print them (stacks from 0).",
)
@click.option("--json", "as_json", is_flag=True)
@input_options
@guard
def show(
    instance: str,
    solution: str | None,
    list_moves: bool,
    step: bool,
    at: int | None,
    notation: str,
    as_json: bool,
) -> None:
    """Print a deal and its legal moves, or watch SOLUTION: its moves, every board (--step), one (--at N).

    Moves, piles, cells and foundations are counted from 1 (the JSON files count piles from 0). With a
    peer's --notation, SOLUTION's moves are printed alone, one a line, as that solver prints them."""
    if (step or at is not None) and not solution:
        raise UsageError(f"{'--step' if step else '--at'} needs a SOLUTION to step through")
    inst = load_instance(instance)
    steps: list[dict[str, Any]] = []
    if solution:
        steps = load_solution(solution, inst)
        report = replay(inst, steps)
        if not report.ok:
            raise SolutionError(f"{solution}: {report.message()}")
    if at is not None and at > len(steps):
        raise UsageError(
            f"--at {at}: {solution} has {len(steps)} moves (0 is the deal, {len(steps)} the end)"
        )
    engine = Engine(inst)
    if at:
        engine.play_json(steps[:at])  # replayed by the validator above; the engine follows it
    legal = [engine.move_to_json(m) for m in engine.legal_moves()] if list_moves else []
    if as_json:
        _show_json(inst, steps if solution else None, legal if list_moves else None, step, at)
        return
    fmt = _writer(notation)
    texts = [_written(fmt, m, k) for k, m in enumerate(steps, 1)]  # all first: nothing half-printed
    legal_texts = [_written(fmt, m) for m in legal]
    n = len(steps)
    if at is not None:
        header = formats.to_text(inst).split("\n", 1)[0]
        what = f"after move {at} of {n}: {texts[at - 1]}" if at else f"the deal, before move 1 of {n}"
        click.echo(f"{header}\n{what}\n{board_text(inst, positions(inst, steps[:at])[at])}", nl=False)
    elif notation in NOTATIONS and solution and not step:  # the moves alone, as the peer prints them
        click.echo("".join(f"{t}\n" for t in texts), nl=False)
        return
    else:
        click.echo(formats.to_text(inst), nl=not step)
    if list_moves:
        click.echo(f"\n{len(legal)} legal moves:")
        for t in legal_texts:
            click.echo("  " + t)
    if at is not None:
        return
    if step:
        for k, (pos, t) in enumerate(zip(positions(inst, steps)[1:], texts, strict=True), 1):
            click.echo(f"\nmove {k} of {n}: {t}\n{board_text(inst, pos)}", nl=False)
        click.echo()
    else:
        for k, t in enumerate(texts, 1):
            click.echo(f"{k:4d}. {t}")
    if solution:
        click.echo(report.message())


def _writer(notation: str) -> Callable[[dict[str, Any]], str]:
    """The function writing one move in ``notation`` (a choice of ``--notation``)."""
    if notation == "text":
        return move_text
    if notation == "json":
        return lambda m: json.dumps(m, separators=(", ", ": "))
    return lambda m: move_in(notation, m)


def _written(fmt: Callable[[dict[str, Any]], str], m: dict[str, Any], k: int | None = None) -> str:
    """``fmt(m)``; a move the notation cannot write is bad input naming the move (counted from 1)."""
    try:
        return fmt(m)
    except MoveError as err:
        raise MoveError(f"move {k}: {err}" if k else str(err)) from None


def _show_json(
    inst: Instance,
    steps: list[dict[str, Any]] | None,
    legal: list[dict[str, Any]] | None,
    step: bool,
    at: int | None,
) -> None:
    """``show --json``: the instance, legal moves and solution as JSON files hold them (piles from 0);
    ``--step`` adds every position's layout, ``--at N`` the one after move N."""
    out: dict[str, Any] = {"instance": inst.to_json(), "sha256": inst.sha256}
    if legal is not None:
        out["legal_moves"] = legal
    if steps is not None:
        out["solution"] = steps
    if step or at is not None:
        lays = [_layout_json(inst, p) for p in positions(inst, steps if at is None else steps[:at])]  # type: ignore[index]
        if at is not None:
            out["at"], out["position"] = at, lays[at]
        else:
            out["positions"] = lays
    emit_json(out)


def _layout_json(inst: Instance, pos: Position) -> dict[str, Any]:
    """A position's areas as an instance file writes its layout, plus face-down counts per pile."""
    return {**replace(inst, layout=pos.layout).to_json()["layout"], "down": list(pos.down)}


@click.command()
@click.argument("instance", type=click.Path())
@click.argument("solution", type=click.Path())
@click.option("--json", "as_json", is_flag=True)
@input_options
@guard
def validate(instance: str, solution: str, as_json: bool) -> None:
    """Replay SOLUTION on INSTANCE; name the first illegal move. Exit 1 unless it wins."""
    inst = load_instance(instance)
    report = replay(inst, load_solution(solution, inst))
    if as_json:
        emit_json(
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
    sys.exit(EXIT_OK if report.ok and report.won else EXIT_NOT_WON)
