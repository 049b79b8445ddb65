"""The worked examples and notebooks, wherever evo_mastermind is installed.

The repository's ``examples/`` (packages with a player and a heuristic of one's own, and
their configs) and ``notebooks/`` are shipped in the wheel as data files under
``share/evo_mastermind/`` of the environment. :func:`bundled` finds them there (or, in a
source checkout, beside the package), and :func:`copy_examples` copies them into a folder
of the user's (``evo-mastermind examples copy``) to run and edit.
"""

from __future__ import annotations

import shutil
from importlib import metadata
from pathlib import Path

from evo_mastermind.codes import InvalidGameError

SHARED = ("share", "evo_mastermind")
"""Where the wheel installs the examples and notebooks, under the environment's prefix."""

FOLDERS = ("examples", "notebooks")
"""What is shipped: the example packages and the notebooks."""

DEFAULT_DESTINATION = "evo_mastermind_examples"
"""The folder :func:`copy_examples` creates in the current folder unless told otherwise."""


class ExamplesError(InvalidGameError):
    """The examples cannot be found or copied (one line saying why)."""


def bundled() -> Path:
    """The folder holding ``examples/`` and ``notebooks/`` for this installation.

    Raises:
        ExamplesError: neither the installed data files nor a source checkout has them.
    """
    checkout = Path(__file__).resolve().parents[1]
    if all((checkout / folder).is_dir() for folder in FOLDERS):
        return checkout  # a source checkout or an editable install: the files themselves
    try:
        files = metadata.distribution("evo_mastermind").files or []
    except metadata.PackageNotFoundError:
        files = []
    marker = "/".join((*SHARED, "examples"))
    for file in files:
        if marker in file.as_posix():
            shared = Path(str(file.locate())).resolve()
            while shared.name != SHARED[-1]:
                shared = shared.parent
            return shared
    raise ExamplesError(
        "the examples and notebooks are not installed with this copy of evo_mastermind; "
        "they are in the repository's examples/ and notebooks/ folders"
    )


def copy_examples(destination: str | Path | None = None, force: bool = False) -> Path:
    """Copy ``examples/`` and ``notebooks/`` into ``destination``; return it.

    Args:
        destination: the folder to create (default ``./evo_mastermind_examples``).
        force: replace the two folders if ``destination`` already holds them.

    Raises:
        ExamplesError: the examples are not installed, or ``destination`` already holds
            them and ``force`` is not given.
    """
    source = bundled()
    target = Path(DEFAULT_DESTINATION if destination is None else destination)
    if target.exists() and not target.is_dir():
        raise ExamplesError(f"{target} is a file; give a folder to copy the examples into")
    present = [target / folder for folder in FOLDERS if (target / folder).exists()]
    if present and not force:
        raise ExamplesError(
            f"{present[0]} already exists; choose another folder, or --force to replace it"
        )
    for folder in FOLDERS:
        shutil.rmtree(target / folder, ignore_errors=True)
        shutil.copytree(
            source / folder,
            target / folder,
            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", ".ipynb_checkpoints"),
        )
    return target


def listing() -> list[str]:
    """What is shipped, one line each (``evo-mastermind examples``)."""
    source = bundled()
    lines = []
    for folder in FOLDERS:
        for entry in sorted((source / folder).iterdir()):
            if entry.name.startswith((".", "__")) or entry.name.endswith(".egg-info"):
                continue
            lines.append(f"{folder}/{entry.name}")
    return lines
