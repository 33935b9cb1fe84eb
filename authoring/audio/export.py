"""Writes a rendered track to WAV (stdlib), or MP3 / Ogg Vorbis / FLAC (ffmpeg via pydub).

The file is written next to its destination under a temporary name and moved into place with
``os.replace``: an interrupted render never leaves a half-written file where the user's was.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import wave
from pathlib import Path

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


def write_audio(pcm16_stereo: bytes, out: Path, fmt: str) -> None:
    """Writes 44.1 kHz 16-bit stereo PCM to ``out`` in ``fmt``, atomically."""
    check_encoder(fmt)
    out = Path(out)
    folder = out.parent if str(out.parent) else Path(".")
    fd, tmp_name = tempfile.mkstemp(dir=folder, prefix=f".{out.name}.", suffix=".part")
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        if fmt == "wav":
            with wave.open(str(tmp), "wb") as w:
                w.setnchannels(2)
                w.setsampwidth(2)
                w.setframerate(RATE)
                w.writeframes(pcm16_stereo)
        else:
            from pydub import AudioSegment
            from pydub.exceptions import CouldntEncodeError

            seg = AudioSegment(data=pcm16_stereo, sample_width=2, frame_rate=RATE, channels=2)
            try:
                seg.export(str(tmp), **_PYDUB_ARGS[fmt]).close()
            except CouldntEncodeError as error:
                raise AuthoringError(f"ffmpeg could not encode {fmt.upper()}: "
                                     f"{str(error).splitlines()[0]}") from None
        os.replace(tmp, out)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_text(text: str, out: Path) -> None:
    """Writes a text file atomically (temp file in the same folder, then ``os.replace``)."""
    folder = out.parent if str(out.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{out.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(tmp, out)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
