"""Places clips into one buffer at exact sample positions, ducks the beds, guards the master.

Every clip is added into a single float32 buffer at ``start_ms * 44100 // 1000``: no chained
overlays, no concatenated silences, so nothing drifts. Speech ducks the alarm bed and the
static; static replaces the bed while communications are down. The master is scaled down as a
whole if it would peak above -1 dBFS, so it never clips.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from authoring.audio.pcm import RATE, Samples, db_to_gain
from authoring.mission.timeline import Cue

RAMP_MS = 60
BED_DUCK_DB = -15.0     # the bed under speech: another 15 dB down
STATIC_DUCK_DB = -12.0  # static under speech
MASTER_CEILING_DBFS = -1.0
_BLOCK = 1 << 16  # samples converted at a time: small enough to stay in cache


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


def _regions(spans: Iterable[tuple[int, int]], ramp: int, n: int) -> list[tuple[int, int]]:
    """Returns the merged sample ranges (ramps included) that the spans affect, within 0..n."""
    merged: list[list[int]] = []
    for s, e in sorted(spans):
        lo, hi = max(0, s - ramp), min(n, e + ramp)
        if hi <= lo:
            continue
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return [(lo, hi) for lo, hi in merged]


def duck(signal: Samples, ducks: Sequence[tuple[Sequence[tuple[int, int]], float]],
         offset: int = 0) -> None:
    """Lowers ``signal`` in place under each span, with short ramps; spans are absolute samples.

    ``ducks`` pairs a list of spans with the gain to fall to under them (0.0 silences). Only
    the affected stretches are touched, so the cost follows the ducked time, not the track's.
    """
    ramp = RAMP_MS * RATE // 1000
    n = len(signal)
    local = [([(s - offset, e - offset) for s, e in spans], floor) for spans, floor in ducks]
    every = [span for spans, _ in local for span in spans]
    for lo, hi in _regions(every, ramp, n):
        gain = np.ones(hi - lo, np.float32)
        for spans, floor in local:
            low = np.float32(floor)
            for s, e in spans:
                a, b = max(lo, s - ramp), min(hi, e + ramp)
                if b <= a:
                    continue
                # outside [s - ramp, e + ramp) the level is 1.0: only the ramps need the formula
                # (kept exactly as it was, so the output bytes do not change) and the span
                # itself sits at the floor
                for r0, r1 in ((a, min(b, s)), (max(a, e), b)):
                    if r1 > r0:
                        idx = np.arange(r0, r1)
                        down = np.clip((s - idx) / ramp, 0.0, 1.0)
                        up = np.clip((idx - e) / ramp, 0.0, 1.0)
                        level = floor + (1.0 - floor) * np.maximum(down, up)
                        part = gain[r0 - lo:r1 - lo]
                        np.minimum(part, level.astype(np.float32), out=part)
                f0, f1 = max(a, s), min(b, e)
                if f1 > f0:
                    part = gain[f0 - lo:f1 - lo]
                    np.minimum(part, low, out=part)
        signal[lo:hi] *= gain


def mix(placed: Sequence[Placed], length: int,
        bed: Samples | Callable[[Samples], None] | None = None,
        bed_span: tuple[int, int] = (0, 0)) -> tuple[Samples, float]:
    """Returns the mixed mono track and the master gain applied (1.0 when none was needed).

    ``bed`` is the alarm loop starting at ``bed_span[0]``: its samples, or a function that
    writes them into the stretch of track it is given (then no track-long bed array exists).
    It goes into the still silent track first and is ducked there, in place.
    """
    track = np.zeros(length, np.float32)
    speech = [(p.start, p.end) for p in placed if p.cue.speech]
    statics = [p for p in placed if p.cue.kind == "static"]
    if bed is not None:
        lo, hi = max(0, bed_span[0]), min(length, bed_span[1])
        if hi > lo:
            part = track[lo:hi]
            if callable(bed):
                bed(part)
            else:
                part[:] = bed[: hi - lo]
            # fade the bed in and out, duck it under speech, drop it under static
            duck(part, [([(lo - 10 * RATE, lo), (hi, hi + 10 * RATE)], 0.0),
                        (speech, db_to_gain(BED_DUCK_DB)),
                        ([(p.start, p.end) for p in statics], 0.0)], lo)
    for p in placed:
        end = min(p.end, length)
        clip = p.samples[: end - p.start]
        if p.cue.kind == "static":
            clip = np.array(clip, dtype=np.float32)
            duck(clip, [(speech, db_to_gain(STATIC_DUCK_DB))], p.start)
        track[p.start:end] += clip
    peak = float(max(np.max(track), -np.min(track))) if length else 0.0
    master = 1.0
    ceiling = db_to_gain(MASTER_CEILING_DBFS)
    if peak > ceiling:
        master = ceiling / peak
        track *= np.float32(master)
    return track, master


def to_stereo_pcm16(track: Samples) -> memoryview:
    """Returns the mono track as interleaved 16-bit stereo PCM (a byte view, no extra copy).

    The conversion runs block by block (rounded and clipped exactly as ``pcm.to_int16``), so
    no track-long float or mono intermediate is ever held besides the result.
    """
    n = len(track)
    stereo = np.empty((n, 2), np.int16)
    scaled = np.empty(min(n, _BLOCK), np.float32)
    ints = np.empty(min(n, _BLOCK), np.int16)
    for lo in range(0, n, _BLOCK):
        hi = min(n, lo + _BLOCK)
        block, mono = scaled[: hi - lo], ints[: hi - lo]
        np.multiply(track[lo:hi], np.float32(32768.0), out=block)
        np.rint(block, out=block)
        np.clip(block, -32768.0, 32767.0, out=block)
        mono[...] = block  # exact: whole numbers within the int16 range
        stereo[lo:hi, 0] = mono
        stereo[lo:hi, 1] = mono
    return stereo.data.cast("B")


class MixPlan:
    """A track to mix block by block: the placed clips, the looping bed and the master gain.

    ``blocks`` gives the same samples ``mix`` would, one stretch at a time, so the encoder can
    take the first seconds while the rest is still being mixed and no track-long buffer exists.
    Every sample goes through the same float32 operations in the same order as in ``mix``
    (bed, its ducking, then each clip in placing order, then the master gain), so the PCM is
    bit for bit the same.
    """

    def __init__(self, placed: Sequence[Placed], length: int, bed_loop: Samples | None = None,
                 bed_span: tuple[int, int] = (0, 0)) -> None:
        self.placed = list(placed)
        self.length = length
        self.bed_loop = bed_loop
        self.bed_span = (max(0, bed_span[0]), min(length, bed_span[1]))
        self._speech = [(p.start, p.end) for p in self.placed if p.cue.speech]
        statics = [p for p in self.placed if p.cue.kind == "static"]
        self._static_spans = [(p.start, p.end) for p in statics]
        self._clips: list[tuple[int, Samples]] = []
        for p in self.placed:
            clip = p.samples[: min(p.end, length) - p.start]
            if p.cue.kind == "static":
                clip = np.array(clip, dtype=np.float32)
                duck(clip, [(self._speech, db_to_gain(STATIC_DUCK_DB))], p.start)
            self._clips.append((p.start, clip))
        self._master: float | None = None

    def raw(self, lo: int, hi: int) -> Samples:
        """Returns samples ``lo:hi`` of the mix before the master gain."""
        out = np.zeros(hi - lo, np.float32)
        b0, b1 = self.bed_span
        if self.bed_loop is not None and max(lo, b0) < min(hi, b1):
            s0, s1 = max(lo, b0), min(hi, b1)
            part = out[s0 - lo:s1 - lo]
            from authoring.audio.sfx import loop_into

            loop_into(part, self.bed_loop, s0 - b0)
            reach = RAMP_MS * RATE // 1000

            def near(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
                # spans out of the ramp's reach leave these samples alone
                return [(s, e) for s, e in spans if e + reach > s0 and s - reach < s1]

            duck(part, [(near([(b0 - 10 * RATE, b0), (b1, b1 + 10 * RATE)]), 0.0),
                        (near(self._speech), db_to_gain(BED_DUCK_DB)),
                        (near(self._static_spans), 0.0)], s0)
        for start, clip in self._clips:
            c0, c1 = max(lo, start), min(hi, start + len(clip))
            if c1 > c0:
                out[c0 - lo:c1 - lo] += clip[c0 - start:c1 - start]
        return out

    def _bounds(self, size: int) -> list[float]:
        """Returns, per block of ``size``, an upper bound of |sample| (the parts' peaks summed)."""
        count = -(-self.length // size)
        bounds = [0.0] * count
        b0, b1 = self.bed_span
        if self.bed_loop is not None and b1 > b0:
            peak = float(np.max(np.abs(self.bed_loop)))
            for k in range(b0 // size, -(-b1 // size)):
                bounds[k] += peak
        for start, clip in self._clips:
            if not len(clip):
                continue
            # only the blocks this clip reaches, each with the peak of its own stretch
            for k in range(start // size, -(-(start + len(clip)) // size)):
                lo, hi = max(k * size, start), min((k + 1) * size, start + len(clip))
                bounds[k] += float(np.max(np.abs(clip[lo - start:hi - start])))
        return bounds

    @property
    def master(self) -> float:
        """Returns the master gain (1.0 unless the mix would peak above the ceiling).

        Only the blocks whose parts could add up above the ceiling are mixed to find the
        peak; a quiet mission starts encoding at once.
        """
        if self._master is None:
            ceiling = db_to_gain(MASTER_CEILING_DBFS)
            peak = 0.0
            for k, bound in enumerate(self._bounds(_BLOCK)):
                # the bound is a float64 sum of float32 peaks: keep a margin for rounding
                if bound * (1.0 + 1e-5) > ceiling:
                    block = self.raw(k * _BLOCK, min(self.length, (k + 1) * _BLOCK))
                    peak = max(peak, float(max(np.max(block), -np.min(block))))
            self._master = ceiling / peak if peak > ceiling else 1.0
        return self._master

    def blocks(self, size: int = _BLOCK) -> Iterator[Samples]:
        """Yields the finished track (master gain applied) in consecutive blocks."""
        master = self.master
        for lo in range(0, self.length, size):
            block = self.raw(lo, min(self.length, lo + size))
            if master != 1.0:
                block *= np.float32(master)
            yield block

    def track(self) -> Samples:
        """Returns the whole finished track in one array (for analysis, not for writing)."""
        out = np.empty(self.length, np.float32)
        at = 0
        for block in self.blocks():
            out[at:at + len(block)] = block
            at += len(block)
        return out


def pcm16_blocks(blocks: Iterable[Samples], channels: int) -> Iterator[bytes]:
    """Yields 16-bit PCM bytes of each float block, mono or as identical stereo channels.

    Rounded and clipped exactly as ``pcm.to_int16``.
    """
    for block in blocks:
        scaled = block * np.float32(32768.0)
        np.rint(scaled, out=scaled)
        np.clip(scaled, -32768.0, 32767.0, out=scaled)
        mono = scaled.astype(np.int16)
        if channels == 1:
            yield mono.tobytes()
        else:
            stereo = np.empty((len(mono), 2), np.int16)
            stereo[:, 0] = mono
            stereo[:, 1] = mono
            yield stereo.tobytes()
