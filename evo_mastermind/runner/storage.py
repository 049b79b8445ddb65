"""The results contract: the layout of a results directory, its record, lock and shards.

Layout::

    DIR/.evo-mastermind          ownership marker: this directory is the tool's
    DIR/.evo-mastermind.lock     held (flock) by the one run writing here
    DIR/experiment.json          what was run (:class:`ExperimentRecord`, versioned)
    DIR/config.yaml              the config file as given
    DIR/games/part-NNNNN.parquet one shard per finished batch, stamped with the fingerprint
    DIR/moves/part-NNNNN.parquet the move log of the games shard of the same number (``log:
                                 moves`` only), written before it, so a shard's games always
                                 have their log (:data:`MOVES_SCHEMA`)
    DIR/set-aside/               damaged shards moved out of games/ by ``--resume``
    DIR/player-error.log         the traceback of a player that raised (the run stopped)
    DIR/summary.csv, report.md, ... what ``report`` writes (:data:`REPORT_OUTPUTS`)
    DIR/plots/KIND.png           what ``plot`` writes (:data:`PLOT_OUTPUTS`)

A shard is written to a hidden temporary name and renamed into place, so a killed run
leaves only whole shards; the keys in the shards are the games already played. Only this
module names these files.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import json
import os
import socket
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from pydantic import ValidationError

from evo_mastermind.codes import InvalidGameError
from evo_mastermind.runner.plan import KEY_COLUMNS, GameKey
from evo_mastermind.runner.record import RECORD_VERSION, ExperimentRecord, as_record

GAMES_SCHEMA = pa.schema(
    [
        ("label", pa.string()),
        ("player", pa.string()),
        ("params", pa.string()),
        ("pegs", pa.int16()),
        ("colors", pa.int16()),
        ("secrets", pa.string()),
        ("run", pa.int32()),
        ("secret", pa.string()),
        ("occurrence", pa.int32()),
        ("n_guesses", pa.int32()),
        ("solved", pa.bool_()),
        ("outcome", pa.string()),
        ("moves", pa.list_(pa.string())),
        ("evaluations", pa.int64()),
        ("distinct_codes", pa.int64()),
        ("capped_guesses", pa.int64()),
        ("seconds", pa.float64()),
        ("player_seconds", pa.float64()),
        ("failure", pa.string()),
    ]
)
"""The games table: one row per game; ``evaluations`` and the like are null where not counted.

``failure`` says in words why a game that was not solved failed (null when solved)."""

MOVES_SCHEMA = pa.schema(
    [
        *[GAMES_SCHEMA.field(name) for name in KEY_COLUMNS],
        ("move", pa.int32()),
        ("generations", pa.int64()),
        ("evaluations", pa.int64()),
        ("restarts", pa.int64()),
        ("best_distance", pa.int64()),
        ("consistent", pa.int64()),
        ("capped", pa.bool_()),
    ]
)
"""The move log (``log: moves``): one row per move of a game played by a player keeping a
logbook (:class:`evo_mastermind.evolution.MoveRecord`), keyed as the games are."""

ADDED_COLUMNS = ("failure",)
"""Columns added after shards were first written: an older shard reads them as nulls."""

TIMING_COLUMNS = ["seconds", "player_seconds"]
"""Columns that measure time and so differ between otherwise identical runs."""

MARKER_NAME = ".evo-mastermind"
LOCK_NAME = ".evo-mastermind.lock"
RECORD_NAME = "experiment.json"
CONFIG_NAME = "config.yaml"
GAMES_NAME = "games"
MOVES_NAME = "moves"
SET_ASIDE_NAME = "set-aside"
CRASH_LOG_NAME = "player-error.log"
SHARD_FINGERPRINT_KEY = b"evo_mastermind.fingerprint"
"""Parquet schema metadata naming the experiment a shard belongs to."""

SUMMARY_FILE = "summary.csv"
"""The paper's table of every player and block."""
TESTS_FILE = "wilcoxon.csv"
"""Every tested pair of players (rank-sum tests)."""
A12_FILE = "a12.csv"
"""The Vargha–Delaney A12 of every tested pair."""
INTERVALS_FILE = "intervals.csv"
"""Bootstrap confidence intervals of each player's mean guesses."""
BY_SIZE_FILE = "by_size.csv"
"""Per player and block figures, when several blocks were played."""
TOURNAMENT_FILE = "tournament.csv"
"""A tournament's record per player, size and secret source."""
SCORE_TESTS_FILE = "score_tests.csv"
"""A tournament's tests of per-round scores."""
PAIRED_TESTS_FILE = "paired_tests.csv"
"""Wilcoxon signed-rank tests of every pair, paired by secret (Holm-corrected)."""
MEAN_RANKS_FILE = "mean_ranks.csv"
"""Each player's mean rank over the secrets, with the Friedman test and critical difference."""
BAYESIAN_TESTS_FILE = "bayesian_tests.csv"
"""Bayesian signed-rank tests of every pair, paired by secret."""
REPORT_FILE = "report.md"
"""The report in Markdown."""

