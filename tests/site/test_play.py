"""``spacealert play`` for real: the terminal clock with ffplay, the keyboard, Ctrl-C, the browser.

The CLI runs as a child process started the way a terminal starts it (own process group,
SIGINT at its default). ``ffplay`` is a small fake on PATH that records how it was called and
what happened to it (the real one is tried too, with SDL's dummy audio driver); the browser is
``$BROWSER``, a script that hands the URL to the test, which opens it in Chromium.
"""

from __future__ import annotations

import ast
import io
import os
import pty
import shutil
import signal
import subprocess
import sys
import time
import wave
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from authoring import _files
from authoring._files import sweep_scratch
from authoring.errors import EnvironmentMissingError
from authoring.publish import BuildResult
from authoring.publish.play import (
    PlaySite,
    StopWatch,
    play_in_terminal,
    status_line,
)
from tests.site.helpers import PACK

REPO = Path(__file__).resolve().parents[2]
MISSION = PACK / "missions" / "tiny-drill.yaml"  # phases end at 1:40 and 3:20

FAKE_FFPLAY = """#!{python}
import os, signal, sys, time
from pathlib import Path
log = Path({log!r})
if Path(sys.argv[-1]).stat().st_size < 100_000:
    sys.exit(0)  # the probe of the sound output (check_audio_output): a sound device here
log.write_text(repr(sys.argv[1:]) + "\\n" + str(os.getpid()) + "\\n")
signal.signal(signal.SIGINT, signal.SIG_IGN)  # the player must end it, whatever it ignores
signal.signal(signal.SIGTERM, lambda *_: (log.open("a").write("terminated\\n"), sys.exit(0)))
assert Path(sys.argv[-1]).stat().st_size > 1_000_000  # the WAV is there while it plays
time.sleep(float(os.environ.get("FAKE_FFPLAY_SECONDS", "30")))
log.open("a").write("played\\n")
"""


def test_status_line() -> None:
    assert status_line(0, (100_000, 200_000)) == "T+0:00  phase 1 of 2, 1:40 left"
    assert status_line(99_001, (100_000, 200_000)) == "T+1:39  phase 1 of 2, 0:01 left"
    assert status_line(100_000, (100_000, 200_000)) == "T+1:40  phase 2 of 2, 1:40 left"
    assert status_line(200_000, (100_000, 200_000)) == "T+3:20  operation ended"
    assert status_line(5_000, (100_000,), paused=True).endswith("[paused: space resumes]")


def test_stop_watch_leaves_out_the_paused_time() -> None:
    now = [10.0]
    watch = StopWatch(lambda: now[0])
    now[0] = 12.5
    watch.pause()
    now[0] = 20.0
    assert (watch.ms(), watch.paused) == (2500, True)
    watch.resume()
    now[0] = 21.0
    assert (watch.ms(), watch.paused) == (3500, False)


def test_a_missing_ffplay_is_a_missing_environment_piece(tmp_path: Path) -> None:
    site = PlaySite(tmp_path, "missions/x.html", tmp_path / "x.wav", (1000,), 1000, "x")
    with pytest.raises(EnvironmentMissingError, match="no-such-ffplay not found") as caught:
        play_in_terminal(site, sys.stdout, None, ffplay="no-such-ffplay")
    assert caught.value.exit_code == 3


def test_leftovers_of_dead_sessions_only_are_removed(tmp_path: Path) -> None:
    dead = subprocess.Popen(["true"])
    dead.wait()  # its pid now names no process
    mine = tmp_path / f"spacealert-play-{os.getpid()}-abc12345"
    theirs = tmp_path / f"spacealert-play-{dead.pid}-xyz_6789"
    other = tmp_path / "spacealert-player-notes"
    for folder in (mine, theirs, other):
        (folder / "files").mkdir(parents=True)
        before = _files._STARTED - 60  # made before this command started
        os.utime(folder, (before, before))
    assert sweep_scratch(tmp_path) == [theirs]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([mine.name, other.name])


