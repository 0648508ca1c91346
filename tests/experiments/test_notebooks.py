"""Execute the notebooks at their default (small) size, as ``make test`` must."""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = sorted((Path(__file__).parents[2] / "notebooks").glob("*.ipynb"))


def test_notebooks_exist():
    assert {p.name for p in NOTEBOOKS} >= {"01-black-hole.ipynb", "02-freecell-variants.ipynb"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path):
    nb = nbformat.read(path, as_version=4)
    assert any("parameters" in c.metadata.get("tags", []) for c in nb.cells), "no parameter cell"
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()  # raises CellExecutionError, naming the cell, on any failure
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_saved_with_small_outputs(path):
    """Saved with outputs (python notebooks/run.py) so a code host shows them without running: every code
    cell after the parameters ran, the figures are there, no errors, and the file stays small."""
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code" and "parameters" not in c.metadata.get("tags", [])]
    assert all(c.execution_count for c in code), "not saved after a run: python notebooks/run.py"
    outputs = [o for c in code for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), "no figure saved"
    assert path.stat().st_size < 200 * 1024
