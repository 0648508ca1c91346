"""``patience show`` and ``patience validate``: a deal, its legal moves, and the replay of a solution."""

from __future__ import annotations

import sys
from typing import Any

import click

from .. import formats
from ..engine import Engine
from ..validate import SolutionError, replay
from .errors import EXIT_NOT_WON, EXIT_OK, guard
from .output import emit_json
from .target import input_options, load_instance, load_solution  # any deal format, -, GAME:SEED

__all__ = ["show", "validate"]


@click.command()
@click.argument("instance", type=click.Path())
@click.argument("solution", type=click.Path(), required=False)
@click.option("--moves", "list_moves", is_flag=True, help="Also list the legal moves.")
@click.option("--json", "as_json", is_flag=True)
@input_options
@guard
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
        emit_json(out)
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
