"""Package attributes loaded on first use (PEP 562), for packages whose ``__init__`` would
otherwise import everything below it.

``validate`` imports one module of ``authoring.lint``, ``render`` starts its encoder before the
mixer is loaded, and the site's model holds a ``Rating`` without the engine: each of those
packages names its public attributes and where they live, and ``lazy_attributes`` gives the
module ``__getattr__`` that imports them when first asked for. Standard library only, so every
layer may use it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_attributes(package: str, homes: Mapping[str, str],
                    namespace: dict[str, Any]) -> Callable[[str], Any]:
    """Returns a module ``__getattr__`` for ``package``.

    ``homes`` maps each public name to the submodule that defines it ("" when the name is a
    submodule itself); ``namespace`` is the package's ``globals()``, where a loaded name is kept
    so that the next access is an ordinary lookup.
    """

    def attribute(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = importlib.import_module(f"{package}.{home or name}")
        value = module if not home else getattr(module, name)
        namespace[name] = value
        return value

    return attribute
