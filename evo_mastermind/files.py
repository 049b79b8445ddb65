"""Files given by the user, checked before any work: inputs that can be read, outputs written.

Two checks, each refusing in one line what would otherwise fail late or never end:

* :func:`check_readable_file`: an input (a config, a published table) that exists but is not
  a regular file. A FIFO with no writer would block its reader forever; a folder or a device
  would fail deep in a parser.
* :func:`check_writable_file` and :func:`check_writable_folder`: an output (a plot, an export,
  a report, a results directory) whose place cannot be written. They are called before the
  work that fills it starts, so a run, an export or a search is never thrown away at the end
  for want of a place to put it. Permissions are not enough to know (an administrator ignores
  them, a read-only file system does not): the nearest folder that exists is asked for a
  temporary file, which is removed at once.
"""

from __future__ import annotations

import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from evo_mastermind.codes import InvalidGameError


class PathError(InvalidGameError):
    """An input that cannot be read or an output that cannot be written, in one line."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def check_readable_file(path: str | Path, what: str) -> None:
    """Refuse a path that exists but is not a regular file (a missing one is left to the reader).

    Args:
        path: the file to be read.
        what: what it is, for the message (``"config"``, ``"published table"``).

    Raises:
        PathError: a FIFO, socket, device or folder, named.
    """
    try:
        mode = Path(path).stat().st_mode
    except OSError:
        return  # missing or unreadable: the reader says so in its own words
    if not stat.S_ISREG(mode):
        raise PathError(f"{path}: the {what} is {_kind(mode)}, not a regular file")


def _nearest_existing(path: Path) -> Path:
    """``path`` itself if it exists, else its nearest ancestor that does."""
    for candidate in (path, *path.parents):
        if candidate.exists() or candidate.is_symlink():
            return candidate
    return Path.cwd()


def _check_can_create_in(folder: Path, path: Path, what: str) -> None:
    if not folder.is_dir():
        raise PathError(f"{path}: {folder} is a file, not a folder, so the {what} cannot go there")
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".evo-mastermind-probe-"):
            pass
    except OSError as error:
        reason = error.strerror or error
        raise PathError(f"{path}: cannot write the {what} in {folder}: {reason}") from None


def check_writable_file(path: str | Path, what: str) -> None:
    """Refuse an output file that could not be written (checked before the work that fills it).

    Its folder may be missing (it is made when the file is written) but must be creatable;
    the file itself, if present, must be a regular file (it is replaced).

    Args:
        path: the file to be written.
        what: the output it is, for the message (``"plot file"``, ``"export"``).

    Raises:
        PathError: a folder or special file in its place, or a place that cannot be written.
    """
    check_writable_files([path], what)


def check_writable_files(paths: Iterable[str | Path], what: str) -> None:
    """:func:`check_writable_file` of several files, each folder asked once.

    Raises:
        PathError: the first file that could not be written, named.
    """
    asked: set[Path] = set()
    for path in map(Path, paths):
        if path.exists():
            mode = path.stat().st_mode
            if not stat.S_ISREG(mode):
                kind = _kind(mode)
                raise PathError(f"{path}: the {what} is {kind}, where a file is to be written")
        folder = _nearest_existing(path.parent)
        if folder not in asked:
            _check_can_create_in(folder, path, what)
            asked.add(folder)


def check_writable_folder(path: str | Path, what: str) -> None:
    """Refuse an output folder that could not be created or written in.

    Args:
        path: the folder to be written (it may not exist yet).
        what: the output it is, for the message (``"results directory"``).

    Raises:
        PathError: a file in its place or on its way, or a place that cannot be written.
    """
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise PathError(f"{path}: the {what} is a file, not a folder")
    _check_can_create_in(_nearest_existing(path), path, what)


__all__ = [
    "PathError",
    "check_readable_file",
    "check_writable_file",
    "check_writable_files",
    "check_writable_folder",
]
