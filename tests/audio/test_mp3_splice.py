"""MP3s encoded in segments on several cores: joined as ffmpeg would write them, heard the same.

The join (authoring/audio/mp3_splice.py) rebuilds the Info frame from the frames; joining a
single segment must give back ffmpeg's own file byte for byte. A track cut into segments must
decode to exactly as many samples as it has, and sound as close to the original around each
cut as a single encoder's output does there.
"""

from __future__ import annotations

import itertools
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from authoring.audio import segmented
from authoring.audio.export import AudioSettings, Tags, encoder_args, open_audio, stream_into
from authoring.audio.mp3_splice import (
    FRAME_SAMPLES,
    PREROLL,
    TAIL,
    SpliceError,
    crc16,
    crc16_fast,
    join,
    parse_stream,
    plan_segments,
)
from authoring.errors import AuthoringError, InvalidInputError
from tests.audio.conftest import decode_file

RATE = 44100
SETTINGS = AudioSettings("mp3", tags=Tags(title="Splice test", artist="tests"))


def _speechlike(seconds: float, seed: int = 7) -> np.ndarray:
    """Returns mono int16 samples: tone bursts, noise bursts, clicks and silences."""
    rng = np.random.default_rng(seed)
    n = int(seconds * RATE)
    t = np.arange(n) / RATE
    out = np.zeros(n)
    at = 0
    while at < n:
        length = int(rng.uniform(0.1, 0.9) * RATE)
        kind = rng.integers(0, 4)
        piece = np.arange(min(length, n - at)) / RATE
        if kind == 0:
            out[at:at + len(piece)] = 0.4 * np.sin(2 * np.pi * rng.uniform(150, 900) * piece)
        elif kind == 1:
            out[at:at + len(piece)] = 0.25 * rng.standard_normal(len(piece))
        elif kind == 2 and len(piece):
            out[at] = 0.9  # an attack: the encoder switches to short blocks
        at += length + int(rng.uniform(0, 0.3) * RATE)
    out += 0.02 * np.sin(2 * np.pi * 60 * t)  # a bed that never stops
    return (np.clip(out, -1, 1) * 32000).astype("<i2")


def _ffmpeg_encode(pcm: np.ndarray, out: Path, settings: AudioSettings = SETTINGS) -> None:
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "s16le", "-ar", str(RATE), "-ac", "1",
                    "-i", "pipe:0", *encoder_args(settings), str(out)],
                   input=pcm.tobytes(), check=True)


def test_joining_one_segment_gives_ffmpegs_own_file_byte_for_byte(tmp_path: Path) -> None:
    pcm = _speechlike(20)
    _ffmpeg_encode(pcm, tmp_path / "whole.mp3")
    data = (tmp_path / "whole.mp3").read_bytes()
    (segment,) = plan_segments(len(pcm), 1)
    assert b"".join(join([(parse_stream(data), segment)])) == data


def _snr_db(decoded: np.ndarray, original: np.ndarray) -> float:
    error = decoded - original
    return float(10 * np.log10(np.sum(original ** 2) / max(np.sum(error ** 2), 1e-12)))


