"""An MP3 sink that encodes a long track in segments, one ffmpeg per segment, all at once.

LAME runs on one core, and a 10-minute track costs it about 2 s, more than the mix and every
import before it. Told the track's length (``expect``), this sink cuts it into segments
(``mp3_splice.plan_segments``: the cuts depend on the length alone, so every machine writes
the same bytes), starts an encoder per segment and hands each block of the mix to every
encoder whose segment it touches. Each encoder has a feeding thread and an unbounded queue,
so the mix never waits for the slowest encoder and reaches the later segments at once; the
queues hold at most the track's PCM (53 MB for 10 minutes of mono). When the last block is in,
the frames are joined into the output file (``mp3_splice.join``).

Until ``expect`` is called, or for a track too short to cut, the first encoder gets every
block and its file is the output as it is.
"""

from __future__ import annotations

import contextlib
import queue
import subprocess
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO

from authoring.audio.mp3_splice import Segment, join, parse_stream, plan_segments
from authoring.audio.rate import RATE
from authoring.errors import AuthoringError, InvalidInputError

#: Segments of a long track: a few per core on today's 2- and 4-core machines; each costs an
#: encoder start-up (about 30 ms of CPU), so a segment is at least ``MIN_SEGMENT_S`` long.
MAX_SEGMENTS = 4
MIN_SEGMENT_S = 120


class _Feeder:
    """One encoder process and the thread that writes its queued PCM into its standard input."""

    def __init__(self, command: list[str], errors: IO[bytes]) -> None:
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                        stdout=subprocess.DEVNULL, stderr=errors)
        self.errors = errors
        self.broken = False
        self._queue: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            while (block := self._queue.get()) is not None:
                stdin.write(block)
            stdin.close()
        except OSError:  # the encoder died (its stderr says why) or was stopped
            self.broken = True

    def put(self, block: bytes) -> None:
        self._queue.put(block)

    def close(self) -> int:
        """Ends the input and returns the encoder's exit status."""
        self._queue.put(None)
        self._thread.join()
        return self.process.wait()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self._queue.put(None)
        self._thread.join()
        with contextlib.suppress(OSError):
            if self.process.stdin is not None:
                self.process.stdin.close()
        self.process.wait()


class SegmentedMp3Sink:
    """Takes 16-bit PCM like ``export``'s encoder sink and writes ``out`` from segments."""

    def __init__(self, command: Callable[[str, bool], list[str]], out: Path, channels: int,
                 errors: IO[bytes], failure: Callable[[IO[bytes], int], AuthoringError],
                 temp_beside: Callable[[], Path]) -> None:
        """``command(path, tagged)`` is the ffmpeg command writing a segment to ``path``;
        ``temp_beside()`` makes a new temporary file beside the output."""
        self.channels = channels
        self._command = command
        self._out = out
        self._failure = failure
        self._temp_beside = temp_beside
        self._feeders = [_Feeder(command(str(out), True), errors)]
        self._segments: list[Segment] = []
        self._parts: list[Path] = []  # the later segments' files
        self._at = 0  # samples written so far
        self._closing = contextlib.ExitStack()  # the later encoders' stderr files

    def expect(self, frames: int) -> None:
        """Cuts a track of ``frames`` samples into segments (before the first write)."""
        if self._at or self._segments:
            return
        count = min(MAX_SEGMENTS, frames // (MIN_SEGMENT_S * RATE))
        segments = plan_segments(frames, count)
        if len(segments) < 2:
            return
        self._segments = segments
        for _ in segments[1:]:
            self._parts.append(self._temp_beside())
            # closed by the stack, in _cleanup
            errors = self._closing.enter_context(tempfile.TemporaryFile())  # noqa: SIM115
            self._feeders.append(_Feeder(self._command(str(self._parts[-1]), False), errors))

    def write(self, pcm: bytes) -> None:
        width = 2 * self.channels
        start = self._at
        self._at += len(pcm) // width
        if not self._segments:
            self._feeders[0].put(pcm)
            return
        for feeder, segment in zip(self._feeders, self._segments, strict=True):
            lo, hi = max(start, segment.feed_from), min(self._at, segment.feed_to)
            if lo < hi:
                feeder.put(pcm[(lo - start) * width:(hi - start) * width])

    def finish(self) -> None:
        """Ends every encoder, then joins their frames into ``out``."""
        statuses = [feeder.close() for feeder in self._feeders]
        for feeder, status in zip(self._feeders, statuses, strict=True):
            if status != 0 or feeder.broken:
                raise self._failure(feeder.errors, status)
        if not self._segments:
            return
        try:
            datas = [path.read_bytes() for path in (self._out, *self._parts)]
            pieces = join([(parse_stream(data), segment)
                           for data, segment in zip(datas, self._segments, strict=True)])
            with self._out.open("wb") as sink:  # the output's temporary file, renamed later
                for piece in pieces:
                    sink.write(piece)
        except OSError as error:  # a full disk, say: the caller removes the temporary file
            raise InvalidInputError(f"cannot write the MP3 beside {self._out.parent}: "
                                    f"{error.strerror or error}") from None
        self._cleanup()

    def abort(self) -> None:
        for feeder in self._feeders:
            feeder.kill()
        self._cleanup()

    def _cleanup(self) -> None:
        self._closing.close()
        for part in self._parts:
            part.unlink(missing_ok=True)
