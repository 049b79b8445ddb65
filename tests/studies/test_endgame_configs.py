"""The end-game studies play the games of the uniform-sampling study they are paired with."""

import pytest

from evo_mastermind.runner import load_config
from evo_mastermind.studies import study_names

ENDGAME_STUDIES = [name for name in study_names() if name.startswith("scaling/endgame_")]
OPTIONS = {"endgame", "endgame_work", "endgame_pool", "whole_set"}
"""The options an end-game study adds to the player it is paired with."""


def paired_study(name: str) -> str:
    """``scaling/endgame_[archive_|wholeset_]<size>`` is paired with ``scaling/uniform_<size>``."""
    size = name.removeprefix("scaling/endgame_")
    for kind in ("archive_", "wholeset_"):
        size = size.removeprefix(kind)
    return f"scaling/uniform_{size}"


def test_every_size_of_the_study_is_shipped() -> None:
    assert {f"scaling/endgame_{size}" for size in ("5x8", "6x9", "7x10", "8x12")} <= set(
        ENDGAME_STUDIES
    )
    assert "scaling/endgame_8x12_second_sample" in ENDGAME_STUDIES


@pytest.mark.parametrize("name", ENDGAME_STUDIES)
def test_an_endgame_study_keeps_the_label_seed_and_secrets_of_its_player(name: str) -> None:
    # Same label, settings, seed and secrets as the paired study's entry: each game draws the
    # same numbers, so it is that study's game until the added option takes over, and
    # benchmarks.studies.endgame_paired pairs them by secret.
    config, paired = load_config(name), load_config(paired_study(name))
    recorded = {entry.label: entry.model_dump() for entry in paired.entries()}
    for entry in config.entries():
        dumped = entry.model_dump()
        added = set(dumped["params"]) - set(recorded[entry.label]["params"])
        assert added and added <= OPTIONS
        dumped["params"] = {k: v for k, v in dumped["params"].items() if k not in added}
        assert dumped == recorded[entry.label]
    dumped, paired_dumped = config.model_dump(), paired.model_dump()
    for key in ("game", "secrets", "seed", "runs", "guess_limit"):
        assert dumped[key] == paired_dumped[key], key
