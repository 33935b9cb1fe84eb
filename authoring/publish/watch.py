"""Rebuilds a pack's site when its files change (``pack serve --watch``).

Polls modification times (stdlib only, no file-system notification service): every
``interval`` seconds the pack folder is listed, and when a file appeared, disappeared or
changed, the site is rebuilt once the folder has stopped changing (an editor may save in
several steps). A failed rebuild is reported and the last good site stays served.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from authoring.errors import AuthoringError
from authoring.publish.build import BuildOptions, BuildResult, build_pack

#: path (relative to the pack) → (modification time in ns, size)
Snapshot = dict[str, tuple[int, int]]


def snapshot(folder: Path, exclude: Iterable[Path] = ()) -> Snapshot:
    """Returns the modification time and size of every file below ``folder``.

    Hidden entries (names starting with a dot: editor swap files, build staging folders) and
    the ``exclude`` folders (the site being served) are skipped.
    """
    skipped = {os.path.realpath(p) for p in exclude}
    found: Snapshot = {}
    for current, folders, files in os.walk(folder):
        folders[:] = sorted(f for f in folders if not f.startswith(".")
                            and os.path.realpath(os.path.join(current, f)) not in skipped)
        for name in files:
            if name.startswith("."):
                continue
            path = os.path.join(current, name)
            try:
                info = os.stat(path)
            except OSError:  # removed while listing: the next poll sees it gone
                continue
            found[os.path.relpath(path, folder)] = (info.st_mtime_ns, info.st_size)
    return found


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """Returns the relative paths added, removed or modified between two snapshots, sorted."""
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))


@dataclass(frozen=True)
class Rebuild:
    """One rebuild: the files that triggered it and its result or its error message."""

    changed: tuple[str, ...]
    result: BuildResult | None
    error: AuthoringError | None


def watch(packdir: Path, out: Path, options: BuildOptions, report: Callable[[Rebuild], None],
          stop: threading.Event, interval: float = 0.5, since: Snapshot | None = None) -> None:
    """Rebuilds ``packdir`` into ``out`` after each change until ``stop`` is set.

    ``since`` is the state the served site was built from (take it before that build, so an
    edit made while it ran or before watching began is not missed); default: now.

    Runs in the calling thread (so Ctrl-C interrupts a build there and the build removes its
    staging folder). Errors of the pack (an invalid mission, a missing voice) are handed to
    ``report`` and watching goes on.
    """
    last = snapshot(packdir, [out]) if since is None else since
    while not stop.wait(interval):
        now = snapshot(packdir, [out])
        if now == last:
            continue
        while not stop.wait(interval):  # let a multi-step save finish
            settled = snapshot(packdir, [out])
            if settled == now:
                break
            now = settled
        if stop.is_set():
            return
        changed = tuple(changes(last, now))
        last = now
        try:
            result = build_pack(packdir, out, options)
        except AuthoringError as error:
            report(Rebuild(changed, None, error))
        else:
            report(Rebuild(changed, result, None))
