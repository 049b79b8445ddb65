"""Stopping a compiled kernel from outside: the flag a long kernel polls.

A kernel running without the GIL cannot be reached by a signal handler or by
:func:`~evo_mastermind.watchdog.time_limit`'s exception until it returns. The long ones
(listing the consistent set, the halves, a tree's growth, a choice over a large pool, the
lookahead) therefore take a one-byte array, :func:`evo_mastermind.kernels.flags.stop_flag`,
read it with :func:`stopped` every few milliseconds of work and return early once it is set;
their Python wrapper then raises (:func:`evo_mastermind.kernels.flags.stoppable`), so an
early return is never taken for a result.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, types
from numba.extending import intrinsic


@intrinsic
def _load_flag(typingctx: Any, flag: Any) -> Any:
    """The flag's first byte, read atomically: a plain read could be hoisted out of a loop."""
    if not isinstance(flag, types.Array) or flag.dtype != types.uint8:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        array = context.make_array(signature.args[0])(context, builder, args[0])
        return builder.load_atomic(array.data, "monotonic", 1)

    return types.uint8(flag), codegen


@njit(cache=True, nogil=True, inline="always")
def stopped(flag: npt.NDArray[np.uint8]) -> bool:
    """Whether someone asked the running kernel to stop (``flag[0]`` set)."""
    return _load_flag(flag) != 0  # type: ignore[call-arg]  # typed by the intrinsic
