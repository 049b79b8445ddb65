"""The changelog and citation file describe the version being built."""

import re
from importlib.metadata import version
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def test_the_citation_file_names_this_version_and_the_paper() -> None:
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["cff-version"] == "1.2.0" and citation["type"] == "software"
    assert citation["version"] == version("evo_mastermind")
    assert citation["authors"] and citation["title"].startswith("evo_mastermind")
    assert citation["references"][0]["authors"][0]["family-names"] == "Runarsson"


def test_the_changelog_opens_with_this_version() -> None:
    headings = re.findall(r"^## (\d+\.\d+\.\d+)", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert headings[0] == version("evo_mastermind")
