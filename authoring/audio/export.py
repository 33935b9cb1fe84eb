"""Writes a rendered track to WAV (stdlib) or MP3 / Ogg Vorbis / Ogg Opus / FLAC (ffmpeg).

The PCM is streamed: ffmpeg is started with its standard input a pipe and takes the mix block
by block while the next block is being mixed (the mix on one core, the encoder on another), so
no track-long PCM copy and no temporary WAV exist. The output goes to a temporary name beside
its destination and is moved into place with ``os.replace`` only when the encoder succeeded:
an interrupted render never leaves a half-written file where the user's was.

Encoded files carry title, artist and album tags (phones list the mission by name); every
ffmpeg output is written with ``bitexact`` flags, so the same mission gives the same bytes
(no random Ogg serial numbers, no encoder version string). WAV files carry no tags: their bytes
stay exactly those of the plain RIFF file.
"""

from __future__ import annotations

import contextlib
import fcntl
import subprocess
import tempfile
import wave
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Protocol

from authoring._files import atomic_target, new_temp_beside
from authoring.audio.rate import RATE
from authoring.audio.segmented import SegmentedMp3Sink
from authoring.audio.tools import require_program
from authoring.errors import AuthoringError, EnvironmentMissingError, UsageError

FORMATS = ("mp3", "ogg", "opus", "wav", "flac")
SUFFIXES = {"oga": "ogg"}
#: Formats whose size is set by a bitrate, with the accepted range in kbit/s.
BITRATE_RANGE = {"mp3": (8, 320), "ogg": (32, 500), "opus": (6, 510)}
#: The default channels of each format. Speech is mono; the lossy formats are what players and
#: phones get, and mono halves them (MP3 10 minutes: 9.7 MB stereo 128k, 4.8 MB mono 64k, same
#: quality per channel). WAV and FLAC keep today's stereo files byte for byte.
DEFAULT_CHANNELS = {"mp3": 1, "ogg": 1, "opus": 1, "wav": 2, "flac": 2}
#: Default bitrate (kbit/s) per format and channel count; Ogg Vorbis uses quality 4 instead.
DEFAULT_BITRATE = {("mp3", 1): 64, ("mp3", 2): 128, ("opus", 1): 32, ("opus", 2): 64}
_MUXER = {"mp3": "mp3", "ogg": "ogg", "opus": "ogg", "flac": "flac"}
_PIPE_BYTES = 1 << 20  # about 6 s of stereo PCM may wait in the pipe while the mix goes on
CHANNEL_NAMES = {"mono": 1, "stereo": 2}


@dataclass(frozen=True)
class Tags:
    """What a player shows for the file."""

    title: str = ""
    artist: str = ""
    album: str = "Space Alert missions"


_NO_TAGS = Tags("", "", "")


@dataclass(frozen=True)
class AudioSettings:
    """The output format, its channels and bitrate (None: the format's default), and tags."""

    fmt: str
    channels: int | None = None
    bitrate: int | None = None
    tags: Tags = Tags()

    @property
    def out_channels(self) -> int:
        """Returns the channel count written (given, else the format's default)."""
        return self.channels if self.channels is not None else DEFAULT_CHANNELS[self.fmt]

    def check(self) -> AudioSettings:
        """Returns the settings; raises ``UsageError`` for a format, channels or bitrate misfit."""
        if self.fmt not in FORMATS:
            raise UsageError(f"unknown audio format {self.fmt!r}: expected one of "
                             f"{', '.join(FORMATS)}")
        if self.channels not in (None, 1, 2):
            raise UsageError(f"channels must be mono or stereo, got {self.channels!r}")
        if self.bitrate is not None:
            if self.fmt not in BITRATE_RANGE:
                raise UsageError(f"--bitrate applies to {', '.join(BITRATE_RANGE)}; "
                                 f"{self.fmt.upper()} has no bitrate to choose")
            low, high = BITRATE_RANGE[self.fmt]
            if not low <= self.bitrate <= high:
                raise UsageError(f"bitrate {self.bitrate} kbit/s is out of range for "
                                 f"{self.fmt.upper()}: expected {low} to {high}")
        return self

    def describe(self) -> str:
        """Returns a stable one-line description (a cache key ingredient)."""
        return "|".join(str(v) for v in (self.fmt, self.out_channels, self.bitrate,
                                         self.tags.title, self.tags.artist, self.tags.album))


def parse_bitrate(text: str | None) -> int | None:
    """Returns kbit/s from ``"64"`` or ``"64k"``; raises ``UsageError`` otherwise."""
    if text is None:
        return None
    digits = text.strip().lower().removesuffix("k")
    if not digits.isascii() or not digits.isdigit() or len(digits) > 4:
        raise UsageError(f"--bitrate expects kbit/s such as 64 or 64k, got {text!r}")
    return int(digits)


