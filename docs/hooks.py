"""MkDocs hooks: the config and players reference pages, written from the live code at build time.

``reference/config.md`` walks the pydantic models of :mod:`evo_mastermind.runner.config` (every
key, its type, default and docstring); ``reference/players.md`` walks the player registry (every
player, option and preset), so a new key, player, option or preset appears without editing the
docs. A key or option without a description is a warning, which ``mkdocs build --strict`` turns
into a failure. The pages are generated in memory (never written into ``docs/``); images of the
committed reference runs (``results/**/plots/*.png``) are added to the site the same way, so
pages can show them where they are kept. The API pages lose the Sphinx roles (``:func:``) the
docstrings carry, keeping the code name.
"""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from reference_pages import GENERATORS  # beside this file (MkDocs puts its folder on sys.path)

log = logging.getLogger("mkdocs.plugins.evo_mastermind")

ROOT = Path(__file__).resolve().parents[1]

WIDE_PAGE = "---\nhide:\n  - toc\n---\n\n"
"""Front matter of a page without Material's right-hand table of contents."""

SPHINX_ROLE = re.compile(r":(?:attr|class|data|exc|func|meth|mod|obj):(?=<code>)")
"""A Sphinx role left before inline code by docstrings written for Sphinx (``:func:`f```)."""


NOTEBOOKS = ROOT / "notebooks"
"""The notebooks, rendered as pages (``notebooks/NAME.ipynb``) by mkdocs-jupyter."""


def on_config(config: MkDocsConfig, **_: Any) -> MkDocsConfig:
    """Notebooks run in fast mode while the site is built (their kernels inherit this)."""
    os.environ["EVO_MASTERMIND_FAST"] = "1"
    os.environ.setdefault("MPLBACKEND", "Agg")
    return config


@event_priority(100)  # first: mkdocs-jupyter must find the notebooks among the files
def on_files(files: Files, config: MkDocsConfig, **_: Any) -> Files:
    """Add the generated reference pages, the committed figures and the notebooks."""
    for uri, generate in GENERATORS.items():
        content, problems = generate()
        for problem in problems:
            log.warning("%s: %s", uri, problem)
        # The reference tables are wide: the page gives the table of contents' column to them.
        files.append(File.generated(config, uri, content=WIDE_PAGE + content))
    for notebook in sorted(NOTEBOOKS.glob("*.ipynb")):
        files.append(
            File(
                notebook.relative_to(ROOT).as_posix(),
                src_dir=str(ROOT),
                dest_dir=config.site_dir,
                use_directory_urls=config.use_directory_urls,
            )
        )
    for image in sorted((ROOT / "results").glob("**/plots/*.png")):
        files.append(
            File(
                image.relative_to(ROOT).as_posix(),
                src_dir=str(ROOT),
                dest_dir=config.site_dir,
                use_directory_urls=config.use_directory_urls,
            )
        )
    return files


def on_page_content(html: str, **_: Any) -> str:
    """Drop the Sphinx roles (``:func:``) the docstrings carry: the code name stays."""
    return SPHINX_ROLE.sub("", html)
