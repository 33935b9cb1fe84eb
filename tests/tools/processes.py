"""The processes of a command under test: its process group, and waiting for it to end."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path


def group_members(pgid: int) -> list[int]:
    """Returns the live (not zombie) processes of a process group."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                members.append(int(entry.name))
    return members


def left_running(pgid: int, seconds: float, poll: float = 0.05) -> list[int]:
    """Waits up to ``seconds`` for a process group to end; returns the processes that did
    not (killed with SIGKILL, so that a failing test leaves nothing running)."""
    deadline = time.monotonic() + seconds
    while group_members(pgid) and time.monotonic() < deadline:
        time.sleep(poll)
    left = group_members(pgid)
    if left:
        os.killpg(pgid, signal.SIGKILL)
    return left
