"""``patience games``: the registered games, their rules and published win rates; ``games GAME`` shows one
game's every rule parameter."""

from __future__ import annotations

import json
from typing import Any

import click

from ..rules import SHORT_NAMES, list_games
from .errors import guard
from .output import emit_json
from .sets import SET_HELP, parse_sets

__all__ = ["games"]


@click.command()
@click.argument("game", required=False)
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help=SET_HELP)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@guard
def games(game: str | None, sets: tuple[str, ...], as_json: bool) -> None:
    """List the games with their rules and published win rates; with GAME, all of that game's rules."""
    if game is not None:
        _one(game, sets, as_json)
        return
    rows = list_games()
    if as_json:
        emit_json(
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

    table = Table(title=f"{len(rows)} games (`patience games GAME` shows one game's rules)")
    table.add_column("game")
    table.add_column("win %", justify="right")
    table.add_column("description")
    for g in rows:
        rate = g.reference.win_rate
        table.add_row(g.name, "?" if rate is None else f"{rate:g}", g.description)
    Console(width=160).print(table)


def _flat(value: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """Nested rule objects as (dotted path, value) pairs, in the schema's order."""
    if isinstance(value, dict):
        out: list[tuple[str, Any]] = []
        for k, v in value.items():
            out += _flat(v, f"{prefix}.{k}" if prefix else k)
        return out
    return [(prefix, list(value) if isinstance(value, tuple) else value)]


def _one(name: str, sets: tuple[str, ...], as_json: bool) -> None:
    """One game: names, description, published rate, where its deals come from, every rule parameter."""
    import msgspec

    from ..rules import load_game

    overrides = parse_sets(sets)
    g = load_game(name, overrides or None)
    f, ref = g.file, g.file.reference
    rules = msgspec.to_builtins(g.rules)
    if as_json:
        emit_json(
            {
                "name": g.name,
                "aliases": list(f.aliases),
                "description": f.description,
                "reference": msgspec.to_builtins(ref),
                "variant_note": f.variant_note,
                "pysol_name": f.pysol_name or None,
                "solvitaire_name": f.solvitaire_name or None,
                "solvitaire_differs": f.solvitaire_differs or None,
                "overrides": g.overrides,
                "rules": rules,
            }
        )
        return
    short = {path: s for s, path in SHORT_NAMES.items()}
    out = [g.name + (f" (also {', '.join(f.aliases)})" if f.aliases else ""), f.description]
    if ref.win_rate is not None:
        rate = f"{ref.win_rate:g}%" + (f" ± {ref.interval:g}" if ref.interval is not None else "")
        deals = f" of {ref.deals:,} deals" if ref.deals else ""
        out.append(f"published win rate: {rate}{deals} ({ref.source})")
    for label, text in (("variant", f.variant_note), ("note", ref.note)):
        if text:
            out.append(f"{label}: {text}")
    where = ["-g portable"] + [
        f"-g {gen} ({n})" for gen, n in (("pysol", f.pysol_name), ("solvitaire", f.solvitaire_name)) if n
    ]
    out.append("deals: " + ", ".join(where))
    if f.solvitaire_differs:
        out.append(f"differs from Solvitaire's {f.solvitaire_name}: {f.solvitaire_differs}")
    if g.overrides:
        out.append("overridden: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in g.overrides.items()))
    out.append("rules (--set NAME=VALUE with the short name or the dotted path):")
    pairs = _flat(rules)
    width = max(len(p) for p, _ in pairs)
    for path, value in pairs:
        alias = f"  [{short[path]}]" if path in short else ""
        out.append(f"  {path.ljust(width)}  {json.dumps(value)}{alias}")
    click.echo("\n".join(out))
