"""``patience results``: the rows of an experiments store (``estimate``/``compare --db``), filtered, so a
user finds the unknown seeds (or the errors, or one backend's losses) without opening SQLite."""

from __future__ import annotations

import csv
import io
import json

import click

from ..experiments.store import STATUSES, Row, StoreError, open_store
from .errors import UsageError, guard
from .output import emit_json, plural

__all__ = ["results_cmd"]

_COLUMNS = ("game", "rules", "generator", "seed", "backend", "limit_s", "status", "seconds", "message")


@click.command(name="results")
@click.argument("db", type=click.Path(dir_okay=False))
@click.option(
    "--status", "statuses", multiple=True, type=click.Choice(STATUSES), help="Only these (repeatable)."
)
@click.option("--game", default=None, help="Only this game (a name or alias).")
@click.option("--backend", default=None, help="Only this backend.")
@click.option("--generator", "-g", default=None, help="Only this generator, as stored (e.g. planted:8).")
@click.option("--json", "as_json", is_flag=True, help="The rows as a JSON list.")
@click.option("--csv", "as_csv", is_flag=True, help="The rows as CSV.")
@guard
def results_cmd(
    db: str,
    statuses: tuple[str, ...],
    game: str | None,
    backend: str | None,
    generator: str | None,
    as_json: bool,
    as_csv: bool,
) -> None:
    """List the stored results of DB, one row per deal and backend; a count by status on stderr.

    The store is only read: a missing file or one that is not a results store is exit 2, untouched.
    """
    from ..rules import RuleError, load_game

    where: dict[str, object] = {}
    if game is not None:
        try:
            where["game"] = load_game(game).name  # rows hold the canonical name
        except RuleError:
            where["game"] = game  # a game no longer in models/ may still be stored
    if backend is not None:
        where["backend"] = backend
    if generator is not None:
        where["generator"] = generator
    try:
        store = open_store(db, create=False)
    except StoreError as err:
        raise UsageError(str(err)) from None
    with store:
        rows = [r for r in store.rows(**where) if not statuses or r.status in statuses]
    if as_json:
        emit_json([{k: r.to_json()[k] for k in (*_COLUMNS, "sha256", "stats")} for r in rows])
    elif as_csv:
        buf = io.StringIO()
        out = csv.writer(buf, lineterminator="\n")
        out.writerow(_COLUMNS)
        out.writerows([getattr(r, k) for k in _COLUMNS] for r in rows)
        click.echo(buf.getvalue(), nl=False)
    else:
        table = [_COLUMNS] + [_human(r) for r in rows]
        widths = [max(len(line[i]) for line in table) for i in range(len(_COLUMNS))]
        for line in table:
            click.echo("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip())
    counts: dict[str, int] = {}
    for r in rows:
        counts[r.status] = counts.get(r.status, 0) + 1
    tally = ", ".join(f"{s} {counts[s]}" for s in STATUSES if s in counts)
    click.echo(plural(len(rows), "row") + (f": {tally}" if tally else ""), err=True)


def _human(r: Row) -> tuple[str, ...]:
    """A row as table cells: rule overrides as NAME=VALUE, the limit and time in seconds."""
    rules = json.loads(r.rules)
    return (
        r.game,
        ",".join(f"{k}={json.dumps(v)}" for k, v in rules.items()) or "-",
        r.generator,
        str(r.seed),
        r.backend,
        f"{r.limit_s:g}s",
        r.status,
        "-" if r.seconds is None else f"{r.seconds:.3f}",
        r.message,
    )
