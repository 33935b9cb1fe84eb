"""Atomic writes keep the old file until the new one is complete, and leave no temp files."""

from __future__ import annotations

import os
import stat
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

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


def test_writing_never_changes_the_process_umask(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # threads of a pack build write at the same time: a write that set the umask, even briefly,
    # could leave it at 0 for every later file of the process
    def refuse(mask: int) -> int:
        raise AssertionError(f"os.umask({mask:#o}) called while writing")

    monkeypatch.setattr(os, "umask", refuse)
    write_atomic(tmp_path / "a.txt", "x")
    assert (tmp_path / "a.txt").read_text("utf-8") == "x"


def test_parallel_writes_keep_normal_permissions(tmp_path: Path) -> None:
    old_mask = os.umask(0o022)
    try:
        with ThreadPoolExecutor(max_workers=8) as pool:
            list(pool.map(lambda i: write_atomic(tmp_path / f"{i}.txt", str(i)), range(200)))
        assert os.umask(0o022) == 0o022
    finally:
        os.umask(old_mask)
    assert {stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()} == {0o644}


def test_a_folder_is_listed_once_however_many_files_are_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # generate --count writes thousands of files into one folder: one listing per file made
    # that quadratic (3,000 files: most of the command's time)
    from authoring import _files

    listed: list[str] = []
    real_scandir = os.scandir

    def counting(path: Any) -> Any:
        listed.append(str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", counting)
    for number in range(50):
        _files.write_atomic(tmp_path / f"m{number}.yaml", "x: 1\n")
    assert listed.count(str(tmp_path)) == 1
    assert len(list(tmp_path.iterdir())) == 50


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_a_batch_writes_files_with_the_permissions_of_new_files(tmp_path: Path,
                                                                 mask: int) -> None:
    from authoring.generate.output import write_texts_atomic

    (tmp_path / "m0.yaml").write_text("old\n", encoding="utf-8")
    old_mask = os.umask(mask)
    try:
        write_texts_atomic((tmp_path / f"m{i}.yaml", f"n: {i}\n") for i in range(20))
    finally:
        os.umask(old_mask)
    files = sorted(tmp_path.iterdir())
    assert [p.name for p in files] == sorted(f"m{i}.yaml" for i in range(20))
    assert {stat.S_IMODE(p.stat().st_mode) for p in files} == {0o666 & ~mask}
    assert (tmp_path / "m0.yaml").read_text("utf-8") == "n: 0\n"


def test_a_staged_file_has_the_temp_name_a_later_run_recognises(tmp_path: Path) -> None:
    # a batch killed outright leaves its temp files: the next command must know them as ours
    import re

    from authoring import _files

    payload = "é\n".encode() * 50_000
    temp = Path(_files.stage_file(tmp_path / "m.yaml", payload))
    assert temp.parent == tmp_path and temp.read_bytes() == payload
    assert re.fullmatch(rf"\.m\.yaml\.{os.getpid()}-{_files._RANDOM}\.part", temp.name)
    _files.remove_own_temps(tmp_path, ["m.yaml"])
    assert list(tmp_path.iterdir()) == []


def test_a_file_that_cannot_be_staged_is_a_clear_error_and_undoes_the_batch(
        tmp_path: Path) -> None:
    from authoring.errors import InvalidInputError
    from authoring.generate.output import write_texts_atomic

    # its temp name (``.NAME.PID-XXXXXXXX.part``) is longer than a file name may be
    too_long = "m" * 240 + ".yaml"
    names = ["a.yaml", too_long, "b.yaml"]
    with pytest.raises(InvalidInputError, match=r"cannot write .*m\.yaml: [Ff]ile name too long"):
        write_texts_atomic((tmp_path / name, "x\n") for name in names)
    assert list(tmp_path.iterdir()) == []


def test_a_scratch_folder_carries_its_process_id_and_goes_with_its_block(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import re
    import tempfile

    from authoring import _files

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with _files.scratch_folder("flite") as folder:
        assert folder.parent == tmp_path and folder.is_dir()
        assert re.fullmatch(rf"spacealert-flite-{os.getpid()}-{_files._RANDOM}", folder.name)
        (folder / "speech.wav").write_bytes(b"RIFF")
    assert list(tmp_path.iterdir()) == []


def test_a_scratch_folder_newer_than_the_command_is_kept(tmp_path: Path) -> None:
    # its process is gone, but something changed it after this command started: perhaps a
    # program the killed run started, still writing; a later command removes it
    import subprocess
    import time

    from authoring import _files

    child = subprocess.Popen(["true"])
    child.wait()
    newer = tmp_path / f"spacealert-flite-{child.pid}-abcdefgh"
    newer.mkdir()
    os.utime(newer, (time.time() + 60, time.time() + 60))
    older = tmp_path / f"spacealert-espeak-{child.pid}-abcdefgh"
    older.mkdir()
    os.utime(older, (_files._STARTED - 60, _files._STARTED - 60))
    assert _files.sweep_scratch(tmp_path) == [older]
    assert _files.sweep_scratch(tmp_path) == []  # once per command
    assert newer.exists()
