"""Sample-level helpers: WAV bytes in and out, resampling, trimming, filtering, loudness.

Clips travel through the renderer as mono ``float32`` arrays at ``RATE`` (44.1 kHz) with full
scale at 1.0. Resampling uses ``scipy.signal.resample_poly`` (pydub's ``set_frame_rate`` is a
linear interpolator that leaves audible images above 11 kHz).
"""

from __future__ import annotations

import io
import math
import wave
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from authoring.audio.rate import RATE as RATE  # re-exported: most modules take it from here

Samples = npt.NDArray[np.float32]

SILENCE_DBFS = -50.0        # below this a sample counts as silence when trimming
SOUND_HF_DBFS = -63.0       # a 1 ms frame whose RMS above SOUND_HF_HZ is over this carries sound
SOUND_HF_HZ = 1_000.0
ONSET_RUN_MS = 5            # speech starts with this many 1 ms frames in a row that carry sound
SHORT_CLIP_S = 0.4          # pyloudnorm needs at least one 400 ms block
PEAK_OVER_LUFS_DB = 14.0    # a loudness-normalised word peaks about 14 dB above its LUFS
CLIP_CEILING_DBFS = -1.0     # no clip may peak above this


def db_to_gain(db: float) -> float:
    """Returns the linear gain of ``db`` decibels."""
    return float(10.0 ** (db / 20.0))


def gain_to_db(gain: float) -> float:
    """Returns ``gain`` in decibels (-inf for zero)."""
    return 20.0 * math.log10(gain) if gain > 0 else -math.inf


def rms_dbfs(x: npt.NDArray[Any]) -> float:
    """Returns the RMS level of ``x`` in dBFS (full scale = 1.0)."""
    if x.size == 0:
        return -math.inf
    return gain_to_db(float(np.sqrt(np.mean(np.square(x, dtype=np.float64)))))


#: Samples squared and summed per numpy call in ``rms_dbfs_of`` (a float64 buffer of 512 KiB).
_RMS_LEAF = 1 << 16


def rms_dbfs_of(parts: Sequence[npt.NDArray[np.float32]]) -> float:
    """Returns ``rms_dbfs`` of the parts joined end to end, to the last bit, without joining them.

    The speech level of a render is taken over every clip at once: joining them first cost a
    track-long float32 copy and its float64 squares (about 110 MB and 0.1 s before the first
    block could be written). The squares of float32 samples are exact in float64, so only the
    order of the additions matters: numpy sums a float64 array pairwise, halving it (at a
    multiple of 8) until a piece is short, and this walks the same halves, handing numpy each
    short piece, so the sum and the mean are the ones ``rms_dbfs`` gives
    (tests/audio/test_mixer.py compares them).
    """
    total = sum(len(p) for p in parts)
    if total == 0:
        return -math.inf
    squares = np.empty(min(total, _RMS_LEAF), np.float64)
    index = offset = 0  # where the next piece starts: a part and a sample in it

    def piece_sum(count: int) -> float:
        nonlocal index, offset
        out = squares[:count]
        filled = 0
        while filled < count:
            part = parts[index]
            take = min(count - filled, len(part) - offset)
            np.square(part[offset:offset + take], out=out[filled:filled + take],
                      dtype=np.float64)
            filled += take
            offset += take
            if offset == len(part):
                index, offset = index + 1, 0
        return float(np.add.reduce(out))

    def pairwise(count: int) -> float:
        if count <= _RMS_LEAF:
            return piece_sum(count)
        half = count // 2
        half -= half % 8
        return pairwise(half) + pairwise(count - half)

    return gain_to_db(float(np.sqrt(np.float64(pairwise(total)) / total)))


