"""``spacealert play``: a mission's soundtrack at the table, started by one command.

The mission is rendered (through the clip cache) into a throw-away one-page site in a temporary
folder: the soundtrack as WAV (no encoding wait: playback starts at once), its captions and the
mission's player page. Then either

* the page is served on 127.0.0.1 (a free port, the hardened preview server) and opened in the
  browser, where the player starts by itself (``#play``), or
* the page is served and its address printed, nothing opened (``--no-browser``, as in
  ``studio``: a headless machine's user opens it elsewhere), or
* without a browser, ``ffplay -nodisp -autoexit`` plays the WAV while the terminal shows the
  mission clock and the phase countdown; the space key pauses and resumes (ffplay has no
  window to take keys, so it is stopped and continued with SIGSTOP/SIGCONT).

ffplay without a sound output prints the audio library's own errors (``ALSA lib … Unknown PCM
default``, ``audio open failed``) and still exits 0: ``check_audio_output`` plays a few
milliseconds of silence first and turns that into one missing-environment error (exit 3), and
the real run's errors are read the same way, never shown raw.

Everything ends with the session: the server, ffplay, the temporary folder (a scratch folder
of ``authoring._files``: named after the process, so a killed session's is removed by a later
command).
"""

from __future__ import annotations

import datetime
import os
import select
import shutil
import signal
import subprocess
import sys
import time
import wave
import webbrowser
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TextIO

from authoring.audio import ClipCache, Voice, render_timeline, write_audio
from authoring.audio.captions import captions
from authoring.crew import CrewSize
from authoring.errors import EnvironmentMissingError
from authoring.mission.model import Mission
from authoring.mission.timecode import format_clock
from authoring.mission.timeline import compile_timeline
from authoring.render.site import (
    AUDIO_TYPES,
    AudioSource,
    Download,
    LintSummary,
    MissionEntry,
    SiteModel,
    Track,
    player_cues,
    render_pages,
)
from authoring.render.site.pages import mission_path

#: Appended to the page's URL: the player starts playing as soon as it can.
AUTOPLAY = "#play"
#: How often the terminal clock is redrawn, and how often keys are looked for (seconds).
TICK = 0.2
#: Without a terminal the clock is printed as lines: every this many seconds of mission time.
LINE_EVERY_S = 10


@dataclass(frozen=True)
class PlaySite:
    """The rendered one-mission site: its folder, the player page and the soundtrack."""

    root: Path
    page: str  # relative to root
    audio: Path
    phases_ms: tuple[int, ...]
    duration_ms: int
    title: str


def prepare(mission: Mission, voice: Voice, root: Path, cache: ClipCache | None,
            crew: CrewSize | None = None) -> PlaySite:
    """Renders ``mission`` with ``voice`` into ``root`` as a site with one player page."""
    timeline = compile_timeline(mission, crew)
    rendering = render_timeline(timeline, voice, cache=cache)
    stem = f"files/{mission.id}/{mission.id}.{voice.id}"
    audio = root / f"{stem}.wav"
    audio.parent.mkdir(parents=True, exist_ok=True)
    write_audio(rendering, audio, "wav")  # mixed block by block into the file
    meta = {"mission": mission.id, "voice": voice.id, "language": voice.language,
            "players": timeline.players}
    (root / f"{stem}.vtt").write_text(captions(rendering.cues, "vtt", meta), encoding="utf-8")
    heard = [(c.start_ms, c.end_ms, c.kind, c.text) for c in rendering.cues]
    track = Track(voice.id, voice.name, voice.language,
                  (AudioSource(f"{stem}.wav", AUDIO_TYPES["wav"]),), f"{stem}.vtt",
                  player_cues(timeline, heard), rendering.duration_ms)
    download = Download(f"Soundtrack, {voice.name} (WAV)", f"{stem}.wav", "audio",
                        audio.stat().st_size)
    entry = MissionEntry(mission.id, mission, timeline, (track,), (download,), LintSummary())
    model = SiteModel(title=mission.title, description="", authors=(), licence="",
                      languages=(voice.language,), missions=(entry,),
                      built=datetime.datetime.now(datetime.UTC),
                      generator="spacealert play", kept=False)
    for relative, data in render_pages(model).items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return PlaySite(root, mission_path(entry), audio, tuple(timeline.phases_ms),
                    rendering.duration_ms, mission.title)


