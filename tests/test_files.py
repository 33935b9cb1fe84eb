"""Atomic writes keep the old file until the new one is complete, and leave no temp files."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from authoring._files import atomic_target, write_atomic
from authoring.errors import UsageError


def test_write_atomic_replaces_with_normal_permissions(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old", encoding="utf-8")
    old_mask = os.umask(0o022)
    try:
        write_atomic(target, "new")
    finally:
        os.umask(old_mask)
    assert target.read_text("utf-8") == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_a_failure_keeps_the_old_file_and_removes_the_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_target(target) as tmp:
        tmp.write_text("half", encoding="utf-8")
        raise RuntimeError("interrupted")
    assert target.read_text("utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"folder .* does not exist"):
        write_atomic(tmp_path / "nope" / "out.txt", b"x")
