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
    SerializerFunctionWrapHandler,
    Tag,
    field_validator,
    model_serializer,
    model_validator,
)

from evo_mastermind.codes import Codes, CodeSpace, InvalidGameError
from evo_mastermind.scsa import SCSAS, draw_secrets
from evo_mastermind.secrets import explicit, full_space, uniform_sample


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

    def count(self, space: CodeSpace) -> int:
        """How many secrets this source gives for ``space``."""
        return space.size

    def draw(self, space: CodeSpace, rng: np.random.Generator) -> Codes:
        """The secrets, in lexicographic order."""
        return full_space(space)

    def problem(self, space: CodeSpace) -> None:
        """Raise :class:`InvalidGameError` if this source cannot give secrets of ``space``."""
        space.require_enumerable("playing every secret")


class SampleSecrets(Strict):
    """``secrets: {sample: N}``: a fixed uniform sample, the same for every player and run."""

    sample: PositiveInt
    """How many secrets to draw uniformly (without replacement when the space can be listed)."""
    replace: bool | None = None
    """Draw with replacement (secrets may repeat). Unset: without replacement, and a sample
    larger than the space is refused; on a space too large to list, draws are independent."""

    @model_serializer(mode="wrap")
    def _without_unset(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # An unset ``replace`` is left out, so fingerprints of earlier configs do not change.
        data: dict[str, Any] = handler(self)
        if self.replace is None:
            data.pop("replace", None)
        return data

    def describe(self) -> str:
        """The value of the games table's ``secrets`` column."""
        return "sample"

    def count(self, space: CodeSpace) -> int:
        """How many secrets this source gives."""
        return self.sample

    def draw(self, space: CodeSpace, rng: np.random.Generator) -> Codes:
        """A uniform sample, sorted, without replacement unless ``replace`` is set."""
        if self.replace:
            return space.sample(rng, self.sample)
        return uniform_sample(space, rng, self.sample)

    def problem(self, space: CodeSpace) -> None:
        """Refuse a sample without replacement larger than the space."""
        if not self.replace and space.enumerable and self.sample > space.size:
            raise InvalidGameError(
                f"{self.sample} secrets cannot be drawn without replacement from the "
                f"{space.size} codes of {space}; use secrets: full, a smaller sample, or "
                "add replace: true to draw with replacement (secrets then repeat)"
            )


class ListSecrets(Strict):
    """``secrets: {list: [ABBC, ...]}``."""

    codes: list[str] = Field(alias="list", min_length=1)
    """The secrets, written as codes (``ABBC``); each is played once per run."""

    def describe(self) -> str:
        """The value of the games table's ``secrets`` column."""
        return "list"

    def count(self, space: CodeSpace) -> int:
        """How many secrets this source gives."""
        return len(self.codes)

    def draw(self, space: CodeSpace, rng: np.random.Generator) -> Codes:
        """The listed codes, in order."""
        return explicit(space, self.codes)

    def problem(self, space: CodeSpace) -> None:
        """Raise :class:`InvalidGameError` for a listed code not of ``space``."""
        explicit(space, self.codes)


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

    def count(self, space: CodeSpace) -> int:
        """How many secrets this source gives."""
        return self.n

    def draw(self, space: CodeSpace, rng: np.random.Generator) -> Codes:
        """``n`` secrets chosen by the SCSA."""
        return draw_secrets(self.scsa, space, rng, self.n)

    def problem(self, space: CodeSpace) -> None:
        """Raise :class:`InvalidGameError` if the SCSA cannot choose codes of ``space``."""
        draw_secrets(self.scsa, space, np.random.default_rng(0), 1)


SecretSource = FullSecrets | SampleSecrets | ListSecrets | ScsaSecrets


def source_problem(space: CodeSpace, source: SecretSource) -> str | None:
    """Why this source cannot give secrets of this size (``None`` when it can)."""
    try:
        source.problem(space)
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
