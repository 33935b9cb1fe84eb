"""``kill -9`` leftovers: every writer's temporary files are removed by the next run.

A process killed outright runs no clean-up, so whatever it had in progress stays: temp files
beside its output (``.NAME.PID-XXXXXXXX.part``, a pack build's ``.tmp`` staging folder), the
clip cache's temp files (in its ``tmp`` folder), and its scratch folders in ``$TMPDIR``
(``spacealert-KIND-PID-XXXXXXXX``: a speech program's text and WAV). The next command must find
and remove those whose owner is gone, and nothing else (README, "Outputs"; authoring/_files.py).

Each writer is started for real in a subprocess with a private ``$TMPDIR`` and clip cache:
either killed with SIGKILL mid-way (``kill -9 PID``: the command alone, its children orphaned),
or faced with leftovers named after a process that has exited, then run again.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.tools.processes import left_running

ROOT = Path(__file__).resolve().parents[1]
MISSION = ROOT / "tests" / "site" / "data" / "pack" / "missions" / "tiny-drill.yaml"  # 3:20
FLASH = ROOT / "tests" / "generate" / "data" / "mission-1.flash.txt"
PACK_YAML = """\
format: 1
title: "Leftovers"
description: "A pack for the kill tests."
authors: ["Test"]
licence: CC0-1.0
languages: [en]
voices: [en]
audio: [wav]
missions:
  - missions/tiny-drill.yaml
