"""The exact end game against the same player without it, paired by secret.

Run with ``python -m benchmarks.studies.endgame_paired BASELINE ENDGAME [BASELINE ENDGAME
...]``: each pair is the results directory of a player (e.g. a run of
``scaling/uniform_8x12`` restricted to its ``Sampler (all)`` entry) and that of the same
entry with ``endgame`` set (``scaling/endgame_8x12``). Both entries have the same label, so
each game draws the same numbers and is the same game until the end game takes over. The
games of a pair are matched by secret (only the secrets both played: a run stopped early is
said to be partial), several pairs pooled (the two (8,12) samples). It prints, through
:func:`benchmarks.studies.paired.compare`, each side's mean guesses and CPU seconds a game
and the paired difference, with the end game's 95 % interval (normal, over the games).
Failed games are never averaged in: their count is reported, and the pairing refuses them.

With ``--expected N`` the first ``N`` paired games of each end game are replayed (each with
the generator the run gave it: the same game, checked) to read, where the end game took
over, the guesses played before plus the optimum's mean over the set it took over
(:attr:`evo_mastermind.players.endgame.EndGame.expected`): its mean is the end game's
expected guesses over those secrets, without the luck of the last draws, beside both
players' realized means over the same games; with the share of moves the end game played
and its searches that ran out of work (misses).
Figures go to ``benchmarks/results/endgame_paired_<directory names>.json``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from benchmarks._record import record
from benchmarks.studies.endgame_thresholds import Games
from benchmarks.studies.paired import PAIR_COLUMNS, compare
from evo_mastermind.codes import CodeSpace
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.players import make_player
from evo_mastermind.runner import ResultsDir, load_config
from evo_mastermind.seeding import game_rng

WITH = " + end game"
"""What the end game's entry is called beside the player's own label."""


def paired_games(baseline: Path, endgame: Path) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The games both directories played of each label they share, the end game's renamed."""
    plain, exact = ResultsDir(baseline).load_games(), ResultsDir(endgame).load_games()
    keys = [column for column in PAIR_COLUMNS if column in plain.columns] + ["label"]
    common = plain[keys].merge(exact[keys], on=keys)
    plain = plain.merge(common, on=keys)
    exact = exact.merge(common, on=keys).assign(label=lambda rows: rows["label"] + WITH)
    played = {
        "secrets_paired": len(common),
        "baseline_games": len(ResultsDir(baseline).load_games()),
        "endgame_games": len(ResultsDir(endgame).load_games()),
        "failed_endgame_games": int((~exact["solved"]).sum()),
    }
    return pd.concat([plain, exact]).assign(results=endgame.name), played


def expected_guesses(endgame: Path, games: pd.DataFrame, n: int) -> dict[str, Any]:
    """The end game's games replayed: its expected guesses from where it took over."""
    seed = load_config(endgame / "config.yaml").seed
    rows = games[games["label"].str.endswith(WITH)].head(n)
    replayed = Games()
    player = None
    for row in rows.to_dict("records"):
        space = CodeSpace(int(row["pegs"]), int(row["colors"]))
        if player is None:
            player = make_player(str(row["player"]), space, json.loads(str(row["params"])))
        label, secret = str(row["label"]).removesuffix(WITH), str(row["secret"])
        rng = game_rng(seed, label, int(row["run"]), secret, space.colors, int(row["occurrence"]))
        result = play_game(player, Codemaker(space, space.parse(secret)), rng)
        if result.n_guesses != row["n_guesses"]:
            raise ValueError(f"{endgame}: the game of {secret} did not replay")
        replayed.add(result.n_guesses, player.endgame)  # type: ignore[attr-defined]
    keys = set(zip(rows["secret"], rows["occurrence"], strict=True))
    plain = games[~games["label"].str.endswith(WITH)]
    plain = plain[[key in keys for key in zip(plain["secret"], plain["occurrence"], strict=True)]]
    return {
        "games": len(replayed.guesses),
        "taken_over": replayed.taken_over,
        "endgame_share_of_moves": round(replayed.moves / sum(replayed.guesses), 4),
        "misses": replayed.misses,
        "baseline_realized": round(float(plain["n_guesses"].mean()), 4),
        "endgame_realized": round(float(np.mean(replayed.guesses)), 4),
        "endgame_expected": round(float(np.mean(replayed.expected)), 4),
    }


def main() -> None:
    """Pair each baseline directory with its end game's and record the pooled figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairs", type=Path, nargs="+", help="BASELINE ENDGAME directories")
    parser.add_argument(
        "--expected", type=int, default=0, metavar="N", help="replay N games of each end game"
    )
    args = parser.parse_args()
    if len(args.pairs) % 2:
        parser.error("give the directories in pairs: BASELINE ENDGAME")
    tables, figures = [], {}
    for baseline, endgame in zip(args.pairs[::2], args.pairs[1::2], strict=True):
        games, played = paired_games(baseline, endgame)
        tables.append(games)
        figures[endgame.name] = played
        if args.expected:
            figures[endgame.name]["expected"] = expected_guesses(endgame, games, args.expected)
    games = pd.concat(tables)
    labels = [str(label) for label in games["label"].unique() if not str(label).endswith(WITH)]
    figures.update(compare(games, labels))
    for label in games["label"].unique():
        guesses = games.loc[games["label"] == label, "n_guesses"].to_numpy(dtype=float)
        half = 1.96 * guesses.std(ddof=1) / np.sqrt(guesses.size)
        figures[str(label)]["interval_95"] = [
            round(guesses.mean() - half, 4),
            round(guesses.mean() + half, 4),
        ]
    name = "+".join(path.name for path in args.pairs[1::2])
    record(f"endgame_paired_{name}", figures)


if __name__ == "__main__":
    main()