def parse_channels(text: str | None) -> int | None:
    """Returns 1 or 2 from ``mono`` or ``stereo``; raises ``UsageError`` otherwise."""
    if text is None:
        return None
    if text.lower() not in CHANNEL_NAMES:
        raise UsageError(f"--channels expects mono or stereo, got {text!r}")
    return CHANNEL_NAMES[text.lower()]


def format_for(path: Path | None, given: str | None) -> str:
    """Returns the output format: ``given``, else the file's suffix, else (no file) mp3."""
    if given is not None:
        if given.lower() not in FORMATS:
            raise UsageError(f"unknown audio format {given!r} (--format): expected one of "
                             f"{', '.join(FORMATS)}")
        return given.lower()
    if path is None:
        return "mp3"
    fmt = path.suffix.lower().lstrip(".")
    fmt = SUFFIXES.get(fmt, fmt)
    if fmt not in FORMATS:
        raise UsageError(f"cannot tell the audio format of {str(path)!r}: expected a suffix or "
                         f"--format among {', '.join(FORMATS)}, got {fmt or 'no suffix'!r}")
    return fmt


def check_encoder(fmt: str) -> None:
    """Raises ``EnvironmentMissingError`` when ``fmt`` needs ffmpeg and it is missing."""
    if fmt != "wav":
        require_program("ffmpeg", f"to write {fmt.upper()} files")


def encoder_args(settings: AudioSettings) -> list[str]:
    """Returns ffmpeg's output options for ``settings`` (codec, rate, channels, tags, muxer).

    ``bench/render.py`` encodes with the same options, so its floor is the same work.
    """
    fmt, channels = settings.fmt, settings.out_channels
    bitrate = settings.bitrate or DEFAULT_BITRATE.get((fmt, channels))
    if fmt == "mp3":
        # no bit reservoir: each frame holds its own audio data, so frames encoded in segments
        # can be joined (audio/mp3_splice.py); on mission 1 it costs 0.05 dB of SNR
        codec = ["-codec:a", "libmp3lame", "-b:a", f"{bitrate}k", "-reservoir", "0",
                 "-id3v2_version", "3" if settings.tags != _NO_TAGS else "0"]
    elif fmt == "ogg":
        codec = ["-codec:a", "libvorbis",
                 *(["-b:a", f"{bitrate}k"] if bitrate else ["-q:a", "4"])]
    elif fmt == "opus":
        # Opus runs at 48 kHz: ffmpeg resamples; the voip mode suits a speech-only track
        codec = ["-codec:a", "libopus", "-b:a", f"{bitrate}k", "-application", "voip"]
    else:
        codec = ["-codec:a", "flac"]
    tags: list[str] = []
    for key, value in (("title", settings.tags.title), ("artist", settings.tags.artist),
                       ("album", settings.tags.album)):
        if value:
            tags += ["-metadata", f"{key}={' '.join(value.split())}"]
    # bitexact: no random Ogg serial numbers and no encoder version tag, so same in, same out
    return [*codec, "-ac", str(channels), "-fflags", "+bitexact", "-flags:a", "+bitexact",
            *tags, "-f", _MUXER[fmt]]


class AudioSink(Protocol):
    """Takes 16-bit PCM at 44.1 kHz with the sink's channel count, in any pieces."""

    channels: int

    def expect(self, frames: int) -> None:
        """Announces the track's length in samples, before the first write (optional).

        A long MP3 is then encoded in segments on every core (``audio/segmented.py``).
        """

    def write(self, pcm: bytes) -> None:
        """Appends PCM frames."""


class _WavSink:
    def __init__(self, writer: wave.Wave_write, channels: int) -> None:
        self.channels = channels
        self._writer = writer

    def expect(self, frames: int) -> None:
        """Needs no length: the WAV header is written at the end."""

    def write(self, pcm: bytes) -> None:
        self._writer.writeframesraw(pcm)


