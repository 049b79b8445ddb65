import re
from pathlib import Path

import matplotlib.image
import pandas as pd
import pytest

from evo_mastermind.analysis.plots import (
    DPI,
    EVALUATIONS_SIZE,
    HEATMAP_ANNOTATED_UP_TO,
    HEATMAP_CELL,
    PANEL_SIZE,
    PLOT_KINDS,
    make_figure,
    player_colours,
    plot_results,
    save_figure,
)
from evo_mastermind.analysis.results import AnalysisError
from tests.analysis.synthetic import STRONG, WEAK, experiment_record, make_games, write_results

MIDDLE = (0.001, 0.015, 0.07, 0.33, 0.45, 0.12, 0.014)


def single_size() -> pd.DataFrame:
    return make_games(
        {"Entropy": STRONG, "EDA + f_l": MIDDLE, "EDA + f": WEAK, "Random": WEAK},
        runs=3,
        games_per_run=60,
        evaluations={"EDA + f_l": 900.0, "EDA + f": 300.0},
        unsolved={"EDA + f": 0.05},
    )


def several_sizes(sources: tuple[str, ...] = ("full",)) -> pd.DataFrame:
    tables = [
        make_games(
            {"Entropy": STRONG, "Archive": MIDDLE},
            runs=2,
            games_per_run=20,
            pegs=pegs,
            colors=colors,
            secrets=source,
            evaluations={"Archive": 1000.0 * pegs},
            unsolved={"Archive": 0.1},
            seed=pegs * colors,
        )
        for pegs, colors in ((4, 6), (5, 8), (6, 9))
        for source in sources
    ]
    # One player skips a size: its cell stays blank.
    return pd.concat(tables, ignore_index=True).query("not (label == 'Entropy' and pegs == 6)")


def png_size(path: Path) -> tuple[int, int]:
    image = matplotlib.image.imread(path)
    assert image.ndim == 3 and image.shape[2] in (3, 4)
    assert image.std() > 0  # something was drawn
    return image.shape[1], image.shape[0]


def pdf_points(path: Path) -> tuple[float, float]:
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    match = re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    assert match is not None
    return float(match.group(1)), float(match.group(2))


def expected_inches(kind: str, games: pd.DataFrame) -> tuple[float, float]:
    blocks = len(games.groupby(["pegs", "colors", "secrets"]))
    if kind in ("distribution", "cumulative"):
        return PANEL_SIZE[0], PANEL_SIZE[1] * blocks
    if kind == "evaluations":
        return EVALUATIONS_SIZE
    rows = len(games[["label", "secrets"]].drop_duplicates())
    return HEATMAP_CELL[0] * 3, HEATMAP_CELL[1] * rows


CASES = [
    ("distribution", single_size),
    ("cumulative", single_size),
    ("evaluations", single_size),
    ("distribution", several_sizes),
    ("cumulative", several_sizes),
    ("evaluations", several_sizes),
    ("heatmap", several_sizes),
    ("heatmap", lambda: several_sizes(("full", "scsa:insert_colors"))),
]


@pytest.mark.parametrize(("kind", "make"), CASES)
def test_every_kind_renders_to_png_and_pdf_of_the_expected_size(
    kind: str, make: object, tmp_path: Path
) -> None:
    assert callable(make)
    games = make()
    figure = make_figure(games, experiment_record(games, name="plots"), kind)
    width, height = expected_inches(kind, games)
    png = save_figure(figure, tmp_path / f"{kind}.png")
    assert png_size(png) == (round(width * DPI), round(height * DPI))
    pdf = save_figure(figure, tmp_path / "sub" / f"{kind}.PDF")
    assert pdf_points(pdf) == pytest.approx((width * 72, height * 72))
    assert b"CreationDate" not in pdf.read_bytes()  # the same figure, the same bytes
    assert figure.get_suptitle().startswith("plots: (4,6)")


def test_plot_results_writes_the_default_file_and_a_chosen_one(tmp_path: Path) -> None:
    games = single_size()
    results = write_results(tmp_path / "run", games, experiment_record(games, name="t3"))
    default = plot_results(results, "distribution")
    assert default == results / "plots" / "distribution.png"
    assert png_size(default) == (900, 450)
    chosen = plot_results(results, "cumulative", out=tmp_path / "figures" / "c.pdf")
    assert pdf_points(chosen) == pytest.approx((648, 324))


