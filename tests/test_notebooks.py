"""The notebooks run end to end in fast mode, and are stored without outputs."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
NAMES = ["reproduce_paper.ipynb", "explore_strategies.ipynb"]


def read(name: str) -> nbformat.NotebookNode:
    """One stored notebook, as nbformat version 4."""
    notebook: nbformat.NotebookNode = nbformat.read(  # type: ignore[no-untyped-call]
        NOTEBOOKS / name, as_version=4
    )
    return notebook


def outputs_of(notebook: nbformat.NotebookNode, kind: str) -> list[str]:
    """Every output of one MIME type (or stream text, for ``stream``), in cell order."""
    found = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            if kind == "stream" and output["output_type"] == "stream":
                found.append(str(output["text"]))
            elif kind in output.get("data", {}):
                found.append(str(output["data"][kind]))
    return found


@pytest.mark.parametrize("name", NAMES)
def test_notebook_is_stored_without_outputs(name: str) -> None:
    notebook = read(name)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    stripped = [not c.outputs and c.execution_count is None and not c.metadata for c in code]
    assert code and all(stripped), f"{name} holds outputs: run `make strip-notebooks`"
    assert any(cell.cell_type == "markdown" for cell in notebook.cells)


@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs_in_fast_mode(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The kernel inherits the environment: fast mode, and no display needed.
    monkeypatch.setenv("EVO_MASTERMIND_FAST", "1")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    notebook = read(name)
    client = NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=120,
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    client.execute()  # raises CellExecutionError on the first failing cell
    assert outputs_of(notebook, "image/png"), "no figure was drawn"
    printed = "".join(outputs_of(notebook, "stream"))
    if name == "reproduce_paper.ipynb":
        assert "fast mode: True" in printed
        assert "played 400 games" in printed  # the shrunk Table 2 run, not the raw games
        tables = "".join(outputs_of(notebook, "text/plain"))
        assert "Entropy mu=10" in tables and "inside the published range" in tables
    else:
        assert "solved in" in printed
        assert "120 games in" in printed  # 30 sampled secrets x 2 runs x 2 players