@pytest.fixture
def short_segments(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cuts tracks of a few seconds (the real minimum is two minutes a segment)."""
    monkeypatch.setattr(segmented, "MIN_SEGMENT_S", 6)


@pytest.mark.usefixtures("short_segments")
def test_a_track_cut_into_segments_decodes_to_its_length_and_sounds_alike_at_the_cuts(
        tmp_path: Path) -> None:
    pcm = _speechlike(30)
    out, whole = tmp_path / "split.mp3", tmp_path / "whole.mp3"
    with open_audio(out, SETTINGS) as sink:
        stream_into(sink, (pcm[i:i + 10_000].tobytes() for i in range(0, len(pcm), 10_000)),
                    len(pcm))
    _ffmpeg_encode(pcm, whole)
    segments = plan_segments(len(pcm), 4)
    assert len(segments) == 4
    original = pcm.astype(np.float32) / 32768.0
    split, single = decode_file(out), decode_file(whole)
    assert len(split) == len(single) == len(pcm)  # gapless: delay and padding are right
    assert _snr_db(split, original) > _snr_db(single, original) - 0.5
    for segment in segments[1:]:
        cut = segment.first * FRAME_SAMPLES
        for half in (FRAME_SAMPLES, 4 * FRAME_SAMPLES):
            window = slice(cut - half, cut + half)
            assert (_snr_db(split[window], original[window])
                    > _snr_db(single[window], original[window]) - 3.0), (cut, half)
    # no decoder complaint, and ffmpeg's own idea of the length agrees
    said = subprocess.run(["ffmpeg", "-v", "error", "-i", str(out), "-f", "null", "-"],
                          capture_output=True, text=True, check=True)
    assert said.stderr == ""
    assert _probe_duration(out) == _probe_duration(whole)
    assert out.read_bytes()[:3] == b"ID3" and b"Splice test" in out.read_bytes()[:200]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def _probe_duration(path: Path) -> str:
    return subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=duration",
                           "-of", "csv=p=0", str(path)], capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.mark.usefixtures("short_segments")
def test_the_joined_info_frame_counts_and_checks_what_follows(tmp_path: Path) -> None:
    pcm = _speechlike(24, seed=3)
    out = tmp_path / "split.mp3"
    with open_audio(out, SETTINGS) as sink:
        stream_into(sink, [pcm.tobytes()], len(pcm))
    stream = parse_stream(out.read_bytes())
    x = stream.xing_at
    frames, size = struct.unpack_from(">II", stream.info, x + 8)
    assert frames == len(stream.frames)
    assert size == len(stream.info) + sum(len(f) for f in stream.frames)
    length, music_crc, tag_crc = struct.unpack_from(">IHH", stream.info, x + 148)
    assert length == size
    music = b"".join(stream.frames)
    assert music_crc == crc16(music)
    blank = bytearray(stream.info)
    blank[x + 154:x + 156] = b"\0\0"
    assert tag_crc == crc16(bytes(blank[:190]))
    toc = stream.info[x + 16:x + 116]
    assert toc[0] == 0 and list(toc) == sorted(toc)


def test_same_track_same_bytes(tmp_path: Path) -> None:
    pcm = _speechlike(250, seed=11)  # long enough for two segments at the real minimum
    outs = [tmp_path / "a.mp3", tmp_path / "b.mp3"]
    for out in outs:
        with open_audio(out, SETTINGS) as sink:
            stream_into(sink, [pcm.tobytes()], len(pcm))
    assert outs[0].read_bytes() == outs[1].read_bytes()
    assert len(decode_file(outs[0])) == len(pcm)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=70_000))
def test_the_fast_crc_equals_the_plain_one(data: bytes) -> None:
    assert crc16_fast(data) == crc16(data)


def test_the_crc_is_ffmpegs_crc16() -> None:
    # CRC-16/ARC check value: the CRC of "123456789" (poly 0x8005 reflected, init 0)
    assert crc16(b"123456789") == 0xBB3D
    assert crc16_fast(b"123456789" * 5000) == crc16(b"123456789" * 5000)


@given(st.integers(0, 60 * 60 * RATE), st.integers(1, 8))
def test_segments_cover_every_frame_once_with_context_around_each_cut(
        total: int, count: int) -> None:
    segments = plan_segments(total, count)
    frames = total // FRAME_SAMPLES
    assert segments[0].first == 0 and segments[0].feed_from == 0
    assert segments[-1].keep is None and segments[-1].feed_to == total
    for a, b in itertools.pairwise(segments):
        assert a.keep is not None and a.first + a.keep == b.first  # no gap, no overlap
        assert a.feed_to == (b.first + TAIL) * FRAME_SAMPLES <= total
        assert b.skip == PREROLL and b.feed_from == (b.first - PREROLL) * FRAME_SAMPLES
        assert b.keep is None or b.keep >= 4 * (PREROLL + TAIL) - 1
    assert len(segments) <= max(1, min(count, frames // (4 * (PREROLL + TAIL))))


def test_a_stream_that_is_not_mpeg1_layer3_is_refused() -> None:
    with pytest.raises(SpliceError):
        parse_stream(b"\xff\xfb\x00\x00" + bytes(100))  # bitrate index 0 ("free")
    with pytest.raises(SpliceError):
        parse_stream(b"not an mp3 at all")


@pytest.mark.usefixtures("short_segments")
def test_a_failing_segment_encoder_is_reported_and_leaves_no_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = segmented._Feeder.__init__

    def broken_later_segments(self: segmented._Feeder, command: list[str],
                              errors: object) -> None:
        if "-id3v2_version" in command and command[command.index("-id3v2_version") + 1] == "0":
            command = [*command[:-1], "-no_such_option", "1", command[-1]]
        real(self, command, errors)  # type: ignore[arg-type]

    monkeypatch.setattr(segmented._Feeder, "__init__", broken_later_segments)
    work = tmp_path / "work"
    work.mkdir()
    out = work / "track.mp3"
    out.write_bytes(b"the user's file")
    pcm = _speechlike(20)
    with pytest.raises(AuthoringError, match="ffmpeg could not encode MP3"), \
            open_audio(out, SETTINGS) as sink:
        stream_into(sink, [pcm.tobytes()], len(pcm))
    assert out.read_bytes() == b"the user's file"
    assert sorted(p.name for p in work.iterdir()) == ["track.mp3"]


@pytest.mark.usefixtures("short_segments")
def test_a_join_that_cannot_be_written_is_one_clear_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"
    work.mkdir()
    out = work / "track.mp3"
    real_open = Path.open

    def full_disk(self: Path, mode: str = "r", *args: object, **kwargs: object) -> object:
        if mode == "wb" and self.name.endswith(".part"):
            raise OSError(28, "No space left on device")
        return real_open(self, mode, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(Path, "open", full_disk)
    pcm = _speechlike(20)
    with pytest.raises(InvalidInputError, match="No space left on device"), \
            open_audio(out, SETTINGS) as sink:
        stream_into(sink, [pcm.tobytes()], len(pcm))
    assert list(work.iterdir()) == []  # nothing half-written, no segment left
