"""Every module imports on its own: no import cycle hides behind an import order that happens to work."""

import json
import subprocess
import sys

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
