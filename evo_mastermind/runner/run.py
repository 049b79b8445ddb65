"""Running an experiment: plan the missing games, ship batches, store each finished batch.

Batches grow adaptively (aiming at :data:`TARGET_TASK_SECONDS` per task from the seconds
per game measured so far); since every game seeds from its own identity, batching never
changes a result.
"""

from __future__ import annotations

import contextlib
import json
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
from tqdm import tqdm

from evo_mastermind import messages
from evo_mastermind.codes import InvalidGameError
from evo_mastermind.execution import Executor
from evo_mastermind.files import check_writable_folder
from evo_mastermind.runner.config import ExperimentConfig
from evo_mastermind.runner.crash import PlayerCrash, PlayerCrashError
from evo_mastermind.runner.plan import GameKey, Group, make_batch, plan_groups
from evo_mastermind.runner.provenance import Provenance, current_provenance, modules_of
from evo_mastermind.runner.record import ExperimentRecord
from evo_mastermind.runner.storage import NewerRecordError, ResultsDir, ResultsError
from evo_mastermind.runner.worker import play_batch

TARGET_TASK_SECONDS = 2.0
FIRST_BATCH_GAMES = 8
MAX_BATCH_GAMES = 5000
GROWTH = 8  # a batch is at most this many times its group's previous one


class RunnerError(InvalidGameError):
    """A run that cannot start as asked (e.g. results already in the way)."""


@dataclass(frozen=True)
class RunOutcome:
    """What a call to :func:`run_experiment` did."""

    played: int
    already_done: int
    seconds: float


def manifest_of(
    config: ExperimentConfig, games: int, provenance: list[Provenance] | None = None
) -> ExperimentRecord:
    """The experiment record written beside the games (``games``: how many are planned)."""
    return ExperimentRecord.of(config, games, provenance)


def code_provenance(config: ExperimentConfig) -> Provenance:
    """The code that plays ``config``'s games.

    Its plugins, and the modules of its players and of the heuristics their options name.
    """
    from evo_mastermind.heuristics import HeuristicError, known_heuristic
    from evo_mastermind.players.base import known_player

    sources: list[Any] = []
    for entry in config.entries():
        sources.append(known_player(entry.player))
        for option, value in entry.params.items():
            if "heuristic" in option and isinstance(value, str):
                # A choice that is not a registered heuristic (lookahead) has no code of its own.
                with contextlib.suppress(HeuristicError):
                    sources.append(known_heuristic(value).score)
    return current_provenance([*config.plugins, *modules_of(sources)])


def check_out(results: ResultsDir) -> None:
    """Refuse a path that is a file, cannot be written, or is a directory we did not write.

    Raises:
        RunnerError: with the reason and what to do.
        PathError: a place where the directory cannot be made or written.
    """
    results.check_usable()
    check_writable_folder(results.path, "results directory")  # before any game is played
    if not results.is_empty() and not results.owned():
        raise RunnerError(
            f"{results.path} is not empty and was not written by evo-mastermind; choose an "
            "empty or new --out directory (--force never replaces files it did not write)"
        )


