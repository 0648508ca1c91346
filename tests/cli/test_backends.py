"""Unsupported pairs and missing extras fail fast in solve, estimate and compare alike: exit 2, one line,
nothing written (no results store created)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from patience.cli import backends, main


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


COMMANDS = [
    ["solve", "freecell:1"],
    ["estimate", "freecell", "-n", "2"],
    ["compare", "freecell", "-n", "2", "--backends", "dfs,{b}"],
]


def _args(cmd: list[str], backend: str, db: Path) -> list[str]:
    if cmd[0] == "compare":
        return [a.format(b=backend) for a in cmd] + ["--db", str(db)]
    extra = ["--db", str(db)] if cmd[0] == "estimate" else []
    return [*cmd, "--backend", backend, *extra]


@pytest.mark.parametrize("cmd", COMMANDS, ids=lambda c: c[0])
def test_missing_extra_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cmd: list[str]
) -> None:
    monkeypatch.setitem(backends.EXTRAS, "planner", ("planners", lambda: []))  # as without the extra
    db = tmp_path / "r.sqlite"
    code, out, err = run(*_args(cmd, "planner", db))
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "needs the optional [planners] packages" in err and "pip install 'patience[planners]'" in err
    assert not db.exists()


@pytest.mark.parametrize("cmd", COMMANDS, ids=lambda c: c[0])
def test_unsupported_pair_names_the_backends_that_do(tmp_path: Path, cmd: list[str]) -> None:
    db = tmp_path / "r.sqlite"
    code, out, err = run(*_args(cmd, "cpsat", db))
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "cpsat does not support freecell; backends that do: dfs" in err and "planning" in err
    assert not db.exists()
