"""Writes files atomically: a temp file in the same folder, then ``os.replace``.

Every output of the toolkit goes through here, so a user's file is either the old one or the
whole new one, never half written, and an interrupted command leaves no temp file behind.

A temporary name carries the writer's process id: ``.NAME.PID-XXXXXXXX.part`` (files) and
``.NAME.PID-XXXXXXXX.tmp`` (staging folders). A process killed outright (``kill -9``, a power
cut) cannot remove its own; the next command that writes in the same folder does, but only
names of exactly that form whose process is gone and that are older than the command itself
(and, for the names of earlier versions without a process id, untouched for ten minutes).
Nothing else in the folder is ever touched.

Work that needs a private folder of its own (a speech program's text and WAV files, the page
``play`` serves, a native build) gets a scratch folder in the system's temporary folder
(``$TMPDIR``) from ``scratch_folder``, named ``spacealert-KIND-PID-XXXXXXXX``. The first
command that writes anything (or makes a scratch folder) removes, by the same rules, the
scratch folders of killed runs there; the rest of ``$TMPDIR`` is never touched.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
import re
import shutil
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from authoring.errors import InvalidInputError, UsageError

#: When this command started (leftovers must be older).
_STARTED = time.time()
_LEGACY_AGE_S = 600
_swept: set[tuple[str, str]] = set()
_RANDOM = r"[a-z0-9_]{8}"


def temp_prefix(name: str) -> str:
    """Returns the prefix of this process's temporary names for ``name`` (``.NAME.PID-``)."""
    return f".{name}.{os.getpid()}-"