REPORT_OUTPUTS = (
    SUMMARY_FILE,
    TESTS_FILE,
    A12_FILE,
    INTERVALS_FILE,
    BY_SIZE_FILE,
    TOURNAMENT_FILE,
    SCORE_TESTS_FILE,
    PAIRED_TESTS_FILE,
    MEAN_RANKS_FILE,
    BAYESIAN_TESTS_FILE,
    REPORT_FILE,
)
"""Every file ``report`` may write: ``--force`` removes them all, whichever kind of report
the new experiment writes, so none of an earlier experiment's is left behind."""

PLOTS_NAME = "plots"
"""The folder ``plot`` writes its default files to."""
PLOT_OUTPUTS = tuple(
    f"{kind}.{suffix}"
    for kind in ("distribution", "cumulative", "evaluations", "heatmap", "cd", "convergence")
    for suffix in ("png", "pdf")
)
"""The default plot files (``plots/KIND.png``); anything else in ``plots/`` is the user's."""


class ResultsError(InvalidGameError):
    """A results directory that cannot be used as asked, explained in one line."""


class NewerRecordError(ResultsError):
    """``experiment.json`` written by a newer version: never read as, nor replaced by, ours."""


@dataclass(frozen=True)
class ShardProblem:
    """A shard that cannot be counted as this experiment's games."""

    path: Path
    kind: Literal["damaged", "foreign"]
    detail: str

    def line(self, results: ResultsDir) -> str:
        """One line naming the shard, what is wrong and what to do."""
        if self.kind == "foreign":
            return (
                f"{self.path} belongs to another experiment ({self.detail}); "
                f"move it out of {results.games}"
            )
        return (
            f"{self.path} is damaged ({self.detail}); rerun the config with --resume "
            f"--out {results.path} to move it to {results.set_aside} and replay its games"
        )


