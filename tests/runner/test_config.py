from pathlib import Path

import pytest

from evo_mastermind.runner.config import ConfigError, load_config
from tests.runner.conftest import ConfigWriter


def test_a_valid_config_expands_sweeps_with_labels(write_config: ConfigWriter) -> None:
    path = write_config(
        players=[
            {"label": "Entropy mu={mu}", "player": "entropy", "mu": [10, 20]},
            {
                "label": "Parts",
                "player": "most_parts",
                "mu": [5],
                "ties": ["random", "lexicographic"],
            },
            {"label": "Knuth", "player": "knuth"},
        ]
    )
    config = load_config(path)
    labels = [entry.label for entry in config.entries()]
    assert labels == [
        "Entropy mu=10",
        "Entropy mu=20",
        "Parts mu=5 ties=random",
        "Parts mu=5 ties=lexicographic",
        "Knuth",
    ]
    assert config.entries()[0].params == {"mu": 10}
    assert config.entries()[0].params_json == '{"mu": 10}'


def test_runs_override_and_defaults(write_config: ConfigWriter) -> None:
    config = load_config(write_config(runs=None, seed=None), runs=7)
    assert config.runs == 7 and config.seed == 0
    assert config.statistics.test_on == "games" and config.statistics.alpha == 0.05


def test_game_grid_and_secret_lists(write_config: ConfigWriter) -> None:
    config = load_config(
        write_config(game={"pegs": [3, 4], "colors": 5}, secrets=[{"sample": 10}, "full"])
    )
    assert [(s.pegs, s.colors) for s in config.game] == [(3, 5), (4, 5)]
    assert [s.describe() for s in config.secrets] == ["sample", "full"]
    with pytest.raises(ConfigError, match=r"secrets\.1\.list: code 'ABCD' has 4 letters"):
        load_config(
            write_config(
                game=[{"pegs": 4, "colors": 5}, {"pegs": 3, "colors": 5}],
                secrets=["full", {"list": ["ABCD"]}],
            )
        )


