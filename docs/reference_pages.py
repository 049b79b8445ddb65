"""The config and players reference pages, as Markdown written from the live models and registry.

Each function returns the page and the problems found (a key or option without a
description); ``docs/hooks.py`` reports those as warnings, so ``mkdocs build --strict`` fails
on an undocumented key. Nothing here is hand-listed: a key added to the config models, or a
player, option or preset added to the registry, appears on the next build.
"""

from __future__ import annotations

import inspect
import json
import os
import types
import typing
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from evo_mastermind import scsa
from evo_mastermind.players import PLAYERS, Player
from evo_mastermind.runner import config as config_module
from evo_mastermind.runner import entries as entries_module
from evo_mastermind.runner import sources

Page = tuple[str, list[str]]


def type_text(annotation: Any) -> str:
    """A short, readable name for a field's type (``int | None``, ``list[str]``, ``"a" | "b"``)."""
    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if origin is typing.Annotated:
        return type_text(arguments[0])
    if origin is typing.Literal:
        return " | ".join(json.dumps(argument) for argument in arguments)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(type_text(argument) for argument in arguments)
    if origin is not None:
        name = getattr(origin, "__name__", str(origin))
        return f"{name}[{', '.join(type_text(argument) for argument in arguments)}]"
    if annotation is type(None):
        return "None"
    if isinstance(annotation, type):
        metadata_free = {"PositiveInt": "int > 0", "NonNegativeInt": "int ≥ 0"}
        return metadata_free.get(annotation.__name__, annotation.__name__)
    return str(annotation).replace("typing.", "")


def default_text(field: FieldInfo) -> str:
    """The default as a config would write it, or *required*."""
    if field.default_factory is not None:
        value = field.default_factory()  # type: ignore[call-arg]
    elif field.default is PydanticUndefined:
        return "*required*"
    else:
        value = field.default
    if isinstance(value, list) and all(hasattr(item, "describe") for item in value):
        return ", ".join(f"`{item.describe()}`" for item in value)
    if isinstance(value, BaseModel):
        return "see below"
    return f"`{json.dumps(value, default=str)}`"


def _cell(text: str | None) -> str:
    """Text for a table cell: one line, its pipes escaped so they do not split the cell."""
    return " ".join((text or "").split()).replace("|", "\\|")


def _code_cell(text: str) -> str:
    """Inline code for a table cell, e.g. a type ``str | None``.

    Python-Markdown's tables never split a cell at a pipe inside backticks, and keep a
    backslash there as written: escaping the pipe would show its backslash.
    """
    return "`" + " ".join(text.split()) + "`"


def fields_table(
    model: type[BaseModel], where: str, problems: list[str], column: str = "key"
) -> list[str]:
    """A Markdown table of a model's fields: key (or option), type, default, description."""
    lines = [f"| {column} | type | default | description |", "|---|---|---|---|"]
    for name, field in model.model_fields.items():
        key = field.alias or name
        if not field.description:
            problems.append(f"{where}: {column} {key!r} has no description (a docstring under it)")
        annotation = type_text(field.annotation)
        cells = [
            f"`{key}`",
            _code_cell(annotation),
            default_text(field),
            _cell(field.description),
        ]
        lines.append(f"| {' | '.join(cells)} |")
    return lines


def _doc(thing: object) -> str:
    return inspect.cleandoc(getattr(thing, "__doc__", None) or "")


def config_reference() -> Page:
    """Every key of an experiment config, from :class:`ExperimentConfig` and the models under it."""
    problems: list[str] = []
    experiment = config_module.ExperimentConfig
    lines = [
        "# Config reference",
        "",
        "<!-- Generated at build time by docs/hooks.py from evo_mastermind.runner.config; "
        "do not edit. -->",
        "",
        "Every key an experiment YAML file may hold, read from the pydantic models that check it "
        "(`evo_mastermind.runner.config`). Unknown keys are errors. The guide with a worked "
        "example is [Writing an experiment](../experiments.md).",
        "",
        "## Top-level keys",
        "",
        _doc(experiment),
        "",
        *fields_table(experiment, "ExperimentConfig", problems),
        "",
        "## `game`",
        "",
        _doc(sources.sizes_from),
        "",
        *fields_table(sources.GameSize, "GameSize", problems),
        "",
        "## `secrets`",
        "",
        _doc(sources.secrets_from),
        "",
    ]
    forms: list[type[BaseModel]] = [
        sources.FullSecrets,
        sources.SampleSecrets,
        sources.ListSecrets,
        sources.ScsaSecrets,
    ]
    for form in forms:
        lines += [f"### {form.__name__}", "", _doc(form), ""]
        if form is not sources.FullSecrets:
            lines += [*fields_table(form, form.__name__, problems), ""]
    lines += [
        "### Secret-code selection algorithms",
        "",
        "The names `scsa:` accepts (`evo_mastermind.scsa`):",
        "",
        "| `scsa` | draws |",
        "|---|---|",
    ]
    for name, function in sorted(scsa.SCSAS.items()):
        first = _doc(function).split("\n\n")[0]
        if not first:
            problems.append(f"SCSA {name!r} has no docstring")
        lines.append(f"| `{name}` | {_cell(first)} |")
    lines += [
        "",
        "## `statistics`",
        "",
        _doc(config_module.Statistics).split("\n\n")[0],
        "",
        *fields_table(config_module.Statistics, "Statistics", problems),
        "",
        "## `players`",
        "",
        _doc(entries_module.PlayerEntry),
        "",
        *fields_table(entries_module.PlayerEntry, "PlayerEntry", problems),
        "",
        "Every other key of an entry is an option of the named player: see the "
        "[players reference](players.md). A list value is a sweep, one entry per value "
        '(`mu: [10, 20, 30]`); the label is a template (`"Entropy mu={mu}"`) or the values '
        "are appended to it.",
        "",
    ]
    return "\n".join(lines), problems


