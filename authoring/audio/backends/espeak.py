"""The espeak-ng backend: the offline default, deterministic, called as a program (``-w file``)."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from authoring._files import scratch_folder
from authoring.audio.backends.base import SynthesisError
from authoring.audio.pcm import Samples, read_wav
from authoring.audio.tools import require_program
from authoring.audio.voice import Voice

DEFAULTS: Mapping[str, Any] = {"speed": 165, "pitch": 40, "amplitude": 100, "word_gap": 0}
TIMEOUT_S = 60


@cache
def _version(exe: str) -> str:
    done = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=TIMEOUT_S,
                          check=False)
    return done.stdout.split("Data at")[0].strip() or "unknown"


class EspeakBackend:
    """Speaks with the espeak-ng program."""

    def __init__(self, voice: Voice) -> None:
        self.exe = require_program("espeak-ng", f"to speak with the voice {voice.id!r}")
        settings = {**DEFAULTS, **voice.settings}
        self.settings: dict[str, Any] = {
            "voice": str(settings.get("voice", voice.language)),
            "speed": int(settings["speed"]),
            "pitch": int(settings["pitch"]),
            "amplitude": int(settings["amplitude"]),
            "word_gap": int(settings["word_gap"]),
        }

    def identity(self) -> Mapping[str, Any]:
        """Returns the program version and the settings (the cache key's backend part)."""
        return {"backend": "espeak-ng", "version": _version(self.exe), **self.settings}

    def command(self, out: Path) -> list[str]:
        """Returns the espeak-ng command line that writes the text from stdin to ``out``."""
        s = self.settings
        return [self.exe, "-v", s["voice"], "-s", str(s["speed"]), "-p", str(s["pitch"]),
                "-a", str(s["amplitude"]), "-g", str(s["word_gap"]), "-b", "1",
                "-w", str(out), "--stdin"]

    def synthesize(self, text: str) -> tuple[Samples, int]:
        """Returns ``text`` spoken by espeak-ng."""
        with scratch_folder("espeak") as folder:
            out = Path(folder) / "speech.wav"
            try:
                done = subprocess.run(self.command(out), input=text.encode("utf-8"),
                                      capture_output=True, timeout=TIMEOUT_S, check=False)
            except (OSError, subprocess.TimeoutExpired) as error:
                raise SynthesisError(f"espeak-ng could not run: {error}") from None
            if done.returncode != 0 or not out.is_file():
                message = done.stderr.decode("utf-8", "replace").strip() or "no output"
                raise SynthesisError(
                    f"espeak-ng failed on {text[:40]!r} with voice "
                    f"{self.settings['voice']!r}: {message}",
                    hint="`espeak-ng --voices` lists the installed voices")
            return read_wav(out.read_bytes())
