import base64
import io
import itertools
import re
from collections.abc import Callable
from pathlib import Path
from typing import cast

import matplotlib
import matplotlib.image
import nbformat
import numpy as np
import pandas as pd
import pytest
from matplotlib import rc_context
from matplotlib.backend_bases import RendererBase
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.transforms import Bbox
from nbclient import NotebookClient
from PIL import Image

from evo_mastermind.analysis.figures import (
    COLUMN_WIDTH,
    PAPER_STYLE,
    SAVE_DPI,
    TEXT_WIDTH,
    PaperFigure,
)
from evo_mastermind.analysis.heatmap import HEATMAP_ANNOTATED_UP_TO
from evo_mastermind.analysis.optimum import block_floor
from evo_mastermind.analysis.plots import (
    PLOT_KINDS,
    make_figure,
    player_colours,
    plot_results,
    save_figure,
)
from evo_mastermind.analysis.results import AnalysisError
from evo_mastermind.cli import main
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


def shared_secrets() -> pd.DataFrame:
    """Three players on the same 20 secrets in each of two runs: a paired design."""
    games = make_games(
        {"Entropy": STRONG, "Archive": MIDDLE, "Random": WEAK}, runs=2, games_per_run=20
    )
    return games.assign(secret=[f"S{i}" for i in games.groupby(["label", "run"]).cumcount()])


def many_players() -> pd.DataFrame:
    probabilities = [0.0, 0.02, 0.1, 0.3, 0.4, 0.15, 0.03]
    return make_games({f"player {i}": probabilities for i in range(10)}, runs=1, games_per_run=40)


def png_pixels_and_dpi(path: Path) -> tuple[tuple[int, int], float]:
    image = matplotlib.image.imread(path)
    assert image.ndim == 3 and image.shape[2] in (3, 4)
    assert image.std() > 0  # something was drawn
    with Image.open(path) as opened:
        dpi = round(float(opened.info["dpi"][0]))  # stored as pixels a metre
    return (image.shape[1], image.shape[0]), dpi


def pdf_points(path: Path) -> tuple[float, float]:
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    match = re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    assert match is not None
    return float(match.group(1)), float(match.group(2))


CASES: list[tuple[str, Callable[[], pd.DataFrame]]] = [
    ("distribution", single_size),
    ("cumulative", single_size),
    ("evaluations", single_size),
    ("distribution", several_sizes),
    ("cumulative", several_sizes),
    ("evaluations", several_sizes),
    ("heatmap", several_sizes),
    ("heatmap", lambda: several_sizes(("full", "scsa:insert_colors"))),
    ("distribution", many_players),
    ("cumulative", many_players),
]


