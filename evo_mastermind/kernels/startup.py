"""Loading the kernels: Numba's start-up without its extras, and a word when compiling is slow.

Every compiled module imports this one, so the workaround below runs before Numba loads its
numpy support (at a module's first compiled call); the command line imports it before
anything else of Numba's, so that ``coverage`` is not loaded either.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from pathlib import Path
from typing import Any

HIDDEN_WHILE_LOADING = ("coverage", "scipy", "scipy.linalg", "cffi")
"""Numba's optional companions that no kernel here uses, hidden while Numba loads."""

NUMBA_CONFIG_FILE = ".numba_config.yaml"
"""Numba's settings file, read from the working directory with YAML when there is one."""


def _load_numba_without_its_extras() -> None:
    """Import Numba with its optional companions hidden (0.25 s of start-up in all).

    Numba probes for each while it loads: ``coverage`` (to report compiled lines; only a
    coverage run started before Numba loads uses it, and that one is imported already),
    ``scipy`` (to check its version), ``scipy.linalg`` the first time it loads a kernel
    (only to learn whether its inner products may call BLAS; no kernel here has one, so
    Numba keeps its own loops), ``cffi`` (to compile calls of C functions; none here) and
    ``yaml`` (to read :data:`NUMBA_CONFIG_FILE`; hidden only when there is none). Hidden,
    each probe fails at once; a module imported before is not hidden, and each imports as
    usual afterwards.
    """
    hiding: tuple[str, ...] = HIDDEN_WHILE_LOADING
    if not os.path.isfile(NUMBA_CONFIG_FILE):
        hiding = (*hiding, "yaml")
    hidden = [name for name in hiding if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        import numba
        import numba.core.typing.cffi_utils
        import numba.np.arraymath  # noqa: F401
    finally:
        for name in hidden:
            del sys.modules[name]


_load_numba_without_its_extras()


def numba_threads() -> int:
    """The threads Numba's parallel kernels use (``NUMBA_NUM_THREADS``, else one a core)."""
    import numba

    return int(numba.get_num_threads())


PACKAGE = Path(__file__).resolve().parent
CACHE = PACKAGE / "__pycache__"
STAMP = CACHE / "kernels-sources.sha256"
"""The digest of every kernel module's source, as when the cached kernels were compiled."""
COMPILED_BESIDE = ("optimal", "sampling")
"""The packages beside this one whose compiled modules call each other (the optimum's search
calls its guesses) or these kernels (the sampler reads the stop flag)."""


def _drop_stale(sources: list[Path], cache: Path, stamp: Path) -> None:
    """Forget the kernels cached in ``cache`` when any of ``sources`` changed since."""
    digest = hashlib.sha256()
    for source in sorted(sources):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    current = digest.hexdigest()
    try:
        if stamp.read_text() == current:
            return
    except OSError:
        pass  # no stamp yet: a first compilation, or caches of an unknown age
    try:
        for cached in [*cache.glob("*.nbi"), *cache.glob("*.nbc")]:
            cached.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.write_text(current)
    except OSError:
        pass  # a read-only install: Numba caches elsewhere there, by its own rules


def _drop_stale_kernels() -> None:
    """Forget every cached kernel when any kernel module's source changed since they compiled.

    Numba checks a cached kernel against its own file only: a kernel that calls one of
    another module (choosing calls scoring, the optimum's search its guesses) would keep
    the callee's old code. One digest of the whole package decides for all of them, so an
    edit anywhere recompiles everything; each package of :data:`COMPILED_BESIDE` likewise,
    by a digest of its modules and these.
    """
    kernels = list(PACKAGE.glob("*.py"))
    _drop_stale(kernels, CACHE, STAMP)
    for name in COMPILED_BESIDE:
        package = PACKAGE.parent / name
        if package.is_dir():
            cache = package / "__pycache__"
            _drop_stale([*package.glob("*.py"), *kernels], cache, cache / STAMP.name)


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
