"""Configs a careless or hostile user writes: each refused in one line, exit 2, no games."""

from pathlib import Path

import pytest

from tests.reliability.conftest import Failure, snapshot, write_yaml


def run_config(fails: Failure, tmp_path: Path, text: str | bytes, pattern: str) -> None:
    path = tmp_path / "config.yaml"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    out = tmp_path / "out"
    fails("run", path, "--out", out, "--executor", "serial", "--no-progress", pattern=pattern)
    assert not out.exists(), "a refused config wrote results"


BASE = "name: x\ngame: {pegs: 3, colors: 3}\n"
ENTRY = "players:\n  - {label: %s, player: entropy%s}\n"

CASES: dict[str, tuple[str | bytes, str]] = {
    "duplicate game key": (
        "name: x\ngame: {pegs: 4, colors: 6}\ngame: {pegs: 5, colors: 8}\n" + ENTRY % ("E", ""),
        r"line 3.*'game' is given twice",
    ),
    "not UTF-8": (b"name: x\xff\xfe\n", r"not a text file \(byte \d+ is not UTF-8\)"),
    "binary": (bytes(range(256)) * 4, r"not a text file|not valid YAML"),
    "nested 100,000 deep": ("[" * 100_000, r"not valid YAML"),
    "YAML python tag": (
        BASE + "seed: !!python/object/apply:os.system ['true']\n" + ENTRY % ("E", ""),
        r"not valid YAML.*could not determine a constructor",
    ),
    "anchor bomb": (
        BASE
        + 'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
        + "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
        + "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
        + "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
        + "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
        + ENTRY % ("E", ""),
        r"unknown key",
    ),
    "template with an unknown field": (
        BASE + ENTRY % ("'{mu} {other}'", ", mu: [1, 2]"),
        r"\{other\} is not a swept option",
    ),
    "positional template field": (
        BASE + ENTRY % ("'{0}'", ", mu: [1, 2]"),
        r"template fields are plain option names",
    ),
    "template reaching an attribute": (
        BASE + ENTRY % ("'{mu.__doc__}'", ", mu: [1, 2]"),
        r"template fields are plain option names",
    ),
    "template with a huge width": (
        BASE + ENTRY % ("'{mu:>3000000000}'", ", mu: [1, 2]"),
        r"template fields are plain option names",
    ),
    "label with NUL": (BASE + ENTRY % ('"a\\0b"', ""), r"printable single-line text.*U\+0000"),
    "label with right-to-left override": (
        BASE + ENTRY % ('"a\\u202eb"', ""),
        r"printable single-line text.*U\+202E",
    ),
    "label with a newline": (
        BASE + ENTRY % ('"a\\n| fake | row |"', ""),
        r"printable single-line text.*U\+000A",
    ),
    "compare_with absolute": (
        BASE + "compare_with: /etc/shadow\n" + ENTRY % ("E", ""),
        r"compare_with: '/etc/shadow' must be a \.csv path inside the project",
    ),
    "compare_with climbing out": (
        BASE + "compare_with: ../../x.csv\n" + ENTRY % ("E", ""),
        r"must be a \.csv path inside the project",
    ),
    "compare_with not a CSV": (
        BASE + "compare_with: pyproject.toml\n" + ENTRY % ("E", ""),
        r"must be a \.csv path",
    ),
    "8 options x 20 values": (
        BASE
        + "players:\n  - {label: E, player: ga, "
        + ", ".join(f"o{i}: [{', '.join(map(str, range(20)))}]" for i in range(8))
        + "}\n",
        r"expand into 25,600,000,000 entries, more than the limit of 1,000.*--allow-large",
    ),
    "a billion runs": (
        BASE + "runs: 1000000000\n" + ENTRY % ("E", ""),
        r"27,000,000,000 games, more than the limit of 10,000,000.*--allow-large",
    ),
    "archive population beyond memory": (
        BASE
        + "players:\n  - {label: A, player: archive, mu: 1000000000000, "
        + "population_size: 100000000}\n",
        r"needs about [\d,.]+ (GiB|TiB|PiB) .* more than the [\d,.]+ GiB allowed.*--allow-large",
    ),
    "misspelt key": (
        BASE + "players:\n  - {label: E, plyer: entropy}\n",
        r"players\.0\.player: required key is missing; 'plyer' is given: did you mean 'player'",
    ),
    "misspelt top-level key": (BASE + "seeed: 3\n" + ENTRY % ("E", ""), r"did you mean 'seed'"),
    "sample larger than the space": (
        "name: x\ngame: {pegs: 4, colors: 6}\nsecrets: {sample: 5000}\n" + ENTRY % ("E", ""),
        r"5000 secrets cannot be drawn without replacement from the 1296 codes.*replace: true",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_config_gets_one_line(fails: Failure, tmp_path: Path, case: str) -> None:
    text, pattern = CASES[case]
    run_config(fails, tmp_path, text, pattern)


def test_runs_zero_and_unknown_player(fails: Failure, tmp_path: Path) -> None:
    config = write_yaml(tmp_path / "c.yaml")
    fails("run", config, "--runs", "0", pattern=r"--runs must be at least 1")
    other = write_yaml(tmp_path / "d.yaml", players=[{"label": "X", "player": "nobody"}])
    fails("run", other, pattern=r"unknown player 'nobody'")


def test_allow_large_lifts_the_limits(tmp_path: Path) -> None:
    from evo_mastermind.runner.config import NO_LIMITS, PlanLimits, load_config
    from evo_mastermind.runner.plan import check_plan, estimate_plan

    config = load_config(write_yaml(tmp_path / "c.yaml", runs=200_000), limits=NO_LIMITS)
    estimate = estimate_plan(config)
    assert estimate.games == 2 * 200_000 * 27
    with pytest.raises(Exception, match="10,000,000"):
        check_plan(estimate, PlanLimits())
    assert check_plan(estimate, NO_LIMITS) is None


def test_nothing_written_by_a_refused_config(fails: Failure, played: Path, tmp_path: Path) -> None:
    before = snapshot(played)
    path = tmp_path / "bad.yaml"
    path.write_text(BASE + "game: {pegs: 5, colors: 8}\n" + ENTRY % ("E", ""))
    fails("run", path, "--out", played, "--resume", pattern="given twice")
    assert snapshot(played) == before
