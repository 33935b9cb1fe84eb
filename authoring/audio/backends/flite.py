"""The flite backend: CMU Flite, called as a program; offline, deterministic, Debian ``flite``.

Flite's built-in ``slt`` voice (a US English female voice from the CMU ARCTIC recordings, free
licence) is the best understood offline voice measured for the toolkit (voices/README.md).
``duration_stretch`` slows the speech down (1.0 = flite's own pace); the text is passed in a
file so that no word of it is read as an option. With ``pause_ms``, each sentence of a cue
("Time T plus three." "Serious threat." "Zone red.") is spoken on its own and the sentences are
joined by exactly that much silence: the ship computer's measured pauses, which make the short
words at a sentence's edge ("three", "Threat") easier to hear (voices/README.md). Without it the
cue is spoken as one text by flite alone.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from authoring._files import scratch_folder
from authoring.audio import pcm
from authoring.audio.backends.base import SynthesisError
from authoring.audio.pcm import RATE, Samples, read_wav
from authoring.audio.tools import require_program
from authoring.audio.voice import Voice

DEFAULTS: Mapping[str, Any] = {"voice": "slt", "duration_stretch": 1.0}
#: Where a cue is split into sentences when ``pause_ms`` is set: after . ! ? or : and a space.
_SENTENCE_END = re.compile(r"(?<=[.!?:])\s+")
TIMEOUT_S = 60


@cache
def _answers(exe: str) -> tuple[str, str]:
    """Returns what ``flite --version`` and ``flite -lv`` print, both programs run at once.

    Every render needs both (the version is part of each clip's cache key, the list checks the
    voice name): run side by side, the second start no longer waits for the first.
    """
    runs = [subprocess.Popen([exe, flag], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
            for flag in ("--version", "-lv")]
    said: list[str] = []
    for run in runs:
        try:
            said.append(run.communicate(timeout=TIMEOUT_S)[0])
        except subprocess.TimeoutExpired:
            run.kill()
            said.append(run.communicate()[0])
    return said[0], said[1]


def _version(exe: str) -> str:
    for line in _answers(exe)[0].splitlines():
        if "version:" in line:
            return line.split("version:", 1)[1].split("(")[0].strip()
    return "unknown"


def installed_voices(exe: str) -> tuple[str, ...]:
    """Returns the names of the voices built into the flite program (``flite -lv``)."""
    return tuple(_answers(exe)[1].split(":", 1)[-1].split())


class FliteBackend:
    """Speaks with the flite program."""

    def __init__(self, voice: Voice) -> None:
        self.exe = require_program("flite", f"to speak with the voice {voice.id!r}")
        settings = {**DEFAULTS, **voice.settings}
        self.settings: dict[str, Any] = {
            "voice": str(settings["voice"]),
            "duration_stretch": float(settings["duration_stretch"]),
        }
        if "pitch_mean" in settings:
            self.settings["pitch_mean"] = float(settings["pitch_mean"])
        if "pause_ms" in settings:
            self.settings["pause_ms"] = int(settings["pause_ms"])
        name = self.settings["voice"]
        # flite speaks an unknown voice name with its default voice and exit 0: refuse it here
        if name not in installed_voices(self.exe) and not Path(name).is_file():
            raise SynthesisError(
                f"flite has no voice {name!r} (needed by the voice {voice.id!r})",
                hint=f"`flite -lv` lists the installed voices "
                     f"({', '.join(installed_voices(self.exe))}); a .flitevox file path works too")

    def identity(self) -> Mapping[str, Any]:
        """Returns the program version and the settings (the cache key's backend part)."""
        return {"backend": "flite", "version": _version(self.exe), **self.settings}

    def command(self, text_file: Path, out: Path) -> list[str]:
        """Returns the flite command line that speaks ``text_file`` into ``out``."""
        s = self.settings
        cmd = [self.exe, "-voice", s["voice"],
               "--setf", f"duration_stretch={s['duration_stretch']}"]
        if "pitch_mean" in s:
            cmd += ["--setf", f"int_f0_target_mean={s['pitch_mean']}"]
        return [*cmd, "-f", str(text_file), "-o", str(out)]

    def synthesize(self, text: str) -> tuple[Samples, int]:
        """Returns ``text`` spoken by flite (sentence by sentence with ``pause_ms``)."""
        if "pause_ms" not in self.settings:
            return self._speak(text)
        sentences = [s for s in _SENTENCE_END.split(text.strip()) if s]
        if len(sentences) <= 1:
            return self._speak(text)
        pause = np.zeros(self.settings["pause_ms"] * RATE // 1000, np.float32)
        parts: list[Samples] = []
        for sentence in sentences:
            x, rate = self._speak(sentence)
            # each sentence without flite's own leading and trailing silence, so that the
            # pause between two sentences is exactly pause_ms (plus the trim's 30 ms tail);
            # the synthesizer starts the joined clip at its speech onset (pcm.onset)
            spoken = pcm.trim_silence(pcm.resample(x, rate))
            if spoken.size:
                parts += [pause, spoken] if parts else [spoken]
        return (np.concatenate(parts) if parts else np.zeros(0, np.float32)), RATE

    def _speak(self, text: str) -> tuple[Samples, int]:
        with scratch_folder("flite") as folder:
            source = Path(folder) / "text.txt"
            source.write_text(text + "\n", encoding="utf-8")
            out = Path(folder) / "speech.wav"
            try:
                done = subprocess.run(self.command(source, out), capture_output=True,
                                      timeout=TIMEOUT_S, check=False)
            except (OSError, subprocess.TimeoutExpired) as error:
                raise SynthesisError(f"flite could not run: {error}") from None
            if done.returncode != 0 or not out.is_file() or out.stat().st_size <= 44:
                message = (done.stderr or done.stdout).decode("utf-8", "replace").strip()
                raise SynthesisError(
                    f"flite failed on {text[:40]!r} with voice {self.settings['voice']!r}: "
                    f"{message or 'no output'}",
                    hint="`flite -lv` lists the installed voices")
            return read_wav(out.read_bytes())
