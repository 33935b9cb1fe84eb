"""Writes a rendered track to WAV (stdlib), or MP3 / Ogg Vorbis / FLAC (ffmpeg via pydub).

The file is written next to its destination under a temporary name and moved into place with
``os.replace``: an interrupted render never leaves a half-written file where the user's was.
"""

from __future__ import annotations

import wave
from pathlib import Path

from authoring._files import atomic_target
from authoring.audio.pcm import RATE
from authoring.audio.tools import require_program
from authoring.errors import AuthoringError, UsageError

FORMATS = ("mp3", "ogg", "wav", "flac")
_PYDUB_ARGS: dict[str, dict[str, object]] = {
    "mp3": {"format": "mp3", "bitrate": "128k"},
    # bitexact: otherwise ffmpeg gives each Ogg stream a random serial number, and the same
    # mission would not give the same bytes twice
    "ogg": {"format": "ogg", "codec": "libvorbis",
            "parameters": ["-q:a", "4", "-fflags", "+bitexact", "-flags:a", "+bitexact"]},
    "flac": {"format": "flac"},
}


def format_for(path: Path, given: str | None) -> str:
    """Returns the output format: ``given``, else the file's suffix (mp3, ogg, wav, flac)."""
    if given is not None:
        fmt = given.lower()
    else:
        fmt = path.suffix.lower().lstrip(".")
        if fmt == "oga":
            fmt = "ogg"
    if fmt not in FORMATS:
        raise UsageError(f"cannot tell the audio format of {str(path)!r}: expected a suffix or "
                         f"--format among {', '.join(FORMATS)}, got {fmt or 'no suffix'!r}")
    return fmt


def check_encoder(fmt: str) -> None:
    """Raises ``EnvironmentMissingError`` when ``fmt`` needs ffmpeg and it is missing."""
    if fmt != "wav":
        require_program("ffmpeg", f"to write {fmt.upper()} files")


def write_audio(pcm16_stereo: bytes | memoryview, out: Path, fmt: str) -> None:
    """Writes 44.1 kHz 16-bit stereo PCM to ``out`` in ``fmt``, atomically.

    The PCM is handed on as it is (``wave`` and pydub both take any byte buffer): no copy.
    """
    # a view of wider items would make pydub count samples as bytes
    data = pcm16_stereo.cast("B") if isinstance(pcm16_stereo, memoryview) else pcm16_stereo
    check_encoder(fmt)
    with atomic_target(out) as tmp:
        if fmt == "wav":
            with wave.open(str(tmp), "wb") as w:
                w.setnchannels(2)
                w.setsampwidth(2)
                w.setframerate(RATE)
                w.writeframes(data)
        else:
            from pydub import AudioSegment
            from pydub.exceptions import CouldntEncodeError

            seg = AudioSegment(data=data, sample_width=2, frame_rate=RATE, channels=2)
            try:
                seg.export(str(tmp), **_PYDUB_ARGS[fmt]).close()
            except CouldntEncodeError as error:
                raise AuthoringError(f"ffmpeg could not encode {fmt.upper()}: "
                                     f"{str(error).splitlines()[0]}") from None