def prepare(
    results: ResultsDir,
    config: ExperimentConfig,
    resume: bool,
    force: bool,
    notify: Callable[[str], None] = messages.notify,
    provenance: Provenance | None = None,
    accept_changed_code: bool = False,
) -> list[Provenance]:
    """Check the directory against the flags; clear it for ``force``.

    A resumed run may add runs or players (only their games are played); damaged shards
    are moved aside and their games replayed. Games played by another version of the tool
    or of a plugin (``provenance`` against the record's) are added only with
    ``accept_changed_code``.

    Returns:
        The provenance to record, oldest first: the stored one(s), and ``provenance`` when it
        differs from the last.

    Raises:
        RunnerError: results are present without ``resume``/``force``, were made by a
            different config or by changed code, or hold a shard of another experiment.
    """
    fresh = [provenance] if provenance is not None else []
    if force:
        results.clear()
        return fresh
    results.remove_partial_shards()
    if not results.holds_results():
        return fresh  # nothing played yet (e.g. a run stopped before its first game)
    if not resume:
        raise RunnerError(
            f"{results.path} already holds results; use --resume to finish that run "
            "or --force to replace it"
        )
    try:
        record = results.read_manifest() if results.manifest_path.exists() else None
    except NewerRecordError as error:
        raise RunnerError(
            f"{error}; it is left untouched (choose another --out to run with this version)"
        ) from None
    except ResultsError as error:
        damaged: ResultsError | None = error
        record = None
    else:
        damaged = None
    # Without games (e.g. a fresh clone holding only committed reports) nothing can be mixed.
    history = fresh
    if record is not None and results.shards():
        history = _check_code(results, record.provenance, provenance, accept_changed_code, notify)
        _check_extension(results, record, config, notify)
    elif results.shards():
        check_stored_options(results, config)
    if damaged is not None:  # said once the stored games are known to match the config
        notify(f"warning: {damaged}; it is rewritten from the config")
    problems = results.shard_problems(config.identity(), {e.label for e in config.entries()})
    for problem in problems:
        if problem.kind == "foreign":
            raise RunnerError(problem.line(results))
    for problem, moved in zip(problems, results.set_aside_damaged(problems), strict=True):
        notify(
            f"warning: {problem.path} is damaged ({problem.detail}); moved to {moved}, "
            "its games are played again"
        )
    return history


def _check_code(
    results: ResultsDir,
    stored: list[Provenance],
    provenance: Provenance | None,
    accept_changed_code: bool,
    notify: Callable[[str], None],
) -> list[Provenance]:
    """Refuse to add games played by changed code unless accepted; the provenance to record."""
    if provenance is None:
        return stored
    if not stored:  # a record written before provenance was kept: nothing to compare with
        notify(
            f"warning: {results.path} does not record the code its games were played with; "
            "the games added now are recorded as played by this version"
        )
        return [provenance]
    changes = provenance.changes_from(stored[-1])
    if changes and not accept_changed_code:
        raise RunnerError(
            f"{results.path} holds games played by other code ({'; '.join(changes)}); "
            "use --force to replace them, another --out, or --accept-changed-code to add "
            "games of this code to them knowingly"
        )
    if changes:
        notify(
            f"warning: adding games played by changed code ({'; '.join(changes)}); the "
            "record and the report list both"
        )
    return stored if provenance == stored[-1] else [*stored, provenance]


def _check_extension(
    results: ResultsDir,
    record: ExperimentRecord,
    config: ExperimentConfig,
    notify: Callable[[str], None],
) -> None:
    """Allow a resumed config that only adds runs or players; refuse any other change."""
    if record.fingerprint == config.fingerprint():
        return
    changed = RunnerError(
        f"{results.path} holds results of a different configuration (games, secrets, seed or "
        "limits changed); use --force to replace them, or another --out"
    )
    if record.identity != config.identity():
        raise changed
    stored = {entry.label: entry.model_dump() for entry in record.players}
    entries = {entry.label: entry.model_dump() for entry in config.entries()}
    for label, entry in stored.items():
        if label not in entries:
            raise RunnerError(
                f"player {label!r} has games in {results.path} but is no longer in the config; "
                "put it back, or use --force to replace every result"
            )
        if entries[label] != entry:
            raise RunnerError(
                f"player {label!r} changed its player or options since its games were stored; "
                "give the new options a new label, or use --force"
            )
    runs = record.runs
    if config.runs < runs:
        raise RunnerError(
            f"{results.path} holds {runs} runs but the config asks for {config.runs}; "
            "ask for at least as many runs, or use --force"
        )
    added = [label for label in entries if label not in stored]
    news = []
    if config.runs > runs:
        news.append(f"runs {runs} to {config.runs - 1}")
    if added:
        news.append(f"players {', '.join(added)}")
    notify(f"extending the stored results: playing only the new games ({'; '.join(news)})")


