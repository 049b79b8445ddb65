"""The sampler's ``whole_set`` against the same sampler without it, paired by secret.

Run with ``python -m benchmarks.studies.endgame_whole_set RESULTS [RESULTS ...]`` on the
results of a sampler entry with ``whole_set`` (``scaling/endgame_wholeset_8x12`` and its
second sample), whose label is the committed sampler's: each game draws the same numbers
and is, move for move, the sampler's game without the option until the consistent set holds
more than μ and at most ``whole_set`` codes (a *touched* game). Each game's histories are
counted exactly, from its end back, to find the touched ones; those are replayed without the
option, each with the generator the run gave it (the sampler's committed game), and the
others are the same game: ``--check N`` replays the first ``N`` untouched games of each
directory without the option and refuses to go on unless they are identical.

Printed and recorded (``benchmarks/results/endgame_whole_set_<directory names>.json``), per
directory and pooled through :func:`benchmarks.studies.paired.compare`: both players' mean
guesses (the sampler's reproduces its committed mean, a check of the pairing), the paired
difference with its standard error and the Wilcoxon signed-rank p, their 95 % intervals
(normal, over the games), the touched games and the difference over them alone. CPU seconds
a game: the run's for the option; for the sampler, the replays' on touched games and the
run's on the others (the same moves; the option's counting of large sets included).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from benchmarks._record import record
from benchmarks.studies.paired import compare
from evo_mastermind.codes import CodeSpace
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.players import make_player
from evo_mastermind.runner import ResultsDir, load_config
from evo_mastermind.sampling import Constraints, count_consistent
from evo_mastermind.scoring import score
from evo_mastermind.seeding import game_rng

WITH = " + whole sets"
"""What the option's entry is called beside the sampler's label."""


def touched(space: CodeSpace, secret: str, moves: list[str], mu: int, whole_set: int) -> bool:
    """Whether a move of this game was chosen over a set of more than ``mu``, at most ``whole_set``.

    Sets only shrink along a game: counted from the last history back, the first set above
    ``whole_set`` ends the search.
    """
    code = space.parse(secret)
    guesses = [space.parse(guess) for guess in moves[:-1]]
    responses = [score(guess, code) for guess in guesses]
    for played in range(len(guesses), 0, -1):
        constraints = Constraints.from_responses(
            space, np.stack(guesses[:played]), responses[:played]
        )
        size = count_consistent(constraints)
        if size > whole_set:
            return False
        if size > mu:
            return True
    return False


def baseline_games(results: Path, check: int) -> pd.DataFrame:
    """The option's games and the sampler's (touched ones replayed), one table."""
    seed = load_config(results / "config.yaml").seed
    games = ResultsDir(results).load_games()
    replayed, untouched_checked = [], 0
    player = None
    for row in games.to_dict("records"):
        space = CodeSpace(int(row["pegs"]), int(row["colors"]))
        options = json.loads(str(row["params"]))
        whole_set = int(options.pop("whole_set"))
        if player is None:
            player = make_player(str(row["player"]), space, options)
        moves, secret = [str(move) for move in row["moves"]], str(row["secret"])
        hit = touched(space, secret, moves, int(options["mu"]), whole_set)
        if not hit and untouched_checked >= check:
            replayed.append({**row, "touched": False})
            continue
        rng = game_rng(
            seed, str(row["label"]), int(row["run"]), secret, space.colors, int(row["occurrence"])
        )
        start = time.process_time()
        result = play_game(player, Codemaker(space, space.parse(secret)), rng)
        seconds = time.process_time() - start
        if not hit:
            untouched_checked += 1
            if [move.guess for move in result.moves] != moves:
                raise ValueError(f"{results}: the untouched game of {secret} differs")
        replayed.append(
            {**row, "n_guesses": result.n_guesses, "player_seconds": seconds, "touched": hit}
        )
    plain = pd.DataFrame(replayed)
    option = games.assign(label=games["label"] + WITH, touched=plain["touched"].to_numpy())
    return pd.concat([plain, option]).assign(results=results.name)


def main() -> None:
    """Pair each directory's games with the sampler's and record the pooled figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, nargs="+", help="results of the option's entry")
    parser.add_argument(
        "--check", type=int, default=5, metavar="N", help="untouched games replayed as a check"
    )
    args = parser.parse_args()
    tables: list[pd.DataFrame] = []
    figures: dict[str, Any] = {}
    for results in args.results:
        games = baseline_games(results, args.check)
        tables.append(games)
        labels = [str(label) for label in games["label"].unique() if not label.endswith(WITH)]
        figures[results.name] = compare(games.drop(columns="results"), labels)
    games = pd.concat(tables)
    labels = [str(label) for label in games["label"].unique() if not label.endswith(WITH)]
    figures.update(compare(games, labels))
    for label in games["label"].unique():
        guesses = games.loc[games["label"] == label, "n_guesses"].to_numpy(dtype=float)
        half = 1.96 * guesses.std(ddof=1) / np.sqrt(guesses.size)
        figures[str(label)]["interval_95"] = [
            round(float(guesses.mean() - half), 4),
            round(float(guesses.mean() + half), 4),
        ]
    hit = games[games["touched"].astype(bool)]
    figures["touched"] = {
        "games": int(len(hit) // 2),
        "share": round(len(hit) / len(games), 4),
        **compare(hit, labels)[f"{labels[0]}{WITH}"],
    }
    name = "+".join(path.name for path in args.results)
    record(f"endgame_whole_set_{name}", figures)


if __name__ == "__main__":
    main()
