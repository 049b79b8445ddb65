"""The partition heuristics, one table of them by name: ours and a user's alike.

A heuristic scores each guess by the partition of the candidates it induces: its
definition maps ``counts[guesses, responses]`` (how many candidates answer each guess
with each response) to one score per guess, *higher is better*, in numpy. That is all a
heuristic needs::

    from evo_mastermind import register_heuristic

    @register_heuristic("two_or_fewer")
    def two_or_fewer(counts):
        \"\"\"The candidates left in parts of at most two codes.\"\"\"
        return np.where(counts <= 2, counts, 0).sum(axis=1).astype(float)

Every exhaustive player (``one_ply`` with ``heuristic: NAME``), the archive EA's choice over
its archive (``archive`` with ``heuristic: NAME``) and decision trees (``tree --player
one_ply -o heuristic=NAME``) then play it. A :class:`Heuristic` object may say in addition
which of the compiled engine's reductions computes the same scores (``compiled``): large
spaces are then scored by that reduction, which also bounds a partition's best score by
its number of parts so that hopeless guesses are skipped. Without one, large spaces are
partitioned by the compiled kernel and scored by the numpy definition: the same guesses,
a few times slower (``docs/extending.md`` gives the figures).

The four built-ins (Runarsson & Merelo 2009, sections 2-3) are entries of this table like
any other, registered as a user's are; their names are reserved. Two other scores stand
beside it, not in it, because neither is a function of a partition: ``lookahead``
(:mod:`evo_mastermind.evolution.choice`, a reserved name too) plays a second ply inside
each part, so it needs the responses themselves; ``local_entropy`` (the player of that
name) scores a code by its colours together with the codes played, whatever the
candidates.

Plugins register heuristics as they register players (the one
:class:`~evo_mastermind.registry.Registry`): a module named by a config's
``plugins:`` or ``--plugin``, or an installed package's entry point in the group
:data:`ENTRY_POINT_GROUP` (naming the function, a :class:`Heuristic`, or a module that
registers on import).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from evo_mastermind.determinism import repeat_problem
from evo_mastermind.kernels.rules import REDUCTIONS
from evo_mastermind.registry import PluginError, Registry

Counts = npt.NDArray[np.int64]
Scores = npt.NDArray[np.float64]
PartitionScore = Callable[[Counts], Scores]
"""A heuristic's definition: partition counts ``(guesses, responses)`` to one score a guess."""

ENTRY_POINT_GROUP = "evo_mastermind.heuristics"
"""The entry-point group through which installed packages make their heuristics known."""


class HeuristicError(PluginError):
    """A heuristic that cannot be registered or used, explained in one line."""


class UnknownHeuristicError(HeuristicError):
    """A heuristic name that is not registered."""


@dataclass(frozen=True)
class Heuristic:
    """One partition heuristic: its readable definition, and optionally its compiled form.

    Attributes:
        score: the definition, ``counts[guesses, responses] -> scores`` (numpy, one float a
            guess, higher is better).
        compiled: the name of the compiled engine's reduction that computes the same scores
            (a key of :data:`~evo_mastermind.kernels.rules.REDUCTIONS`), or ``None``: large
            spaces then get compiled partition counts scored by ``score``.
        about: one line for listings (default: the first line of ``score``'s docstring).
        name: the name it is registered under (set by :func:`register_heuristic`).
    """

    score: PartitionScore
    compiled: str | None = None
    about: str = ""
    name: str = field(default="", compare=False)

    def scores(self, counts: Counts) -> Scores:
        """The definition's scores of ``counts``, checked: one finite-or-infinite float a row.

        Raises:
            HeuristicError: the definition failed, returned another shape, or a NaN; or,
                on one of its first scorings in this process, answered the same counts
                differently when asked twice (:mod:`evo_mastermind.determinism`).
        """
        try:
            answered = np.asarray(self.score(counts))
            problem = _not_real(answered)
            scores = np.asarray(answered, dtype=np.float64) if problem is None else answered
        except Exception as error:  # a user's definition failing is reported in one line
            raise HeuristicError(
                f"heuristic {self.name!r} failed on partition counts of shape "
                f"{counts.shape}: {type(error).__name__}: {error}"
            ) from None
        if problem is not None:  # converting would drop an imaginary part or read text
            raise HeuristicError(
                f"heuristic {self.name!r} returned {problem}; every score must be a real "
                "number (a float a guess, higher is better)"
            )
        if scores.shape != (counts.shape[0],):
            raise HeuristicError(
                f"heuristic {self.name!r} returned scores of shape {scores.shape} for "
                f"{counts.shape[0]} guesses; it must return one score per row of counts"
            )
        if np.isnan(scores).any():
            raise HeuristicError(
                f"heuristic {self.name!r} returned NaN for {int(np.isnan(scores).sum())} of "
                f"{scores.size} guesses; every score must be a number (use -inf for a guess "
                "never to play)"
            )
        problem = repeat_problem(self.score, counts, scores)  # its first scorings, asked twice
        if problem is not None:
            raise HeuristicError(f"heuristic {self.name!r} {problem}")
        return scores


def _not_real(answered: np.ndarray) -> str | None:
    """What a heuristic's answer holds that is not a real number, or ``None`` if nothing."""
    kind = answered.dtype.kind
    if kind == "O":  # Python objects: each must be a real number (a complex is not)
        for value in answered.flat:
            if not _is_real(value):
                return f"a {type(value).__name__} score ({value!r})"
        return None
    if kind == "c":
        imaginary = int(np.count_nonzero(np.imag(answered)))
        return (
            f"complex scores ({answered.dtype}; {imaginary} of {answered.size} with a "
            "non-zero imaginary part)"
        )
    if kind not in "biuf":
        return f"scores of dtype {answered.dtype} (not numbers)"
    return None