def check_stored_options(results: ResultsDir, config: ExperimentConfig) -> None:
    """Without a readable record, check the stored games' own player and options.

    Raises:
        RunnerError: a label whose stored games were played by another player or with
            other options than the config gives it (naming the label and the option).
    """
    entries = {entry.label: entry for entry in config.entries()}
    for label, player, params_json in sorted(results.stored_players()):
        entry = entries.get(label)
        if entry is None:
            raise RunnerError(
                f"player {label!r} has games in {results.path} but is not in the config "
                "(checked on the stored games: experiment.json is missing or unreadable); put "
                "it back, or use --force to replace every result"
            )
        if entry.player != player:
            raise RunnerError(
                f"player {label!r} has games in {results.path} played by {player!r}, but the "
                f"config gives it {entry.player!r} (checked on the stored games: "
                "experiment.json is missing or unreadable); give it a new label, or use --force"
            )
        stored = json.loads(params_json)
        if stored != entry.params:
            option = sorted(
                key
                for key in {*stored, *entry.params}
                if stored.get(key, _UNSET) != entry.params.get(key, _UNSET)
            )[0]
            was = _option_text(stored, option)
            now = _option_text(entry.params, option)
            raise RunnerError(
                f"player {label!r} has games in {results.path} played with {was}, "
                f"but the config gives {now} (checked on the stored games: experiment.json is "
                "missing or unreadable); give the new options a new label, or use --force"
            )


_UNSET = object()


def _option_text(params: dict[str, Any], option: str) -> str:
    return f"{option}={params[option]!r}" if option in params else f"{option} at its default"


def run_experiment(
    config: ExperimentConfig,
    config_path: Path,
    out: Path,
    executor: Executor,
    resume: bool = False,
    force: bool = False,
    progress: bool = True,
    notify: Callable[[str], None] = messages.notify,
    accept_changed_code: bool = False,
) -> RunOutcome:
    """Play every game of ``config`` not yet stored in ``out``, holding its lock.

    ``accept_changed_code`` lets a resumed run add games played by another version of the
    tool or of a plugin than the stored games (the record then lists both).
    """
    started = time.perf_counter()
    results = ResultsDir(out)
    config_text = config_path.read_text(encoding="utf-8")  # before --force may clear it
    check_out(results)
    with results.lock(notify):
        history = prepare(
            results, config, resume, force, notify, code_provenance(config), accept_changed_code
        )
        results.crash_log.unlink(missing_ok=True)  # a crash of an earlier attempt, now replayed
        groups = plan_groups(config)
        planned = sum(len(group.keys) for group in groups)
        results.write_manifest(manifest_of(config, planned, history), config_text)
        done = results.done_keys()
        todo = [(group, [key for key in group.keys if key not in done]) for group in groups]
        todo = [(group, keys) for group, keys in todo if keys]
        total = sum(len(keys) for _, keys in todo)
        if done:
            _say_partial_log(results, config, total, notify)
        bar = tqdm(
            total=total,
            unit="game",
            desc=config.name,
            file=sys.stderr,
            disable=not progress,
            smoothing=0.05,
            dynamic_ncols=True,
        )
        try:
            _play_all(config, results, executor, todo, bar)
        finally:
            bar.close()
    return RunOutcome(total, len(done), time.perf_counter() - started)


def _say_partial_log(
    results: ResultsDir, config: ExperimentConfig, todo: int, notify: Callable[[str], None]
) -> None:
    """One line when a resumed run leaves the move log covering only some games.

    ``log: moves`` turned on logs only the games played from now on; turned off, the games
    played now go unlogged beside logged ones. The convergence readers say so too
    (:func:`evo_mastermind.analysis.convergence.log_gaps`).
    """
    from evo_mastermind.players import known_player
    from evo_mastermind.players.evolutionary import EvolutionaryPlayer

    stored, logged = results.logged_counts()
    keeping = {  # the players that keep a logbook: the evolutionary ones
        entry.label
        for entry in config.entries()
        if issubclass(known_player(entry.player), EvolutionaryPlayer)
    }
    if config.log == "moves":
        missing = {label: stored[label] - logged[label] for label in sorted(keeping)}
        missing = {label: count for label, count in missing.items() if count}
        if missing:
            games = sum(missing.values())
            now = f"{todo:,}" if todo else "none: every game is stored"
            notify(
                f"warning: log: moves logs only the games played now ({now}); the {games:,} "
                f"games already stored of {', '.join(missing)} were played without it and "
                "stay out of the move log, which is therefore partial (the convergence "
                "table and plot say so); to log every game, run again with --force"
            )
    elif todo and any(logged[label] for label in keeping):
        notify(
            f"warning: the stored games keep a move log but log: moves is off now: the {todo:,} "
            "games played now are not logged, so the move log is partial; put 'log: moves' "
            "back in the config to log them"
        )


