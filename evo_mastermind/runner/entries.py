"""A config's player entries.

One player with its options, a preset and sweeps, and the labels that name each expanded entry.
An entry is expanded and validated once, when the config is read: each expanded entry holds
its player's validated options object, which the runner ships to workers as it is.
"""

from __future__ import annotations

import itertools
import json
import math
import string
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    field_validator,
)

from evo_mastermind.codes import InvalidGameError
from evo_mastermind.players import (
    PlayerParams,
    preset_options,
    validate_params,
)


class PlayerEntry(BaseModel):
    """One ``players:`` entry: a label, a registered player, a preset and options (sweepable)."""

    model_config = ConfigDict(extra="allow", frozen=True, use_attribute_docstrings=True)

    label: str = Field(min_length=1)
    """The row's name in tables and plots, unique in the experiment; a template for sweeps."""
    player: str
    """A registered player name (``evo-mastermind players`` lists them)."""
    preset: str | None = None
    """A named set of the player's options (``evo-mastermind players`` lists them); options
    written beside it override the preset's."""

    _expanded: tuple[ExpandedEntry, ...] | None = PrivateAttr(default=None)

    @field_validator("label")
    @classmethod
    def _printable_label(cls, label: str) -> str:
        return check_label(label)

    def options(self) -> dict[str, Any]:
        """The preset's options overridden by those written (sweeps unexpanded)."""
        chosen = preset_options(self.player, self.preset) if self.preset is not None else {}
        return {**chosen, **(self.model_extra or {})}

    def resolved(self) -> dict[str, Any]:
        """The entry as if its preset's options had been written out (what decides games)."""
        return {"label": self.label, "player": self.player, **self.options()}

    def expand(self) -> tuple[ExpandedEntry, ...]:
        """One entry per combination of swept values, each validated against the player.

        Expanded on the first call (when the config is validated), then kept: the entry is
        frozen, so its expansion never changes.

        Raises:
            InvalidGameError: a label template, an empty sweep or options the player refuses.
        """
        if self._expanded is None:
            self._expanded = self._expansion()
        return self._expanded

    def _expansion(self) -> tuple[ExpandedEntry, ...]:
        options = self.options()
        swept = [key for key, value in options.items() if isinstance(value, list)]
        fields = template_fields(self.label)
        strangers = [field for field in fields if field not in swept]
        if strangers:
            raise InvalidGameError(
                f"label {self.label!r}: {{{strangers[0]}}} is not a swept option "
                f"(swept: {', '.join(swept) or 'none'})"
            )
        empty = [key for key in swept if not options[key]]
        if empty:
            raise InvalidGameError(
                f"option {empty[0]!r} sweeps over no values ([]); give it at least one value"
            )
        entries = []
        for values in itertools.product(*(options[key] for key in swept)):
            params = {**options, **dict(zip(swept, values, strict=True))}
            label = self.label
            if swept:
                chosen = {key: _label_value(params[key]) for key in swept}
                if all("{" + key + "}" in label for key in swept):
                    label = label.format(**chosen)
                else:
                    label = label + " " + " ".join(f"{k}={v}" for k, v in chosen.items())
                check_label(label)
            validated = validate_params(self.player, params)
            entries.append(
                ExpandedEntry(
                    label, self.player, validated.model_dump(exclude_defaults=True), validated
                )
            )
        return tuple(entries)


LABEL_MAX_LENGTH = 200


def check_label(label: str) -> str:
    """A label is printable single-line text (it becomes a table row and a file's content).

    Raises:
        ValueError: a control, format (e.g. right-to-left override) or line-break character,
            or more than :data:`LABEL_MAX_LENGTH` characters.
    """
    if len(label) > LABEL_MAX_LENGTH:
        raise ValueError(f"a label has at most {LABEL_MAX_LENGTH} characters, got {len(label)}")
    bad = next((ch for ch in label if not ch.isprintable()), None)
    if bad is not None:
        raise ValueError(
            f"labels are printable single-line text; {label[:40]!r} holds U+{ord(bad):04X}"
        )
    return label


def template_fields(label: str) -> list[str]:
    """The ``{field}`` names of a label template: plain names only.

    No index, attribute, conversion or format spec: a template only names swept options.

    Raises:
        InvalidGameError: a malformed template or a field that is not a plain name.
    """
    try:
        parsed = list(string.Formatter().parse(label))
    except ValueError as error:
        raise InvalidGameError(f"label {label[:40]!r}: not a valid template ({error})") from None
    fields = []
    for _, field, spec, conversion in parsed:
        if field is None:
            continue
        if not field.isidentifier() or spec or conversion:
            raise InvalidGameError(
                f"label {label[:40]!r}: template fields are plain option names like {{mu}}, "
                f"not {{{field}{'!' + conversion if conversion else ''}"
                f"{':' + spec[:20] if spec else ''}}}"
            )
        fields.append(field)
    return fields


def count_entries(players: object) -> int:
    """How many entries ``players:`` expands into, counted without expanding it."""
    if not isinstance(players, list):
        return 0
    total = 0
    for entry in players:
        if isinstance(entry, dict):
            total += math.prod(len(v) for v in entry.values() if isinstance(v, list))
    return total


def _label_value(value: Any) -> str:
    return "inf" if value is None else str(value)


class ExpandedEntry(BaseModel):
    """A player entry with every sweep resolved: the unit a game is played by.

    ``label``, ``player`` and ``params`` are what is recorded (``experiment.json``, the games
    table); ``validated`` is the same options as the player's validated options object, what
    the player is built from (it travels to the workers as it is, never re-read from text).
    """

    model_config = ConfigDict(frozen=True)

    label: str
    player: str
    params: dict[str, Any]
    """The options that differ from the player's defaults, as recorded."""
    validated: PlayerParams = Field(exclude=True, repr=False)
    """The options validated against the player (defaults filled in)."""

    def __init__(
        self, label: str, player: str, params: dict[str, Any], validated: PlayerParams
    ) -> None:
        super().__init__(label=label, player=player, params=params, validated=validated)

    @property
    def params_json(self) -> str:
        """The options as canonical JSON (sorted keys), as stored in the games table."""
        return json.dumps(self.params, sort_keys=True)