class _EncoderSink:
    def __init__(self, process: subprocess.Popen[bytes], channels: int, fmt: str,
                 errors: IO[bytes]) -> None:
        self.channels = channels
        self._process = process
        self._fmt = fmt
        self._errors = errors

    def expect(self, frames: int) -> None:
        """Needs no length: one encoder takes the whole track."""

    def write(self, pcm: bytes) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(pcm)
        except BrokenPipeError:
            self._process.wait()
            raise self.failure() from None

    def failure(self) -> AuthoringError:
        return encoder_failure(self._fmt, self._errors, self._process.returncode)

    def finish(self) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        with contextlib.suppress(BrokenPipeError):
            stdin.close()
        if self._process.wait() != 0:
            raise self.failure()

    def abort(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
        with contextlib.suppress(OSError):
            if self._process.stdin is not None:
                self._process.stdin.close()
        self._process.wait()


def encoder_failure(fmt: str, errors: IO[bytes], status: int | None) -> AuthoringError:
    """Returns the error to report for an ffmpeg that failed, from what it wrote to ``errors``."""
    errors.seek(0)
    said = errors.read().decode("utf-8", "replace").strip().splitlines()
    missing = [line for line in said if "Unknown encoder" in line]
    if missing:  # an ffmpeg built without libopus, libmp3lame or libvorbis
        return EnvironmentMissingError(
            f"ffmpeg cannot write {fmt.upper()}: {missing[0].strip()}",
            hint="install an ffmpeg built with that encoder (Debian's `apt-get install "
                 "ffmpeg` has them all), or choose another --format")
    return AuthoringError(f"ffmpeg could not encode {fmt.upper()}: "
                          f"{said[-1] if said else f'exit {status}'}")


def _grow_pipe(stream: IO[bytes]) -> None:
    setpipe = getattr(fcntl, "F_SETPIPE_SZ", None)  # Linux only; elsewhere the default
    if setpipe is not None:
        with contextlib.suppress(OSError):
            fcntl.fcntl(stream.fileno(), setpipe, _PIPE_BYTES)


@contextlib.contextmanager
def open_audio(out: Path, settings: AudioSettings) -> Iterator[AudioSink]:
    """Yields a sink that writes ``out`` in ``settings``; the file appears when the block ends.

    For encoded formats ffmpeg starts at once (its start-up overlaps whatever the caller does
    before the first block). On any exception, Ctrl-C included, the encoder is stopped and the
    temporary file removed; ``out`` keeps its old content.
    """
    settings.check()
    check_encoder(settings.fmt)
    channels = settings.out_channels
    with atomic_target(out) as tmp:
        if settings.fmt == "wav":
            with wave.open(str(tmp), "wb") as w:
                w.setnchannels(channels)
                w.setsampwidth(2)
                w.setframerate(RATE)
                yield _WavSink(w, channels)
            return
        ffmpeg = require_program("ffmpeg", f"to write {settings.fmt.upper()} files")

        def command(path: str, tagged: bool = True) -> list[str]:
            given = settings if tagged else replace(settings, tags=_NO_TAGS)
            return [ffmpeg, "-v", "error", "-y", "-f", "s16le", "-ar", str(RATE), "-ac",
                    str(channels), "-i", "pipe:0", *encoder_args(given), path]

        # an unnamed file (gone with the process) holds what ffmpeg says
        with tempfile.TemporaryFile() as errors:
            sink: _EncoderSink | SegmentedMp3Sink
            if settings.fmt == "mp3":
                sink = SegmentedMp3Sink(
                    command, tmp, channels, errors,
                    lambda said, status: encoder_failure(settings.fmt, said, status),
                    lambda: new_temp_beside(out))
            else:
                process = subprocess.Popen(command(str(tmp)), stdin=subprocess.PIPE,
                                           stdout=subprocess.DEVNULL, stderr=errors)
                assert process.stdin is not None
                _grow_pipe(process.stdin)
                sink = _EncoderSink(process, channels, settings.fmt, errors)
            try:
                yield sink
                sink.finish()
            except BaseException:
                sink.abort()
                raise


class PcmSource(Protocol):
    """Anything that yields its track as PCM blocks (a ``Rendering``)."""

    @property
    def frames(self) -> int:
        """Returns the track's length in samples per channel."""

    def pcm_blocks(self, channels: int = 2) -> Iterator[bytes]:
        """Yields 16-bit PCM blocks with ``channels`` channels."""


class StereoPcm:
    """A ``PcmSource`` over 44.1 kHz 16-bit stereo PCM bytes (two identical channels)."""

    def __init__(self, pcm: bytes | memoryview) -> None:
        self.pcm = pcm.cast("B") if isinstance(pcm, memoryview) else pcm

    @property
    def frames(self) -> int:
        """Returns the number of samples per channel."""
        return len(self.pcm) // 4

    def pcm_blocks(self, channels: int = 2) -> Iterator[bytes]:
        """Yields the PCM (as it is, or its left channel for mono) in one block."""
        if channels == 2:
            yield bytes(self.pcm)
        else:
            import numpy as np

            # the toolkit's stereo has two identical channels: the left one is the mono track
            yield np.frombuffer(self.pcm, "<i2")[0::2].tobytes()


def write_audio(source: PcmSource | bytes | memoryview, out: Path,
                fmt: str | AudioSettings) -> None:
    """Writes a track to ``out``, atomically.

    ``source`` is a rendering (mixed block by block into the encoder) or 44.1 kHz 16-bit
    stereo PCM bytes; ``fmt`` a format name (its default settings) or full settings.
    """
    settings = AudioSettings(fmt) if isinstance(fmt, str) else fmt
    if isinstance(source, (bytes, bytearray, memoryview)):
        source = StereoPcm(source)
    with open_audio(out, settings) as sink:
        stream_into(sink, source.pcm_blocks(sink.channels), source.frames)


def stream_into(sink: AudioSink, blocks: Iterable[bytes], frames: int | None = None) -> None:
    """Writes every block into ``sink``; ``frames``, the track's length, lets it plan ahead."""
    if frames is not None:
        sink.expect(frames)
    for block in blocks:
        sink.write(block)
