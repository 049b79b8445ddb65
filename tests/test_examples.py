"""The examples and notebooks: shipped in the wheel, found where installed, copied out."""

import importlib.metadata
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest

from evo_mastermind import examples
from evo_mastermind.cli import main
from evo_mastermind.examples import ExamplesError, bundled, copy_examples, listing

ROOT = Path(__file__).resolve().parents[1]


def shipped_sources() -> set[str]:
    """Every repository file the wheel's data files take from examples/ and notebooks/."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())
    data_files: dict[str, list[str]] = settings["tool"]["setuptools"]["data-files"]
    return {
        path.relative_to(ROOT).as_posix()
        for patterns in data_files.values()
        for pattern in patterns
        for path in ROOT.glob(pattern)
    }


def repository_files() -> set[str]:
    return {
        path.relative_to(ROOT).as_posix()
        for folder in examples.FOLDERS
        for path in (ROOT / folder).rglob("*")
        if path.is_file()
        and not any(part == "__pycache__" or part.endswith(".egg-info") for part in path.parts)
        and ".ipynb_checkpoints" not in path.parts
    }


def test_the_wheel_ships_every_example_and_notebook() -> None:
    assert shipped_sources() == repository_files()
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())
    for target in settings["tool"]["setuptools"]["data-files"]:
        assert target.startswith("/".join(examples.SHARED) + "/")


def test_a_checkout_finds_its_own_folders() -> None:
    assert bundled() == ROOT
    assert "examples/custom_player" in listing() and "notebooks/reproduce_paper.ipynb" in listing()


class _Shipped:
    """A file of an installed distribution, as importlib.metadata lists it."""

    def __init__(self, root: Path, relative: str) -> None:
        self.root, self.relative = root, relative

    def as_posix(self) -> str:
        return self.relative

    def locate(self) -> Path:
        return self.root / self.relative


def test_an_installed_wheel_finds_them_under_share(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prefix = tmp_path / "env"
    shared = prefix / "share" / "evo_mastermind"
    (shared / "examples" / "custom_player").mkdir(parents=True)
    (shared / "notebooks").mkdir()
    (shared / "examples" / "custom_player" / "compare.yaml").write_text("name: x\n")
    site = prefix / "lib" / "site-packages"
    monkeypatch.setattr(examples, "__file__", str(site / "evo_mastermind" / "examples.py"))

    distribution = SimpleNamespace(
        files=[
            _Shipped(site, "evo_mastermind/__init__.py"),
            _Shipped(site, "../../share/evo_mastermind/examples/custom_player/compare.yaml"),
        ]
    )
    monkeypatch.setattr(importlib.metadata, "distribution", lambda name: distribution)
    assert bundled() == shared.resolve()
    distribution.files = distribution.files[:1]
    with pytest.raises(ExamplesError, match="not installed with this copy"):
        bundled()


def test_copy_refuses_to_overwrite_unless_forced(tmp_path: Path) -> None:
    target = copy_examples(tmp_path / "mine")
    copied = {path.relative_to(target).as_posix() for path in target.rglob("*") if path.is_file()}
    assert copied == repository_files()
    (target / "notebooks" / "mine.ipynb").write_text("{}")
    with pytest.raises(ExamplesError, match="already exists; choose another folder, or --force"):
        copy_examples(target)
    copy_examples(target, force=True)
    assert not (target / "notebooks" / "mine.ipynb").exists()
    (tmp_path / "file").write_text("x")
    with pytest.raises(ExamplesError, match="is a file"):
        copy_examples(tmp_path / "file")


def test_the_command_lists_and_copies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["examples"]) == 0
    assert "examples/custom_heuristic" in capsys.readouterr().out
    assert main(["examples", "copy"]) == 0
    assert (tmp_path / examples.DEFAULT_DESTINATION / "examples" / "custom_player").is_dir()
    capsys.readouterr()
    assert main(["examples", "copy"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
