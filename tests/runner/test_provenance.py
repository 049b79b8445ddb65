"""Provenance: the record names the code that played its games; resume never mixes two codes."""

import hashlib
import json
import sys
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest
import yaml

from evo_mastermind.api import run
from evo_mastermind.cli import main
from evo_mastermind.codes import InvalidGameError
from evo_mastermind.runner.provenance import UNKNOWN, Provenance, current_provenance

PLUGIN = "provenance_plugin_{n}"
SCORE = '''
import numpy as np
from evo_mastermind import register_heuristic


@register_heuristic("{name}")
def parts(counts):
    """The number of parts{extra}."""
    return np.count_nonzero(counts, axis=1).astype(np.float64)
'''


@pytest.fixture
def plugin(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[str, Path]]:
    """A plugin module of its own name per test, on sys.path: (module name, its file)."""
    name = PLUGIN.format(n=request.node.name.replace("[", "_").replace("]", "").replace("-", "_"))
    folder = tmp_path / "plugins"
    folder.mkdir()
    source = folder / f"{name}.py"
    source.write_text(SCORE.format(name=name, extra=""))
    sys.path.insert(0, str(folder))
    yield name, source
    sys.path.remove(str(folder))
    sys.modules.pop(name, None)


def _config(module: str, tmp_path: Path) -> Path:
    path = tmp_path / "small.yaml"
    config = {
        "name": "small",
        "game": {"pegs": 3, "colors": 3},
        "secrets": "full",
        "runs": 1,
        "seed": 5,
        "plugins": [module],
        "players": [
            {"label": "Mine", "player": "one_ply", "heuristic": module},
            {"label": "Entropy", "player": "entropy"},
        ],
    }
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def _record(out: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((out / "experiment.json").read_text())


def test_the_record_names_the_versions_and_the_plugin_source(
    plugin: tuple[str, Path], tmp_path: Path
) -> None:
    module, source = plugin
    out = tmp_path / "out"
    results = run(_config(module, tmp_path), out=out, executor="serial", progress=False)
    [provenance] = _record(out)["provenance"]
    assert "## Provenance" in results.write_report()
    assert provenance["tool"] == metadata.version("evo_mastermind")
    assert provenance["python"] == ".".join(map(str, sys.version_info[:3]))
    assert provenance["libraries"]["numpy"] == metadata.version("numpy")
    assert set(provenance["libraries"]) >= {"numpy", "deap", "numba", "pydantic"}
    # Only code outside the package is listed, each module by the SHA-256 of its file.
    assert provenance["plugins"] == {module: hashlib.sha256(source.read_bytes()).hexdigest()}


def test_resume_refuses_games_of_an_edited_plugin_unless_accepted(
    plugin: tuple[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module, source = plugin
    config, out = _config(module, tmp_path), tmp_path / "out"
    assert main(["run", str(config), "--out", str(out), "--executor", "serial"]) == 0
    games = sorted(path.name for path in (out / "games").iterdir())
    source.write_text(SCORE.format(name=module, extra=", edited"))
    grown = tmp_path / "grown.yaml"
    grown.write_text(config.read_text().replace("runs: 1", "runs: 2"))
    capsys.readouterr()

    status = main(["run", str(grown), "--out", str(out), "--executor", "serial", "--resume"])

    error = capsys.readouterr().err.strip().splitlines()
    assert status != 0 and len(error) == 1
    assert f"plugin {module} (source changed)" in error[0]
    assert "--accept-changed-code" in error[0]
    assert sorted(path.name for path in (out / "games").iterdir()) == games  # nothing added
    assert len(_record(out)["provenance"]) == 1

    again = ["run", str(grown), "--out", str(out), "--executor", "serial", "--resume"]
    accepted = main([*again, "--accept-changed-code"])

    assert accepted == 0
    first, second = _record(out)["provenance"]
    assert first["plugins"][module] != second["plugins"][module]
    assert "changed code" in capsys.readouterr().err
    # The report says that two versions played, and lists both digests.
    report = (out / "report.md").read_text()
    assert "**The games were played by 2 versions of the code**" in report
    for entry in (first, second):
        assert f"plugin {module} sha256:{entry['plugins'][module][:12]}" in report


def test_an_unchanged_resume_keeps_one_provenance(plugin: tuple[str, Path], tmp_path: Path) -> None:
    module, _ = plugin
    config, out = _config(module, tmp_path), tmp_path / "out"
    run(config, out=out, executor="serial", progress=False)
    run(config, out=out, executor="serial", progress=False, runs=2, resume=True)
    assert len(_record(out)["provenance"]) == 1


def test_accepting_changed_code_needs_resume(tmp_path: Path) -> None:
    with pytest.raises(InvalidGameError, match="accept_changed_code goes with resume"):
        run("paper/table2", out=tmp_path / "out", accept_changed_code=True)


def test_changes_name_the_tool_and_plugins_not_the_libraries() -> None:
    stored = Provenance(tool="0.2.0", libraries={"numpy": "1.26"}, plugins={"a": "1", "b": "2"})
    same_code = stored.model_copy(update={"libraries": {"numpy": "2.1"}})
    assert same_code.changes_from(stored) == []
    changed = Provenance(tool="0.3.0", plugins={"a": "1", "b": "3", "c": "4"})
    assert changed.changes_from(stored) == [
        "evo_mastermind 0.2.0 -> 0.3.0",
        "plugin b (source changed)",
    ]
    unreadable = Provenance(tool="0.2.0", plugins={"a": UNKNOWN, "b": "2"})
    assert unreadable.changes_from(unreadable) == [
        "plugin a (its source cannot be read to compare)"
    ]


def test_modules_of_this_package_are_left_out() -> None:
    provenance = current_provenance(["evo_mastermind.players.one_ply", "json", "not_imported_x"])
    assert list(provenance.plugins) == ["json"]
    assert (
        provenance.plugins["json"] == hashlib.sha256(Path(json.__file__).read_bytes()).hexdigest()
    )