class _GroupQueue:
    """The unplayed games of one player entry, cut into batches sized from measured speed.

    Seconds per game are learnt per game size; a size not yet measured is assumed as slow
    as the slowest measured so far, so a batch reaching into bigger games stays short.
    """

    def __init__(self, group: Group, keys: list[GameKey], fixed: int | None) -> None:
        self.group = group
        self.keys = keys
        self.position = 0
        self.fixed = fixed
        self.last_size = FIRST_BATCH_GAMES // 2
        self.seconds: dict[tuple[int, int], float] = {}

    def remaining(self) -> int:
        return len(self.keys) - self.position

    def next_keys(self, workers: int) -> tuple[GameKey, ...]:
        if self.fixed is not None:
            size = self.fixed
        elif not self.seconds:
            size = FIRST_BATCH_GAMES
        else:
            # Leave enough batches that every worker stays busy to the end.
            limit = min(self.last_size * GROWTH, MAX_BATCH_GAMES)
            limit = min(limit, math.ceil(self.remaining() / workers))
            slowest = max(self.seconds.values())
            size, planned = 0, 0.0
            for key in self.keys[self.position : self.position + limit]:
                planned += max(self.seconds.get((key.pegs, key.colors), slowest), 1e-6)
                size += 1
                if planned >= TARGET_TASK_SECONDS:
                    break
        size = max(1, size)
        keys = tuple(self.keys[self.position : self.position + size])
        self.position += len(keys)
        self.last_size = len(keys)
        return keys

    def learn(self, games: pa.Table) -> None:
        # pandas, not Arrow's group_by: tables unpickled from Dask workers have unaligned
        # buffers, on which Arrow's query engine warns once per batch.
        frame = games.select(["pegs", "colors", "seconds"]).to_pandas()
        for (pegs, colors), mean in frame.groupby(["pegs", "colors"])["seconds"].mean().items():
            size, seconds = (int(pegs), int(colors)), float(mean)
            previous = self.seconds.get(size)
            self.seconds[size] = seconds if previous is None else 0.5 * (previous + seconds)


def _play_all(
    config: ExperimentConfig,
    results: ResultsDir,
    executor: Executor,
    todo: list[tuple[Group, list[GameKey]]],
    bar: tqdm[Any],
) -> None:
    queues = [_GroupQueue(group, keys, config.batch_games) for group, keys in todo]
    identity = config.identity()
    in_flight_limit = 2 * executor.workers

    def refill() -> None:
        # Round-robin over groups so every player makes progress and caches warm early.
        while executor.pending() < in_flight_limit:
            open_queues = [q for q in queues if q.remaining()]
            if not open_queues:
                return
            queue = min(open_queues, key=lambda q: q.position / len(q.keys))
            keys = queue.next_keys(executor.workers)
            executor.submit(play_batch, make_batch(config, queue.group, keys), queue)

    refill()
    while executor.pending():
        queue, batch = executor.next_done()
        games = batch.games
        if games.num_rows:
            results.write_shard(games, identity, batch.moves)
            bar.update(games.num_rows)
        if batch.crash is not None:
            bar.close()
            raise _crashed(results, batch.crash)
        queue.learn(games)
        refill()


def _crashed(results: ResultsDir, crash: PlayerCrash) -> PlayerCrashError:
    """The one-line error of a crashed player, its traceback written to the results log."""
    log: Path | None = results.crash_log
    try:
        results.crash_log.write_text(crash.log_text(), encoding="utf-8")
    except OSError:
        log = None  # the line still names the player, game and exception
    return PlayerCrashError(crash.line(log, results.count_games()))
