"""The mixer's fast paths give exactly the samples of the plain formulas they replace."""

from __future__ import annotations

import numpy as np

from authoring.audio.mixer import RAMP_MS, duck, to_stereo_pcm16
from authoring.audio.pcm import RATE, to_int16


def _duck_reference(signal: np.ndarray, ducks: list[tuple[list[tuple[int, int]], float]],
                    offset: int) -> None:
    """Applies every span's gain curve over the whole signal (the direct formula)."""
    ramp = RAMP_MS * RATE // 1000
    idx = np.arange(len(signal)) + offset
    gain = np.ones(len(signal), np.float32)
    for spans, floor in ducks:
        for s, e in spans:
            down = np.clip((s - idx) / ramp, 0.0, 1.0)
            up = np.clip((idx - e) / ramp, 0.0, 1.0)
            level = floor + (1.0 - floor) * np.maximum(down, up)
            np.minimum(gain, level.astype(np.float32), out=gain)
    signal *= gain


def test_duck_matches_the_direct_formula_sample_for_sample() -> None:
    rng = np.random.default_rng(7)
    signal = rng.standard_normal(60_000).astype(np.float32)
    # overlapping, touching, ramp-close, clipped-at-the-edges and empty spans
    ducks = [([(1_000, 9_000), (8_000, 12_000), (14_000, 14_000), (-500, 300)], 0.178),
             ([(20_000, 21_000), (23_500, 30_000), (59_000, 70_000)], 0.0),
             ([(40_000, 45_000)], 0.25)]
    offset = 250
    expected = signal.copy()
    _duck_reference(expected, ducks, offset)
    duck(signal, ducks, offset)
    assert np.array_equal(signal, expected)
    assert not np.array_equal(signal, rng.standard_normal(60_000).astype(np.float32))


def test_stereo_pcm_is_the_rounded_mono_twice() -> None:
    rng = np.random.default_rng(3)
    track = (rng.standard_normal(200_003) * 0.6).astype(np.float32)  # some samples clip
    mono = to_int16(track)
    expected = np.repeat(mono, 2).tobytes()
    view = to_stereo_pcm16(track)
    assert view.nbytes == len(track) * 4
    assert view.tobytes() == expected


def test_alarm_bed_is_the_cycle_looped() -> None:
    from authoring.audio.pcm import db_to_gain
    from authoring.audio.sfx import alarm_bed, klaxon_cycle

    cycle = klaxon_cycle() * np.float32(db_to_gain(-20.0 - 30.0))
    n = len(cycle) * 2 + 1_234
    assert np.array_equal(alarm_bed(n, -20.0, -30.0), np.tile(cycle, 3)[:n])


def test_speech_level_over_parts_is_the_level_of_the_joined_parts_to_the_bit() -> None:
    from authoring.audio.pcm import rms_dbfs, rms_dbfs_of

    rng = np.random.default_rng(11)
    for _ in range(12):
        # clips of any length (empty, shorter than a piece, spanning several pieces); totals
        # from a few samples to several numpy pieces, so every branch of the halving is met
        sizes = rng.integers(0, 150_000, int(rng.integers(1, 25)))
        sizes[rng.integers(0, len(sizes))] = 0
        parts = [(rng.standard_normal(n) * rng.uniform(0.01, 0.9)).astype(np.float32)
                 for n in sizes]
        joined = np.concatenate(parts)
        assert rms_dbfs_of(parts) == rms_dbfs(joined)
    tiny = [np.array([0.5, -0.25], np.float32), np.array([0.125], np.float32)]
    assert rms_dbfs_of(tiny) == rms_dbfs(np.concatenate(tiny))
    assert rms_dbfs_of([]) == rms_dbfs(np.zeros(0, np.float32)) == float("-inf")
