"""Writes text files atomically, replacing an existing file as every command does.

One overwrite policy for the whole toolkit (README, "Outputs"): the file named by ``-o`` is
replaced, but only once the new one is complete (a temp file in the same folder, then a
rename), so a reader never sees half a file and an interrupted command leaves the old file
intact. Like ``cp``, ``pandoc -o`` or a compiler, and like ``render``, ``sheets`` and ``solve
-o`` always did; ``--force`` is still accepted by ``generate``, ``import`` and ``export`` and
changes nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from authoring._files import remove_own_temps, stage_file, sweep_leftovers, write_atomic
from authoring.errors import InvalidInputError, UsageError


def _make_folder(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InvalidInputError(f"{path}: cannot write: {(error.strerror or str(error)).lower()}"
                                ) from None


def write_text_atomic(path: Path, text: str) -> None:
    """Writes ``text`` to ``path`` atomically (replacing it), creating its folder."""
    _make_folder(path)
    write_atomic(path, text)


def write_texts_atomic(files: Iterable[tuple[Path, str]]) -> None:
    """Writes many (path, text) pairs, all or none: each is written to its temp file as it
    comes (while the next is still being made), and only once ``files`` is exhausted without
    an error are they all renamed into place; otherwise every temp file is removed."""
    started: dict[Path, list[str]] = {}
    staged: list[tuple[str, Path]] = []
    try:
        for path, text in files:
            folder = path.parent
            names = started.get(folder)
            if names is None:  # once per folder: create it, check it, sweep old leftovers
                _make_folder(path)
                if not folder.is_dir():
                    raise UsageError(f"cannot write {path}: the folder {folder} does not exist")
                sweep_leftovers(folder, ".part")
                names = started[folder] = []
            if os.path.isdir(path):  # refused before anything is renamed: all or none
                raise InvalidInputError(f"{path}: cannot write: it is a folder")
            sweep_leftovers(folder, ".part", path.name)  # the names of earlier versions
            names.append(path.name)
            staged.append((stage_file(path, text.encode("utf-8")), path))
        for temp, path in staged:
            try:
                os.replace(temp, path)
            except OSError as error:
                raise InvalidInputError(f"cannot write {path}: {error.strerror or error}"
                                        ) from None
    except BaseException:
        # this also catches a temp file whose writer was interrupted before it was registered
        for folder, names in started.items():
            remove_own_temps(folder, names)
        raise
