"""The studies shipped with the package, and the published tables they compare with.

A study is a config file, named by its path under this folder without ``.yaml``:
``paper/table2`` … ``paper/table6`` (Runarsson & Merelo 2009, Tables 2–6),
``evolution/archive_4x6``, ``scaling/5x8`` … ``scaling/8x12``, ``tournament/fbi_8x10`` and
``tournament/sweep``. The published tables are CSV files named ``published/<file>.csv``. Both
install with the package, so ``evo-mastermind run paper/table2`` works from any folder, and
both are also found under the paths they had before they moved here (``configs/...``,
``experiments/...``), with a warning, until evo_mastermind 0.3.
"""

from __future__ import annotations

import shutil
import warnings
from dataclasses import dataclass
from pathlib import Path

from evo_mastermind.codes import InvalidGameError
from evo_mastermind.files import check_writable_file
from evo_mastermind.messages import did_you_mean
from evo_mastermind.paths import current_name

FOLDER = Path(__file__).resolve().parent
"""Where the shipped studies are (inside the installed package)."""

PUBLISHED = "published"
"""The folder of the published tables, and the first part of their names."""

OLD_CONFIGS = "configs/"
OLD_PUBLISHED = "experiments/"
"""Where studies and published tables were kept before 0.2 (a clone's top level)."""

PAPER_TABLES = ("table2", "table3", "table4", "table5", "table6")
"""The paper's tables, each the study ``paper/<table>`` (what ``reproduce`` plays)."""


class StudyError(InvalidGameError):
    """A study or published table that is not shipped, explained in one line."""


@dataclass(frozen=True)
class Study:
    """One shipped study: its name, its file and what its config says about itself."""

    name: str
    """How it is addressed, e.g. ``paper/table2``."""
    path: Path
    """The config file inside the installed package."""
    description: str
    """The config's ``description``, on one line."""
    compare_with: str | None
    """The published table it compares with, if any."""


def study_names() -> list[str]:
    """Every shipped study's name, sorted (``evolution/archive_4x6``, ``paper/table2``, …)."""
    return sorted(
        path.relative_to(FOLDER).with_suffix("").as_posix() for path in FOLDER.glob("*/*.yaml")
    )


def published_names() -> list[str]:
    """Every shipped published table's name, sorted (``published/…_table2.csv``, …)."""
    return sorted(f"{PUBLISHED}/{path.name}" for path in (FOLDER / PUBLISHED).glob("*.csv"))


def studies() -> list[Study]:
    """Every shipped study with its description and published table, sorted by name."""
    import yaml  # only listing reads the files

    found = []
    for name in study_names():
        path = FOLDER / f"{name}.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        described = " ".join(str(data.get("description") or "").split())
        found.append(Study(name, path, described, data.get("compare_with")))
    return found


def _normalised(text: str) -> str:
    return text.replace("\\", "/").removeprefix("./")


def _moved(text: str, new_name: str) -> None:
    warnings.warn(
        f"{text} has moved into the package as {new_name}; the old path works until "
        "evo_mastermind 0.3",
        FutureWarning,
        stacklevel=3,
    )


def study_path(name: str) -> Path:
    """The file of the shipped study ``name`` (``paper/table2``, ``.yaml`` optional).

    Raises:
        StudyError: no study of that name, with the closest name if one is close.
    """
    name = _normalised(name).removesuffix(".yaml")
    names = study_names()
    if name not in names:
        raise StudyError(
            f"no shipped study {name!r}{did_you_mean(name, names)}; 'evo-mastermind studies' "
            "lists them"
        )
    return FOLDER / f"{name}.yaml"


def shipped_file(name: str) -> Path:
    """The file of a shipped study (``paper/table2``) or published table (``published/….csv``).

    Raises:
        StudyError: neither is shipped under that name.
    """
    if _normalised(name) in published_names():
        return FOLDER / _normalised(name)
    return study_path(name)


