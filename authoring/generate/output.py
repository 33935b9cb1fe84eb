"""Writes text files atomically, replacing an existing file as every command does.

One overwrite policy for the whole toolkit (README, "Outputs"): the file named by ``-o`` is
replaced, but only once the new one is complete (a temp file in the same folder, then a
rename), so a reader never sees half a file and an interrupted command leaves the old file
intact. Like ``cp``, ``pandoc -o`` or a compiler, and like ``render``, ``sheets`` and ``solve
-o`` always did; ``--force`` is still accepted by ``generate``, ``import`` and ``export`` and
changes nothing.
"""

from __future__ import annotations

from pathlib import Path

from authoring._files import write_atomic
from authoring.errors import InvalidInputError


def write_text_atomic(path: Path, text: str) -> None:
    """Writes ``text`` to ``path`` atomically (replacing it), creating its folder."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InvalidInputError(f"{path}: cannot write: {(error.strerror or str(error)).lower()}"
                                ) from None
    write_atomic(path, text)