def _options_text(options: Any) -> str:
    return json.dumps(dict(options), default=str, ensure_ascii=False)


def players_reference(registry: dict[str, type[Player]] | None = None) -> Page:
    """Every registered player with its options (type, default, description) and presets."""
    registry = PLAYERS if registry is None else registry
    problems: list[str] = []
    lines = [
        "# Players reference",
        "",
        "<!-- Generated at build time by docs/hooks.py from the player registry; do not edit. -->",
        "",
        "Every registered player (`evo_mastermind.players.PLAYERS`), with every option it "
        "takes in a config entry or as `-o KEY=VALUE` on `evo-mastermind play`. "
        "`evo-mastermind players` prints the same list.",
        "",
        "| player | what it does |",
        "|---|---|",
    ]
    for name in sorted(registry):
        summary = _doc(registry[name]).split("\n")[0]
        lines.append(f"| [`{name}`](#{_anchor(name)}) | {_cell(summary)} |")
    lines.append("")
    for name in sorted(registry):
        cls = registry[name]
        lines += [
            f"## `{name}` {{#{_anchor(name)}}}",
            "",
            _doc(cls) or f"(`{cls.__module__}.{cls.__qualname__}` has no docstring)",
            "",
            f"Class `{cls.__module__}.{cls.__qualname__}`.",
            "",
        ]
        if not _doc(cls):
            problems.append(f"player {name!r} has no docstring")
        if cls.Params.model_fields:
            lines += [*fields_table(cls.Params, f"player {name!r}", problems, "option"), ""]
        else:
            lines += ["No options.", ""]
        presets = cls.__dict__.get("presets", {})  # its own, as presets_of reads them
        if presets:
            lines += ["Presets:", "", "| preset | options | source |", "|---|---|---|"]
            lines += [
                f"| `{preset}` | {_code_cell(_options_text(settings.options))} | "
                f"{_cell(settings.about)} |"
                for preset, settings in sorted(presets.items())
            ]
            lines.append("")
    lines += heuristics_section(problems)
    return "\n".join(lines), problems


def heuristics_section(problems: list[str]) -> list[str]:
    """Every registered partition heuristic, for ``one_ply`` and ``archive`` (``heuristic:``)."""
    from evo_mastermind.heuristics import registered_heuristics

    lines = [
        "## Heuristics {#heuristics}",
        "",
        "The partition heuristics registered (`evo_mastermind.heuristics`), each usable as "
        "`heuristic: NAME` by `one_ply` and `archive`, and by `tree --player one_ply`. "
        "Without a compiled form a heuristic is scored by its numpy definition on the compiled "
        "partition counts (see *Add a heuristic* in the extending guide).",
        "",
        "| heuristic | what it scores | compiled form | definition |",
        "|---|---|---|---|",
    ]
    for name, entry in sorted(registered_heuristics().items()):
        if not entry.about:
            problems.append(f"heuristic {name!r} has no description")
        where = f"{entry.score.__module__}.{entry.score.__qualname__}"
        compiled = f"`{entry.compiled}`" if entry.compiled else "none"
        lines.append(f"| `{name}` | {_cell(entry.about)} | {compiled} | `{where}` |")
    return [*lines, ""]


def _anchor(name: str) -> str:
    return "player-" + name.replace("_", "-")


GENERATORS: dict[str, Callable[[], Page]] = {
    "reference/config.md": config_reference,
    "reference/players.md": players_reference,
}
"""Each generated page's path under ``docs/`` and the function that writes it."""


def cli_reference() -> Page:
    """Every command of ``evo-mastermind`` with its options, from the argument parser itself."""
    from evo_mastermind.cli import _build_parser  # the one parser the command line uses

    os.environ["COLUMNS"] = "100"  # argparse wraps its help to the terminal: fix the width
    parser = _build_parser()
    lines = [
        "# Command line",
        "",
        "<!-- Generated at build time by docs/hooks.py from evo_mastermind.cli; do not edit. -->",
        "",
        "```text",
        parser.format_help().rstrip(),
        "```",
        "",
    ]
    for action in parser._subparsers._group_actions if parser._subparsers else []:
        for name, subparser in getattr(action, "choices", {}).items():
            lines += [f"## `{name}`", "", "```text", subparser.format_help().rstrip(), "```", ""]
    return "\n".join(lines), []


GENERATORS["reference/cli.md"] = cli_reference
