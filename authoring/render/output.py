"""Writes output files atomically: a temp file in the same folder, then ``os.replace``."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from authoring.errors import InvalidInputError


def write_atomic(path: Path, data: bytes) -> None:
    """Writes ``data`` to ``path`` so that readers see the old file or the whole new one.

    Raises ``InvalidInputError`` when the folder does not exist or cannot be written.
    """
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise InvalidInputError(f"{path}: cannot write, folder {folder} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise InvalidInputError(f"{path}: cannot write: {error.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as error:
        Path(tmp).unlink(missing_ok=True)
        raise InvalidInputError(f"{path}: cannot write: {error.strerror}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