def config_file(config: str | Path) -> Path:
    """A config path as given, or the file of the shipped study it names.

    A file that exists is always taken as it is. Otherwise ``paper/table2`` (or
    ``paper/table2.yaml``) names a shipped study, and so does its path before 0.2,
    ``configs/paper/table2.yaml`` (with a FutureWarning). Anything else comes back unchanged,
    for the config reader to report as a missing file.

    Raises:
        StudyError: ``config`` looks like a study name (its folder is one of the studies')
            but no study has it.
    """
    path = Path(config)
    if path.is_file():
        return path
    text = _normalised(str(config))
    if text.startswith(OLD_CONFIGS) and text.endswith(".yaml"):
        name = text.removeprefix(OLD_CONFIGS).removesuffix(".yaml")
        if name in study_names():
            _moved(text, name)
            return FOLDER / f"{name}.yaml"
    names = study_names()
    folders = {name.split("/")[0] for name in names}
    if not path.is_absolute() and path.suffix in ("", ".yaml") and text.split("/")[0] in folders:
        name = text.removesuffix(".yaml")
        if name in names:
            return FOLDER / f"{name}.yaml"
        raise StudyError(
            f"{text}: no such file, nor a shipped study of that name{did_you_mean(name, names)}; "
            "'evo-mastermind studies' lists them"
        )
    return path


def published_file(source: str, project: Path | None = None) -> Path | None:
    """The published table a config's ``compare_with`` names, or None if there is none.

    A file of that path under ``project`` (the user's project root, or the cwd) comes first;
    then a shipped table, by its name (``published/…csv``) or by its path before 0.2
    (``experiments/…csv``, with a FutureWarning). Names older still are renamed first
    (:func:`evo_mastermind.paths.current_name`).
    """
    source = current_name(_normalised(source))
    if project is not None and (project / source).is_file():
        return project / source
    shipped = published_names()
    if source in shipped:
        return FOLDER / source
    if source.startswith(OLD_PUBLISHED):
        name = f"{PUBLISHED}/{source.removeprefix(OLD_PUBLISHED)}"
        if name in shipped:
            _moved(source, name)
            return FOLDER / name
    return None


SUFFIXES = {".yaml": (".yaml", ".yml"), ".csv": (".csv",)}
"""The suffixes a copy of a study (``.yaml``) or of a published table (``.csv``) may take."""


def copy_study(name: str, destination: str | Path | None = None, force: bool = False) -> Path:
    """Copy a shipped study (or published table) to start one's own from; return the copy.

    Args:
        name: a study (``paper/table2``) or a published table (``published/….csv``).
        destination: a file, or a folder to copy into (default: the cwd, keeping the file's
            own name, e.g. ``table2.yaml``).
        force: replace a file already at the destination.

    A file destination keeps the source's suffix: a published table copied as ``.yaml``
    would be taken for a config (and a config as ``.csv`` for a table).

    Raises:
        StudyError: no such study or table, a destination of another kind (``.yaml`` for
            a table, ``.csv`` for a study), or a file in the way without ``force``.
        PathError: a destination that cannot be written.
    """
    source = shipped_file(name)
    if destination is not None and not str(destination).strip():
        raise StudyError("the destination is empty; give a file or a folder (or leave it out)")
    target = Path() if destination is None else Path(destination)
    if target.is_dir():
        target = target / source.name
    if target.suffix.lower() not in SUFFIXES[source.suffix]:
        kind = "a published table" if source.suffix == ".csv" else "a study's config"
        raise StudyError(
            f"{name} is {kind} ({source.suffix}); copy it to a {source.suffix} file or a "
            f"folder, not {target}"
        )
    if target.exists() and not force:
        raise StudyError(f"{target} already exists; choose another destination, or --force")
    check_writable_file(target, "destination")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target


__all__ = [
    "PAPER_TABLES",
    "Study",
    "StudyError",
    "config_file",
    "copy_study",
    "published_file",
    "published_names",
    "shipped_file",
    "studies",
    "study_names",
    "study_path",
]
