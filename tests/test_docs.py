"""The documentation: generated reference pages, the README's size, citations by author and year."""

import re
import sys
from pathlib import Path

import numpy as np
import yaml

from evo_mastermind.codes import Code
from evo_mastermind.players import PLAYERS
from evo_mastermind.runner.config import ExperimentConfig
from evo_mastermind.scoring import Response

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "docs"))

from reference_pages import GENERATORS, config_reference, players_reference  # noqa: E402


def test_every_config_key_is_documented_on_the_config_reference() -> None:
    page, problems = config_reference()
    assert problems == []
    for key in ExperimentConfig.model_fields:
        assert f"| `{key}` |" in page


def test_every_player_and_option_is_on_the_players_reference() -> None:
    page, problems = players_reference()
    assert problems == []
    for name, cls in PLAYERS.items():
        assert f"## `{name}`" in page
        for option in cls.Params.model_fields:
            assert f"| `{option}` |" in page


def test_option_types_render_without_escaped_pipes() -> None:
    import markdown  # type: ignore[import-untyped]

    page, _ = players_reference()
    assert "| `str | None` |" in page  # a pipe in backticks never splits a cell
    html = markdown.markdown(page, extensions=["tables"])
    assert "<td><code>str | None</code></td>" in html
    assert "\\|" not in "".join(re.findall(r"<code>[^<]*</code>", html))
    config_page, _ = config_reference()
    assert "\\|" not in "".join(re.findall(r"`[^`]*`", config_page))


def test_an_undocumented_option_is_reported() -> None:
    from evo_mastermind.players import Player, PlayerParams

    class BareParams(PlayerParams):
        bare: int = 3

    class Bare(Player):
        """A player with an undocumented option."""

        Params = BareParams

        def start(self, rng: np.random.Generator) -> None:
            pass

        def ask(self) -> Code:
            return self.space.all_codes[0]

        def tell(self, guess: Code, response: Response) -> None:
            pass

    _, problems = players_reference({"bare": Bare})
    assert problems and "bare" in problems[0]


def test_the_nav_names_only_pages_that_exist_or_are_generated() -> None:
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.Loader)

    def pages(node: object) -> list[str]:
        if isinstance(node, str):
            return [node]
        if isinstance(node, list):
            return [page for item in node for page in pages(item)]
        if isinstance(node, dict):
            return [page for value in node.values() for page in pages(value)]
        return []

    for page in pages(config["nav"]):
        # Notebooks are pages too, taken from notebooks/ (docs/hooks.py).
        notebook = page.startswith("notebooks/") and (ROOT / page).is_file()
        assert (ROOT / "docs" / page).is_file() or page in GENERATORS or notebook, page


def test_the_readme_is_a_front_door() -> None:
    assert len((ROOT / "README.md").read_text().splitlines()) <= 150


SEED_CITATION = re.compile(r"\bseeds? ?0\d\d\b|\bseed00\d|seeds/00\d", re.IGNORECASE)
KEPT_FOR_OLD_NAMES = {  # the one-release aliases of renamed files, and where they are told
    "evo_mastermind/paths.py",
    "docs/experiments.md",
    "tests/test_renamed_files.py",
    "tests/test_docs.py",
}


def test_sources_are_cited_by_author_and_year_never_as_seed_files() -> None:
    folders = ["evo_mastermind", "tests", "benchmarks", "results"]
    folders += ["docs", "notebooks"]
    files = [ROOT / "README.md", ROOT / "Makefile"]
    files += [p for f in folders for p in (ROOT / f).rglob("*") if p.is_file()]
    offenders = []
    for path in files:
        relative = path.relative_to(ROOT).as_posix()
        if relative in KEPT_FOR_OLD_NAMES or path.suffix in {".png", ".pdf", ".parquet", ".pyc"}:
            continue
        if "/games/" in relative or SEED_CITATION.search(relative):
            offenders += [relative] if SEED_CITATION.search(relative) else []
            continue
        text = path.read_text(errors="ignore")
        offenders += [f"{relative}: {m.group(0)}" for m in SEED_CITATION.finditer(text)]
    assert offenders == []


REPOSITORY_FOLDERS = ("evo_mastermind", "docs", "results", "benchmarks", "examples", "notebooks")
CITED_PATH = re.compile(r"`((?:" + "|".join(REPOSITORY_FOLDERS) + r"|configs|tests)/[\w./-]+)`")
NOT_OURS = {
    "configs/paper/table2.yaml",  # an old name, cited to say where the file went
    "results/first/games",  # the run getting-started.md makes
    "results/2023_4090",  # a folder of Magruder's solver's repository
}
"""Paths the docs cite that are not meant to be in this repository."""


def test_every_repository_path_the_docs_cite_exists() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    missing = []
    for page in pages:
        for match in CITED_PATH.finditer(page.read_text()):
            path = match.group(1).rstrip("/.")
            if "<" in path or "*" in path or path in NOT_OURS:
                continue  # a pattern (results/<name>/, part-*.parquet), or not ours
            if not (ROOT / path).exists():
                missing.append(f"{page.relative_to(ROOT)}: {path}")
    assert missing == []


def test_the_home_page_lists_every_player() -> None:
    home = (ROOT / "docs" / "index.md").read_text()
    assert [name for name in sorted(PLAYERS) if f"`{name}`" not in home] == []


def test_the_readme_and_getting_started_agree_on_the_test_time() -> None:
    said = re.compile(r"make test .*\(about (\d+) minutes")
    readme = said.search((ROOT / "README.md").read_text())
    started = said.search((ROOT / "docs" / "getting-started.md").read_text())
    assert readme and started and readme.group(1) == started.group(1)


def test_every_notebook_is_a_page_of_the_site_run_in_fast_mode() -> None:
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.Loader)
    notebooks = next(item["Notebooks"] for item in config["nav"] if "Notebooks" in item)
    listed = sorted(page for entry in notebooks for page in entry.values())
    assert listed == sorted(f"notebooks/{p.name}" for p in (ROOT / "notebooks").glob("*.ipynb"))
    jupyter = next(p["mkdocs-jupyter"] for p in config["plugins"] if "mkdocs-jupyter" in p)
    assert jupyter["execute"] and jupyter["include"] == ["notebooks/*.ipynb"]
    hooks = (ROOT / "docs" / "hooks.py").read_text()
    assert 'os.environ["EVO_MASTERMIND_FAST"] = "1"' in hooks
