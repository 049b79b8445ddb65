"""The experiment record: every field typed, written as before, older records still read."""

import json
from pathlib import Path

import pytest

from evo_mastermind.runner import load_config
from evo_mastermind.runner.config import ExperimentConfig, Statistics
from evo_mastermind.runner.record import RECORD_VERSION, ExperimentRecord, as_record
from evo_mastermind.runner.run import manifest_of
from evo_mastermind.runner.storage import ResultsDir

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = sorted((ROOT / "results").rglob("experiment.json"))


@pytest.mark.parametrize("path", COMMITTED, ids=[str(p.relative_to(ROOT)) for p in COMMITTED])
def test_every_committed_record_loads_and_keeps_its_fields(path: Path) -> None:
    written = json.loads(path.read_text())
    record = ResultsDir(path.parent).read_manifest()
    assert record.name == written["name"] and record.labels() == [
        p["label"] for p in written["players"]
    ]
    # Read and written back, a record says what it said (only a missing version is added).
    dumped = record.model_dump(mode="json")
    assert {key: dumped[key] for key in written} == written


def test_the_record_holds_every_field_the_run_writes() -> None:
    config = load_config("paper/table2")
    record = manifest_of(config, 64_800)
    dumped = record.model_dump(mode="json")
    assert list(dumped) == list(ExperimentRecord.model_fields)  # no key outside the model
    assert record.version == RECORD_VERSION and record.games == 64_800 and record.pegs == 4
    assert [entry.model_dump() for entry in record.players] == [
        entry.model_dump() for entry in config.entries()
    ]
    assert record.test_on == config.statistics.test_on
    # The committed record of the same config was written field for field alike; it predates
    # provenance, which a run records from its own code (tests/runner/test_provenance.py).
    committed = json.loads((ROOT / "results" / "paper" / "table2" / "experiment.json").read_text())
    assert dumped.pop("provenance") == []
    assert dumped == committed


def test_missing_fields_take_the_configs_defaults() -> None:
    record = as_record({"name": "old"})
    defaults = Statistics()
    assert (record.alpha, record.test_on, record.holm, record.paired) == (
        defaults.alpha,
        defaults.test_on,
        defaults.holm,
        defaults.paired,
    )
    assert record.runs == ExperimentConfig.model_fields["runs"].default
    assert record.report == "paper" and record.version == 0 and record.players == []


def test_a_malformed_record_is_one_line(tmp_path: Path) -> None:
    from evo_mastermind.runner.storage import ResultsError

    (tmp_path / "experiment.json").write_text(json.dumps({"name": "x", "players": [{"p": 1}]}))
    with pytest.raises(ResultsError, match=r"not an experiment record \(players\.0\.label"):
        ResultsDir(tmp_path).read_manifest()


def test_unknown_keys_of_a_newer_record_are_kept() -> None:
    record = as_record({"name": "new", "shiny": [1, 2]})
    assert record.model_dump()["shiny"] == [1, 2]