#: What ffplay (SDL and ALSA) print when there is no sound output to open.
NO_AUDIO_MARKERS = ("audio open failed", "Couldn't open audio device",
                    "Could not initialize SDL", "No available audio device")
#: The probe's silence: long enough for SDL to open the device, too short to be heard.
PROBE_MS = 20


def _ffplay(ffplay: str) -> str:
    program = shutil.which(ffplay)
    if program is None:
        raise EnvironmentMissingError(
            f"{ffplay} not found: it plays the soundtrack when no browser is available",
            hint="install ffmpeg (Debian: apt install ffmpeg), or serve the player page: "
                 "spacealert play MISSION --no-browser")
    return program


def no_audio_error(errors: str) -> EnvironmentMissingError | None:
    """The error to report when ffplay's stderr says it found no sound output, else None."""
    if not any(marker in errors for marker in NO_AUDIO_MARKERS):
        return None
    lines = [line.strip() for line in errors.splitlines() if line.strip()]
    # the sound library's last word names what is missing ("Unknown PCM default")
    detail = next((line.rpartition(") ")[2] for line in reversed(lines)
                   if line.startswith("ALSA lib")), None) \
        or next((line for line in lines if any(m in line for m in NO_AUDIO_MARKERS)), "")
    return EnvironmentMissingError(
        f"no sound output: ffplay could not open an audio device ({detail})",
        hint="connect or enable a sound device (PulseAudio, PipeWire or ALSA), or serve the "
             "player page and open it on a device with sound: spacealert play MISSION "
             "--no-browser")


