"""What the compiled kernels and the numpy definitions agree on, importable without Numba.

The numpy definitions (:mod:`evo_mastermind.partitions`) and the kernels read the same
tolerance and the same names of the compiled reductions from here, so that neither keeps
a copy of the other's.
"""

from __future__ import annotations

from types import MappingProxyType

SCORE_TOLERANCE = 1e-9
"""Scores closer than this to the best count as tied (float sums differ in the last bits)."""

REDUCTIONS = MappingProxyType({"worst_case": 0, "most_parts": 1, "expected_size": 2, "entropy": 3})
"""The partition reductions the kernels compute, by name, with the number they switch on.

Each reduces the sizes of one guess's parts to a score oriented higher-is-better, with a
bound on the best score a partition into a given number of parts can reach (used to skip
guesses that cannot be best). ``most_parts`` is an integer score: the number of distinct
responses, a population count of one machine word up to 7 pegs.
"""
