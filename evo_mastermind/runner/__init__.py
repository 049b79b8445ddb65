"""The experiment runner: YAML configs, game planning, executors and Parquet storage."""

from evo_mastermind.runner.config import ConfigError, ExperimentConfig, load_config
from evo_mastermind.runner.executors import Executor, make_executor
from evo_mastermind.runner.run import RunnerError, RunOutcome, run_experiment
from evo_mastermind.runner.storage import GAMES_SCHEMA, TIMING_COLUMNS, ResultsDir

__all__ = [
    "GAMES_SCHEMA",
    "TIMING_COLUMNS",
    "ConfigError",
    "Executor",
    "ExperimentConfig",
    "ResultsDir",
    "RunOutcome",
    "RunnerError",
    "load_config",
    "make_executor",
    "run_experiment",
]
