"""The engine cores side by side: the pure-Python reference, the mypyc build and the C core.

The native core (``authoring/_native.py`` builds it with mypyc) is compiled from this package's
own sources; the C core (``ccore.py``, ``c/core.c``, built by the same command with gcc) is a
port of the game loop to C driven through ctypes. All three share the ``Setup``, ``Plan`` and
``Result`` types, so one game can be handed to any core; the differential test
(tests/engine/test_differential.py) plays the same games through each. ``resolve_batch``
picks the fastest available: c, then native, then python. The action-card projection has
the same three builds (``hands_module``, ``hands_projection``).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Sequence
from functools import cache
from types import ModuleType
from typing import Protocol

from authoring._native import COMPILED, NATIVE_NAME, c_status, status
from authoring.engine.cores import ccore, chands
from authoring.engine.rules import game
from authoring.engine.rules.log import Result
from authoring.engine.rules.plan import Plan
from authoring.engine.rules.setup import Setup

PYTHON = "python"
NATIVE = "native"
C = "c"


class Core(Protocol):
    """What both cores offer (the functions of ``game.py``)."""

    def resolve(self, setup: Setup, plan: Plan, *, seed: int | None = None,
                record: bool = True, trace: bool = False) -> Result: ...

    def resolve_batch(self, games: Sequence[tuple[Setup, Plan]],
                      seeds: Sequence[int] | None = None, *,
                      trace: bool = False) -> list[Result]: ...


@cache
def _native_game() -> ModuleType | None:
    if status() is not None:
        return None
    try:
        return importlib.import_module(f"authoring.{NATIVE_NAME}.rules.game")
    except ImportError:  # a build for another platform or a damaged one: run the reference
        return None


def module(name: str, which: str) -> ModuleType:
    """Returns one engine module of a core by name, e.g. ``module("native", "campaign")``
    (compiled modules only: see ``authoring._native.COMPILED``). The C core has no modules
    of its own (it plays single missions): ``ValueError``."""
    get_core(name)  # refuses a core that is not available
    if name == C:
        raise ValueError(f"expected the python or native core, got {name!r}: the C core "
                         "plays single missions (campaigns run on the Python modules)")
    package = "authoring.engine" if name == PYTHON else f"authoring.{NATIVE_NAME}"
    return importlib.import_module(f"{package}.{_room_path(which)}")


def _room_path(which: str) -> str:
    """Returns a compiled module's dotted path inside the engine, found by its own name
    (``hands`` is ``rules.hands``) or by its path (``rules.hands``)."""
    wanted = which.replace(".", "/")
    for path in COMPILED:
        if path == wanted or path.endswith(f"/{wanted}"):
            return path.replace("/", ".")
    raise ValueError(f"expected a compiled engine module, got {which!r}")


def available() -> tuple[str, ...]:
    """Returns the cores this process can run, slowest first: always ``python``, then
    ``native`` and ``c`` once built."""
    cores = [PYTHON]
    if _native_game() is not None:
        cores.append(NATIVE)
    if ccore.available():
        cores.append(C)
    return tuple(cores)


def get_core(name: str) -> Core:
    """Returns a core by name (``python``, ``native`` or ``c``); ``ValueError`` if not
    available."""
    if name == PYTHON:
        return game
    if name == C and ccore.available():
        c_core: Core = ccore
        return c_core
    native_game = _native_game() if name == NATIVE else None
    if native_game is None:
        why = {NATIVE: f" (native core {status()})",
               C: f" (C core {c_status() or 'does not load'})"}.get(name, "")
        raise ValueError(f"expected an available engine core {available()}, got {name!r}"
                         + why)
    core: Core = native_game  # compiled from game.py: the same functions
    return core


def fastest() -> str:
    """Returns the name of the fastest available core."""
    return available()[-1]


def resolve_batch(games: Sequence[tuple[Setup, Plan]], seeds: Sequence[int] | None = None, *,
                  trace: bool = False) -> list[Result]:
    """Resolves many games on the fastest core (see ``game.resolve_batch``)."""
    batch: Callable[..., list[Result]] = get_core(fastest()).resolve_batch
    return batch(games, seeds, trace=trace)


def hands_module() -> ModuleType:
    """Returns the action-card module (``hands.py``) of the fastest core that compiles it:
    the native build when it is up to date, else the Python reference (the same results:
    tests/engine/test_hands.py compares both). A crew must take every deal, matcher and
    projection of a game from the one module this returns, so that its objects meet their own
    classes."""
    return module(NATIVE if _native_game() is not None else PYTHON, "hands")


def hands_projection() -> chands.ProjectCodes:
    """Returns the fastest ``project_codes`` (``hands.project_codes``'s signature): the C
    projection when the library is built (``chands.project_codes``, the same results:
    tests/engine/test_hands_c.py compares it with the reference), falling back to
    ``hands_module()``'s for what the C side refuses; else ``hands_module()``'s own."""
    fallback = hands_module().project_codes
    if not chands.available():
        return fallback  # type: ignore[no-any-return]
    return functools.partial(chands.project_codes, fallback=fallback)
