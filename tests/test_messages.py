"""The one "did you mean" and the one notice on stderr."""

import pytest

from evo_mastermind.messages import closest, did_you_mean, notify


def test_the_closest_known_name_is_suggested() -> None:
    assert did_you_mean("entropi", ["entropy", "most_parts"]) == " (did you mean 'entropy'?)"
    assert closest("populaton_size", ["mu", "population_size"]) == "population_size"


def test_nothing_is_suggested_when_nothing_is_alike_or_the_word_is_known() -> None:
    assert did_you_mean("zzz", ["entropy", "most_parts"]) == ""
    assert did_you_mean("entropy", ["entropy"]) == ""
    assert did_you_mean("anything", []) == ""


def test_a_stricter_cutoff_suggests_less() -> None:
    assert closest("seeed", ["seed"], cutoff=0.7) == "seed"
    assert closest("rns", ["runs"]) == "runs"
    assert closest("rns", ["runs"], cutoff=0.9) is None


def test_a_notice_is_one_line_on_stderr_named_for_the_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    notify("waiting for the scheduler")
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == "evo-mastermind: waiting for the scheduler\n"