@pytest.fixture
def env(tmp_path: Path, built: BuildResult) -> dict[str, str]:
    """PATH with the fake ffplay first, a private TMPDIR, the session build's clip cache."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "ffplay"
    fake.write_text(FAKE_FFPLAY.format(python=sys.executable, log=str(tmp_path / "ffplay.log")),
                    encoding="utf-8")
    fake.chmod(0o755)
    temp = tmp_path / "tmp"
    temp.mkdir()
    environ = {k: v for k, v in os.environ.items()
               if k not in ("BROWSER", "DISPLAY", "WAYLAND_DISPLAY")}
    return {**environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "TMPDIR": str(temp),
            "PYTHONPATH": str(REPO),
            "SPACEALERT_CACHE_DIR": str(built.out.parent / "cache")}


def start(args: list[str], env: dict[str, str], **kwargs: Any) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "authoring", "play", *args], cwd=REPO, env=env, text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL), **kwargs)


def ffplay_log(tmp_path: Path, timeout: float = 60) -> list[str]:
    log = tmp_path / "ffplay.log"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log.is_file() and len(lines := log.read_text("utf-8").splitlines()) >= 2:
            return lines
        time.sleep(0.1)
    raise AssertionError("ffplay was not started")


def gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return state == "Z"


def test_without_a_browser_ffplay_plays_with_a_clock(tmp_path: Path,
                                                     env: dict[str, str]) -> None:
    env["FAKE_FFPLAY_SECONDS"] = "2.5"
    done = subprocess.run(
        [sys.executable, "-m", "authoring", "play", str(MISSION)], cwd=REPO, env=env,
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    args, _pid, *events = (tmp_path / "ffplay.log").read_text("utf-8").splitlines()
    assert events == ["played"]
    called = ast.literal_eval(args)  # the fake wrote a Python list literal
    assert called[:2] == ["-nodisp", "-autoexit"] and called[-1].endswith(".wav")
    lines = done.stdout.splitlines()
    assert lines[0] == "T+0:00  phase 1 of 2, 1:40 left"  # a line, not a redrawn one
    assert "\r" not in done.stdout
    assert "playing with ffplay" in done.stderr
    assert list((tmp_path / "tmp").iterdir()) == []  # the rendered site is removed


def process_state(pid: int) -> str:
    """The one-letter state of a process (``T``: stopped), from /proc."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def settles(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Waits until ``condition`` holds (at most ``timeout`` seconds); tells whether it did."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_space_pauses_and_resumes_q_stops(tmp_path: Path, env: dict[str, str]) -> None:
    main, side = pty.openpty()
    child = start([str(MISSION)], env, stdin=side, stdout=side, stderr=subprocess.PIPE)
    os.close(side)
    seen = b""

    def read_until(text: bytes, timeout: float = 60) -> None:
        nonlocal seen
        deadline = time.monotonic() + timeout
        while text not in seen and time.monotonic() < deadline:
            try:
                seen += os.read(main, 4096)
            except OSError:
                break
        assert text in seen, seen[-200:]

    try:
        read_until(b"\rT+0:01  phase 1 of 2, 1:39 left\x1b[K")  # redrawn in place
        pid = int(ffplay_log(tmp_path)[1])
        os.write(main, b" ")
        read_until(b"[paused: space resumes]")
        # ffplay is stopped, so is the sound (a signal takes effect when the kernel next
        # schedules the process: on a busy machine a moment after the line is printed)
        assert settles(lambda: process_state(pid) == "T")
        seen = b""
        time.sleep(1.5)
        os.write(main, b" ")
        read_until(b"left\x1b[K")
        assert b"T+0:03" not in seen  # the paused 1.5 s did not count
        assert settles(lambda: process_state(pid) != "T")
        os.write(main, b"q")
        assert child.wait(timeout=10) == 0
        assert gone(pid)
        assert ffplay_log(tmp_path)[2:] == ["terminated"]
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        assert child.stderr is not None
        child.stderr.close()
        os.close(main)
    assert list((tmp_path / "tmp").iterdir()) == []


def interrupt(child: subprocess.Popen[str]) -> tuple[int, str]:
    os.killpg(child.pid, signal.SIGINT)  # what Ctrl-C does: the whole foreground group
    _, errors = child.communicate(timeout=20)
    return child.returncode, errors


def test_ctrl_c_stops_cleanly(tmp_path: Path, env: dict[str, str]) -> None:
    child = start([str(MISSION), "--terminal"], env, stdout=subprocess.PIPE,
                  stderr=subprocess.PIPE)
    pid = int(ffplay_log(tmp_path)[1])
    time.sleep(0.5)
    code, errors = interrupt(child)
    assert code == 130
    assert errors.splitlines()[-1] == "interrupted"
    assert "Traceback" not in errors
    assert gone(pid)  # it ignored SIGINT: play ended it
    assert list((tmp_path / "tmp").iterdir()) == []


