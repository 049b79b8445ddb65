"""The one naming scheme of the results frames, their former names, and their CSV form.

Every table of an analysis (:data:`~evo_mastermind.analysis.analysis.TABLES`), the
frames :class:`evo_mastermind.Results` returns and the CSV files a report writes name
things the same way (listed frame by frame in ``docs/results.md``, "Results frames"):

- an entry of the config is ``label``: its ``label:``, the value the games table's
  ``label`` holds (the games table's ``player`` is the registry name of the entry's kind);
- a pair of entries is ``label_a`` and ``label_b``, and a figure of one side of the pair
  ends in ``_a`` or ``_b`` (``mean_a``, ``n_b``, ``p_a_better``);
- a block is ``pegs``, ``colors``, ``secrets`` (and ``section`` where the published table
  has sections);
- a count is named by what it counts (``runs``, ``games``, ``rounds``, ``n_secrets``);
  ``n`` is a sample's size in the unit the record's ``test_on`` names (games or runs).

Before version 0.2 the paper's tables named an entry ``player``, the tests a pair ``a`` and
``b``, and the paired tests' adjusted p-value ``p_holm`` (:data:`RENAMED_COLUMNS`).
Indexing a frame of the API by such a name still works, with a :class:`DeprecationWarning`
(:class:`ResultsFrame`); CSV files written with those headers are read by
:func:`read_table`, renamed, with the same warning.

A CSV's floats are written by :func:`table_csv` alone, rounded to
:data:`CSV_SIGNIFICANT_DIGITS` significant digits (``4.405``, not ``4.404999999999999``);
the frames in memory keep full precision.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pandas as pd

PAIR_RENAMES = {"a": "label_a", "b": "label_b"}
"""A pair's former names, in every pairwise table."""

RENAMED_COLUMNS: dict[str, dict[str, str]] = {
    "summary": {"player": "label"},
    "tests": PAIR_RENAMES,
    "paired_tests": {**PAIR_RENAMES, "p_holm": "p_adjusted"},
    "mean_ranks": {"player": "label"},
    "bayesian_tests": PAIR_RENAMES,
    "comparison": {"player": "label"},
    "optimum": {"player": "label"},
    "score_tests": PAIR_RENAMES,
    "groups": {"player": "label"},
}
"""Per table, each former column name and the name it has now."""

CSV_SIGNIFICANT_DIGITS = 10
"""Significant digits of a float in a written CSV: far below any figure the report states
(three decimals of a mean, a p-value's two significant digits), far above the last bits of
floating-point sums that made ``4.404999999999999`` of 4.405."""


def csv_float(value: Any) -> str:
    """``value`` as a CSV cell: rounded to :data:`CSV_SIGNIFICANT_DIGITS`, read back a float.

    ``repr`` of the rounded value keeps ``1.0`` a float when the file is read (``%g``
    would write ``1``, read back an integer).
    """
    return repr(float(f"{float(value):.{CSV_SIGNIFICANT_DIGITS}g}"))


def table_csv(frame: pd.DataFrame) -> str:
    """The CSV text of a results table: every CSV a report writes is written by this."""
    return frame.to_csv(index=False, float_format=csv_float)


def _warn(old: str, new: str, stacklevel: int) -> None:
    warnings.warn(
        f"the column {old!r} is now {new!r} (docs/results.md, Results frames)",
        DeprecationWarning,
        stacklevel=stacklevel,
    )


class ResultsFrame(pd.DataFrame):
    """A results table that still answers to its columns' former names, with a warning.

    ``frame["player"]`` of a summary returns its ``label`` column and warns that the column
    was renamed; so do lists of names and attribute access (``frame.player``). Other
    indexers (``.loc``) know only the current names. Frames derived from it (a selection, a
    copy) answer to the former names too.
    """

    _metadata = ["renamed"]  # noqa: RUF012 (pandas reads this class attribute)
    renamed: dict[str, str]

    @property
    def _constructor(self) -> type[ResultsFrame]:
        return ResultsFrame

    def _current(self, key: Any, stacklevel: int = 4) -> Any:
        renamed: dict[str, str] = self.__dict__.get("renamed") or {}
        if not renamed:
            return key
        if isinstance(key, str):
            if key not in self.columns and key in renamed:
                _warn(key, renamed[key], stacklevel)
                return renamed[key]
            return key
        if isinstance(key, list):
            names = []
            for name in key:  # a loop, not a comprehension: its frame would shift stacklevel
                names.append(self._current(name, stacklevel + 1))
            return names
        return key

    def __getitem__(self, key: Any) -> Any:
        """The column(s) ``key``, a former name warning and standing for the current one."""
        return super().__getitem__(self._current(key))

    def __getattr__(self, name: str) -> Any:  # type: ignore[misc]  # final in pandas-stubs only
        """A column by attribute, a former name warning and standing for the current one."""
        renamed: dict[str, str] = self.__dict__.get("renamed") or {}
        if name in renamed and renamed[name] in self.columns and name not in self.columns:
            _warn(name, renamed[name], stacklevel=3)
            return self[renamed[name]]
        return super().__getattr__(name)


def results_frame(table: pd.DataFrame, name: str) -> ResultsFrame:
    """The table ``name`` as the API returns it: answering to its former column names."""
    frame = ResultsFrame(table)
    frame.renamed = dict(RENAMED_COLUMNS.get(name, {}))
    return frame


def read_table(path: Path | str, name: str) -> pd.DataFrame:
    """A CSV a report wrote, read back with the current column names.

    Args:
        path: the CSV file.
        name: the table it holds (``summary``, ``tests``, ...: a name of
            :data:`~evo_mastermind.analysis.analysis.TABLES`).

    A file written before the columns were renamed (:data:`RENAMED_COLUMNS`) is read with
    its columns renamed and a :class:`DeprecationWarning`; ``report DIR`` rewrites it.
    """
    table = pd.read_csv(path, keep_default_na=False, na_values=[""], dtype={"section": str})
    return current_names(table, name, f"{path}", "; `evo-mastermind report` rewrites it")


def current_names(table: pd.DataFrame, name: str, what: str, advice: str = "") -> pd.DataFrame:
    """``table`` (the table ``name``) with any former column name renamed, and a warning.

    Args:
        table: a results table, perhaps with former column names.
        name: the table it is (a key of :data:`RENAMED_COLUMNS`).
        what: how the warning names the table.
        advice: what the warning adds.
    """
    old = {
        before: after
        for before, after in RENAMED_COLUMNS.get(name, {}).items()
        if before in table.columns and after not in table.columns
    }
    if not old:
        return table
    warnings.warn(
        f"{what} has the former column names {', '.join(old)} (now "
        f"{', '.join(old.values())}){advice}",
        DeprecationWarning,
        stacklevel=3,
    )
    return table.rename(columns=old)