def from_int(data: bytes, width: int, channels: int) -> Samples:
    """Returns little-endian PCM bytes as mono float32 (channels averaged)."""
    if width == 1:
        x = (np.frombuffer(data, np.uint8).astype(np.float32) - 128.0) / 128.0
    elif width == 2:
        x = np.frombuffer(data, "<i2").astype(np.float32) / 32768.0
    elif width == 3:
        raw = np.frombuffer(data, np.uint8).reshape(-1, 3)
        ints = (raw[:, 0].astype(np.int32) | (raw[:, 1].astype(np.int32) << 8)
                | (raw[:, 2].astype(np.int32) << 16))
        ints = np.where(ints >= 1 << 23, ints - (1 << 24), ints)
        x = ints.astype(np.float32) / float(1 << 23)
    elif width == 4:
        x = (np.frombuffer(data, "<i4").astype(np.float64) / 2.0**31).astype(np.float32)
    else:
        raise ValueError(f"unsupported sample width {width}")
    if channels > 1:
        x = x[: len(x) - len(x) % channels].reshape(-1, channels).mean(axis=1)
    return np.ascontiguousarray(x, dtype=np.float32)


def read_wav(data: bytes) -> tuple[Samples, int]:
    """Returns the samples (mono float32) and rate of a PCM WAV file's bytes."""
    with wave.open(io.BytesIO(data), "rb") as w:
        frames = w.readframes(w.getnframes())
        return from_int(frames, w.getsampwidth(), w.getnchannels()), w.getframerate()


def to_int16(x: npt.NDArray[Any]) -> npt.NDArray[np.int16]:
    """Returns float samples as int16, rounded and clipped to full scale."""
    # float32 is exact here: scaling by a power of two, then integers below 2**24
    scaled = np.asarray(x, np.float32) * np.float32(32768.0)
    np.rint(scaled, out=scaled)
    np.clip(scaled, -32768.0, 32767.0, out=scaled)
    return scaled.astype(np.int16)