def test_fingerprint_ignores_presentation_only(write_config: ConfigWriter) -> None:
    base = load_config(write_config()).fingerprint()
    assert load_config(write_config(description="words", batch_games=3)).fingerprint() == base
    assert load_config(write_config(name="renamed", report="tournament")).fingerprint() == base
    # Which paired tests the report adds is reporting only: the same games.
    paired = load_config(write_config(statistics={"paired": "bayesian"}))
    assert paired.fingerprint() == base and paired.statistics.paired == "bayesian"
    labels = [entry.label for entry in load_config(write_config()).players]
    moved = load_config(write_config(compare_as={labels[0]: "Entropy"}))
    assert moved.fingerprint() == base and moved.compare_as == {labels[0]: "Entropy"}
    assert load_config(write_config(seed=12)).fingerprint() != base
    assert load_config(write_config(runs=3)).fingerprint() != base


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"runz": 3}, "runz: unknown key"),
        ({"runs": 0}, "runs: Input should be greater than 0"),
        ({"runs": "many"}, "runs: Input should be a valid integer"),
        ({"name": None}, "name: required key is missing"),
        ({"name": "a b"}, "name: String should match pattern"),
        ({"game": {"pegs": 4, "colors": 30}}, "game: colors must be between 2 and 26, got 30"),
        ({"game": {"pegs": 0, "colors": 6}}, "game: pegs must be between 1 and 64, got 0"),
        ({"game": {"pegs": [4], "colours": [3]}}, "game: a grid of sizes needs exactly"),
        ({"game": {"pegs": 8, "colors": 12}}, "has 429,981,696 codes"),
        (
            {"secrets": {"sampel": 3}},
            "secrets: must be 'full', {sample: N}, {list: [CODE, ...]} or {scsa: NAME, n: N}",
        ),
        (
            {"secrets": {"scsa": "nosuch", "n": 3}},
            "secrets.scsa: unknown SCSA 'nosuch'; known: ab_color",
        ),
        ({"secrets": {"scsa": "ab_color"}}, "secrets.n: required key is missing"),
        (
            {"secrets": {"scsa": "only_once", "n": 3}, "game": {"pegs": 5, "colors": 4}},
            "secrets.scsa: SCSA 'only_once' needs at least as many colours as pegs",
        ),
        ({"secrets": {"sample": 0}}, "secrets.sample: Input should be greater than 0"),
        ({"secrets": {"list": ["ABE"]}}, "secrets.list: code 'ABE' uses 'E'"),
        ({"players": []}, "players: List should have at least 1 item"),
        (
            {"players": [{"label": "x", "player": "nosuch"}]},
            "entry 0 ('x'): unknown player 'nosuch'",
        ),
        ({"players": [{"label": "x", "player": "entropy", "mux": 3}]}, "mux: unknown option"),
        (
            {"players": [{"label": "x", "player": "entropy", "mu": -1}]},
            "mu: input should be greater than 0",
        ),
        (
            {"players": [{"label": "x", "player": "entropy", "first_guess": "AABB"}]},
            "first_guess: code 'AABB' has 4 letters; this game has 3 pegs",
        ),
        (
            {"players": [{"label": "x", "player": "local_entropy", "pool": "all"}]},
            "pool must be 'consistent'",
        ),
        (
            {"players": [{"label": "x", "player": "entropy"}, {"label": "x", "player": "random"}]},
            "player labels must be unique; repeated: x",
        ),
        ({"players": [{"player": "entropy"}]}, "players.0.label: required key is missing"),
        ({"compare_as": {"nobody": "Entropy"}}, "compare_as: 'nobody' is not the label of a"),
        ({"compare_as": ["Entropy"]}, "compare_as: Input should be a valid dictionary"),
        (
            {"statistics": {"test_on": "moves"}},
            "statistics.test_on: Input should be 'games' or 'runs'",
        ),
    ],
)
def test_bad_configs_name_file_key_and_problem(
    write_config: ConfigWriter, changes: dict[str, object], message: str
) -> None:
    path = write_config(**changes)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    text = str(caught.value)
    assert text.startswith(f"{path}: ") and message in text
    assert "\n" not in text


def test_malformed_and_missing_files(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: x\nplayers: [unclosed\n")
    with pytest.raises(ConfigError, match=r"broken.yaml: not valid YAML at line 3"):
        load_config(broken)
    listing = tmp_path / "list.yaml"
    listing.write_text("- a\n- b\n")
    with pytest.raises(ConfigError, match="expected a mapping of keys"):
        load_config(listing)
    with pytest.raises(ConfigError, match=r"missing\.yaml: cannot read"):
        load_config(tmp_path / "missing.yaml")


def test_scsa_sources_and_skipping_impossible_sizes(write_config: ConfigWriter) -> None:
    grid = {"pegs": [4, 6], "colors": [5, 8]}
    sources = [{"scsa": "only_once", "n": 4}, {"scsa": "ab_color", "n": 4}]
    with pytest.raises(ConfigError, match=r"secrets\.0\.scsa: SCSA 'only_once'"):
        load_config(write_config(game=grid, secrets=sources))
    config = load_config(write_config(game=grid, secrets=sources, skip_impossible=True))
    played = [(size.pegs, size.colors, source.describe()) for size, source in config.blocks()]
    assert (6, 5, "scsa:only_once") not in played and (6, 5, "scsa:ab_color") in played
    assert len(played) == 7
    assert config.skipped() == [f"(6,5) scsa:only_once: {_only_once_message()}"]


def _only_once_message() -> str:
    from evo_mastermind.codes import CodeSpace
    from evo_mastermind.runner.sources import ScsaSecrets, source_problem

    problem = source_problem(CodeSpace(6, 5), ScsaSecrets(scsa="only_once", n=1))
    assert problem is not None
    return problem
