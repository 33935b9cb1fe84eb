"""Places clips into one buffer at exact sample positions, ducks the beds, guards the master.

Every clip is added into a single float32 buffer at ``start_ms * 44100 // 1000``: no chained
overlays, no concatenated silences, so nothing drifts. Speech ducks the alarm bed and the
static; static replaces the bed while communications are down. The master is scaled down as a
whole if it would peak above -1 dBFS, so it never clips.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from authoring.audio.pcm import RATE, Samples, db_to_gain
from authoring.mission.timeline import Cue

RAMP_MS = 60
BED_DUCK_DB = -15.0     # the bed under speech: another 15 dB down
STATIC_DUCK_DB = -12.0  # static under speech
MASTER_CEILING_DBFS = -1.0


def start_sample(ms: int) -> int:
    """Returns the sample index where a cue starting at ``ms`` begins."""
    return ms * RATE // 1000


@dataclass(frozen=True)
class Placed:
    """A clip placed on the track for a cue."""

    index: int
    cue: Cue
    start: int
    samples: Samples

    @property
    def end(self) -> int:
        """Returns the sample index just after the clip."""
        return self.start + len(self.samples)


def duck(gain: Samples, spans: Iterable[tuple[int, int]], floor: float,
         offset: int = 0) -> None:
    """Lowers ``gain`` to ``floor`` over each span (absolute samples), with short ramps."""
    ramp = RAMP_MS * RATE // 1000
    n = len(gain)
    for span_start, span_end in spans:
        s, e = span_start - offset, span_end - offset
        lo, hi = max(0, s - ramp), min(n, e + ramp)
        if hi <= lo:
            continue
        idx = np.arange(lo, hi)
        down = np.clip((s - idx) / ramp, 0.0, 1.0)   # 1 before the ramp, 0 from s on
        up = np.clip((idx - e) / ramp, 0.0, 1.0)     # 0 until e, 1 after the ramp
        level = floor + (1.0 - floor) * np.maximum(down, up)
        np.minimum(gain[lo:hi], level.astype(np.float32), out=gain[lo:hi])


def mix(placed: Sequence[Placed], length: int, bed: Samples | None = None,
        bed_span: tuple[int, int] = (0, 0)) -> tuple[Samples, float]:
    """Returns the mixed mono track and the master gain applied (1.0 when none was needed)."""
    track = np.zeros(length, np.float32)
    speech = [(p.start, p.end) for p in placed if p.cue.speech]
    statics = [p for p in placed if p.cue.kind == "static"]
    if bed is not None:
        lo, hi = max(0, bed_span[0]), min(length, bed_span[1])
        if hi > lo:
            gain = np.ones(hi - lo, np.float32)
            # fade the bed in and out, then duck it under speech and drop it under static
            duck(gain, [(lo - 10 * RATE, lo), (hi, hi + 10 * RATE)], 0.0, lo)
            duck(gain, speech, db_to_gain(BED_DUCK_DB), lo)
            duck(gain, [(p.start, p.end) for p in statics], 0.0, lo)
            track[lo:hi] += bed[: hi - lo] * gain
    for p in placed:
        end = min(p.end, length)
        clip = p.samples[: end - p.start]
        if p.cue.kind == "static":
            gain = np.ones(len(clip), np.float32)
            duck(gain, speech, db_to_gain(STATIC_DUCK_DB), p.start)
            clip = clip * gain
        track[p.start:end] += clip
    peak = float(np.max(np.abs(track))) if length else 0.0
    master = 1.0
    ceiling = db_to_gain(MASTER_CEILING_DBFS)
    if peak > ceiling:
        master = ceiling / peak
        track *= np.float32(master)
    return track, master


def to_stereo_pcm16(track: Samples) -> bytes:
    """Returns the mono track as interleaved 16-bit stereo PCM bytes."""
    from authoring.audio.pcm import to_int16

    mono = to_int16(track)
    return np.repeat(mono, 2).tobytes()
