"""The mission folder the studio works in: which names it accepts, listing, reading, saving.

The YAML file on disk is the source of truth. A save carries the token (a hash of the bytes)
of the version the page loaded; when the file has changed since, the save is refused with the
new token, so that another editor's work is never overwritten unseen. Names are checked
before any access: relative, inside the folder with every symlink resolved, ``.yaml``/``.yml``.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from authoring._files import write_atomic
from authoring.errors import InvalidInputError, UsageError
from authoring.mission.load import MAX_FILE_BYTES
from authoring.publish.serve import is_inside

_NAME = re.compile(r"^[\w.-]+\.ya?ml$")
#: Folders below the mission folder that are listed (a pack: missions/, campaigns/ …).
MAX_DEPTH = 3
MAX_LISTED = 500


class NotFoundError(InvalidInputError):
    """The named file does not exist (404)."""


class ConflictError(InvalidInputError):
    """The file changed on disk since it was loaded, or a new file's name is taken (409)."""

    def __init__(self, message: str, token: str | None) -> None:
        super().__init__(message, hint="reload the file from disk, or save again to overwrite")
        self.token = token


def token_of(data: bytes) -> str:
    """The version token of a file's bytes."""
    return hashlib.sha256(data).hexdigest()[:32]


class MissionFolder:
    """The folder ``root`` and the YAML files below it."""

    def __init__(self, root: Path) -> None:
        self.root = Path(os.path.realpath(root))

    def resolve(self, name: object, *, must_exist: bool = True) -> Path:
        """The path of the folder's file ``name``; ``UsageError`` for any name outside it."""
        if not isinstance(name, str) or not name or len(name) > 500:
            raise UsageError("'file': expected the name of a .yaml file in the mission folder")
        parts = name.split("/")
        if name.startswith("/") or "\\" in name or "\x00" in name or any(
                p in ("", ".", "..") for p in parts) or not _NAME.match(parts[-1]):
            raise UsageError(f"'file': {name!r} is not a .yaml file name inside the mission "
                             "folder (relative, no '..')")
        path = self.root.joinpath(*parts)
        if not is_inside(str(path), str(self.root)) or os.path.realpath(path) == str(self.root):
            raise UsageError(f"'file': {name!r} leads outside the mission folder")
        if must_exist and not os.path.isfile(os.path.realpath(path)):
            raise NotFoundError(f"no file {name!r} in the mission folder")
        return path

    def files(self) -> list[str]:
        """The YAML files below the folder (hidden folders and outside symlinks skipped)."""
        found: list[str] = []
        for folder, dirs, names in os.walk(self.root):
            depth = len(Path(folder).relative_to(self.root).parts)
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and depth < MAX_DEPTH)
            for name in sorted(names):
                if not _NAME.match(name) or name.startswith("."):
                    continue
                path = Path(folder) / name
                if is_inside(str(path), str(self.root)) and os.path.isfile(path):
                    found.append(path.relative_to(self.root).as_posix())
                if len(found) >= MAX_LISTED:
                    return found
        return found

    def read(self, name: object) -> tuple[str, str]:
        """Returns the text and the token of file ``name``."""
        path = self.resolve(name)
        try:
            with open(path, "rb") as handle:
                raw = handle.read(MAX_FILE_BYTES + 1)
        except OSError as error:
            raise InvalidInputError(f"cannot read {name}: {error.strerror or error}") from None
        if len(raw) > MAX_FILE_BYTES:
            raise InvalidInputError(f"{name} is larger than {MAX_FILE_BYTES} bytes")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidInputError(f"{name} is not UTF-8 text") from None
        return text, token_of(raw)

    def current_token(self, name: object) -> str | None:
        """The token of the file as it is on disk now (None when it is gone)."""
        path = self.resolve(name, must_exist=False)
        try:
            return token_of(path.read_bytes())
        except OSError:
            return None

    def save(self, name: object, text: str, token: object) -> str:
        """Writes ``text`` atomically if the file is still the version ``token``."""
        path = self.resolve(name, must_exist=False)
        now = self.current_token(name)
        if now != token:
            raise ConflictError(f"{name} changed on disk since it was loaded", now)
        data = text.encode("utf-8")
        if len(data) > MAX_FILE_BYTES:
            raise InvalidInputError(f"the text is larger than {MAX_FILE_BYTES} bytes")
        write_atomic(path, data)
        return token_of(data)

    def create(self, name: object, text: str) -> str:
        """Writes a new file ``name``; ``ConflictError`` when it exists."""
        path = self.resolve(name, must_exist=False)
        if os.path.lexists(path):
            raise ConflictError(f"{name} exists already: choose another name", None)
        if not path.parent.is_dir():
            raise NotFoundError(f"no folder {path.parent.relative_to(self.root)} in the "
                                "mission folder")
        data = text.encode("utf-8")
        write_atomic(path, data)
        return token_of(data)