def _is_real(value: object) -> bool:
    """Whether ``value`` converts to a float without losing anything (a real number)."""
    if isinstance(value, complex | np.complexfloating | str | bytes):
        return False
    try:
        float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return True


def entropy_score(counts: Counts) -> Scores:
    """Shannon entropy (bits) of each guess's partition: ``Σ p log2(1/p)``."""
    total = counts.sum(axis=1, keepdims=True).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = counts / total
        terms = np.where(counts > 0, -p * np.log2(np.where(counts > 0, p, 1.0)), 0.0)
    return terms.sum(axis=1)


def most_parts_score(counts: Counts) -> Scores:
    """The number of non-empty parts (Kooi's most parts)."""
    return np.count_nonzero(counts, axis=1).astype(np.float64)


def expected_size_score(counts: Counts) -> Scores:
    """Minus the expected size of the part the secret falls in (Irving): ``-Σ c² / n``."""
    total = counts.sum(axis=1).astype(np.float64)
    return -(counts.astype(np.float64) ** 2).sum(axis=1) / total


def worst_case_score(counts: Counts) -> Scores:
    """Minus the size of the largest part (one-ply Knuth minimax)."""
    return -counts.max(axis=1).astype(np.float64)


LOOKAHEAD = "lookahead"
"""The one choice of a ``heuristic:`` option that is not a partition heuristic (two plies, not
a function of counts: :mod:`evo_mastermind.evolution.choice`); no heuristic may take its name."""

H = TypeVar("H", bound="PartitionScore | Heuristic")


def _first_line(score: PartitionScore) -> str:
    doc = (getattr(score, "__doc__", None) or "").strip()
    return doc.splitlines()[0] if doc else ""


def _heuristic_entry(name: str, definition: object) -> Heuristic:
    """``definition`` as the heuristic ``name``: a function or :class:`Heuristic`, checked."""
    entry: Heuristic
    if isinstance(definition, Heuristic):
        entry = replace(definition, name=name)
    elif callable(definition) and not isinstance(definition, type):
        entry = Heuristic(definition, name=name)
    else:
        raise HeuristicError(
            f"cannot register {definition!r} as heuristic {name!r}: it is neither a "
            "function of partition counts nor an evo_mastermind.heuristics.Heuristic"
        )
    if entry.compiled is not None and entry.compiled not in REDUCTIONS:
        raise HeuristicError(
            f"heuristic {name!r}: compiled form {entry.compiled!r} is not one of the "
            f"engine's reductions ({', '.join(REDUCTIONS)}); leave it unset"
        )
    return entry if entry.about else replace(entry, about=_first_line(entry.score))


def _defined_by(definition: object) -> object:
    """The function a heuristic (or a definition of one) is known by: its score."""
    return definition.score if isinstance(definition, Heuristic) else definition


BUILTIN_HEURISTICS = ("entropy", "most_parts", "expected_size", "worst_case")
"""The built-in heuristics' names (reserved), registered below like a user's."""

HEURISTIC_REGISTRY: Registry[Heuristic] = Registry(
    "heuristic",
    ENTRY_POINT_GROUP,
    entry=_heuristic_entry,
    defined_by=_defined_by,
    builtins=dict.fromkeys(BUILTIN_HEURISTICS, __name__),
    reserved={LOOKAHEAD: "the two-ply choice of the archive and sampler players"},
    error=HeuristicError,
    unknown=UnknownHeuristicError,
    hint="a heuristic of your own: register it with @register_heuristic in a module named "
    "under 'plugins:' or with --plugin",
)
"""Every heuristic registered so far, by name."""


def register_heuristic(name: str) -> Callable[[H], H]:
    """Decorator: register a partition heuristic under ``name`` (usable from YAML and the CLI).

    Decorates a plain function ``counts[guesses, responses] -> scores`` (higher is better),
    or is called on a :class:`Heuristic`; either is returned unchanged.

    Raises:
        HeuristicError: not a function nor a :class:`Heuristic`, a compiled form the engine
            does not have, ``name`` a built-in name (``lookahead`` too) or taken by another
            definition.
    """
    return HEURISTIC_REGISTRY.register(name)


def load_entry_points() -> None:
    """Register the heuristics of installed packages (group :data:`ENTRY_POINT_GROUP`).

    An entry point names a function (registered under the entry point's name), a
    :class:`Heuristic`, or a module that registers its heuristics on import.

    Raises:
        HeuristicError: an entry point that does not load, or names none of those.
    """
    HEURISTIC_REGISTRY.load_entry_points()


def registered_heuristics() -> Mapping[str, Heuristic]:
    """Every heuristic registered so far, installed packages' included, by name."""
    load_entry_points()
    return MappingProxyType(HEURISTIC_REGISTRY)


def known_heuristic(name: str | Heuristic) -> Heuristic:
    """The heuristic registered as ``name`` (looking through installed entry points if needed).

    A :class:`Heuristic` is returned as it is.

    Raises:
        UnknownHeuristicError: no heuristic of that name; the message suggests the closest.
    """
    if isinstance(name, Heuristic):
        return name
    return HEURISTIC_REGISTRY.known(name)


register_heuristic("entropy")(Heuristic(entropy_score, compiled="entropy"))
register_heuristic("most_parts")(Heuristic(most_parts_score, compiled="most_parts"))
register_heuristic("expected_size")(Heuristic(expected_size_score, compiled="expected_size"))
register_heuristic("worst_case")(Heuristic(worst_case_score, compiled="worst_case"))
