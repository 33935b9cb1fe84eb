"""A cache that degrades: any unusable cache folder or entry costs time, never the render.

Each fault renders the same short mission: the output bytes must equal a render without any
cache, exactly one cache warning is printed, and the command succeeds.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from authoring.audio.cache import ENV_VAR, MAGIC
from authoring.cli import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
MINI = """\
format: 1
id: mini-test
title: Mini test
language: en
profile: test-run
players: 5
phases: ["1:30", "2:45"]
events:
  - {at: "0:10", announcement: {text: "Check your plans."}}
"""


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes]:
    """Returns the mini mission and the bytes of its render without a cache."""
    folder = tmp_path_factory.mktemp("mini")
    mission = folder / "mini.yaml"
    mission.write_text(MINI, encoding="utf-8")
    out = folder / "reference.wav"
    result = runner.invoke(app, ["render", str(mission), "-o", str(out), "--voice", "en",
                                 "--no-bed", "--no-cache"])
    assert result.exit_code == 0, result.stderr
    return mission, out.read_bytes()


def _render(mission: Path, out: Path, *cache: str) -> str:
    result = runner.invoke(app, ["render", str(mission), "-o", str(out), "--voice", "en",
                                 "--no-bed", *cache])
    assert result.exit_code == 0, result.stderr
    return result.stderr


def _cache_warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("warning: clip cache")]


def test_a_file_named_as_cache_dir(mini: tuple[Path, bytes], tmp_path: Path) -> None:
    mission, reference = mini
    blocker = tmp_path / "cache-file"
    blocker.write_text("not a folder")
    stderr = _render(mission, tmp_path / "t.wav", "--cache-dir", str(blocker))
    assert (tmp_path / "t.wav").read_bytes() == reference
    (warning,) = _cache_warnings(stderr)
    assert "Not a directory" in warning and "without caching" in warning
    assert blocker.read_text() == "not a folder"


def test_an_environment_cache_path_under_a_file(mini: tuple[Path, bytes], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    mission, reference = mini
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "file" / "clips"))
    stderr = _render(mission, tmp_path / "t.wav")
    assert (tmp_path / "t.wav").read_bytes() == reference
    assert len(_cache_warnings(stderr)) == 1


def test_shards_that_are_files(mini: tuple[Path, bytes], tmp_path: Path) -> None:
    mission, reference = mini
    cache = tmp_path / "cache"
    cache.mkdir()
    for n in range(256):
        (cache / f"{n:02x}").write_text("shard")
    stderr = _render(mission, tmp_path / "t.wav", "--cache-dir", str(cache))
    assert (tmp_path / "t.wav").read_bytes() == reference
    (warning,) = _cache_warnings(stderr)
    assert "File exists" in warning


def _filled_cache(mission: Path, tmp_path: Path) -> list[Path]:
    cache = tmp_path / "cache"
    _render(mission, tmp_path / "first.wav", "--cache-dir", str(cache))
    entries = sorted(cache.rglob("*.clip"))
    assert len(entries) > 5
    return entries


def test_entries_replaced_by_folders(mini: tuple[Path, bytes], tmp_path: Path) -> None:
    mission, reference = mini
    entries = _filled_cache(mission, tmp_path)
    for entry in entries[:3]:
        entry.unlink()
        (entry / "inside").mkdir(parents=True)
    stderr = _render(mission, tmp_path / "t.wav", "--cache-dir", str(tmp_path / "cache"))
    assert (tmp_path / "t.wav").read_bytes() == reference
    (warning,) = _cache_warnings(stderr)
    assert "3 clip(s) rendered without caching" in warning
    assert all(entry.is_dir() for entry in entries[:3])


def test_an_entry_with_a_valid_checksum_but_no_wav(mini: tuple[Path, bytes],
                                                   tmp_path: Path) -> None:
    mission, reference = mini
    entries = _filled_cache(mission, tmp_path)
    payload = b"RIFF but no wave at all"
    entries[0].write_bytes(MAGIC + hashlib.sha256(payload).digest() + payload)
    stderr = _render(mission, tmp_path / "t.wav", "--cache-dir", str(tmp_path / "cache"))
    assert (tmp_path / "t.wav").read_bytes() == reference
    (warning,) = _cache_warnings(stderr)
    assert "rebuilt" in warning
    assert entries[0].read_bytes().startswith(MAGIC)
    assert payload not in entries[0].read_bytes()


def _mount_then_render(options: str, mission: Path, out: Path, cache: Path) -> str:
    """Renders with the cache on a fresh tmpfs mounted with ``options`` (a private namespace)."""
    if shutil.which("unshare") is None:
        pytest.skip("unshare (util-linux) is not installed")
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("user namespaces are not available here")
    cache.mkdir()
    script = (f"mount -t tmpfs -o {options} none {cache} && exec {sys.executable} -m authoring "
              f"render {mission} -o {out} --voice en --no-bed --cache-dir {cache}")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True,
                          text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_a_read_only_cache_folder(mini: tuple[Path, bytes], tmp_path: Path) -> None:
    mission, reference = mini
    stderr = _mount_then_render("ro", mission, tmp_path / "t.wav", tmp_path / "cache")
    assert (tmp_path / "t.wav").read_bytes() == reference
    (warning,) = _cache_warnings(stderr)
    assert "Read-only" in warning


def test_a_full_disk_under_the_cache(mini: tuple[Path, bytes], tmp_path: Path) -> None:
    mission, reference = mini
    stderr = _mount_then_render("size=12k", mission, tmp_path / "t.wav", tmp_path / "cache")
    assert (tmp_path / "t.wav").read_bytes() == reference
    (warning,) = _cache_warnings(stderr)
    assert "No space left" in warning
