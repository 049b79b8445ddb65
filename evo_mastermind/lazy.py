"""Package attributes imported on first use, so importing a package stays cheap."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports each exported name from its module when asked.

    Args:
        package: the package's ``__name__`` (for the error of an unknown attribute).
        exports: exported name -> the module defining it.
    """

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        vars(importlib.import_module(package))[name] = value  # later lookups skip this hook
        return value

    return __getattr__


def public_dir(package: str) -> Callable[[], list[str]]:
    """A module ``__dir__`` listing its public API (``__all__``) and its dunder names.

    ``dir()`` and tab completion then show the names that import on first use, and not
    the machinery (``TYPE_CHECKING``, ``lazy_exports``) that defines them.

    Args:
        package: the package's ``__name__``.
    """

    def __dir__() -> list[str]:
        namespace = vars(importlib.import_module(package))
        dunders = (name for name in namespace if name.startswith("__") and name.endswith("__"))
        return sorted({*namespace.get("__all__", ()), *dunders})

    return __dir__
