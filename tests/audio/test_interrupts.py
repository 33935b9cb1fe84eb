"""Interrupted renders: the old output survives, no temporary file outlives the command, and
leftovers of a killed run are removed by the next run that writes in the same folder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from authoring._files import sweep_leftovers
from authoring.audio.cache import ENV_VAR

ROOT = Path(__file__).resolve().parents[2]
MISSION = ROOT / "missions/official/mission-1.yaml"  # ten minutes: long enough to hit mid-run


def _env(tmp_path: Path) -> dict[str, str]:
    scratch = tmp_path / "tmpdir"
    scratch.mkdir(exist_ok=True)
    return {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(scratch),
            ENV_VAR: os.environ[ENV_VAR]}


def _start(out: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    # its own process group, as a terminal starts a command (SIGINT not ignored)
    return subprocess.Popen([sys.executable, "-m", "authoring", "render", str(MISSION), "-o",
                             str(out), "--voice", "en"], env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _wait_for_encoding(folder: Path, name: str, proc: subprocess.Popen[bytes]) -> Path:
    """Returns the temporary file once the encoder has written into it (mid-run)."""
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        parts = [p for p in folder.glob(f".{name}.*.part") if p.stat().st_size > 0]
        if parts:
            return parts[0]
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        time.sleep(0.01)
    raise AssertionError("the render never started encoding")


def _dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def _work(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    return folder


def test_kill_9_mid_render_keeps_the_old_output_and_the_next_run_cleans_up(
        tmp_path: Path, decode: Callable[[Path], np.ndarray]) -> None:
    work = _work(tmp_path)
    out = work / "track.mp3"
    out.write_bytes(b"the previous soundtrack")
    env = _env(tmp_path)
    proc = _start(out, env)
    part = _wait_for_encoding(work, out.name, proc)
    os.killpg(proc.pid, signal.SIGKILL)  # the render and its encoder, without warning
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    assert out.read_bytes() == b"the previous soundtrack"
    assert part.exists()  # a killed process cannot clean up: the next run must
    # files the sweep must leave alone: a user's file, and a live process's temporary file
    users = work / f".{out.name}.notes.part"
    users.write_text("mine")
    live = work / f".{out.name}.{os.getpid()}-abcd1234.part"
    live.write_text("still being written")
    time.sleep(0.05)
    again = subprocess.run([sys.executable, "-m", "authoring", "render", str(MISSION), "-o",
                            str(out), "--voice", "en"], env=env, capture_output=True,
                           timeout=600)
    assert again.returncode == 0, again.stderr.decode()
    assert not part.exists()
    assert users.read_text() == "mine" and live.exists()
    assert sorted(p.name for p in work.iterdir()) == sorted([out.name, users.name, live.name])
    assert list((tmp_path / "tmpdir").iterdir()) == []  # nothing left in $TMPDIR either
    assert len(decode(out)) > 600 * 44_100  # the whole new track


def test_ctrl_c_mid_render_leaves_no_temporary_file(tmp_path: Path) -> None:
    work = _work(tmp_path)
    out = work / "track.mp3"
    out.write_bytes(b"the previous soundtrack")
    env = _env(tmp_path)
    proc = _start(out, env)
    _wait_for_encoding(work, out.name, proc)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
    proc.communicate(timeout=60)
    assert proc.returncode != 0
    assert out.read_bytes() == b"the previous soundtrack"
    assert [p.name for p in work.iterdir()] == [out.name]
    assert list((tmp_path / "tmpdir").iterdir()) == []


def test_the_sweep_takes_only_its_own_names_of_finished_processes(tmp_path: Path) -> None:
    dead = _dead_pid()
    old = time.time() - 3600
    leftovers = [tmp_path / f".site.{dead}-k2j4h5g6.tmp", tmp_path / f".a.wav.{dead}-zz99aa11.part",
                 tmp_path / ".site.q1w2e3r4.tmp"]  # an earlier version's name, an hour old
    kept = [tmp_path / f".site.{os.getpid()}-k2j4h5g6.tmp",  # a running process
            tmp_path / f".site.{dead}-k2j4h5g6.tmp.bak",  # not the toolkit's form
            tmp_path / "site", tmp_path / f"site.{dead}-k2j4h5g6.tmp"]
    for path in leftovers + kept:
        if path.name.endswith(".part"):
            path.write_text("x")
        else:
            (path / "inside").mkdir(parents=True)
        os.utime(path, (old, old))
    fresh_legacy = tmp_path / ".site.zxcvbnm1.tmp"
    fresh_legacy.mkdir()  # an earlier version's name, but recent: perhaps still in use
    removed = sweep_leftovers(tmp_path, ".tmp", "site") + sweep_leftovers(tmp_path, ".part")
    assert sorted(removed) == sorted(leftovers)
    assert all(not p.exists() for p in leftovers)
    assert all(p.exists() for p in [*kept, fresh_legacy])


@pytest.mark.parametrize("suffix", [".part", ".tmp"])
def test_a_leftover_newer_than_the_command_is_kept(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f".x.{_dead_pid()}-abcdefgh{suffix}"
    path.write_text("x")
    os.utime(path, (time.time() + 60, time.time() + 60))
    assert sweep_leftovers(tmp_path, suffix, "x") == []
    assert path.exists()
