"""Every module imports on its own: no import cycle hides behind an import order that happens to work."""

import json
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

# In one fresh interpreter: for each patience module, forget every patience module imported so far and
# import this one first, as `python -c "import patience.X"` would (third-party packages stay loaded).
_EACH_ALONE = """
import importlib, json, pkgutil, sys, traceback
import patience
names = sorted(m.name for m in pkgutil.walk_packages(patience.__path__, "patience."))
failed = {}
for name in names:
    for loaded in [m for m in sys.modules if m == "patience" or m.startswith("patience.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception:
        failed[name] = traceback.format_exc(limit=-3)
print(json.dumps({"modules": names, "failed": failed}))
"""


def test_every_module_imports_first() -> None:
    done = subprocess.run([sys.executable, "-c", _EACH_ALONE], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.splitlines()[-1])
    assert {"patience.cli", "patience.cli.experiments", "patience.experiments.runner"} <= set(out["modules"])
    assert out["failed"] == {}, "\n".join(out["failed"].values())


def test_experiments_library_does_not_import_the_cli() -> None:
    """patience.experiments is a library: importing all of it loads neither click nor patience.cli."""
    code = (
        "import pkgutil, importlib, sys, patience.experiments as e\n"
        "for m in pkgutil.iter_modules(e.__path__, 'patience.experiments.'):\n"
        "    importlib.import_module(m.name)\n"
        "print(sorted(m for m in sys.modules if m == 'click' or m.startswith('patience.cli')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# Start-up: commands are imported when run, so the quick ones load none of the heavy packages ------------
HEAVY = {"scipy", "numpy", "ortools", "numba", "rich", "matplotlib"}


def _run_importtime(*args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run ``python -m patience ARGS`` under ``-X importtime``; the top-level packages it imported."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "patience", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    names = {
        line.split("|")[-1].strip().split(".")[0]
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    return done, names


@pytest.mark.parametrize(
    ("args", "needs", "allowed"),
    [
        (["--version"], {"click"}, set()),
        (["games", "--json"], {"click", "msgspec"}, set()),
        (["games"], {"click", "msgspec", "rich"}, {"rich"}),  # rich only to print the table
    ],
)
def test_quick_commands_import_no_heavy_package(args: list[str], needs: set[str], allowed: set[str]) -> None:
    done, imported = _run_importtime(*args)
    assert done.returncode == 0, done.stderr
    assert needs <= imported  # the import log was read: what the command needs is in it
    assert imported & (HEAVY - allowed) == set()


def test_python_m_patience_is_the_patience_command() -> None:
    script = Path(sysconfig.get_path("scripts")) / "patience"
    assert script.exists(), f"{script}: the console script is not installed (pip install -e .)"
    for args in (["--version"], ["--help"], ["frobnicate"]):
        by_module = subprocess.run([sys.executable, "-m", "patience", *args], capture_output=True, text=True)
        by_script = subprocess.run([str(script), *args], capture_output=True, text=True)
        assert (by_module.returncode, by_module.stdout, by_module.stderr) == (
            by_script.returncode,
            by_script.stdout,
            by_script.stderr,
        )
    assert by_module.returncode == 2 and "patience: No such command 'frobnicate'" in by_module.stderr


def test_every_command_is_registered_under_its_name() -> None:
    """The group's lazy table names each command's module and object, and the object has that name."""
    import click

    from patience.cli import main
    from patience.cli.group import COMMANDS

    ctx = click.Context(main)
    assert main.list_commands(ctx) == sorted(COMMANDS)
    for name in COMMANDS:
        cmd = main.get_command(ctx, name)
        assert cmd is not None and cmd.name == name