def test_sigterm_stops_cleanly_and_a_killed_session_is_cleaned_next_time(
        tmp_path: Path, env: dict[str, str]) -> None:
    child = start([str(MISSION), "--terminal"], env, stdout=subprocess.PIPE,
                  stderr=subprocess.PIPE)
    pid = int(ffplay_log(tmp_path)[1])
    os.kill(child.pid, signal.SIGTERM)
    _, errors = child.communicate(timeout=20)
    assert child.returncode == 143, errors
    assert errors.splitlines()[-1] == "terminated" and "Traceback" not in errors
    assert gone(pid)
    assert list((tmp_path / "tmp").iterdir()) == []

    (tmp_path / "ffplay.log").unlink()
    child = start([str(MISSION), "--terminal"], env, stdout=subprocess.PIPE,
                  stderr=subprocess.PIPE)
    pid = int(ffplay_log(tmp_path)[1])
    os.kill(child.pid, signal.SIGKILL)  # no clean-up at all
    child.wait(timeout=20)
    os.kill(pid, signal.SIGTERM)  # its orphaned ffplay (the test's own fake) holds the pipes
    child.communicate(timeout=20)
    left = list((tmp_path / "tmp").iterdir())
    assert len(left) == 1 and left[0].name.startswith(f"spacealert-play-{child.pid}-")
    env["FAKE_FFPLAY_SECONDS"] = "0.2"
    done = subprocess.run([sys.executable, "-m", "authoring", "play", str(MISSION)], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert list((tmp_path / "tmp").iterdir()) == []  # the killed session's folder too


def test_random_mission_is_generated_and_played(tmp_path: Path, env: dict[str, str]) -> None:
    env["FAKE_FFPLAY_SECONDS"] = "0.5"
    done = subprocess.run(
        [sys.executable, "-m", "authoring", "play", "--random", "--profile", "test-run",
         "--seed", "7"], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "seed 7" in done.stderr
    assert done.stdout.startswith("T+0:00  phase 1 of ")
    assert ffplay_log(tmp_path)[2:] == ["played"]


@pytest.mark.parametrize("args", [[], [str(MISSION), "--random"], [str(MISSION), "--seed", "3"],
                                  ["--random", "--profile", "nope"]])
def test_usage_errors(env: dict[str, str], args: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "authoring", "play", *args], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr


def test_real_ffplay_plays_and_stops(tmp_path: Path, env: dict[str, str]) -> None:
    real = next((Path(p) / "ffplay" for p in os.environ["PATH"].split(os.pathsep)
                 if (Path(p) / "ffplay").is_file()), None)
    if real is None:
        pytest.skip("needs ffplay")
    env["PATH"] = os.environ["PATH"]
    env["SDL_AUDIODRIVER"] = "dummy"  # no sound card needed
    child = start([str(MISSION), "--terminal"], env, stdout=subprocess.PIPE,
                  stderr=subprocess.PIPE)
    assert child.stdout is not None
    assert child.stdout.readline() == "T+0:00  phase 1 of 2, 1:40 left\n"
    time.sleep(1.5)
    players = subprocess.run(["pgrep", "-g", str(child.pid), "-x", "ffplay"],
                             capture_output=True, text=True).stdout.split()
    assert len(players) == 1  # still playing: it did not fail at start
    code, errors = interrupt(child)
    assert code == 130, errors
    assert "Traceback" not in errors
    assert gone(int(players[0]))
    assert list((tmp_path / "tmp").iterdir()) == []


def _real_ffplay() -> str:
    real = shutil.which("ffplay", path=os.environ["PATH"])
    if real is None:
        pytest.skip("needs ffplay")
    return real


@pytest.mark.parametrize("args", [["--terminal"], []])
def test_no_sound_output_is_one_message_and_exit_3(tmp_path: Path, env: dict[str, str],
                                                   args: list[str]) -> None:
    # Issue 38: ffplay without a sound device printed ALSA's raw errors and exited 0. An ALSA
    # configuration without any device makes every machine one without sound.
    _real_ffplay()
    env["PATH"] = os.environ["PATH"]
    no_devices = tmp_path / "asound.conf"
    no_devices.write_text("", encoding="utf-8")
    env.update(SDL_AUDIODRIVER="alsa", ALSA_CONFIG_PATH=str(no_devices))
    done = subprocess.run([sys.executable, "-m", "authoring", "play", str(MISSION), *args],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 3, done.stderr
    assert done.stderr.splitlines() == [
        "error: no sound output: ffplay could not open an audio device (Unknown PCM default)",
        "  hint: connect or enable a sound device (PulseAudio, PipeWire or ALSA), or serve the "
        "player page and open it on a device with sound: spacealert play MISSION --no-browser"]
    assert done.stdout == ""  # found out before playing: no clock, no rendering
    assert list((tmp_path / "tmp").iterdir()) == []


def test_a_device_lost_after_the_probe_is_the_same_message(tmp_path: Path) -> None:
    # the real run's stderr is read like the probe's: never shown raw, exit 3
    real = _real_ffplay()
    site = PlaySite(tmp_path, "index.html", tmp_path / "x.wav", (1000,), 1000, "x")
    with wave.open(str(site.audio), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(8000)
        out.writeframes(b"\0\0" * 800)
    no_devices = tmp_path / "asound.conf"
    no_devices.write_text("", encoding="utf-8")
    saved = {k: os.environ.get(k) for k in ("SDL_AUDIODRIVER", "ALSA_CONFIG_PATH")}
    os.environ.update(SDL_AUDIODRIVER="alsa", ALSA_CONFIG_PATH=str(no_devices))
    try:
        with pytest.raises(EnvironmentMissingError, match="no sound output"):
            play_in_terminal(site, io.StringIO(), None, ffplay=real)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@pytest.fixture
def browser_env(tmp_path: Path, env: dict[str, str]) -> Iterator[dict[str, str]]:
    opener = tmp_path / "bin" / "open-url"
    opener.write_text(f"#!/bin/sh\necho \"$1\" > {tmp_path / 'url.txt'}\n", encoding="utf-8")
    opener.chmod(0o755)
    yield {**env, "BROWSER": f"{opener} %s"}


@pytest.mark.browser
def test_the_page_served_by_play_loads_and_plays(tmp_path: Path, chromium: Any,
                                                 browser_env: dict[str, str]) -> None:
    child = start([str(MISSION)], browser_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        url_file = tmp_path / "url.txt"
        deadline = time.monotonic() + 120
        while not url_file.is_file() and time.monotonic() < deadline:
            time.sleep(0.1)
        url = url_file.read_text("utf-8").strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith(".html#play")
        context = chromium.new_context()
        page = context.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(url)
        page.wait_for_function("document.getElementById('player').dataset.ready === 'yes'")
        page.wait_for_function("!document.getElementById('track').paused")  # started alone
        page.wait_for_function("document.getElementById('clock').textContent === 'T+0:01'",
                               timeout=10_000)
        assert page.get_attribute("#player", "data-view") == "crew"
        assert problems == []
        context.close()
    finally:
        code, errors = interrupt(child)
    assert code == 130, errors
    assert errors.splitlines()[-1] == "interrupted"
    assert not (tmp_path / "ffplay.log").exists()
    assert list((tmp_path / "tmp").iterdir()) == []


@pytest.mark.browser
def test_no_browser_prints_the_player_address_as_studio_does(
        tmp_path: Path, chromium: Any, browser_env: dict[str, str]) -> None:
    # Issue 38: --no-browser meant ffplay in play and "print the address" in studio; now it
    # means the latter in both, so that a headless user gets the player page's URL
    child = start([str(MISSION), "--no-browser"], browser_env, stdout=subprocess.PIPE,
                  stderr=subprocess.PIPE)
    try:
        assert child.stdout is not None
        url = child.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith(".html#play")
        page = chromium.new_page()
        page.goto(url.removesuffix("#play"))
        page.wait_for_function("document.getElementById('player').dataset.ready === 'yes'")
        assert page.get_attribute("#player", "data-view") == "crew"
        # Issue 38 item 8: no empty "by · licence ·" fields, no "save this folder" (a scratch
        # folder, removed when play ends)
        footer = page.text_content("footer") or ""
        assert " by " not in footer and "licence" not in footer, footer
        assert "save this folder" not in footer, footer
        page.close()
    finally:
        code, errors = interrupt(child)
    assert code == 130, errors
    assert not (tmp_path / "url.txt").exists()  # the browser was not opened
    assert not (tmp_path / "ffplay.log").exists()  # nor ffplay started
    assert "serving the player page" in errors
