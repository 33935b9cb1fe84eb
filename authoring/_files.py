"""Writes files atomically: a temp file in the same folder, then ``os.replace``.

Every output of the toolkit goes through here, so a user's file is either the old one or the
whole new one, never half written, and an interrupted command leaves no temp file behind.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from authoring.errors import InvalidInputError, UsageError


def _read_umask() -> int | None:
    """The process umask as Linux reports it, or None where /proc does not say."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return None


def _umask_by_setting() -> int:
    # os.umask can only be read by setting it; done once, at import, before any thread of ours
    # runs. Setting it per call raced between the audio-format threads of a pack build and could
    # leave the process umask at 0.
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


_IMPORT_UMASK: int = _read_umask() or _umask_by_setting()


def _umask() -> int:
    """The current umask without changing it (Linux), else the one read at import."""
    mask = _read_umask()
    return _IMPORT_UMASK if mask is None else mask


@contextlib.contextmanager
def atomic_target(path: str | Path) -> Iterator[Path]:
    """Yields a temp path beside ``path``; when the block succeeds it replaces ``path``.

    Raises ``UsageError`` when the folder does not exist (a wrong ``-o``), and
    ``InvalidInputError`` when it cannot be written. The file gets the permissions a new file
    would get (``mkstemp`` makes it private).
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"cannot write {target}: the folder {folder} does not exist")
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".part")
    except OSError as error:
        raise InvalidInputError(f"cannot write {target}: {error.strerror or error}") from None
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except OSError as error:
        tmp.unlink(missing_ok=True)
        raise InvalidInputError(f"cannot write {target}: {error.strerror or error}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_atomic(path: str | Path, data: bytes | str) -> None:
    """Writes bytes (or UTF-8 text with ``\\n`` line ends) to ``path`` atomically."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_target(path) as tmp:
        tmp.write_bytes(payload)
