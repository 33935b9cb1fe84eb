"""The Festival backend: the Festival Speech Synthesis System, called as ``text2wave``.

Offline and deterministic (the same text gives the same bytes), from Debian's ``festival``
package and one voice package, e.g. ``festvox-czech-machac`` (GPL-3.0-or-later, Brailcom), the
best understood offline Czech voice measured for the toolkit (voices/README.md). Festival's
Czech voices read their text in ISO-8859-2, not UTF-8 (UTF-8 is spelled out byte by byte), so
the text is written to a file in the voice's ``encoding``. ``duration_stretch`` is Festival's
``Duration_Stretch`` (1.0 = the voice's own pace, larger is slower). Festival reports an unknown
voice on stderr and still exits 0: the backend checks what it says.
"""

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

DEFAULTS: Mapping[str, Any] = {"voice": "czech_machac", "encoding": "iso-8859-2",
                               "duration_stretch": 1.0}
TIMEOUT_S = 60


@cache
def _version(exe: str) -> str:
    done = subprocess.run([exe, "--version"], capture_output=True, text=True,
                          timeout=TIMEOUT_S, check=False, stdin=subprocess.DEVNULL)
    said = done.stdout.strip()
    # "festival: Festival Speech Synthesis System: 2.5.0:release December 2017"
    return said.split("System:", 1)[-1].strip() if said else "unknown"


def voice_package(name: str) -> str:
    """Returns the Debian package that is likely to ship the Festival voice ``name``."""
    return "festvox-" + name.replace("_", "-")


class FestivalBackend:
    """Speaks with Festival's ``text2wave`` program."""

    def __init__(self, voice: Voice) -> None:
        self.exe = require_program("text2wave", f"to speak with the voice {voice.id!r}")
        settings = {**DEFAULTS, **voice.settings}
        self.settings: dict[str, Any] = {
            "voice": str(settings["voice"]),
            "encoding": str(settings["encoding"]),
            "duration_stretch": float(settings["duration_stretch"]),
        }
        self._festival = require_program("festival", f"to speak with the voice {voice.id!r}")

    def identity(self) -> Mapping[str, Any]:
        """Returns the program version and the settings (the cache key's backend part)."""
        return {"backend": "festival", "version": _version(self._festival), **self.settings}

    def command(self, text_file: Path, out: Path) -> list[str]:
        """Returns the text2wave command line that speaks ``text_file`` into ``out``."""
        s = self.settings
        return [self.exe, "-eval", f"(voice_{s['voice']})",
                "-eval", f"(Parameter.set 'Duration_Stretch {s['duration_stretch']})",
                "-o", str(out), str(text_file)]

    def synthesize(self, text: str) -> tuple[Samples, int]:
        """Returns ``text`` spoken by Festival."""
        try:
            data = (text + "\n").encode(self.settings["encoding"])
        except UnicodeEncodeError as error:
            raise SynthesisError(
                f"the Festival voice {self.settings['voice']!r} cannot read "
                f"{text[error.start:error.end]!r} in {text[:40]!r}: not in "
                f"{self.settings['encoding']}",
                hint="write the phrase with the language's own letters") from None
        with scratch_folder("festival") as folder:
            source = Path(folder) / "text.txt"
            source.write_bytes(data)
            out = Path(folder) / "speech.wav"
            try:
                done = subprocess.run(self.command(source, out), capture_output=True,
                                      timeout=TIMEOUT_S, check=False,
                                      stdin=subprocess.DEVNULL)
            except (OSError, subprocess.TimeoutExpired) as error:
                raise SynthesisError(f"Festival could not run: {error}") from None
            said = done.stderr.decode("utf-8", "replace")
            if done.returncode != 0 or "SIOD ERROR" in said or not out.is_file():
                name = self.settings["voice"]
                missing = f"unbound variable : voice_{name}" in said
                raise SynthesisError(
                    f"Festival has no voice {name!r}" if missing else
                    f"Festival failed on {text[:40]!r} with voice {name!r}: "
                    f"{said.strip().splitlines()[-1] if said.strip() else 'no output'}",
                    hint=f"apt-get install {voice_package(name)}")
            return read_wav(out.read_bytes())
