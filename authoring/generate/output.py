"""Writes text files atomically and never over a user's file unless asked to."""

from __future__ import annotations

from pathlib import Path

from authoring._files import write_atomic
from authoring.errors import InvalidInputError, UsageError


def refuse_existing(path: Path, force: bool) -> None:
    """Raises ``UsageError`` when ``path`` exists and ``force`` is off."""
    if path.exists() and not force:
        raise UsageError(f"{path}: file exists; refusing to overwrite it",
                         hint="pass --force to replace it, or choose another -o")


def write_text_atomic(path: Path, text: str, *, force: bool = False) -> None:
    """Writes ``text`` to ``path`` atomically, creating its folder, refusing to overwrite.

    A reader never sees half a file, and an interrupted write leaves the old file intact.
    """
    refuse_existing(path, force)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InvalidInputError(f"{path}: cannot write: {(error.strerror or str(error)).lower()}"
                                ) from None
    write_atomic(path, text)