class ResultsDir:
    """One experiment's results directory."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.games = self.path / GAMES_NAME
        self.moves = self.path / MOVES_NAME
        self.manifest_path = self.path / RECORD_NAME
        self.marker_path = self.path / MARKER_NAME
        self.lock_path = self.path / LOCK_NAME
        self.set_aside = self.path / SET_ASIDE_NAME
        self.crash_log = self.path / CRASH_LOG_NAME

    # -- ownership ---------------------------------------------------------------------

    def check_usable(self) -> None:
        """Raise :class:`ResultsError` if the path is a file or not a directory we can use."""
        if self.path.exists() and not self.path.is_dir():
            raise ResultsError(f"{self.path} is a file, not a results directory")
        if self.games.exists() and not self.games.is_dir():
            raise ResultsError(f"{self.games} is a file; a results directory needs games/")

    def owned(self) -> bool:
        """Whether this tool wrote the directory (its marker, or a record of an older run)."""
        if self.marker_path.is_file():
            return True
        try:
            record = json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        return isinstance(record, dict) and "name" in record and "fingerprint" in record

    def claim(self) -> None:
        """Create the directory and its ownership marker."""
        self.path.mkdir(parents=True, exist_ok=True)
        if not self.marker_path.exists():
            _atomic_write_text(
                self.marker_path,
                json.dumps({"tool": "evo-mastermind", "layout": RECORD_VERSION}) + "\n",
            )

    def holds_results(self) -> bool:
        """Whether games or analyses of an earlier run are here."""
        return bool(self.shards()) or any((self.path / name).exists() for name in REPORT_OUTPUTS)

    def is_empty(self) -> bool:
        """Whether the directory is missing or holds nothing but the write lock."""
        return not self.path.exists() or all(
            entry.name == LOCK_NAME for entry in self.path.iterdir()
        )

    def shards(self) -> list[Path]:
        """Every finished shard, in name order."""
        return sorted(self.games.glob("part-*.parquet")) if self.games.is_dir() else []

    def clear(self) -> None:
        """Remove what this tool wrote (for ``--force``); refuse a directory it does not own.

        Files the user put here (and set-aside shards) stay.
        """
        if self.is_empty():
            return  # a new directory: nothing to replace
        if not self.owned():
            raise ResultsError(
                f"--force replaces only a results directory written by evo-mastermind, and "
                f"{self.path} is not one (no {MARKER_NAME} marker); choose an empty or new --out"
            )
        for shard in self.shards():
            shard.unlink()
        for shard in self.moves.glob("part-*.parquet") if self.moves.is_dir() else ():
            shard.unlink()
        self.remove_partial_shards()
        _remove_if_empty(self.games)
        _remove_if_empty(self.moves)
        for name in (*REPORT_OUTPUTS, RECORD_NAME, CONFIG_NAME, CRASH_LOG_NAME):
            (self.path / name).unlink(missing_ok=True)
        plots = self.path / PLOTS_NAME
        for name in PLOT_OUTPUTS:
            (plots / name).unlink(missing_ok=True)
        _remove_if_empty(plots)

    @contextlib.contextmanager
    def lock(self, notify: Callable[[str], None] | None = None) -> Iterator[None]:
        """Hold the directory's write lock: one run at a time writes here.

        The lock is an ``flock`` on :data:`LOCK_NAME`, released by the system when the holder
        dies, so a lock left by a killed run is taken over (and ``notify`` told so).

        Raises:
            ResultsError: another live process holds it (named in the message).
        """
        self.path.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _lock_holder(descriptor)
                raise ResultsError(
                    f"{self.path} is being written by another run ({holder}); wait for it to "
                    "finish or stop it, or choose another --out"
                ) from None
            previous = _lock_holder(descriptor)
            if previous != "an unknown process" and notify is not None:
                notify(f"took over the lock of {self.path} left by a stopped run ({previous})")
            os.ftruncate(descriptor, 0)
            os.pwrite(descriptor, _holder_text().encode(), 0)
            try:
                yield
            finally:
                os.ftruncate(descriptor, 0)
        finally:
            os.close(descriptor)  # releases the flock

    # -- the record ----------------------------------------------------------------------

    def write_manifest(
        self, record: ExperimentRecord | Mapping[str, Any], config_text: str
    ) -> None:
        """Record what is being run, atomically (with the record's version)."""
        record = as_record(record)  # never write a record that cannot be read
        written = record.model_copy(update={"version": RECORD_VERSION}).model_dump(mode="json")
        self.claim()
        _atomic_write_text(self.manifest_path, json.dumps(written, indent=2) + "\n")
        _atomic_write_text(self.path / CONFIG_NAME, config_text)

    def read_manifest(self) -> ExperimentRecord:
        """What :meth:`write_manifest` recorded, checked against :class:`ExperimentRecord`.

        Raises:
            ResultsError: unreadable, not JSON, or not an experiment record.
        """
        path = self.manifest_path
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise ResultsError(f"{path}: cannot read: {error.strerror or error}") from None
        except ValueError as error:
            raise ResultsError(f"{path} is not valid JSON ({error}); it is damaged") from None
        try:
            record = ExperimentRecord.model_validate(data)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "record"
            raise ResultsError(
                f"{path} is not an experiment record ({where}: {first['msg'].lower()})"
            ) from None
        if record.version > RECORD_VERSION:
            raise NewerRecordError(
                f"{path} has record version {record.version}, newer than this evo-mastermind "
                f"reads ({RECORD_VERSION}); upgrade evo-mastermind"
            )
        return record

    def recorded_fingerprint(self) -> str | None:
        """The fingerprint in ``experiment.json``, if there is a readable one."""
        if not self.manifest_path.exists():
            return None
        return self.read_manifest().fingerprint

    # -- shards --------------------------------------------------------------------------

    def write_shard(
        self, games: pa.Table, fingerprint: str | None = None, moves: pa.Table | None = None
    ) -> Path:
        """Write one batch's games as a new shard: temporary name first, then renamed.

        ``moves``, the batch's move log, goes first to ``moves/`` under the same number: a
        killed run may leave a log without its games (replaced when they are played again),
        never games without their log.
        """
        self.games.mkdir(parents=True, exist_ok=True)
        numbers = [int(p.stem.split("-")[1]) for p in self.shards() if _numbered(p)]
        final = self.games / f"part-{max(numbers, default=-1) + 1:05d}.parquet"
        if moves is not None:
            self.moves.mkdir(exist_ok=True)
            _atomic_write_table(moves, self.moves / final.name)
        else:  # a log left by a killed run or a set-aside shard of this number is not these games'
            (self.moves / final.name).unlink(missing_ok=True)
        if fingerprint is not None:
            games = games.replace_schema_metadata({SHARD_FINGERPRINT_KEY: fingerprint.encode()})
        _atomic_write_table(games, final)
        return final

    def load_moves(self) -> pd.DataFrame:
        """The move log of every stored game that kept one (empty without ``log: moves``).

        Only the logs of games shards present are read (one a killed run left alone is not).
        """
        names = {shard.name for shard in self.shards()}
        logs = sorted(self.moves.glob("part-*.parquet")) if self.moves.is_dir() else []
        tables = [pq.read_table(log, schema=MOVES_SCHEMA) for log in logs if log.name in names]
        if not tables:
            return MOVES_SCHEMA.empty_table().to_pandas()
        order = [*KEY_COLUMNS, "move"]
        return pa.concat_tables(tables).sort_by([(n, "ascending") for n in order]).to_pandas()

    def remove_partial_shards(self) -> None:
        """Delete temporary shards left by a killed run."""
        for folder in (self.games, self.moves):
            for leftover in folder.glob(".part-*.tmp") if folder.is_dir() else ():
                leftover.unlink()

    def shard_problems(
        self, fingerprint: str | None, labels: set[str] | None = None
    ) -> list[ShardProblem]:
        """Every shard that is damaged or belongs to another experiment.

        A shard stamped with another fingerprint is foreign; an unstamped one (written
        before shards were stamped) is foreign when it holds labels the record does not.
        """
        problems = []
        seen: set[tuple[object, ...]] = set()
        for shard in self.shards():
            try:
                table = _read_shard(shard, fingerprint, labels)
            except _ShardError as error:
                problems.append(error.problem)
                continue
            keys = set(zip(*table.select(KEY_COLUMNS).to_pydict().values(), strict=True))
            if keys & seen:
                # Written by two runs at once (before runs took a lock): replay, never count twice.
                detail = f"{len(keys & seen)} of its games are stored in an earlier shard too"
                problems.append(ShardProblem(shard, "damaged", detail))
                continue
            seen |= keys
        return problems

    def set_aside_damaged(self, problems: list[ShardProblem]) -> list[Path]:
        """Move damaged shards to :attr:`set_aside` (never deleting them); where they went."""
        moved = []
        for problem in problems:
            if problem.kind != "damaged":
                continue
            self.set_aside.mkdir(exist_ok=True)
            target = self.set_aside / problem.path.name
            number = 1
            while target.exists():
                target = self.set_aside / f"{problem.path.stem}.{number}{problem.path.suffix}"
                number += 1
            os.replace(problem.path, target)
            moved.append(target)
        return moved

    def load_games(
        self, fingerprint: str | None = None, labels: set[str] | None = None
    ) -> pd.DataFrame:
        """The whole games table, sorted by game identity (empty with the schema if none).

        Raises:
            ResultsError: a shard is damaged or foreign (one line naming it).
        """
        shards = self.shards()
        if not shards:
            return GAMES_SCHEMA.empty_table().to_pandas()
        tables = []
        for shard in shards:
            try:
                tables.append(_read_shard(shard, fingerprint, labels))
            except _ShardError as error:
                raise ResultsError(error.problem.line(self)) from None
        frame = pa.concat_tables(tables).to_pandas(types_mapper=_nullable_ints)
        return frame.sort_values(KEY_COLUMNS, kind="stable").reset_index(drop=True)

    def count_games(self) -> int:
        """Rows in the readable shards (from their footers: nothing else is read)."""
        total = 0
        for shard in self.shards():
            with contextlib.suppress(pa.ArrowException, OSError, ValueError):
                total += pq.ParquetFile(shard).metadata.num_rows
        return total

    def logged_counts(self) -> tuple[Counter[str], Counter[str]]:
        """Stored games per label, and those of them whose shard kept a move log.

        A batch logs every game of a player keeping a logbook or none (``log: moves`` was
        on or off for its run), so a shard is logged or not as a whole.
        """
        stored: Counter[str] = Counter()
        logged: Counter[str] = Counter()
        for shard in self.shards():
            with contextlib.suppress(pa.ArrowException, OSError, ValueError, KeyError):
                labels = Counter(pq.read_table(shard, columns=["label"]).column(0).to_pylist())
                stored.update(labels)
                if (self.moves / shard.name).exists():
                    logged.update(labels)
        return stored, logged

    def stored_players(self) -> set[tuple[str, str, str]]:
        """The (label, player, params JSON) of every stored game, from the readable shards."""
        found: set[tuple[str, str, str]] = set()
        for shard in self.shards():
            with contextlib.suppress(pa.ArrowException, OSError, ValueError, KeyError):
                table = pq.read_table(shard, columns=["label", "player", "params"])
                found.update(zip(*table.to_pydict().values(), strict=True))
        return found

    def done_keys(self) -> set[GameKey]:
        """The identities of every game already stored (shards checked beforehand)."""
        keys: set[GameKey] = set()
        for shard in self.shards():
            table = pq.read_table(shard, columns=KEY_COLUMNS)
            keys.update(
                GameKey(*values) for values in zip(*table.to_pydict().values(), strict=True)
            )
        return keys


class _ShardError(Exception):
    def __init__(self, problem: ShardProblem) -> None:
        super().__init__(problem.detail)
        self.problem = problem


def _read_shard(shard: Path, fingerprint: str | None, labels: set[str] | None) -> pa.Table:
    def fail(kind: Literal["damaged", "foreign"], detail: str) -> _ShardError:
        return _ShardError(ShardProblem(shard, kind, detail))

    try:
        table = pq.read_table(shard)
    except (pa.ArrowException, OSError, ValueError) as error:
        text = " ".join(str(error).split())
        raise fail("damaged", f"not a readable Parquet file: {text[:160]}") from None
    stamp = (table.schema.metadata or {}).get(SHARD_FINGERPRINT_KEY)
    if stamp is not None and fingerprint is not None and stamp.decode() != fingerprint:
        raise fail("foreign", f"fingerprint {stamp.decode()[:16]}, this one is {fingerprint}")
    for name in ADDED_COLUMNS:
        if name not in table.column_names:
            table = table.append_column(name, pa.nulls(table.num_rows, pa.string()))
    missing = [name for name in GAMES_SCHEMA.names if name not in table.column_names]
    if missing:
        raise fail("damaged", f"the games table has no column {', '.join(map(repr, missing))}")
    try:
        table = table.select(GAMES_SCHEMA.names).cast(GAMES_SCHEMA)
    except (pa.ArrowException, ValueError) as error:
        raise fail("damaged", f"columns of the wrong type: {str(error)[:160]}") from None
    if stamp is None and labels is not None:
        strangers = sorted(set(table.column("label").to_pylist()) - labels)
        if strangers:
            raise fail("foreign", f"players not in this experiment: {', '.join(strangers[:3])}")
    return table


def _atomic_write_table(table: pa.Table, final: Path) -> None:
    """Write ``table`` to a hidden temporary name beside ``final``, then rename it into place."""
    temporary = final.parent / f".{final.name}.tmp"
    pq.write_table(table, temporary)
    os.replace(temporary, final)


def _numbered(shard: Path) -> bool:
    return shard.stem.split("-")[1].isdigit() if "-" in shard.stem else False


def _remove_if_empty(folder: Path) -> None:
    with contextlib.suppress(OSError):
        folder.rmdir()


def _holder_text() -> str:
    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "started": started})


def _lock_holder(descriptor: int) -> str:
    """Who wrote the lock file, as words ("process 123 on host, started ...")."""
    try:
        holder = json.loads(os.pread(descriptor, 4096, 0).decode())
        return f"process {int(holder['pid'])} on {holder['host']}, started {holder['started']}"
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        return "an unknown process"


def _nullable_ints(arrow_type: pa.DataType) -> Any:
    # Counters absent for most players stay integers with nulls, not floats.
    return pd.Int64Dtype() if arrow_type == pa.int64() else None


def _atomic_write_text(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
