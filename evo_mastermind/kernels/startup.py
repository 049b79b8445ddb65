"""Loading the kernels: Numba's start-up without SciPy, and a word when compiling is slow.

Every compiled module imports this one first, so the workaround below runs before Numba
loads its numpy support.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from pathlib import Path
from typing import Any


def _load_numpy_support_without_scipy() -> None:
    """Import Numba's numpy support with ``scipy.linalg`` hidden (0.2 s of start-up).

    Numba imports ``scipy.linalg`` the first time it loads a kernel, only to learn whether
    its inner products may call BLAS; no kernel here uses one. Hidden, the probe fails at
    once and Numba keeps its own loops for them; ``scipy.linalg`` imports as usual later.
    """
    if "scipy.linalg" in sys.modules or "numba.np.arraymath" in sys.modules:
        return  # already paid for, or the probe already ran
    sys.modules["scipy.linalg"] = None  # type: ignore[assignment]
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules["scipy.linalg"]


_load_numpy_support_without_scipy()

PACKAGE = Path(__file__).resolve().parent
CACHE = PACKAGE / "__pycache__"
STAMP = CACHE / "kernels-sources.sha256"
"""The digest of every kernel module's source, as when the cached kernels were compiled."""


def _drop_stale_kernels() -> None:
    """Forget every cached kernel when any kernel module's source changed since they compiled.

    Numba checks a cached kernel against its own file only: a kernel that calls one of
    another module (choosing calls scoring) would keep the callee's old code. One digest of
    the whole package decides for all of them, so an edit anywhere recompiles everything.
    """
    digest = hashlib.sha256()
    for source in sorted(PACKAGE.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    current = digest.hexdigest()
    try:
        if STAMP.read_text() == current:
            return
    except OSError:
        pass  # no stamp yet: a first compilation, or caches of an unknown age
    try:
        for cached in [*CACHE.glob("*.nbi"), *CACHE.glob("*.nbc")]:
            cached.unlink(missing_ok=True)
        CACHE.mkdir(exist_ok=True)
        STAMP.write_text(current)
    except OSError:
        pass  # a read-only install: Numba caches elsewhere there, by its own rules


_drop_stale_kernels()

_CALLED: set[Any] = set()
_ANNOUNCED: list[bool] = []


def _is_cached(kernel: Any) -> bool:
    """Whether Numba's cache index of ``kernel`` is on disk (``module.name-line.pyXY.nbi``)."""
    name = getattr(kernel, "__name__", "")
    return any(CACHE.glob(f"*.{name}-*.nbi"))


def is_quiet() -> bool:
    """Whether ``run --quiet`` silenced notices.

    The engine imports nothing above the codes, so it reads the variable named by
    :data:`evo_mastermind.messages.QUIET_VARIABLE` itself.
    """
    return os.environ.get("EVO_MASTERMIND_QUIET", "") not in ("", "0")


def call(kernel: Any, *args: Any) -> Any:
    """Call a kernel; its first call in a process says so when compiling took over a second.

    A kernel not yet compiled on this machine is announced before it compiles (once per
    process), so the first game's silence of a minute is explained before it starts.
    """
    if kernel in _CALLED:  # a set lookup: ``kernel.signatures`` hashes every type, slowly
        return kernel(*args)
    if not _ANNOUNCED and not _is_cached(kernel) and not is_quiet():
        _ANNOUNCED.append(True)
        print(
            "evo_mastermind: compiling the exhaustive players' kernels for this machine "
            "(about a minute, once; then cached)",
            file=sys.stderr,
            flush=True,
        )
    start = time.perf_counter()
    result = kernel(*args)
    _CALLED.add(kernel)
    seconds = time.perf_counter() - start
    if seconds > 1.0 and not is_quiet():
        print(
            f"evo_mastermind: compiled the exhaustive players' kernel {kernel.__name__} in "
            f"{seconds:.1f} s (once per machine, then cached)",
            file=sys.stderr,
        )
    return result
