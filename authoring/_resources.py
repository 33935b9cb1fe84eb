"""Locates the data folders shipped with the toolkit (schemas, missions, voices, site theme).

In a source checkout or an editable install they sit at the repository's top level; in a wheel
they are copied to ``authoring/_data/`` (see ``pyproject.toml``). This module is the only place
that knows both layouts.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """Returns the folder ``name`` (``schemas``, ``missions``, ``voices`` or ``site``)."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"the toolkit's {name}/ folder is missing from this installation")


def schema_path(name: str) -> Path:
    """Returns the path of ``schemas/<name>.schema.json``."""
    return data_dir("schemas") / f"{name}.schema.json"
