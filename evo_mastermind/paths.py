"""Where the project is: paths in configs (``compare_with``) are relative to its root."""

from __future__ import annotations

import warnings
from pathlib import Path

RENAMED_FILES: dict[str, str] = {
    f"experiments/seed002_table{number}.csv": f"experiments/runarsson_merelo_2009_table{number}.csv"
    for number in range(2, 7)
}
"""Project files renamed in 0.2, old name to new: the old names work until 0.3, with a warning."""


def find_project_root(start: Path | str) -> Path:
    """The nearest folder at or above ``start`` holding ``pyproject.toml``, else the cwd."""
    here = Path(start).resolve()
    for folder in (here, *here.parents):
        if (folder / "pyproject.toml").is_file():
            return folder
    return Path.cwd()


def within_project(path: str) -> bool:
    """Whether ``path`` is relative and never climbs out (no absolute path, no ``..``)."""
    relative = Path(path)
    return not relative.is_absolute() and ".." not in relative.parts


def current_name(path: str) -> str:
    """``path`` as the project now names it: a renamed file's new name, with a FutureWarning.

    A config or an ``experiment.json`` written before a file was renamed keeps working for one
    release (:data:`RENAMED_FILES`).
    """
    new = RENAMED_FILES.get(path.replace("\\", "/").removeprefix("./"))
    if new is None:
        return path
    warnings.warn(
        f"{path} is now {new}; the old name works until evo_mastermind 0.3",
        FutureWarning,
        stacklevel=2,
    )
    return new