def check_audio_output(ffplay: str = "ffplay") -> None:
    """Raises the missing-environment error (exit 3) when ffplay cannot play sound here.

    Plays ``PROBE_MS`` of silence, with ffplay's stderr captured: without a sound device it
    fails in a fraction of a second, and its raw errors are turned into one message.
    """
    import tempfile

    program = _ffplay(ffplay)
    with tempfile.TemporaryDirectory(prefix="spacealert-probe-") as folder:
        silence = Path(folder) / "silence.wav"
        with wave.open(str(silence), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(44_100)
            out.writeframes(b"\0\0" * (44_100 * PROBE_MS // 1000))
        try:
            done = subprocess.run(
                [program, "-nodisp", "-autoexit", "-hide_banner", "-loglevel", "error",
                 "-nostats", str(silence)], stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=10, check=False)
        except subprocess.TimeoutExpired:
            return  # a device that is slow to open is still a device: the real run shows
    problem = no_audio_error(done.stderr.decode("utf-8", "replace"))
    if problem is not None:
        raise problem


def find_browser() -> webbrowser.BaseBrowser | None:
    """Returns the user's web browser, or ``None`` when there is none to open a page in.

    On Linux without a graphical session (no ``DISPLAY`` nor ``WAYLAND_DISPLAY``) and without
    ``$BROWSER``, Python would fall back to a text browser in this terminal: that is no
    player, so it counts as none.
    """
    if (sys.platform.startswith("linux") and not os.environ.get("BROWSER")
            and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")):
        return None
    try:
        return webbrowser.get()
    except webbrowser.Error:
        return None


def status_line(ms: int, phases_ms: Sequence[int], paused: bool = False) -> str:
    """Returns the terminal clock: mission time, the phase and the time left in it."""
    clock = f"T+{format_clock(max(0, ms) // 1000)}"
    phase = next((n for n, end in enumerate(phases_ms, start=1) if ms < end), None)
    if phase is None:
        text = f"{clock}  operation ended"
    else:
        left = -(-(phases_ms[phase - 1] - ms) // 1000)  # rounded up, like the page
        text = f"{clock}  phase {phase} of {len(phases_ms)}, {format_clock(left)} left"
    return text + ("  [paused: space resumes]" if paused else "")


class StopWatch:
    """Mission time since start, not counting the paused stretches."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        self._start = now()
        self._paused_at: float | None = None

    @property
    def paused(self) -> bool:
        """Whether the watch is paused."""
        return self._paused_at is not None

    def pause(self) -> None:
        """Stops counting (no effect when paused)."""
        if self._paused_at is None:
            self._paused_at = self._now()

    def resume(self) -> None:
        """Counts again from where it stopped."""
        if self._paused_at is not None:
            self._start += self._now() - self._paused_at
            self._paused_at = None

    def ms(self) -> int:
        """Returns the elapsed milliseconds."""
        end = self._paused_at if self._paused_at is not None else self._now()
        return int((end - self._start) * 1000)


@contextmanager
def keys_from(stream: IO[str] | None) -> Iterator[Callable[[], str]]:
    """Yields a function that returns the keys typed since the last call ('' when none).

    Only a terminal is read, in cbreak mode (each key at once, no echo; Ctrl-C still
    interrupts), and its settings are restored on the way out.
    """
    if stream is None or not stream.isatty():
        yield lambda: ""
        return
    import termios
    import tty

    fd = stream.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)

    def read() -> str:
        typed = ""
        while select.select([fd], [], [], 0)[0]:
            chunk = os.read(fd, 64)
            if not chunk:
                break
            typed += chunk.decode("utf-8", "replace")
        return typed

    try:
        yield read
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _end(process: subprocess.Popen[bytes]) -> None:
    """Ends ffplay (also when stopped: a stopped process does not act on SIGTERM)."""
    if process.poll() is not None:
        return
    with suppress(ProcessLookupError):
        process.send_signal(signal.SIGCONT)
        process.terminate()
    try:
        process.wait(timeout=3)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def play_in_terminal(site: PlaySite, out: TextIO, keys: IO[str] | None,
                     ffplay: str = "ffplay") -> int:
    """Plays the soundtrack with ffplay and shows the clock on ``out`` until it ends.

    On a terminal the clock is one line redrawn in place and the space key pauses/resumes
    (q quits); otherwise a line is printed every ten seconds and at each phase change.
    Returns ffplay's exit status (0 when the soundtrack played to its end or q was pressed).
    """
    program = _ffplay(ffplay)
    live = out.isatty()
    command = [program, "-nodisp", "-autoexit", "-hide_banner", "-loglevel", "error",
               "-nostats", str(site.audio)]
    # its stderr goes to a file, read at the end: the sound library's raw errors are not shown
    errors_file = site.root / "ffplay.stderr"
    with errors_file.open("wb") as errors:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stderr=errors)
    watch = StopWatch()
    shown = ""
    last_key: tuple[int, int, bool] | None = None
    try:
        with keys_from(keys) as typed:
            while process.poll() is None:
                for key in typed():
                    if key == " ":
                        if watch.paused:
                            process.send_signal(signal.SIGCONT)
                            watch.resume()
                        else:
                            process.send_signal(signal.SIGSTOP)
                            watch.pause()
                    elif key in "qQ":
                        _end(process)
                        break
                ms = min(watch.ms(), site.duration_ms)
                line = status_line(ms, site.phases_ms, watch.paused)
                if live:
                    if line != shown:
                        out.write("\r" + line + "\x1b[K")
                        out.flush()
                else:
                    phase = sum(1 for end in site.phases_ms if ms >= end)
                    key_now = (ms // 1000 // LINE_EVERY_S, phase, watch.paused)
                    if key_now != last_key:
                        out.write(line + "\n")
                        out.flush()
                        last_key = key_now
                shown = line
                time.sleep(TICK)
    finally:
        _end(process)
        if live and shown:
            out.write("\n")
            out.flush()
    code = process.returncode
    problem = no_audio_error(errors_file.read_text("utf-8", "replace"))
    if problem is not None:  # the device went away after the probe
        raise problem
    if code not in (0, -signal.SIGTERM):
        for line in errors_file.read_text("utf-8", "replace").splitlines()[-5:]:
            sys.stderr.write(f"ffplay: {line}\n")
        return code
    return 0


def serve_in_browser(site: PlaySite, browser: webbrowser.BaseBrowser | None, out: TextIO,
                     stop: Callable[[], bool] = lambda: False) -> bool:
    """Serves the site on 127.0.0.1 (a free port), prints the player page's address on ``out``
    and opens it in ``browser`` (``None``: printed only, ``--no-browser``).

    Serves until interrupted (Ctrl-C) or until ``stop()`` says so; returns False at once when
    the browser could not be started.
    """
    from authoring.publish.serve import PreviewServer

    server = PreviewServer(site.root, 0, quiet=True)
    with server:
        server.start_in_background()
        try:
            url = server.url + site.page + AUTOPLAY
            out.write(url + "\n")
            out.flush()
            if browser is not None and not browser.open(url):
                return False
            while not stop():
                time.sleep(TICK)
        finally:
            server.shutdown()
    return True
