"""Which test reproduces Runarsson & Merelo's groups: rank-sum tests on games or on run means?

Plays the paper's protocol on (4,6) — every secret, 10 runs, random ties, first guess
AABC — for the exhaustive players of Tables 2-6 (no EDA rows: the EDA players are not
part of this comparison), writes each root seed's games as a results directory, and
checks the significant / not-significant verdicts of every pair the paper's text states
(Runarsson & Merelo 2009, sections 3-5) under both test choices, with and without Holm's correction.

Run from the project root with ``python -m benchmarks.bench_paper_groups [--seeds 3]
[--out DIR]`` (about a minute per seed on one core).
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
import time
from pathlib import Path
from typing import Any, get_args

import pandas as pd

from benchmarks._record import record
from evo_mastermind.analysis import (
    compare_with_published,
    load_published,
    pairwise_tests,
    paper_groups,
    significant_pairs,
    summary_table,
    write_report,
)
from evo_mastermind.analysis.results import GAME_COLUMNS
from evo_mastermind.analysis.stats import TestOn
from evo_mastermind.codes import CodeSpace
from evo_mastermind.game import Codemaker, play_game
from evo_mastermind.players import make_player
from evo_mastermind.seeding import game_rng
from evo_mastermind.studies import FOLDER as STUDIES

ROOT = Path(__file__).resolve().parent.parent
EXPERIMENTS = STUDIES / "published"
SPACE = CodeSpace(4, 6)
RUNS = 10
MUS = (10, 20, 30, 40, 50)

STRATEGIES = {
    "Entropy": "entropy",
    "Most parts": "most_parts",
    "Expected size": "expected_size",
    "Worst case": "worst_case",
    "LocalEntropy": "local_entropy",
    "Random": "random",
}
ENTRIES: list[tuple[str, str, dict[str, Any]]] = [
    (label, name, {}) for label, name in STRATEGIES.items()
] + [
    (f"{label} mu={mu}", STRATEGIES[label], {"mu": mu})
    for mu in MUS
    for label in ("Entropy", "Most parts", "Expected size", "Worst case")
]

# (table, a, b, differ): every pair relation the paper's text states outright.
STATED: list[tuple[str, str, str, bool]] = [
    ("table2", "Entropy", "Most parts", False),  # "no statistical difference"
    ("table2", "Expected size", "Worst case", False),  # "statistically equivalent"
    ("table2", "Entropy", "Expected size", True),  # "also better than the worst and expected"
    ("table2", "Entropy", "Worst case", True),
    ("table2", "Most parts", "Expected size", True),
    ("table2", "Most parts", "Worst case", True),
    ("table2", "Worst case", "Random", True),  # "the worst performer is the random strategy"
    ("table2", "Expected size", "Random", True),
    ("table4", "Expected size mu=10", "Worst case mu=10", False),  # caption's exception
    ("table4", "Entropy mu=40", "Most parts mu=40", True),  # "at μ = 40 and 50 entropy is better"
    ("table4", "Entropy mu=50", "Most parts mu=50", True),
    ("table5", "Entropy mu=20", "Entropy mu=30", False),  # caption: not indicated by lines
    ("table5", "Entropy mu=20", "Entropy mu=inf", False),
    ("table5", "Entropy mu=30", "Entropy mu=40", False),  # "no advantage larger than μ = 30"
    ("table5", "Entropy mu=30", "Entropy mu=50", False),
    ("table5", "Entropy mu=30", "Entropy mu=inf", False),
    ("table5", "Entropy mu=20", "Entropy mu=40", True),  # lines, only 20-30 / 20-∞ excepted
    ("table5", "Entropy mu=20", "Entropy mu=50", True),
    ("table6", "Most parts mu=20", "Most parts mu=inf", True),  # caption
    ("table6", "Most parts mu=20", "Most parts mu=30", False),  # "no advantage larger than 20"
    ("table6", "Most parts mu=20", "Most parts mu=40", False),
    ("table6", "Most parts mu=20", "Most parts mu=50", False),
]
TABLE2_GROUPS = [["Entropy", "Most parts"], ["Expected size", "Worst case"], ["Random"]]


def play(seed: int) -> pd.DataFrame:
    """Every entry's games on (4,6): all secrets, :data:`RUNS` runs, as a games table."""
    texts = [SPACE.format(code) for code in SPACE.all_codes]
    rows = []
    for label, name, params in ENTRIES:
        player = make_player(name, SPACE, params)
        for run in range(RUNS):
            for secret in texts:
                game = play_game(
                    player,
                    Codemaker(SPACE, secret),
                    game_rng(seed, label, run, secret, SPACE.colors),
                )
                rows.append(
                    {
                        "label": label,
                        "player": name,
                        "params": json.dumps(params),
                        "run": run,
                        "secret": secret,
                        "pegs": SPACE.pegs,
                        "colors": SPACE.colors,
                        "secrets": "full",
                        "n_guesses": game.n_guesses,
                        "solved": game.solved,
                        "outcome": game.outcome,
                        "moves": [move.guess for move in game.moves],
                        "evaluations": game.stats.evaluations,
                        "distinct_codes": game.stats.distinct_codes,
                        "capped_guesses": game.stats.capped_guesses,
                        "seconds": game.seconds,
                        "player_seconds": game.player_seconds,
                    }
                )
    games = pd.DataFrame(rows, columns=list(GAME_COLUMNS))
    for column in ("evaluations", "distinct_codes", "capped_guesses"):
        games[column] = games[column].astype("Int64")
    return games


