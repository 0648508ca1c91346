"""Run the notebooks at their default (small) size and save them with their outputs, so they read on a code
host (GitHub renders saved outputs) without running. Needs the ``notebook`` or ``dev`` extra.

    python notebooks/run.py                 # every notebook here
    python notebooks/run.py 01-black-hole.ipynb

Outputs are kept small: no execution timestamps, long text outputs cut to their first lines, figures as
the PNG the inline backend draws. A cell that fails stops the run and nothing is saved for that notebook.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
MAX_LINES = 40  # of one text output


def _trim(nb) -> None:  # noqa: ANN001 - an nbformat NotebookNode
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                lines = out["text"].splitlines(keepends=True)
                if len(lines) > MAX_LINES:
                    out["text"] = "".join(lines[:MAX_LINES]) + f"... ({len(lines) - MAX_LINES} more lines)\n"


def run(path: Path) -> int:
    """Execute ``path`` in a scratch folder and save it in place with its outputs; returns its size."""
    import nbclient
    import nbformat

    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory(prefix="patience-nb-") as tmp:
        client = nbclient.NotebookClient(
            nb, timeout=600, kernel_name="python3", record_timing=False, resources={"metadata": {"path": tmp}}
        )
        client.execute()
    _trim(nb)
    nbformat.write(nb, path)
    return path.stat().st_size


def main(argv: list[str]) -> None:
    paths = [HERE / a for a in argv] if argv else sorted(HERE.glob("*.ipynb"))
    for p in paths:
        print(f"{p.name}: saved with outputs, {run(p) / 1024:.0f} KiB")


if __name__ == "__main__":
    main(sys.argv[1:])