def process_alive(pid: int) -> bool:
    """Tells whether process ``pid`` still runs (another user's counts as running)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's process: alive
    return True


def sweep_leftovers(folder: Path, suffix: str, name: str | None = None) -> list[Path]:
    """Removes temporary files or folders of killed runs from ``folder``; returns them.

    ``suffix`` is ``.part``, ``.tmp`` or ``.old``; ``name`` limits the sweep (and is needed for
    the earlier names without a process id). Each folder is swept once per command. A leftover
    is removed only when its name has the toolkit's exact form, its writer is no longer
    running, and it was last changed before this command started. Every writer calls this
    first: the scratch folders of killed runs (``sweep_scratch``) go at the same time.
    """
    sweep_scratch()
    key = (str(folder), f"{suffix}|{name}")
    if key in _swept:
        return []
    _swept.add(key)
    # names that start like a leftover; most folders have none, so nothing is compiled
    start = f".{name}." if name is not None else "."
    candidates = [entry for entry in _dot_entries(folder)
                  if entry.name.startswith(start) and entry.name.endswith(suffix)]
    if not candidates:
        return []
    stem = re.escape(name) if name is not None else r".+"
    ours = re.compile(rf"^\.{stem}\.(\d+)-{_RANDOM}{re.escape(suffix)}$")
    legacy = (re.compile(rf"^\.{re.escape(name)}\.{_RANDOM}{re.escape(suffix)}$")
              if name is not None else None)
    return _remove_stale(candidates, ours, legacy)


def _remove_stale(candidates: Iterable[_Entry], ours: re.Pattern[str],
                  legacy: re.Pattern[str] | None) -> list[Path]:
    """Removes the entries named ``ours`` (group 1: the owner's process id) whose owner is gone
    and that are older than this command, and those named ``legacy`` (no process id) that no
    one has changed for ten minutes; returns them."""
    removed: list[Path] = []
    for entry in candidates:
        match = ours.match(entry.name)
        if match is not None:
            stale = entry.changed < _STARTED and not process_alive(int(match.group(1)))
        elif legacy is not None and legacy.match(entry.name):
            stale = entry.changed < min(_STARTED, time.time() - _LEGACY_AGE_S)
        else:
            continue
        if not stale or entry.is_symlink:
            continue
        with contextlib.suppress(OSError):
            if entry.is_dir:
                shutil.rmtree(entry.path)
            else:
                entry.path.unlink()
            removed.append(entry.path)
    return removed


#: Scratch folders: ``spacealert-KIND-PID-XXXXXXXX`` in the system's temporary folder.
SCRATCH_PREFIX = "spacealert-"
_SCRATCH = re.compile(rf"^{SCRATCH_PREFIX}[a-z]+-(\d+)-{_RANDOM}$")
#: The speech backends' folders of earlier versions, without a process id (a call lasts at
#: most a minute: ten minutes untouched means it is over).
_SCRATCH_LEGACY = re.compile(rf"^{SCRATCH_PREFIX}(?:flite|espeak)-{_RANDOM}$")
_no_temp_folder = False


def sweep_scratch(parent: Path | None = None) -> list[Path]:
    """Removes the scratch folders of killed runs from ``parent`` (default: the system's
    temporary folder, ``$TMPDIR``); returns them. Once per folder and command; only names of
    the exact form ``spacealert-KIND-PID-XXXXXXXX`` whose process is gone are removed (and
    the speech backends' names of earlier versions, untouched for ten minutes)."""
    global _no_temp_folder
    if parent is not None:
        folder = str(parent)
    elif _no_temp_folder:
        return []
    else:
        try:  # cached by tempfile after the first call: this runs before every write
            folder = tempfile.gettempdir()
        except OSError:  # no usable temporary folder: none of ours in it, and none to look for
            _no_temp_folder = True
            return []
    key = (folder, "scratch")
    if key in _swept:
        return []
    _swept.add(key)
    candidates = []
    with contextlib.suppress(OSError), os.scandir(folder) as scanned:
        for entry in scanned:
            if not entry.name.startswith(SCRATCH_PREFIX):
                continue
            with contextlib.suppress(OSError):
                candidates.append(_Entry(entry.name, Path(entry.path),
                                         entry.stat(follow_symlinks=False).st_mtime,
                                         entry.is_dir(follow_symlinks=False),
                                         entry.is_symlink()))
    return _remove_stale(candidates, _SCRATCH, _SCRATCH_LEGACY)


def new_scratch_folder(kind: str) -> Path:
    """Makes a private scratch folder, ``$TMPDIR/spacealert-KIND-PID-XXXXXXXX``; the caller
    removes it (``scratch_folder`` does). Leftovers of killed runs are removed first."""
    sweep_scratch()
    return Path(tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{kind}-{os.getpid()}-"))


@contextlib.contextmanager
def scratch_folder(kind: str) -> Iterator[Path]:
    """Yields a new scratch folder (``new_scratch_folder``), removed however the block ends."""
    folder = new_scratch_folder(kind)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@dataclasses.dataclass(frozen=True)
class _Entry:
    name: str
    path: Path
    changed: float
    is_dir: bool
    is_symlink: bool


#: The hidden entries of each folder swept, listed once per command. A leftover must have been
#: changed before the command started, so it is in the first listing: later listings could only
#: add names that are not stale yet (writing a thousand files into one folder then costs one
#: listing, not a thousand).
_listings: dict[str, list[_Entry]] = {}


def _dot_entries(folder: Path) -> list[_Entry]:
    key = str(folder)
    listing = _listings.get(key)
    if listing is not None:
        return listing
    listing = []
    try:
        scanned = list(os.scandir(folder))
    except OSError:
        scanned = []
    for entry in scanned:
        if not entry.name.startswith("."):
            continue
        try:
            changed = entry.stat(follow_symlinks=False).st_mtime
            listing.append(_Entry(entry.name, Path(entry.path), changed,
                                  entry.is_dir(follow_symlinks=False), entry.is_symlink()))
        except OSError:
            continue
    _listings[key] = listing
    return listing


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
def atomic_target(path: str | Path, temp_folder: Path | None = None) -> Iterator[Path]:
    """Yields a temp path beside ``path``; when the block succeeds it replaces ``path``.

    Raises ``UsageError`` when the folder does not exist (a wrong ``-o``), and
    ``InvalidInputError`` when it cannot be written. The file gets the permissions a new file
    would get (``mkstemp`` makes it private). ``temp_folder`` (on the same file system, made
    when missing) takes the temp file instead of ``path``'s folder: for a tree of many folders
    (the clip cache) whose killed writes must be found in one place, not in each folder.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"cannot write {target}: the folder {folder} does not exist")
    sweep_leftovers(folder, ".part")
    sweep_leftovers(folder, ".part", target.name)
    where = folder
    try:
        if temp_folder is not None:
            temp_folder.mkdir(exist_ok=True)
            sweep_leftovers(temp_folder, ".part")
            where = temp_folder
        fd, name = tempfile.mkstemp(dir=where, prefix=temp_prefix(target.name), suffix=".part")
        os.close(fd)
    except OSError as error:
        raise InvalidInputError(f"cannot write {target}: {error.strerror or error}") from None
    except BaseException:
        # interrupted while the temp file was being made: its name is known only by its form
        remove_own_temps(where, [target.name])
        raise
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


def new_temp_beside(target: Path) -> Path:
    """Makes an empty temporary file named like ``atomic_target``'s beside ``target``.

    For a writer's intermediate files: the next run's sweep removes them if this one is killed.
    """
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=temp_prefix(target.name),
                                suffix=".part")
    os.close(fd)
    return Path(name)


#: Temporary names only (never an output): the characters and length ``mkstemp`` uses.
_NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_"
_names = random.Random()


def stage_file(target: Path, payload: bytes) -> str:
    """Writes ``payload`` to a new temp file beside ``target`` and returns its path; the caller
    renames it into place (``os.replace``) or removes it (``remove_own_temps``).

    For batches of small files (``generate --count``): one ``open`` that creates the file with
    the permissions a new file gets (the kernel applies the umask, so no ``chmod``), one
    ``write``, one ``close``. ``atomic_target`` also reads the umask, makes the file private
    and opens it again, about 0.1 ms a file that a batch of thousands paid. The caller has
    made sure the folder exists and swept it (``sweep_leftovers``). Raises
    ``InvalidInputError`` when the file cannot be written.
    """
    prefix = os.path.join(target.parent, temp_prefix(target.name))
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
    for _ in range(100):
        name = prefix + "".join(_names.choices(_NAME_CHARS, k=8)) + ".part"
        try:
            fd = os.open(name, flags, 0o666)
        except FileExistsError:
            continue
        except OSError as error:
            raise InvalidInputError(f"cannot write {target}: {error.strerror or error}"
                                    ) from None
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view):]
        except BaseException as error:
            os.close(fd)
            os.unlink(name)
            if isinstance(error, OSError):
                raise InvalidInputError(f"cannot write {target}: {error.strerror or error}"
                                        ) from None
            raise
        os.close(fd)
        return name
    raise InvalidInputError(f"cannot write {target}: no free temporary name")


def remove_own_temps(folder: Path, names: Iterable[str]) -> None:
    """Removes this process's temp files for ``names`` in ``folder`` (``.NAME.PID-….part``).

    For a batch of writes that must leave nothing behind when interrupted, whatever the
    moment: a Ctrl-C can come after a temp file exists and before its writer knows its name.
    """
    prefixes = tuple(temp_prefix(name) for name in names)
    if not prefixes:
        return
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if entry.name.startswith(prefixes) and entry.name.endswith(".part"):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def write_atomic(path: str | Path, data: bytes | str, temp_folder: Path | None = None) -> None:
    """Writes bytes (or UTF-8 text with ``\\n`` line ends) to ``path`` atomically (the temp
    file in ``temp_folder``, as ``atomic_target`` says)."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_target(path, temp_folder) as tmp:
        fill(tmp, payload)


def fill(tmp: Path, payload: bytes) -> None:
    """Writes ``payload`` into the new, empty temp file ``tmp`` that ``atomic_target`` made.

    Opened without truncating: on ext4 (``auto_da_alloc``) a file truncated by ``open(…,
    "wb")`` is flushed to disk when closed, which made writing 3,000 small files several times
    slower than writing them plainly.
    """
    with open(tmp, "r+b") as file:
        file.write(payload)