def table_games(games: pd.DataFrame, table: str) -> pd.DataFrame:
    """The games of one published table's rows, labelled as that table labels them."""
    labels = set(load_published(EXPERIMENTS / f"runarsson_merelo_2009_{table}.csv")["label"])
    # Tables 5 and 6 call the whole consistent set μ = ∞: the same games as Table 3's rows.
    infinite = {"Entropy": "Entropy mu=inf", "Most parts": "Most parts mu=inf"}
    renamed = games[games["label"].isin(infinite)].assign(
        label=lambda frame: frame["label"].map(infinite)
    )
    chosen = pd.concat([games, renamed], ignore_index=True)
    return chosen[chosen["label"].isin(labels)]


def write_directory(games: pd.DataFrame, directory: Path, seed: int) -> str:
    """Write Table 2's games as a results directory and return its report."""
    shards = directory / "games"
    shards.mkdir(parents=True, exist_ok=True)
    subset = table_games(games, "table2")
    subset.to_parquet(shards / "part-00000.parquet", index=False)
    experiment = {
        "name": f"Runarsson & Merelo 2009 table 2 (root seed {seed})",
        "pegs": 4,
        "colors": 6,
        "runs": RUNS,
        "seed": seed,
        "players": [
            {"label": label, "player": STRATEGIES[label], "params": {}}
            for label in ("Entropy", "Most parts", "Expected size", "Worst case", "Random")
        ],
        "compare_with": "published/runarsson_merelo_2009_table2.csv",
        "alpha": 0.05,
        "test_on": "games",
        "holm": False,
    }
    (directory / "experiment.json").write_text(json.dumps(experiment, indent=2))
    # compare_with is found from the project root: above the directory, else the cwd.
    return write_report(directory)


def check(games: pd.DataFrame, on: TestOn, holm: bool) -> tuple[int, list[str], bool]:
    """How many stated relations a test choice reproduces, the misses, and Table 2's groups."""
    matched, misses = 0, []
    tested: dict[str, set[frozenset[str]]] = {}
    for table, first, second, differ in STATED:
        if table not in tested:
            tests = pairwise_tests(table_games(games, table), on=on, holm=holm)
            tested[table] = significant_pairs(tests)
        found = frozenset((first, second)) in tested[table]
        if found == differ:
            matched += 1
        else:
            misses.append(f"{first} vs {second}: paper {'differ' if differ else 'same'}")
    table2 = table_games(games, "table2")
    ranked = summary_table(table2)["label"].tolist()
    groups = paper_groups(ranked, tested["table2"])
    return matched, misses, groups == TABLE2_GROUPS


def implied_by_published(games: pd.DataFrame, on: TestOn) -> tuple[int, list[str]]:
    """The stated relations a test choice gives on the paper's own figures (approximately).

    Normal approximation: run means differ when |Δmean| >= 1.96·sqrt((sd_a² + sd_b²)/10)
    with the published sds; games differ when |Δmean| >= 1.96·sqrt((s_a² + s_b²)/12960)
    with s the per-game sd of our own games of that label (the paper gives none).
    """
    matched, misses = 0, []
    for table, first, second, differ in STATED:
        published = load_published(EXPERIMENTS / f"runarsson_merelo_2009_{table}.csv")
        rows = {str(row["label"]): row for row in published.to_dict("records")}
        a, b = rows[first], rows[second]
        if on == "runs":
            scale = math.sqrt((float(a["sd"]) ** 2 + float(b["sd"]) ** 2) / RUNS)
        else:
            spread = table_games(games, table).groupby("label")["n_guesses"].std().to_dict()
            scale = math.sqrt((spread[first] ** 2 + spread[second] ** 2) / (RUNS * SPACE.size))
        found = abs(float(a["mean"]) - float(b["mean"])) >= 1.96 * scale
        if found == differ:
            matched += 1
        else:
            misses.append(f"{first} vs {second}: paper {'differ' if differ else 'same'}")
    return matched, misses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=3, help="root seeds 1..N to play")
    parser.add_argument("--out", type=Path, default=None, help="keep results directories here")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="paper_groups_"))
    figures: dict[str, object] = {"stated pair relations checked": len(STATED)}
    for seed in range(1, args.seeds + 1):
        start = time.perf_counter()
        games = play(seed)
        figures[f"seed {seed}: games played, s"] = round(time.perf_counter() - start, 1)
        for table in ("table3", "table4", "table5", "table6"):
            published = load_published(EXPERIMENTS / f"runarsson_merelo_2009_{table}.csv")
            comparison = compare_with_published(summary_table(table_games(games, table)), published)
            outside = comparison[comparison["verdict"].str.startswith("outside")]
            figures[f"seed {seed}: {table} rows outside the published range"] = (
                f"{len(outside)}/{len(comparison)}: "
                + ", ".join(f"{r.player} {r.mean:.3f}" for r in outside.itertuples())
            )
        for on in get_args(TestOn):
            matched, misses = implied_by_published(games, on)
            name = f"seed {seed}: published figures, normal approximation on {on}"
            figures[f"{name}: stated relations matched"] = f"{matched}/{len(STATED)}"
            figures[f"{name}: misses"] = misses
            for holm in (False, True):
                matched, misses, table2 = check(games, on, holm)
                name = f"seed {seed}: on {on}{' + Holm' if holm else ''}"
                figures[f"{name}: stated relations matched"] = f"{matched}/{len(STATED)}"
                figures[f"{name}: Table 2 groups reproduced"] = table2
                figures[f"{name}: misses"] = misses
        write_directory(games, out / f"seed{seed}", seed)
    figures["results directories"] = str(out)
    record("paper_groups", figures)


if __name__ == "__main__":
    main()
