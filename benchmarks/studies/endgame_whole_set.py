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

``--value N`` prices the two choices themselves at the first ``N`` touched moves (over the
directories pooled, by secret), without the luck of the rest of the game: each pick is
followed by the exact end game's optimum over every part it leaves (the consistent codes and
the 100 best-splitting codes one peg away as guesses, ``--work`` units a part), each code of
the set equally likely; the mean difference of the two expected guesses and its standard
error (positions whose parts ran out of work are left out, and counted).
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
from evo_mastermind.codes import Code, CodeSpace
from evo_mastermind.evolution.fitness import History
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.players import make_player
from evo_mastermind.players.endgame import EndGame
from evo_mastermind.players.sampler import SamplerParams
from evo_mastermind.runner import ResultsDir, load_config
from evo_mastermind.sampling import Constraints, consistent_codes, count_consistent
from evo_mastermind.scoring import Response, score
from evo_mastermind.seeding import game_rng

WITH = " + whole sets"
"""What the option's entry is called beside the sampler's label."""


def touched(space: CodeSpace, secret: str, moves: list[str], mu: int, whole_set: int) -> int:
    """Moves played before the one chosen over a set of more than ``mu``, at most ``whole_set``.

    0 when the game met no such set (the first move is never one). Sets only shrink along a
    game: counted from the last history back, the first set above ``whole_set`` ends the
    search.
    """
    code = space.parse(secret)
    guesses = [space.parse(guess) for guess in moves[:-1]]
    responses = [score(guess, code) for guess in guesses]
    for played in range(len(guesses), 0, -1):
        size = count_consistent(_constraints(space, guesses[:played], responses[:played]))
        if size > whole_set:
            return 0
        if size > mu:
            return played
    return 0


def _constraints(space: CodeSpace, guesses: list[Code], responses: list[Response]) -> Constraints:
    return Constraints.from_responses(space, np.stack(guesses), responses)


def pick_value(
    space: CodeSpace, guesses: list[Code], responses: list[Response], pick: Code, work: int
) -> float | None:
    """Expected guesses from a position when ``pick`` is played, then the optimum.

    Over the consistent set of the history, each code equally likely: one guess, then the
    exact end game's optimum over each part ``pick`` leaves (the consistent codes and the
    100 best-splitting codes one peg away as guesses, ``work`` units a part); None when a
    part's search runs out of work.
    """
    members = consistent_codes(_constraints(space, guesses, responses))
    endgame = EndGame(space, SamplerParams(endgame=members.shape[0], endgame_work=work))
    total = 0.0
    for response in {score(pick, member) for member in members}:
        if response.black == space.pegs:
            continue  # the secret was the pick: nothing more to play
        history = History(space.pegs, space.colors)
        for guess, answer in zip([*guesses, pick], [*responses, response], strict=True):
            history.add(guess, answer)
        endgame.start()
        if endgame.guess(history) is None or endgame.expected is None:
            return None
        part = int(count_consistent(Constraints.of(space, history)))
        total += (endgame.expected - len(history)) * part
    return 1.0 + total / members.shape[0]


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
        at = touched(space, secret, moves, int(options["mu"]), whole_set)
        hit = at > 0
        if not hit and untouched_checked >= check:
            replayed.append({**row, "touched": False, "at": 0})
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
            {
                **row,
                "n_guesses": result.n_guesses,
                "player_seconds": seconds,
                "touched": hit,
                "at": at,
                "moves": [move.guess for move in result.moves],
            }
        )
    plain = pd.DataFrame(replayed)
    option = games.assign(
        label=games["label"] + WITH,
        touched=plain["touched"].to_numpy(),
        at=plain["at"].to_numpy(),
    )
    return pd.concat([plain, option]).assign(results=results.name)


def values(games: pd.DataFrame, n: int, work: int) -> dict[str, Any]:
    """Both players' picks at the first ``n`` touched moves, each followed by the optimum."""
    hit = games[games["touched"].astype(bool)]
    plain = hit[~hit["label"].str.endswith(WITH)].sort_values(["results", "secret", "occurrence"])
    option = hit[hit["label"].str.endswith(WITH)].sort_values(["results", "secret", "occurrence"])
    differences, sizes, same, missed = [], [], 0, 0
    rows = zip(plain.head(n).to_dict("records"), option.head(n).to_dict("records"), strict=True)
    for base, new in rows:
        space = CodeSpace(int(base["pegs"]), int(base["colors"]))
        at, secret = int(base["at"]), space.parse(str(base["secret"]))
        before = [space.parse(str(move)) for move in new["moves"][:at]]
        if [space.format(code) for code in before] != list(base["moves"][:at]):
            raise ValueError(f"the games of {base['secret']} differ before the touched move")
        responses = [score(code, secret) for code in before]
        picks = [space.parse(str(moves[at])) for moves in (base["moves"], new["moves"])]
        if np.array_equal(picks[0], picks[1]):
            same += 1
            differences.append(0.0)
            continue
        found = [pick_value(space, before, responses, pick, work) for pick in picks]
        if found[0] is None or found[1] is None:
            missed += 1
            continue
        differences.append(found[1] - found[0])
        sizes.append(int(count_consistent(_constraints(space, before, responses))))
    spread = np.asarray(differences)
    return {
        "positions": len(differences),
        "same_pick": same,
        "missed": missed,
        "set_sizes": [min(sizes), max(sizes)] if sizes else [],
        "difference": round(float(spread.mean()), 4) if spread.size else None,
        "standard_error": round(float(spread.std(ddof=1) / np.sqrt(spread.size)), 4)
        if spread.size > 1
        else None,
    }


def main() -> None:
    """Pair each directory's games with the sampler's and record the pooled figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, nargs="+", help="results of the option's entry")
    parser.add_argument(
        "--check", type=int, default=5, metavar="N", help="untouched games replayed as a check"
    )
    parser.add_argument(
        "--value",
        type=int,
        default=0,
        metavar="N",
        help="value both picks at the first N touched moves with the optimum after them",
    )
    parser.add_argument(
        "--work", type=int, default=1_000_000_000, help="work units of a part's search"
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
    if args.value:
        figures["values"] = values(games, args.value, args.work)
    name = "+".join(path.name for path in args.results)
    record(f"endgame_whole_set_{name}", figures)


if __name__ == "__main__":
    main()
