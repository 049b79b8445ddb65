"""Game sizes and secret sources as a config writes them, and what each source can give.

``game:`` is one size, a list, or a grid; ``secrets:`` one source or a list of them:
``full``, ``{sample: N}``, ``{list: [...]}``, ``{scsa: NAME, n: N}``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import numpy as np
from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    PositiveInt,
    Tag,
    field_validator,
    model_validator,
)

from evo_mastermind.codes import CodeSpace, InvalidGameError
from evo_mastermind.scsa import SCSAS, draw_secrets
from evo_mastermind.secrets import explicit


class Strict(BaseModel):
    """A config section: unknown keys are errors, values are read-only."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class GameSize(Strict):
    """One game size."""

    pegs: int
    """Positions in a code (ℓ)."""
    colors: int
    """Colours a peg may take (κ, at most 26: codes are written with the letters A..)."""

    @model_validator(mode="after")
    def _possible(self) -> GameSize:
        self.space()  # raises with the engine's message for an impossible size
        return self

    def space(self) -> CodeSpace:
        """The code space of this size."""
        return CodeSpace(self.pegs, self.colors)


def sizes_from(value: Any) -> Any:
    """``game:`` as one size, a list of sizes, or a grid ``{pegs: [...], colors: [...]}``."""
    if isinstance(value, dict) and any(isinstance(v, list) for v in value.values()):
        unknown = sorted(set(value) - {"pegs", "colors"})
        if unknown or set(value) != {"pegs", "colors"}:
            raise ValueError("a grid of sizes needs exactly the keys pegs and colors")
        pegs = value["pegs"] if isinstance(value["pegs"], list) else [value["pegs"]]
        colors = value["colors"] if isinstance(value["colors"], list) else [value["colors"]]
        return [{"pegs": p, "colors": c} for p in pegs for c in colors]
    return value if isinstance(value, list) else [value]


class FullSecrets(Strict):
    """``secrets: full``: every code once per run."""

    kind: Literal["full"] = "full"

    def describe(self) -> str:
        """The value of the games table's ``secrets`` column."""
        return "full"


class SampleSecrets(Strict):
    """``secrets: {sample: N}``: a fixed uniform sample, the same for every player and run."""

    sample: PositiveInt
    """How many secrets to draw uniformly (without replacement when the space can be listed)."""

    def describe(self) -> str:
        """The value of the games table's ``secrets`` column."""
        return "sample"


class ListSecrets(Strict):
    """``secrets: {list: [ABBC, ...]}``."""

    codes: list[str] = Field(alias="list", min_length=1)
    """The secrets, written as codes (``ABBC``); each is played once per run."""

    def describe(self) -> str:
        """The value of the games table's ``secrets`` column."""
        return "list"


class ScsaSecrets(Strict):
    """``secrets: {scsa: NAME, n: N}``: N secrets from a secret-code selection algorithm."""

    scsa: str
    """The name of a secret-code selection algorithm (listed below)."""
    n: PositiveInt
    """How many secrets it draws (rounds per player and run)."""

    @field_validator("scsa")
    @classmethod
    def _known(cls, name: str) -> str:
        if name not in SCSAS:
            raise ValueError(f"unknown SCSA {name!r}; known: {', '.join(sorted(SCSAS))}")
        return name

    def describe(self) -> str:
        """The value of the games table's ``secrets`` column."""
        return f"scsa:{self.scsa}"


SecretSource = FullSecrets | SampleSecrets | ListSecrets | ScsaSecrets


def source_problem(space: CodeSpace, source: SecretSource) -> str | None:
    """Why this source cannot give secrets of this size (``None`` when it can)."""
    try:
        if isinstance(source, FullSecrets):
            space.require_enumerable("playing every secret")
        elif isinstance(source, ListSecrets):
            explicit(space, source.codes)
        elif isinstance(source, ScsaSecrets):
            draw_secrets(source.scsa, space, np.random.default_rng(0), 1)
    except InvalidGameError as error:
        return str(error)
    return None


def secrets_form(value: Any) -> str:
    """Which form of secret source a config value is (the union's discriminator)."""
    if isinstance(value, FullSecrets):
        return "full"
    keys = set(value) if isinstance(value, dict) else set()
    if keys == {"kind"}:
        return "full"
    for form in ("sample", "list", "scsa"):
        if form in keys:
            return form
    if isinstance(value, BaseModel):
        forms: dict[type[BaseModel], str] = {
            SampleSecrets: "sample",
            ListSecrets: "list",
            ScsaSecrets: "scsa",
        }
        return forms[type(value)]
    return "unknown"


def secrets_from(value: Any) -> Any:
    """``secrets:`` as one source or a list of them; ``full`` is a bare word."""
    items = value if isinstance(value, list) else [value]
    return [{"kind": "full"} if item == "full" else item for item in items]


SecretsSpec = Annotated[
    Annotated[FullSecrets, Tag("full")]
    | Annotated[SampleSecrets, Tag("sample")]
    | Annotated[ListSecrets, Tag("list")]
    | Annotated[ScsaSecrets, Tag("scsa")],
    Discriminator(
        secrets_form,
        custom_error_type="secrets_form",
        custom_error_message=(
            "must be 'full', {sample: N}, {list: [CODE, ...]} or {scsa: NAME, n: N}"
        ),
    ),
]
