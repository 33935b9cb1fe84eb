"""Writes text files atomically and never over a user's file unless asked to."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from authoring.errors import InvalidInputError, UsageError


def refuse_existing(path: Path, force: bool) -> None:
    """Raises ``UsageError`` when ``path`` exists and ``force`` is off."""
    if path.exists() and not force:
        raise UsageError(f"{path}: file exists; refusing to overwrite it",
                         hint="pass --force to replace it, or choose another -o")


def write_text_atomic(path: Path, text: str, *, force: bool = False) -> None:
    """Writes ``text`` to ``path`` through a temporary file in the same folder + ``os.replace``.

    A reader never sees half a file, and an interrupted write leaves the old file intact.
    """
    refuse_existing(path, force)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed below, then replaced
            "w", encoding="utf-8", newline="\n", dir=folder, prefix=f".{path.name}.",
            suffix=".tmp", delete=False)
    except OSError as error:
        raise InvalidInputError(f"{path}: cannot write: {(error.strerror or str(error)).lower()}"
                                ) from None
    try:
        with handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(handle.name, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(handle.name)
        raise InvalidInputError(f"{path}: cannot write: {(error.strerror or str(error)).lower()}"
                                ) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(handle.name)
        raise
