"""Where the project is: paths in configs (``compare_with``) are relative to its root."""

from __future__ import annotations

from pathlib import Path


def find_project_root(start: Path | str) -> Path:
    """The nearest folder at or above ``start`` holding ``pyproject.toml``, else the cwd."""
    here = Path(start).resolve()
    for folder in (here, *here.parents):
        if (folder / "pyproject.toml").is_file():
            return folder
    return Path.cwd()