def figure_of(kind: str, make: Callable[[], pd.DataFrame], **options: object) -> PaperFigure:
    games = make()
    return make_figure(games, experiment_record(games, name="Table 3"), kind, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize(("kind", "make"), CASES)
def test_every_kind_saves_300_dpi_png_and_pdf_with_truetype_fonts(
    kind: str, make: Callable[[], pd.DataFrame], tmp_path: Path
) -> None:
    figure = figure_of(kind, make)
    width, height = (float(side) for side in figure.get_size_inches())
    png = save_figure(figure, tmp_path / f"{kind}.png")
    pixels, dpi = png_pixels_and_dpi(png)
    assert dpi == pytest.approx(SAVE_DPI) and SAVE_DPI >= 300
    assert pixels == (round(width * SAVE_DPI), round(height * SAVE_DPI))
    pdf = save_figure(figure, tmp_path / "sub" / f"{kind}.PDF")
    assert pdf_points(pdf) == pytest.approx((width * 72, height * 72))
    data = pdf.read_bytes()
    assert b"CreationDate" not in data  # the same figure, the same bytes
    # Embedded TrueType (Type 42) fonts, no Type 3 (which publishers reject).
    assert b"/FontFile2" in data and b"/CIDFontType2" in data
    assert b"/Type3" not in data
    assert matplotlib.rcParams["pdf.fonttype"] == 3  # the caller's own settings are untouched


def test_a_figure_saved_by_its_own_savefig_is_paper_ready_too(tmp_path: Path) -> None:
    figure = figure_of("cumulative", single_size)
    figure.savefig(tmp_path / "own.pdf")
    figure.savefig(tmp_path / "own.png")
    assert b"/Type3" not in (tmp_path / "own.pdf").read_bytes()
    assert png_pixels_and_dpi(tmp_path / "own.png")[1] == pytest.approx(SAVE_DPI)


def test_default_sizes_are_a_papers_column_or_text_width() -> None:
    assert figure_of("distribution", single_size).get_size_inches()[0] == COLUMN_WIDTH
    assert figure_of("evaluations", single_size).get_size_inches()[0] == COLUMN_WIDTH
    assert figure_of("distribution", many_players).get_size_inches()[0] == TEXT_WIDTH
    assert figure_of("heatmap", several_sizes).get_size_inches()[0] == TEXT_WIDTH
    # Three blocks of two players: two panels abreast across the text width.
    grid = figure_of("distribution", several_sizes)
    assert grid.get_size_inches()[0] == TEXT_WIDTH and len(grid.axes) == 3
    specs = [axis.get_subplotspec() for axis in grid.axes]
    assert {spec.get_gridspec().ncols for spec in specs if spec is not None} == {2}
    chosen = figure_of("distribution", many_players, size=(3.3, 2.5))
    assert tuple(chosen.get_size_inches()) == (3.3, 2.5)


def drawn_texts(figure: Figure) -> list[Text]:
    """Every non-empty text drawn in a figure: titles, labels, ticks, legends, notes."""
    drawn: list[Text] = []
    draw = Text.draw

    def recording(text: Text, renderer: RendererBase) -> None:
        draw(text, renderer)
        if text.get_visible() and text.get_text().strip():
            drawn.append(text)

    with rc_context(PAPER_STYLE), pytest.MonkeyPatch.context() as patch:
        patch.setattr(Text, "draw", recording)
        FigureCanvasAgg(figure).draw()  # type: ignore[no-untyped-call]
    return drawn


def overlap(a: Bbox, b: Bbox, slack: float = 0.5) -> bool:
    return (
        a.x0 + slack < b.x1 and b.x0 + slack < a.x1 and a.y0 + slack < b.y1 and b.y0 + slack < a.y1
    )


def collisions(figure: Figure) -> list[str]:
    """Texts cut off at the figure's edge, over another text, or on a mean or optimum line."""
    texts = drawn_texts(figure)
    renderer = cast(FigureCanvasAgg, figure.canvas).get_renderer()  # type: ignore[no-untyped-call]
    boxes = [(text.get_text(), text.get_window_extent(renderer)) for text in texts]
    page = figure.bbox
    found = [
        f"{name!r} is cut off"
        for name, box in boxes
        if not (page.x0 - 1 <= box.x0 and box.x1 <= page.x1 + 1)
        or not (page.y0 - 1 <= box.y0 and box.y1 <= page.y1 + 1)
    ]
    found += [
        f"{first!r} overlaps {second!r}"
        for (first, a), (second, b) in itertools.combinations(boxes, 2)
        if overlap(a, b)
    ]
    lines = [
        line.get_window_extent(renderer)
        for axis in figure.axes
        for line in axis.get_lines()
        if line.get_linestyle() in ("--", ":") and line.get_visible()
    ]
    found += [
        f"{name!r} sits on a mean or optimum line"
        for (name, box), line in itertools.product(boxes, lines)
        if overlap(box, line)
    ]
    return found


@pytest.mark.parametrize(("kind", "make"), CASES)
def test_no_text_overlaps_another_or_a_mean_line(
    kind: str, make: Callable[[], pd.DataFrame]
) -> None:
    assert collisions(figure_of(kind, make)) == []


def test_the_collision_check_sees_a_label_on_a_mean_line() -> None:
    # The label the optimum once had, rotated beside its line, among means 0.07 apart.
    figure = figure_of("distribution", single_size)
    axis = figure.axes[0]
    axis.annotate(
        "optimum 4.340",
        (4.44, 1.0),
        xycoords=("data", "axes fraction"),
        rotation=90,
        ha="right",
        va="top",
    )
    assert any("sits on a mean" in found for found in collisions(figure))


def test_the_title_given_is_drawn_once_and_the_default_names_the_game_once() -> None:
    default = drawn_texts(figure_of("distribution", single_size))
    assert sum("(4,6)" in text.get_text() for text in default) == 1
    assert any(text.get_text() == "Table 3: (4,6), secrets: full" for text in default)
    for kind, make in CASES:
        figure = figure_of(kind, make, title="Figure 2: the players")
        assert [t.get_text() for t in drawn_texts(figure)].count("Figure 2: the players") == 1
        assert figure.get_suptitle() == "Figure 2: the players"
    untitled = figure_of("cumulative", single_size, title="")
    assert untitled.get_suptitle() == ""


def legend_of(figure: Figure, index: int = 0) -> list[str]:
    legend = figure.axes[index].get_legend()
    assert legend is not None
    return [text.get_text() for text in legend.get_texts()]


def test_legend_text_is_as_large_as_the_ticks() -> None:
    figure = figure_of("distribution", single_size)
    axis = figure.axes[0]
    ticks = {float(label.get_fontsize()) for label in axis.get_xticklabels()}
    legend = axis.get_legend()
    assert legend is not None
    assert {float(text.get_fontsize()) for text in legend.get_texts()} == ticks
    assert min(ticks) >= 7  # readable at a column's width


def test_legend_names_the_means_and_the_optimum() -> None:
    games = single_size()
    figure = make_figure(games, experiment_record(games, name="Table 3"), "distribution")
    # The mean over the solved games (the distribution shows those): failed ones are no count.
    means = games[games["solved"]].groupby("label")["n_guesses"].mean()
    players = ("Entropy", "EDA + f_l", "EDA + f", "Random")
    assert legend_of(figure) == [
        *(f"{label} ({means[label]:.3f})" for label in players),
        "mean (dashed)",
        "optimum 4.340",
    ]
    axis = figure.axes[0]
    assert axis.get_ylabel() == "share of games" and axis.get_xlabel() == "guesses to solve"
    legend = axis.get_legend()
    assert legend is not None and legend.get_title().get_text() == "player (mean guesses)"
    colours = player_colours([f"p{i}" for i in range(10)])
    assert colours["p0"] == "#E69F00" and colours["p8"] == colours["p0"]


def test_a_samples_plot_marks_the_optimum_over_its_secrets_and_says_its_size() -> None:
    games = make_games({"A": STRONG, "B": WEAK}, runs=2, games_per_run=15, pegs=3, colors=3)
    games["secrets"] = "sample"
    figure = make_figure(games, experiment_record(games, name="Sampled"), "distribution")
    floor = block_floor(games)
    assert floor is not None and legend_of(figure)[-1] == f"optimum {floor:.3f}"
    assert floor != pytest.approx(73 / 27)  # not the whole space's 2.704
    assert any(t.get_text() == "Sampled: (3,3), secrets: sample of 15" for t in drawn_texts(figure))


def test_players_choose_the_order_and_subset_and_keep_their_colours() -> None:
    everyone = figure_of("cumulative", single_size)
    chosen = figure_of("cumulative", single_size, players=["Random", "Entropy"])
    assert legend_of(chosen) == ["Random", "Entropy"]
    colour = {line.get_label(): line.get_color() for line in everyone.axes[0].get_lines()}
    assert {line.get_label(): line.get_color() for line in chosen.axes[0].get_lines()} == {
        "Random": colour["Random"],
        "Entropy": colour["Entropy"],
    }
    bars = figure_of("distribution", single_size, players=["EDA + f", "Entropy"])
    assert legend_of(bars)[:2][0].startswith("EDA + f (") and legend_of(bars)[1].startswith(
        "Entropy ("
    )
    with pytest.raises(AnalysisError, match=r"no games of 'Knuth' here; the players are: Entropy"):
        figure_of("distribution", single_size, players=["Entropy", "Knuth"])


def note_text(figure: Figure) -> str:
    return "\n".join(text.get_text() for text in drawn_texts(figure))


def test_every_plot_says_what_it_leaves_out() -> None:
    evaluations = figure_of("evaluations", single_size)
    assert evaluations.notes == ("Not shown, counting no evaluations: Entropy, Random.",)
    assert "Entropy, Random." in note_text(evaluations)  # drawn under the figure too
    assert legend_of(evaluations) == ["EDA + f_l", "EDA + f"]
    distribution = figure_of("distribution", single_size)
    assert distribution.notes == ("Unsolved games, left out of the bars and means: EDA + f 6.7%.",)
    several = figure_of("cumulative", several_sizes)
    assert several.notes == ("Not played: Entropy at (6,9).",)
    heatmap = figure_of("heatmap", several_sizes)
    assert heatmap.notes == ("Blank cells: sizes the player did not play.",)
    everything = figure_of("cumulative", single_size)
    assert everything.notes == () and everything.get_supxlabel() == ""


def test_distribution_bars_are_shares_of_games() -> None:
    games = single_size()
    figure = make_figure(games, {"name": "x"}, "distribution")
    axis = figure.axes[0]
    heights: dict[str, float] = {}
    for container in axis.containers:
        label = str(container.get_label()).split(" (")[0]
        heights[label] = sum(bar.get_height() for bar in container)
    played = games.groupby("label")
    for label, share in heights.items():
        assert share == pytest.approx(played.get_group(label)["solved"].mean())


def test_the_optimum_is_a_legend_entry_not_a_label_on_the_lines() -> None:
    figure = figure_of("distribution", single_size)
    axis = figure.axes[0]
    floors = [line for line in axis.get_lines() if line.get_linestyle() == ":"]
    assert [line.get_xdata()[0] for line in floors] == [pytest.approx(5625 / 1296)]  # type: ignore[index]
    assert len(axis.texts) == 0  # nothing written inside the axes, where the mean lines are
    assert "optimum 4.340" in legend_of(figure)


def test_impossible_plots_are_one_line_errors(tmp_path: Path) -> None:
    games = single_size()
    with pytest.raises(AnalysisError, match="heat map needs games of several sizes"):
        make_figure(games, {"name": "x"}, "heatmap")
    exhaustive = games[games["evaluations"].isna()]
    with pytest.raises(AnalysisError, match="no player in these games counts evaluations"):
        make_figure(exhaustive, {"name": "x"}, "evaluations")
    with pytest.raises(AnalysisError, match="no player in these games counts evaluations"):
        make_figure(games, {"name": "x"}, "evaluations", players=["Random"])
    with pytest.raises(AnalysisError, match="unknown plot kind 'violin'"):
        make_figure(games, {"name": "x"}, "violin")
    with pytest.raises(AnalysisError, match="players names no player"):
        make_figure(games, {"name": "x"}, "cumulative", players=[])
    figure = make_figure(games, {"name": "x"}, "cumulative")
    with pytest.raises(AnalysisError, match=r"must end in \.png or \.pdf"):
        save_figure(figure, tmp_path / "plot.svg")
    assert set(PLOT_KINDS) == {
        "distribution",
        "cumulative",
        "evaluations",
        "heatmap",
        "cd",
        "convergence",
    }


@pytest.mark.parametrize("kind", ["distribution", "cumulative"])
def test_many_players_get_patterns_and_the_texts_width(kind: str) -> None:
    figure = figure_of(kind, many_players)
    assert figure.get_size_inches()[0] == TEXT_WIDTH
    axis = figure.axes[0]
    legend = axis.get_legend()
    assert legend is not None and len(legend.get_texts()) == 10 + (
        2 if kind == "distribution" else 0
    )
    if kind == "distribution":
        hatches = [patch.get_hatch() for patch in axis.patches[::7]]  # 7 bars a player
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
    assert len(few_axis.texts) == 2 + 1  # one value per cell, and the row's player
    assert [text.get_text() for text in many_figure.axes[0].texts] == ["P"]
    assert many_figure.get_suptitle() == "many: 7 sizes, (4,2) to (4,8)"


def test_heatmap_times_take_a_log_scale_when_they_span_a_decade() -> None:
    games = several_sizes()
    slow = games.assign(seconds=games["seconds"].where(games["label"] != "Archive", 100.0))
    bars = [axis.get_xlabel() for axis in make_figure(slow, {"name": "s"}, "heatmap").axes]
    assert "mean ms per game (log scale)" in bars
    even = [axis.get_xlabel() for axis in make_figure(games, {"name": "e"}, "heatmap").axes]
    assert "mean ms per game" in even and "mean ms per game (log scale)" not in even


def test_evaluations_mark_each_block_and_keep_a_players_colour() -> None:
    figure = figure_of("evaluations", several_sizes)
    points = [cast(PathCollection, point) for point in figure.axes[0].collections]
    assert len({np.asarray(point.get_facecolor()).tobytes() for point in points}) == 1  # a player
    assert len({np.asarray(point.get_paths()[0].vertices).tobytes() for point in points}) == 3
    assert legend_of(figure) == ["Archive (4,6)", "Archive (5,8)", "Archive (6,9)"]


def test_a_figure_shows_itself_as_png_in_a_notebook() -> None:
    figure = figure_of("cumulative", single_size)
    data, metadata = figure._repr_mimebundle_()
    png = base64.b64decode(data["image/png"])
    with Image.open(io.BytesIO(png)) as image:
        assert image.size == (round(3.3 * 300), round(figure.get_size_inches()[1] * 300))
    assert metadata["image/png"]["width"] == round(3.3 * 150)


def test_plot_results_writes_the_default_file_and_a_chosen_one(tmp_path: Path) -> None:
    games = single_size()
    results = write_results(tmp_path / "run", games, experiment_record(games, name="t3"))
    default = plot_results(results, "distribution")
    assert default == results / "plots" / "distribution.png"
    assert png_pixels_and_dpi(default)[0][0] == round(COLUMN_WIDTH * SAVE_DPI)
    chosen = plot_results(
        results, "cumulative", out=tmp_path / "figures" / "c.pdf", size=(5.0, 3.0), title=""
    )
    assert pdf_points(chosen) == pytest.approx((360, 216))


def test_the_plot_command_takes_title_size_and_players(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = single_size()
    results = write_results(tmp_path / "run", games, experiment_record(games, name="t3"))
    out = tmp_path / "fig.png"
    options = ["--title", "Speed", "--size", "3.3,2.5", "--players", "EDA + f,EDA + f_l,Random"]
    status = main(["plot", str(results), "--kind", "evaluations", "--out", str(out), *options])
    printed, err = capsys.readouterr()
    assert status == 0 and printed.strip() == str(out)
    assert png_pixels_and_dpi(out)[0] == (990, 750)
    # What the figure leaves out, for its caption.
    assert err.strip() == "note: Not shown, counting no evaluations: Random."
    for options, message in [
        (["--size", "3.3"], "size '3.3' must be WIDTH,HEIGHT in inches"),
        (["--size", "0,2"], "width and height must be inches above 0"),
        (["--players", "Random,,Entropy"], "none empty"),
        (["--players", "Random,Random"], "names Random twice"),
        (["--players", "Knuth"], "no games of 'Knuth' here; the players are: Entropy"),
    ]:
        status = main(["plot", str(results), *options])
        err = capsys.readouterr().err
        assert status == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_a_notebook_shows_every_kind_with_no_magic_and_completes_the_api(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A kernel as a user starts it: no %matplotlib, no MPLBACKEND chosen for it.
    monkeypatch.delenv("MPLBACKEND", raising=False)
    games = several_sizes()
    results = write_results(tmp_path / "run", games, experiment_record(games, name="nb"))
    shared = shared_secrets()  # a CD diagram needs three players of the same secrets
    paired = write_results(tmp_path / "paired", shared, experiment_record(shared, name="paired"))
    # Every kind of the games ('convergence' draws a move log: tests/runner/test_move_log.py).
    kinds = [kind for kind in PLOT_KINDS if kind != "convergence"]
    cells = [
        f"import evo_mastermind as em\nresults = em.load({str(results)!r})\nnames = dir(em)\n"
        f"paired = em.load({str(paired)!r})",
        *(f"{'paired' if kind == 'cd' else 'results'}.plot({kind!r})" for kind in kinds),
        "print('Results' in names, 'TYPE_CHECKING' in names, 'lazy_exports' in names)",
        # With the inline backend on as well, each figure still shows once.
        "%matplotlib inline\nresults.plot('cumulative')",
        # What the kernel offers on Tab after `em.Res`, through IPython's own completer.
        "from IPython.core.completer import provisionalcompleter\n"
        "with provisionalcompleter():\n"
        "    offered = [c.text for c in get_ipython().Completer.completions('em.Res', 6)]\n"
        "print(offered)",
    ]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])  # type: ignore[no-untyped-call]
    client = NotebookClient(notebook, kernel_name="python3", timeout=120)
    client.execute()  # raises CellExecutionError on the first failing cell
    for cell in notebook.cells[1 : 1 + len(kinds)]:
        assert [output.output_type for output in cell.outputs] == ["execute_result"]
        assert "image/png" in cell.outputs[0].data, cell.source
    assert notebook.cells[-3].outputs[0].text == "True False False\n"
    inline = notebook.cells[-2].outputs
    assert [output.output_type for output in inline] == ["execute_result"]
    assert "image/png" in inline[0].data
    assert "Results" in notebook.cells[-1].outputs[0].text