def wav_bytes(x: npt.NDArray[Any], rate: int = RATE, channels: int = 1) -> bytes:
    """Returns float samples (frames x channels, or mono) as 16-bit PCM WAV bytes."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(to_int16(x).tobytes())
    return buffer.getvalue()


def resample(x: Samples, rate: int, target: int = RATE) -> Samples:
    """Returns ``x`` resampled from ``rate`` to ``target`` with a polyphase filter."""
    if rate == target:
        return x
    from scipy.signal import resample_poly

    g = math.gcd(rate, target)
    return np.asarray(resample_poly(x, target // g, rate // g), dtype=np.float32)


def onset(x: Samples) -> int:
    """Returns where the speech of ``x`` starts: its first sample over the silence line from
    which ``ONSET_RUN_MS`` milliseconds in a row carry sound (``len(x)`` when none does).

    flite (slt) starts every sentence with 175-250 ms of its own noise floor, not digital
    silence: its loudest 5 ms at -57 to -61 dBFS, mostly under 200 Hz. The silence line alone
    drops it, except before "Communication", where a 4 ms low-frequency bump of that floor
    crosses the line 19 ms before the "k": those cues were heard 19-22 ms after their start.
    A millisecond carries sound when one of its samples crosses the silence line or its RMS
    above ``SOUND_HF_HZ`` exceeds ``SOUND_HF_DBFS``: a fricative's faint start does (flite's
    "f" and "th", about -60 dBFS there), flite's floor does not (-68 dBFS and under between
    the bump and the "k"). The onset is never before the first sample over the line, so a
    consonant the line kept stays whole, and a clip that starts cleanly (espeak-ng, every
    other flite sentence measured) starts where it always did (bench/onset.py measures both).
    """
    ms = RATE // 1000
    loud = np.abs(x) > db_to_gain(SILENCE_DBFS)
    crossings = np.flatnonzero(loud)
    if crossings.size == 0 or len(x) < ONSET_RUN_MS * ms:
        return int(crossings[0]) if crossings.size else len(x)
    from scipy.signal import butter, sosfiltfilt

    sos = butter(4, SOUND_HF_HZ, btype="highpass", fs=RATE, output="sos")
    power = np.concatenate([[0.0], np.cumsum(np.square(sosfiltfilt(sos, x.astype(np.float64))))])
    count = np.concatenate([[0], np.cumsum(loud)])
    # sound[t]: the millisecond from sample t carries sound
    sound = ((count[ms:] > count[:-ms])
             | (power[ms:] - power[:-ms] > ms * db_to_gain(SOUND_HF_DBFS) ** 2))
    run = ONSET_RUN_MS * ms
    starts = crossings[crossings <= len(sound) - run]
    heard = np.ones(starts.size, bool)
    for j in range(ONSET_RUN_MS):
        heard &= sound[starts + j * ms]
    return int(starts[np.argmax(heard)]) if heard.any() else int(crossings[0])


def trim_silence(x: Samples, *, tail_ms: int = 30) -> Samples:
    """Returns ``x`` from its first sample over the silence line to at most ``tail_ms`` after
    its last one: the utterance as the voice produced it, without the silence around it.

    What precedes the speech onset (``onset``) is still there: the synthesizer measures a
    clip's loudness on this, then leaves the lead out (``authoring/audio/synth.py``).
    """
    loud = np.flatnonzero(np.abs(x) > db_to_gain(SILENCE_DBFS))
    if loud.size == 0:
        return x[:0]
    end = min(len(x), int(loud[-1]) + 1 + tail_ms * RATE // 1000)
    return x[int(loud[0]):end]


def trim(x: Samples, *, tail_ms: int = 30) -> Samples:
    """Returns ``x`` from its speech onset on, with at most ``tail_ms`` of trailing silence.

    The first kept sample is the speech onset (``onset`` of ``trim_silence``), so a clip
    placed at a cue's start sample is heard there (tests/audio/test_render.py checks it after
    decoding). It is the part of the utterance a synthesized clip keeps.
    """
    spoken = trim_silence(x, tail_ms=tail_ms)
    return spoken[onset(spoken):]


RADIO_LOW_HZ = 200.0
RADIO_HIGH_HZ = 7000.0
RADIO_DRIVE = 1.2  # tanh saturation: a little grit without smearing consonants


def radio(x: Samples) -> Samples:
    """Returns ``x`` through a ship-radio effect: 200-7000 Hz band and light saturation.

    Wider than a telephone band (300-3400 Hz) on purpose: the telephone band took the
    consonants that tell "three" from "free" and "zone" from "low", and cost the default voice
    many times more words; this band costs the default voice none (voices/README.md).
    """
    if x.size < 64:
        return x
    from scipy.signal import butter, sosfiltfilt

    sos = butter(4, [RADIO_LOW_HZ, RADIO_HIGH_HZ], btype="bandpass", fs=RATE, output="sos")
    # zero-phase filtering keeps the onset where it is
    y = sosfiltfilt(sos, x.astype(np.float64))
    peak = float(np.max(np.abs(y))) or 1.0
    y = np.tanh(RADIO_DRIVE * y / peak) / math.tanh(RADIO_DRIVE) * peak
    return np.asarray(y, dtype=np.float32)


def normalise(x: Samples, lufs: float) -> Samples:
    """Returns ``x`` at ``lufs`` integrated loudness (under 400 ms: by peak), never clipping."""
    if x.size == 0:
        return x
    peak = float(np.max(np.abs(x)))
    if peak == 0.0:
        return x
    gain: float
    if x.size >= int(SHORT_CLIP_S * RATE) + 1:
        import pyloudnorm

        loudness = float(pyloudnorm.Meter(RATE).integrated_loudness(x.astype(np.float64)))
        gain = db_to_gain(lufs - loudness) if math.isfinite(loudness) else 1.0
    else:
        gain = db_to_gain(lufs + PEAK_OVER_LUFS_DB) / peak
    gain = min(gain, db_to_gain(CLIP_CEILING_DBFS) / peak)
    return np.asarray(x * gain, dtype=np.float32)