"""
HOUR_AGO = time.time() - 3600

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def _env(tmp_path: Path) -> dict[str, str]:
    for name in ("tmpdir", "cache", "out"):
        (tmp_path / name).mkdir(exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path / "tmpdir"),
           "SPACEALERT_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("SPACEALERT_DEBUG", None)
    return env


def _pack(tmp_path: Path) -> Path:
    pack = tmp_path / "pack"
    (pack / "missions").mkdir(parents=True)
    (pack / "pack.yaml").write_text(PACK_YAML, encoding="utf-8")
    (pack / "missions" / MISSION.name).write_bytes(MISSION.read_bytes())
    return pack


def _run(args: list[str], tmp_path: Path, env: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, "-m", "authoring", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr


def _start(args: list[str], tmp_path: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    # its own process group, so that the test can wait for the orphans of the kill
    return subprocess.Popen([sys.executable, "-m", "authoring", *args], cwd=tmp_path, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)


def _wait_for(condition: Callable[[], bool], proc: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 180
    while not condition():
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            pytest.fail(f"the command ended (exit {proc.returncode}) before {what}: {err}")
        if time.monotonic() > deadline:
            os.killpg(proc.pid, signal.SIGKILL)
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.002)


def _kill_9(proc: subprocess.Popen[bytes]) -> None:
    """``kill -9 PID``: the command dies at once; its children (flite, ffmpeg) are orphaned
    and end on their own, which is waited for (they may still be writing)."""
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    left = left_running(proc.pid, 60, 0.02)
    assert left == [], "the killed command's children never ended"


def _scratch_of(tmpdir: Path, pid: int, kind: str = "") -> list[Path]:
    return sorted(tmpdir.glob(f"spacealert-{kind or '*'}-{pid}-*"))


def _cache_temps(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in (tmp_path / "cache").rglob(".*"))


def test_kill_9_mid_synthesis_then_the_next_render_leaves_nothing(tmp_path: Path) -> None:
    env = _env(tmp_path)
    out = tmp_path / "out" / "drill.wav"
    out.write_bytes(b"the previous soundtrack")
    args = ["render", str(MISSION), "-o", str(out), "--voice", "en"]
    proc = _start(args, tmp_path, env)
    tmpdir = tmp_path / "tmpdir"
    # mid-synthesis: flite is speaking a cue in its scratch folder (a cold cache)
    _wait_for(lambda: bool(_scratch_of(tmpdir, proc.pid, "flite")), proc, "flite speaking")
    _kill_9(proc)
    assert _scratch_of(tmpdir, proc.pid, "flite")  # what the killed run could not remove
    assert out.read_bytes() == b"the previous soundtrack"
    _run(args, tmp_path, env)
    assert list(tmpdir.iterdir()) == []
    assert [p.name for p in out.parent.iterdir()] == ["drill.wav"]
    assert out.read_bytes()[:4] == b"RIFF"
    assert _cache_temps(tmp_path) == []


def test_kill_9_mid_pack_build_then_the_next_build_leaves_nothing(tmp_path: Path) -> None:
    env = _env(tmp_path)
    pack = _pack(tmp_path)
    site = tmp_path / "out" / "site"
    args = ["pack", "build", str(pack), "-o", str(site)]
    proc = _start(args, tmp_path, env)
    tmpdir = tmp_path / "tmpdir"
    _wait_for(lambda: bool(_scratch_of(tmpdir, proc.pid, "flite"))
              and any(site.parent.glob(f".site.{proc.pid}-*.tmp")), proc,
              "the build rendering into its staging folder")
    _kill_9(proc)
    assert list(site.parent.glob(f".site.{proc.pid}-*.tmp"))  # left by the killed build
    assert _scratch_of(tmpdir, proc.pid)
    _run(args, tmp_path, env)
    assert [p.name for p in site.parent.iterdir()] == ["site"]
    assert (site / "index.html").is_file()
    assert list(tmpdir.iterdir()) == []
    assert _cache_temps(tmp_path) == []


def test_kill_9_mid_generate_count_then_the_next_run_leaves_nothing(tmp_path: Path) -> None:
    env = _env(tmp_path)
    out = tmp_path / "out"
    proc = _start(["generate", "--count", "3000", "--seed", "1", "-o", str(out)], tmp_path, env)
    _wait_for(lambda: sum(1 for p in out.iterdir() if p.suffix == ".part") > 10, proc,
              "the files being written")
    _kill_9(proc)
    assert [p for p in out.iterdir() if p.name.endswith(".part")]
    _run(["generate", "--count", "20", "--seed", "1", "-o", str(out)], tmp_path, env)
    assert sorted(p.name for p in out.iterdir()) == sorted(f"base-{n}.yaml"
                                                           for n in range(1, 21))
    assert list((tmp_path / "tmpdir").iterdir()) == []


def _dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def _make(path: Path, folder: bool, when: float = HOUR_AGO) -> Path:
    if folder:
        (path / "inside").mkdir(parents=True)
        (path / "inside" / "speech.wav").write_bytes(b"RIFF")
    else:
        path.write_bytes(b"half")
    os.utime(path, (when, when))
    return path


def _scratch_leftovers(tmpdir: Path, dead: int) -> tuple[list[Path], list[Path]]:
    """Scratch folders of killed runs (removed) and entries of $TMPDIR that must stay."""
    gone = [_make(tmpdir / f"spacealert-{kind}-{dead}-k2j4h5g6", True)
            for kind in ("flite", "espeak", "play", "native")]
    gone.append(_make(tmpdir / "spacealert-flite-q1w2e3r4", True))  # an earlier version's
    kept = [
        _make(tmpdir / f"spacealert-flite-{os.getpid()}-k2j4h5g6", True),  # a running one's
        _make(tmpdir / "spacealert-espeak-zxcvbnm1", True, time.time()),  # old name, recent
        _make(tmpdir / f"spacealert-flite-{dead}-k2j4h5g6.bak", True),  # not our form
        _make(tmpdir / "spacealert-notes", True),  # a user's
        _make(tmpdir / f"other-{dead}-k2j4h5g6", False),  # another program's
    ]
    return gone, kept


def _beside_leftovers(folder: Path, name: str, dead: int, *,
                      staging: bool = False) -> tuple[list[Path], list[Path]]:
    """Temp files (or staging folders) of killed writers of ``name`` and what must stay."""
    if staging:
        gone = [_make(folder / f".{name}.{dead}-k2j4h5g6.tmp", True),
                _make(folder / f".{name}.{dead}-a1s2d3f4.old", True)]
    else:
        gone = [_make(folder / f".{name}.{dead}-k2j4h5g6.part", False),
                _make(folder / f".other.yaml.{dead}-zz99aa11.part", False)]
    kept = [_make(folder / f".{name}.{os.getpid()}-k2j4h5g6.part", False),  # a running one's
            _make(folder / f".{name}.notes.part", False),  # a user's, not our form
            _make(folder / "notes.txt", False)]
    return gone, kept


WRITERS: dict[str, list[str]] = {
    "render": ["render", str(MISSION), "-o", "out/drill.wav", "--voice", "en"],
    "sheets": ["sheets", str(MISSION), "-o", "out/drill.pdf"],
    "pack build": ["pack", "build", "pack", "-o", "out/site"],
    "generate --count": ["generate", "--count", "5", "--seed", "3", "-o", "out"],
    "generate": ["generate", "--seed", "3", "-o", "out/base-3.yaml"],
    "import": ["import", str(FLASH), "--from", "flash-code", "-o", "out/m1.yaml"],
    "export": ["export", str(MISSION), "--to", "jsamg-xml", "-o", "out/drill.xml"],
}
#: Writers that use the clip cache (and so sweep its temp folder).
AUDIO = {"render", "pack build"}


@pytest.mark.parametrize("writer", list(WRITERS))
def test_leftovers_of_a_finished_process_are_removed_by_the_next_run(tmp_path: Path,
                                                                     writer: str) -> None:
    env = _env(tmp_path)
    if writer == "pack build":
        _pack(tmp_path)
    args = WRITERS[writer]
    output = Path(args[args.index("-o") + 1])
    name = "base-1.yaml" if writer == "generate --count" else output.name
    folder = tmp_path / (output if writer == "generate --count" else output.parent)
    dead = _dead_pid()
    gone, kept = _beside_leftovers(folder, name, dead, staging=writer == "pack build")
    scratch_gone, scratch_kept = _scratch_leftovers(tmp_path / "tmpdir", dead)
    gone += scratch_gone
    kept += scratch_kept
    if writer in AUDIO:  # a clip (or an encoding) the killed run was storing
        temps = tmp_path / "cache" / "tmp"
        temps.mkdir()
        gone.append(_make(temps / f".{'ab' * 32}.clip.{dead}-k2j4h5g6.part", False))
        kept.append(_make(temps / f".{'ab' * 32}.clip.{os.getpid()}-k2j4h5g6.part", False))
    _run(args, tmp_path, env)
    assert [p.name for p in gone if p.exists()] == []
    assert [p.name for p in kept if not p.exists()] == []
    # nothing else is left: the temp folder holds only what must stay, the output folder
    # no other hidden entry
    assert sorted((tmp_path / "tmpdir").iterdir()) == sorted(scratch_kept)
    hidden = sorted(p for p in folder.iterdir() if p.name.startswith("."))
    assert hidden == sorted(p for p in kept if p.parent == folder and p.name.startswith("."))
    assert all(p.parent.name == "tmp" for p in (tmp_path / "cache").rglob(".*"))


def test_a_render_that_only_reads_the_cache_removes_its_killed_writes(tmp_path: Path) -> None:
    # the next render may find every clip in the cache and store none: it sweeps all the same
    env = _env(tmp_path)
    args = ["render", str(MISSION), "-o", "out/drill.wav", "--voice", "en"]
    _run(args, tmp_path, env)
    dead = _dead_pid()
    temps = tmp_path / "cache" / "tmp"
    temps.mkdir(exist_ok=True)
    leftovers = [_make(temps / f".{'cd' * 32}.clip.{dead}-k2j4h5g6.part", False),
                 _make(temps / f".{'ef' * 32}.mp3.{dead}-a1s2d3f4.part", False)]
    clips = sorted((tmp_path / "cache").rglob("*.clip"))
    _run(args, tmp_path, env)
    assert not any(p.exists() for p in leftovers)
    assert sorted((tmp_path / "cache").rglob("*.clip")) == clips  # every clip read, none new
    assert list(temps.iterdir()) == []
