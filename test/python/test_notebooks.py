"""The notebooks under notebooks/ run headless from the first cell to the last.

Their cells assert what they show (the checksum against gcc's, the stages, the decisions),
so a notebook that runs through is a walkthrough that still holds. nbclient starts a
kernel per notebook and shuts it down again, also when a cell fails."""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

#: Minutes of this suite's time: `pytest -m "not slow"` leaves it out (CI runs everything).
pytestmark = pytest.mark.slow

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_notebook_runs_headless(path):
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=900, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()
    errors = [o for c in notebook.cells if c.cell_type == "code"
              for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    # every code cell ran
    assert all(c.get("execution_count") for c in notebook.cells if c.cell_type == "code")


def test_notebooks_are_stored_without_outputs():
    for path in NOTEBOOKS.glob("*.ipynb"):
        notebook = nbformat.read(path, as_version=4)
        assert all(not c.get("outputs") for c in notebook.cells if c.cell_type == "code"), path