def test_titles_axes_and_palette() -> None:
    games = single_size()
    figure = make_figure(games, experiment_record(games, name="Table 3"), "distribution")
    assert figure.get_suptitle() == "Table 3: (4,6)"
    axis = figure.axes[0]
    assert axis.get_ylabel() == "share of games"
    assert axis.get_xlabel() == "guesses to solve"
    box = axis.get_legend()
    assert box is not None
    legend = [t.get_text() for t in box.get_texts()]
    # The mean over the solved games (the distribution shows those): failed ones are no count.
    means = games[games["solved"]].groupby("label")["n_guesses"].mean()
    assert legend == [
        f"{label} (mean {means[label]:.3f})"
        for label in ("Entropy", "EDA + f_l", "EDA + f", "Random")
    ]
    colours = player_colours([f"p{i}" for i in range(10)])
    assert colours["p0"] == "#E69F00" and colours["p8"] == colours["p0"]


def test_distribution_bars_are_shares_of_games() -> None:
    games = single_size()
    figure = make_figure(games, {"name": "x"}, "distribution")
    axis = figure.axes[0]
    heights: dict[str, float] = {}
    for container in axis.containers:
        label = str(container.get_label()).split(" (mean")[0]
        heights[label] = sum(bar.get_height() for bar in container)
    played = games.groupby("label")
    for label, share in heights.items():
        assert share == pytest.approx(played.get_group(label)["solved"].mean())


def test_impossible_plots_are_one_line_errors(tmp_path: Path) -> None:
    games = single_size()
    with pytest.raises(AnalysisError, match="heat map needs games of several sizes"):
        make_figure(games, {"name": "x"}, "heatmap")
    exhaustive = games[games["evaluations"].isna()]
    with pytest.raises(AnalysisError, match="no player in these games counts evaluations"):
        make_figure(exhaustive, {"name": "x"}, "evaluations")
    with pytest.raises(AnalysisError, match="unknown plot kind 'violin'"):
        make_figure(games, {"name": "x"}, "violin")
    figure = make_figure(games, {"name": "x"}, "cumulative")
    with pytest.raises(AnalysisError, match=r"must end in \.png or \.pdf"):
        save_figure(figure, tmp_path / "plot.svg")
    assert set(PLOT_KINDS) == {
        "distribution",
        "cumulative",
        "evaluations",
        "heatmap",
        "convergence",
    }


@pytest.mark.parametrize("kind", ["distribution", "cumulative"])
def test_many_players_get_patterns_and_an_outside_legend(kind: str) -> None:
    probabilities = [0.0, 0.1, 0.3, 0.4, 0.2]
    games = make_games({f"player {i}": probabilities for i in range(10)}, runs=1, games_per_run=20)
    figure = make_figure(games, {"name": "many"}, kind)
    axis = figure.axes[0]
    legend = axis.get_legend()
    assert legend is not None and len(legend.get_texts()) == 10
    anchor = legend.get_bbox_to_anchor().transformed(axis.transAxes.inverted())
    assert anchor.x0 > 1.0  # beside the axes, not over the bars
    if kind == "distribution":
        hatches = [patch.get_hatch() for patch in axis.patches[::5]]  # 5 bars a player
        assert hatches[:8] == [""] * 8 and hatches[8] == hatches[9] == "////"
    else:
        styles = [line.get_linestyle() for line in axis.get_lines()]
        assert styles[:8] == ["-"] * 8 and styles[8] == "--"


def test_heatmap_cells_show_values_only_while_they_fit() -> None:
    probabilities = [0.0, 0.2, 0.5, 0.3]
    few = pd.concat(
        make_games({"P": probabilities}, runs=1, games_per_run=5, pegs=4, colors=c) for c in (4, 5)
    )
    many = pd.concat(
        make_games({"P": probabilities}, runs=1, games_per_run=5, pegs=4, colors=c)
        for c in range(2, 2 + HEATMAP_ANNOTATED_UP_TO + 1)
    )
    few_axis = make_figure(few, {"name": "few"}, "heatmap").axes[0]
    many_figure = make_figure(many, {"name": "many"}, "heatmap")
    assert len(few_axis.texts) == 2  # one value per cell
    assert len(many_figure.axes[0].texts) == 0
    assert many_figure.get_suptitle() == "many: 7 sizes, (4,2) to (4,8)"
