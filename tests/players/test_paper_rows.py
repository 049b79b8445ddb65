"""The exhaustive players' games are pinned: Table 2 replayed gives its committed rows exactly."""

from pathlib import Path

import pandas as pd
import pytest

from evo_mastermind.analysis import write_report
from evo_mastermind.runner import load_config, make_executor, run_experiment
from evo_mastermind.studies import study_path

ROOT = Path(__file__).resolve().parents[2]
PAPER_COLUMNS = ["label", "runs", "min", "mean", "median", "max", "sd", "max_guesses", "games"]


@pytest.mark.slow  # 64,800 games: about 20 s on two cores
def test_table_2_replays_its_committed_rows(tmp_path: Path) -> None:
    config_path = study_path("paper/table2")
    config = load_config(config_path)
    with make_executor("process") as executor:
        run_experiment(config, config_path, tmp_path / "table2", executor, progress=False)
    write_report(tmp_path / "table2")
    played = pd.read_csv(tmp_path / "table2" / "summary.csv")[PAPER_COLUMNS]
    committed = pd.read_csv(ROOT / "results" / "paper" / "table2" / "summary.csv")[PAPER_COLUMNS]
    pd.testing.assert_frame_equal(played, committed, check_exact=True)
